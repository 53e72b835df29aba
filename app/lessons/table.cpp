// Finding and building a table of the registry (lessons/registry.cpp).

#include "app/lessons/table.hpp"

#include <string>

namespace poslab::app {

void check_table_rows(std::string_view key, double rows, RowsHint hint) {
  if (rows <= static_cast<double>(kMaxTableRows)) return;
  const std::string max = std::to_string(kMaxTableRows), n = core::format_number(rows);
  const std::string value = "(" + n + " rows)", limit = "the table would have more than " + max;
  if (hint == RowsHint::positions)
    throw core::InvalidParameter(std::string(key), value, limit + " rows; ask for fewer positions or a smaller d",
                                 core::Reason{"max_rows_positions", {{"max", max}, {"n", n}}, "rows"});
  throw core::InvalidParameter(std::string(key), value, limit + " rows; ask for fewer distances or fewer bases",
                               core::Reason{"max_rows_distances", {{"max", max}, {"n", n}}, "rows"});
}

const TableDef* find_table(std::string_view id) {
  for (const TableDef& def : table_defs())
    if (def.id == id) return &def;
  return nullptr;
}

Table build_table(const TableDef& def, const core::Params& params) {
  core::Params resolved = params;
  for (const auto& [key, text] : def.defaults)
    if (!resolved.is_set(key)) resolved.set_text(key, text);
  core::check_param_relations(resolved, def.keys);
  Table t = def.build(resolved);
  t.id = std::string(def.id);
  t.params.clear();
  // A key with no default that is not set (LongRoPE's lists: "uniform") has no value to list.
  for (std::string_view key : def.keys)
    if (resolved.is_set(key) || !core::param_spec(key).default_text.empty())
      t.params.emplace_back(std::string(key), resolved.value(key));
  return t;
}

}  // namespace poslab::app
