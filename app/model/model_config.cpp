// [SECTION] Index
// - Helpers: shown values, numbers, the Reader
// - transformers' defaults by model_type
// - The text part of a multimodal config
// - Family detection
// - ALiBi, T5, learned
// - Entry points: the reading, its last check under the config's names
// RoPE is read in model_rope.cpp, the layers in model_layers.cpp.

#include "app/model/model_config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "app/common/json_input.hpp"
#include "app/common/messages.hpp"
#include "app/model/model_reader.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/float_text.hpp"

namespace poslab::app {

using core::InvalidParameter;
using core::Reason;
using nlohmann::json;

bool ModelReading::has_warning(std::string_view id) const {
  return std::any_of(warnings.begin(), warnings.end(), [&](const ModelWarning& w) { return w.id == id; });
}

std::string model_warning_text(const Translator& tr, const ModelWarning& w) {
  if (!tr.find(w.key)) return w.text;  // a translator without the model's texts: the English one
  return tr.format(w.key, w.args);
}

namespace model_detail {

// [SECTION] Helpers

std::string shown(const json& value) {
  std::string s = value.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

std::string num(double x) {
  // The shortest %g text of 10 to 17 digits that reads back as x (131072,
  // 0.25, 1e+12): strtod, not std::stod, which throws on a subnormal such as
  // 1e-320 (a config may hold one: issue #32).
  if (!std::isfinite(x)) return std::isnan(x) ? "nan" : (x < 0 ? "-inf" : "inf");
  for (int digits = 10; digits <= 17; ++digits) {  // as std::ostream at precision 10..17 writes it
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, x);
    if (std::strtod(buf, nullptr) == x || digits == 17) return buf;
  }
  return {};
}

std::string at(const std::string& where, const char* key) { return where + "." + key; }

double number(const json& v, const std::string& path, double min, double max, bool above) {
  if (!v.is_number()) throw InvalidParameter(path, shown(v), "must be a number", Reason{"model_not_number", {}, {}});
  const double x = v.get<double>();
  const bool low = above ? !(x > min) : !(x >= min);
  if (std::isfinite(x) && !low && x <= max) return x;
  if (above)
    throw InvalidParameter(path, shown(v), "must be a number > " + num(min) + " and ≤ " + num(max),
                           Reason{"model_number_above", {{"min", num(min)}, {"max", num(max)}}, {}});
  throw InvalidParameter(path, shown(v), "must be a number in " + num(min) + ".." + num(max),
                         Reason{"model_number_in", {{"min", num(min)}, {"max", num(max)}}, {}});
}

long long integer(const json& v, const std::string& path, long long min, long long max) {
  const double x = number(v, path, static_cast<double>(min), static_cast<double>(max));
  if (x != std::floor(x))
    throw InvalidParameter(path, shown(v), "must be a whole number in " + num(static_cast<double>(min)) + ".." +
                                               num(static_cast<double>(max)),
                           Reason{"model_whole_in", {{"min", num(static_cast<double>(min))}, {"max", num(static_cast<double>(max))}}, {}});
  return static_cast<long long>(x);
}

bool boolean(const json& v, const std::string& path) {
  if (!v.is_boolean()) throw InvalidParameter(path, shown(v), "must be true or false", Reason{"model_boolean", {}, {}});
  return v.get<bool>();
}

void missing(const std::string& path, std::string why, Reason reason) {
  throw InvalidParameter(path, "missing", std::move(why), Reason{std::move(reason.id), std::move(reason.args), "missing"});
}

Reader::Reader(const json& config, ModelReading& out, std::string type) : c_(config), out_(out), type_(std::move(type)) {
  if (type_.empty())
    if (const json* t = present(c_, "model_type"); t && t->is_string()) type_ = t->get<std::string>();
}

const json* Reader::present(const json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

namespace {

// [SECTION] transformers' defaults by model_type

/// The defaults of transformers' config classes, by model_type, for the
/// fields a config may leave out (configuration_<type>.py __init__ defaults).
const std::map<std::string, json>& type_defaults() {
  static const std::map<std::string, json> defaults = {
      {"llama", {{"hidden_size", 4096}, {"num_attention_heads", 32}, {"max_position_embeddings", 2048}, {"rope_theta", 10000.0}}},
      {"mistral", {{"hidden_size", 4096}, {"num_attention_heads", 32}, {"max_position_embeddings", 131072}, {"rope_theta", 10000.0}}},
      {"mixtral", {{"hidden_size", 4096}, {"num_attention_heads", 32}, {"max_position_embeddings", 131072}, {"rope_theta", 1e6}}},
      {"qwen2", {{"hidden_size", 4096}, {"num_attention_heads", 32}, {"max_position_embeddings", 32768}, {"rope_theta", 10000.0}}},
      {"qwen3", {{"hidden_size", 4096}, {"num_attention_heads", 32}, {"head_dim", 128}, {"max_position_embeddings", 32768}, {"rope_theta", 10000.0}}},
      {"gemma", {{"hidden_size", 3072}, {"num_attention_heads", 16}, {"head_dim", 256}, {"max_position_embeddings", 8192}, {"rope_theta", 10000.0}}},
      {"gemma2", {{"hidden_size", 2304}, {"num_attention_heads", 8}, {"head_dim", 256}, {"max_position_embeddings", 8192}, {"rope_theta", 10000.0}}},
      {"phi", {{"hidden_size", 2048}, {"num_attention_heads", 32}, {"partial_rotary_factor", 0.5}, {"max_position_embeddings", 2048}, {"rope_theta", 10000.0}}},
      {"phi3", {{"hidden_size", 3072}, {"num_attention_heads", 32}, {"max_position_embeddings", 4096}, {"rope_theta", 10000.0}}},
      {"gpt_neox", {{"hidden_size", 6144}, {"num_attention_heads", 64}, {"rotary_pct", 0.25}, {"rotary_emb_base", 10000}, {"max_position_embeddings", 2048}}},
      {"falcon", {{"hidden_size", 4544}, {"num_attention_heads", 71}, {"max_position_embeddings", 2048}, {"rope_theta", 10000.0}, {"alibi", false}}},
      {"deepseek_v3", {{"hidden_size", 7168}, {"num_attention_heads", 128}, {"qk_rope_head_dim", 64}, {"max_position_embeddings", 4096}, {"rope_theta", 10000.0},
                       {"rope_interleave", true}}},
      {"gpt_oss", {{"hidden_size", 2880}, {"num_attention_heads", 64}, {"head_dim", 64}, {"num_hidden_layers", 36}, {"max_position_embeddings", 131072}, {"rope_theta", 150000.0}}},
      {"t5", {{"d_model", 512}, {"d_kv", 64}, {"num_heads", 8}, {"relative_attention_num_buckets", 32}, {"relative_attention_max_distance", 128}}},
      {"bloom", {{"hidden_size", 64}, {"n_head", 8}}},
      {"mpt", {{"d_model", 2048}, {"n_heads", 16}, {"max_seq_len", 2048}}},
      {"gpt2", {{"n_embd", 768}, {"n_head", 12}, {"n_positions", 1024}}},
      {"bert", {{"hidden_size", 768}, {"num_attention_heads", 12}, {"max_position_embeddings", 512}}},
      {"opt", {{"hidden_size", 768}, {"num_attention_heads", 12}, {"max_position_embeddings", 2048}}},
      // The 2025–26 generation (configuration_<type>.py defaults; v5 keeps them as dataclass fields).
      {"gemma3_text", {{"hidden_size", 2304}, {"num_attention_heads", 8}, {"head_dim", 256}, {"max_position_embeddings", 131072},
                       {"rope_theta", 1e6}, {"sliding_window", 4096}}},
      {"llama4_text", {{"hidden_size", 5120}, {"num_attention_heads", 40}, {"head_dim", 128}, {"max_position_embeddings", 131072},
                       {"rope_theta", 500000.0}, {"attention_chunk_size", 8192}, {"floor_scale", 8192}, {"attn_scale", 0.1}}},
      {"smollm3", {{"hidden_size", 2048}, {"num_attention_heads", 16}, {"max_position_embeddings", 32768}, {"rope_theta", 2e6}}},
      {"cohere2", {{"hidden_size", 8192}, {"num_attention_heads", 64}, {"max_position_embeddings", 8192}, {"rope_theta", 10000.0},
                   {"sliding_window", 4096}}},
      {"ministral3", {{"hidden_size", 4096}, {"num_attention_heads", 32}, {"head_dim", 128}, {"max_position_embeddings", 262144}}},
      {"modernbert", {{"hidden_size", 768}, {"num_attention_heads", 12}, {"max_position_embeddings", 8192}}},
      {"qwen2_5_vl", {{"hidden_size", 8192}, {"num_attention_heads", 64}, {"max_position_embeddings", 32768}, {"rope_theta", 1e6}}},
      {"qwen2_vl", {{"hidden_size", 8192}, {"num_attention_heads", 64}, {"max_position_embeddings", 32768}, {"rope_theta", 1e6}}},
      {"dbrx", {{"d_model", 2048}, {"n_heads", 16}, {"max_seq_len", 2048}}},
      {"jamba", {{"hidden_size", 4096}, {"num_attention_heads", 32}, {"max_position_embeddings", 262144}}},
  };
  return defaults;
}

}  // namespace

const json* Reader::field(std::initializer_list<const char*> names, std::string* name) {
  for (const char* n : names)
    if (const json* v = present(c_, n)) {
      if (name) *name = n;
      return v;
    }
  auto d = type_defaults().find(type_);
  if (d != type_defaults().end())
    for (const char* n : names)
      if (const json* v = present(d->second, n)) {
        if (name) *name = n;
        note_default(n);
        return v;
      }
  return nullptr;
}

void Reader::note_default(const std::string& name) {
  if (std::find(out_.defaulted.begin(), out_.defaulted.end(), name) == out_.defaulted.end())
    out_.defaulted.push_back(name);
}

namespace {

/// A number in a warning as a reader takes it in: whole numbers from 1,000
/// on with thousands separators ("163,840"), others to 6 significant digits
/// ("1.87385", not 1.8738542070926265). Anything else is left as it is.
std::string readable(const std::string& text) {
  static const std::regex kNumber(R"(-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)");
  if (!std::regex_match(text, kNumber)) return text;
  const double x = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(x)) return text;
  if (x == std::floor(x) && std::fabs(x) < 1e15) {
    std::string digits = std::to_string(static_cast<long long>(std::fabs(x)));
    if (std::fabs(x) >= 1000)
      for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<std::size_t>(at), ",");
    return (x < 0 ? "-" : "") + digits;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

}  // namespace

void Reader::warn(std::string key, Args args, std::string id) {
  if (id.empty()) id = key.substr(key.find('.', key.find('.') + 1) + 1);  // "model.warning.<id>"
  for (auto& arg : args) arg.second = readable(arg.second);
  ModelWarning w{std::move(id), {}, std::move(key), std::move(args)};
  w.text = english_translator().format(w.key, w.args);
  out_.warnings.push_back(std::move(w));
}

std::optional<long long> max_positions(Reader& r, std::string* name) {
  std::string n;
  const json* v = r.field({"max_position_embeddings", "n_positions", "seq_length", "max_seq_len", "max_sequence_length",
                           "model_max_length"},
                          &n);
  if (!v) return std::nullopt;
  if (name) *name = n;
  return integer(*v, n, 1, kMaxContext);
}

// [SECTION] The text part of a multimodal config

namespace {

bool in(const std::string& s, std::initializer_list<const char*> list) {
  return std::any_of(list.begin(), list.end(), [&](const char* x) { return s == x; });
}

/// The model_type of a nested text config that does not name one: the text
/// class its outer config class builds (Gemma3Config → Gemma3TextConfig, …).
std::string nested_type(const std::string& outer) {
  if (outer == "gemma3") return "gemma3_text";
  if (outer == "llama4") return "llama4_text";
  if (outer == "mistral3") return "mistral";
  if (outer == "deepseek_vl_v2") return "deepseek_v2";
  if (outer == "qwen2_5_vl" || outer == "qwen2_vl") return outer;
  return outer;
}

}  // namespace

const json& text_part(const json& config, std::string& part, std::string& type) {
  part.clear();
  type.clear();
  if (const json* t = Reader::present(config, "model_type"); t && t->is_string()) type = t->get<std::string>();
  // transformers builds the language model from text_config (Gemma 3, Llama 4,
  // Mistral 3, Qwen2.5-VL in new checkpoints), llm_config (InternVL) or
  // language_config (DeepSeek-VL2, Kimi-VL); Qwen2-VL's first checkpoints keep
  // everything at the top level.
  for (const char* key : {"text_config", "llm_config", "language_config"}) {
    const json* nested = Reader::present(config, key);
    if (!nested || !nested->is_object()) continue;
    bool holds_fields = false;
    for (const char* field : {"model_type", "hidden_size", "num_attention_heads", "num_hidden_layers", "head_dim", "rope_theta",
                              "rope_scaling", "rope_parameters", "max_position_embeddings", "d_model", "n_heads"})
      holds_fields = holds_fields || Reader::present(*nested, field);
    if (!holds_fields) continue;
    part = key;
    const json* inner = Reader::present(*nested, "model_type");
    type = inner && inner->is_string() ? inner->get<std::string>() : nested_type(type);
    return *nested;
  }
  return config;
}

// [SECTION] Family detection

std::string detect_family(Reader& r) {
  const json& c = r.config();
  const std::string& t = r.type();
  if (in(t, {"t5", "mt5", "umt5", "longt5", "switch_transformers"}) || Reader::present(c, "relative_attention_num_buckets"))
    return "t5";
  if (t == "bloom") return "alibi";
  // Jamba: Mamba layers and attention layers with no position encoding at all
  // (modeling_jamba.py has no rotary embedding).
  if (t == "jamba") return "none";
  // Baichuan: one model_type for RoPE and ALiBi models. vLLM's baichuan.py
  // decides as the checkpoints' own code does: BaiChuanForCausalLM (capital
  // C, Baichuan-7B) rotates; BaichuanForCausalLM rotates at hidden_size 4096
  // (Baichuan2-7B) and uses ALiBi otherwise (Baichuan-13B, Baichuan2-13B).
  if (t == "baichuan") {
    const json* arch = Reader::present(c, "architectures");
    const std::string first = arch && arch->is_array() && !arch->empty() && (*arch)[0].is_string() ? (*arch)[0].get<std::string>() : "";
    const json* hidden = Reader::present(c, "hidden_size");
    const long long width = hidden ? integer(*hidden, "hidden_size", 1, kMaxWidth) : 0;
    const bool rope = first == "BaiChuanForCausalLM" || width == 4096;
    r.warn(rope ? "model.warning.baichuan_rope" : "model.warning.baichuan_alibi",
           {{"arch", first.empty() ? "?" : first}, {"hidden", num(static_cast<double>(width))}}, "baichuan");
    return rope ? "rope" : "alibi";
  }
  if (t == "mpt") {
    const json* attn = Reader::present(c, "attn_config");
    const json* alibi = attn ? Reader::present(*attn, "alibi") : nullptr;
    return !alibi || boolean(*alibi, "attn_config.alibi") ? "alibi" : "learned";
  }
  if (const json* alibi = Reader::present(c, "alibi"))
    if (boolean(*alibi, "alibi")) return "alibi";
  if (const json* pe = Reader::present(c, "position_embedding_type"); pe && pe->is_string()) {
    const std::string kind = pe->get<std::string>();
    if (kind == "alibi") return "alibi";
    if (kind == "rotary") return "rope";
    if (kind == "absolute") return "learned";
  }
  for (const char* key : {"rope_theta", "rope_scaling", "rope_parameters", "rotary_emb_base", "rotary_pct",
                          "partial_rotary_factor", "rotary_dim", "qk_rope_head_dim"})
    if (Reader::present(c, key)) return "rope";
  if (in(t, {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma", "gemma2",
             "gemma3_text", "phi", "phi3", "gpt_neox", "falcon", "deepseek_v2", "deepseek_v3", "gpt_oss", "gptj",
             "stablelm", "starcoder2", "olmo", "olmo2", "cohere", "internlm2", "granite",
             // the 2025–26 generation and the families with keys of their own
             "gemma3", "gemma4_text", "llama4", "llama4_text", "smollm3", "cohere2", "ministral3", "mistral3", "qwen2_vl",
             "qwen2_5_vl", "qwen3_vl", "qwen3_next", "modernbert", "glm", "glm4", "chatglm", "qwen", "dbrx", "olmo3", "codegen"}))
    return "rope";
  if (in(t, {"gpt2", "gpt_neo", "opt", "bert", "roberta", "distilbert", "bart", "gpt_bigcode", "xlm-roberta",
             "electra", "whisper"}))
    return "learned";
  for (const char* key : {"max_position_embeddings", "n_positions", "seq_length", "max_seq_len"})
    if (Reader::present(c, key)) return "unknown";
  const char* expected =
      "has no position fields: expected rope_theta, rope_scaling, rope_parameters, rotary_pct, "
      "relative_attention_num_buckets, alibi, max_position_embeddings or a known model_type";
  if (t.empty()) throw InvalidParameter("config", "{…}", expected, Reason{"model_no_position_fields", {}, "object"});
  throw InvalidParameter("config", "model_type \"" + t + "\"", expected,
                         Reason{"model_no_position_fields", {{"type", t}}, "model_type"});
}

// [SECTION] ALiBi, T5, learned

namespace {

void read_alibi(Reader& r) {
  ModelReading& out = r.out();
  std::string heads_name, hidden_name;
  const json* heads = r.field({"num_attention_heads", "n_head", "n_heads", "num_heads"}, &heads_name);
  if (!heads) missing("num_attention_heads", "is needed: ALiBi gives each head its own slope", Reason{"model_alibi_heads_needed", {}, {}});
  const long long h = integer(*heads, heads_name, 1, kMaxHeads);
  if (h > 256)
    throw InvalidParameter(heads_name, num(static_cast<double>(h)), "must be 1..256 for poslab's ALiBi lesson",
                           Reason{"model_alibi_heads_max", {}, {}});
  if (const json* hidden = r.field({"hidden_size", "n_embed", "n_embd", "d_model"}, &hidden_name)) {
    const long long w = integer(*hidden, hidden_name, 1, kMaxWidth);
    if (w % h == 0) out.head_dim = static_cast<int>(w / h);
  }
  out.trained_context = max_positions(r);
  out.view = "alibi";
  out.params["heads"] = h;
  param_from(out, "heads", heads_name);
  if (const json* attn = Reader::present(r.config(), "attn_config"))
    if (const json* bias_max = Reader::present(*attn, "alibi_bias_max")) {
      const double m = number(*bias_max, "attn_config.alibi_bias_max", 0, 1e6, true);
      if (m != 8) r.warn("model.warning.alibi_bias_max", {{"m", num(m)}});
    }
  if ((h & (h - 1)) != 0) r.warn("model.warning.alibi_heads_not_power_of_two", {{"h", num(static_cast<double>(h))}});
}

void read_t5(Reader& r) {
  ModelReading& out = r.out();
  std::string name;
  const json* buckets = r.field({"relative_attention_num_buckets"}, &name);
  const json* distance = r.field({"relative_attention_max_distance"});
  const long long b = buckets ? integer(*buckets, "relative_attention_num_buckets", 4, 1 << 20) : 32;
  if (!buckets) r.note_default("relative_attention_num_buckets");
  if (b % 2 != 0)
    throw InvalidParameter("relative_attention_num_buckets", num(static_cast<double>(b)),
                           "must be even (the encoder splits them between the two directions)",
                           Reason{"model_buckets_even", {}, {}});
  const long long md = distance ? integer(*distance, "relative_attention_max_distance", 1, kMaxContext) : 128;
  if (!distance) r.note_default("relative_attention_max_distance");
  if (md <= b / 4)
    throw InvalidParameter("relative_attention_max_distance", num(static_cast<double>(md)),
                           "must be > relative_attention_num_buckets/4 = " + num(static_cast<double>(b / 4)),
                           Reason{"model_bucket_distance", {{"n", num(static_cast<double>(b / 4))}}, {}});
  if (const json* kv = r.field({"d_kv"})) out.head_dim = static_cast<int>(integer(*kv, "d_kv", 1, 8192));
  if (const json* heads = r.field({"num_heads", "num_attention_heads"}, &name)) integer(*heads, name, 1, kMaxHeads);
  out.view = "t5";
  out.params["buckets"] = b;
  out.params["bucket_max_distance"] = md;
  param_from(out, "buckets", "relative_attention_num_buckets");
  param_from(out, "bucket_max_distance", "relative_attention_max_distance");
  out.params["bidirectional"] = true;
  r.warn("model.warning.t5_encoder_decoder", {{"half", num(static_cast<double>(b / 2))}, {"b", num(static_cast<double>(b))}});
}

void read_learned(Reader& r) {
  ModelReading& out = r.out();
  std::string name;
  const std::optional<long long> max_pos = max_positions(r, &name);
  if (!max_pos)
    missing("max_position_embeddings", "is needed: a learned table has one row per position",
            Reason{"model_learned_needs_max_pos", {}, {}});
  out.trained_context = max_pos;
  out.view = "learned";
  if (*max_pos <= 1048576) out.params["max_length"] = *max_pos;
  param_from(out, "max_length", name);
  std::string hidden_name, heads_name;
  const json* hidden = r.field({"hidden_size", "n_embd", "n_embed", "d_model"}, &hidden_name);
  const json* heads = r.field({"num_attention_heads", "n_head", "n_heads", "num_heads"}, &heads_name);
  if (hidden && heads) {
    const long long w = integer(*hidden, hidden_name, 1, kMaxWidth), h = integer(*heads, heads_name, 1, kMaxHeads);
    if (w % h == 0) out.head_dim = static_cast<int>(w / h);
  }
}

}  // namespace

}  // namespace model_detail

// [SECTION] Entry points

namespace {

using model_detail::num;

/// The value of `key` in `params` as the message shows it.
std::string param_text(const nlohmann::ordered_json& v) {
  if (v.is_number()) return num(v.get<double>());
  if (v.is_string()) return v.get<std::string>();
  std::string s = v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

/// The last check: the params must be values poslab takes and agree with
/// each other. A value out of poslab's range is refused under the config
/// field it came from (`rope_scaling.factor = 2000: must be in 1..1024 …`),
/// never under poslab's own key.
void check_params(const ModelReading& out) {
  auto field_of = [&](const std::string& key) {
    for (const auto& entry : out.param_fields)
      if (entry.first == key) return entry.second;
    return key;
  };
  for (auto it = out.params.begin(); it != out.params.end(); ++it) {
    const core::ParamSpec* spec = core::find_param(it.key());
    if (!spec || !it.value().is_number()) continue;
    const double x = it.value().get<double>();
    const bool low = spec->min_exclusive ? !(x > spec->min) : !(x >= spec->min);
    const bool high = spec->max_exclusive ? !(x < spec->max) : !(x <= spec->max);
    if (!low && !high) continue;
    const std::string key(spec->key);
    throw InvalidParameter(field_of(key), param_text(it.value()),
                           "must give poslab's " + key + " a value in " + num(spec->min) + ".." + num(spec->max),
                           Reason{"model_poslab_range", {{"key", key}, {"min", num(spec->min)}, {"max", num(spec->max)}}, {}});
  }
  core::Params check;
  try {
    for (const std::string& a : model_assignments(out)) check.set_assignment(a);
    core::check_param_relations(check, {});
  } catch (const InvalidParameter& e) {
    const std::string field = field_of(e.key());
    if (field == e.key()) throw;
    // under the config's name, with poslab's sentence (a "spec" reason is
    // rebuilt from the key's spec, which the config's name does not have)
    throw InvalidParameter(field, e.value(), e.allowed(), e.reason().id == "spec" ? Reason{} : e.reason());
  }
}

/// The fields poslab reads from the part of a config it reads (here and in
/// model_rope.cpp, model_layers.cpp), for misspelt_fields. Keys read only
/// inside rope_scaling / rope_parameters are not here: those objects refuse
/// a key they do not know, with the nearest name.
constexpr std::string_view kReadFields[] = {
    "alibi", "alibi_bias_max", "architectures", "attention_chunk_size", "attn_config", "attn_layer_offset",
    "attn_layer_period", "attn_scale", "attn_temperature_tuning", "d_kv", "d_model", "floor_scale",
    "full_attention_interval", "global_attn_every_n_layers", "global_head_dim", "global_rope_theta", "head_dim",
    "hidden_size", "kv_channels", "language_config", "layer_types", "llama_4_scaling",
    "llm_config", "local_attention", "local_rope_theta", "max_position_embeddings", "max_seq_len",
    "max_sequence_length", "max_window_layers", "model_max_length", "model_type", "n_embd", "n_embed", "n_head",
    "n_heads", "n_layer", "n_layers", "n_positions", "no_rope_layer_interval", "no_rope_layers",
    "num_attention_heads", "num_heads", "num_hidden_layers", "num_layers", "original_max_position_embeddings",
    "partial_rotary_factor", "position_embedding_type", "qk_nope_head_dim", "qk_rope_head_dim",
    "relative_attention_max_distance", "relative_attention_num_buckets", "rope_interleave", "rope_local_base_freq",
    "rope_parameters", "rope_ratio", "rope_scaling", "rope_theta", "rotary_dim", "rotary_emb_base", "rotary_pct",
    "seq_length", "sliding_window", "sliding_window_pattern", "text_config", "use_dynamic_ntk", "use_logn_attn",
    "use_sliding_window"};

/// Fields transformers reads that poslab does not, one or two letters from
/// one it does: not misspellings.
constexpr std::string_view kOtherFields[] = {"v_head_dim"};  // DeepSeek MLA's value head, beside qk_rope_head_dim

/// A key of the part read that is no field poslab reads, one or two letters
/// from one that is missing (rope_thetta beside no rope_theta): transformers
/// would store it and read the default, silently — a hand-edited config then
/// gives the wrong frequencies with exit 0. Warned, never refused (a model's
/// own code may read a key poslab does not know).
void misspelt_fields(model_detail::Reader& r) {
  const json& c = r.config();
  if (!c.is_object()) return;
  for (const auto& [key, value] : c.items()) {
    if (std::find(std::begin(kReadFields), std::end(kReadFields), key) != std::end(kReadFields) ||
        std::find(std::begin(kOtherFields), std::end(kOtherFields), key) != std::end(kOtherFields))
      continue;
    const std::string near = nearest_name(key, kReadFields);
    if (near.empty() || c.contains(near)) continue;
    ModelReading& out = r.out();
    const bool defaulted = std::find(out.defaulted.begin(), out.defaulted.end(), near) != out.defaulted.end();
    r.warn(defaulted ? "model.warning.misspelt_field_default" : "model.warning.misspelt_field",
           {{"key", key}, {"name", near}, {"type", r.type()}}, "misspelt_field");
  }
}

}  // namespace

ModelReading read_model_config(const json& config) {
  using namespace model_detail;
  if (!config.is_object())
    throw InvalidParameter("config", std::string("a JSON ") + config.type_name(),
                           "must be a JSON object (a Hugging Face config.json)",
                           Reason{"model_config_object", {{"type", config.type_name()}}, "json_type"});
  ModelReading out;
  std::string type;
  const json& text = text_part(config, out.config_part, type);
  Reader r(text, out, type);
  if (const json* t = Reader::present(config, "model_type"); t && t->is_string()) out.model = t->get<std::string>();
  if (out.model.empty()) out.model = r.type();
  if (out.model.empty()) {
    const json* arch = Reader::present(config, "architectures");
    out.model = arch && arch->is_array() && !arch->empty() && (*arch)[0].is_string() ? (*arch)[0].get<std::string>() : "unknown";
  }
  try {
    out.family = detect_family(r);
    if (out.family == "rope") read_rope_layers(r);
    else if (out.family == "alibi") {
      read_alibi(r);
      read_uniform_layers(r, "alibi");
    } else if (out.family == "t5") {
      read_t5(r);
      read_uniform_layers(r, "t5");
    } else if (out.family == "learned") {
      read_learned(r);
      read_uniform_layers(r, "learned");
    } else if (out.family == "none") {
      out.trained_context = max_positions(r);
      read_hybrid_layers(r);
    } else {
      out.trained_context = max_positions(r);
      out.num_layers = layer_count(r);
      r.warn("model.warning.unknown_model_type", {{"type", r.type()}});
    }
    // The RoPE lesson's trained context L (the ruler its figures mark) is
    // the model's, not poslab's default 4,096.
    if (out.view == "rope" && out.trained_context && !out.params.contains("original_context") &&
        *out.trained_context <= 1'000'000'000) {
      out.params["original_context"] = *out.trained_context;
      std::string name;
      max_positions(r, &name);
      param_from(out, "original_context", r.type() == "qwen" && Reader::present(text, "seq_length") ? "seq_length" : name);
    }
    // The scaling lesson's L′ is factor × L unless told: where the model runs
    // at another context (Llama 3.1: factor 8, 8,192 → 131,072), it is told,
    // so that its figures mark the context this report gives.
    if (out.view == "scaling" && out.target_context && out.params.contains("factor") &&
        out.params.contains("original_context") && *out.target_context <= 1'000'000'000) {
      const double product = out.params["factor"].get<double>() * out.params["original_context"].get<double>();
      if (static_cast<double>(*out.target_context) != product && *out.target_context >= out.params["original_context"].get<double>())
        out.params["target_context"] = *out.target_context;
    }
    misspelt_fields(r);
    check_params(out);
  } catch (const InvalidParameter& e) {
    // A field of the nested text config is named with its part: text_config.rope_scaling.factor.
    if (out.config_part.empty() || e.key() == "config") throw;
    throw InvalidParameter(out.config_part + "." + e.key(), e.value(), e.allowed(), e.reason());
  }
  return out;
}

ModelReading read_model_config_text(std::string_view text) {
  // Read as every JSON file is (app/common/json_input.hpp): bounded depth, a
  // number beyond a double refused under its field, the place of broken JSON.
  // A key given twice is read as transformers (Python's json) reads it, the
  // last one winning, and said.
  json parsed;
  std::vector<JsonDuplicate> duplicates;
  try {
    parsed = parse_json_input(text, {.duplicates = JsonInputOptions::Duplicates::keep_last, .duplicates_found = &duplicates});
  } catch (const JsonInputError& e) {
    if (e.problem() == JsonProblem::number_out_of_range) {
      // The literal, shortened as any shown value is (shown()).
      std::string literal = e.detail();
      if (literal.size() > 60) literal = literal.substr(0, 57) + "...";
      throw InvalidParameter(e.path().empty() ? "config" : json_path_text(e.path()), literal,
                             "must be a number a double can hold (|x| ≤ 1.8e308); JSON allows any number of digits, but "
                             "no model reads this one",
                             Reason{"model_number_overflow", {}, {}});
    }
    throw InvalidParameter("config", "not JSON", e.what(), Reason{e.reason().id, e.reason().args, "not_json"});
  }
  ModelReading reading = read_model_config(parsed);
  for (const JsonDuplicate& d : duplicates) {
    JsonPath field = d.object;
    field.emplace_back(d.key);
    ModelWarning w{"duplicate_key", {}, "model.warning.duplicate_key",
                   {{"key", json_path_text(field)}, {"first_line", std::to_string(d.first.line)},
                    {"line", std::to_string(d.second.line)}}};
    w.text = english_translator().format(w.key, w.args);
    reading.warnings.push_back(std::move(w));
  }
  return reading;
}

std::vector<std::string> model_assignments(const ModelReading& reading) {
  std::vector<std::string> out;
  for (auto it = reading.params.begin(); it != reading.params.end(); ++it) {
    const auto& v = it.value();
    std::string text;
    if (v.is_string()) text = v.get<std::string>();
    else if (v.is_boolean()) text = v.get<bool>() ? "true" : "false";
    else if (v.is_number_integer()) text = std::to_string(v.get<long long>());
    else if (v.is_array())
      for (const auto& x : v) text += (text.empty() ? "" : ",") + model_detail::num(x.get<double>());
    else text = model_detail::num(v.get<double>());
    out.push_back(it.key() + "=" + text);
  }
  return out;
}

bool LayerGroup::same_as(const LayerGroup& o) const {
  return kind == o.kind && layer_type == o.layer_type && base == o.base && rotary_dim == o.rotary_dim &&
         head_dim == o.head_dim && layout == o.layout && method == o.method && factor == o.factor &&
         attention == o.attention && window == o.window && mrope_section == o.mrope_section &&
         mrope_interleaved == o.mrope_interleaved;
}

std::string layer_list_text(const std::vector<int>& indices) {
  // Only a true arithmetic progression is shortened: "3, 7, …, 47" (a step,
  // six items or more), "0–33" (a run of three or more); everything else is
  // listed ("5, 11, 17, 23, 29"; "3, 7, 11, 15, 19, 24, 27, 31, …, 47": the
  // irregular part written out, the regular tail shortened). A reader who
  // sees "…" may fill it in with the step of the two items before it.
  const std::size_t n = indices.size();
  std::vector<std::string> pieces;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    if (i + 1 < n) {
      const long long step = static_cast<long long>(indices[i + 1]) - indices[i];
      j = i + 1;
      while (step > 0 && j + 1 < n && static_cast<long long>(indices[j + 1]) - indices[j] == step) ++j;
      const std::size_t length = j - i + 1;
      if (step == 1 && length >= 3) {
        pieces.push_back(std::to_string(indices[i]) + "–" + std::to_string(indices[j]));
        i = j + 1;
        continue;
      }
      if (step > 1 && length >= 6) {
        pieces.push_back(std::to_string(indices[i]) + ", " + std::to_string(indices[i + 1]) + ", …, " +
                         std::to_string(indices[j]));
        i = j + 1;
        continue;
      }
    }
    pieces.push_back(std::to_string(indices[i]));  // not part of a long progression: listed
    ++i;
  }
  std::string out;
  for (const std::string& p : pieces) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace poslab::app
