// `poslab table ID [--set KEY=VALUE]... [--format csv|json|md|tex] [--out FILE]`

#include <cstdio>

#include "app/cli/cli.hpp"
#include "app/cli/commands.hpp"
#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/i18n.hpp"
#include "app/common/messages.hpp"
#include "app/export/table_writer.hpp"

namespace poslab::app::cli {

int fail(int code, const std::string& message) {
  std::fprintf(stderr, "poslab: %s\n", message.c_str());
  return code;
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

}  // namespace

int run_table(const TableRequest& r) {
  Translator tr;  // empty until loaded: error_text then says what()
  try {
    // Tables are numbers and contract names in every language; only the
    // error line is translated.
    const std::string lang = r.lang.empty() ? system_language() : r.lang;
    if (lang != "en" && lang != "zh") return fail(kExitUsage, "lang = " + lang + ": must be en or zh");
    tr = Translator::load(assets_dir(), lang);
    const TableDef* def = find_table(r.id);
    if (!def) return fail(kExitUsage, tr.format("cli.unknown_table", {{"table", r.id}, {"tables", known_tables()}}));
    const TableFormat format = parse_table_format(r.format);
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
    const Table table = build_table(*def, params);
    TableWriteOptions options;
    options.digits = r.digits >= 0 ? r.digits : (format == TableFormat::md || format == TableFormat::tex ? 6 : 0);
    const std::string text = write_table(table, format, options);
    if (r.out.empty()) {
      std::fwrite(text.data(), 1, text.size(), stdout);
      if (std::fflush(stdout) != 0) return fail(kExitFailure, tr("cli.stdout_failed"));
    } else {
      write_file_atomically(r.out, text);
    }
    return kExitOk;
  } catch (const core::InvalidParameter& e) {
    return fail(kExitUsage, error_text(tr, e));
  } catch (const IoError& e) {
    return fail(kExitFailure, error_text(tr, e));
  } catch (const std::bad_alloc&) {
    return fail(kExitFailure, tr.format("cli.out_of_memory_table", {{"table", r.id}}));
  }
}

}  // namespace poslab::app::cli
