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
  Reader(const json& config, ModelReading& out);

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
/// max_seq_len, max_sequence_length); `name` is set to the field used.
std::optional<long long> max_positions(Reader& r, std::string* name = nullptr);

/// Reads a RoPE model (model_rope.cpp).
void read_rope(Reader& r);

}  // namespace poslab::app::model_detail
