#include "app/common/json_input.hpp"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <climits>
#include <cstring>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>

#include "poslab/core/float_text.hpp"
#include "app/common/sentences.hpp"
#include "app/common/utf8.hpp"

namespace poslab::app {

namespace {

using nlohmann::json;
using Args = std::vector<std::pair<std::string, std::string>>;

// [SECTION] English sentences (the same as assets/i18n/en/errors.json; tests/app/test_i18n.cpp checks)

/// The reasons ("error.<id>") and phrases ("error.phrase.<id>") this file raises.
constexpr Sentence kSentences[] = {
    {"json_expected", "{at}: expected {expected}, found {found}"},
    {"json_invalid", "{at}: {problem}"},
    {"json_too_deep", "{at}: lists and objects nested deeper than {max} levels"},
    {"json_duplicate_key", "{at}: the key {key} is given twice (first on line {first_line}); give each key once"},
    {"json_number_range", "{at}: the number {number} is beyond the range of a double (±1.8e308)"},
};
constexpr Sentence kPhrases[] = {
    {"json_at_field", "line {line}, column {column} (in {field})"},
    {"json_at_top", "line {line}, column {column}"},
    {"json_value", "a value (a number, text in double quotes, true, false, null, a list or an object)"},
    {"json_comma_list", "',' or ']' after an item of a list"},
    {"json_comma_object", "',' or '}' after a value"},
    {"json_key", "a key in double quotes"},
    {"json_colon", "':' after the key"},
    {"json_end", "the end of the file"},
    {"json_eof", "the end of the file"},
    {"json_trailing_comma", "a ',' before '{close}': JSON allows no comma after the last item"},
    {"json_smart_quote", "the typographic quote {found}: JSON needs straight double quotes (\")"},
    {"json_bad_literal",
     "{found} is not a JSON value (a number, text in double quotes, true, false, null, a list or an object)"},
    {"json_bad_number", "{found} is not a JSON number (digits with an optional '.' and exponent: no leading zeros, "
                        "no '+', no NaN or Infinity)"},
    {"json_control_char", "a control character ({char}) inside text: write it as {escape}"},
    {"json_unclosed_text", "text that is never closed with a double quote"},
    {"json_bad_escape", "{found} is not an escape JSON knows (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"},
    {"json_bad_surrogate", "{found} is half of a UTF-16 surrogate pair without its other half"},
    {"json_bad_utf8", "text that is not valid UTF-8 (byte {byte})"},
    {"json_comment", "a comment: JSON has none"},
    {"json_other", "not valid JSON here"},
};

/// The English what() of a reason: its phrases ("@name" arguments) filled
/// first, as error_text does.
std::string english(const core::Reason& r) { return english_sentence(r, kSentences, kPhrases); }

/// A reason with its phrases: {name, phrase id} become "@name" arguments.
core::Reason reason_of(std::string id, Args args, const Args& phrases) {
  for (const auto& [name, phrase] : phrases) args.emplace_back("@" + name, phrase);
  return core::Reason{std::move(id), std::move(args), {}};
}

// [SECTION] Text helpers

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_structural(char c) { return c == '[' || c == ']' || c == '{' || c == '}' || c == ',' || c == ':'; }
bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }
/// A character of a bare word (a number or a literal): printable ASCII that
/// is neither punctuation of JSON nor a quote.
bool is_word_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u > 0x20 && u < 0x7F && !is_structural(c) && c != '"';
}

/// At most `max` characters of `s`, cut at a character boundary ("…" added).
std::string shortened(std::string_view s, std::size_t max) {
  std::size_t chars = 0, i = 0;
  for (; i < s.size(); ++i) {
    if (!is_continuation(static_cast<unsigned char>(s[i])) && chars++ == max) break;
  }
  return i < s.size() ? std::string(s.substr(0, i)) + "…" : std::string(s);
}

std::string hex(unsigned value, int digits) {
  static const char* kDigits = "0123456789ABCDEF";
  std::string out(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i, value >>= 4) out[static_cast<std::size_t>(i)] = kDigits[value & 0xF];
  return out;
}

/// The length of the valid UTF-8 sequence at `s[i]` (RFC 3629, as nlohmann
/// checks it: no overlong forms, no surrogates, nothing past U+10FFFF), 0
/// when it is not one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto at = [&](std::size_t k) -> unsigned { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  const unsigned c = at(0);
  const auto in = [](unsigned x, unsigned lo, unsigned hi) { return x >= lo && x <= hi; };
  if (c < 0x80) return 1;
  if (in(c, 0xC2, 0xDF)) return in(at(1), 0x80, 0xBF) ? 2 : 0;
  if (c == 0xE0) return in(at(1), 0xA0, 0xBF) && in(at(2), 0x80, 0xBF) ? 3 : 0;
  if (in(c, 0xE1, 0xEC) || in(c, 0xEE, 0xEF)) return in(at(1), 0x80, 0xBF) && in(at(2), 0x80, 0xBF) ? 3 : 0;
  if (c == 0xED) return in(at(1), 0x80, 0x9F) && in(at(2), 0x80, 0xBF) ? 3 : 0;
  if (c == 0xF0) return in(at(1), 0x90, 0xBF) && in(at(2), 0x80, 0xBF) && in(at(3), 0x80, 0xBF) ? 4 : 0;
  if (in(c, 0xF1, 0xF3)) return in(at(1), 0x80, 0xBF) && in(at(2), 0x80, 0xBF) && in(at(3), 0x80, 0xBF) ? 4 : 0;
  if (c == 0xF4) return in(at(1), 0x80, 0x8F) && in(at(2), 0x80, 0xBF) && in(at(3), 0x80, 0xBF) ? 4 : 0;
  return 0;
}

JsonPlace place_at(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  JsonPlace p{1, 1};
  for (std::size_t i = 0; i < offset; ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++p.line;
      p.column = 1;
    } else if (!is_continuation(static_cast<unsigned char>(c))) {
      ++p.column;
    }
  }
  return p;
}

// [SECTION] The scanner

/// keep_last lists at most this many duplicate keys (each costs a scan for
/// its places; a hostile file may hold millions).
constexpr std::size_t kMaxDuplicatesListed = 100;

/// One pass over the text with an explicit stack (no recursion): checks what
/// nlohmann::json would refuse, and depth, duplicate keys and number ranges,
/// each refusal with its place and path. With a `target` path it only looks
/// for where that value starts.
class Scanner {
 public:
  Scanner(std::string_view text, const JsonInputOptions& options, const JsonPath* target = nullptr)
      : s_(text), o_(options), target_(target) {}

  void run();
  std::optional<std::size_t> target_offset() const { return found_; }

 private:
  struct Frame {
    bool object = false;
    std::size_t index = 0;  // list: the item being read
    std::string key;        // object: the key being read
    bool has_key = false;   // object: false before its first key and after each ','
    bool container_only = false;  // a refusal about the container: its path ends here
    std::unordered_map<std::string, std::size_t> keys;  // object: key → its offset
  };
  enum class State { value, after_value, key, done };

  // scanning
  void skip_blanks() {
    while (i_ < s_.size() && is_blank(s_[i_])) ++i_;
  }
  void value();
  void after_value();
  void key();
  /// Scans the string at i_ (a '"'); its decoded text into `decoded` when given.
  void string(std::string* decoded);
  void number();
  void literal();

  // targets
  JsonPath path() const;
  bool at_target() const;
  void check_target(std::size_t offset) {
    if (target_ && !found_ && at_target()) found_ = offset;
  }

  // refusals
  [[noreturn]] void refuse(JsonProblem problem, std::size_t offset, std::string id, Args args, Args phrases,
                           std::string detail);
  [[noreturn]] void expected(const char* what, std::size_t offset);
  [[noreturn]] void invalid(const char* problem, std::size_t offset, Args args = {}, std::string detail = {});
  /// A problem of the list or object being read, not of one of its items.
  [[noreturn]] void invalid_in_container(const char* problem, std::size_t offset, Args args) {
    Frame& f = stack_.back();
    f.has_key = false;
    f.container_only = true;
    invalid(problem, offset, std::move(args));
  }
  std::string token_at(std::size_t offset) const;

  std::string_view s_;
  const JsonInputOptions& o_;
  const JsonPath* target_;
  std::optional<std::size_t> found_;
  std::size_t i_ = 0;
  std::vector<Frame> stack_;
  State state_ = State::value;
};

void Scanner::run() {
  if (s_.size() >= 3 && s_.substr(0, 3) == "\xEF\xBB\xBF") i_ = 3;  // a UTF-8 byte order mark
  while (state_ != State::done) {
    if (target_ && found_) return;
    switch (state_) {
      case State::value: value(); break;
      case State::after_value: after_value(); break;
      case State::key: key(); break;
      case State::done: break;
    }
  }
}

void Scanner::value() {
  skip_blanks();
  if (i_ >= s_.size()) expected("json_value", i_);
  check_target(i_);
  const char c = s_[i_];
  if (c == '[' || c == '{') {
    if (static_cast<int>(stack_.size()) >= o_.max_depth)
      refuse(JsonProblem::too_deep, i_, "json_too_deep", {{"max", std::to_string(o_.max_depth)}}, {}, {});
    Frame f;
    f.object = c == '{';
    stack_.push_back(std::move(f));
    ++i_;
    skip_blanks();
    const char close = c == '[' ? ']' : '}';
    if (i_ < s_.size() && s_[i_] == close) {
      ++i_;
      stack_.pop_back();
      state_ = State::after_value;
    } else {
      state_ = c == '{' ? State::key : State::value;
    }
    return;
  }
  if (c == '"') string(nullptr);
  else if (c == '-' || (c >= '0' && c <= '9') || c == '+' || c == '.') number();
  else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') literal();
  else if ((c == ']' || c == '}') && i_ > 0) {
    // "[1, 2, ]": the comma before is the mistake, not the bracket.
    std::size_t k = i_;
    while (k > 0 && is_blank(s_[k - 1])) --k;
    if (k > 0 && s_[k - 1] == ',') {
      --stack_.back().index;  // the item after the comma never came
      invalid_in_container("json_trailing_comma", k - 1, {{"close", std::string(1, c)}});
    }
    expected("json_value", i_);
  } else if (c == '/') {
    invalid("json_comment", i_);
  } else {
    expected("json_value", i_);
  }
  state_ = State::after_value;
}

void Scanner::after_value() {
  skip_blanks();
  if (stack_.empty()) {
    if (i_ < s_.size()) expected("json_end", i_);
    state_ = State::done;
    return;
  }
  Frame& f = stack_.back();
  const char close = f.object ? '}' : ']';
  const char* wanted = f.object ? "json_comma_object" : "json_comma_list";
  if (i_ >= s_.size()) expected(wanted, i_);
  const char c = s_[i_];
  if (c == ',') {
    ++i_;
    if (f.object) {
      f.has_key = false;
      state_ = State::key;
    } else {
      ++f.index;
      state_ = State::value;
    }
  } else if (c == close) {
    ++i_;
    stack_.pop_back();
    state_ = State::after_value;
  } else if (c == '/') {
    invalid("json_comment", i_);
  } else {
    expected(wanted, i_);
  }
}

void Scanner::key() {
  skip_blanks();
  if (i_ >= s_.size()) expected("json_key", i_);
  if (s_[i_] == '}') {
    std::size_t k = i_;
    while (k > 0 && is_blank(s_[k - 1])) --k;
    if (k > 0 && s_[k - 1] == ',') invalid_in_container("json_trailing_comma", k - 1, {{"close", "}"}});
  }
  if (s_[i_] != '"') {
    if (s_[i_] == '/') invalid("json_comment", i_);
    expected("json_key", i_);
  }
  const std::size_t start = i_;
  std::string name;
  string(&name);
  Frame& f = stack_.back();
  const auto [it, inserted] = f.keys.emplace(name, start);
  if (!inserted) {
    if (o_.duplicates == JsonInputOptions::Duplicates::refuse) {
      const JsonPath object = path();
      const JsonPlace first = place_at(s_, it->second);
      std::string shown = json(shortened(name, 40)).dump(-1, ' ', true, json::error_handler_t::replace);
      const JsonPlace here = place_at(s_, start);
      Args args = {{"line", std::to_string(here.line)},
                   {"column", std::to_string(here.column)},
                   {"key", shown},
                   {"first_line", std::to_string(first.line)},
                   {"field", json_path_text(object)}};
      Args phrases = {{"at", object.empty() ? "json_at_top" : "json_at_field"}};
      core::Reason reason = reason_of("json_duplicate_key", std::move(args), phrases);
      const std::string what = english(reason);
      throw JsonInputError(JsonProblem::duplicate_key, here, object, name, std::move(reason), what);
    }
    if (o_.duplicates_found && o_.duplicates_found->size() < kMaxDuplicatesListed)
      o_.duplicates_found->push_back({path(), name, place_at(s_, it->second), place_at(s_, start)});
    it->second = start;
  }
  f.key = std::move(name);
  f.has_key = true;
  check_target(start);
  skip_blanks();
  if (i_ >= s_.size() || s_[i_] != ':') expected("json_colon", i_);
  ++i_;
  state_ = State::value;
}

void Scanner::string(std::string* decoded) {
  const std::size_t start = i_;
  ++i_;  // the opening quote
  while (true) {
    if (i_ >= s_.size()) invalid("json_unclosed_text", start);
    const auto c = static_cast<unsigned char>(s_[i_]);
    if (c == '"') {
      ++i_;
      return;
    }
    if (c < 0x20) {
      static const char* kNamed[32] = {"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF",
                                       "VT",  "FF",  "CR",  "SO",  "SI",  "DLE", "DC1", "DC2", "DC3", "DC4", "NAK",
                                       "SYN", "ETB", "CAN", "EM",  "SUB", "ESC", "FS",  "GS",  "RS",  "US"};
      std::string escape = "\\u" + hex(c, 4);
      if (c == '\n') escape = "\\n";
      else if (c == '\t') escape = "\\t";
      else if (c == '\r') escape = "\\r";
      invalid("json_control_char", i_, {{"char", "U+" + hex(c, 4) + " " + kNamed[c]}, {"escape", escape}});
    }
    if (c == '\\') {
      const std::size_t esc = i_;
      if (i_ + 1 >= s_.size()) invalid("json_unclosed_text", start);
      const char e = s_[i_ + 1];
      i_ += 2;
      if (e == 'u') {
        auto read4 = [&](std::size_t at) -> std::optional<unsigned> {
          if (at + 4 > s_.size()) return std::nullopt;
          unsigned v = 0;
          const auto r = std::from_chars(s_.data() + at, s_.data() + at + 4, v, 16);
          if (r.ec != std::errc() || r.ptr != s_.data() + at + 4) return std::nullopt;
          return v;
        };
        const auto unit = read4(i_);
        if (!unit) {
          std::size_t k = i_;
          while (k < s_.size() && k < i_ + 4 && std::isxdigit(static_cast<unsigned char>(s_[k]))) ++k;
          invalid("json_bad_escape", esc, {{"found", std::string(s_.substr(esc, k - esc))}});
        }
        i_ += 4;
        unsigned cp = *unit;
        if (cp >= 0xDC00 && cp <= 0xDFFF)
          invalid("json_bad_surrogate", esc, {{"found", std::string(s_.substr(esc, 6))}});
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          const auto low = i_ + 6 <= s_.size() && s_[i_] == '\\' && s_[i_ + 1] == 'u' ? read4(i_ + 2) : std::nullopt;
          if (!low || *low < 0xDC00 || *low > 0xDFFF)
            invalid("json_bad_surrogate", esc, {{"found", std::string(s_.substr(esc, 6))}});
          cp = 0x10000 + ((cp - 0xD800) << 10) + (*low - 0xDC00);
          i_ += 6;
        }
        if (decoded) utf8::append(*decoded, cp);
        continue;
      }
      const char* kSimple = "\"\\/bfnrt";
      const char* kMeant = "\"\\/\b\f\n\r\t";
      const char* at = e ? std::strchr(kSimple, e) : nullptr;
      if (!at) {
        const std::size_t n = utf8_length(s_, esc + 1);
        invalid("json_bad_escape", esc, {{"found", "\\" + (n > 1 ? std::string(s_.substr(esc + 1, n)) : std::string(1, e))}});
      }
      if (decoded) *decoded += kMeant[at - kSimple];
      continue;
    }
    const std::size_t n = utf8_length(s_, i_);
    if (n == 0) invalid("json_bad_utf8", i_, {{"byte", "0x" + hex(c, 2)}});
    if (decoded) decoded->append(s_.substr(i_, n));
    i_ += n;
  }
}

void Scanner::number() {
  const std::size_t start = i_;
  std::size_t end = i_;
  while (end < s_.size() && is_word_char(s_[end])) ++end;
  const std::string_view word = s_.substr(start, end - start);
  // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  std::size_t k = 0;
  const auto digit = [&](std::size_t at) { return at < word.size() && word[at] >= '0' && word[at] <= '9'; };
  bool ok = true;
  if (k < word.size() && word[k] == '-') ++k;
  if (!digit(k)) ok = false;
  else if (word[k] == '0') ++k;
  else
    while (digit(k)) ++k;
  if (ok && k < word.size() && word[k] == '.') {
    ++k;
    if (!digit(k)) ok = false;
    while (digit(k)) ++k;
  }
  if (ok && k < word.size() && (word[k] == 'e' || word[k] == 'E')) {
    ++k;
    if (k < word.size() && (word[k] == '+' || word[k] == '-')) ++k;
    if (!digit(k)) ok = false;
    while (digit(k)) ++k;
  }
  if (!ok || k != word.size()) invalid("json_bad_number", start, {{"found", "'" + shortened(word, 24) + "'"}});
  // Beyond a double? from_chars says out of range for both ends; only the
  // large end is refused (1e-400 reads as 0, 1e-320 as a subnormal, as strtod does).
  double x = 0;
  const auto r = core::read_double(word.data(), word.data() + word.size(), x);
  if (r.ec == std::errc::result_out_of_range) {
    // The decimal exponent: digits before the point (after leading zeros) + the exponent.
    long long e10 = 0;
    std::size_t p = word[0] == '-' ? 1 : 0;
    bool seen_nonzero = false;
    long long int_digits = 0, leading_fraction_zeros = 0;
    for (; p < word.size() && word[p] >= '0' && word[p] <= '9'; ++p)
      if (seen_nonzero || word[p] != '0') seen_nonzero = true, ++int_digits;
    if (p < word.size() && word[p] == '.')
      for (++p; p < word.size() && word[p] >= '0' && word[p] <= '9'; ++p) {
        if (seen_nonzero) continue;
        if (word[p] == '0') ++leading_fraction_zeros;
        else seen_nonzero = true;
      }
    long long exponent = 0;
    if (p < word.size() && (word[p] == 'e' || word[p] == 'E')) {
      ++p;
      const bool negative = p < word.size() && word[p] == '-';
      if (p < word.size() && (word[p] == '+' || word[p] == '-')) ++p;
      for (; p < word.size(); ++p) exponent = std::min<long long>(exponent * 10 + (word[p] - '0'), 1'000'000'000);
      if (negative) exponent = -exponent;
    }
    e10 = (int_digits > 0 ? int_digits : -leading_fraction_zeros) + exponent;
    if (e10 > 0)
      refuse(JsonProblem::number_out_of_range, start, "json_number_range", {{"number", shortened(word, 40)}}, {},
             shortened(word, 60));
  }
  i_ = end;
}

void Scanner::literal() {
  const std::size_t start = i_;
  std::size_t end = i_;
  while (end < s_.size() && is_word_char(s_[end])) ++end;
  const std::string_view word = s_.substr(start, end - start);
  if (word != "true" && word != "false" && word != "null")
    invalid("json_bad_literal", start, {{"found", "'" + shortened(word, 24) + "'"}});
  i_ = end;
}

JsonPath Scanner::path() const {
  JsonPath p;
  for (const Frame& f : stack_) {
    if ((f.object && !f.has_key) || f.container_only) break;  // between keys: the object itself
    if (f.object) p.emplace_back(f.key);
    else p.emplace_back(f.index);
  }
  return p;
}

bool Scanner::at_target() const {
  if (stack_.size() != target_->size()) return false;
  for (std::size_t k = 0; k < stack_.size(); ++k) {
    const Frame& f = stack_[k];
    const auto& want = (*target_)[k];
    if (f.object ? (!f.has_key || !std::holds_alternative<std::string>(want) || std::get<std::string>(want) != f.key)
                 : (!std::holds_alternative<std::size_t>(want) || std::get<std::size_t>(want) != f.index))
      return false;
  }
  return true;
}

std::string Scanner::token_at(std::size_t offset) const {
  if (offset >= s_.size()) return {};
  const char c = s_[offset];
  if (is_structural(c)) return std::string("'") + c + "'";
  if (c == '"') {
    std::size_t k = offset + 1;
    while (k < s_.size() && s_[k] != '"' && static_cast<unsigned char>(s_[k]) >= 0x20) k += s_[k] == '\\' ? 2 : 1;
    return shortened(s_.substr(offset, std::min(k + 1, s_.size()) - offset), 32);
  }
  const auto u = static_cast<unsigned char>(c);
  if (u < 0x20 || u == 0x7F) return "U+" + hex(u, 4);
  if (u >= 0x80) {
    const std::size_t n = utf8_length(s_, offset);
    if (n == 0) return "byte 0x" + hex(u, 2);
    return "'" + std::string(s_.substr(offset, n)) + "'";
  }
  std::size_t end = offset;
  while (end < s_.size() && is_word_char(s_[end])) ++end;
  return "'" + shortened(s_.substr(offset, end - offset), 24) + "'";
}

void Scanner::refuse(JsonProblem problem, std::size_t offset, std::string id, Args args, Args phrases, std::string detail) {
  if (target_) throw JsonInputError(problem, {}, {}, {}, {}, "");  // json_place_of: the text does not hold it
  const JsonPlace place = place_at(s_, offset);
  const JsonPath here = path();
  args.insert(args.begin(), {{"line", std::to_string(place.line)}, {"column", std::to_string(place.column)}});
  args.emplace_back("field", json_path_text(here));
  phrases.emplace_back("at", here.empty() ? "json_at_top" : "json_at_field");
  core::Reason reason = reason_of(std::move(id), std::move(args), phrases);
  const std::string what = english(reason);
  throw JsonInputError(problem, place, here, std::move(detail), std::move(reason), what);
}

void Scanner::expected(const char* what, std::size_t offset) {
  if (offset < s_.size()) {
    const std::size_t n = utf8_length(s_, offset);
    const std::string_view ch = s_.substr(offset, std::max<std::size_t>(n, 1));
    if (ch == "\u201C" || ch == "\u201D" || ch == "\u2018" || ch == "\u2019" || ch == "\u201E" || ch == "\uFF02")
      invalid("json_smart_quote", offset, {{"found", std::string(ch)}});
  }
  const std::string found = token_at(offset);
  Args phrases = {{"expected", what}};
  if (found.empty()) phrases.emplace_back("found", "json_eof");
  refuse(JsonProblem::syntax, offset, "json_expected", found.empty() ? Args{} : Args{{"found", found}},
         std::move(phrases), found);
}

void Scanner::invalid(const char* problem, std::size_t offset, Args args, std::string detail) {
  if (detail.empty())
    for (const auto& [name, value] : args)
      if (name == "found") detail = value;
  refuse(JsonProblem::syntax, offset, "json_invalid", std::move(args), {{"problem", problem}}, std::move(detail));
}

}  // namespace

// [SECTION] Entry points

JsonInputError::JsonInputError(JsonProblem problem, JsonPlace place, JsonPath path, std::string detail,
                               core::Reason reason, const std::string& what)
    : std::runtime_error(what),
      problem_(problem),
      place_(place),
      path_(std::move(path)),
      detail_(std::move(detail)),
      reason_(std::move(reason)) {}

std::string json_path_text(const JsonPath& path) {
  if (path.size() > 8) {  // 100,000 nested lists: the start and the end
    const JsonPath head(path.begin(), path.begin() + 4), tail(path.end() - 2, path.end());
    const std::string rest = json_path_text(tail);
    return json_path_text(head) + "…" + (rest[0] == '[' ? "" : ".") + rest;
  }
  std::string out;
  for (const auto& step : path) {
    if (const auto* index = std::get_if<std::size_t>(&step)) {
      out += "[" + std::to_string(*index) + "]";
      continue;
    }
    const std::string& key = std::get<std::string>(step);
    const bool word = !key.empty() && key.size() <= 40 && std::all_of(key.begin(), key.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    }) && !(key[0] >= '0' && key[0] <= '9');
    if (word) out += (out.empty() ? "" : ".") + key;
    else out += "[" + json(shortened(key, 40)).dump(-1, ' ', true, json::error_handler_t::replace) + "]";
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> json_input_sentences() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Sentence& s : kSentences) out.emplace_back(std::string("error.") + s.id, s.text);
  for (const Sentence& s : kPhrases) out.emplace_back(std::string("error.phrase.") + s.id, s.text);
  return out;
}

std::string json_place_text(JsonPlace place) {
  return "line " + std::to_string(place.line) + ", column " + std::to_string(place.column);
}

std::string nearest_name(std::string_view word, std::span<const std::string_view> names) {
  // Damerau–Levenshtein (optimal string alignment) distance, case-blind.
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  const auto distance = [&](std::string_view a, std::string_view b) {
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
    for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
    for (std::size_t k = 0; k <= m; ++k) d[0][k] = k;
    for (std::size_t i = 1; i <= n; ++i)
      for (std::size_t k = 1; k <= m; ++k) {
        const std::size_t cost = lower(a[i - 1]) == lower(b[k - 1]) ? 0 : 1;
        d[i][k] = std::min({d[i - 1][k] + 1, d[i][k - 1] + 1, d[i - 1][k - 1] + cost});
        if (i > 1 && k > 1 && lower(a[i - 1]) == lower(b[k - 2]) && lower(a[i - 2]) == lower(b[k - 1]))
          d[i][k] = std::min(d[i][k], d[i - 2][k - 2] + 1);
      }
    return d[n][m];
  };
  if (word.size() > 64) return {};
  std::string best;
  std::size_t best_distance = 3;
  for (std::string_view name : names) {
    const std::size_t dist = distance(word, name);
    if (dist < best_distance && 2 * dist < std::max(word.size(), name.size())) {
      best_distance = dist;
      best = std::string(name);
    }
  }
  return best;
}

json parse_json_input(std::string_view text, const JsonInputOptions& options) {
  Scanner(text, options).run();
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    // The scanner accepted what nlohmann refuses: never seen (tests/fuzz/
    // fuzz_json_input.cpp looks for it), but never an exception of nlohmann's either.
    std::size_t offset = 0;
    if (const auto* pe = dynamic_cast<const json::parse_error*>(&e)) offset = pe->byte > 0 ? pe->byte - 1 : 0;
    const JsonPlace place = place_at(text, offset);
    core::Reason reason = reason_of("json_invalid",
                                    {{"line", std::to_string(place.line)}, {"column", std::to_string(place.column)}},
                                    {{"problem", "json_other"}, {"at", "json_at_top"}});
    const std::string what = english(reason);
    throw JsonInputError(JsonProblem::syntax, place, {}, {}, std::move(reason), what);
  }
}

JsonPlace json_place_of(std::string_view text, const JsonPath& path) {
  JsonInputOptions options;
  options.max_depth = INT_MAX;  // the text was read already: any depth
  options.duplicates = JsonInputOptions::Duplicates::keep_last;
  Scanner scanner(text, options, &path);
  try {
    scanner.run();
  } catch (const JsonInputError&) {
  }
  const auto offset = scanner.target_offset();
  return offset ? place_at(text, *offset) : JsonPlace{};
}

}  // namespace poslab::app
