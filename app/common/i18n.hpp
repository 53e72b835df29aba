#pragma once
// Translations: every string a user reads comes from assets/i18n/<lang>/*.json
// (flat objects, key → text), looked up by key. English is the fallback for a
// key missing in another language; a key missing everywhere shows as the key
// itself (and tests/app/test_i18n.cpp fails).

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace poslab::app {

class Translator {
 public:
  Translator() = default;

  /// Loads `lang` ("en" or "zh") from <assets>/i18n, with English underneath.
  /// Raises IoError / core::InvalidParameter("lang", …) on a missing or broken file.
  static Translator load(const std::filesystem::path& assets, std::string_view lang);

  /// The text of `key` (falls back to English, then to the key itself).
  const std::string& operator()(std::string_view key) const;

  /// The text of `key` with {name} placeholders replaced, e.g.
  /// tr.format("t5.readout", {{"n", "12"}}). One pass over the text: braces in
  /// the values are never filled, and a {name} without an argument stays.
  std::string format(std::string_view key, const std::vector<std::pair<std::string, std::string>>& args) const;

  /// True if `key` exists in the chosen language itself (not via fallback).
  bool has(std::string_view key) const;

  /// The text of `key` in the chosen language or English, or nullptr when
  /// neither has it (for optional keys, e.g. a table's caption).
  const std::string* find(std::string_view key) const;

  const std::string& lang() const { return lang_; }

  /// The keys looked up so far that neither language has (shown as the key
  /// itself), for tests.
  std::vector<std::string> missing_keys() const;

  /// Every key → text of one language folder (for tests and tools).
  static std::map<std::string, std::string, std::less<>> read_language(const std::filesystem::path& assets,
                                                                       std::string_view lang);

 private:
  std::string lang_ = "en";
  std::map<std::string, std::string, std::less<>> strings_;   // chosen language
  std::map<std::string, std::string, std::less<>> fallback_;  // English
  mutable std::map<std::string, std::string, std::less<>> missing_;
};

/// "en" or "zh" from a locale string such as "zh_CN.UTF-8" (anything else → "en").
std::string language_from_locale(std::string_view locale);

/// The language the system locale asks for ($LC_ALL, $LC_MESSAGES, $LANG).
std::string system_language();

/// "Predict: text" — a label and what follows it: one space after an ASCII
/// colon, none after a full-width one (先猜一猜：text), whose glyph has it.
std::string labelled(std::string_view label, std::string_view text);

}  // namespace poslab::app
