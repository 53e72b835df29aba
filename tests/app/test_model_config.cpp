// `poslab model`: each fixture in tests/fixtures/configs/ (written from the
// model's published config.json) read as transformers reads it — family, head
// and rotary dims, base, method, factor, trained and target context, the
// attention factor transformers computes, and the warnings it must raise.

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/model/model_config.hpp"
#include "app/common/messages.hpp"
#include "app_test_support.hpp"
#include "core/core_test_support.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/scaling.hpp"

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
      {"phi-3-mini-128k", "rope", 96, 96, 10000, "longrope", 32, 4096, 131072, kPhi3, {"legacy_type", "longrope"}},
      {"gemma-7b", "rope", 256, 256, 10000, "none", {}, 8192, {}, 1.0, {"head_dim_explicit"}},
      {"t5-base", "t5", 64, {}, {}, nullptr, {}, {}, {}, {}, {"t5_encoder_decoder"}},
      {"bloom-560m", "alibi", 64, {}, {}, nullptr, {}, 2048, {}, {}, {}},
      {"mpt-7b", "alibi", 128, {}, {}, nullptr, {}, 2048, {}, {}, {}},
      {"pythia-410m", "rope", 64, 16, 10000, "none", {}, 2048, {}, 1.0, {"partial_rotary"}},
      {"falcon-7b", "rope", 64, 64, 10000, "none", {}, 2048, {}, 1.0, {}},
      {"phi-2", "rope", 80, 32, 10000, "none", {}, 2048, {}, 1.0, {"partial_rotary"}},
      {"vicuna-7b-v1.5-16k", "rope", 128, 128, 10000, "linear", 4, 4096, 16384, 1.0, {"legacy_type", "linear_context"}},
      {"llama-dynamic", "rope", 128, 128, 10000, "dynamic", 2, 4096, 8192, 1.0, {"dynamic"}},
  };
  return all;
}

std::vector<std::string> warning_ids(const ModelReading& r) {
  std::vector<std::string> ids;
  for (const auto& w : r.warnings) ids.push_back(w.id);
  return ids;
}

const poslab::app::Translator& chinese() {
  static const poslab::app::Translator tr = poslab::app::Translator::load(poslab::app::assets_dir(), "zh");
  return tr;
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
    // ... in Chinese too: every placeholder filled, not the English text.
    for (const auto& w : r.warnings) {
      const std::string zh = poslab::app::model_warning_text(chinese(), w);
      CAPTURE(zh);
      CHECK(zh != w.text);
      CHECK(zh.find('{') == std::string::npos);
      CHECK(poslab::app::model_warning_text(poslab::test::english(), w) == w.text);
    }
    // Partial rotary: the whole head goes to the rope lesson as head_dim.
    if (r.rotary_dim && r.head_dim && *r.rotary_dim != *r.head_dim) CHECK(r.params.at("head_dim").get<int>() == *r.head_dim);
    else CHECK_FALSE(r.params.contains("head_dim"));
    // The params are valid poslab parameters.
    poslab::core::Params p;
    for (const std::string& a : poslab::app::model_assignments(r)) CHECK_NOTHROW(p.set_assignment(a));
  }
}

TEST_CASE("model: numbers in warnings read as a person writes them") {
  // Every warning of every fixture: no integer of 4+ digits without thousands
  // separators (4,096, not 4096), no number with more than 6 significant digits.
  const std::regex bare_integer(R"((^|[^0-9.,])[0-9]{4,}([^0-9.,e]|$))");
  const std::regex long_fraction(R"([0-9]*\.[0-9]{7,})");
  int numbers_seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(POSLAB_SOURCE_DIR) + "/tests/fixtures/configs")) {
    if (entry.path().extension() != ".json") continue;  // PROVENANCE.md
    const ModelReading r = fixture(entry.path().stem().string());
    for (const auto& w : r.warnings)
      for (const auto& arg : w.args) {
        const std::string& name = arg.first;
        const std::string& value = arg.second;  // (clang 14: no structured binding given to CAPTURE)
        CAPTURE(entry.path().filename().string());
        CAPTURE(w.id);
        CAPTURE(value);
        if (!value.empty() && (std::isdigit(static_cast<unsigned char>(value[0])) != 0)) ++numbers_seen;
        // names and JSON as written, and a command to paste (its --set values as poslab reads them)
        if (name == "type" || name == "where" || name == "command") continue;
        CHECK_FALSE(std::regex_search(value, bare_integer));
        CHECK_FALSE(std::regex_search(value, long_fraction));
      }
  }
  CHECK(numbers_seen > 20);
  // the separators are there
  const ModelReading ds = fixture("deepseek-v3");
  bool grouped = false;
  for (const auto& w : ds.warnings)
    for (const auto& arg : w.args) grouped = grouped || arg.second == "163,840";
  CHECK(grouped);
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
  CHECK(phi3.params.at("short_factor").size() == 48);
  CHECK(phi3.params.at("seq_len").get<long long>() == 4096);  // init: the short list transformers builds at load
  CHECK(fixture("gpt-oss-20b").params.at("truncate").get<bool>() == false);
  CHECK_FALSE(fixture("qwen2.5-7b-yarn").params.contains("truncate"));
  const ModelReading dyn = fixture("llama-dynamic");
  CHECK(dyn.params.at("seq_len").get<long long>() == 4096);  // init: the plain base
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

// [SECTION] The params reproduce the model: the rope-scaling table at them gives
// transformers' numbers (the table's own checks are in test_scaling.cpp; here
// the reading's attention factor and per-pair divisors).

namespace {

poslab::core::Params params_of(const ModelReading& r) {
  poslab::core::Params p;
  for (const std::string& a : poslab::app::model_assignments(r)) p.set_assignment(a);
  return p;
}

}  // namespace

TEST_CASE("model: every fixture's params rebuild its attention factor in core") {
  for (const Expected& e : expectations()) {
    if (!e.method || std::string(e.method) == "none") continue;
    CAPTURE(e.fixture);
    const ModelReading r = fixture(e.fixture);
    const poslab::core::Params p = params_of(r);
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
    const poslab::core::ScalingTable t = poslab::core::rope_scaling_table(c);
    CHECK(t.attention_factor == doctest::Approx(*e.attention_factor).epsilon(1e-15));
  }
  // Phi-3: pair i is divided by long_factor[i] (seq_len 131072 > L = 4096)
  const ModelReading phi3 = fixture("phi-3-mini-128k");
  const poslab::core::Params p = params_of(phi3);
  const auto divisors = p.list("long_factor");
  REQUIRE(divisors.size() == 48);
  for (std::size_t i = 0; i < 48; ++i) CHECK(divisors[i] == phi3.long_factor[i]);
  CHECK(divisors.back() == 64.76000213623047);
}

TEST_CASE("model: explicit attention_factor, longrope factor against the ratio, longrope without a factor") {
  using poslab::app::read_model_config_text;
  const ModelReading yarn = read_model_config_text(
      R"({"model_type":"qwen2","hidden_size":4096,"num_attention_heads":32,"max_position_embeddings":131072,)"
      R"("rope_theta":1e6,"rope_scaling":{"rope_type":"yarn","factor":4,"original_max_position_embeddings":32768,)"
      R"("attention_factor":1.25}})");
  CHECK(*yarn.attention_factor == 1.25);
  CHECK(yarn.params.at("attention_factor").get<double>() == 1.25);
  CHECK(yarn.has_warning("attention_factor_explicit"));
  // Phi-3 with an explicit factor 16 next to 131072/4096 = 32: the 2025 code uses 16, the 2024 code 32.
  nlohmann::json phi = nlohmann::json::parse(fixture_text("phi-3-mini-128k"));
  phi["rope_scaling"]["factor"] = 16;
  const ModelReading both = poslab::app::read_model_config(phi);
  CHECK(both.params.at("factor").get<double>() == 16);
  CHECK(*both.attention_factor == doctest::Approx(std::sqrt(1 + std::log(16.0) / std::log(4096.0))).epsilon(1e-15));
  CHECK(both.has_warning("longrope_factor_vs_ratio"));
  // longrope with rope_scaling's own original_max_position_embeddings and no top-level one
  phi = nlohmann::json::parse(fixture_text("phi-3-mini-128k"));
  phi.erase("original_max_position_embeddings");
  phi["rope_scaling"]["original_max_position_embeddings"] = 8192;
  const ModelReading inner = poslab::app::read_model_config(phi);
  CHECK(inner.trained_context == 8192);
  CHECK(inner.params.at("factor").get<double>() == 16);
  CHECK_FALSE(inner.has_warning("longrope_factor_vs_ratio"));
  // no original anywhere: L = max_position_embeddings, s = 1, short list, a = 1
  phi.at("rope_scaling").erase("original_max_position_embeddings");
  const ModelReading plain = poslab::app::read_model_config(phi);
  CHECK(plain.trained_context == 131072);
  CHECK(*plain.attention_factor == 1.0);
  CHECK(plain.params.at("seq_len").get<long long>() == 131072);
  CHECK(plain.warnings.back().key == "model.warning.longrope_short");
}

TEST_CASE("model: errors say what() in English and in full in Chinese") {
  using poslab::app::read_model_config_text;
  for (const char* bad : {"not json", "[1]", R"({"vocab_size": 1})", R"({"model_type":"foo"})",
                          R"({"model_type":"llama","rope_scaling":{"rope_type":"linear","factor":0}})",
                          R"({"model_type":"llama","rope_scaling":{"rope_type":"yarn"}})"}) {
    CAPTURE(bad);
    const auto e = poslab::test::raised_by([&] { (void)read_model_config_text(bad); });
    CHECK(poslab::app::error_text(poslab::test::english(), e) == e.what());
    const std::string zh = poslab::app::error_text(chinese(), e);
    CHECK(zh != e.what());
    CHECK(!std::regex_search(zh, std::regex(R"(\{[A-Za-z_])")));  // every placeholder filled ("{…}" is a value)
  }
}

TEST_CASE("model config files: a file past the limit, or an endless one, is refused without being read whole") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("poslab-model-size-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path small = dir / "config.json", big = dir / "huge.json";
  {
    std::ofstream(small) << R"({"model_type": "llama"})";
    std::ofstream out(big, std::ios::binary);
    const std::string block(1 << 16, ' ');
    for (int i = 0; i < 17; ++i) out << block;  // 17 × 64 KiB > 1 MiB
  }
  CHECK(poslab::app::read_text_file(small, std::size_t{1} << 20, "a model config") == R"({"model_type": "llama"})");
  try {
    (void)poslab::app::read_text_file(big, std::size_t{1} << 20, "a model config");
    FAIL("a file past the limit was read");
  } catch (const poslab::app::IoError& e) {
    const std::string what = e.what();
    CHECK(what.find("huge.json") != std::string::npos);
    CHECK(what.find("1 MiB") != std::string::npos);
    CHECK(what.find("too large to be a model config") != std::string::npos);
  }
  // A file exactly at the limit is read.
  fs::resize_file(big, std::size_t{1} << 20);
  CHECK(poslab::app::read_text_file(big, std::size_t{1} << 20, "a model config").size() == (std::size_t{1} << 20));
  // An endless file stops at the limit (read would never end).
  if (fs::exists("/dev/zero")) CHECK_THROWS_AS((void)poslab::app::read_text_file("/dev/zero", std::size_t{1} << 20, "a model config"), poslab::app::IoError);
  CHECK(poslab::app::kMaxModelConfigBytes >= (std::size_t{1} << 20));  // real configs are KBs; room to spare
  fs::remove_all(dir);
}

TEST_CASE("model: YaRN with an inverted correction range is warned about (audit)") {
  // rope_theta 2, head_dim 128, L = 4096: low = ⌊dim(32)⌋ = 278 > high = min(⌈dim(1)⌉, 127) = 127,
  // dim(β) = 128·ln(4096/(2π·β))/(2·ln 2): transformers divides every pair by the factor.
  const std::string config = R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
    "max_position_embeddings": 32768, "rope_theta": 2.0,
    "rope_scaling": {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096}})";
  const ModelReading r = poslab::app::read_model_config_text(config);
  const std::vector<std::string> ids = warning_ids(r);
  REQUIRE(std::find(ids.begin(), ids.end(), "yarn_inverted_range") != ids.end());
  for (const auto& w : r.warnings)
    if (w.id == "yarn_inverted_range") {
      CHECK(w.text.find("low = 278 > high = 127") != std::string::npos);
      CHECK(poslab::app::model_warning_text(chinese(), w).find("low = 278 > high = 127") != std::string::npos);
    }
  // the usual base: no such warning
  const std::string usual = R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
    "max_position_embeddings": 32768, "rope_theta": 10000.0,
    "rope_scaling": {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096}})";
  const std::vector<std::string> none = warning_ids(poslab::app::read_model_config_text(usual));
  CHECK(std::find(none.begin(), none.end(), "yarn_inverted_range") == none.end());
}

TEST_CASE("model: a misspelt field beside a missing one is warned about, never in a real config (practitioner review)") {
  namespace fs = std::filesystem;
  using nlohmann::json;
  const auto arg = [](const poslab::app::ModelWarning& w, const std::string& name) {
    for (const auto& [k, v] : w.args)
      if (k == name) return v;
    return std::string();
  };
  // A field written with two neighbouring letters swapped, in the part of the file poslab reads.
  const std::vector<std::string> fields = {"rope_theta", "max_position_embeddings", "head_dim", "partial_rotary_factor",
                                           "rope_local_base_freq", "sliding_window", "layer_types", "no_rope_layers",
                                           "original_max_position_embeddings", "rotary_pct", "rotary_emb_base",
                                           "global_rope_theta", "local_rope_theta", "n_positions", "max_seq_len",
                                           "rope_ratio", "seq_length", "num_hidden_layers", "rotary_dim"};
  int fixtures = 0, typos = 0, refused = 0;
  for (const auto& entry : fs::directory_iterator(std::string(POSLAB_SOURCE_DIR) + "/tests/fixtures/configs")) {
    if (entry.path().extension() != ".json") continue;  // PROVENANCE.md
    const std::string name = entry.path().stem().string();
    CAPTURE(name);
    const ModelReading clean = fixture(name);
    const std::vector<std::string> ids = warning_ids(clean);
    CHECK(std::find(ids.begin(), ids.end(), "misspelt_field") == ids.end());
    ++fixtures;
    const json original = json::parse(fixture_text(name));
    for (const std::string& field : fields) {
      json edited = original;
      json& part = clean.config_part.empty() ? edited : edited[clean.config_part];
      if (!part.is_object() || !part.contains(field)) continue;
      std::string typo = field;
      const std::size_t at = typo.size() / 2;
      std::swap(typo[at - 1], typo[at]);
      if (typo == field) std::swap(typo[at], typo[at + 1]);
      part[typo] = part[field];
      part.erase(field);
      CAPTURE(typo);
      ModelReading r;
      try {
        r = poslab::app::read_model_config_text(edited.dump());
      } catch (const poslab::core::InvalidParameter&) {
        ++refused;  // a field the model cannot be read without: refused, naming it (tested elsewhere)
        continue;
      }
      ++typos;
      bool found = false;
      for (const auto& w : r.warnings)
        if (w.id == "misspelt_field" && arg(w, "key") == typo) {
          found = true;
          CHECK(arg(w, "name") == field);
          CHECK(w.text.find("did you mean " + field + "?") != std::string::npos);
          CHECK(poslab::app::model_warning_text(chinese(), w).find(field) != std::string::npos);
          // taken from the model type's defaults: the warning says so, and `defaulted` lists it
          const bool defaulted = std::find(r.defaulted.begin(), r.defaulted.end(), field) != r.defaulted.end();
          CHECK((w.key == "model.warning.misspelt_field_default") == defaulted);
        }
      CHECK(found);
    }
  }
  MESSAGE(fixtures << " fixtures, " << typos << " misspelt fields warned about, " << refused << " refused");
  CHECK(fixtures >= 37);
  CHECK(typos >= 100);
}
