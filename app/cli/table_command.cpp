// `poslab table ID [--set KEY=VALUE]... [--format csv|json|md|tex] [--out FILE]`

#include <CLI/CLI.hpp>
#include <algorithm>

#include "app/cli/cli.hpp"
#include "app/cli/commands.hpp"
#include "app/export/table_writer.hpp"
#include "app/lessons/table.hpp"

namespace poslab::app::cli {

CLI::App* add_table_command(CLI::App& app, TableRequest& r) {
  CLI::App* sub = app.add_subcommand("table", "print a table of numbers (docs/CONTRACT.md §3)");
  sub->add_option("id", r.id, "table id (poslab list tables)")->required();
  sub->add_option("--set", r.sets, "KEY=VALUE, repeatable");
  sub->add_option("--model", r.model, "a Hugging Face config.json whose params apply first (poslab model)");
  sub->add_option("--format", r.format, "csv (default), json, md or tex");
  sub->add_option("--out", r.out, "write to this file instead of standard output");
  sub->add_option("--digits", r.digits, "significant digits for md/tex, 0..17 (default 6; 0 = full precision)");
  sub->add_option("--lang", r.lang, "language of error messages: en or zh (default: the system language)");
  return sub;
}

namespace {

std::string known_tables() {
  std::string out;
  for (const TableDef& def : table_defs()) out += (out.empty() ? "" : ", ") + std::string(def.id);
  return out;
}

std::string joined(const std::vector<std::string_view>& keys) {
  std::string out;
  for (auto k : keys) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}

/// The table of `r`, printed or written to --out; errors in tr's language.
int print_table(const TableRequest& r, const Translator& tr) {
  const TableDef* def = find_table(r.id);
  if (!def) return fail(kExitUsage, tr.format("cli.unknown_table", {{"table", r.id}, {"tables", known_tables()}}));
  const TableFormat format = parse_table_format(r.format);
  if (r.digits != kDigitsUnset && (r.digits < 0 || r.digits > kMaxDigits))
    return fail(kExitUsage, tr.format("cli.digits_range", {{"digits", std::to_string(r.digits)}, {"max", std::to_string(kMaxDigits)}}));
  core::check_each_key_once(r.sets);
  core::Params params;
  for (const std::string& s : r.sets) {
    const std::size_t eq = s.find('=');
    const std::string key = s.substr(0, eq);
    if (eq != std::string::npos && core::find_param(key) &&
        std::find(def->keys.begin(), def->keys.end(), key) == def->keys.end())
      return fail(kExitUsage,
                  tr.format("cli.table_does_not_read", {{"table", r.id}, {"key", key}, {"keys", joined(def->keys)}}));
    params.set_assignment(s);
  }
  apply_model(params, r.model, def->keys, r.sets);
  const Table table = build_table(*def, params);
  TableWriteOptions options;
  options.digits = r.digits != kDigitsUnset ? r.digits : (format == TableFormat::md || format == TableFormat::tex ? 6 : 0);
  write_output(r.out, write_table(table, format, options));
  return kExitOk;
}

}  // namespace

int run_table(const TableRequest& r) {
  // Tables are numbers and contract names in every language; only the error
  // line is translated.
  return run_in_language(r.lang, {"cli.out_of_memory_table", {{"table", r.id}}},
                         [&](const Translator& tr) { return print_table(r, tr); });
}

}  // namespace poslab::app::cli
