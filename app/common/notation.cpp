#include "app/common/notation.hpp"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "app/common/assets.hpp"
#include "app/common/json_input.hpp"
#include "poslab/core/errors.hpp"

namespace poslab::app {

std::vector<NotationEntry> load_notation(const std::filesystem::path& assets) {
  const std::string text = read_text_file(assets / "notation.json");
  nlohmann::json j;
  try {
    j = parse_json_input(text);
  } catch (const JsonInputError& e) {
    throw core::InvalidParameter("notation", "notation.json", e.what(), e.reason());
  }
  if (!j.is_object() || j.value("format", "") != "poslab-notation" || !j.contains("symbols") || !j["symbols"].is_array())
    throw core::InvalidParameter("notation", "notation.json", "is not a poslab notation file");
  std::vector<NotationEntry> out;
  for (const auto& s : j["symbols"]) {
    if (!s.is_object() || !s.contains("symbol") || !s["symbol"].is_string() || !s.contains("en") || !s["en"].is_string())
      throw core::InvalidParameter("notation", "notation.json", "every symbol needs \"symbol\" and \"en\"");
    out.push_back({s["symbol"].get<std::string>(), s.value("key", ""), s["en"].get<std::string>(), s.value("zh", "")});
  }
  return out;
}

namespace {

bool word_char(unsigned char c) { return std::isalnum(c) || c == '_'; }

/// A prime, a sub- or superscript at text[at]: "q′" and "θᵢ" are other symbols than "q" and "θ".
bool marks_symbol(std::string_view text, std::size_t at) {
  static constexpr std::string_view kMarks[] = {"′", "″", "ᵢ", "ₕ", "₁", "₂", "²", "³", "⁻", "ᵀ"};
  for (std::string_view m : kMarks)
    if (text.substr(at, m.size()) == m) return true;
  return false;
}

/// `part` occurs in `text`; a plain ASCII word only with no letter or digit on either side.
bool occurs(std::string_view text, std::string_view part) {
  if (part.empty()) return false;
  const bool ascii_word = std::all_of(part.begin(), part.end(), [](char c) { return word_char(static_cast<unsigned char>(c)); });
  for (std::size_t at = text.find(part); at != std::string_view::npos; at = text.find(part, at + 1)) {
    if (!ascii_word) return true;
    const bool left = at == 0 || !word_char(static_cast<unsigned char>(text[at - 1]));
    const std::size_t end = at + part.size();
    const bool right = end >= text.size() || (!word_char(static_cast<unsigned char>(text[end])) && !marks_symbol(text, end));
    if (left && right) return true;
  }
  return false;
}

}  // namespace

std::vector<const NotationEntry*> symbols_in(std::string_view text, const std::vector<NotationEntry>& card) {
  std::vector<const NotationEntry*> out;
  for (const NotationEntry& e : card) {
    // "q, k, v" names three symbols; any of them counts.
    std::string_view rest = e.symbol;
    bool found = false;
    while (!found && !rest.empty()) {
      const std::size_t comma = rest.find(", ");
      found = occurs(text, rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 2);
    }
    if (found) out.push_back(&e);
  }
  return out;
}

}  // namespace poslab::app
