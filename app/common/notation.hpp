#pragma once
// The notation card: one symbol per idea across every lesson
// (assets/notation.json; docs/NOTATION.md repeats it for readers of the docs).

#include <filesystem>
#include <string>
#include <vector>

namespace poslab::app {

struct NotationEntry {
  std::string symbol;  ///< as written in the texts, e.g. "θᵢ"
  std::string key;     ///< the parameter it is, or empty
  std::string en, zh;  ///< what it means
};

/// Reads assets/notation.json. Raises IoError or core::InvalidParameter("notation", …).
std::vector<NotationEntry> load_notation(const std::filesystem::path& assets);

}  // namespace poslab::app
