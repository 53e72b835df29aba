// `poslab model`: each fixture in tests/fixtures/configs/ (written from the
// model's published config.json) read as transformers reads it — family, head
// and rotary dims, base, method, factor, trained and target context, the
// attention factor transformers computes, and the warnings it must raise.

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/model/model_config.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"

namespace {

using poslab::app::ModelReading;

std::string fixture_text(const std::string& name) {
  std::ifstream in(std::string(POSLAB_SOURCE_DIR) + "/tests/fixtures/configs/" + name + ".json");
  REQUIRE(in.good());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ModelReading fixture(const std::string& name) { return poslab::app::read_model_config_text(fixture_text(name)); }

struct Expected {
  const char* fixture;
  const char* family;
  std::optional<int> head_dim, rotary_dim;
  std::optional<double> base;
  const char* method;  ///< nullptr: no method key (not RoPE)
  std::optional<double> factor;
  std::optional<long long> trained, target;
  std::optional<double> attention_factor;
  std::vector<std::string> warnings;  ///< exactly these ids, in order
};

// Attention factors as transformers computes them:
//   yarn   get_mscale(s) = 0.1·ln s + 1, or get_mscale(s, mscale)/get_mscale(s, mscale_all_dim)
//   longrope sqrt(1 + ln(max/original) / ln original)
const double kQwenYarn = 0.1 * std::log(4.0) + 1;                     // 1.1386…
const double kGptOss = 0.1 * std::log(32.0) + 1;                      // 1.3466…
const double kPhi3 = std::sqrt(1 + std::log(32.0) / std::log(4096.0));  // 1.1902…

const std::vector<Expected>& expectations() {
  static const std::vector<Expected> all = {
      {"llama-2-7b", "rope", 128, 128, 10000, "none", {}, 4096, {}, 1.0, {}},
      {"llama-3.1-8b", "rope", 128, 128, 500000, "llama3", 8, 8192, 131072, 1.0, {"max_positions_mismatch"}},
      {"llama-3.1-8b-v5", "rope", 128, 128, 500000, "llama3", 8, 8192, 131072, 1.0, {"max_positions_mismatch"}},
      {"llama-3.2-1b", "rope", 64, 64, 500000, "llama3", 32, 8192, 131072, 1.0, {"max_positions_mismatch"}},
      {"mistral-7b-v0.1", "rope", 128, 128, 10000, "none", {}, 32768, {}, 1.0, {}},
      {"qwen2.5-7b", "rope", 128, 128, 1e6, "none", {}, 32768, {}, 1.0, {}},
      {"qwen2.5-7b-yarn", "rope", 128, 128, 1e6, "yarn", 4, 32768, 131072, kQwenYarn,
       {"legacy_type", "yarn_factor_vs_ratio", "max_positions_unscaled"}},
      {"deepseek-v3", "rope", 64, 64, 10000, "yarn", 40, 4096, 163840, 1.0,
       {"mla_rope_head_dim", "legacy_type", "mscale_cancels", "max_positions_scaled"}},
      {"gpt-oss-20b", "rope", 64, 64, 150000, "yarn", 32, 4096, 131072, kGptOss,
       {"head_dim_explicit", "yarn_truncate_false", "max_positions_scaled"}},
      {"phi-3-mini-128k", "rope", 96, 96, 10000, "none", {}, 4096, 131072, kPhi3, {"legacy_type", "longrope"}},
      {"gemma-7b", "rope", 256, 256, 10000, "none", {}, 8192, {}, 1.0, {"head_dim_explicit"}},
      {"t5-base", "t5", 64, {}, {}, nullptr, {}, {}, {}, {}, {"t5_encoder_decoder"}},
      {"bloom-560m", "alibi", 64, {}, {}, nullptr, {}, 2048, {}, {}, {}},
      {"mpt-7b", "alibi", 128, {}, {}, nullptr, {}, 2048, {}, {}, {}},
      {"pythia-410m", "rope", 64, 16, 10000, "none", {}, 2048, {}, 1.0, {"partial_rotary"}},
      {"falcon-7b", "rope", 64, 64, 10000, "none", {}, 2048, {}, 1.0, {}},
      {"phi-2", "rope", 80, 32, 10000, "none", {}, 2048, {}, 1.0, {"partial_rotary"}},
      {"vicuna-7b-v1.5-16k", "rope", 128, 128, 10000, "linear", 4, 4096, 16384, 1.0, {"legacy_type"}},
      {"llama-dynamic", "rope", 128, 128, 10000, "dynamic", 2, 4096, 8192, 1.0, {"dynamic"}},
  };
  return all;
}

std::vector<std::string> warning_ids(const ModelReading& r) {
  std::vector<std::string> ids;
  for (const auto& w : r.warnings) ids.push_back(w.id);
  return ids;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ",") + s;
  return out;
}

}  // namespace

TEST_CASE("model: every fixture reads as transformers reads it") {
  for (const Expected& e : expectations()) {
    CAPTURE(e.fixture);
    const ModelReading r = fixture(e.fixture);
    CHECK(r.family == e.family);
    CHECK(r.head_dim == e.head_dim);
    CHECK(r.rotary_dim == e.rotary_dim);
    CHECK(r.trained_context == e.trained);
    CHECK(r.target_context == e.target);
    REQUIRE(r.attention_factor.has_value() == e.attention_factor.has_value());
    if (e.attention_factor) CHECK(*r.attention_factor == doctest::Approx(*e.attention_factor).epsilon(1e-12));
    if (e.base) CHECK(r.params.at("base").get<double>() == *e.base);
    if (e.method) {
      CHECK(r.params.at("method").get<std::string>() == e.method);
      CHECK(r.params.at("d").get<int>() == *e.rotary_dim);
    } else {
      CHECK_FALSE(r.params.contains("method"));
    }
    if (e.factor) CHECK(r.params.at("factor").get<double>() == *e.factor);
    else CHECK_FALSE(r.params.contains("factor"));
    if (e.factor) CHECK(r.params.at("original_context").get<long long>() == *e.trained);
    CHECK(joined(warning_ids(r)) == joined(e.warnings));
    // Every warning teaches: it says what the config holds and is a sentence or more.
    for (const auto& w : r.warnings) CHECK(w.text.size() > 80);
    // The params are valid poslab parameters.
    poslab::core::Params p;
    for (const std::string& a : poslab::app::model_assignments(r)) CHECK_NOTHROW(p.set_assignment(a));
  }
}

TEST_CASE("model: views, defaults and legacy fields") {
  CHECK(fixture("llama-2-7b").view == "rope");
  CHECK(fixture("llama-3.1-8b").view == "scaling");
  CHECK(fixture("t5-base").view == "t5");
  CHECK(fixture("bloom-560m").view == "alibi");
  const ModelReading t5 = fixture("t5-base");
  CHECK(t5.params.at("buckets").get<int>() == 32);
  CHECK(t5.params.at("bucket_max_distance").get<int>() == 128);
  CHECK(t5.params.at("bidirectional").get<bool>());
  CHECK(joined(t5.defaulted) == "relative_attention_max_distance");
  CHECK(fixture("bloom-560m").params.at("heads").get<int>() == 16);
  CHECK(fixture("mpt-7b").params.at("heads").get<int>() == 32);
  CHECK(joined(fixture("falcon-7b").defaulted) == "rope_theta,max_position_embeddings");
  CHECK(joined(fixture("vicuna-7b-v1.5-16k").defaulted) == "rope_theta");
  CHECK(joined(fixture("qwen2.5-7b-yarn").defaulted) == "rope_scaling.beta_fast,rope_scaling.beta_slow");
  const ModelReading ds = fixture("deepseek-v3");
  CHECK(ds.params.at("mscale").get<double>() == 1.0);
  CHECK(ds.params.at("mscale_all_dim").get<double>() == 1.0);
  const ModelReading phi3 = fixture("phi-3-mini-128k");
  CHECK(phi3.short_factor.size() == 48);
  CHECK(phi3.long_factor.size() == 48);
  const ModelReading dyn = fixture("llama-dynamic");
  CHECK(dyn.params.at("seq_len").get<long long>() == 8192);
  // v4 and v5 spellings of Llama 3.1 read the same.
  CHECK(fixture("llama-3.1-8b").params == fixture("llama-3.1-8b-v5").params);
}

TEST_CASE("model: the old name su, unknown rope types, legacy partial rotary") {
  using poslab::app::read_model_config_text;
  std::string su = fixture_text("phi-3-mini-128k");
  su.replace(su.find("\"longrope\""), 10, "\"su\"");
  CHECK(read_model_config_text(su).has_warning("longrope_su"));
  const ModelReading odd = read_model_config_text(
      R"({"model_type":"llama","rope_theta":10000,"rope_scaling":{"rope_type":"magic","factor":2}})");
  CHECK(odd.has_warning("unknown_rope_type"));
  CHECK(odd.params.at("method").get<std::string>() == "none");
  const ModelReading gptj = read_model_config_text(R"({"model_type":"gptj","n_embd":4096,"n_head":16,"rotary_dim":64})");
  CHECK(gptj.head_dim == 256);
  CHECK(gptj.rotary_dim == 64);
  CHECK(gptj.has_warning("partial_rotary"));
}

TEST_CASE("model: bad input names the field and the reason") {
  using poslab::app::read_model_config_text;
  struct Bad {
    const char* json;
    const char* field;
  };
  const std::string phi3 = fixture_text("phi-3-mini-128k");
  nlohmann::json short_json = nlohmann::json::parse(phi3);
  short_json["rope_scaling"]["short_factor"].erase(0);  // 47 factors for 48 pairs
  const std::string short_list = short_json.dump();
  const std::vector<Bad> bad = {
      {"not json", "config"},
      {"[1, 2]", "config"},
      {R"({"vocab_size": 32000})", "config"},
      {R"({"model_type":"llama","rope_theta":10000,"rope_scaling":{"rope_type":"linear","factor":0}})", "rope_scaling.factor"},
      {R"({"model_type":"llama","rope_theta":-1})", "rope_theta"},
      {R"({"model_type":"llama","num_attention_heads":1000000000,"hidden_size":4096})", "num_attention_heads"},
      {R"({"model_type":"llama","rope_scaling":{"type":"yarn","rope_type":"linear","factor":2}})", "rope_scaling.type"},
      {R"({"model_type":"gpt_neox","hidden_size":1024,"num_attention_heads":16,"rotary_pct":0.25,"partial_rotary_factor":0.5})",
       "rotary_pct"},
      {R"({"model_type":"llama","rope_scaling":{"rope_type":"llama3","factor":8}})", "rope_scaling.original_max_position_embeddings"},
      {R"({"model_type":"llama","rope_scaling":{"rope_type":"yarn"}})", "rope_scaling.factor"},
      {R"({"model_type":"bloom","n_head":1000,"n_embed":64000})", "n_head"},
      {short_list.c_str(), "rope_scaling.short_factor"},
  };
  for (const Bad& b : bad) {
    const std::string input = b.json;
    CAPTURE(input);
    bool raised = false;
    try {
      read_model_config_text(b.json);
    } catch (const poslab::core::InvalidParameter& e) {
      raised = true;
      CHECK(e.key() == b.field);
      CHECK(!e.allowed().empty());
    }
    CHECK(raised);
  }
}

TEST_CASE("model: the three outputs say the same") {
  const ModelReading r = fixture("qwen2.5-7b-yarn");
  const auto j = poslab::app::model_reading_json(r);
  for (const char* key : {"model", "family", "view", "head_dim", "rotary_dim", "trained_context", "target_context",
                          "attention_factor", "params", "defaulted", "warnings"})
    CHECK(j.contains(key));
  CHECK(j.at("warnings").at(0).at("id") == "legacy_type");
  const std::string text = poslab::app::model_reading_text(r);
  const std::string md = poslab::app::model_reading_md(r);
  for (const std::string& s : {text, md}) {
    CHECK(s.find("--set method=yarn") != std::string::npos);
    CHECK(s.find("yarn_factor_vs_ratio") != std::string::npos);
    CHECK(s.find("131072") != std::string::npos);
  }
}
