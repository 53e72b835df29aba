#include "app/export/table_writer.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "app/common/safe_text.hpp"
#include "app/export/format_names.hpp"

namespace poslab::app {

namespace {

constexpr std::array<FormatName<TableFormat>, 4> kTableFormats{
    {{"csv", TableFormat::csv}, {"json", TableFormat::json}, {"md", TableFormat::md}, {"tex", TableFormat::tex}}};

std::string json_escape(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string json_cell(const Cell& c) {
  if (const auto* s = std::get_if<std::string>(&c)) return json_escape(*s);
  if (const auto* x = std::get_if<double>(&c)) return std::isfinite(*x) ? core::format_number(*x) : "null";
  return format_cell(c);
}

std::string json_param(const core::ParamValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using V = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<V, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<V, double>) {
          return core::format_number(x);
        } else if constexpr (std::is_same_v<V, std::string>) {
          return json_escape(x);
        } else {
          std::string out = "[";
          for (std::size_t i = 0; i < x.size(); ++i) {
            if (i) out += ',';
            out += core::format_number(x[i]);
          }
          return out + "]";
        }
      },
      v);
}

std::string tex_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '_': out += "\\_"; break;
      case '%': out += "\\%"; break;
      case '&': out += "\\&"; break;
      case '#': out += "\\#"; break;
      case '$': out += "\\$"; break;
      case '{': out += "\\{"; break;
      case '}': out += "\\}"; break;
      case '~': out += "\\textasciitilde{}"; break;
      case '^': out += "\\textasciicircum{}"; break;
      case '\\': out += "\\textbackslash{}"; break;
      default: out += c;
    }
  }
  return out;
}

bool is_numeric(const Cell& c) { return std::holds_alternative<double>(c) || std::holds_alternative<long long>(c); }

/// Appends a number cell as format_cell(c) writes it, without a temporary
/// string; false for words (the caller quotes or escapes them).
bool append_numeric(std::string& out, const Cell& c) {
  if (const double* x = std::get_if<double>(&c)) return core::append_number(out, *x), true;
  if (const long long* n = std::get_if<long long>(&c)) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, *n);
    return out.append(buf, r.ptr), true;
  }
  if (const bool* b = std::get_if<bool>(&c)) return out += *b ? "true" : "false", true;
  return false;
}

/// Room for the text of `t` (about 24 characters a cell), reserved once so a
/// million rows are not copied as the text grows; pages never written cost
/// no memory.
std::size_t text_estimate(const Table& t) { return 256 + t.rows.size() * (t.columns.size() * 24 + 4); }

std::string write_csv(const Table& t) {
  std::string out;
  out.reserve(text_estimate(t));
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    if (c) out += ',';
    out += csv_field(t.columns[c]);
  }
  out += '\n';
  for (const auto& row : t.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c) out += ',';
      if (!append_numeric(out, row[c])) out += csv_field(format_cell(row[c]));
    }
    out += '\n';
  }
  return out;
}

std::string write_json(const Table& t) {
  std::string out;
  out.reserve(text_estimate(t));
  out += "{\"table\":" + json_escape(t.id) + ",\"params\":{";
  for (std::size_t i = 0; i < t.params.size(); ++i) {
    if (i) out += ',';
    out += json_escape(t.params[i].first) + ':' + json_param(t.params[i].second);
  }
  out += "},\"columns\":[";
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    if (c) out += ',';
    out += json_escape(t.columns[c]);
  }
  out += "],\"rows\":[";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (r) out += ',';
    out += '[';
    for (std::size_t c = 0; c < t.rows[r].size(); ++c) {
      if (c) out += ',';
      const Cell& cell = t.rows[r][c];
      const double* x = std::get_if<double>(&cell);
      if ((x && !std::isfinite(*x)) || !append_numeric(out, cell)) out += json_cell(cell);
    }
    out += ']';
  }
  out += "],\"meta\":{";
  for (std::size_t i = 0; i < t.meta.size(); ++i) {
    if (i) out += ',';
    out += json_escape(t.meta[i].first) + ':' + json_cell(t.meta[i].second);
  }
  out += "}}\n";
  return out;
}

std::string write_md(const Table& t, int digits) {
  std::string out = "|";
  for (const auto& c : t.columns) out += ' ' + for_markdown(c) + " |";
  out += "\n|";
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    const bool right = !t.rows.empty() && c < t.rows.front().size() && is_numeric(t.rows.front()[c]);
    out += right ? " ---: |" : " --- |";
  }
  out += '\n';
  for (const auto& row : t.rows) {
    out += '|';
    for (const auto& cell : row) out += ' ' + for_markdown(format_cell(cell, digits)) + " |";
    out += '\n';
  }
  if (!t.meta.empty()) {
    out += '\n';
    for (const auto& [k, v] : t.meta) out += "- " + for_markdown(k) + ": " + for_markdown(format_cell(v, digits)) + '\n';
  }
  return out;
}

std::string write_tex(const Table& t, int digits) {
  std::string spec;
  for (std::size_t c = 0; c < t.columns.size(); ++c)
    spec += (!t.rows.empty() && c < t.rows.front().size() && is_numeric(t.rows.front()[c])) ? 'r' : 'l';
  std::string out = "\\begin{tabular}{" + spec + "}\n\\toprule\n";
  for (std::size_t c = 0; c < t.columns.size(); ++c) out += (c ? " & " : "") + tex_escape(t.columns[c]);
  out += " \\\\\n\\midrule\n";
  for (const auto& row : t.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      std::string cell = tex_escape(format_cell(row[c], digits));
      if (is_numeric(row[c]) && !cell.empty() && cell.front() == '-') cell = "$-$" + cell.substr(1);
      out += (c ? " & " : "") + cell;
    }
    out += " \\\\\n";
  }
  out += "\\bottomrule\n";
  if (!t.meta.empty()) {
    std::string note;
    for (const auto& [k, v] : t.meta) note += (note.empty() ? "" : "; ") + tex_escape(k) + " = " + tex_escape(format_cell(v, digits));
    out += "\\multicolumn{" + std::to_string(t.columns.size()) + "}{l}{\\footnotesize " + note + "} \\\\\n";
  }
  out += "\\end{tabular}\n";
  return out;
}

}  // namespace

TableFormat parse_table_format(std::string_view word) { return parse_format(word, kTableFormats); }

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string format_cell(const Cell& cell, int digits) {
  return std::visit(
      [digits](const auto& x) -> std::string {
        using V = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<V, double>) {
          if (digits <= 0 || !std::isfinite(x)) return core::format_number(x);
          char buf[64];
          std::snprintf(buf, sizeof buf, "%.*g", digits, x);
          return buf;
        } else if constexpr (std::is_same_v<V, long long>) {
          return std::to_string(x);
        } else if constexpr (std::is_same_v<V, bool>) {
          return x ? "true" : "false";
        } else {
          return x;
        }
      },
      cell);
}

std::string write_table(const Table& table, TableFormat format, const TableWriteOptions& options) {
  switch (format) {
    case TableFormat::csv: return write_csv(table);
    case TableFormat::json: return write_json(table);
    case TableFormat::md: return write_md(table, options.digits);
    case TableFormat::tex: return write_tex(table, options.digits);
  }
  return {};
}

}  // namespace poslab::app
