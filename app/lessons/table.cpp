// Finding and building a table of the registry (lessons/registry.cpp), within
// its budgets (lessons/budget.hpp).

#include "app/lessons/table.hpp"

#include <stdexcept>
#include <string>

#include "app/lessons/budget.hpp"

namespace poslab::app {

namespace {

std::string whole(double x) { return std::to_string(static_cast<long long>(x)); }

/// The item count of list `key`, or the value of number `key`.
double count_of(const core::Params& params, std::string_view key) {
  const core::ParamValue v = params.value(key);
  if (const auto* items = std::get_if<std::vector<double>>(&v)) return static_cast<double>(items->size());
  return params.real(key);
}

}  // namespace

TableCost rows_of(std::string_view key, double columns, double per_row, std::string per_row_formula,
                  double rows_per_item) {
  return {key, columns, [rows_per_item](double n) { return n * rows_per_item; }, per_row, std::move(per_row_formula)};
}

TableCost fixed_rows(double rows, double columns, double per_row, std::string per_row_formula) {
  return {{}, columns, [rows](double) { return rows; }, per_row, std::move(per_row_formula)};
}

void check_table_cost(const TableCost& cost, const core::Params& params) {
  const auto cells = [&](double n) {
    const double rows = cost.rows(n);
    return BudgetUse{BudgetKind::cells, "rows × columns", whole(rows) + " × " + whole(cost.columns),
                     rows * cost.columns, kTableCellBudget};
  };
  const auto work = [&](double n) {
    const double rows = cost.rows(n);
    const bool one = cost.per_row_formula == "1";
    return BudgetUse{BudgetKind::work, one ? "rows" : "rows × " + cost.per_row_formula,
                     one ? whole(rows) : whole(rows) + " × " + core::format_number(cost.per_row), rows * cost.per_row,
                     kTableWorkBudget};
  };
  if (cost.key.empty()) {  // a size no key sets: within budget by construction (tests/app/test_tables.cpp)
    if (cells(0).amount > kTableCellBudget || work(0).amount > kTableWorkBudget)
      throw std::logic_error("a table of fixed size is over its budget");
    return;
  }
  const double count = count_of(params, cost.key);
  check_budget(params, cost.key, count, {cells, work});
}

TableSize table_size(const TableDef& def, const core::Params& params) {
  core::Params resolved = params;
  for (const auto& [key, text] : def.defaults)
    if (!resolved.is_set(key)) resolved.set_text(key, text);
  core::check_param_relations(resolved, def.keys);
  if (!def.cost) return {};
  const TableCost cost = def.cost(resolved);
  const double rows = cost.rows(cost.key.empty() ? 0 : count_of(resolved, cost.key));
  return {rows, rows * cost.columns, rows * cost.per_row};
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
  if (def.cost) check_table_cost(def.cost(resolved), resolved);
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
