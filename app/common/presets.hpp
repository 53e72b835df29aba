#pragma once
// Presets: named parameter sets from assets/presets/*.json. A model's preset
// is its real config.json (the position fields, as published) read by
// app/model exactly as `poslab model` reads it, plus the few settings no
// config states (the pair layout):
//   {"id": "llama3.1-8b", "name": "Llama 3.1 8B",
//    "source": "meta-llama/Llama-3.1-8B config.json",
//    "note": "one line on why it is interesting",
//    "config": {"model_type": "llama", "rope_theta": 500000.0, "rope_scaling": {…}, …},
//    "params": {"layout": "interleaved"}}
// Its lesson is the reading's view; its params the reading's params, then
// "params" (which win). A preset without "config" (the notes' examples)
// gives "view" and "params" itself.

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/model/model_config.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app {

struct Preset {
  std::string id;
  std::string name;
  std::string note;
  std::string view;  ///< the lesson it opens on (may be empty)
  std::string source;  ///< the config.json it reproduces ("" when it has none)
  std::string source_zh;  ///< the same in Chinese, where `source` has words to translate ("" = use `source`)
  /// The model read from its config: model_type and the reader's warnings.
  std::string model;
  std::vector<ModelWarning> warnings;
  /// The whole reading of its config (the layer stack): null without "config".
  std::shared_ptr<const ModelReading> reading;
  /// key → value as typed ("1e6", "half", "0:9").
  std::vector<std::pair<std::string, std::string>> params;

  /// Sets every parameter of the preset on `params` (all or nothing).
  /// Raises core::InvalidParameter.
  void apply(core::Params& params) const;
  /// `source` in the language `lang` ("en" or "zh"): source_zh for zh when it is set.
  const std::string& source_in(std::string_view lang) const {
    return lang == "zh" && !source_zh.empty() ? source_zh : source;
  }
};

/// Parses one preset file's text; raises core::InvalidParameter("preset", …)
/// naming the problem (bad JSON, missing id, unknown or invalid parameter).
Preset parse_preset(std::string_view json_text, std::string_view source_name);

/// Every preset in <assets>/presets, sorted by id. Raises IoError /
/// InvalidParameter when a file cannot be read or is broken.
std::vector<Preset> load_presets(const std::filesystem::path& assets);

/// The preset with `id`; raises core::InvalidParameter("preset", id, "must be one of …").
const Preset& find_preset(const std::vector<Preset>& presets, std::string_view id);

}  // namespace poslab::app
