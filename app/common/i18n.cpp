#include "app/common/i18n.hpp"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "app/common/assets.hpp"
#include "app/common/json_input.hpp"
#include "app/common/sentences.hpp"
#include "poslab/core/errors.hpp"

namespace poslab::app {

namespace fs = std::filesystem;

std::map<std::string, std::string, std::less<>> Translator::read_language(const fs::path& assets,
                                                                          std::string_view lang) {
  if (lang != "en" && lang != "zh") throw core::InvalidParameter("lang", std::string(lang), "must be en or zh");
  std::map<std::string, std::string, std::less<>> out;
  const fs::path dir = assets / "i18n" / std::string(lang);
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    nlohmann::json j;
    try {
      j = parse_json_input(read_text_file(f), {.max_depth = 2});  // {"key": "text", …}
    } catch (const JsonInputError& e) {
      throw core::InvalidParameter("lang", f.string(), std::string("translation file is not valid JSON: ") + e.what());
    }
    if (!j.is_object()) throw core::InvalidParameter("lang", f.string(), "translation file must be a JSON object");
    for (const auto& [k, v] : j.items()) {
      if (!v.is_string()) throw core::InvalidParameter("lang", f.string(), "value of \"" + k + "\" must be a string");
      out[k] = v.get<std::string>();
    }
  }
  return out;
}

Translator Translator::load(const fs::path& assets, std::string_view lang) {
  Translator t;
  t.lang_ = std::string(lang);
  t.fallback_ = read_language(assets, "en");
  t.strings_ = lang == "en" ? t.fallback_ : read_language(assets, lang);
  return t;
}

const std::string& Translator::operator()(std::string_view key) const {
  if (auto it = strings_.find(key); it != strings_.end()) return it->second;
  if (auto it = fallback_.find(key); it != fallback_.end()) return it->second;
  auto it = missing_.find(key);
  if (it == missing_.end()) it = missing_.emplace(std::string(key), std::string(key)).first;
  return it->second;
}

std::string Translator::format(std::string_view key, const std::vector<std::pair<std::string, std::string>>& args) const {
  // One pass over the template: only its own {name}s are filled, never a
  // brace inside a value (a user's "{value}=3" stays as typed).
  return fill_sentence((*this)(key), args);
}

std::vector<std::string> Translator::missing_keys() const {
  std::vector<std::string> out;
  for (const auto& [key, text] : missing_) out.push_back(key);
  return out;
}

bool Translator::has(std::string_view key) const { return strings_.find(key) != strings_.end(); }

const std::string* Translator::find(std::string_view key) const {
  if (auto it = strings_.find(key); it != strings_.end()) return &it->second;
  if (auto it = fallback_.find(key); it != fallback_.end()) return &it->second;
  return nullptr;
}

std::string language_from_locale(std::string_view locale) {
  return locale.substr(0, 2) == "zh" ? "zh" : "en";
}

std::string system_language() {
  for (const char* var : {"LC_ALL", "LC_MESSAGES", "LANG"})
    if (const char* v = std::getenv(var); v && *v) return language_from_locale(v);
  return "en";
}

std::string labelled(std::string_view label, std::string_view text) {
  const bool full_width = label.size() >= 3 && label.substr(label.size() - 3) == "：";
  std::string out(label);
  if (!full_width && !label.empty()) out += ' ';
  out += text;
  return out;
}

}  // namespace poslab::app
