// The one JSON reader for files (app/common/json_input.hpp) and the escaping
// by context (app/common/safe_text.hpp), issue 32 classes 1, 2, 4 and 9:
// what nlohmann::json accepts is read the same; depth, duplicate keys and
// numbers beyond a double are refused with the place and the field; broken
// JSON says where and what was expected; text from files cannot reach a
// terminal, an SVG or a Markdown table raw.

#include <doctest/doctest.h>

#include <chrono>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/common/json_input.hpp"
#include "app/common/messages.hpp"
#include "app/common/safe_text.hpp"
#include "app/common/assets.hpp"
#include "app_test_support.hpp"

using namespace poslab;
using namespace poslab::app;
using nlohmann::json;

namespace {

/// The refusal parse_json_input raises for `text` (fails the test when it reads it).
JsonInputError refusal(const std::string& text, const JsonInputOptions& o = {}) {
  try {
    (void)parse_json_input(text, o);
  } catch (const JsonInputError& e) {
    return e;
  }
  FAIL("accepted: " << text);
  throw;
}

/// nlohmann's own verdict, for the property below.
bool nlohmann_accepts(const std::string& text) { return json::accept(text); }

}  // namespace

TEST_CASE("json_input: reads what nlohmann reads, with the same values") {
  for (const char* text :
       {"{}", "[]", " \t\r\n{ } ", "0", "-0", "1.5e-3", "1E+2", "true", "null", R"("\u00e9\ud83d\ude00\n\t\\\/\"")",
        "\xEF\xBB\xBF{\"a\": [1, 2, {\"b\": null}]}", R"({"中文": "字", "k": "\u0000"})", "[1.7976931348623157e308]",
        "[-1.7976931348623157e308]", "[4.9e-324, 1e-320, 1e-400, 0.0e-999]", "[123456789012345678901234567890]",
        R"({"a": {"b": {"c": [[[]]]}}})"}) {
    CAPTURE(text);
    CHECK(parse_json_input(text) == json::parse(text));
  }
  // Tiny numbers are legal values: read as strtod reads them, never an exception.
  const json tiny = parse_json_input("[1e-320, 1e-400]");
  CHECK(tiny[0].get<double>() > 0);
  CHECK(tiny[0].get<double>() < 1e-300);
  CHECK(tiny[1].get<double>() == 0);
  // 400 digits after a point are a small number, not an overflow.
  CHECK(parse_json_input("[0." + std::string(400, '1') + "]")[0].get<double>() < 1);
}

TEST_CASE("json_input: broken JSON says line, column, field and what was expected") {
  struct Case {
    std::string text, message;
  };
  const std::vector<Case> cases = {
      {"[1, 2,]", "line 1, column 6: a ',' before ']': JSON allows no comma after the last item"},
      {"{\n  \"a\": 1,\n}", "line 2, column 9: a ',' before '}': JSON allows no comma after the last item"},
      {R"({"scenes": [{"caption": "x" "question": "y"}]})",
       "line 1, column 29 (in scenes[0].caption): expected ',' or '}' after a value, found \"question\""},
      {R"({"a" 1})", "line 1, column 6 (in a): expected ':' after the key, found '1'"},
      {"[1 2]", "line 1, column 4 (in [0]): expected ',' or ']' after an item of a list, found '2'"},
      {"{1: 2}", "line 1, column 2: expected a key in double quotes, found '1'"},
      {"[1, 2", "line 1, column 6 (in [1]): expected ',' or ']' after an item of a list, found the end of the file"},
      {"", "line 1, column 1: expected a value (a number, text in double quotes, true, false, null, a list or an object), "
           "found the end of the file"},
      {"{} x", "line 1, column 4: expected the end of the file, found 'x'"},
      {"[tru]", "line 1, column 2 (in [0]): 'tru' is not a JSON value"},
      {"[NaN]", "line 1, column 2 (in [0]): 'NaN' is not a JSON value"},
      {"[01]", "line 1, column 2 (in [0]): '01' is not a JSON number"},
      {"[+1]", "line 1, column 2 (in [0]): '+1' is not a JSON number"},
      {"[\"ab\ncd\"]", "line 1, column 5 (in [0]): a control character (U+000A LF) inside text: write it as \\n"},
      {"[\"a\x1b\"]", "line 1, column 4 (in [0]): a control character (U+001B ESC) inside text: write it as \\u001B"},
      {"[\"abc", "line 1, column 2 (in [0]): text that is never closed with a double quote"},
      {R"(["\x"])", "line 1, column 3 (in [0]): \\x is not an escape JSON knows"},
      {R"(["\ud800"])", "line 1, column 3 (in [0]): \\ud800 is half of a UTF-16 surrogate pair"},
      {"[\"\xff\"]", "line 1, column 3 (in [0]): text that is not valid UTF-8 (byte 0xFF)"},
      {"{\xE2\x80\x9C" "caption\xE2\x80\x9D: 1}", "line 1, column 2: the typographic quote \xE2\x80\x9C: JSON needs straight"},
      {"// note\n{}", "line 1, column 1: a comment: JSON has none"},
      // columns count characters, not bytes: the Chinese text is 2 characters, 6 bytes
      {"{\"标题\": [1,,2]}", "line 1, column 11 (in [\"\\u6807\\u9898\"][1]): expected a value"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const JsonInputError e = refusal(c.text);
    CHECK(e.problem() == JsonProblem::syntax);
    const std::string what = e.what();
    CHECK_MESSAGE(what.rfind(c.message, 0) == 0, what);
    CHECK(what.find("corrupt") == std::string::npos);
  }
  const JsonInputError e = refusal("{\n  \"a\": [1,\n    2 3]}");
  CHECK(e.place() == JsonPlace{3, 7});
  CHECK(json_path_text(e.path()) == "a[1]");
  CHECK(e.detail() == "'3'");
}

TEST_CASE("json_input: depth is bounded while reading, without recursion") {
  // 100,000 nested lists (a 200 KB file): refused at the bound, quickly.
  for (const std::string& deep : {std::string(100000, '['), std::string(100000, '[') + std::string(100000, ']'),
                                  [] {
                                    std::string s;
                                    for (int i = 0; i < 100000; ++i) s += "{\"a\":";
                                    return s;
                                  }()}) {
    const auto start = std::chrono::steady_clock::now();
    const JsonInputError e = refusal(deep);
    CHECK(e.problem() == JsonProblem::too_deep);
    CHECK(std::string(e.what()).find("nested deeper than 64 levels") != std::string::npos);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));  // a hang, not a timing
    CHECK(std::string(e.what()).size() < 300);  // the path is shortened
  }
  CHECK(refusal("[[[1]]]", {.max_depth = 2}).place() == JsonPlace{1, 3});
  CHECK_NOTHROW(parse_json_input("[[[1]]]", {.max_depth = 3}));
}

TEST_CASE("json_input: a key given twice is refused with both places, or kept last when asked") {
  const JsonInputError e = refusal("{\"params\": {\"d\": 64,\n  \"d\": 32}}");
  CHECK(e.problem() == JsonProblem::duplicate_key);
  CHECK(e.detail() == "d");
  CHECK(std::string(e.what()) ==
        "line 2, column 3 (in params): the key \"d\" is given twice (first on line 1); give each key once");
  // The same key spelt two ways is the same key.
  CHECK(refusal(R"({"a": 1, "\u0061": 2})").problem() == JsonProblem::duplicate_key);
  // Objects side by side may share keys.
  CHECK_NOTHROW(parse_json_input(R"([{"a": 1}, {"a": 2}])"));
  std::vector<JsonDuplicate> found;
  const json j = parse_json_input("{\"x\": {\"k\": 1, \"k\": 2}}",
                                  {.duplicates = JsonInputOptions::Duplicates::keep_last, .duplicates_found = &found});
  CHECK(j["x"]["k"] == 2);  // as Python's json and nlohmann read it
  REQUIRE(found.size() == 1);
  CHECK(found[0].key == "k");
  CHECK(json_path_text(found[0].object) == "x");
  CHECK(found[0].second == JsonPlace{1, 16});
}

TEST_CASE("json_input: numbers beyond a double are refused naming the field") {
  for (const std::string& number : std::vector<std::string>{"1e999", "-1e999", std::string(400, '9'),
                                                             "-" + std::string(400, '9'), "1e99999999999999"}) {
    CAPTURE(number);
    const JsonInputError e = refusal("{\"rope_scaling\": {\"factor\": " + number + "}}");
    CHECK(e.problem() == JsonProblem::number_out_of_range);
    CHECK(json_path_text(e.path()) == "rope_scaling.factor");
    CHECK(e.detail().size() <= 63);  // at most 60 characters and "…"
    CHECK(std::string(e.what()).find("beyond the range of a double") != std::string::npos);
  }
}

TEST_CASE("json_input: agrees with nlohmann on thousands of mutated texts") {
  // Property: every text nlohmann refuses is refused, every text it reads is
  // read the same (within the depth bound, keys once, numbers in range).
  const std::vector<std::string> seeds = {
      R"({"format": "poslab-deck", "version": 1, "scenes": [{"lesson": "rope", "params": {"d": 64, "pos": "0:9"}}]})",
      R"({"model_type": "llama", "rope_theta": 500000.0, "rope_scaling": {"factor": 8, "rope_type": "llama3"}})",
      R"(["\u00e9", -0.5e-3, true, null, {"a": [[], {}]}, "\ud83d\ude00"])"};
  const std::string alphabet = "{}[]\":,\\/ \n\t0123456789-+.eEtrufalsn\x01\x7f\xc3\xa9\xff\xe2\x80";
  std::mt19937 rng(32);
  int agreed = 0;
  for (int n = 0; n < 4000; ++n) {
    std::string text = seeds[n % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits; ++k) {
      const std::size_t at = rng() % (text.size() + 1);
      switch (rng() % 3) {
        case 0: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        case 1:
          if (at < text.size()) text.erase(at, 1);
          break;
        default:
          if (at < text.size()) text[at] = alphabet[rng() % alphabet.size()];
      }
    }
    CAPTURE(text);
    bool ours = true;
    json value;
    try {
      value = parse_json_input(text);
    } catch (const JsonInputError& e) {
      ours = false;
      if (e.problem() != JsonProblem::syntax) continue;  // a duplicate key: nlohmann would read it
      CHECK(e.place().known());
    }
    CHECK(ours == nlohmann_accepts(text));
    if (ours) CHECK(value == json::parse(text));
    ++agreed;
  }
  CHECK(agreed > 3000);
}

TEST_CASE("json_input: the place of a field, and the nearest name of a misspelt one") {
  const std::string text = "{\"scenes\": [{\"lesson\": \"rope\"},\n  {\"lesson\": \"t5\",\n   \"captoin\": \"x\"}]}";
  CHECK(json_place_of(text, {std::string("scenes"), std::size_t{1}, std::string("captoin")}) == JsonPlace{3, 4});
  CHECK(json_place_of(text, {std::string("scenes"), std::size_t{1}}) == JsonPlace{2, 3});
  CHECK_FALSE(json_place_of(text, {std::string("scenes"), std::size_t{2}}).known());
  CHECK_FALSE(json_place_of("[1,", {std::size_t{5}}).known());
  constexpr std::string_view fields[] = {"lesson", "params", "figure", "caption", "question", "answer", "notes"};
  CHECK(nearest_name("captoin", fields) == "caption");
  CHECK(nearest_name("questoin", fields) == "question");
  CHECK(nearest_name("answr", fields) == "answer");
  CHECK(nearest_name("Caption", fields) == "caption");
  CHECK(nearest_name("lessons", fields) == "lesson");
  CHECK(nearest_name("zzz", fields).empty());
  CHECK(nearest_name("no", fields).empty());  // two edits from "notes" is too far for a short word
}

TEST_CASE("json_input: every refusal is said in Chinese too") {
  const Translator& en = test::english();
  const Translator zh = Translator::load(assets_dir(), "zh");
  for (const std::string& text :
       std::vector<std::string>{"[1,]", "{\"a\" 1}", "[1 2]", "{1:2}", "[tru]", "[01]", "[\"\n\"]", "[\"a", "[\"\\x\"]",
                                "[\"\\ud800\"]", "[\"\xff\"]", "\xE2\x80\x9C", "//", "{} x", "", "[", "{\"a\":1,\"a\":2}",
                                "[1e999]", std::string(70, '[')}) {
    CAPTURE(text);
    const JsonInputError e = refusal(text);
    const core::InvalidParameter wrapped("deck", "d.json", e.what(), e.reason());
    CHECK(error_text(en, wrapped) == wrapped.what());
    const std::string chinese = error_text(zh, wrapped);
    CAPTURE(chinese);
    CHECK(chinese != wrapped.what());
    CHECK(chinese.find("{") == std::string::npos);
    CHECK(chinese.find("行") != std::string::npos);
  }
}

TEST_CASE("safe_text: a terminal sees escapes, never control characters") {
  CHECK(for_terminal("rope 中文 θ") == "rope 中文 θ");
  CHECK(for_terminal("a\nb") == "a\\nb");
  CHECK(for_terminal("a\nb", true) == "a\nb");
  CHECK(for_terminal("\x1b]0;pwned\x07\x1b[2J") == "\\e]0;pwned\\x07\\e[2J");
  CHECK(for_terminal(std::string("cut\0here", 8)) == "cut\\0here");
  CHECK(for_terminal("\r\t\x7f") == "\\r\\t\\x7F");
  CHECK(for_terminal("\xc2\x9b" "31m") == "\\u009B31m");                      // C1 CSI
  CHECK(for_terminal("abc\xe2\x80\xae" "cba") == "abc\\u202Ecba");            // RIGHT-TO-LEFT OVERRIDE
  CHECK(for_terminal("\xe2\x81\xa6x\xe2\x80\xa8") == "\\u2066x\\u2028");      // isolate, line separator
  CHECK(for_terminal("bad\xff\xc0\xaf") == "bad\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // invalid UTF-8 → U+FFFD
  CHECK(for_terminal("\xed\xa0\x80") == "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");       // an encoded surrogate
  // Property: over random bytes, nothing below U+0020, no DEL, no C1, no bidi control survives.
  std::mt19937 rng(4);
  for (int n = 0; n < 2000; ++n) {
    std::string s(1 + rng() % 24, ' ');
    for (char& c : s) c = static_cast<char>(rng() % 256);
    const std::string out = for_terminal(s);
    for (unsigned char c : out) CHECK((c >= 0x20 && c != 0x7F));
    CHECK(out.find("\xc2\x80") == std::string::npos);
    CHECK(out.find("\xe2\x80\xae") == std::string::npos);
    CHECK(json::accept(json(out).dump()));  // valid UTF-8
  }
}

TEST_CASE("safe_text: XML gets only what XML 1.0 allows, markup escaped") {
  CHECK(for_xml("a < b & \"c\" 'd' > 中") == "a &lt; b &amp; &quot;c&quot; &apos;d&apos; &gt; 中");
  CHECK(for_xml("\x01\x0b\xef\xbf\xbf\xef\xbf\xbe") == "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  CHECK(for_xml("tab\tnew\nline\r") == "tab\tnew\nline\r");
  CHECK(for_xml("\xff") == "\xef\xbf\xbd");
  std::mt19937 rng(5);
  for (int n = 0; n < 2000; ++n) {
    std::string s(1 + rng() % 24, ' ');
    for (char& c : s) c = static_cast<char>(rng() % 256);
    const std::string out = for_xml(s);
    for (unsigned char c : out) CHECK((c >= 0x20 || c == '\t' || c == '\n' || c == '\r'));
    CHECK(out.find('<') == std::string::npos);
    CHECK(out.find("\xef\xbf\xbf") == std::string::npos);
  }
}

TEST_CASE("safe_text: a Markdown cell stays one cell of text") {
  CHECK(for_markdown("llama") == "llama");
  CHECK(for_markdown("gpt_neox rope_type 中文") == "gpt_neox rope_type 中文");  // intraword _ is never emphasis
  CHECK(for_markdown("a|b") == "a\\|b");
  CHECK(for_markdown("one\ntwo\r\nthree") == "one two  three");
  CHECK(for_markdown("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;");
  CHECK(for_markdown("<img src=x onerror=alert(1)>") == "&lt;img src=x onerror=alert(1)&gt;");
  CHECK(for_markdown("`code` [link](javascript:x) ![i](http://t/p.png)") ==
        "\\`code\\` \\[link\\](javascript:x) !\\[i\\](http://t/p.png)");
  CHECK(for_markdown("_em_ *b* __init__ a\\b &amp;") == "\\_em\\_ \\*b\\* \\_\\_init\\_\\_ a\\\\b &amp;amp;");
  CHECK(for_markdown("\x1b[31m\xe2\x80\xae") == "\xef\xbf\xbd\\[31m\xef\xbf\xbd");
}
