#pragma once
// Inside the config reader (not for other folders): the Reader that looks
// fields up with transformers' defaults and records warnings, and the checked
// number helpers every family uses. model_config.cpp reads the families and
// the entry points; model_rope.cpp reads RoPE.
//
// Every error names the config field and says why in one line; each carries a
// core::Reason (id "model_…", assets/i18n/*/model.json) so `--lang zh` and the
// GUI say it in Chinese. Every warning is a translation key
// ("model.warning.…") with its arguments, rendered in English for the JSON.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/model/model_config.hpp"

namespace poslab::app::model_detail {

using nlohmann::json;
using Args = std::vector<std::pair<std::string, std::string>>;

constexpr long long kMaxContext = 1LL << 30;  // 10^9 tokens: past any published model
constexpr long long kMaxHeads = 65536;
constexpr long long kMaxWidth = 1LL << 22;

/// A JSON value as the message shows it (at most 60 characters).
std::string shown(const json& value);

/// A number as a person writes it: 131072, 0.25, 1e+06.
std::string num(double x);

/// "rope_scaling" + "factor" → "rope_scaling.factor": the path an error names.
std::string at(const std::string& where, const char* key);

/// A finite number in [min, max] (exclusive min when `above`), else
/// InvalidParameter naming `path`.
double number(const json& v, const std::string& path, double min, double max, bool above = false);
long long integer(const json& v, const std::string& path, long long min, long long max);
bool boolean(const json& v, const std::string& path);

/// A required field that is absent: "<path> = missing: <why>".
[[noreturn]] void missing(const std::string& path, std::string why, core::Reason reason);

/// The config being read, the reading being filled, and the lookups that
/// record which fields came from transformers' defaults.
class Reader {
 public:
  /// `type` is the model_type the defaults are looked up for ("" = the
  /// config's own model_type).
  Reader(const json& config, ModelReading& out, std::string type = {});

  const std::string& type() const { return type_; }
  const json& config() const { return c_; }
  ModelReading& out() { return out_; }

  /// `object[key]` when it is there and not null.
  static const json* present(const json& object, std::string_view key);

  /// The first of `names` the config holds; else the model type's default
  /// (recorded in `defaulted`); else nothing. `name` is set to the field used.
  const json* field(std::initializer_list<const char*> names, std::string* name = nullptr);

  void note_default(const std::string& name);

  /// A warning: `key` is its text's translation key ("model.warning.<id>" or a
  /// variant of it); `id` defaults to the part after "model.warning.".
  void warn(std::string key, Args args, std::string id = {});

 private:
  const json& c_;
  ModelReading& out_;
  std::string type_;
};

/// max_position_embeddings or its legacy names (n_positions, seq_length,
/// max_seq_len, max_sequence_length, Baichuan's model_max_length); `name` is
/// set to the field used.
std::optional<long long> max_positions(Reader& r, std::string* name = nullptr);

/// Where one kind of layer reads its RoPE from: the scaling object
/// (`rope_scaling`, flat `rope_parameters`, or `rope_parameters.<layer type>`
/// in transformers v5), and what a model's own keys put beside it (Gemma 3's
/// rope_local_base_freq, ModernBERT's global/local_rope_theta, Gemma 4's
/// global_head_dim).
struct RopeSource {
  const json* scaling = nullptr;      ///< null: no scaling object
  std::string where = "rope_scaling";  ///< its path in messages
  const json* base = nullptr;         ///< a base field outside `scaling` that wins over rope_theta
  std::string base_name;              ///< its name
  std::optional<double> default_base;  ///< transformers' default base for these layers
  bool scaling_ignored = false;       ///< the layers use the plain frequencies (Gemma 3's sliding layers)
  const json* head_dim = nullptr;     ///< a head size for these layers (Gemma 4's global_head_dim)
  std::string head_dim_name;
};

/// What read_rope found for one kind of layer: the numbers of its LayerGroup.
struct RopeFacts {
  double base = 10000;  ///< the config's θ (for proportional, not poslab's base')
  int head_dim = 0;
  int rotary_dim = 0;
  std::string method = "none";  ///< none | linear | dynamic | yarn | longrope | llama3 | proportional
  std::optional<double> factor;
  std::string layout = "half";  ///< interleaved | half
  std::vector<int> mrope_section;
  std::optional<bool> mrope_interleaved;
};

/// Reads a RoPE model's frequencies from `source` into r.out() (model_rope.cpp):
/// head and rotating dims, base, rope_type and its fields, the params, the
/// warnings.
RopeFacts read_rope(Reader& r, const RopeSource& source);

/// The part of a config that holds the text model (text_config, llm_config,
/// language_config) or the config itself; `part` is set to its key ("" for
/// the top level) and `type` to the model_type its defaults are looked up for.
const json& text_part(const json& config, std::string& part, std::string& type);

/// The family of a config (rope, alibi, t5, learned, none, unknown), or a
/// refusal naming `config` when it has no position fields (model_config.cpp).
std::string detect_family(Reader& r);

/// Reads the layers of a RoPE model (model_layers.cpp): the layer count, each
/// layer's attention and whether it rotates, each layer type's RoPE (the
/// primary one into r.out(), the others beside it), the groups, the NoPE and
/// per-layer warnings, the query scales. Sets family "none" when no layer rotates.
void read_rope_layers(Reader& r);

/// The layers of a model with one encoding for every layer (ALiBi, T5,
/// learned): one group of `kind`, or Jamba's attention and Mamba layers.
void read_uniform_layers(Reader& r, const std::string& kind);
void read_hybrid_layers(Reader& r);

/// The layer count: num_hidden_layers or its legacy names; `name` is set to
/// the field used. Unset when the config does not say.
std::optional<int> layer_count(Reader& r, std::string* name = nullptr);

/// Records that params key `key` came from config field `field`.
void param_from(ModelReading& out, const std::string& key, const std::string& field);

}  // namespace poslab::app::model_detail
