#pragma once
// The notation card: one symbol per idea across every lesson
// (assets/notation.json; docs/NOTATION.md repeats it for readers of the docs).

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace poslab::app {

struct NotationEntry {
  std::string symbol;  ///< as written in the texts, e.g. "θᵢ"
  std::string key;     ///< the parameter it is, or empty
  std::string en, zh;  ///< what it means
};

/// Reads assets/notation.json. Raises IoError or core::InvalidParameter("notation", …).
std::vector<NotationEntry> load_notation(const std::filesystem::path& assets);

/// The entries whose symbol occurs in `text` (a one-letter symbol only as a
/// word of its own: the "m" of "m − n", not of "mean"), in card order.
std::vector<const NotationEntry*> symbols_in(std::string_view text, const std::vector<NotationEntry>& card);

}  // namespace poslab::app
