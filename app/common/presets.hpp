#pragma once
// Presets: named parameter sets from assets/presets/*.json, e.g. the RoPE
// settings of Llama 3.1 8B. Each file:
//   {"id": "llama3.1-8b", "name": "Llama 3.1 8B", "view": "scaling",
//    "note": "one line on why it is interesting",
//    "params": {"base": 500000, "method": "llama3", ...}}

#include <filesystem>
#include <string>
#include <vector>

#include "poslab/core/params.hpp"

namespace poslab::app {

struct Preset {
  std::string id;
  std::string name;
  std::string note;
  std::string view;  ///< the lesson it opens on (may be empty)
  /// key → value as typed ("1e6", "half", "0:9").
  std::vector<std::pair<std::string, std::string>> params;

  /// Sets every parameter of the preset on `params` (all or nothing).
  /// Raises core::InvalidParameter.
  void apply(core::Params& params) const;
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
