// Presets that are real model configs (assets/presets/*.json with "config"):
// each round-trips through the model reader — its params are exactly what
// `poslab model` reads from the config (the preset's own "params" only add
// keys no config states, such as the pair layout), its lesson is the
// reading's view, and where tests/fixtures/configs holds the same model the
// two configs are the same published file.

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/common/assets.hpp"
#include "app/common/presets.hpp"
#include "app/lessons/lesson.hpp"
#include "app/model/model_config.hpp"
#include "poslab/core/params.hpp"

using namespace poslab;

namespace {

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), path);
  std::ostringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str());
}

/// The keys a preset may set beyond its config: settings a config.json never states.
bool config_silent(const std::string& key) { return key == "layout" || key == "causal"; }

}  // namespace

TEST_CASE("presets: every model preset is its config.json read by the model reader") {
  const std::vector<app::Preset> presets = app::load_presets(app::assets_dir());
  // the models the issue names, each with its published config
  for (const char* id : {"llama2-7b", "llama3.1-8b", "qwen2.5-7b", "mistral-7b", "phi-3-mini-128k", "deepseek-v3",
                         "gemma-7b", "gpt-oss-20b", "gpt-neox-20b", "t5-base", "bloom-176b"})
    CHECK_MESSAGE(!app::find_preset(presets, id).source.empty(), id);
  int models = 0;
  for (const app::Preset& p : presets) {
    if (p.source.empty()) continue;
    ++models;
    CAPTURE(p.id);
    const nlohmann::json file = read_json((app::assets_dir() / "presets" / (p.id + ".json")).string());
    const app::ModelReading reading = app::read_model_config(file.at("config"));
    CHECK(p.view == reading.view);
    CHECK(p.model == reading.model);
    CHECK(p.warnings.size() == reading.warnings.size());
    CHECK(app::find_view(p.view) != nullptr);
    // applying the preset gives every value the reading gives, and nothing else but silent keys
    core::Params from_preset, from_model;
    p.apply(from_preset);
    for (const std::string& a : app::model_assignments(reading)) from_model.set_assignment(a);
    for (const std::string& key : from_model.set_keys()) {
      CAPTURE(key);
      CHECK(from_preset.value(key) == from_model.value(key));
    }
    for (const std::string& key : from_preset.set_keys())
      if (!from_model.is_set(key)) CHECK_MESSAGE(config_silent(key), key);
    // the preset opens its lesson in a state the lesson accepts
    CHECK_NOTHROW((void)app::resolve_view_params(*app::find_view(p.view), from_preset));
  }
  CHECK(models >= 11);
}

TEST_CASE("presets: the configs are the published files the fixtures hold") {
  const std::map<std::string, std::string> same = {
      {"llama2-7b", "llama-2-7b"},       {"llama3.1-8b", "llama-3.1-8b"}, {"qwen2.5-7b", "qwen2.5-7b-yarn"},
      {"phi-3-mini-128k", "phi-3-mini-128k"}, {"deepseek-v3", "deepseek-v3"}, {"gemma-7b", "gemma-7b"},
      {"gpt-oss-20b", "gpt-oss-20b"},     {"t5-base", "t5-base"}};
  for (const auto& entry : same) {  // (clang 14: CAPTURE cannot take a structured binding)
    const std::string& preset = entry.first;
    const std::string& fixture = entry.second;
    CAPTURE(preset);
    const nlohmann::json file = read_json((app::assets_dir() / "presets" / (preset + ".json")).string());
    const nlohmann::json config = read_json(std::string(POSLAB_SOURCE_DIR) + "/tests/fixtures/configs/" + fixture + ".json");
    CHECK(file.at("config") == config);
  }
}

TEST_CASE("presets: a broken config is refused naming the file and the field") {
  const auto refused = [](const char* text) {
    try {
      (void)app::parse_preset(text, "broken.json");
    } catch (const core::InvalidParameter& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string bad_factor = refused(
      R"({"id":"x","name":"X","source":"s","config":{"model_type":"llama","rope_scaling":{"rope_type":"linear","factor":0}}})");
  CHECK(bad_factor.find("broken.json") != std::string::npos);
  CHECK(bad_factor.find("rope_scaling.factor") != std::string::npos);
  CHECK(refused(R"({"id":"x","name":"X","config":{"model_type":"llama"}})").find("source") != std::string::npos);
  CHECK(refused(R"({"id":"x","name":"X"})").find("params") != std::string::npos);
  // a preset's own params win over its config's
  const app::Preset p = app::parse_preset(
      R"({"id":"x","name":"X","source":"s","config":{"model_type":"llama","rope_theta":500000},"params":{"base":20000}})", "x.json");
  core::Params q;
  p.apply(q);
  CHECK(q.real("base") == 20000);
}

TEST_CASE("presets: a source with words to translate has its Chinese, and English falls back to source") {
  const app::Preset p = app::parse_preset(
      R"({"id":"x","name":"X","source":"the config with its card's rope_scaling","source_zh":"config.json，加上模型卡的 rope_scaling","params":{"base":20000}})",
      "x.json");
  CHECK(p.source_in("en") == "the config with its card's rope_scaling");
  CHECK(p.source_in("zh") == "config.json，加上模型卡的 rope_scaling");
  const app::Preset plain = app::parse_preset(R"({"id":"y","name":"Y","source":"org/model config.json","params":{"base":20000}})", "y.json");
  CHECK(plain.source_in("zh") == "org/model config.json");  // a bare "org/model config.json" reads the same in Chinese
  // every model preset whose source says more than "org/model config.json" says it in Chinese too
  for (const app::Preset& q : app::load_presets(app::assets_dir())) {
    if (q.source.empty()) continue;
    CAPTURE(q.id);
    const bool bare = q.source.size() > 12 && q.source.ends_with(" config.json") && q.source.find(' ') == q.source.size() - 12;
    if (!bare) CHECK(!q.source_zh.empty());
  }
  CHECK(!app::find_preset(app::load_presets(app::assets_dir()), "qwen2.5-7b").source_zh.empty());
}
