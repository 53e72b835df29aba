// Fuzz target: every table with fuzzed parameters, written in every format.
// Invariants: invalid input raises InvalidParameter only; valid input builds a
// table whose cells are finite and whose JSON parses back.

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "app/export/table_writer.hpp"
#include "app/lessons/budget.hpp"
#include "app/lessons/table.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 2048) return 0;
  poslab::fuzz::Input in(data, size);
  const auto defs = poslab::app::table_defs();
  const auto& def = defs[in.byte() % defs.size()];
  const poslab::core::Params params = poslab::fuzz::fuzzed_params(in, def.keys, 2048);
  poslab::app::Table t;
  try {
    t = poslab::app::build_table(def, params);
  } catch (const poslab::core::InvalidParameter&) {
    return 0;
  }
  // Within the budgets build_table checked before building (docs/CONTRACT.md §3).
  if (static_cast<double>(t.rows.size()) * static_cast<double>(t.columns.size()) > poslab::app::kTableCellBudget)
    poslab::fuzz::fail("a table over its cell budget", def.id, params);
  if (t.rows.size() > 20000) return 0;  // valid and large: formatting is tested on smaller ones
  for (const auto& row : t.rows) {
    if (row.size() != t.columns.size()) poslab::fuzz::fail("a row of the wrong width", def.id, params);
    for (const auto& c : row)
      if (const double* x = std::get_if<double>(&c); x && !std::isfinite(*x))
        poslab::fuzz::fail("a non-finite cell", def.id, params);
  }
  for (auto f : {poslab::app::TableFormat::csv, poslab::app::TableFormat::md, poslab::app::TableFormat::tex})
    if (poslab::app::write_table(t, f).empty()) std::abort();
  const auto j = nlohmann::json::parse(poslab::app::write_table(t, poslab::app::TableFormat::json));
  if (j["rows"].size() != t.rows.size()) std::abort();
  return 0;
}
