// [SECTION] Field access with transformers' defaults
// [SECTION] Family detection
// [SECTION] RoPE: dims, base, scaling, attention factor, warnings
// [SECTION] ALiBi, T5, learned
// [SECTION] Entry points

#include "app/model/model_config.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>

#include "poslab/core/errors.hpp"
#include "poslab/core/scaling.hpp"

namespace poslab::app {

using nlohmann::json;
using core::InvalidParameter;

bool ModelReading::has_warning(std::string_view id) const {
  return std::any_of(warnings.begin(), warnings.end(), [&](const ModelWarning& w) { return w.id == id; });
}

namespace {

// [SECTION] Field access with transformers' defaults

std::string shown(const json& value) {
  std::string s = value.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

/// A number as a person writes it: 131072, 0.25, 1e+06.
std::string num(double x) {
  for (int digits = 10; digits <= 17; ++digits) {
    std::ostringstream out;
    out.precision(digits);
    out << x;
    if (std::stod(out.str()) == x || digits == 17) return out.str();
  }
  return {};
}

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
      {"deepseek_v3", {{"hidden_size", 7168}, {"num_attention_heads", 128}, {"qk_rope_head_dim", 64}, {"max_position_embeddings", 4096}, {"rope_theta", 10000.0}}},
      {"gpt_oss", {{"hidden_size", 2880}, {"num_attention_heads", 64}, {"head_dim", 64}, {"max_position_embeddings", 131072}, {"rope_theta", 150000.0}}},
      {"t5", {{"d_model", 512}, {"d_kv", 64}, {"num_heads", 8}, {"relative_attention_num_buckets", 32}, {"relative_attention_max_distance", 128}}},
      {"bloom", {{"hidden_size", 64}, {"n_head", 8}}},
      {"mpt", {{"d_model", 2048}, {"n_heads", 16}, {"max_seq_len", 2048}}},
      {"gpt2", {{"n_embd", 768}, {"n_head", 12}, {"n_positions", 1024}}},
      {"bert", {{"hidden_size", 768}, {"num_attention_heads", 12}, {"max_position_embeddings", 512}}},
      {"opt", {{"hidden_size", 768}, {"num_attention_heads", 12}, {"max_position_embeddings", 2048}}},
  };
  return defaults;
}

/// The config being read, the reading being filled, and the lookups that
/// record which fields came from defaults.
class Reader {
 public:
  Reader(const json& config, ModelReading& out) : c_(config), out_(out) {
    if (const json* t = present(c_, "model_type"); t && t->is_string()) type_ = t->get<std::string>();
  }

  const std::string& type() const { return type_; }
  const json& config() const { return c_; }
  ModelReading& out() { return out_; }

  static const json* present(const json& object, std::string_view key) {
    if (!object.is_object()) return nullptr;
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) return nullptr;
    return &*it;
  }

  /// The first of `names` the config holds; else the model type's default
  /// (recorded in `defaulted`); else nothing. `name` is set to the field used.
  const json* field(std::initializer_list<const char*> names, std::string* name = nullptr) {
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

  void note_default(const std::string& name) {
    if (std::find(out_.defaulted.begin(), out_.defaulted.end(), name) == out_.defaulted.end())
      out_.defaulted.push_back(name);
  }

  void warn(std::string id, std::string text) { out_.warnings.push_back({std::move(id), std::move(text)}); }

 private:
  const json& c_;
  ModelReading& out_;
  std::string type_;
};

/// A finite number in [min, max] (exclusive min when `above`), else exit 2 naming `path`.
double number(const json& v, const std::string& path, double min, double max, bool above = false) {
  if (!v.is_number())
    throw InvalidParameter(path, shown(v), "must be a number");
  const double x = v.get<double>();
  const bool low = above ? !(x > min) : !(x >= min);
  if (!std::isfinite(x) || low || x > max)
    throw InvalidParameter(path, shown(v),
                           "must be a number " + std::string(above ? "> " : "in ") + num(min) +
                               (above ? " and ≤ " : "..") + num(max));
  return x;
}

long long integer(const json& v, const std::string& path, long long min, long long max) {
  const double x = number(v, path, static_cast<double>(min), static_cast<double>(max));
  if (x != std::floor(x)) throw InvalidParameter(path, shown(v), "must be a whole number in " + num(min) + ".." + num(max));
  return static_cast<long long>(x);
}

/// "rope_scaling" + "factor" → "rope_scaling.factor": the path an error names.
std::string at(const std::string& where, const char* key) { return where + "." + key; }

constexpr long long kMaxContext = 1LL << 30;  // 10^9 tokens: past any published model
constexpr long long kMaxHeads = 65536;
constexpr long long kMaxWidth = 1LL << 22;

// [SECTION] Family detection

bool in(const std::string& s, std::initializer_list<const char*> list) {
  return std::any_of(list.begin(), list.end(), [&](const char* x) { return s == x; });
}

/// The JSON scaling object: v5 `rope_parameters` or v4 `rope_scaling` (may be null).
const json* scaling_object(const json& c, std::string& where) {
  if (const json* p = Reader::present(c, "rope_parameters")) {
    where = "rope_parameters";
    return p;
  }
  if (const json* s = Reader::present(c, "rope_scaling")) {
    where = "rope_scaling";
    return s;
  }
  where = "rope_scaling";
  return nullptr;
}

std::string detect_family(Reader& r) {
  const json& c = r.config();
  const std::string& t = r.type();
  if (in(t, {"t5", "mt5", "umt5", "longt5", "switch_transformers"}) || Reader::present(c, "relative_attention_num_buckets"))
    return "t5";
  if (t == "bloom") return "alibi";
  if (t == "mpt") {
    const json* attn = Reader::present(c, "attn_config");
    const json* alibi = attn ? Reader::present(*attn, "alibi") : nullptr;
    if (alibi && !alibi->is_boolean()) throw InvalidParameter("attn_config.alibi", shown(*alibi), "must be true or false");
    return !alibi || alibi->get<bool>() ? "alibi" : "learned";
  }
  if (const json* alibi = Reader::present(c, "alibi")) {
    if (!alibi->is_boolean()) throw InvalidParameter("alibi", shown(*alibi), "must be true or false");
    if (alibi->get<bool>()) return "alibi";
  }
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
             "stablelm", "starcoder2", "olmo", "olmo2", "cohere", "internlm2", "granite"}))
    return "rope";
  if (in(t, {"gpt2", "gpt_neo", "opt", "bert", "roberta", "distilbert", "bart", "gpt_bigcode", "xlm-roberta",
             "electra", "whisper"}))
    return "learned";
  for (const char* key : {"max_position_embeddings", "n_positions", "seq_length", "max_seq_len"})
    if (Reader::present(c, key)) return "unknown";
  throw InvalidParameter("config", t.empty() ? "{…}" : "model_type \"" + t + "\"",
                         "has no position fields: expected rope_theta, rope_scaling, rope_parameters, "
                         "rotary_pct, relative_attention_num_buckets, alibi, max_position_embeddings or a known model_type");
}

/// The largest position the config declares (max_position_embeddings and its legacy names).
std::optional<long long> max_positions(Reader& r, std::string* name = nullptr) {
  std::string n;
  const json* v = r.field({"max_position_embeddings", "n_positions", "seq_length", "max_seq_len", "max_sequence_length"}, &n);
  if (!v) return std::nullopt;
  if (name) *name = n;
  return integer(*v, n, 1, kMaxContext);
}

// [SECTION] RoPE: dims, base, scaling, attention factor, warnings

struct Dims {
  int head_dim = 0;
  int rotary_dim = 0;
  std::string rotary_field;  ///< the field that made rotary_dim < head_dim ("" when all rotate)
};

Dims rope_dims(Reader& r) {
  const json& c = r.config();
  std::string hidden_name, heads_name;
  const json* hidden = r.field({"hidden_size", "n_embd", "n_embed", "d_model"}, &hidden_name);
  const json* heads = r.field({"num_attention_heads", "n_head", "n_heads", "num_heads"}, &heads_name);
  std::optional<long long> hidden_v, heads_v;
  if (hidden) hidden_v = integer(*hidden, hidden_name, 1, kMaxWidth);
  if (heads) heads_v = integer(*heads, heads_name, 1, kMaxHeads);
  const std::optional<long long> split =
      hidden_v && heads_v ? std::optional<long long>(*hidden_v / *heads_v) : std::nullopt;

  Dims d;
  long long head_dim = 0;
  if (const json* mla = Reader::present(c, "qk_rope_head_dim")) {
    head_dim = integer(*mla, "qk_rope_head_dim", 2, 8192);
    long long nope = 0;
    if (const json* n = Reader::present(c, "qk_nope_head_dim")) nope = integer(*n, "qk_nope_head_dim", 0, 8192);
    r.warn("mla_rope_head_dim",
           "qk_rope_head_dim = " + num(static_cast<double>(head_dim)) +
               ": DeepSeek's multi-head latent attention rotates only this part of each query/key head" +
               (nope ? " (the other qk_nope_head_dim = " + num(static_cast<double>(nope)) + " dimensions carry no position)" : "") +
               "; transformers sets head_dim = qk_rope_head_dim for RoPE, so poslab shows d = " +
               num(static_cast<double>(head_dim)) + ", not hidden_size/num_attention_heads.");
  } else if (const json* explicit_dim = r.field({"head_dim"})) {
    head_dim = integer(*explicit_dim, "head_dim", 1, 8192);
    if (split && *split != head_dim)
      r.warn("head_dim_explicit",
             "head_dim = " + num(static_cast<double>(head_dim)) + " while " + hidden_name + "/" + heads_name + " = " +
                 num(static_cast<double>(*hidden_v)) + "/" + num(static_cast<double>(*heads_v)) + " = " +
                 num(static_cast<double>(*split)) +
                 ": transformers uses the explicit head_dim (the attention projects to heads·head_dim, not to "
                 "hidden_size), so RoPE rotates " + num(static_cast<double>(head_dim)) +
                 " dimensions per head. Code that computes hidden_size // num_attention_heads gets the wrong frequencies.");
  } else {
    if (!hidden) throw InvalidParameter("hidden_size", "missing", "is needed (with num_attention_heads) to find the head dimension, or give head_dim");
    if (!heads) throw InvalidParameter("num_attention_heads", "missing", "is needed (with hidden_size) to find the head dimension, or give head_dim");
    if (*hidden_v % *heads_v != 0)
      throw InvalidParameter(hidden_name, num(static_cast<double>(*hidden_v)),
                             "must be a multiple of " + heads_name + " = " + num(static_cast<double>(*heads_v)) +
                                 " (or give head_dim)");
    head_dim = *split;
  }
  d.head_dim = static_cast<int>(head_dim);

  // Partial rotary, spelled three ways.
  struct Spelling {
    const char* name;
    double fraction;
  };
  std::vector<Spelling> spellings;
  const json* scaling = Reader::present(c, "rope_parameters");
  if (const json* p = scaling ? Reader::present(*scaling, "partial_rotary_factor") : nullptr)
    spellings.push_back({"rope_parameters.partial_rotary_factor", number(*p, "rope_parameters.partial_rotary_factor", 0, 1, true)});
  if (const json* p = Reader::present(c, "partial_rotary_factor"))
    spellings.push_back({"partial_rotary_factor", number(*p, "partial_rotary_factor", 0, 1, true)});
  if (const json* p = Reader::present(c, "rotary_pct"))
    spellings.push_back({"rotary_pct", number(*p, "rotary_pct", 0, 1, true)});
  if (const json* p = Reader::present(c, "rotary_dim")) {
    const long long rd = integer(*p, "rotary_dim", 2, head_dim);
    spellings.push_back({"rotary_dim", static_cast<double>(rd) / static_cast<double>(head_dim)});
  }
  if (spellings.empty()) {
    std::string name;
    if (const json* p = r.field({"partial_rotary_factor", "rotary_pct"}, &name))
      spellings.push_back({name == "rotary_pct" ? "rotary_pct" : "partial_rotary_factor", number(*p, name, 0, 1, true)});
  }
  d.rotary_dim = d.head_dim;
  if (!spellings.empty()) {
    for (const Spelling& s : spellings)
      if (std::abs(s.fraction - spellings.front().fraction) > 1e-9)
        throw InvalidParameter(s.name, num(s.fraction) + " of the head",
                               std::string("contradicts ") + spellings.front().name + " = " +
                                   num(spellings.front().fraction) + " of the head; give one of them");
    const int rotary = static_cast<int>(static_cast<double>(head_dim) * spellings.front().fraction + 1e-9);
    if (rotary < 2 || rotary % 2 != 0)
      throw InvalidParameter(spellings.front().name, num(spellings.front().fraction),
                             "must leave an even number ≥ 2 of rotating dimensions (head_dim " + num(head_dim) +
                                 " × it = " + num(static_cast<double>(rotary)) + ")");
    d.rotary_dim = rotary;
    if (rotary != d.head_dim) {
      d.rotary_field = spellings.front().name;
      r.warn("partial_rotary",
             std::string(spellings.front().name) + " = " + num(spellings.front().fraction * (d.rotary_field == "rotary_dim" ? head_dim : 1)) +
                 ": only " + num(rotary) + " of the " + num(head_dim) +
                 " head dimensions rotate; the rest carry no position. The same idea is spelled three ways — "
                 "partial_rotary_factor (phi, StableLM, newer models), rotary_pct (GPT-NeoX/Pythia), rotary_dim "
                 "(GPT-J, the original phi code) — and transformers turns each into int(head_dim × fraction). "
                 "poslab shows the rotating part: d = " + num(rotary) + ", with frequencies base^(−2i/" + num(rotary) +
                 ") over it, not over the whole head.");
    }
  }
  if (d.rotary_dim % 2 != 0 || d.rotary_dim > 8192)
    throw InvalidParameter("head_dim", num(d.rotary_dim), "must be an even number of rotating dimensions in 2..8192");
  return d;
}

/// rope_type from `type` / `rope_type`, with the warnings and the contradiction check.
std::string rope_type(Reader& r, const json* s, const std::string& where) {
  if (!s) return "default";
  const json* rt = Reader::present(*s, "rope_type");
  const json* t = Reader::present(*s, "type");
  for (const json* v : {rt, t})
    if (v && !v->is_string()) throw InvalidParameter(where + (v == rt ? ".rope_type" : ".type"), shown(*v), "must be a string");
  if (rt && t && rt->get<std::string>() != t->get<std::string>())
    throw InvalidParameter(at(where, "type"), shown(*t),
                           "contradicts " + where + ".rope_type = " + shown(*rt) +
                               ": transformers' config classes copy `type` over `rope_type` while the rope code reads "
                               "`rope_type` first; keep only rope_type");
  if (t && !rt)
    r.warn("legacy_type",
           where + ".type = " + shown(*t) + ": the old name of rope_type. transformers (since v4.42/4.43, mid-2024) copies it to "
           "rope_type and still accepts it, but tools that read only rope_type see no scaling at all. Write \"rope_type\": " +
           shown(*t) + ".");
  if (!rt && !t) {
    if (s->contains("factor"))
      throw InvalidParameter(at(where, "rope_type"), "missing", "is needed with a factor: linear, dynamic, yarn, longrope or llama3");
    return "default";
  }
  return (rt ? rt : t)->get<std::string>();
}

double scaling_factor(const json* s, const std::string& where, const std::string& type) {
  const json* f = s ? Reader::present(*s, "factor") : nullptr;
  if (!f) throw InvalidParameter(at(where, "factor"), "missing", "is required for rope_type " + type + " (a number ≥ 1)");
  if (f->is_number() && f->get<double>() < 1)
    throw InvalidParameter(at(where, "factor"), shown(*f),
                           "must be ≥ 1 (s = L'/L: how many times the trained context the model should read)");
  return number(*f, at(where, "factor"), 1, 1e6);
}

double optional_number(const json* s, const char* key, const std::string& where, double fallback, double min, double max,
                       bool above = false) {
  const json* v = s ? Reader::present(*s, key) : nullptr;
  return v ? number(*v, where + "." + key, min, max, above) : fallback;
}

/// The context the model is meant to read: the config's max_position_embeddings
/// when it is larger than the trained context L (the length it was extended
/// to), else factor·L.
long long target_context(Reader& r, double factor, long long trained) {
  const std::optional<long long> max_pos = max_positions(r);
  return max_pos && *max_pos > trained ? *max_pos : std::llround(factor * static_cast<double>(trained));
}

void context_warnings(Reader& r, double factor, long long trained, const std::string& original_field) {
  std::string max_name;
  const std::optional<long long> max_pos = max_positions(r, &max_name);
  if (!max_pos) return;
  const long long target = std::llround(factor * static_cast<double>(trained));
  const std::string L = num(static_cast<double>(trained)), M = num(static_cast<double>(*max_pos));
  if (*max_pos == target && factor > 1)
    r.warn("max_positions_scaled",
           max_name + " = " + M + " is already factor × " + original_field + " = " + num(factor) + " × " + L +
               ": the config states the extended context, and transformers takes the trained context L = " + L +
               " from " + original_field + ". Do not multiply " + max_name + " by the factor again.");
  else if (*max_pos == trained && factor > 1)
    r.warn("max_positions_unscaled",
           max_name + " = " + M + " equals the trained context: the config was not updated for the extension. "
           "transformers scales the frequencies by factor = " + num(factor) + " anyway, but generation limits and "
           "some servers read " + max_name + " and stop at " + M + " tokens; the model is meant to read " +
               num(static_cast<double>(target)) + ".");
  else if (factor > 1)
    r.warn("max_positions_mismatch",
           max_name + " = " + M + " is neither the trained context " + L + " nor factor × it = " + num(factor) + " × " +
               L + " = " + num(static_cast<double>(target)) +
               ". transformers never reads " + max_name + " for these frequencies: it divides the low ones by factor = " +
               num(factor) + ", and the model was then trained further to run at " + M +
               " tokens (Llama 3.1 and 3.2 do this; their long-context scaling keeps high frequencies as they were, so "
               "factor × L is not a hard limit). poslab scales by the factor and reports target_context = " + M +
               "; do not recompute the factor as " + M + "/" + L + ".");
}

void read_rope(Reader& r) {
  ModelReading& out = r.out();
  const json& c = r.config();
  const Dims dims = rope_dims(r);
  out.head_dim = dims.head_dim;
  out.rotary_dim = dims.rotary_dim;

  std::string where;
  const json* s = scaling_object(c, where);
  if (s && !s->is_object()) throw InvalidParameter(where, shown(*s), "must be an object or null");
  std::string type = rope_type(r, s, where);

  // base θ
  double base = 10000;
  if (const json* t = s ? Reader::present(*s, "rope_theta") : nullptr) {
    base = number(*t, at(where, "rope_theta"), 1, 1e12, true);
  } else {
    std::string name;
    const json* t2 = r.field({"rope_theta", "rotary_emb_base"}, &name);
    if (t2) {
      base = number(*t2, name, 1, 1e12, true);
    } else {
      r.note_default("rope_theta");  // every RoPE config class defaults to 10000
    }
  }

  std::string max_name;
  const std::optional<long long> max_pos = max_positions(r, &max_name);

  nlohmann::ordered_json& p = out.params;
  p["method"] = "none";
  p["d"] = dims.rotary_dim;
  p["base"] = base;
  out.view = "rope";
  out.trained_context = max_pos;
  out.attention_factor = 1.0;

  if (type == "default") return;
  if (type == "su") {
    r.warn("longrope_su",
           where + " type \"su\": the first name of LongRoPE (Phi-3's configs before mid-2024). transformers' Phi3Config "
           "renames it to \"longrope\"; other config classes reject it. Write \"longrope\".");
    type = "longrope";
  }
  if (!in(type, {"linear", "dynamic", "yarn", "longrope", "llama3"})) {
    r.warn("unknown_rope_type",
           where + " rope_type \"" + type + "\" is not one transformers knows (default, linear, dynamic, yarn, longrope, "
           "llama3): its config validation logs a warning and building the model fails with a KeyError. poslab shows "
           "the unscaled frequencies; check the spelling.");
    return;
  }

  // longrope's factor is optional: its attention factor comes from the context ratio.
  const double factor =
      type == "longrope" && !Reader::present(*s, "factor") ? 1.0 : scaling_factor(s, where, type);
  out.view = "scaling";
  p["method"] = type;
  p["factor"] = factor;
  auto original_of = [&](const json* v, const std::string& name) { return integer(*v, name, 1, kMaxContext); };

  if (type == "linear" || type == "dynamic") {
    if (!max_pos) throw InvalidParameter("max_position_embeddings", "missing", "is needed: " + type + " scaling reads the trained context from it");
    out.trained_context = *max_pos;
    if (const json* o = Reader::present(*s, "original_max_position_embeddings")) out.trained_context = original_of(o, at(where, "original_max_position_embeddings"));
    out.target_context = std::llround(factor * static_cast<double>(*out.trained_context));
    p["original_context"] = *out.trained_context;
    if (type == "dynamic") {
      p["seq_len"] = *out.target_context;
      r.warn("dynamic",
             "rope_type dynamic: the frequencies are not fixed. transformers keeps the trained ones up to " +
                 num(static_cast<double>(*out.trained_context)) +
                 " tokens and, once a sequence is longer, recomputes base' = base·((s·seq_len/L) − (s − 1))^(d/(d−2)) "
                 "for that length (so one prompt can see different frequencies in a batch or after the cache grows). "
                 "poslab shows it at seq_len = factor·L = " + num(static_cast<double>(*out.target_context)) +
                 "; move seq_len to watch it change.");
    }
    return;
  }

  if (type == "llama3") {
    const json* o = Reader::present(*s, "original_max_position_embeddings");
    if (!o) throw InvalidParameter(at(where, "original_max_position_embeddings"), "missing", "is required for rope_type llama3 (the trained context)");
    out.trained_context = original_of(o, at(where, "original_max_position_embeddings"));
    const json* lo = Reader::present(*s, "low_freq_factor");
    const json* hi = Reader::present(*s, "high_freq_factor");
    if (!lo) throw InvalidParameter(at(where, "low_freq_factor"), "missing", "is required for rope_type llama3");
    if (!hi) throw InvalidParameter(at(where, "high_freq_factor"), "missing", "is required for rope_type llama3");
    const double low = number(*lo, at(where, "low_freq_factor"), 0, 1e6, true);
    const double high = number(*hi, at(where, "high_freq_factor"), 0, 1e6, true);
    if (!(high > low))
      throw InvalidParameter(at(where, "high_freq_factor"), num(high), "must be > low_freq_factor = " + num(low));
    out.target_context = target_context(r, factor, *out.trained_context);
    p["original_context"] = *out.trained_context;
    p["low_freq_factor"] = low;
    p["high_freq_factor"] = high;
    context_warnings(r, factor, *out.trained_context, at(where, "original_max_position_embeddings"));
    return;
  }

  if (type == "yarn") {
    const json* o = Reader::present(*s, "original_max_position_embeddings");
    if (o) out.trained_context = original_of(o, at(where, "original_max_position_embeddings"));
    if (!out.trained_context) throw InvalidParameter("max_position_embeddings", "missing", "is needed: yarn reads the trained context from it or from original_max_position_embeddings");
    const double beta_fast = optional_number(s, "beta_fast", where, 32, 0, 1e6, true);
    const double beta_slow = optional_number(s, "beta_slow", where, 1, 0, 1e6, true);
    if (!(beta_fast > beta_slow))
      throw InvalidParameter(at(where, "beta_fast"), num(beta_fast), "must be > beta_slow = " + num(beta_slow));
    const double mscale = optional_number(s, "mscale", where, 0, 0, 1e6);
    const double mscale_all_dim = optional_number(s, "mscale_all_dim", where, 0, 0, 1e6);
    out.target_context = target_context(r, factor, *out.trained_context);
    p["original_context"] = *out.trained_context;
    p["beta_fast"] = beta_fast;
    p["beta_slow"] = beta_slow;
    p["mscale"] = mscale;
    p["mscale_all_dim"] = mscale_all_dim;
    for (const char* key : {"beta_fast", "beta_slow"})
      if (!Reader::present(*s, key)) r.note_default(where + "." + key);

    double attention = mscale > 0 && mscale_all_dim > 0
                           ? core::yarn_get_mscale(factor, mscale) / core::yarn_get_mscale(factor, mscale_all_dim)
                           : core::yarn_get_mscale(factor);
    if (mscale > 0 && mscale_all_dim > 0 && mscale == mscale_all_dim)
      r.warn("mscale_cancels",
             "mscale = mscale_all_dim = " + num(mscale) + ": transformers' attention factor is get_mscale(s, mscale)/"
             "get_mscale(s, mscale_all_dim) = 1.0, so cos and sin are not scaled at all. DeepSeek puts YaRN's "
             "temperature elsewhere: its attention multiplies the softmax scale by get_mscale(s, mscale_all_dim)² = " +
                 num(std::pow(core::yarn_get_mscale(factor, mscale_all_dim), 2)) +
                 ". Code that applies 0.1·ln s + 1 to cos/sin as well scales twice.");
    if (const json* a = Reader::present(*s, "attention_factor")) {
      attention = number(*a, at(where, "attention_factor"), 0, 1e6, true);
      r.warn("attention_factor_explicit",
             where + ".attention_factor = " + num(attention) +
                 ": transformers uses it instead of 0.1·ln s + 1 on cos and sin. poslab's rope-scaling table computes "
                 "the factor from factor/mscale, so its meta attention_factor differs from this model's.");
    }
    out.attention_factor = attention;
    if (const json* tr = Reader::present(*s, "truncate")) {
      if (!tr->is_boolean()) throw InvalidParameter(at(where, "truncate"), shown(*tr), "must be true or false");
      if (!tr->get<bool>())
        r.warn("yarn_truncate_false",
               where + ".truncate = false: the correction range is not rounded to whole pairs (floor/ceil), so the "
               "ramp starts and ends between pairs (gpt-oss; transformers reads `truncate` since 4.55). poslab's "
               "`yarn` rounds as the YaRN authors' code does: pairs at the two ends of the ramp differ slightly.");
    }
    if (o && max_pos && factor > 1 &&
        std::abs(static_cast<double>(*max_pos) / static_cast<double>(*out.trained_context) - factor) > 1e-9) {
      const double ratio = static_cast<double>(*max_pos) / static_cast<double>(*out.trained_context);
      r.warn("yarn_factor_vs_ratio",
             max_name + " / original_max_position_embeddings = " + num(static_cast<double>(*max_pos)) + "/" +
                 num(static_cast<double>(*out.trained_context)) + " = " + num(ratio) + " but factor = " + num(factor) +
                 ". transformers releases before the fix for issue #38224 (mid-2025) took that ratio as YaRN's factor whenever "
                 "original_max_position_embeddings was given, so this config silently ran with "
                 "factor " + num(ratio) + (ratio == 1 ? " — no scaling at all" : "") +
                 "; later versions use the explicit factor and warn about the mismatch. The author meant factor = " +
                 num(factor) + ": poslab uses it.");
    }
    context_warnings(r, factor, *out.trained_context, at(where, "original_max_position_embeddings"));
    return;
  }

  // longrope
  std::optional<long long> original;
  std::string original_name;
  if (const json* o = Reader::present(c, "original_max_position_embeddings")) {
    original = original_of(o, "original_max_position_embeddings");
    original_name = "original_max_position_embeddings";
  } else if (const json* o2 = Reader::present(*s, "original_max_position_embeddings")) {
    original = original_of(o2, at(where, "original_max_position_embeddings"));
    original_name = at(where, "original_max_position_embeddings");
  }
  double effective = factor;
  if (original) {
    if (!max_pos) throw InvalidParameter("max_position_embeddings", "missing", "is needed with original_max_position_embeddings for longrope");
    effective = static_cast<double>(*max_pos) / static_cast<double>(*original);
    out.trained_context = original;
    out.target_context = max_pos;
  } else {
    if (!max_pos) throw InvalidParameter("max_position_embeddings", "missing", "is needed: longrope reads the trained context from it");
    out.trained_context = max_pos;
    out.target_context = std::llround(factor * static_cast<double>(*max_pos));
  }
  const std::size_t pairs = static_cast<std::size_t>(dims.rotary_dim / 2);
  for (const char* key : {"short_factor", "long_factor"}) {
    const json* list = Reader::present(*s, key);
    const std::string path = where + "." + key;
    if (!list || !list->is_array())
      throw InvalidParameter(path, list ? shown(*list) : "missing", "is required for longrope: a list of " + num(static_cast<double>(pairs)) + " numbers (one per rotating pair)");
    if (list->size() != pairs)
      throw InvalidParameter(path, num(static_cast<double>(list->size())) + " numbers",
                             "must hold rotary_dim/2 = " + num(static_cast<double>(pairs)) +
                                 " numbers, one per rotating pair (transformers only logs this and then fails "
                                 "multiplying tensors of different sizes)");
    std::vector<double>& target = std::string(key) == "short_factor" ? out.short_factor : out.long_factor;
    for (std::size_t i = 0; i < list->size(); ++i)
      target.push_back(number((*list)[i], path + "[" + std::to_string(i) + "]", 0, 1e6, true));
  }
  double attention = effective <= 1 ? 1.0
                                     : std::sqrt(1 + std::log(effective) / std::log(static_cast<double>(*out.trained_context)));
  if (const json* a = Reader::present(*s, "attention_factor")) attention = number(*a, at(where, "attention_factor"), 0, 1e6, true);
  out.attention_factor = attention;
  p["method"] = "none";
  p.erase("factor");
  r.warn("longrope",
         "rope_type longrope (Phi-3): each of the " + num(static_cast<double>(pairs)) +
             " pairs has its own divisor: short_factor while seq_len ≤ " + num(static_cast<double>(*out.trained_context)) +
             ", long_factor beyond (transformers switches the whole table at that length). " +
             (original ? "The attention factor uses " + max_name + "/" + original_name + " = " + num(effective) +
                             ", not rope_scaling.factor: "
                       : "The attention factor: ") +
             "sqrt(1 + ln s / ln L) = " + num(attention) +
             ". poslab's scaling methods have no per-pair list, so `params` reproduces the unscaled frequencies; "
             "the lists are in the JSON output.");
}

// [SECTION] ALiBi, T5, learned

void read_alibi(Reader& r) {
  ModelReading& out = r.out();
  std::string heads_name, hidden_name;
  const json* heads = r.field({"num_attention_heads", "n_head", "n_heads", "num_heads"}, &heads_name);
  if (!heads) throw InvalidParameter("num_attention_heads", "missing", "is needed: ALiBi gives each head its own slope");
  const long long h = integer(*heads, heads_name, 1, kMaxHeads);
  if (h > 256) throw InvalidParameter(heads_name, num(static_cast<double>(h)), "must be 1..256 for poslab's ALiBi lesson");
  if (const json* hidden = r.field({"hidden_size", "n_embed", "n_embd", "d_model"}, &hidden_name)) {
    const long long w = integer(*hidden, hidden_name, 1, kMaxWidth);
    if (w % h == 0) out.head_dim = static_cast<int>(w / h);
  }
  out.trained_context = max_positions(r);
  out.view = "alibi";
  out.params["heads"] = h;
  if (const json* attn = Reader::present(r.config(), "attn_config"))
    if (const json* bias_max = Reader::present(*attn, "alibi_bias_max")) {
      const double m = number(*bias_max, "attn_config.alibi_bias_max", 0, 1e6, true);
      if (m != 8)
        r.warn("alibi_bias_max", "attn_config.alibi_bias_max = " + num(m) +
                                     ": MPT's slopes are 2^(−" + num(m) + "·k/n), not the paper's 2^(−8k/n) that poslab draws.");
    }
  if ((h & (h - 1)) != 0)
    r.warn("alibi_heads_not_power_of_two",
           num(static_cast<double>(h)) + " heads is not a power of two: ALiBi takes the slopes of the next lower power of "
           "two and interleaves every other slope of the next higher one (the paper's recipe; BLOOM and MPT do the same).");
}

void read_t5(Reader& r) {
  ModelReading& out = r.out();
  std::string name;
  const json* buckets = r.field({"relative_attention_num_buckets"}, &name);
  const json* distance = r.field({"relative_attention_max_distance"});
  const long long b = buckets ? integer(*buckets, "relative_attention_num_buckets", 4, 1 << 20) : 32;
  if (!buckets) r.note_default("relative_attention_num_buckets");
  if (b % 2 != 0) throw InvalidParameter("relative_attention_num_buckets", num(static_cast<double>(b)), "must be even (the encoder splits them between the two directions)");
  const long long md = distance ? integer(*distance, "relative_attention_max_distance", 1, kMaxContext) : 128;
  if (!distance) r.note_default("relative_attention_max_distance");
  if (md <= b / 4)
    throw InvalidParameter("relative_attention_max_distance", num(static_cast<double>(md)),
                           "must be > relative_attention_num_buckets/4 = " + num(static_cast<double>(b / 4)));
  if (const json* kv = r.field({"d_kv"})) out.head_dim = static_cast<int>(integer(*kv, "d_kv", 1, 8192));
  if (const json* heads = r.field({"num_heads", "num_attention_heads"}, &name)) integer(*heads, name, 1, kMaxHeads);
  out.view = "t5";
  out.params["buckets"] = b;
  out.params["bucket_max_distance"] = md;
  out.params["bidirectional"] = true;
  r.warn("t5_encoder_decoder",
         "T5 shares one bucket table per stack: the encoder's is bidirectional (" + num(static_cast<double>(b / 2)) +
             " buckets each way), the decoder's causal (all " + num(static_cast<double>(b)) +
             " for the past). params show the encoder; set bidirectional=false for the decoder. Only the first layer "
             "of each stack holds the bias; the others reuse it.");
}

void read_learned(Reader& r) {
  ModelReading& out = r.out();
  std::string name;
  const std::optional<long long> max_pos = max_positions(r, &name);
  if (!max_pos) throw InvalidParameter("max_position_embeddings", "missing", "is needed: a learned table has one row per position");
  out.trained_context = max_pos;
  out.view = "learned";
  if (*max_pos <= 1048576) out.params["max_length"] = *max_pos;
  std::string hidden_name, heads_name;
  const json* hidden = r.field({"hidden_size", "n_embd", "n_embed", "d_model"}, &hidden_name);
  const json* heads = r.field({"num_attention_heads", "n_head", "n_heads", "num_heads"}, &heads_name);
  if (hidden && heads) {
    const long long w = integer(*hidden, hidden_name, 1, kMaxWidth), h = integer(*heads, heads_name, 1, kMaxHeads);
    if (w % h == 0) out.head_dim = static_cast<int>(w / h);
  }
}

}  // namespace

// [SECTION] Entry points

ModelReading read_model_config(const json& config) {
  if (!config.is_object())
    throw InvalidParameter("config", std::string("a JSON ") + config.type_name(), "must be a JSON object (a Hugging Face config.json)");
  ModelReading out;
  Reader r(config, out);
  out.model = r.type();
  if (out.model.empty()) {
    const json* arch = Reader::present(config, "architectures");
    out.model = arch && arch->is_array() && !arch->empty() && (*arch)[0].is_string() ? (*arch)[0].get<std::string>() : "unknown";
  }
  out.family = detect_family(r);
  if (out.family == "rope") read_rope(r);
  else if (out.family == "alibi") read_alibi(r);
  else if (out.family == "t5") read_t5(r);
  else if (out.family == "learned") read_learned(r);
  else {
    out.trained_context = max_positions(r);
    r.warn("unknown_model_type",
           "model_type \"" + r.type() + "\" names no position fields poslab knows (rope_theta, rope_scaling, "
           "alibi, relative_attention_*): its encoding lives in the model's own code. Look there, or add rope_theta "
           "if it is a RoPE model.");
  }
  // The params must be valid poslab parameters (a last check; the config
  // fields were checked by name above).
  core::Params check;
  for (const std::string& a : model_assignments(out)) check.set_assignment(a);
  return out;
}

ModelReading read_model_config_text(std::string_view text) {
  json parsed;
  try {
    parsed = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    const std::size_t colon = what.find("parse error");
    throw InvalidParameter("config", "not JSON", "must be a JSON object (" + (colon == std::string::npos ? what : what.substr(colon)) + ")");
  }
  return read_model_config(parsed);
}

std::vector<std::string> model_assignments(const ModelReading& reading) {
  std::vector<std::string> out;
  for (auto it = reading.params.begin(); it != reading.params.end(); ++it) {
    const auto& v = it.value();
    std::string text;
    if (v.is_string()) text = v.get<std::string>();
    else if (v.is_boolean()) text = v.get<bool>() ? "true" : "false";
    else if (v.is_number_integer()) text = std::to_string(v.get<long long>());
    else text = num(v.get<double>());
    out.push_back(it.key() + "=" + text);
  }
  return out;
}

}  // namespace poslab::app
