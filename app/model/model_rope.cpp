// Reading a RoPE model's config as transformers does: the head and rotating
// dimensions (configuration_<type>.py), the base, the rope_type and its
// fields (modeling_rope_utils.py), the attention factor, and the poslab
// parameters that reproduce it all (docs/CONTRACT.md §5).
//
// One call reads one kind of layer (model_layers.cpp decides which layers
// read from where: rope_scaling, flat or per-layer-type rope_parameters, a
// model's own keys).
//
// [SECTION] Index
// - Dimensions: head_dim, MLA, partial rotary in three spellings, p-RoPE, ChatGLM
// - rope_type, factor, the trained and the target context
// - The rope types: linear, dynamic, llama3, yarn, longrope, proportional
// - Multimodal sections (mrope_section)
// - read_rope

#include <algorithm>
#include <cmath>
#include <string>

#include "app/model/model_reader.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/scaling.hpp"

namespace poslab::app::model_detail {

namespace {

using core::InvalidParameter;
using core::Reason;

std::string n_text(long long x) { return num(static_cast<double>(x)); }

// [SECTION] Dimensions

struct Dims {
  int head_dim = 0;
  int rotary_dim = 0;
};

/// head_dim: the layer type's own head size (Gemma 4's global_head_dim),
/// else DeepSeek's qk_rope_head_dim, else an explicit head_dim (ChatGLM's and
/// Qwen-1's kv_channels), else hidden_size / num_attention_heads (and their
/// legacy names).
long long head_dimension(Reader& r, const RopeSource& src) {
  const json& c = r.config();
  if (src.head_dim) return integer(*src.head_dim, src.head_dim_name, 2, 8192);
  std::string hidden_name, heads_name;
  const json* hidden = r.field({"hidden_size", "n_embd", "n_embed", "d_model"}, &hidden_name);
  const json* heads = r.field({"num_attention_heads", "n_head", "n_heads", "num_heads"}, &heads_name);
  std::optional<long long> hidden_v, heads_v;
  if (hidden) hidden_v = integer(*hidden, hidden_name, 1, kMaxWidth);
  if (heads) heads_v = integer(*heads, heads_name, 1, kMaxHeads);
  const std::optional<long long> split =
      hidden_v && heads_v ? std::optional<long long>(*hidden_v / *heads_v) : std::nullopt;

  if (const json* mla = Reader::present(c, "qk_rope_head_dim")) {
    const long long head_dim = integer(*mla, "qk_rope_head_dim", 2, 8192);
    long long nope = 0;
    if (const json* n = Reader::present(c, "qk_nope_head_dim")) nope = integer(*n, "qk_nope_head_dim", 0, 8192);
    if (nope)
      r.warn("model.warning.mla_rope_head_dim_nope", {{"d", n_text(head_dim)}, {"nope", n_text(nope)}}, "mla_rope_head_dim");
    else
      r.warn("model.warning.mla_rope_head_dim", {{"d", n_text(head_dim)}});
    return head_dim;
  }
  std::string head_name;
  if (const json* explicit_dim = r.field({"head_dim", "kv_channels"}, &head_name)) {
    const long long head_dim = integer(*explicit_dim, head_name, 1, 8192);
    if (split && *split != head_dim)
      r.warn("model.warning.head_dim_explicit",
             {{"head_dim", n_text(head_dim)}, {"hidden_name", hidden_name}, {"heads_name", heads_name},
              {"hidden", n_text(*hidden_v)}, {"heads", n_text(*heads_v)}, {"split", n_text(*split)}});
    return head_dim;
  }
  if (!hidden)
    missing("hidden_size", "is needed (with num_attention_heads) to find the head dimension, or give head_dim",
            Reason{"model_head_needs_hidden", {}, {}});
  if (!heads)
    missing("num_attention_heads", "is needed (with hidden_size) to find the head dimension, or give head_dim",
            Reason{"model_head_needs_heads", {}, {}});
  if (*hidden_v % *heads_v != 0)
    throw InvalidParameter(hidden_name, n_text(*hidden_v),
                           "must be a multiple of " + heads_name + " = " + n_text(*heads_v) + " (or give head_dim)",
                           Reason{"model_hidden_multiple", {{"heads_name", heads_name}, {"heads", n_text(*heads_v)}}, {}});
  return *split;
}

/// The head and the part of it that rotates: partial rotary is spelled
/// partial_rotary_factor (phi, StableLM; inside rope_parameters in v5),
/// rotary_pct (GPT-NeoX) or rotary_dim (GPT-J, the original phi code), and
/// transformers turns each into int(head_dim × fraction).
///
/// rope_type "proportional" (p-RoPE, Gemma 4; modeling_rope_utils.py
/// `_compute_proportional_rope_parameters`) reads partial_rotary_factor
/// differently: rope_angles = int(p·head_dim // 2) pairs rotate, at
/// base^(−2i/head_dim) (the exponent over the whole head), the others get
/// frequency 0. rotary_dim is 2·rope_angles.
///
/// ChatGLM / GLM-4's remote code (modeling_chatglm.py: RotaryEmbedding(
/// rotary_dim // 2), apply_rotary_pos_emb on x[..., :rot_dim]) rotates the
/// first kv_channels/2 dimensions of each head, with frequencies over that
/// half, whatever the config says.
Dims rope_dims(Reader& r, const RopeSource& src, const std::string& rope_type) {
  const json& c = r.config();
  const long long head_dim = head_dimension(r, src);
  Dims d;
  d.head_dim = static_cast<int>(head_dim);

  struct Spelling {
    std::string name;
    double fraction;
  };
  std::vector<Spelling> spellings;
  const json* scaling = src.scaling;
  const std::string inner = at(src.where, "partial_rotary_factor");
  if (const json* p = scaling && scaling->is_object() ? Reader::present(*scaling, "partial_rotary_factor") : nullptr)
    spellings.push_back({inner, number(*p, inner, 0, 1, true)});
  if (rope_type == "proportional") {
    // v5's config mixin copies a top-level partial_rotary_factor into rope_parameters.
    if (spellings.empty())
      if (const json* p = Reader::present(c, "partial_rotary_factor"))
        spellings.push_back({"partial_rotary_factor", number(*p, "partial_rotary_factor", 0, 1, true)});
    const Spelling share = spellings.empty() ? Spelling{inner, 1.0} : spellings.front();
    const long long angles = static_cast<long long>(std::floor(share.fraction * static_cast<double>(head_dim) / 2 + 1e-9));
    if (angles < 1)
      throw InvalidParameter(share.name, num(share.fraction),
                             "must leave an even number ≥ 2 of rotating dimensions (head_dim " + n_text(head_dim) +
                                 " × it = " + num(static_cast<double>(2 * angles)) + ")",
                             Reason{"model_rotary_even", {{"head", n_text(head_dim)}, {"rotary", num(static_cast<double>(2 * angles))}}, {}});
    d.rotary_dim = static_cast<int>(2 * angles);
    return d;
  }
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
  const bool chatglm = r.type() == "chatglm" && spellings.empty();
  if (chatglm) spellings.push_back({"kv_channels", 0.5});  // the code's rotary_dim // 2
  if (!spellings.empty()) {
    const Spelling& first = spellings.front();
    for (const Spelling& s : spellings)
      if (std::abs(s.fraction - first.fraction) > 1e-9)
        throw InvalidParameter(s.name, num(s.fraction) + " of the head",
                               "contradicts " + first.name + " = " + num(first.fraction) +
                                   " of the head; give one of them",
                               Reason{"model_rotary_contradicts", {{"other", first.name}, {"other_value", num(first.fraction)},
                                                                   {"fraction", num(s.fraction)}},
                                      "of_head"});
    const int rotary = static_cast<int>(static_cast<double>(head_dim) * first.fraction + 1e-9);
    if (rotary < 2 || rotary % 2 != 0)
      throw InvalidParameter(first.name, num(first.fraction),
                             "must leave an even number ≥ 2 of rotating dimensions (head_dim " + n_text(head_dim) +
                                 " × it = " + num(static_cast<double>(rotary)) + ")",
                             Reason{"model_rotary_even", {{"head", n_text(head_dim)}, {"rotary", num(static_cast<double>(rotary))}}, {}});
    d.rotary_dim = rotary;
    if (rotary != d.head_dim && !chatglm)
      r.warn("model.warning.partial_rotary",
             {{"field", first.name},
              {"value", num(first.fraction * (first.name == "rotary_dim" ? static_cast<double>(head_dim) : 1.0))},
              {"d", num(rotary)},
              {"head", n_text(head_dim)}});
  }
  if (d.rotary_dim % 2 != 0 || d.rotary_dim > 8192)
    throw InvalidParameter("head_dim", num(d.rotary_dim), "must be an even number of rotating dimensions in 2..8192",
                           Reason{"model_rotary_range", {}, {}});
  return d;
}

// [SECTION] rope_type, factor, contexts

/// rope_type from `type` / `rope_type`, with the warnings and the contradiction check.
std::string rope_type(Reader& r, const json* s, const std::string& where) {
  if (!s) return "default";
  const json* rt = Reader::present(*s, "rope_type");
  const json* t = Reader::present(*s, "type");
  if (rt && !rt->is_string()) throw InvalidParameter(at(where, "rope_type"), shown(*rt), "must be a string", Reason{"model_string", {}, {}});
  if (t && !t->is_string()) throw InvalidParameter(at(where, "type"), shown(*t), "must be a string", Reason{"model_string", {}, {}});
  if (rt && t && rt->get<std::string>() != t->get<std::string>())
    throw InvalidParameter(at(where, "type"), shown(*t),
                           "contradicts " + where + ".rope_type = " + shown(*rt) +
                               ": transformers' config classes copy `type` over `rope_type` while the rope code reads "
                               "`rope_type` first; keep only rope_type",
                           Reason{"model_type_contradicts", {{"where", where}, {"rope_type", shown(*rt)}}, {}});
  // `type` "mrope" is not renamed but replaced: Qwen2-VL's config classes turn it into "default"
  if (t && !rt)
    r.warn(t->get<std::string>() == "mrope" ? "model.warning.legacy_type_mrope" : "model.warning.legacy_type",
           {{"where", where}, {"type", shown(*t)}}, "legacy_type");
  if (!rt && !t) {
    if (s->contains("factor"))
      missing(at(where, "rope_type"), "is needed with a factor: linear, dynamic, yarn, longrope or llama3",
              Reason{"model_rope_type_needed", {}, {}});
    return "default";
  }
  return (rt ? rt : t)->get<std::string>();
}

double scaling_factor(const json* s, const std::string& where, const std::string& type) {
  const json* f = s ? Reader::present(*s, "factor") : nullptr;
  if (!f)
    missing(at(where, "factor"), "is required for rope_type " + type + " (a number ≥ 1)",
            Reason{"model_factor_required", {{"type", type}}, {}});
  if (f->is_number() && f->get<double>() < 1)
    throw InvalidParameter(at(where, "factor"), shown(*f),
                           "must be ≥ 1 (s = L'/L: how many times the trained context the model should read)",
                           Reason{"model_factor_at_least_1", {}, {}});
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
  if (!max_pos || !(factor > 1)) return;
  const long long target = std::llround(factor * static_cast<double>(trained));
  const Args args = {{"max_name", max_name}, {"M", n_text(*max_pos)}, {"L", n_text(trained)}, {"s", num(factor)},
                     {"original", original_field}, {"target", n_text(target)}};
  if (*max_pos == target) r.warn("model.warning.max_positions_scaled", args);
  else if (*max_pos == trained) r.warn("model.warning.max_positions_unscaled", args);
  else r.warn("model.warning.max_positions_mismatch", args);
}

// [SECTION] The rope types

long long original_of(const json* v, const std::string& name, long long min = 1) {
  return integer(*v, name, min, kMaxContext);
}

/// Gemma 3 (the Gemma 3 technical report, §2 "Long context"): pre-trained on
/// 32K-token sequences, then the 4B, 12B and 27B models' global layers
/// rescaled by linear ×8 to reach 128K, which max_position_embeddings states.
constexpr long long kGemma3PretrainContext = 32768;

void read_linear_dynamic(Reader& r, const json* s, const std::string& where, const std::string& type, double factor) {
  ModelReading& out = r.out();
  std::string max_name;
  std::optional<long long> max_pos = max_positions(r, &max_name);
  if (!max_pos)
    missing("max_position_embeddings", "is needed: " + type + " scaling reads the trained context from it",
            Reason{"model_scaling_needs_max_pos", {{"type", type}}, {}});
  out.trained_context = *max_pos;
  const json* original = Reader::present(*s, "original_max_position_embeddings");
  if (original) out.trained_context = original_of(original, at(where, "original_max_position_embeddings"));
  out.target_context = std::llround(factor * static_cast<double>(*out.trained_context));
  // Linear scaling never reads a length (every θ is divided by s), so the
  // file alone cannot say whether max_position_embeddings is the context the
  // model was trained at (vicuna-7b-v1.5-16k: 4,096, extended to 16,384) or
  // the one it was extended to (Gemma 3: 131,072). Decided by the model's
  // documentation where poslab knows it, else said in a warning.
  if (type == "linear" && !original && factor > 1) {
    const std::string& t = r.type();
    const Args args = {{"max_name", max_name}, {"M", n_text(*max_pos)}, {"s", num(factor)},
                       {"L", n_text(kGemma3PretrainContext)}, {"sL", n_text(std::llround(factor * static_cast<double>(kGemma3PretrainContext)))},
                       {"target", n_text(*out.target_context)}};
    if ((t == "gemma3_text" || t == "gemma3") && *max_pos > kGemma3PretrainContext) {
      out.trained_context = kGemma3PretrainContext;
      out.target_context = *max_pos;
      r.warn("model.warning.linear_context_gemma3", args, "linear_context");
    } else {
      r.warn("model.warning.linear_context", args);
    }
  }
  out.params["original_context"] = *out.trained_context;
  param_from(out, "original_context", Reader::present(*s, "original_max_position_embeddings")
                                          ? at(where, "original_max_position_embeddings")
                                          : "max_position_embeddings");
  if (type == "dynamic") {
    // transformers builds the frequencies at init with seq_len = None →
    // max_position_embeddings: factor·L/L − (factor − 1) = 1, the plain base.
    // params show that state first; the long-context one is the second state.
    out.params["seq_len"] = *out.trained_context;
    out.states = {{"init", *out.trained_context}, {"long_context", *out.target_context}};
    r.warn("model.warning.dynamic", {{"L", n_text(*out.trained_context)}, {"target", n_text(*out.target_context)}});
  }
}

void read_llama3(Reader& r, const json* s, const std::string& where, double factor) {
  ModelReading& out = r.out();
  const json* o = Reader::present(*s, "original_max_position_embeddings");
  if (!o)
    missing(at(where, "original_max_position_embeddings"), "is required for rope_type llama3 (the trained context)",
            Reason{"model_llama3_original", {}, {}});
  out.trained_context = original_of(o, at(where, "original_max_position_embeddings"));
  const json* lo = Reader::present(*s, "low_freq_factor");
  const json* hi = Reader::present(*s, "high_freq_factor");
  if (!lo) missing(at(where, "low_freq_factor"), "is required for rope_type llama3", Reason{"model_llama3_required", {}, {}});
  if (!hi) missing(at(where, "high_freq_factor"), "is required for rope_type llama3", Reason{"model_llama3_required", {}, {}});
  const double low = number(*lo, at(where, "low_freq_factor"), 0, 1e6, true);
  const double high = number(*hi, at(where, "high_freq_factor"), 0, 1e6, true);
  if (!(high >= low))
    throw InvalidParameter(at(where, "high_freq_factor"), num(high), "must be ≥ low_freq_factor = " + num(low),
                           Reason{"at_least_other", {{"other", "low_freq_factor"}, {"other_value", num(low)}}, {}});
  if (high == low)
    r.warn("model.warning.llama3_no_blend",
           {{"where", where}, {"f", num(low)}, {"L", n_text(*out.trained_context)},
            {"edge", n_text(std::llround(static_cast<double>(*out.trained_context) / low))}, {"s", num(factor)}});
  out.target_context = target_context(r, factor, *out.trained_context);
  out.params["original_context"] = *out.trained_context;
  out.params["low_freq_factor"] = low;
  out.params["high_freq_factor"] = high;
  param_from(out, "original_context", at(where, "original_max_position_embeddings"));
  param_from(out, "low_freq_factor", at(where, "low_freq_factor"));
  param_from(out, "high_freq_factor", at(where, "high_freq_factor"));
  context_warnings(r, factor, *out.trained_context, at(where, "original_max_position_embeddings"));
}

/// HF `_compute_yarn_parameters`: L from original_max_position_embeddings
/// (else max_position_embeddings), beta_fast/beta_slow (32/1), mscale and
/// mscale_all_dim, an explicit attention_factor, and `truncate` (True).
void read_yarn(Reader& r, const json* s, const std::string& where, double factor) {
  ModelReading& out = r.out();
  nlohmann::ordered_json& p = out.params;
  std::string max_name;
  const std::optional<long long> max_pos = max_positions(r, &max_name);
  // v5's standardize_rope_params puts a top-level original_max_position_embeddings
  // into the scaling object when it has none.
  std::string original_name = at(where, "original_max_position_embeddings");
  const json* o = Reader::present(*s, "original_max_position_embeddings");
  if (!o && (o = Reader::present(r.config(), "original_max_position_embeddings"))) original_name = "original_max_position_embeddings";
  if (o) out.trained_context = original_of(o, original_name);
  if (!out.trained_context) out.trained_context = max_pos;
  if (!out.trained_context)
    missing("max_position_embeddings",
            "is needed: yarn reads the trained context from it or from original_max_position_embeddings",
            Reason{"model_yarn_needs_max_pos", {}, {}});
  const double beta_fast = optional_number(s, "beta_fast", where, 32, 0, 1e6, true);
  const double beta_slow = optional_number(s, "beta_slow", where, 1, 0, 1e6, true);
  if (!(beta_fast > beta_slow))
    throw InvalidParameter(at(where, "beta_fast"), num(beta_fast), "must be > beta_slow = " + num(beta_slow),
                           Reason{"greater_than", {{"other", "beta_slow"}, {"other_value", num(beta_slow)}}, {}});
  const double mscale = optional_number(s, "mscale", where, 0, 0, 1e3);
  const double mscale_all_dim = optional_number(s, "mscale_all_dim", where, 0, 0, 1e3);
  out.target_context = target_context(r, factor, *out.trained_context);
  p["original_context"] = *out.trained_context;
  param_from(out, "original_context", o ? original_name : max_name);
  param_from(out, "beta_fast", at(where, "beta_fast"));
  param_from(out, "beta_slow", at(where, "beta_slow"));
  param_from(out, "mscale", at(where, "mscale"));
  param_from(out, "mscale_all_dim", at(where, "mscale_all_dim"));
  p["beta_fast"] = beta_fast;
  p["beta_slow"] = beta_slow;
  p["mscale"] = mscale;
  p["mscale_all_dim"] = mscale_all_dim;
  for (const char* key : {"beta_fast", "beta_slow"})
    if (!Reader::present(*s, key)) r.note_default(where + "." + key);

  double attention = mscale > 0 && mscale_all_dim > 0
                         ? core::yarn_get_mscale(factor, mscale) / core::yarn_get_mscale(factor, mscale_all_dim)
                         : core::yarn_get_mscale(factor);
  if (mscale > 0 && mscale_all_dim > 0 && mscale == mscale_all_dim) {
    // Only DeepSeek's attention (modeling_deepseek_v2/v3.py: softmax_scale ×
    // get_mscale(s, mscale_all_dim)²) is known to put the temperature back.
    const bool deepseek = r.type().rfind("deepseek", 0) == 0 || r.type() == "kimi_k2";
    r.warn(deepseek ? "model.warning.mscale_cancels" : "model.warning.mscale_cancels_other",
           {{"mscale", num(mscale)}, {"squared", num(std::pow(core::yarn_get_mscale(factor, mscale_all_dim), 2))},
            {"type", r.type()}},
           "mscale_cancels");
  }
  if (const json* a = Reader::present(*s, "attention_factor")) {
    const double computed = attention;
    attention = number(*a, at(where, "attention_factor"), 0, 1e6, true);
    p["attention_factor"] = attention;
    r.warn("model.warning.attention_factor_explicit",
           {{"where", where}, {"a", num(attention)}, {"computed", num(computed)}});
  }
  out.attention_factor = attention;
  if (const json* tr = Reader::present(*s, "truncate"); tr && !boolean(*tr, at(where, "truncate"))) {
    p["truncate"] = false;
    const auto exact = core::yarn_correction_range(beta_fast, beta_slow, out.rotary_dim.value_or(2), p["base"].get<double>(),
                                                   static_cast<double>(*out.trained_context), false);
    r.warn("model.warning.yarn_truncate_false",
           {{"where", where}, {"low", num(exact.first)}, {"high", num(exact.second)},
            {"low_rounded", num(std::floor(exact.first))}, {"high_rounded", num(std::ceil(exact.second))}});
  }
  // An inverted correction range (low > high: even the slowest pair turns
  // more than beta_fast times within L, a small rope_theta): transformers'
  // ramp is then 0 for every pair and divides every frequency by s, with no
  // message.
  if (out.rotary_dim) {
    const auto range = core::yarn_correction_range(beta_fast, beta_slow, *out.rotary_dim, p["base"].get<double>(),
                                                   static_cast<double>(*out.trained_context), !p.contains("truncate"));
    if (range.first > range.second)
      r.warn("model.warning.yarn_inverted_range", {{"where", where}, {"low", num(range.first)}, {"high", num(range.second)}});
  }
  if (o && max_pos && factor > 1 &&
      std::abs(static_cast<double>(*max_pos) / static_cast<double>(*out.trained_context) - factor) > 1e-9) {
    const double ratio = static_cast<double>(*max_pos) / static_cast<double>(*out.trained_context);
    const Args args = {{"max_name", max_name}, {"M", n_text(*max_pos)}, {"L", n_text(*out.trained_context)},
                       {"ratio", num(ratio)}, {"s", num(factor)}};
    if (ratio == 1) r.warn("model.warning.yarn_factor_vs_ratio_one", args, "yarn_factor_vs_ratio");
    else r.warn("model.warning.yarn_factor_vs_ratio", args);
  }
  context_warnings(r, factor, *out.trained_context, original_name);
}

/// HF `_compute_longrope_parameters` (Phi-3): L is the top-level
/// original_max_position_embeddings (Phi3Config keeps it there; transformers
/// gives it priority), else rope_scaling's, else max_position_embeddings; s is
/// rope_scaling.factor, else max_position_embeddings / L (the 2024 code took
/// that ratio whenever the top-level field existed: warned when they differ);
/// a = the config's attention_factor, else √(1 + ln s / ln L).
void read_longrope(Reader& r, const json* s, const std::string& where, int pairs) {
  ModelReading& out = r.out();
  nlohmann::ordered_json& p = out.params;
  const json& c = r.config();
  std::string max_name;
  const std::optional<long long> max_pos = max_positions(r, &max_name);
  std::string original_name;
  long long L = 0;
  if (const json* o = Reader::present(c, "original_max_position_embeddings")) {
    original_name = "original_max_position_embeddings";
    L = original_of(o, original_name, 2);
  } else if (const json* o2 = Reader::present(*s, "original_max_position_embeddings")) {
    original_name = at(where, "original_max_position_embeddings");
    L = original_of(o2, original_name, 2);
  } else {
    if (!max_pos)
      missing("max_position_embeddings", "is needed: longrope reads the trained context from it",
              Reason{"model_longrope_needs_max_pos", {}, {}});
    if (*max_pos < 2)
      throw InvalidParameter(max_name, n_text(*max_pos), "must be ≥ 2 for longrope (its attention factor divides by ln L)",
                             Reason{"model_longrope_l2", {}, {}});
    original_name = max_name;
    L = *max_pos;
  }
  const json* f = Reader::present(*s, "factor");
  double factor = 1;
  std::string factor_source;
  if (f) {
    factor = scaling_factor(s, where, "longrope");
    factor_source = at(where, "factor");
  } else {
    if (!max_pos)
      missing("max_position_embeddings", "is needed with original_max_position_embeddings for longrope (no factor given)",
              Reason{"model_longrope_needs_ratio", {}, {}});
    factor = std::max(1.0, static_cast<double>(*max_pos) / static_cast<double>(L));
    factor_source = max_name + "/" + original_name;
  }
  out.trained_context = L;
  out.target_context = max_pos && *max_pos > L ? *max_pos : std::llround(factor * static_cast<double>(L));

  std::vector<double>* lists[] = {&out.short_factor, &out.long_factor};
  const char* keys[] = {"short_factor", "long_factor"};
  for (int k = 0; k < 2; ++k) {
    const json* list = Reader::present(*s, keys[k]);
    const std::string path = at(where, keys[k]);
    if (!list || !list->is_array()) {
      const Reason why{"model_longrope_list_required", {{"pairs", num(pairs)}}, {}};
      const std::string text = "is required for longrope: a list of " + num(pairs) + " numbers (one per rotating pair)";
      if (!list) missing(path, text, why);
      throw InvalidParameter(path, shown(*list), text, why);
    }
    if (list->size() != static_cast<std::size_t>(pairs))
      throw InvalidParameter(path, num(static_cast<double>(list->size())) + " numbers",
                             "must hold rotary_dim/2 = " + num(pairs) +
                                 " numbers, one per rotating pair (transformers only logs this and then fails "
                                 "multiplying tensors of different sizes)",
                             Reason{"model_longrope_list_length", {{"pairs", num(pairs)}, {"n", num(static_cast<double>(list->size()))}},
                                    "numbers"});
    for (std::size_t i = 0; i < list->size(); ++i)
      lists[k]->push_back(number((*list)[i], path + "[" + std::to_string(i) + "]", 1e-6, 1e6));
  }
  const double computed = core::longrope_attention_factor(factor, static_cast<double>(L));
  const json* explicit_attention = Reader::present(*s, "attention_factor");
  const double attention =
      explicit_attention ? number(*explicit_attention, at(where, "attention_factor"), 0, 1e6, true) : computed;
  out.attention_factor = attention;
  p["factor"] = factor;
  p["original_context"] = L;
  param_from(out, "factor", factor_source);
  param_from(out, "original_context", original_name);
  // transformers builds the table at init with seq_len = None: the short
  // list, which params show; the long list (seq_len > L, the one the
  // extension is for) is the second state.
  p["seq_len"] = L;
  if (*out.target_context > L) out.states = {{"init", L}, {"long_context", *out.target_context}};
  p["short_factor"] = out.short_factor;
  p["long_factor"] = out.long_factor;
  if (explicit_attention) p["attention_factor"] = attention;
  const bool long_list = *out.target_context > L;
  r.warn(long_list ? "model.warning.longrope" : "model.warning.longrope_short",
         {{"pairs", num(pairs)}, {"L", n_text(L)}, {"source", factor_source}, {"s", num(factor)},
          {"a", num(computed)}, {"target", n_text(*out.target_context)}},
         "longrope");
  if (explicit_attention)
    r.warn("model.warning.longrope_attention_explicit", {{"where", where}, {"a", num(attention)}, {"computed", num(computed)}},
           "attention_factor_explicit");
  // The 2024 code: s = max/original whenever the top-level field exists, the factor ignored.
  if (f && max_pos && Reader::present(c, "original_max_position_embeddings")) {
    const double ratio = static_cast<double>(*max_pos) / static_cast<double>(L);
    if (std::abs(ratio - factor) > 1e-9)
      r.warn("model.warning.longrope_factor_vs_ratio",
             {{"where", where}, {"s", num(factor)}, {"max_name", max_name}, {"M", n_text(*max_pos)}, {"L", n_text(L)},
              {"ratio", num(ratio)}, {"a_old", num(core::longrope_attention_factor(std::max(1.0, ratio), static_cast<double>(L)))},
              {"a_new", num(computed)}});
  }
}

// [SECTION] Multimodal sections

/// Qwen2-VL's multimodal RoPE (modeling_qwen2_vl.py apply_multimodal_rotary_pos_emb,
/// Qwen3-VL's apply_interleaved_mrope): `mrope_section` [t, h, w] splits the
/// rotary_dim/2 pairs among the temporal, height and width position ids —
/// contiguous blocks, or with mrope_interleaved every third pair (1, 4, … for
/// height up to 3h, 2, 5, … for width up to 3w, the rest temporal). For text
/// the three ids are equal (get_rope_index), so it is plain RoPE.
///
/// `spelling` says how the config named "mrope", if it did: "type" (the old
/// key, which Qwen2-VL's config classes turn into "default") or "rope_type"
/// (converted by no config class: transformers fails with a KeyError).
void read_mrope(Reader& r, const json* s, const std::string& where, int pairs, const std::string& spelling, RopeFacts& facts) {
  const bool legacy = !spelling.empty();
  const json* section = s ? Reader::present(*s, "mrope_section") : nullptr;
  const std::string path = at(where, "mrope_section");
  if (!section) {
    if (legacy)
      missing(path, "is needed with rope_type mrope: three numbers of pairs (temporal, height, width) summing to rotary_dim/2 = " +
                        num(pairs),
              Reason{"model_mrope_needed", {{"pairs", num(pairs)}}, {}});
    return;
  }
  if (!section->is_array() || section->size() != 3)
    throw InvalidParameter(path, shown(*section),
                           "must be three numbers of pairs (temporal, height, width) summing to rotary_dim/2 = " + num(pairs),
                           Reason{"model_mrope_three", {{"pairs", num(pairs)}}, {}});
  long long sum = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const long long n = integer((*section)[i], path + "[" + std::to_string(i) + "]", 0, 4096);
    facts.mrope_section.push_back(static_cast<int>(n));
    sum += n;
  }
  if (sum != pairs)
    throw InvalidParameter(path, shown(*section),
                           "must sum to rotary_dim/2 = " + num(pairs) + " pairs (it sums to " + n_text(sum) +
                               "): each rotating pair turns with one of the three position ids",
                           Reason{"model_mrope_sum", {{"pairs", num(pairs)}, {"sum", n_text(sum)}}, {}});
  bool interleaved = false;
  if (const json* il = Reader::present(*s, "mrope_interleaved")) {
    interleaved = boolean(*il, at(where, "mrope_interleaved"));
    facts.mrope_interleaved = interleaved;
  }
  const int t = facts.mrope_section[0], h = facts.mrope_section[1], w = facts.mrope_section[2];
  const Args args = {{"where", where}, {"t", num(t)}, {"h", num(h)}, {"w", num(w)}, {"pairs", num(pairs)},
                     {"t_end", num(t - 1)}, {"h_end", num(t + h - 1)}, {"w_start", num(t + h)}, {"w_end", num(pairs - 1)},
                     {"h_last", num(3 * h - 2)}, {"w_last", num(3 * w - 1)},
                     // the lesson that draws them, opened at this model's sections and base
                     {"command", "poslab gui --view multimodal --set base=" + num(facts.base) + " --set mrope_section=" +
                                     num(t) + "," + num(h) + "," + num(w) +
                                     (interleaved ? " --set mrope_interleaved=true" : "")}};
  if (interleaved) r.warn("model.warning.mrope_interleaved", args, "mrope");
  else r.warn("model.warning.mrope", args);
  if (spelling == "rope_type") {
    r.warn("model.warning.mrope_rope_type", {{"where", where}, {"type", r.type()}});
  } else if (legacy) {
    // configuration_qwen2_vl.py (and Qwen2.5-VL's, Qwen3-VL's text config):
    // `if "type" in rope_scaling: if rope_scaling["type"] == "mrope": rope_scaling["type"] = "default"`
    const std::string& type = r.type();
    if (type == "qwen2_vl" || type == "qwen2_5_vl" || type == "qwen2_vl_text" || type == "qwen2_5_vl_text" ||
        type == "qwen3_vl" || type == "qwen3_vl_text" || type == "qwen3_vl_moe" || type == "qwen3_vl_moe_text")
      r.warn("model.warning.mrope_legacy", {{"where", where}}, "mrope_legacy");
    else
      r.warn("model.warning.mrope_legacy_other", {{"where", where}, {"type", type}}, "mrope_legacy");
  }
}

/// The pair layout the model's code uses: interleaved (x₀,x₁), (x₂,x₃)… for
/// GPT-J/CodeGen (rotate_every_two), Cohere (rotate_half on x[..., ::2]),
/// ChatGLM/GLM (pairs of consecutive dims), Llama 4 (complex multiplication
/// of consecutive pairs), DeepSeek-V2 and DeepSeek-VL2's language model
/// (modeling_deepseek_v2.py apply_rotary_emb: view_as_complex(x.reshape(…, -1, 2)),
/// consecutive pairs, always), DeepSeek-V3 with rope_interleave, and
/// position_embedding_type "rope_gptj"; half (x_i, x_{i+d/2}) — transformers'
/// rotate_half — for the rest.
std::string pair_layout(Reader& r) {
  const json& c = r.config();
  const std::string& t = r.type();
  if (t == "gptj" || t == "codegen" || t == "cohere" || t == "cohere2" || t == "chatglm" || t == "glm" || t == "glm4" ||
      t == "llama4" || t == "llama4_text" || t == "deepseek_v2")
    return "interleaved";
  // DeepSeek-V3's config class defaults rope_interleave to True
  if (const json* il = r.field({"rope_interleave"}); il && boolean(*il, "rope_interleave")) return "interleaved";
  if (const json* pe = Reader::present(c, "position_embedding_type"); pe && pe->is_string() && pe->get<std::string>() == "rope_gptj")
    return "interleaved";
  return "half";
}

/// p-RoPE's frequencies with poslab's partial rotary: d = 2k rotating dims at
/// base'^(−2i/d) with base' = base^(2k/h) are base^(−2i/h), the proportional
/// ones; a factor divides them all (linear).
void read_proportional(Reader& r, const json* s, const std::string& where, const Dims& dims, double base) {
  ModelReading& out = r.out();
  nlohmann::ordered_json& p = out.params;
  const double equivalent = std::pow(base, static_cast<double>(dims.rotary_dim) / static_cast<double>(dims.head_dim));
  p["base"] = equivalent;
  p["head_dim"] = dims.head_dim;
  double factor = 1;
  if (const json* f = s ? Reader::present(*s, "factor") : nullptr) {
    factor = number(*f, at(where, "factor"), 1, 1e6);
    if (factor != 1) {
      p["method"] = "linear";
      p["factor"] = factor;
      param_from(out, "factor", at(where, "factor"));
      out.params["original_context"] = out.trained_context.value_or(4096);
      out.target_context = std::llround(factor * static_cast<double>(out.trained_context.value_or(4096)));
      out.view = "scaling";
    }
  }
  r.warn("model.warning.proportional",
         {{"where", where}, {"k", num(dims.rotary_dim / 2)}, {"pairs", num(dims.head_dim / 2)}, {"head", num(dims.head_dim)},
          {"b", num(base)}, {"d", num(dims.rotary_dim)}, {"b2", num(equivalent)}});
}

}  // namespace

// [SECTION] read_rope

RopeFacts read_rope(Reader& r, const RopeSource& src) {
  ModelReading& out = r.out();
  const json& c = r.config();
  const json* s = src.scaling_ignored ? nullptr : src.scaling;
  const std::string where = src.where;
  if (s && !s->is_object()) throw InvalidParameter(where, shown(*s), "must be an object or null", Reason{"model_object_or_null", {}, {}});
  // The head first (its warnings come first), read with the type's spelling
  // peeked at: p-RoPE reads partial_rotary_factor its own way.
  std::string peek;
  if (s)
    for (const char* key : {"rope_type", "type"})
      if (const json* t = Reader::present(*s, key); t && t->is_string() && peek.empty()) peek = t->get<std::string>();
  const Dims dims = rope_dims(r, src, peek);
  std::string type = rope_type(r, s, where);
  // Qwen2-VL's first spelling: its config classes map `type` "mrope" to
  // "default" + mrope_section; a `rope_type` "mrope" they leave alone (KeyError).
  std::string mrope_spelling;
  if (type == "mrope") {
    const json* old_key = Reader::present(*s, "type");
    mrope_spelling = old_key && old_key->is_string() && old_key->get<std::string>() == "mrope" ? "type" : "rope_type";
    type = "default";
  }
  out.head_dim = dims.head_dim;
  out.rotary_dim = dims.rotary_dim;

  // base θ: the layer type's own field, the scaling object's rope_theta (v5),
  // the top-level rope_theta (rotary_emb_base: NeoX, Qwen-1), DBRX's
  // attn_config.rope_theta, ChatGLM's 10000·rope_ratio, the layer type's default.
  double base = 10000;
  std::string base_field = "rope_theta";
  if (src.base) {
    base = number(*src.base, src.base_name, 1, 1e12, true);
    base_field = src.base_name;
  } else if (const json* t = s ? Reader::present(*s, "rope_theta") : nullptr) {
    base_field = at(where, "rope_theta");
    base = number(*t, base_field, 1, 1e12, true);
  } else if (r.type() == "chatglm") {
    // modeling_chatglm.py: base = 10000 * rope_ratio (rope_ratio defaults to 1)
    double ratio = 1;
    if (const json* rr = Reader::present(c, "rope_ratio")) ratio = number(*rr, "rope_ratio", 0, 1e8, true);
    else r.note_default("rope_ratio");
    base = 10000 * ratio;
    base_field = "rope_ratio";
    if (!(base > 1)) throw InvalidParameter("rope_ratio", num(ratio), "must make 10000·rope_ratio > 1", Reason{"model_rope_ratio", {}, {}});
    r.warn("model.warning.chatglm", {{"ratio", num(ratio)}, {"b", num(base)}, {"head", num(dims.head_dim)}, {"d", num(dims.rotary_dim)}});
  } else if (const json* attn = r.type() == "dbrx" ? Reader::present(c, "attn_config") : nullptr;
             attn && Reader::present(*attn, "rope_theta")) {
    base_field = "attn_config.rope_theta";
    base = number(*Reader::present(*attn, "rope_theta"), base_field, 1, 1e12, true);
  } else if (src.default_base) {  // the layer type's own default, not the model's rope_theta
    base = *src.default_base;
    base_field = src.base_name.empty() ? "rope_theta" : src.base_name;
    r.note_default(base_field);
  } else {
    std::string name;
    if (const json* t2 = r.field({"rope_theta", "rotary_emb_base"}, &name)) {
      base = number(*t2, name, 1, 1e12, true);
      base_field = name;
    } else {
      r.note_default(r.type() == "dbrx" ? "attn_config.rope_theta" : "rope_theta");  // every RoPE config class defaults to 10000
    }
  }

  RopeFacts facts;
  facts.base = base;
  facts.head_dim = dims.head_dim;
  facts.rotary_dim = dims.rotary_dim;
  facts.layout = pair_layout(r);

  nlohmann::ordered_json& p = out.params;
  p["method"] = "none";
  p["d"] = dims.rotary_dim;
  p["base"] = base;
  param_from(out, "base", base_field);
  param_from(out, "d", "head_dim");
  // Partial rotary: the rope lesson shows the whole head and which part turns.
  if (dims.rotary_dim != dims.head_dim) p["head_dim"] = dims.head_dim;
  out.view = "rope";
  out.trained_context = max_positions(r);
  out.attention_factor = 1.0;

  if (type == "default") {
    read_mrope(r, s, where, dims.rotary_dim / 2, mrope_spelling, facts);
    return facts;
  }
  if (type == "su") {
    r.warn("model.warning.longrope_su", {{"where", where}});
    type = "longrope";
  }
  if (type == "proportional") {
    facts.method = "proportional";
    read_proportional(r, s, where, dims, base);
    if (p.contains("factor")) facts.factor = p["factor"].get<double>();
    return facts;
  }
  if (type != "linear" && type != "dynamic" && type != "yarn" && type != "longrope" && type != "llama3") {
    r.warn("model.warning.unknown_rope_type", {{"where", where}, {"type", type}});
    return facts;
  }
  out.view = "scaling";
  p["method"] = type;
  facts.method = type;
  if (type == "longrope") {
    read_longrope(r, s, where, dims.rotary_dim / 2);
    facts.factor = p["factor"].get<double>();
    return facts;
  }
  double factor = 0;
  if (type == "yarn" && !Reader::present(*s, "factor")) {
    // transformers (2025): factor = max_position_embeddings / original_max_position_embeddings
    std::string max_name;
    const std::optional<long long> max_pos = max_positions(r, &max_name);
    std::string original_name = at(where, "original_max_position_embeddings");
    const json* o = Reader::present(*s, "original_max_position_embeddings");
    if (!o) {
      o = Reader::present(c, "original_max_position_embeddings");
      original_name = "original_max_position_embeddings";
    }
    const long long original = o ? original_of(o, original_name) : 0;
    if (!o || !max_pos || *max_pos <= original) (void)scaling_factor(s, where, type);  // refuses: factor missing
    factor = static_cast<double>(*max_pos) / static_cast<double>(original);
    p["factor"] = factor;
    param_from(out, "factor", max_name + "/" + original_name);
    r.warn("model.warning.yarn_factor_derived",
           {{"where", where}, {"max_name", max_name}, {"M", n_text(*max_pos)}, {"original", original_name},
            {"L", n_text(original)}, {"s", num(factor)}});
  } else {
    factor = scaling_factor(s, where, type);
    p["factor"] = factor;
    param_from(out, "factor", at(where, "factor"));
  }
  facts.factor = factor;
  if (type == "linear" || type == "dynamic") {
    read_linear_dynamic(r, s, where, type, factor);
    return facts;
  }
  if (type == "llama3") {
    read_llama3(r, s, where, factor);
    return facts;
  }
  read_yarn(r, s, where, factor);
  return facts;
}

}  // namespace poslab::app::model_detail
