// `poslab model` on the configs of 2025–26 (issue #27): every layer of each
// fixture read as transformers builds it — the groups (kind, layers, base,
// rotary and head dims, layout, method, factor, attention, window, sections)
// and the frequencies each group rotates with, against the values
// tests/fixtures/model_expected/expected.py derives independently from
// transformers' formulas (expected.json); the pitfall warnings; the refusals
// that name the config field; numbers JSON allows but a reader must not
// crash on; and the layer-stack figure.

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/common/messages.hpp"
#include "app/export/figure_export.hpp"
#include "app/model/layer_stack.hpp"
#include "app/model/model_config.hpp"
#include "app/plot/figure.hpp"
#include "app_test_support.hpp"
#include "core/core_test_support.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/scaling.hpp"

namespace {

using poslab::app::LayerGroup;
using poslab::app::ModelReading;
using nlohmann::json;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string config_text(const std::string& name) {
  return read_file(std::string(POSLAB_SOURCE_DIR) + "/tests/fixtures/configs/" + name + ".json");
}

ModelReading reading_of(const std::string& name) { return poslab::app::read_model_config_text(config_text(name)); }

const json& expected() {
  static const json e = json::parse(read_file(std::string(POSLAB_SOURCE_DIR) + "/tests/fixtures/model_expected/expected.json"));
  return e;
}

std::vector<std::string> ids(const ModelReading& r) {
  std::vector<std::string> out;
  for (const auto& w : r.warnings) out.push_back(w.id);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

/// θ_i = base^(−2i/d) for a group without scaling (what poslab's rope lesson draws at its params).
std::vector<double> plain_theta(const LayerGroup& g) {
  std::vector<double> out;
  for (int i = 0; i < *g.rotary_dim / 2; ++i) out.push_back(std::pow(*g.base, -2.0 * i / *g.rotary_dim));
  return out;
}

/// The scaled frequencies the reading's params give in core (what `poslab table rope-scaling --model` prints).
poslab::core::ScalingTable table_of(const ModelReading& r, std::optional<long long> seq_len = std::nullopt) {
  poslab::core::Params p;
  for (const std::string& a : poslab::app::model_assignments(r)) p.set_assignment(a);
  if (seq_len) p.set("seq_len", static_cast<double>(*seq_len));
  poslab::core::ScalingConfig c;
  c.method = poslab::core::parse_scaling_method(p.choice("method"));
  c.d = static_cast<int>(p.integer("d"));
  c.base = p.real("base");
  c.factor = p.real("factor");
  c.original_context = p.integer("original_context");
  c.seq_len = p.integer("seq_len");
  c.beta_fast = p.real("beta_fast"), c.beta_slow = p.real("beta_slow");
  c.mscale = p.real("mscale"), c.mscale_all_dim = p.real("mscale_all_dim");
  c.low_freq_factor = p.real("low_freq_factor"), c.high_freq_factor = p.real("high_freq_factor");
  c.truncate = p.boolean("truncate");
  c.attention_factor = p.real("attention_factor");
  if (p.is_set("short_factor")) c.short_factor = p.list("short_factor"), c.long_factor = p.list("long_factor");
  return poslab::core::rope_scaling_table(c);
}

void check_close(const std::vector<double>& got, const json& want, double rel = 1e-12) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    const double w = want[i].get<double>();
    CHECK(std::abs(got[i] - w) <= rel * std::abs(w));
  }
}

std::vector<double> as_vector(const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

}  // namespace

TEST_CASE("model layers: every new fixture's groups are the ones transformers builds") {
  for (auto it = expected().begin(); it != expected().end(); ++it) {
    const json& e = it.value();
    if (!e.contains("groups")) continue;
    const std::string name = it.key();
    CAPTURE(name);
    const ModelReading r = reading_of(name);
    CHECK(r.num_layers == e.at("num_layers").get<int>());
    const json& groups = e.at("groups");
    REQUIRE(r.layers.size() == groups.size());
    int covered = 0;
    for (std::size_t i = 0; i < groups.size(); ++i) {
      const json& want = groups[i];
      const LayerGroup& g = r.layers[i];
      CAPTURE(i);
      CHECK(g.kind == want.at("kind").get<std::string>());
      CHECK(g.indices == want.at("indices").get<std::vector<int>>());
      covered += static_cast<int>(g.indices.size());
      if (want.contains("base")) CHECK(g.base == want["base"].get<double>());
      else CHECK_FALSE(g.base.has_value());
      if (want.contains("rotary_dim")) CHECK(g.rotary_dim == want["rotary_dim"].get<int>());
      if (want.contains("head_dim")) CHECK(g.head_dim == want["head_dim"].get<int>());
      CHECK(g.layout == want.value("layout", std::string()));
      CHECK(g.method == want.value("method", std::string()));
      if (want.contains("factor")) CHECK(g.factor == want["factor"].get<double>());
      else CHECK_FALSE(g.factor.has_value());
      CHECK(g.attention == want.value("attention", std::string()));
      if (want.contains("window")) CHECK(g.window == want["window"].get<long long>());
      else CHECK_FALSE(g.window.has_value());
      CHECK(g.mrope_section == want.value("mrope_section", std::vector<int>()));
      CHECK(g.mrope_interleaved.value_or(false) == want.value("mrope_interleaved", false));
    }
    CHECK(covered == *r.num_layers);  // every layer in exactly one group
    // Every warning teaches, in English and in Chinese, every placeholder filled.
    static const poslab::app::Translator zh = poslab::app::Translator::load(poslab::app::assets_dir(), "zh");
    for (const auto& w : r.warnings) {
      CAPTURE(w.id);
      CHECK(w.text.size() > 80);
      CHECK(w.text.find('{') == std::string::npos);
      const std::string chinese = poslab::app::model_warning_text(zh, w);
      CHECK(chinese != w.text);
      CHECK(chinese.find('{') == std::string::npos);
    }
  }
}

TEST_CASE("model layers: the frequencies of every group against transformers' inv_freq") {
  for (auto it = expected().begin(); it != expected().end(); ++it) {
    const json& e = it.value();
    if (!e.contains("inv_freq") || !e.contains("groups")) continue;
    const std::string name = it.key();
    CAPTURE(name);
    const ModelReading r = reading_of(name);
    const json& inv = e.at("inv_freq");
    // The reading's params reproduce the primary group (the layers with the largest context).
    const std::string primary = inv.contains("rope") ? "rope" : "full";
    const poslab::core::ScalingTable t = table_of(r);
    const json& want = inv.at(primary);
    // p-RoPE: transformers pads the non-rotating pairs with frequency 0; poslab rotates d of head_dim.
    std::vector<double> nonzero;
    for (const auto& x : want)
      if (x.get<double>() > 0) nonzero.push_back(x.get<double>());
    check_close(as_vector(t.scaled_theta), json(nonzero), 1e-12);
    CHECK(t.attention_factor == doctest::Approx(e.at("attention_factor").get<double>()).epsilon(1e-14));
    // The other groups: plain RoPE at their base and rotary dims.
    if (inv.contains("sliding"))
      for (const LayerGroup& g : r.layers)
        if (g.kind == "rope" && g.attention == "sliding") check_close(plain_theta(g), inv["sliding"], 1e-12);
  }
}

TEST_CASE("model layers: nested configs are read from their text part, and errors name it") {
  const ModelReading scout = reading_of("llama-4-scout");
  CHECK(scout.model == "llama4");
  CHECK(scout.config_part == "text_config");
  CHECK(scout.family == "rope");
  CHECK(scout.view == "scaling");
  CHECK(scout.trained_context == 8192);
  CHECK(scout.target_context == 262144);
  CHECK(reading_of("ministral-3-8b").config_part == "text_config");
  CHECK(reading_of("qwen2.5-vl-7b").config_part.empty());  // the first checkpoints keep it at the top level
  json bad = json::parse(config_text("llama-4-scout"));
  bad["text_config"]["rope_scaling"]["factor"] = 0;
  const auto e = poslab::test::raised_by([&] { (void)poslab::app::read_model_config(bad); });
  CHECK(e.key() == "text_config.rope_scaling.factor");
}

TEST_CASE("model layers: Llama 4 Scout — NoPE every 4th layer, llama3 with no blend band, the temperature") {
  const ModelReading r = reading_of("llama-4-scout");
  const auto w = ids(r);
  for (const char* id : {"nope_layers", "no_rope_layers_empty", "llama3_no_blend", "max_positions_mismatch", "llama4_temperature"})
    CHECK_MESSAGE(has(w, id), id);
  CHECK(r.params.at("low_freq_factor").get<double>() == 1.0);
  CHECK(r.params.at("high_freq_factor").get<double>() == 1.0);
  // The warning names the layers.
  for (const auto& warning : r.warnings)
    if (warning.id == "nope_layers") CHECK(warning.text.rfind("No position encoding in 12 of the 48 layers (indices from 0: 3, 7, …, 47;", 0) == 0);
  // The temperature: its formula's values at the positions expected.py computed.
  REQUIRE(r.query_scales.size() == 1);
  const auto& q = r.query_scales.front();
  CHECK(q.kind == "llama4_temperature");
  CHECK(q.layers.size() == 12);
  const json& want = expected()["llama-4-scout"]["query_scale"]["values"];
  REQUIRE(q.values.size() == want.size());
  for (std::size_t i = 0; i < q.values.size(); ++i) {
    CHECK(q.values[i].first == want[i][0].get<long long>());
    CHECK(q.values[i].second == doctest::Approx(want[i][1].get<double>()).epsilon(1e-14));
  }
  CHECK(r.has_warning("llama4_temperature"));
  CHECK(std::find(r.defaulted.begin(), r.defaulted.end(), "floor_scale") != r.defaulted.end());
}

TEST_CASE("model layers: Gemma 3 — two bases, the factor on the global layers only, v5 keyed rope_parameters read the same") {
  const ModelReading legacy = reading_of("gemma-3-4b");
  const ModelReading v5 = reading_of("gemma-3-4b-v5");
  CHECK(legacy.has_warning("scaling_some_layers"));
  CHECK(v5.has_warning("scaling_some_layers"));
  CHECK(legacy.has_warning("legacy_key"));  // rope_local_base_freq, sliding_window_pattern
  CHECK_FALSE(v5.has_warning("legacy_key"));
  CHECK(legacy.params == v5.params);  // the top level: the scaled global layers
  CHECK(legacy.params.at("method").get<std::string>() == "linear");
  CHECK(legacy.params.at("base").get<double>() == 1e6);
  REQUIRE(legacy.layers.size() == v5.layers.size());
  for (std::size_t i = 0; i < legacy.layers.size(); ++i) CHECK(legacy.layers[i].same_as(v5.layers[i]));
  // A v5 config keyed by layer type is never read as "no scaling" (issue #32, class 8).
  CHECK(v5.params.at("factor").get<double>() == 8);
}

TEST_CASE("model layers: multimodal sections — contiguous, interleaved, legacy mrope; a sum that is not rotary_dim/2 is refused") {
  const ModelReading vl = reading_of("qwen2.5-vl-7b");
  CHECK(vl.has_warning("mrope"));
  CHECK(vl.has_warning("mrope_legacy"));
  CHECK(vl.has_warning("legacy_type"));
  CHECK_FALSE(vl.has_warning("unknown_rope_type"));
  CHECK(vl.params.at("method").get<std::string>() == "none");
  const ModelReading vl3 = reading_of("qwen3-vl-4b");
  CHECK(vl3.has_warning("mrope"));
  for (const auto& w : vl3.warnings)
    if (w.id == "mrope") CHECK(w.text.find("1, 4, …, 58") != std::string::npos);  // height: every third pair up to 3·20 − 2
  json bad = json::parse(config_text("qwen2.5-vl-7b"));
  bad["rope_scaling"]["mrope_section"] = {16, 24, 23};
  auto e = poslab::test::raised_by([&] { (void)poslab::app::read_model_config(bad); });
  CHECK(e.key() == "rope_scaling.mrope_section");
  CHECK(std::string(e.what()).find("rotary_dim/2 = 64") != std::string::npos);
  bad["rope_scaling"]["mrope_section"] = {16, 48};
  CHECK(poslab::test::raised_by([&] { (void)poslab::app::read_model_config(bad); }).key() == "rope_scaling.mrope_section");
  bad["rope_scaling"].erase("mrope_section");
  CHECK(poslab::test::raised_by([&] { (void)poslab::app::read_model_config(bad); }).key() == "rope_scaling.mrope_section");
}

TEST_CASE("model layers: p-RoPE (proportional) is not NeoX partial rotary") {
  const ModelReading r = reading_of("gemma-4-31b");
  CHECK(r.has_warning("proportional"));
  CHECK_FALSE(r.has_warning("partial_rotary"));
  // poslab's equivalent: d = 128 rotating dims at base' = 1e6^(128/512), the head 512 wide
  CHECK(r.params.at("d").get<int>() == 128);
  CHECK(r.params.at("head_dim").get<int>() == 512);
  CHECK(r.params.at("base").get<double>() == doctest::Approx(std::pow(1e6, 0.25)).epsilon(1e-15));
  // NeoX-style partial rotary at the same fraction would spread the frequencies over 128 dims instead:
  json neox = json::parse(config_text("gemma-4-31b"));
  neox["text_config"]["rope_parameters"]["full_attention"]["rope_type"] = "default";
  const ModelReading partial = poslab::app::read_model_config(neox);
  CHECK(partial.params.at("d").get<int>() == 128);
  CHECK(partial.params.at("base").get<double>() == 1e6);  // base^(−2i/128): other frequencies
  CHECK(partial.has_warning("partial_rotary"));
}

TEST_CASE("model layers: SmolLM3, Command R7B, ModernBERT, Jamba, DBRX, GLM-4, Qwen-1, Baichuan") {
  CHECK(reading_of("smollm3-3b").has_warning("nope_layers"));
  const ModelReading cohere = reading_of("command-r7b");
  CHECK(cohere.has_warning("nope_layers"));
  CHECK(cohere.params.at("base").get<double>() == 50000);
  CHECK(reading_of("modernbert-base").has_warning("layer_bases"));
  CHECK(reading_of("modernbert-base").has_warning("legacy_key"));
  // Jamba: no layer carries a position encoding — never RoPE 10,000
  const ModelReading jamba = reading_of("jamba-v0.1");
  CHECK(jamba.family == "none");
  CHECK(jamba.view.empty());
  CHECK(jamba.params.empty());
  CHECK(jamba.has_warning("hybrid_no_position"));
  CHECK(poslab::app::model_reading_json(jamba).at("view").is_null());
  // DBRX's attn_config
  const ModelReading dbrx = reading_of("dbrx-instruct");
  CHECK(dbrx.params.at("base").get<double>() == 500000);
  CHECK(dbrx.trained_context == 32768);
  // GLM-4's legacy ChatGLM config: 10000 × rope_ratio over kv_channels / 2
  const ModelReading glm = reading_of("glm-4-9b-chat");
  CHECK(glm.has_warning("chatglm"));
  CHECK(glm.params.at("base").get<double>() == 5e6);
  CHECK(glm.params.at("d").get<int>() == 64);
  CHECK(glm.params.at("head_dim").get<int>() == 128);
  CHECK(glm.trained_context == 131072);
  // Qwen-1: seq_length is the trained context; dynamic NTK and log-n explained
  const ModelReading qwen = reading_of("qwen-7b");
  CHECK(qwen.trained_context == 8192);
  CHECK(qwen.has_warning("qwen_dynamic_ntk"));
  CHECK(qwen.has_warning("qwen_logn"));
  REQUIRE(qwen.query_scales.size() == 1);
  const json& logn = expected()["qwen-7b"]["query_scale"]["values"];
  for (std::size_t i = 0; i < logn.size(); ++i)
    CHECK(qwen.query_scales[0].values[i].second == doctest::Approx(logn[i][1].get<double>()).epsilon(1e-14));
  // Baichuan: one model_type, decided from the architecture as vLLM and the checkpoints' code do
  const ModelReading alibi = reading_of("baichuan2-13b-chat");
  CHECK(alibi.family == "alibi");
  CHECK(alibi.params.at("heads").get<int>() == 40);
  CHECK(alibi.trained_context == 4096);
  json seven = json::parse(config_text("baichuan2-13b-chat"));
  seven["hidden_size"] = 4096;
  seven["num_attention_heads"] = 32;
  CHECK(poslab::app::read_model_config(seven).family == "rope");
  seven["architectures"] = {"BaiChuanForCausalLM"};
  seven["hidden_size"] = 5120;
  seven["num_attention_heads"] = 40;
  CHECK(poslab::app::read_model_config(seven).family == "rope");
}

TEST_CASE("model layers: dynamic and longrope show their init state beside the long-context one") {
  const ModelReading dyn = poslab::app::read_model_config_text(config_text("llama-dynamic"));
  REQUIRE(dyn.states.size() == 2);
  CHECK(dyn.states[0].name == "init");
  CHECK(dyn.states[0].seq_len == 4096);
  CHECK(dyn.states[1].name == "long_context");
  CHECK(dyn.states[1].seq_len == 8192);
  CHECK(dyn.params.at("seq_len").get<long long>() == 4096);  // params: the init state, what transformers computes at load
  const json& want = expected()["llama-dynamic"]["inv_freq"];
  check_close(as_vector(table_of(dyn, 4096).scaled_theta), want["init"], 1e-12);
  check_close(as_vector(table_of(dyn, 8192).scaled_theta), want["long_context"], 1e-12);
  const ModelReading phi = poslab::app::read_model_config_text(config_text("phi-3-mini-128k"));
  REQUIRE(phi.states.size() == 2);
  CHECK(phi.states[0].seq_len == 4096);
  CHECK(phi.states[1].seq_len == 131072);
  CHECK(phi.params.at("seq_len").get<long long>() == 4096);  // init: short_factor
}

TEST_CASE("model layers: yarn without a factor derives it from max_position_embeddings / original (warned)") {
  json qwen = json::parse(config_text("qwen2.5-7b-yarn"));
  const ModelReading with = poslab::app::read_model_config(qwen);
  qwen["rope_scaling"].erase("factor");
  qwen["max_position_embeddings"] = 131072;
  const ModelReading derived = poslab::app::read_model_config(qwen);
  CHECK(derived.params.at("factor").get<double>() == 4);
  CHECK(derived.has_warning("yarn_factor_derived"));
  CHECK(*derived.attention_factor == doctest::Approx(*with.attention_factor).epsilon(1e-15));
  // without an original context there is nothing to derive from: refused as before
  qwen["rope_scaling"].erase("original_max_position_embeddings");
  CHECK(poslab::test::raised_by([&] { (void)poslab::app::read_model_config(qwen); }).key() == "rope_scaling.factor");
}

TEST_CASE("model layers: bad layer structure is refused naming the field") {
  struct Bad {
    std::string text;
    const char* field;
  };
  json llama = json::parse(config_text("llama-4-scout"));
  llama["text_config"]["num_hidden_layers"] = -4;
  json short_types = json::parse(config_text("gemma-3-4b-v5"));
  short_types["text_config"]["layer_types"].erase(0);
  json odd_type = json::parse(config_text("gemma-3-4b-v5"));
  odd_type["text_config"]["layer_types"][3] = "global_attention";
  json missing_type = json::parse(config_text("gemma-3-4b-v5"));
  missing_type["text_config"]["rope_parameters"].erase("sliding_attention");
  json short_nope = json::parse(config_text("smollm3-3b"));
  short_nope["no_rope_layers"].erase(0);
  json two_nope = json::parse(config_text("smollm3-3b"));
  two_nope["no_rope_layers"][1] = 2;
  json jamba = json::parse(config_text("jamba-v0.1"));
  jamba["attn_layer_offset"] = 8;
  const std::vector<Bad> bad = {
      {llama.dump(), "text_config.num_hidden_layers"},
      {short_types.dump(), "text_config.layer_types"},
      {odd_type.dump(), "text_config.layer_types[3]"},
      {missing_type.dump(), "text_config.rope_parameters.sliding_attention"},
      {short_nope.dump(), "no_rope_layers"},
      {two_nope.dump(), "no_rope_layers[1]"},
      {jamba.dump(), "attn_layer_offset"},
  };
  for (const Bad& b : bad) {
    CAPTURE(b.text.substr(0, 200));
    const auto e = poslab::test::raised_by([&] { (void)poslab::app::read_model_config_text(b.text); });
    CHECK(e.key() == b.field);
    CHECK_FALSE(e.reason().id.empty());
    const std::string zh = poslab::app::error_text(poslab::app::Translator::load(poslab::app::assets_dir(), "zh"), e);
    CHECK(zh != e.what());
  }
}

TEST_CASE("model layers: numbers JSON allows never crash the reader (issue #32, class 1)") {
  // Each is refused with exit 2 naming a field, or read — never an exception past the reader.
  const std::vector<std::string> values = {"1e-320", "-1e-320", "4.9e-324", "1e999", "-1e999", "1e308", "-0.0",
                                           std::string(400, '9'), "-" + std::string(400, '9'), "0.1", "3.5"};
  const std::vector<std::string> fields = {"partial_rotary_factor", "rope_theta", "max_position_embeddings", "hidden_size",
                                           "num_attention_heads", "num_hidden_layers", "head_dim", "rope_scaling.factor",
                                           "rope_scaling.original_max_position_embeddings", "rope_scaling.low_freq_factor",
                                           "rope_scaling.beta_fast", "sliding_window", "no_rope_layer_interval"};
  int refused = 0;
  for (const std::string& field : fields)
    for (const std::string& value : values) {
      std::string text = R"({"model_type":"smollm3","hidden_size":2048,"num_attention_heads":16,"num_hidden_layers":8,)"
                         R"("rope_scaling":{"rope_type":"llama3","factor":8,"original_max_position_embeddings":8192,)"
                         R"("low_freq_factor":1,"high_freq_factor":4}})";
      json j = json::parse(text);
      if (field.rfind("rope_scaling.", 0) == 0) j["rope_scaling"].erase(field.substr(13));
      else j.erase(field);
      std::string dumped = j.dump();
      const std::string key = field.rfind("rope_scaling.", 0) == 0 ? field.substr(13) : field;
      const std::string insert = "\"" + key + "\":" + value + ",";
      if (field.rfind("rope_scaling.", 0) == 0) dumped.insert(dumped.find("\"rope_scaling\":{") + 16, insert);
      else dumped.insert(1, insert);
      CAPTURE(dumped);
      try {
        (void)poslab::app::read_model_config_text(dumped);
      } catch (const poslab::core::InvalidParameter& e) {
        ++refused;
        CHECK_FALSE(e.key().empty());
        CHECK(std::string(e.what()).find(e.key()) == 0);
      }
    }
  CHECK(refused > 50);
}

TEST_CASE("model layers: a number no double holds is refused under its field, with its path (issue #32, class 1)") {
  struct Case {
    std::string text, field, value;
  };
  const std::vector<Case> cases = {
      {R"({"model_type":"llama","rope_theta":1e999})", "rope_theta", "1e999"},
      {R"({"model_type":"llama","rope_scaling":{"rope_type":"linear","factor":-1e999}})", "rope_scaling.factor", "-1e999"},
      {R"({"model_type":"llama","max_position_embeddings":)" + std::string(400, '9') + "}", "max_position_embeddings",
       std::string(57, '9') + "..."},
      {R"({"model_type":"qwen2_vl","rope_scaling":{"mrope_section":[16,24,1e400]}})", "rope_scaling.mrope_section[2]",
       "1e400"},
      {R"({"text_config":{"layer_types":["full_attention"],"x":[[1],[2,{"y":1e999}]]}})", "text_config.x[1][1].y",
       "1e999"},
      {R"([1e999])", "[0]", "1e999"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text.substr(0, 120));
    const auto e = poslab::test::raised_by([&] { (void)poslab::app::read_model_config_text(c.text); });
    CHECK(e.key() == c.field);
    CHECK(e.value() == c.value);
    CHECK(e.reason().id == "model_number_overflow");
    const std::string zh = poslab::app::error_text(poslab::app::Translator::load(poslab::app::assets_dir(), "zh"), e);
    CHECK(zh.find(c.field) != std::string::npos);
    CHECK(zh.find("双精度") != std::string::npos);
  }
}

TEST_CASE("model layers: a value out of poslab's range is refused under the config's field (issue #32, class 8)") {
  const auto e = poslab::test::raised_by([] {
    (void)poslab::app::read_model_config_text(
        R"({"model_type":"llama","rope_scaling":{"rope_type":"linear","factor":2000}})");
  });
  CHECK(e.key() == "rope_scaling.factor");
  CHECK(std::string(e.what()).find("poslab's factor") != std::string::npos);
  const auto zh = poslab::app::error_text(poslab::app::Translator::load(poslab::app::assets_dir(), "zh"), e);
  CHECK(zh.find("rope_scaling.factor") != std::string::npos);
  CHECK(zh.find("poslab") != std::string::npos);
}

TEST_CASE("model layers: layer lists read as a person writes them") {
  using poslab::app::layer_list_text;
  CHECK(layer_list_text({3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47}) == "3, 7, …, 47");
  CHECK(layer_list_text({0, 1, 2, 3, 4}) == "0–4");
  CHECK(layer_list_text({5, 11, 17}) == "5, 11, 17");
  CHECK(layer_list_text({5, 11, 17, 23, 29}) == "5, 11, 17, 23, 29");  // Gemma 3 4B's full layers, read out
  CHECK(layer_list_text({4, 12, 20, 28, 36, 44}) == "4, 12, …, 44");
  CHECK(layer_list_text({0, 1, 2, 4, 5, 6, 8, 9, 10, 12}) == "0–2, 4–6, 8–10, 12");  // runs with gaps: not a progression
  // Only a true arithmetic progression is shortened (the audit's irregular SmolLM3 pattern).
  CHECK(layer_list_text({3, 7, 11, 15, 19, 24, 27, 31, 35, 39, 43, 47}) == "3, 7, 11, 15, 19, 24, 27, 31, …, 47");
  CHECK(layer_list_text({3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 48}) == "3, 7, …, 43, 48");
  CHECK(layer_list_text({2, 3, 5, 8, 13, 21, 34}) == "2, 3, 5, 8, 13, 21, 34");
  CHECK(layer_list_text({0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 12, 13}) == "0–4, 6–10, 12, 13");
  CHECK(layer_list_text({1, 2, 9, 20, 33}) == "1, 2, 9, 20, 33");
  CHECK(layer_list_text({}).empty());
}

TEST_CASE("model layers: the three outputs carry the layers") {
  const ModelReading r = reading_of("llama-4-scout");
  const auto j = poslab::app::model_reading_json(r);
  CHECK(j.at("num_layers") == 48);
  CHECK(j.at("config_part") == "text_config");
  REQUIRE(j.at("layers").size() == 2);
  CHECK(j["layers"][0]["kind"] == "rope");
  CHECK(j["layers"][0]["count"] == 36);
  CHECK(j["layers"][0]["attention"] == "chunked");
  CHECK(j["layers"][0]["window"] == 8192);
  CHECK(j["layers"][1]["kind"] == "nope");
  CHECK_FALSE(j["layers"][1].contains("base"));  // keys that do not apply are left out
  CHECK(j.at("query_scales")[0]["kind"] == "llama4_temperature");
  const std::string text = poslab::app::model_reading_text(r);
  CHECK(text.find("layers           48") != std::string::npos);
  CHECK(text.find("3, 7, …, 47") != std::string::npos);
  const std::string md = poslab::app::model_reading_md(r);
  CHECK(md.find("### Layers (48)") != std::string::npos);
  CHECK(md.find("| 3, 7, …, 47 | 12 | nope |") != std::string::npos);
}

TEST_CASE("layer stack figure: one cell per layer, coloured by group, counts in the legend, both languages") {
  const poslab::app::Translator& en = poslab::test::english();
  const poslab::app::Translator zh = poslab::app::Translator::load(poslab::app::assets_dir(), "zh");
  for (const char* name : {"llama-4-scout", "gemma-3-4b", "smollm3-3b", "command-r7b", "jamba-v0.1", "qwen3-8b", "t5-base",
                           "llama-2-7b", "baichuan2-13b-chat"}) {
    CAPTURE(name);
    const ModelReading r = reading_of(name);
    for (const poslab::app::Translator* tr : {&en, &zh}) {
      const poslab::app::fig::Figure f = poslab::app::layer_stack_figure(r, *tr);
      CHECK(f.id == "layers");
      CHECK(poslab::app::fig::all_finite(f));
      CHECK(f.series.size() == r.layers.size());
      std::size_t cells = 0;
      for (std::size_t i = 0; i < f.series.size(); ++i) {
        const auto& s = f.series[i];
        CHECK(s.kind == poslab::app::fig::SeriesKind::bars);
        CHECK(s.name.find('{') == std::string::npos);
        cells += s.x.size();
        if (!r.layers[i].indices.empty())  // the count is in the legend
          CHECK(s.name.find(std::to_string(r.layers[i].indices.size())) != std::string::npos);
      }
      if (r.num_layers) CHECK(cells == static_cast<std::size_t>(*r.num_layers));
    }
  }
  CHECK(zh.missing_keys().empty());
  // Scout's legend, in English
  const poslab::app::fig::Figure scout = poslab::app::layer_stack_figure(reading_of("llama-4-scout"), en);
  CHECK(scout.series[0].name == "RoPE b = 500,000 · llama3 ×16 · chunks of 8,192 — 36 layers");
  CHECK(scout.series[1].name == "no position encoding (NoPE) · full attention — 12 layers");
  CHECK(scout.subtitle == "llama4 · 48 layers");
  // One layer is "1 layer" (a one-layer toy config), in the subtitle as in the legend.
  const ModelReading one = poslab::app::read_model_config_text(
      R"({"model_type": "llama", "num_hidden_layers": 1, "hidden_size": 64, "num_attention_heads": 4, "rope_theta": 10000})");
  REQUIRE(one.num_layers == 1);
  const poslab::app::fig::Figure one_fig = poslab::app::layer_stack_figure(one, en);
  CHECK(one_fig.subtitle == "llama · 1 layer");
  REQUIRE(!one_fig.series.empty());
  CHECK(one_fig.series[0].name.find("1 layers") == std::string::npos);
  CHECK(poslab::app::layer_stack_figure(one, zh).subtitle.find("1 层") != std::string::npos);
  // The figure exports like every figure: a PNG with more than the background in it.
  const std::string png = poslab::app::render_png(scout, poslab::app::ExportOptions{.width = 900, .height = 360});
  CHECK(poslab::test::decode_png(png).distinct_colours > 4);
}

TEST_CASE("layer stack figure: a colour means one kind of layer in every model (the #27 audit)") {
  using poslab::app::fig::Color;
  const poslab::app::Translator& en = poslab::test::english();
  // Each (kind, attention, scaled) maps to one colour, whatever the group's order in its model:
  // ModernBERT lists its full layers first, Gemma 3 its sliding ones.
  std::map<std::string, Color> seen;
  for (const char* name : {"gemma-3-4b", "modernbert-base", "command-r7b", "llama-4-scout", "gemma-4-31b", "qwen3-8b",
                           "jamba-v0.1", "gpt-oss-20b", "smollm3-3b"}) {
    CAPTURE(name);
    const ModelReading r = reading_of(name);
    const poslab::app::fig::Figure f = poslab::app::layer_stack_figure(r, en);
    REQUIRE(f.series.size() == r.layers.size());
    for (std::size_t i = 0; i < r.layers.size(); ++i) {
      const auto& g = r.layers[i];
      const bool scaled = !g.method.empty() && g.method != "none" && g.method != "proportional";
      const std::string kind = g.kind + "|" + (g.attention == "sliding" ? "sliding" : "wide") + "|" +
                               (g.method == "proportional" ? "p" : scaled ? "scaled" : "plain");
      CAPTURE(kind);
      REQUIRE(f.series[i].color.has_value());
      const auto [it, fresh] = seen.emplace(kind, *f.series[i].color);
      if (!fresh) CHECK(it->second == *f.series[i].color);
    }
  }
  // the audit's example: blue is plain full RoPE in ModernBERT, never Gemma's sliding layers
  CHECK(seen.at("rope|wide|plain") == Color::rgb(0x0072B2));
  CHECK(seen.at("rope|sliding|plain") == Color::rgb(0x56B4E9));
  CHECK(seen.at("rope|wide|scaled") == Color::rgb(0xD55E00));
  CHECK(seen.at("nope|wide|plain") == Color::rgb(0x7f7f7f));
  // different kinds never share a colour
  for (const auto& a : seen)
    for (const auto& b : seen)
      if (a.first < b.first) CHECK_MESSAGE(!(a.second == b.second), (a.first + " vs " + b.first));
}

TEST_CASE("model layers: llm_config (InternVL), Gemma 2's alternation without layer_types, position_embedding_type rope_gptj") {
  // InternVL's remote-code checkpoints nest their language model under
  // llm_config. Values: Qwen2.5-0.5B-Instruct's config.json (hidden 896, 14
  // heads, 24 layers, rope_theta 1,000,000, 32,768 positions), the language
  // model of InternVL2.5-1B, nested as InternVLChatConfig nests it.
  const std::string internvl = R"({"model_type": "internvl_chat", "architectures": ["InternVLChatModel"],
    "llm_config": {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 896,
      "num_attention_heads": 14, "num_key_value_heads": 2, "num_hidden_layers": 24,
      "rope_theta": 1000000.0, "max_position_embeddings": 32768}})";
  const ModelReading vl = poslab::app::read_model_config_text(internvl);
  CHECK(vl.config_part == "llm_config");
  CHECK(vl.model == "internvl_chat");  // the file's own model_type; the part read is qwen2
  CHECK(vl.head_dim == 64);  // 896 / 14
  CHECK(vl.params.at("base").get<double>() == 1e6);
  REQUIRE(vl.layers.size() == 1);
  CHECK(vl.layers[0].indices.size() == 24);
  // An error inside it names the part: llm_config.rope_scaling.factor.
  json bad = json::parse(internvl);
  bad["llm_config"]["rope_scaling"] = {{"rope_type", "linear"}, {"factor", 0}};
  const auto e = poslab::test::raised_by([&] { (void)poslab::app::read_model_config_text(bad.dump()); });
  CHECK(e.key() == "llm_config.rope_scaling.factor");

  // Gemma 2 2B's config.json (google/gemma-2-2b: 26 layers, 8 heads of 256,
  // sliding_window 4,096, rope_theta 10,000, 8,192 positions) gives no
  // layer_types: Gemma2Config's rule makes layer i sliding when (i + 1) % 2,
  // i.e. the even layers (0, 2, …, 24), and full attention on the odd ones.
  const std::string gemma2 = R"({"model_type": "gemma2", "architectures": ["Gemma2ForCausalLM"], "hidden_size": 2304,
    "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "num_hidden_layers": 26,
    "sliding_window": 4096, "rope_theta": 10000.0, "max_position_embeddings": 8192})";
  const ModelReading g2 = poslab::app::read_model_config_text(gemma2);
  REQUIRE(g2.num_layers == 26);
  REQUIRE(g2.layers.size() == 2);
  std::vector<int> even, odd;
  for (int i = 0; i < 26; ++i) (i % 2 == 0 ? even : odd).push_back(i);
  const LayerGroup& sliding = g2.layers[0].attention == "sliding" ? g2.layers[0] : g2.layers[1];
  const LayerGroup& full = g2.layers[0].attention == "sliding" ? g2.layers[1] : g2.layers[0];
  CHECK(sliding.indices == even);
  CHECK(sliding.window == 4096);
  CHECK(full.indices == odd);
  CHECK(full.attention == "full");
  CHECK(sliding.base == 10000);
  CHECK(full.base == 10000);
  CHECK(g2.head_dim == 256);

  // position_embedding_type "rope_gptj" pairs neighbours (x₀, x₁), (x₂, x₃), …:
  // Llama 2 7B's fields with that one key added (a synthetic config: only the
  // layout may change).
  json llama = json::parse(config_text("llama-2-7b"));
  CHECK(poslab::app::read_model_config(llama).layers.at(0).layout == "half");
  llama["position_embedding_type"] = "rope_gptj";
  const ModelReading gptj = poslab::app::read_model_config(llama);
  CHECK(gptj.layers.at(0).layout == "interleaved");
  CHECK(gptj.params.at("layout") == "interleaved");
}
