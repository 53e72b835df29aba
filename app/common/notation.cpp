#include "app/common/notation.hpp"

#include <nlohmann/json.hpp>

#include "app/common/assets.hpp"
#include "poslab/core/errors.hpp"

namespace poslab::app {

std::vector<NotationEntry> load_notation(const std::filesystem::path& assets) {
  const std::string text = read_text_file(assets / "notation.json");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    throw core::InvalidParameter("notation", "notation.json", "is not valid JSON");
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

}  // namespace poslab::app
