// A model is a stack of layers (docs/CONTRACT.md §5 "layers"): which layers
// attend fully, in a sliding window or in chunks, which rotate and with what,
// and which carry no position encoding at all — read as transformers' config
// classes build it (the v5 `layer_types`, `rope_parameters` keyed by layer
// type) and, for the configs written before v5, as each model's own keys say.
//
// The rules, and where they come from (transformers, configuration_<type>.py /
// modular_<type>.py unless said otherwise):
//   layer_types        explicit list, one entry per layer (v5; gpt-oss, Gemma 3/4, Qwen3-Next)
//   gemma2             "sliding_attention" if (i + 1) % 2 else "full_attention"
//   gemma3_text        the same with sliding_window_pattern (default 6): 5 local : 1 global;
//                      Gemma3TextConfig.convert_rope_params_to_dict: rope_theta (default 1e6)
//                      and rope_scaling for the full layers only, rope_local_base_freq
//                      (default 1e4) for the sliding ones
//   cohere2            sliding_window_pattern (default 4); modeling_cohere2.py applies RoPE
//                      only where sliding_window is set: the global layers carry none
//   modernbert         "sliding_attention" if i % global_attn_every_n_layers (default 3);
//                      global_rope_theta (160,000) / local_rope_theta (10,000); rope_scaling
//                      to both; window local_attention (128, both sides)
//   llama4_text        no_rope_layers[i] (1 = RoPE, 0 = none; empty or absent: the default
//                      int((i + 1) % no_rope_layer_interval != 0), interval 4); RoPE layers
//                      "chunked_attention" (attention_chunk_size 8192), NoPE layers full,
//                      with attn_temperature_tuning's query scale (modeling_llama4.py)
//   smollm3            no_rope_layers (absent: the same default; an empty list is kept and
//                      fails at layer 0); sliding only for NoPE layers with use_sliding_window
//   qwen2/qwen3(+_moe, _vl)  sliding for i >= max_window_layers when use_sliding_window
//   mistral/mixtral    every layer in sliding_window when it is set
//   gpt_oss            "sliding_attention" if (i + 1) % 2 else "full_attention"
//   jamba              attention where i % attn_layer_period == attn_layer_offset (8, 4),
//                      no position encoding; Mamba layers elsewhere
//   rope_parameters    keyed by layer type: each type its own RoPE (null: none for that type)
//
// [SECTION] Index
// - Helpers: the layer count, params' config fields, the layer list text
// - Layer types: explicit, or each model's rule
// - Which layers rotate (no_rope_layers, Cohere2, keyed nulls)
// - Where each layer type reads its RoPE
// - Groups
// - Warnings: NoPE layers, scaling on some layers, bases, legacy keys
// - Query scales: Llama 4's temperature, llama_4_scaling_beta, Qwen-1's log-n
// - read_rope_layers, read_uniform_layers, read_hybrid_layers

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "app/model/model_reader.hpp"
#include "poslab/core/errors.hpp"

namespace poslab::app::model_detail {

using core::InvalidParameter;
using core::Reason;

constexpr long long kMaxLayers = 4096;

// [SECTION] Helpers

void param_from(ModelReading& out, const std::string& key, const std::string& field) {
  for (auto& entry : out.param_fields)
    if (entry.first == key) {
      entry.second = field;
      return;
    }
  out.param_fields.emplace_back(key, field);
}

std::optional<int> layer_count(Reader& r, std::string* name) {
  std::string n;
  const json* v = r.field({"num_hidden_layers", "num_layers", "n_layer", "n_layers"}, &n);
  if (!v) return std::nullopt;
  if (name) *name = n;
  return static_cast<int>(integer(*v, n, 1, kMaxLayers));
}

namespace {

std::string n_text(long long x) { return num(static_cast<double>(x)); }

/// A number inside a longer warning argument, as Reader::warn writes a bare
/// one: 10,000; 0.1; 1e+12.
std::string grouped(double x) {
  if (x == std::floor(x) && std::fabs(x) < 1e15) {
    std::string digits = std::to_string(static_cast<long long>(std::fabs(x)));
    for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<std::size_t>(at), ",");
    return (x < 0 ? "-" : "") + digits;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

bool is_one_of(const std::string& s, std::initializer_list<const char*> list) {
  return std::any_of(list.begin(), list.end(), [&](const char* x) { return s == x; });
}

/// One layer as the reader sees it.
struct Slot {
  std::string type;       ///< the config's layer type ("" when the model has one kind)
  std::string attention;  ///< full | sliding | chunked | "" (not attention, or unknown)
  std::optional<long long> window;
  bool rotates = true;
  bool mixer = false;  ///< not an attention layer (linear attention, Mamba)
};

/// The layer types a config names, and whether it named them (or a rule of
/// the model made them up).
struct Plan {
  std::optional<int> count;
  std::string count_name;
  std::vector<Slot> slots;  ///< one per layer; one slot "for every layer" when the count is unknown
  bool typed = false;       ///< the layer types come from the config (layer_types or a pattern)
  std::string nope_rule;    ///< why some layers carry no position: llama4 | smollm3 | cohere2 | keyed | ""
  bool no_rope_layers_empty = false;
  bool no_rope_layers_defaulted = false;
};

/// The config's `key`, else the model type's default (noted in `defaulted`).
const json* value_of(Reader& r, const char* key) { return r.field({key}); }

long long positive(Reader& r, const char* key, long long fallback, long long max, bool note_default = true) {
  if (const json* v = Reader::present(r.config(), key)) return integer(*v, key, 1, max);
  if (note_default) r.note_default(key);
  return fallback;
}

// [SECTION] Layer types

/// The attention a layer type stands for, and its window.
void attention_of(Reader& r, Slot& s) {
  const std::string& t = r.type();
  if (s.type == "full_attention") {
    s.attention = "full";
  } else if (s.type == "sliding_attention") {
    s.attention = "sliding";
    const char* key = t == "modernbert" ? "local_attention" : "sliding_window";
    if (const json* w = Reader::present(r.config(), key)) s.window = integer(*w, key, 1, kMaxContext);
    else if (t == "modernbert") s.window = 128;
    else if (const json* d = r.field({key})) s.window = integer(*d, key, 1, kMaxContext);
  } else if (s.type == "chunked_attention") {
    s.attention = "chunked";
    if (const json* w = value_of(r, "attention_chunk_size")) s.window = integer(*w, "attention_chunk_size", 1, kMaxContext);
  } else if (s.type == "linear_attention") {
    s.mixer = true;
    s.rotates = false;
  }
}

/// no_rope_layers (1 = RoPE, 0 = none) for Llama 4 and SmolLM3: the list, or
/// the default rule int((i + 1) % no_rope_layer_interval != 0).
std::vector<bool> rope_flags(Reader& r, int count, Plan& plan) {
  const json& c = r.config();
  std::vector<bool> flags;
  const json* list = Reader::present(c, "no_rope_layers");
  if (list && !list->is_array())
    throw InvalidParameter("no_rope_layers", shown(*list), "must be a list of 0 (no position encoding) or 1 (RoPE), one per layer",
                           Reason{"model_no_rope_list", {}, {}});
  if (list && !list->empty()) {
    if (list->size() < static_cast<std::size_t>(count))
      throw InvalidParameter("no_rope_layers", n_text(static_cast<long long>(list->size())) + " numbers",
                             "must hold one 0 or 1 per layer: " + n_text(count) + " (num_hidden_layers)",
                             Reason{"model_no_rope_length", {{"layers", n_text(count)}, {"n", n_text(static_cast<long long>(list->size()))}},
                                    "numbers"});
    for (int i = 0; i < count; ++i) {
      const long long v = integer((*list)[static_cast<std::size_t>(i)], "no_rope_layers[" + std::to_string(i) + "]", 0, 1);
      flags.push_back(v == 1);
    }
    return flags;
  }
  plan.no_rope_layers_empty = list != nullptr;
  if (!list) {
    r.note_default("no_rope_layers");
    plan.no_rope_layers_defaulted = true;
  }
  const long long interval = positive(r, "no_rope_layer_interval", 4, kMaxLayers);
  for (int i = 0; i < count; ++i) flags.push_back((i + 1) % interval != 0);
  return flags;
}

/// The layer types of a config: its layer_types list, else the model's rule.
Plan plan_layers(Reader& r) {
  const json& c = r.config();
  const std::string& t = r.type();
  Plan plan;
  plan.count = layer_count(r, &plan.count_name);
  const json* types = Reader::present(c, "layer_types");
  if (types) {
    if (!types->is_array())
      throw InvalidParameter("layer_types", shown(*types), "must be a list of layer types, one per layer",
                             Reason{"model_layer_types_list", {}, {}});
    if (!plan.count) plan.count = static_cast<int>(std::min<std::size_t>(types->size(), kMaxLayers));
    if (types->size() != static_cast<std::size_t>(*plan.count))
    {
      const std::string name = plan.count_name.empty() ? std::string("num_hidden_layers") : plan.count_name;
      throw InvalidParameter("layer_types", n_text(static_cast<long long>(types->size())) + " types",
                             "must name one type per layer: " + n_text(*plan.count) + " (" + name + ")",
                             Reason{"model_layer_types_length",
                                    {{"layers", n_text(*plan.count)}, {"name", name}, {"n", n_text(static_cast<long long>(types->size()))}},
                                    "types"});
    }
    for (std::size_t i = 0; i < types->size(); ++i) {
      const json& v = (*types)[i];
      const std::string path = "layer_types[" + std::to_string(i) + "]";
      if (!v.is_string()) throw InvalidParameter(path, shown(v), "must be a string", Reason{"model_string", {}, {}});
      Slot s;
      s.type = v.get<std::string>();
      if (!is_one_of(s.type, {"full_attention", "sliding_attention", "chunked_attention", "linear_attention"}))
        throw InvalidParameter(path, shown(v),
                               "must be full_attention, sliding_attention, chunked_attention or linear_attention",
                               Reason{"model_layer_type_unknown", {}, {}});
      plan.slots.push_back(s);
    }
    plan.typed = true;
  } else if (plan.count) {
    const int n = *plan.count;
    auto pattern = [&](long long every, bool sliding_first) {
      for (int i = 0; i < n; ++i) {
        Slot s;
        const bool sliding = sliding_first ? (i + 1) % every != 0 : i % every != 0;
        s.type = sliding ? "sliding_attention" : "full_attention";
        plan.slots.push_back(s);
      }
      plan.typed = true;
    };
    if (t == "gemma2" || t == "gpt_oss") pattern(2, true);
    else if (t == "gemma3_text" || t == "gemma3") pattern(positive(r, "sliding_window_pattern", 6, kMaxLayers), true);
    else if (t == "cohere2") pattern(positive(r, "sliding_window_pattern", 4, kMaxLayers), true);
    else if (t == "modernbert") pattern(positive(r, "global_attn_every_n_layers", 3, kMaxLayers), false);
    else if (t == "llama4_text" || t == "llama4") {
      const std::vector<bool> flags = rope_flags(r, n, plan);
      for (bool rope : flags) plan.slots.push_back(Slot{rope ? "chunked_attention" : "full_attention", "", {}, rope, false});
      plan.typed = true;
    } else if (t == "smollm3") {
      const std::vector<bool> flags = rope_flags(r, n, plan);
      const json* use = Reader::present(c, "use_sliding_window");
      const bool sliding = use && boolean(*use, "use_sliding_window") && Reader::present(c, "sliding_window");
      for (bool rope : flags) plan.slots.push_back(Slot{sliding && !rope ? "sliding_attention" : "full_attention", "", {}, rope, false});
      plan.typed = sliding;
    } else if (t == "qwen3_next") {
      // Qwen3NextConfig: "linear_attention" if (i + 1) % full_attention_interval else "full_attention"
      const long long every = positive(r, "full_attention_interval", 4, kMaxLayers);
      for (int i = 0; i < n; ++i) {
        Slot s;
        s.type = (i + 1) % every != 0 ? "linear_attention" : "full_attention";
        plan.slots.push_back(s);
      }
      plan.typed = true;
    } else if (is_one_of(t, {"qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "qwen2_vl", "qwen2_5_vl", "qwen2_vl_text", "qwen2_5_vl_text"})) {
      const json* use = Reader::present(c, "use_sliding_window");
      const bool sliding = use && boolean(*use, "use_sliding_window") && Reader::present(c, "sliding_window");
      long long first = n;
      if (sliding) first = Reader::present(c, "max_window_layers") ? integer(*Reader::present(c, "max_window_layers"), "max_window_layers", 0, kMaxLayers) : n;
      for (int i = 0; i < n; ++i) plan.slots.push_back(Slot{i >= first ? "sliding_attention" : "full_attention", "", {}, true, false});
      plan.typed = sliding;
    }
  }
  // A model with one kind of layer: every layer full, or in a window (Mistral).
  if (plan.slots.empty()) {
    const bool sliding = is_one_of(t, {"mistral", "mixtral"}) && Reader::present(c, "sliding_window");
    Slot s{sliding ? "sliding_attention" : "full_attention", "", {}, true, false};
    plan.slots.assign(plan.count ? static_cast<std::size_t>(*plan.count) : 1, s);
  }
  for (Slot& s : plan.slots) attention_of(r, s);
  // Which layers rotate.
  if ((t == "llama4_text" || t == "llama4" || t == "smollm3") && plan.count && types) {
    const std::vector<bool> flags = rope_flags(r, *plan.count, plan);
    for (std::size_t i = 0; i < plan.slots.size(); ++i) plan.slots[i].rotates = plan.slots[i].rotates && flags[i];
  }
  if (t == "llama4_text" || t == "llama4" || t == "smollm3") plan.nope_rule = t == "smollm3" ? "smollm3" : "llama4";
  if (t == "cohere2") {
    // modeling_cohere2.py: `if self.sliding_window is not None: apply_rotary_pos_emb(...)`
    for (Slot& s : plan.slots)
      if (s.attention != "sliding") s.rotates = false;
    plan.nope_rule = "cohere2";
  }
  return plan;
}

// [SECTION] Where each layer type reads its RoPE

bool keyed_parameters(const json* p, const Plan& plan) {
  if (!p || !p->is_object() || p->empty()) return false;
  std::set<std::string> types;
  for (const Slot& s : plan.slots) types.insert(s.type);
  for (auto it = p->begin(); it != p->end(); ++it) {
    const bool named = plan.typed ? types.count(it.key()) == 1
                                  : is_one_of(it.key(), {"full_attention", "sliding_attention", "chunked_attention", "linear_attention"});
    if (!named) return false;
  }
  return true;
}

struct Sources {
  std::map<std::string, RopeSource> by_type;  ///< layer type → source ("" for every layer)
  bool keyed = false;
};

Sources rope_sources(Reader& r, Plan& plan) {
  const json& c = r.config();
  const std::string& t = r.type();
  Sources out;
  const json* params = Reader::present(c, "rope_parameters");
  const json* scaling = Reader::present(c, "rope_scaling");
  if (keyed_parameters(params, plan)) {
    out.keyed = true;
    for (Slot& s : plan.slots) {
      if (out.by_type.count(s.type) || s.mixer) continue;
      const std::string where = "rope_parameters." + s.type;
      auto found = params->find(s.type);
      if (found == params->end()) {
        if (!s.rotates) continue;
        missing(where, "is needed: layer_types names " + s.type + " and rope_parameters is keyed by layer type",
                Reason{"model_rope_parameters_type", {{"type", s.type}}, {}});
      }
      if (found->is_null()) {  // v5: no RoPE for this layer type (Cohere's newer configs)
        for (Slot& other : plan.slots)
          if (other.type == s.type) other.rotates = false;
        if (plan.nope_rule.empty()) plan.nope_rule = "keyed";
        continue;
      }
      RopeSource src;
      src.scaling = &*found;
      src.where = where;
      // Gemma 4's full layers use global_head_dim (modeling_gemma4: head_dim_key="global_head_dim")
      if (s.type == "full_attention" && is_one_of(t, {"gemma4_text", "gemma4"}))
        if (const json* g = Reader::present(c, "global_head_dim")) {
          src.head_dim = g;
          src.head_dim_name = "global_head_dim";
        }
      out.by_type[s.type] = src;
    }
    return out;
  }
  // One scaling object for the model: transformers (v4 and v5) takes
  // rope_scaling when both are there (`rope_scaling or rope_parameters`).
  RopeSource shared;
  if (scaling) {
    shared.scaling = scaling;
    shared.where = "rope_scaling";
    if (params && !params->is_null() && *params != *scaling)
      r.warn("model.warning.both_scaling_keys", {}, "both_scaling_keys");
  } else if (params) {
    shared.scaling = params;
    shared.where = "rope_parameters";
  }
  if (t == "gemma3_text" || t == "gemma3") {
    RopeSource full = shared;  // rope_theta (1e6) and rope_scaling: the global layers only
    RopeSource local;
    local.where = shared.where;
    local.scaling = shared.scaling;
    local.scaling_ignored = true;
    local.base = Reader::present(c, "rope_local_base_freq");
    local.base_name = "rope_local_base_freq";
    if (!local.base) local.default_base = 10000;
    out.by_type["full_attention"] = full;
    out.by_type["sliding_attention"] = local;
    return out;
  }
  if (t == "modernbert") {
    RopeSource global = shared, local = shared;  // rope_scaling updates both
    global.base = Reader::present(c, "global_rope_theta");
    global.base_name = "global_rope_theta";
    if (!global.base) global.default_base = 160000;
    local.base = Reader::present(c, "local_rope_theta");
    local.base_name = "local_rope_theta";
    if (!local.base) local.default_base = 10000;
    out.by_type["full_attention"] = global;
    out.by_type["sliding_attention"] = local;
    return out;
  }
  out.by_type[""] = shared;
  return out;
}

const RopeSource& source_for(const Sources& sources, const Slot& s) {
  auto it = sources.by_type.find(s.type);
  if (it != sources.by_type.end()) return it->second;
  return sources.by_type.at("");
}

bool has_source(const Sources& sources, const Slot& s) {
  return sources.by_type.count(s.type) == 1 || sources.by_type.count("") == 1;
}

int attention_rank(const std::string& attention) {
  return attention == "full" ? 3 : attention == "chunked" ? 2 : attention == "sliding" ? 1 : 0;
}

// [SECTION] Groups

void add_to_groups(std::vector<LayerGroup>& groups, LayerGroup g, std::optional<int> index) {
  for (LayerGroup& existing : groups)
    if (existing.same_as(g)) {
      if (index) existing.indices.push_back(*index);
      return;
    }
  if (index) g.indices = {*index};
  groups.push_back(std::move(g));
}

LayerGroup group_of(const Slot& s, const RopeFacts* facts, bool typed) {
  LayerGroup g;
  g.kind = s.mixer ? "none" : (s.rotates && facts ? "rope" : "nope");
  if (typed) g.layer_type = s.type;
  if (!s.mixer) {
    g.attention = s.attention;
    g.window = s.window;
  }
  if (g.kind == "rope") {
    g.base = facts->base;
    g.rotary_dim = facts->rotary_dim;
    g.head_dim = facts->head_dim;
    g.layout = facts->layout;
    g.method = facts->method;
    g.factor = facts->factor;
    g.mrope_section = facts->mrope_section;
    g.mrope_interleaved = facts->mrope_interleaved;
  }
  return g;
}

// [SECTION] Warnings

std::vector<int> indices_where(const std::vector<LayerGroup>& groups, const std::function<bool(const LayerGroup&)>& pick) {
  std::vector<int> out;
  for (const LayerGroup& g : groups)
    if (pick(g)) out.insert(out.end(), g.indices.begin(), g.indices.end());
  std::sort(out.begin(), out.end());
  return out;
}

/// Llama 4's attn_temperature_tuning (a bool; older configs wrote 4 or 0).
bool llama4_tuning(Reader& r) {
  const json* tuning = Reader::present(r.config(), "attn_temperature_tuning");
  if (!tuning) return true;
  return tuning->is_boolean() ? tuning->get<bool>() : number(*tuning, "attn_temperature_tuning", -1e9, 1e9) != 0;
}

void layer_warnings(Reader& r, const Plan& plan, const Sources& sources) {
  ModelReading& out = r.out();
  const std::vector<LayerGroup>& groups = out.layers;
  const std::string& t = r.type();
  const std::vector<int> nope = indices_where(groups, [](const LayerGroup& g) { return g.kind == "nope"; });
  const std::vector<int> rope = indices_where(groups, [](const LayerGroup& g) { return g.kind == "rope"; });
  const int total = out.num_layers.value_or(0);
  if (!nope.empty()) {
    const Args args = {{"layers", layer_list_text(nope)}, {"n", n_text(static_cast<long long>(nope.size()))},
                       {"total", n_text(total)}, {"rope", n_text(static_cast<long long>(rope.size()))}};
    if (plan.nope_rule == "llama4")
      r.warn(llama4_tuning(r) ? "model.warning.nope_layers_llama4" : "model.warning.nope_layers_llama4_untuned", args, "nope_layers");
    else if (plan.nope_rule == "smollm3") r.warn("model.warning.nope_layers_smollm3", args, "nope_layers");
    else if (plan.nope_rule == "cohere2") r.warn("model.warning.nope_layers_cohere2", args, "nope_layers");
    else r.warn("model.warning.nope_layers", args, "nope_layers");
  }
  if (plan.no_rope_layers_empty)
    r.warn(t == "smollm3" ? "model.warning.no_rope_layers_empty_smollm3" : "model.warning.no_rope_layers_empty",
           {{"layers", layer_list_text(nope)}}, "no_rope_layers_empty");
  // A factor on some rotating layers only (Gemma 3's linear ×8 on its global layers).
  std::vector<const LayerGroup*> scaled, plain;
  for (const LayerGroup& g : groups) {
    if (g.kind != "rope") continue;
    (g.method == "none" || g.method == "proportional" ? plain : scaled).push_back(&g);
  }
  if (!scaled.empty() && !plain.empty()) {
    std::vector<int> on, off;
    for (const LayerGroup* g : scaled) on.insert(on.end(), g->indices.begin(), g->indices.end());
    for (const LayerGroup* g : plain) off.insert(off.end(), g->indices.begin(), g->indices.end());
    std::sort(on.begin(), on.end());
    std::sort(off.begin(), off.end());
    const LayerGroup& s = *scaled.front();
    const LayerGroup& p = *plain.front();
    // Gemma 3's legacy keys put rope_scaling on the global layers; otherwise
    // it is rope_parameters keyed by layer type that gives each its own.
    r.warn(sources.keyed ? "model.warning.scaling_some_layers_keyed" : "model.warning.scaling_some_layers",
           {{"method", s.method}, {"factor", num(s.factor.value_or(1))}, {"type", t}, {"on", layer_list_text(on)}, {"n_on", n_text(static_cast<long long>(on.size()))},
            {"type_on", s.layer_type.empty() ? "—" : s.layer_type}, {"off", layer_list_text(off)},
            {"n_off", n_text(static_cast<long long>(off.size()))}, {"type_off", p.layer_type.empty() ? "—" : p.layer_type},
            {"b_on", num(s.base.value_or(0))}, {"b_off", num(p.base.value_or(0))}},
           "scaling_some_layers");
  } else {
    std::set<double> bases;
    for (const LayerGroup& g : groups)
      if (g.kind == "rope" && g.base) bases.insert(*g.base);
    if (bases.size() > 1) {
      std::string text;
      for (const LayerGroup& g : groups)
        if (g.kind == "rope")
          text += (text.empty() ? "" : "; ") + (g.layer_type.empty() ? std::string("layers") : g.layer_type) + " " +
                  layer_list_text(g.indices) + ": b = " + grouped(*g.base);
      r.warn("model.warning.layer_bases", {{"bases", text}});
    }
  }
  // Keys only some tools read.
  const json& c = r.config();
  auto legacy = [&](const char* key, const char* instead) {
    if (Reader::present(c, key) && !sources.keyed) r.warn("model.warning.legacy_key", {{"key", key}, {"instead", instead}}, "legacy_key");
  };
  if (t == "gemma3_text" || t == "gemma3") legacy("rope_local_base_freq", "rope_parameters.sliding_attention.rope_theta");
  if (t == "modernbert") {
    legacy("global_rope_theta", "rope_parameters.full_attention.rope_theta");
    legacy("local_rope_theta", "rope_parameters.sliding_attention.rope_theta");
  }
  if (!Reader::present(c, "layer_types") && (t == "gemma3_text" || t == "gemma3" || t == "cohere2") &&
      Reader::present(c, "sliding_window_pattern"))
    r.warn("model.warning.legacy_key", {{"key", "sliding_window_pattern"}, {"instead", "layer_types"}}, "legacy_key");
}

// [SECTION] Query scales

std::string fixed(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.5f", x);
  return buf;
}

std::string value_text(const QueryScale& q) {
  std::string out;
  for (const auto& v : q.values) out += (out.empty() ? "" : ", ") + grouped(static_cast<double>(v.first)) + " → " + fixed(v.second);
  return out;
}

/// Llama 4 (modeling_llama4.py Llama4TextAttention): on NoPE layers, with
/// attn_temperature_tuning, query × (log(floor((p + 1)/floor_scale) + 1)·attn_scale + 1),
/// p the position (cache_position, from 0).
void llama4_temperature(Reader& r, const std::vector<int>& nope) {
  if (!llama4_tuning(r) || nope.empty()) return;
  std::string fname, sname;
  const json* f = r.field({"floor_scale"}, &fname);
  const json* a = r.field({"attn_scale"}, &sname);
  const double floor_scale = f ? static_cast<double>(integer(*f, "floor_scale", 1, kMaxContext)) : 8192;
  const double attn_scale = a ? number(*a, "attn_scale", 0, 1e3) : 0.1;
  QueryScale q;
  q.kind = "llama4_temperature";
  q.formula = "scale(p) = 1 + attn_scale·ln(floor((p + 1)/floor_scale) + 1)";
  q.layers = nope;
  q.parameters = {{"floor_scale", floor_scale}, {"attn_scale", attn_scale}};
  auto at = [&](long long p) { return 1 + attn_scale * std::log(std::floor(static_cast<double>(p + 1) / floor_scale) + 1); };
  const long long F = static_cast<long long>(floor_scale);
  std::vector<long long> positions = {F - 2, F - 1, 8 * F - 1};
  if (const std::optional<long long> m = max_positions(r); m && *m - 1 > 8 * F - 1) positions.push_back(*m - 1);
  for (long long p : positions)
    if (p >= 0) q.values.emplace_back(p, at(p));
  r.warn("model.warning.llama4_temperature",
         {{"layers", layer_list_text(nope)}, {"F", n_text(F)}, {"a", num(attn_scale)}, {"values", value_text(q)}});
  r.out().query_scales.push_back(std::move(q));
}

/// Ministral 3 / Mistral 3+ (modeling_ministral3.py _get_llama_4_attn_scale):
/// on every layer, query × (1 + beta·ln(1 + floor(p / original_max_position_embeddings))).
void llama4_scaling_beta(Reader& r, const RopeSource& primary) {
  const json* s = primary.scaling;
  const json* beta_v = s && s->is_object() ? Reader::present(*s, "llama_4_scaling_beta") : nullptr;
  if (!beta_v) return;
  const std::string where = primary.where;
  const double beta = number(*beta_v, at(where, "llama_4_scaling_beta"), 0, 1e3);
  const json* o = Reader::present(*s, "original_max_position_embeddings");
  if (!o)
    missing(at(where, "original_max_position_embeddings"), "is needed with llama_4_scaling_beta (the length the query scale counts in)",
            Reason{"model_beta_needs_original", {}, {}});
  const long long L = integer(*o, at(where, "original_max_position_embeddings"), 1, kMaxContext);
  QueryScale q;
  q.kind = "llama4_scaling_beta";
  q.formula = "scale(p) = 1 + beta·ln(1 + floor(p/original_max_position_embeddings))";
  q.parameters = {{"beta", beta}, {"original_max_position_embeddings", static_cast<double>(L)}};
  auto at_p = [&](long long p) { return 1 + beta * std::log(1 + std::floor(static_cast<double>(p) / static_cast<double>(L))); };
  std::vector<long long> positions = {L - 1, L, 4 * L};
  if (const std::optional<long long> m = max_positions(r); m && *m - 1 > 4 * L) positions.push_back(*m - 1);
  for (long long p : positions) q.values.emplace_back(p, at_p(p));
  r.warn("model.warning.llama4_scaling_beta",
         {{"where", where}, {"beta", num(beta)}, {"L", n_text(L)}, {"values", value_text(q)}});
  r.out().query_scales.push_back(std::move(q));
}

/// vLLM's spelling of Mistral's query scale: a top-level `llama_4_scaling`
/// {"beta", "original_max_position_embeddings"} (Mistral's params.json
/// layout). transformers reads only rope_parameters.llama_4_scaling_beta, so
/// it is warned about, with the values vLLM gives it.
void llama4_scaling_toplevel(Reader& r) {
  const json* v = Reader::present(r.config(), "llama_4_scaling");
  if (!v) return;
  Args args = {{"value", shown(*v)}, {"beta", "?"}, {"L", "?"}, {"values", "—"}};
  const json* beta_v = v->is_object() ? Reader::present(*v, "beta") : nullptr;
  const json* o = v->is_object() ? Reader::present(*v, "original_max_position_embeddings") : nullptr;
  if (beta_v && o && beta_v->is_number() && o->is_number()) {
    const double beta = number(*beta_v, "llama_4_scaling.beta", 0, 1e3);
    const long long L = integer(*o, "llama_4_scaling.original_max_position_embeddings", 1, kMaxContext);
    QueryScale q;
    for (long long p : {L - 1, L, 4 * L})
      q.values.emplace_back(p, 1 + beta * std::log(1 + std::floor(static_cast<double>(p) / static_cast<double>(L))));
    args = {{"value", shown(*v)}, {"beta", num(beta)}, {"L", n_text(L)}, {"values", value_text(q)}};
  }
  r.warn("model.warning.llama_4_scaling_toplevel", args);
}

/// Qwen-1's remote code (modeling_qwen.py): use_logn_attn multiplies the
/// query at position i (from 1) by log_L(i) for i > L = seq_length;
/// use_dynamic_ntk grows the base as the sequence does.
void qwen_extensions(Reader& r) {
  const json& c = r.config();
  if (r.type() != "qwen") return;
  // Qwen-1 trains on seq_length tokens; its max_position_embeddings only sizes a mask buffer.
  std::string name = "seq_length";
  std::optional<long long> L;
  if (const json* s = Reader::present(c, "seq_length")) L = integer(*s, "seq_length", 1, kMaxContext);
  else L = max_positions(r, &name);
  if (!L) return;
  r.out().trained_context = L;
  const json* ntk = Reader::present(c, "use_dynamic_ntk");
  if (ntk && boolean(*ntk, "use_dynamic_ntk")) {
    const int d = r.out().rotary_dim.value_or(128);
    auto alpha = [&](double len) { return std::max(std::pow(2.0, std::ceil(std::log2(len / static_cast<double>(*L)) + 1)) - 1, 1.0); };
    const double base = r.out().params.value("base", 10000.0);
    const double a2 = alpha(2.0 * static_cast<double>(*L)), a4 = alpha(4.0 * static_cast<double>(*L));
    r.warn("model.warning.qwen_dynamic_ntk",
           {{"L", n_text(*L)}, {"L2", n_text(2 * *L)}, {"a2", num(a2)}, {"b2", num(base * std::pow(a2, d / (d - 2.0)))},
            {"L4", n_text(4 * *L)}, {"a4", num(a4)}, {"b4", num(base * std::pow(a4, d / (d - 2.0)))}, {"field", name}});
  }
  const json* logn = Reader::present(c, "use_logn_attn");
  if (logn && boolean(*logn, "use_logn_attn")) {
    QueryScale q;
    q.kind = "logn";
    q.formula = "scale(i) = log_L(i) for i > L (i the position from 1, L = " + name + "), else 1";
    q.parameters = {{name, static_cast<double>(*L)}};
    for (long long i : {*L, 2 * *L, 4 * *L}) q.values.emplace_back(i, i > *L ? std::log(static_cast<double>(i)) / std::log(static_cast<double>(*L)) : 1.0);
    r.warn("model.warning.qwen_logn", {{"L", n_text(*L)}, {"field", name}, {"values", value_text(q)}});
    r.out().query_scales.push_back(std::move(q));
  }
}

}  // namespace

// [SECTION] read_rope_layers

void read_rope_layers(Reader& r) {
  ModelReading& out = r.out();
  Plan plan = plan_layers(r);
  Sources sources = rope_sources(r, plan);
  out.num_layers = plan.count;

  // The primary layers: those that rotate with the largest context.
  const Slot* primary = nullptr;
  for (const Slot& s : plan.slots)
    if (s.rotates && !s.mixer && has_source(sources, s) &&
        (!primary || attention_rank(s.attention) > attention_rank(primary->attention)))
      primary = &s;
  if (!primary) {  // no layer rotates: a model with no position encoding
    out.family = "none";
    out.trained_context = max_positions(r);
    for (std::size_t i = 0; i < plan.slots.size(); ++i) {
      Slot s = plan.slots[i];
      s.rotates = false;
      add_to_groups(out.layers, group_of(s, nullptr, plan.typed), plan.count ? std::optional<int>(static_cast<int>(i)) : std::nullopt);
    }
    layer_warnings(r, plan, sources);
    return;
  }
  const RopeSource& primary_source = source_for(sources, *primary);
  std::map<std::string, RopeFacts> facts;
  const std::string primary_key = sources.by_type.count(primary->type) ? primary->type : "";
  facts[primary_key] = read_rope(r, primary_source);
  for (const auto& entry : sources.by_type) {
    if (entry.first == primary_key) continue;
    bool used = false;
    for (const Slot& s : plan.slots) used = used || (s.rotates && !s.mixer && (s.type == entry.first || entry.first.empty()));
    if (!used) continue;
    ModelReading scratch;  // its params and warnings belong to the primary reading's
    Reader other(r.config(), scratch, r.type());
    facts[entry.first] = read_rope(other, entry.second);
    for (const std::string& d : scratch.defaulted) r.note_default(d);
  }
  for (std::size_t i = 0; i < plan.slots.size(); ++i) {
    const Slot& s = plan.slots[i];
    const RopeFacts* f = nullptr;
    if (s.rotates && !s.mixer && has_source(sources, s)) f = &facts.at(sources.by_type.count(s.type) ? s.type : "");
    add_to_groups(out.layers, group_of(s, f, plan.typed), plan.count ? std::optional<int>(static_cast<int>(i)) : std::nullopt);
  }
  // The pair layout of the primary layers, so the RoPE lesson pairs the
  // dimensions as the model does (its default is interleaved; Llama's is
  // half); the scaling lesson does not read it.
  if (out.view == "rope") out.params["layout"] = facts.at(primary_key).layout;
  layer_warnings(r, plan, sources);
  if (plan.nope_rule == "llama4") {
    const std::vector<int> nope = indices_where(out.layers, [](const LayerGroup& g) { return g.kind == "nope"; });
    llama4_temperature(r, nope);
  }
  llama4_scaling_beta(r, primary_source);
  llama4_scaling_toplevel(r);
  qwen_extensions(r);
}

void read_uniform_layers(Reader& r, const std::string& kind) {
  ModelReading& out = r.out();
  out.num_layers = layer_count(r);
  LayerGroup g;
  g.kind = kind;
  g.attention = "full";
  if (out.num_layers)
    for (int i = 0; i < *out.num_layers; ++i) g.indices.push_back(i);
  out.layers = {g};
}

void read_hybrid_layers(Reader& r) {
  ModelReading& out = r.out();
  out.num_layers = layer_count(r);
  const long long period = positive(r, "attn_layer_period", 8, kMaxLayers);
  long long offset = 4;
  if (const json* o = Reader::present(r.config(), "attn_layer_offset")) offset = integer(*o, "attn_layer_offset", 0, kMaxLayers);
  else r.note_default("attn_layer_offset");
  if (offset >= period)
    throw InvalidParameter("attn_layer_offset", n_text(offset), "must be < attn_layer_period = " + n_text(period),
                           Reason{"model_offset_period", {{"period", n_text(period)}}, {}});
  if (!out.num_layers) {
    out.layers = {LayerGroup{.kind = "nope", .attention = "full"}};
    return;
  }
  for (int i = 0; i < *out.num_layers; ++i) {
    const bool attention = i % period == offset;
    LayerGroup g;
    g.kind = attention ? "nope" : "none";
    if (attention) g.attention = "full";
    add_to_groups(out.layers, g, i);
  }
  const std::vector<int> attention = indices_where(out.layers, [](const LayerGroup& g) { return g.kind == "nope"; });
  r.warn("model.warning.hybrid_no_position",
         {{"layers", layer_list_text(attention)}, {"n", n_text(static_cast<long long>(attention.size()))},
          {"total", n_text(*out.num_layers)}, {"type", r.type()}});
}

}  // namespace poslab::app::model_detail
