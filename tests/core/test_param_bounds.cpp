// Issue 7, point 3, as a property of the one parameter table: for EVERY
// parameter, text that is no value (NaN, ±Inf, overflow, empty, words, odd
// syntax) and values past its bounds (huge, negative, odd where it must be
// even) are refused by parse_param_value with an InvalidParameter naming the
// key, the text and what is allowed — the message the CLI prints and the GUI
// shows inline. Typed values (sliders, sessions) get the same check.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "poslab/core/params.hpp"

using namespace poslab::core;

namespace {

bool is_numeric(const ParamSpec& s) { return s.type == ParamType::integer || s.type == ParamType::real; }
bool is_sequence(const ParamSpec& s) { return s.type == ParamType::list || s.type == ParamType::vector; }

/// The refusal of `text` for `spec`, or "" (with a failed check) if it was accepted.
std::string refusal(const ParamSpec& spec, const std::string& text) {
  try {
    (void)parse_param_value(spec, text);
  } catch (const InvalidParameter& e) {
    CHECK(e.key() == spec.key);
    return e.what();
  }
  FAIL_CHECK("accepted");
  return {};
}

/// The message starts with "<key> = " and says what the parameter allows.
void check_message(const ParamSpec& spec, const std::string& why) {
  CAPTURE(why);
  CHECK(why.rfind(std::string(spec.key) + " = ", 0) == 0);
  if (is_numeric(spec)) CHECK(why.find(describe_allowed(spec)) != std::string::npos);
}

/// A number as text, exactly (17 significant digits).
std::string text_of(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

/// A value the spec allows (its default when it has one), as text.
std::string a_valid_item(const ParamSpec& spec) {
  if (is_numeric(spec) && !spec.default_text.empty()) return std::string(spec.default_text);
  if (std::isfinite(spec.min)) return text_of(spec.min_exclusive ? spec.min + 1 : spec.min);
  return "0";
}

}  // namespace

TEST_CASE("every parameter refuses text that is no value, naming itself and what it allows") {
  const std::vector<std::string> not_values = {
      "nan", "NaN", "-nan", "inf", "-inf", "+Inf", "infinity", "1e999", "-1e999", "1e", "0x10", "--1",
      "1..2", "abc", "\xff\xfe", "1 2", "1;2", "[1]", "{}", "null", "1,nan", "inf,1", "0:inf"};
  for (const ParamSpec& spec : param_specs()) {
    const std::string key(spec.key);
    CAPTURE(key);
    for (const std::string& text : not_values) {
      CAPTURE(text);
      if (spec.type == ParamType::choice && param_choices(spec).size() > 0) {
        // a word parameter: none of these is one of its words
        for (auto c : param_choices(spec)) REQUIRE(c != text);
      }
      check_message(spec, refusal(spec, text));
    }
    // Empty text is refused unless the parameter is a list that may be empty.
    for (const char* text : {"", "   ", "\t"}) {
      CAPTURE(text);
      if (is_sequence(spec) && spec.min_items == 0) {
        try {
          const ParamValue v = parse_param_value(spec, text);
          CHECK(std::get<std::vector<double>>(v).empty());
        } catch (const InvalidParameter& e) {
          CHECK(e.key() == spec.key);
        }
      } else {
        check_message(spec, refusal(spec, text));
      }
    }
  }
}

TEST_CASE("every numeric parameter refuses values past its bounds: huge, negative, odd") {
  int bounded = 0;
  for (const ParamSpec& spec : param_specs()) {
    if (!is_numeric(spec) && !is_sequence(spec)) continue;
    const std::string key(spec.key);
    CAPTURE(key);
    // For lists and vectors the bounds hold for every item: the bad item goes
    // last, after as many good ones as the parameter needs (q, k: two).
    const std::string good = a_valid_item(spec);
    const std::size_t n = is_sequence(spec) ? std::max<std::size_t>({spec.min_items, spec.even ? 2u : 1u, 1u}) : 1;
    std::string good_ones;
    for (std::size_t i = 0; i + 1 < n; ++i) good_ones += good + ",";
    REQUIRE_NOTHROW(parse_param_value(spec, good_ones + good));
    auto refused = [&](const std::string& item) {
      const std::string text = good_ones + item;
      CAPTURE(text);
      check_message(spec, refusal(spec, text));
    };
    if (std::isfinite(spec.max)) {
      ++bounded;
      refused(text_of(spec.max * 2 + 2));
      refused("1e300");
      if (spec.max_exclusive) refused(text_of(spec.max));
    }
    if (std::isfinite(spec.min)) {
      refused(text_of(spec.min - std::max(1.0, std::abs(spec.min))));
      refused("-1e300");
      if (spec.min >= 0) refused("-1");
      if (spec.min_exclusive) refused(text_of(spec.min));
    }
    if (spec.type == ParamType::integer) refused(text_of(std::isfinite(spec.min) ? spec.min : 0) + ".5");
    if (spec.type == ParamType::integer && spec.even) {
      const double even = std::stod(good);
      refused(text_of(even + 1));  // odd d
    }
    if (spec.max_items > 0 && spec.type != ParamType::vector) {
      // One item more than allowed, written as a range.
      const double lo = std::isfinite(spec.min) ? std::ceil(spec.min + (spec.min_exclusive ? 1 : 0)) : 0;
      const std::string text = text_of(lo) + ":" + text_of(lo + static_cast<double>(spec.max_items));
      CAPTURE(text);
      CHECK(refusal(spec, text).rfind(key + " = ", 0) == 0);
    }
  }
  CHECK(bounded > 10);  // the table does bound most parameters
}

TEST_CASE("typed values (sliders, sessions) are refused the same way: NaN, ±Inf, past the bounds") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const ParamSpec& spec : param_specs()) {
    const std::string key(spec.key);
    CAPTURE(key);
    std::vector<ParamValue> bad;
    if (is_numeric(spec)) {
      bad = {nan, inf, -inf};
      if (std::isfinite(spec.max)) bad.emplace_back(spec.max * 2 + 2);
      if (std::isfinite(spec.min)) bad.emplace_back(spec.min - std::max(1.0, std::abs(spec.min)));
    } else if (is_sequence(spec)) {
      bad = {std::vector<double>{nan, nan}, std::vector<double>{0, inf}, std::vector<double>{-inf, 1}};
    } else {
      bad = {nan};  // a number where a word or a boolean belongs
    }
    for (const ParamValue& v : bad) {
      try {
        check_param_value(spec, v);
        FAIL_CHECK("accepted a bad typed value");
      } catch (const InvalidParameter& e) {
        CHECK(e.key() == spec.key);
      }
      Params p;
      const Params before = p;
      CHECK_THROWS_AS(p.set(spec.key, v), InvalidParameter);
      CHECK(p == before);
    }
  }
}
