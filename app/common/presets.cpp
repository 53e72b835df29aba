#include "app/common/presets.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/common/assets.hpp"
#include "app/common/json_input.hpp"

namespace poslab::app {

namespace {

[[noreturn]] void bad(std::string_view source, const std::string& why) {
  throw core::InvalidParameter("preset", std::string(source), why);
}

}  // namespace

void Preset::apply(core::Params& target) const {
  core::Params next = target;
  for (const auto& [key, text] : params) next.set_text(key, text);
  target = std::move(next);
}

Preset parse_preset(std::string_view json_text, std::string_view source) {
  nlohmann::json j;
  try {
    j = parse_json_input(json_text);
  } catch (const JsonInputError& e) {
    throw core::InvalidParameter("preset", std::string(source), e.what(), e.reason());
  }
  if (!j.is_object()) bad(source, "must be a JSON object");
  Preset p;
  auto text = [&](const char* key, bool required) -> std::string {
    if (!j.contains(key)) {
      if (required) bad(source, std::string("needs a \"") + key + "\" field");
      return {};
    }
    if (!j[key].is_string()) bad(source, std::string("field \"") + key + "\" must be a string");
    return j[key].get<std::string>();
  };
  p.id = text("id", true);
  p.name = text("name", true);
  p.note = text("note", false);
  p.view = text("view", false);
  p.source = text("source", false);
  p.source_zh = text("source_zh", false);
  if (j.contains("config")) {
    if (p.source.empty()) bad(source, "needs a \"source\" field naming the config.json it reproduces");
    ModelReading reading;
    try {
      reading = read_model_config(j["config"]);
    } catch (const core::InvalidParameter& e) {
      bad(source, std::string("has a config poslab cannot read: ") + e.what());
    }
    if (p.view.empty()) p.view = reading.view;
    p.model = reading.model;
    p.warnings = reading.warnings;
    p.reading = std::make_shared<const ModelReading>(reading);
    for (const std::string& a : model_assignments(reading)) {
      const std::size_t eq = a.find('=');
      p.params.emplace_back(a.substr(0, eq), a.substr(eq + 1));
    }
  }
  if (j.contains("params") && !j["params"].is_object()) bad(source, "field \"params\" must be an object");
  if (!j.contains("params") && !j.contains("config")) bad(source, "needs a \"params\" object or a \"config\"");
  const nlohmann::json own = j.value("params", nlohmann::json::object());
  for (const auto& [key, value] : own.items()) {
    std::string typed;
    if (value.is_string()) typed = value.get<std::string>();
    else if (value.is_boolean()) typed = value.get<bool>() ? "true" : "false";
    else if (value.is_number()) typed = core::format_number(value.get<double>());
    else bad(source, "parameter \"" + key + "\" must be a string, number or boolean");
    // a preset's own setting wins over the one its config gives
    std::erase_if(p.params, [&name = key](const auto& kv) { return kv.first == name; });  // (clang 14: no captured binding)
    p.params.emplace_back(key, typed);
  }
  try {
    core::Params check;
    p.apply(check);
  } catch (const core::InvalidParameter& e) {
    bad(source, std::string("has an invalid parameter: ") + e.what());
  }
  return p;
}

std::vector<Preset> load_presets(const std::filesystem::path& assets) {
  std::vector<Preset> out;
  const auto dir = assets / "presets";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".json") continue;
    out.push_back(parse_preset(read_text_file(entry.path()), entry.path().filename().string()));
  }
  std::sort(out.begin(), out.end(), [](const Preset& a, const Preset& b) { return a.id < b.id; });
  return out;
}

const Preset& find_preset(const std::vector<Preset>& presets, std::string_view id) {
  for (const Preset& p : presets)
    if (p.id == id) return p;
  std::string known;
  for (const Preset& p : presets) known += (known.empty() ? "" : ", ") + p.id;
  throw core::InvalidParameter("preset", std::string(id), "must be one of " + known,
                               core::Reason{"one_of", {{"choices", known}}, {}});
}

}  // namespace poslab::app
