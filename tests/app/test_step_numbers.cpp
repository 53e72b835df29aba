// Guided steps never show contradictory numbers: for every step of every
// lesson, before and after its reveal, a number the front figure's subtitle
// gives for a key the step touches (its params, its reveal's params, its
// sliders) is the value that key has in the state the step leaves — the
// value its slider shows. (Found by review: rope step 5's reveal showed a
// d slider at 16 under a figure saying "d = 4".)

#include <doctest/doctest.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <variant>

#include "app/decks/deck.hpp"
#include "app/lessons/lesson.hpp"
#include "app/plot/formula.hpp"
#include "app_test_support.hpp"

using namespace poslab;
using namespace poslab::app;

namespace {

/// Every "KEY = NUMBER" in `text` whose KEY is a whole word (not the tail of
/// "head_dim" for "d"): the numbers, as printed (thousands separators allowed).
std::vector<double> numbers_after(const std::string& text, const std::string& key) {
  std::vector<double> out;
  const std::string pattern = key + " = ";
  for (std::size_t at = text.find(pattern); at != std::string::npos; at = text.find(pattern, at + 1)) {
    if (at > 0) {
      const unsigned char before = static_cast<unsigned char>(text[at - 1]);
      if (std::isalnum(before) || before == '_' || before == '\'' || before >= 0x80) continue;
      // "m − n = 3" gives a difference, not n
      const std::string head = text.substr(0, at);
      auto ends_with = [&](const std::string& tail) {
        return head.size() >= tail.size() && head.compare(head.size() - tail.size(), tail.size(), tail) == 0;
      };
      if (ends_with("− ") || ends_with("- ") || ends_with("+ ") || ends_with("/ ")) continue;
    }
    std::string digits;
    for (std::size_t i = at + pattern.size(); i < text.size(); ++i) {
      const char ch = text[i];
      if (std::isdigit(static_cast<unsigned char>(ch)) || ch == '.' || ch == 'e' || (ch == '-' && digits.empty()))
        digits += ch;
      else if (ch == ',' && i + 3 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])) &&
               std::isdigit(static_cast<unsigned char>(text[i + 2])) && std::isdigit(static_cast<unsigned char>(text[i + 3])))
        continue;  // 10,000
      else
        break;
    }
    if (digits.empty() || digits == "-") continue;
    out.push_back(std::strtod(digits.c_str(), nullptr));
  }
  return out;
}

/// The value of a numeric key in `p`, if it has one.
std::optional<double> numeric(const core::Params& p, const std::string& key) {
  try {
    const core::ParamValue v = p.value(key);
    if (const double* d = std::get_if<double>(&v)) return *d;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("steps: a figure's subtitle agrees with the values of the keys its step sets, before and after the reveal") {
  int compared = 0;
  for (const ViewDef& v : view_defs()) {
    const Deck* steps = lesson_steps(v.id);
    if (!steps) continue;
    for (std::size_t i = 0; i < steps->scenes.size(); ++i) {
      const Scene& s = steps->scenes[i];
      for (bool revealed : {false, true}) {
        if (revealed && !s.has_question()) continue;
        CAPTURE(v.id);
        CAPTURE(i + 1);
        CAPTURE(revealed);
        std::set<std::string> keys(s.sliders.begin(), s.sliders.end());
        for (const auto& kv : s.params) keys.insert(kv.first);
        if (revealed)
          for (const auto& kv : s.reveal_params) keys.insert(kv.first);
        const std::string& fig_id = revealed && !s.reveal_figure.empty() ? s.reveal_figure : s.figure;
        const FigureDef* def = find_figure(v, fig_id);
        REQUIRE(def != nullptr);
        const core::Params p = s.session(revealed).to_params();
        const fig::Figure f = build_figure(v, *def, p, test::english(), 900, 500);
        CAPTURE(f.subtitle);
        for (const std::string& key : keys) {
          const std::optional<double> value = numeric(p, key);
          if (!value) continue;
          for (double shown : numbers_after(fig::plain_text(f.subtitle), key)) {  // "$d = 4$" is d = 4
            CAPTURE(key);
            // the subtitle prints 4 significant digits
            CHECK(std::abs(shown - *value) <= 5e-4 * std::max(1.0, std::abs(*value)));
            ++compared;
          }
        }
      }
    }
  }
  MESSAGE("subtitle numbers compared with the state: " << compared);
  CHECK(compared >= 10);  // the property is checked on many steps, not vacuously
}

TEST_CASE("steps: the subtitle reader finds whole-word keys only") {
  CHECK(numbers_after("q = k = (1, 2) (d = 4) · m = 5, n = 2", "d") == std::vector<double>{4});
  CHECK(numbers_after("head_dim = 8 · d = 16", "d") == std::vector<double>{16});
  CHECK(numbers_after("b = 10,000 · L = 4,096", "b") == std::vector<double>{10000});
  CHECK(numbers_after("m − n = 3", "n").empty());
}
