#pragma once
// A table: what `poslab table ID` prints and what every lesson's tables show
// (docs/CONTRACT.md §3). Plain data; builders in lessons/<name>/tables.cpp,
// listed by lessons/registry.cpp; formats in export/table_writer.*.

#include <cstdint>
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

/// At most this many rows per table (a narrower `pos` or `distance` list is
/// the answer to a bigger request); keeps any output under ~100 MB.
inline constexpr std::size_t kMaxTableRows = 1'000'000;

/// What a too-long table asks the user to narrow, in its message.
enum class RowsHint { positions, distances };

/// Raises InvalidParameter on `key` when `rows` would exceed kMaxTableRows.
void check_table_rows(std::string_view key, double rows, RowsHint hint = RowsHint::positions);

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
};

/// Every table, in the order `poslab list tables` prints them.
std::span<const TableDef> table_defs();

/// The table with `id`, or nullptr.
const TableDef* find_table(std::string_view id);

/// Applies the table's own defaults to unset keys, checks the relations
/// between the keys `def` reads, builds the table, and records in
/// `Table::params` the value of every key read. Raises core::InvalidParameter.
Table build_table(const TableDef& def, const core::Params& params);

}  // namespace poslab::app
