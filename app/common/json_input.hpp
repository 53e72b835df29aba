#pragma once
// The one way JSON from a file is read (decks, sessions, settings, presets,
// translations, notation, model configs): files strangers send, so every
// text is checked by an iterative scanner before nlohmann::json builds a
// value from it.
//
//   - Depth: lists and objects nested deeper than `max_depth` are refused
//     where the bound is crossed; nothing recurses on the input (100,000
//     nested "[" cost a scan, not a stack).
//   - Duplicate keys: a key given twice in one object is refused with the key
//     and both places (JSON parsers disagree on which one wins; the contract
//     sets each key once). `duplicates = keep_last` reads such files as
//     Python's json does and lists the keys instead.
//   - Numbers beyond a double (1e999, -1e999, a 400-digit integer) are
//     refused naming the field; tiny ones (1e-320, 1e-400) read as the
//     subnormal or zero strtod gives — they are legal values.
//   - Broken JSON is reported with the line, the column (in characters, as
//     editors count them), the field being read and what was expected
//     ("line 12, column 5 (in scenes[1]): expected ',' or '}' after a value,
//     found '\"question\"'"), never "corrupt or truncated".
//
// Every refusal is a JsonInputError: one English line (what()) and a
// core::Reason ("json_…", assets/i18n/*/errors.json) for the other language.
// Callers wrap it in their own message: core::InvalidParameter("deck",
// source, e.what(), e.reason()) reads "deck = x.json: line 3, column 7: …".

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "poslab/core/errors.hpp"

namespace poslab::app {

/// A place in a JSON text: 1-based line and column (characters, not bytes);
/// 0 when unknown.
struct JsonPlace {
  std::size_t line = 0, column = 0;
  bool known() const { return line > 0; }
  bool operator==(const JsonPlace&) const = default;
};

/// A path to a value: object keys and list indices (0-based), from the top.
using JsonPath = std::vector<std::variant<std::string, std::size_t>>;

/// `path` as jq writes it: scenes[2].params.d; a key that is not a plain
/// word is quoted as JSON ("[\"a b\"]"); "" for the top.
std::string json_path_text(const JsonPath& path);

enum class JsonProblem {
  syntax,              ///< not JSON: line, column, what was expected
  too_deep,            ///< nested deeper than max_depth
  duplicate_key,       ///< a key twice in one object
  number_out_of_range  ///< a number no double holds
};

class JsonInputError : public std::runtime_error {
 public:
  JsonInputError(JsonProblem problem, JsonPlace place, JsonPath path, std::string detail, core::Reason reason,
                 const std::string& what);
  JsonProblem problem() const { return problem_; }
  /// Where the problem starts (a duplicate key: its second place).
  JsonPlace place() const { return place_; }
  /// The value being read (a duplicate key: the object holding it).
  const JsonPath& path() const { return path_; }
  /// duplicate_key: the key; number_out_of_range: the number as written (at
  /// most 60 characters); syntax: what was found there.
  const std::string& detail() const { return detail_; }
  /// The sentence of what(), for core::InvalidParameter and error_text.
  const core::Reason& reason() const { return reason_; }

 private:
  JsonProblem problem_;
  JsonPlace place_;
  JsonPath path_;
  std::string detail_;
  core::Reason reason_;
};

/// A key given twice when duplicates are kept: the key, the object and where.
struct JsonDuplicate {
  JsonPath object;
  std::string key;
  JsonPlace first, second;
};

struct JsonInputOptions {
  /// Lists and objects inside each other at most this deep (the top value is
  /// depth 1). Decks need 5, configs 4; 64 leaves room for any honest file.
  int max_depth = 64;
  enum class Duplicates { refuse, keep_last } duplicates = Duplicates::refuse;
  /// With keep_last: receives the keys given twice, the first 100 (may be null).
  std::vector<JsonDuplicate>* duplicates_found = nullptr;
};

/// Parses `text` (UTF-8, an optional byte order mark) into a value. Raises
/// JsonInputError; never anything from nlohmann, never a deep recursion.
nlohmann::json parse_json_input(std::string_view text, const JsonInputOptions& options = {});

/// Where the value at `path` starts in `text` (for an object member, its
/// key), found by scanning again; unknown when `text` does not hold it. For
/// messages about a value after parsing ("scene 3: \"captoin\" … (line 14,
/// column 7)"): costs one scan, so call it only to report.
JsonPlace json_place_of(std::string_view text, const JsonPath& path);

/// The sentences this reader's refusals are made of, as translation keys
/// ("error.json_expected", "error.phrase.json_value", …) with their English;
/// assets/i18n/en holds the same (tests/app/test_i18n.cpp checks).
std::vector<std::pair<std::string, std::string>> json_input_sentences();

/// "line L, column C" in English, for messages built by callers.
std::string json_place_text(JsonPlace place);

/// The name among `names` nearest `word`, for "did you mean …?" after a
/// misspelt key ("captoin" → "caption", "answr" → "answer"): at most two
/// edits away (a letter added, dropped, changed, or two neighbours swapped)
/// and fewer edits than half its letters; "" when none is that near.
std::string nearest_name(std::string_view word, std::span<const std::string_view> names);

}  // namespace poslab::app
