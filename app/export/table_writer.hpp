#pragma once
// Tables → text: csv, json, md (Markdown), tex (LaTeX booktabs), as
// docs/CONTRACT.md §3 defines them.

#include <string>
#include <string_view>

#include "app/lessons/table.hpp"

namespace poslab::app {

enum class TableFormat { csv, json, md, tex };

/// "csv" | "json" | "md" | "tex"; raises core::InvalidParameter on "format".
TableFormat parse_table_format(std::string_view word);

struct TableWriteOptions {
  /// Significant digits for numbers; 0 = shortest round-trip form (full
  /// double precision). csv and json always use 0.
  int digits = 0;
};

/// The table as text in `format`.
/// csv:  a header row of column names, then the rows (RFC 4180 quoting).
/// json: {"table", "params", "columns", "rows", "meta"}, numbers shortest round-trip.
/// md:   a pipe table, then meta as a list; ready to paste into Markdown.
/// tex:  a booktabs tabular (needs \usepackage{booktabs}), meta as a footnote row.
std::string write_table(const Table& table, TableFormat format, const TableWriteOptions& options = {});

/// A CSV field as RFC 4180 writes it: quoted (quotes doubled) when it holds
/// a comma, a quote or a line break. Shared with figure_csv.
std::string csv_field(const std::string& s);

/// A cell as text: numbers in shortest round-trip form (or `digits`
/// significant digits), integers exactly, booleans as true/false.
std::string format_cell(const Cell& cell, int digits = 0);

}  // namespace poslab::app
