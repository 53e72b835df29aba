#pragma once
// Reading a Hugging Face config.json (docs/CONTRACT.md §5): which position
// encoding the model uses, with the numbers transformers computes from it and
// the poslab parameters that reproduce it.
//
// Fields are read the way transformers' configuration_*.py and
// modeling_rope_utils.py read them:
//   v4  `rope_theta` + `rope_scaling` {"rope_type" | "type", "factor", …}
//   v5  `rope_parameters` {"rope_type", "rope_theta", "factor", …}
//   legacy names: BLOOM n_embed/n_head/seq_length, Falcon n_head, MPT
//   d_model/n_heads/max_seq_len/attn_config.alibi, NeoX rotary_pct/rotary_emb_base,
//   phi rotary_dim/partial_rotary_factor, T5 d_kv/num_heads/relative_attention_*.
// A field the config leaves out takes the default of transformers' config class
// for that model_type and is listed in `defaulted`.
//
// A model is a stack of layers, and since 2025 the layers differ: the reading
// has one LayerGroup per kind of layer (model_layers.cpp reads layer_types,
// sliding-window patterns, NoPE layers, per-layer-type rope_parameters, the
// nested text_config of multimodal checkpoints); the top-level fields describe
// the layers that rotate with the largest context.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/common/i18n.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app {

/// The largest model config file read (a Hugging Face config.json is a few
/// KB; a bigger file is the wrong file, refused before it is read whole).
constexpr std::size_t kMaxModelConfigBytes = std::size_t{16} << 20;

/// A note that teaches: what the config says, what transformers does with
/// it, and what the author probably meant.
struct ModelWarning {
  std::string id;    ///< stable (docs/CONTRACT.md §5)
  std::string text;  ///< in English
  std::string key;   ///< its translation key, "model.warning.…"
  std::vector<std::pair<std::string, std::string>> args;  ///< the key's {placeholders}
};

/// The warning in tr's language (tr.format(key, args)).
std::string model_warning_text(const Translator& tr, const ModelWarning& warning);

/// Layers that encode position the same way (docs/CONTRACT.md §5 "layers").
/// Fields that do not apply are empty / unset.
struct LayerGroup {
  /// rope | nope (attention, no position encoding) | alibi | t5 | learned |
  /// sinusoidal | none (not an attention layer: a Mamba or linear-attention mixer)
  std::string kind;
  std::string layer_type;         ///< the config's name for these layers ("sliding_attention"), if any
  std::vector<int> indices;       ///< 0-based; empty when the config does not give the layer count
  std::optional<double> base;     ///< rope: θ
  std::optional<int> rotary_dim;  ///< rope: the dimensions that rotate
  std::optional<int> head_dim;    ///< rope: the whole head
  std::string layout;             ///< rope: interleaved | half
  std::string method;             ///< rope: none | linear | dynamic | yarn | longrope | llama3 | proportional
  std::optional<double> factor;   ///< rope: the scaling factor
  std::string attention;          ///< full | sliding | chunked ("" for none)
  std::optional<long long> window;  ///< sliding / chunked: tokens
  std::vector<int> mrope_section;   ///< rope: pairs per axis (temporal, height, width)
  std::optional<bool> mrope_interleaved;

  /// Same encoding (everything but the indices).
  bool same_as(const LayerGroup& other) const;
};

/// A length-dependent factor on the queries (Llama 4's attention temperature
/// on NoPE layers, Mistral's llama_4_scaling_beta, Qwen-1's log-n): its
/// formula and its value at a few positions.
struct QueryScale {
  std::string kind;     ///< llama4_temperature | llama4_scaling_beta | logn
  std::string formula;  ///< as transformers (or the model's code) computes it
  std::vector<int> layers;  ///< the layers it applies to (empty: every layer)
  std::vector<std::pair<std::string, double>> parameters;  ///< its config values, in order
  std::vector<std::pair<long long, double>> values;        ///< (position, scale)
};

/// A second set of frequencies the same config gives (dynamic and longrope
/// without a sequence length): what transformers builds at init, next to the
/// long-context state that `params` shows.
struct FrequencyState {
  std::string name;   ///< "init" | "long_context"
  long long seq_len;  ///< the params' seq_len that reproduces it
};

struct ModelReading {
  std::string model;   ///< model_type (else architectures[0], else "unknown")
  std::string family;  ///< rope | alibi | t5 | learned | none | unknown
  std::string view;    ///< the lesson that shows it ("" for unknown)
  std::optional<int> head_dim;
  std::optional<int> rotary_dim;  ///< rope only: the dimensions that rotate
  std::optional<long long> trained_context;
  std::optional<long long> target_context;
  std::optional<double> attention_factor;  ///< rope only: the factor on cos and sin
  /// Contract keys (docs/CONTRACT.md §2) and values, in a stable order.
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  std::vector<std::string> defaulted;  ///< config fields taken from transformers' defaults
  std::vector<ModelWarning> warnings;
  /// longrope: the per-pair divisors (short: seq_len ≤ L, long: seq_len > L),
  /// also in `params`.
  std::vector<double> short_factor, long_factor;

  /// The part of the file read: "" (the top level) or "text_config",
  /// "llm_config", "language_config" (multimodal and Llama 4-style checkpoints).
  std::string config_part;
  std::optional<int> num_layers;  ///< unset when the config does not say
  std::vector<LayerGroup> layers;  ///< in order of their first layer
  std::vector<QueryScale> query_scales;
  std::vector<FrequencyState> states;  ///< dynamic / longrope: init and long_context
  /// params key → the config field it came from ("factor" → "rope_scaling.factor"),
  /// so a value poslab cannot take is refused under the config's name.
  std::vector<std::pair<std::string, std::string>> param_fields;

  bool has_warning(std::string_view id) const;
};

/// "3, 7, …, 47", "0–33", "5, 11, 17": a list of layer indices as a person
/// reads it. Only true arithmetic progressions are shortened (a step of six
/// items or more, a run of three or more); the rest is listed in full.
std::string layer_list_text(const std::vector<int>& indices);

/// Reads a parsed config. Raises core::InvalidParameter naming the config
/// field (e.g. "rope_scaling.factor") and what is allowed, with a Reason
/// ("model_…") for other languages.
ModelReading read_model_config(const nlohmann::json& config);

/// Parses `text` as JSON first ("config = not JSON: …" when it is not).
ModelReading read_model_config_text(std::string_view text);

/// `params` as KEY=VALUE assignments, in order (for --model on table/export).
std::vector<std::string> model_assignments(const ModelReading& reading);

/// A figure's subtitle naming the model it shows: "phi3 · <subtitle>".
std::string model_subtitle(std::string_view model, std::string_view subtitle);

/// The three output formats of `poslab model`; warnings in tr's language
/// (English when tr is null).
nlohmann::ordered_json model_reading_json(const ModelReading& reading, const Translator* tr = nullptr);
std::string model_reading_text(const ModelReading& reading, const Translator* tr = nullptr);
std::string model_reading_md(const ModelReading& reading, const Translator* tr = nullptr);

}  // namespace poslab::app
