#pragma once
// A table: what `poslab table ID` prints and what every lesson's tables show
// (docs/CONTRACT.md §3). Plain data; builders in lessons/<name>/tables.cpp,
// listed by lessons/registry.cpp; formats in export/table_writer.*.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "poslab/core/params.hpp"

namespace poslab::app {

/// One cell: a number, an integer, a word, or a yes/no flag.
using Cell = std::variant<double, long long, std::string, bool>;

struct Table {
  std::string id;
  /// The parameters the table read, with the values it used (defaults included).
  std::vector<std::pair<std::string, core::ParamValue>> params;
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;
  std::vector<std::pair<std::string, Cell>> meta;

  void add_row(std::vector<Cell> row) { rows.push_back(std::move(row)); }
};

/// What a table will cost, known from its parameters before it is built
/// (docs/CONTRACT.md §3 "Budgets", app/lessons/budget.hpp): `rows(count)`
/// rows of `columns` cells, each row `per_row` units of work. `key` is the
/// parameter that sets the number of rows — `count` is its item count (a
/// list) or its value (a number); empty for a table of fixed size.
struct TableCost {
  std::string_view key;
  double columns = 1;
  std::function<double(double count)> rows;
  double per_row = 1;
  /// per_row in the contract's symbols ("d/2", "|vector|"); "1" for one unit.
  std::string per_row_formula = "1";
};

/// The common shape: `rows_per_item` rows for each item (or unit of value) of
/// `key`.
TableCost rows_of(std::string_view key, double columns, double per_row = 1, std::string per_row_formula = "1",
                  double rows_per_item = 1);
/// A table whose size the parameters set without one key to blame (d/2
/// pairs, a fixed list of notes): checked all the same.
TableCost fixed_rows(double rows, double columns, double per_row = 1, std::string per_row_formula = "1");

/// Raises the budget refusal (app/lessons/budget.hpp) when the table `cost`
/// describes is over kTableCellBudget cells or kTableWorkBudget work.
void check_table_cost(const TableCost& cost, const core::Params& params);

/// A table of the registry: its id, the keys it reads, and its builder.
struct TableDef {
  std::string_view id;
  std::string_view summary;  ///< one English line for `poslab list tables`
  std::vector<std::string_view> keys;
  /// Defaults of this table for keys left unset, overriding the global ones
  /// (e.g. pos = "0:9" for `sinusoidal`); listed in `poslab list tables`.
  std::vector<std::pair<std::string_view, std::string_view>> defaults;
  /// Builds the table; parameters were checked (single values and relations
  /// over `keys`). Raises core::InvalidParameter for what only it can judge.
  Table (*build)(const core::Params& params);
  /// Its size and work at the parameters (checked, defaults applied), before
  /// it is built: build_table refuses what is over budget.
  TableCost (*cost)(const core::Params& params) = nullptr;
};

/// The size of the table `def` would build at `params` (its own defaults
/// applied, relations checked), without building it. Raises
/// core::InvalidParameter as build_table does for invalid parameters.
struct TableSize {
  double rows = 0, cells = 0, work = 0;
};
TableSize table_size(const TableDef& def, const core::Params& params);

/// A table the GUI builds on its own thread while a slider moves: at most
/// these (the decay lesson's defaults, 0:65536 over three bases, make
/// decay-bases 786,444 cells and decay-compare 12.6 million units, ~0.1 s
/// each); a larger one is written by `poslab table` instead.
inline constexpr double kScreenTableCells = 1'048'576;
inline constexpr double kScreenTableWork = 16'777'216;

/// Every table, in the order `poslab list tables` prints them.
std::span<const TableDef> table_defs();

/// The table with `id`, or nullptr.
const TableDef* find_table(std::string_view id);

/// Applies the table's own defaults to unset keys, checks the relations
/// between the keys `def` reads and the table's budgets, builds the table, and records in
/// `Table::params` the value of every key read. Raises core::InvalidParameter.
Table build_table(const TableDef& def, const core::Params& params);

}  // namespace poslab::app
