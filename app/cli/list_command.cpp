// `poslab list views|figures|tables|presets|decks|params [--format text|json]`

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/cli.hpp"
#include "app/cli/commands.hpp"
#include "app/common/assets.hpp"
#include "app/common/messages.hpp"
#include "app/common/presets.hpp"
#include "app/decks/deck.hpp"
#include "app/lessons/lesson.hpp"
#include "app/lessons/table.hpp"

namespace poslab::app::cli {

CLI::App* add_list_command(CLI::App& app, ListRequest& r) {
  CLI::App* sub = app.add_subcommand("list", "list views, figures, tables, presets, decks or params");
  sub->add_option("what", r.what, "views | figures | tables | presets | decks | params")->required();
  sub->add_option("--format", r.format, "text (default) or json");
  return sub;
}

namespace {

int print_list(const ListRequest& r) {
  if (r.format != "text" && r.format != "json")
    return fail(kExitUsage, "format = " + r.format + ": must be text or json");
  const bool json = r.format == "json";
  std::string out;
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  if (r.what == "views") {
    for (const ViewDef& v : view_defs()) {
      out += std::string(v.id) + "\n";
      nlohmann::ordered_json figs = nlohmann::ordered_json::array();
      for (const FigureDef& f : v.figures) figs.push_back(f.id);
      const Deck* steps = lesson_steps(v.id);
      j.push_back({{"id", v.id},
                   {"group", v.group},
                   {"params", v.keys},
                   {"figures", figs},
                   {"tables", v.tables},
                   {"steps", steps ? steps->scenes.size() : 0}});
    }
  } else if (r.what == "figures") {
    for (const ViewDef& v : view_defs())
      for (const FigureDef& f : v.figures) {
        out += std::string(v.id) + "/" + std::string(f.id) + "\n";
        j.push_back(std::string(v.id) + "/" + std::string(f.id));
      }
  } else if (r.what == "tables") {
    for (const TableDef& t : table_defs()) {
      out += std::string(t.id) + "\t" + std::string(t.summary) + "\n";
      nlohmann::ordered_json defaults = nlohmann::ordered_json::object();
      for (const auto& [k, v] : t.defaults) defaults[std::string(k)] = v;
      j.push_back({{"id", t.id}, {"summary", t.summary}, {"params", t.keys}, {"defaults", defaults}});
    }
  } else if (r.what == "presets") {
    for (const Preset& p : load_presets(assets_dir())) {
      out += p.id + "\t" + p.name + " — " + p.note + "\n";
      nlohmann::ordered_json params = nlohmann::ordered_json::object();
      for (const auto& [k, v] : p.params) params[k] = v;
      nlohmann::ordered_json entry = {{"id", p.id}, {"name", p.name}, {"view", p.view}, {"note", p.note}, {"params", params}};
      if (!p.source.empty()) {  // a model's preset: the config.json it reproduces
        entry["source"] = p.source;
        entry["model"] = p.model;
        nlohmann::ordered_json ids = nlohmann::ordered_json::array();
        for (const ModelWarning& w : p.warnings) ids.push_back(w.id);
        entry["warnings"] = ids;
      }
      j.push_back(std::move(entry));
    }
  } else if (r.what == "decks") {
    for (const auto& [id, deck] : builtin_decks()) {
      out += id + "\t" + deck.title.in("en") + " (" + std::to_string(deck.scenes.size()) + " scenes)\n";
      j.push_back({{"id", id}, {"title", deck.title.in("en")}, {"scenes", deck.scenes.size()}});
    }
  } else if (r.what == "params") {
    for (const core::ParamSpec& s : core::param_specs()) {
      const std::string def = s.default_text.empty() ? "(per table/view)" : std::string(s.default_text);
      out += std::string(s.key) + "\t" + def + "\t" + core::describe_allowed(s) + "\n";
      j.push_back({{"key", s.key}, {"default", s.default_text}, {"allowed", core::describe_allowed(s)},
                   {"unit", s.unit}});
    }
  } else {
    return fail(kExitUsage, "cannot list '" + r.what + "': choose views, figures, tables, presets, decks or params");
  }
  if (json) out = j.dump(2) + "\n";
  write_output("", out);
  return kExitOk;
}

}  // namespace

int run_list(const ListRequest& r) {
  // The lists are contract names; their few errors are in English.
  return run_guarded(english_translator(), [&] { return print_list(r); });
}

}  // namespace poslab::app::cli
