// The guided steps of the rotary lessons (rope-2d, rope, gaussian) cite only
// numbers a student can read on the screen: every decimal number in a step's
// answer is printed by the step itself (its caption or question) or by the
// figure in front before or after the reveal (title, subtitle, legend, notes,
// labels). A number read off an axis is marked "about" in the text and is not
// held to this. Checked in both languages, on the figures the app builds for
// the step's state, so a number that drifts from what the app computes fails.
// Also: the numbers the steps chose are the ones an independent calculation
// gives (plain Python, math module only, at development time).

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <regex>
#include <string>
#include <vector>

#include "app/decks/deck.hpp"
#include "app/lessons/lesson.hpp"
#include "app/plot/formula.hpp"
#include "app_test_support.hpp"

using namespace poslab;
using namespace poslab::app;

namespace {

const Translator& chinese() {
  static const Translator tr = Translator::load(assets_dir(), "zh");
  return tr;
}

/// The text with U+2212 MINUS SIGN written as '-', so "−0.416" and "-0.416" match.
std::string ascii_minus(std::string s) {
  const std::string minus = "\xE2\x88\x92";
  for (std::size_t at = s.find(minus); at != std::string::npos; at = s.find(minus, at)) s.replace(at, minus.size(), "-");
  return s;
}

/// The decimal numbers of `text` ("0.5", "-11.45", "9.91e-11"), leaving out
/// integers and any number that follows "about " (read off an axis) or "约"/"大约".
std::vector<std::string> decimals(const std::string& text) {
  static const std::regex number(R"(-?\d[\d,]*\.\d+(e-?\d+)?)");
  std::vector<std::string> out;
  const std::string t = ascii_minus(text);
  for (auto it = std::sregex_iterator(t.begin(), t.end(), number); it != std::sregex_iterator(); ++it) {
    const auto at = static_cast<std::size_t>(it->position());
    if (at > 0 && (std::isdigit(static_cast<unsigned char>(t[at - 1])) || t[at - 1] == '.')) continue;
    const std::string before = t.substr(at >= 9 ? at - 9 : 0, at >= 9 ? 9 : at);
    if (before.ends_with("about ") || before.ends_with("about -") || before.ends_with("约") || before.ends_with("约 "))
      continue;
    out.push_back(it->str());
  }
  return out;
}

/// Every text a figure shows: title, subtitle, axis labels, legend, notes, labels.
std::string shown(const fig::Figure& f) {
  std::string all = f.title + "\n" + f.subtitle + "\n" + f.x.label + "\n" + f.y.label + "\n";
  for (const auto& s : f.series) all += s.name + "\n";
  for (const auto& n : f.notes) all += n.text + "\n";
  for (const auto& l : f.ref_lines) all += l.label + "\n";
  for (const auto& b : f.bands) all += b.label + "\n";
  return ascii_minus(fig::plain_text(all));
}

fig::Figure figure_of(const Scene& s, bool revealed, const Translator& tr) {
  const ViewDef* v = find_view(s.lesson);
  REQUIRE(v != nullptr);
  const std::string& id = revealed && !s.reveal_figure.empty() ? s.reveal_figure : s.figure;
  const FigureDef* def = find_figure(*v, id);
  REQUIRE(def != nullptr);
  return build_figure(*v, *def, s.session(revealed).to_params(), tr, 900, 500);
}

}  // namespace

TEST_CASE("rotary steps: every decimal number an answer cites is on the screen of its step, in both languages") {
  int cited = 0;
  for (const std::string lesson : {"rope-2d", "rope", "gaussian"}) {
    const Deck* steps = lesson_steps(lesson);
    REQUIRE(steps != nullptr);
    for (std::size_t i = 0; i < steps->scenes.size(); ++i) {
      const Scene& s = steps->scenes[i];
      if (!s.has_question()) continue;
      for (const char* lang : {"en", "zh"}) {
        const Translator& tr = std::string(lang) == "zh" ? chinese() : test::english();
        // Formulas written out ("$e^{-1}$" shows e^(−1)): numbers inside one count.
        const std::string screen = ascii_minus(fig::plain_text(s.caption.in(lang) + "\n" + s.question.in(lang))) + "\n" +
                                   shown(figure_of(s, false, tr)) + shown(figure_of(s, true, tr));
        for (const std::string& n : decimals(fig::plain_text(s.answer.in(lang)))) {
          CAPTURE(lesson);
          CAPTURE(i + 1);
          CAPTURE(lang);
          CAPTURE(n);
          CHECK(screen.find(n) != std::string::npos);
          ++cited;
        }
      }
    }
  }
  MESSAGE("decimal numbers cited by answers and found on screen: " << cited);
  CHECK(cited >= 20);  // the answers do cite numbers: the check is not vacuous
}

TEST_CASE("rotary steps: the number reader") {
  CHECK(decimals("from −11.45 to 29.57, flat at 20.04") == std::vector<std::string>{"-11.45", "29.57", "20.04"});
  CHECK(decimals("9.91e-11 against 61") == std::vector<std::string>{"9.91e-11"});
  CHECK(decimals("moved to about −2.2 and 0.1") == std::vector<std::string>{"0.1"});
  CHECK(decimals("约 −2.2") .empty());
  CHECK(decimals("θ = π/2 ≈ 1.571 rad, 54,410.5") == std::vector<std::string>{"1.571", "54,410.5"});
}

TEST_CASE("rope step 6: the mixed layouts' score sweeps from −11.45 to 29.57 while RoPE's stays 20.04") {
  const Deck* steps = lesson_steps("rope");
  REQUIRE(steps != nullptr);
  REQUIRE(steps->scenes.size() == 6);
  const Scene& s = steps->scenes[5];
  REQUIRE(s.reveal_figure == "mixing");
  const fig::Figure f = figure_of(s, true, test::english());
  // Python (math module): q = k = [1, 2, 3, 4], m = 5, n = 2, b = 10000, Δ = 0 … 128;
  // RoPE (interleaved) 20.038788360722467; the mixed code's least −11.450779639799105
  // (Δ = 126), its largest 29.567432670708786 (Δ = 49).
  double lo = 1e300, hi = -1e300;
  bool flat = false;
  for (const auto& series : f.series) {
    if (series.name.starts_with("mixed")) {
      REQUIRE(series.y.size() == 129);
      for (double v : series.y) lo = std::min(lo, v), hi = std::max(hi, v);
      CHECK(series.name == "mixed layouts: from \xE2\x88\x92" "11.45 to 29.57");
    }
    if (series.name.starts_with("RoPE")) {
      flat = true;
      for (double v : series.y) CHECK(v == doctest::Approx(20.038788360722467).epsilon(1e-12));
      CHECK(series.name.ends_with("flat at 20.04"));
    }
  }
  CHECK(flat);
  CHECK(lo == doctest::Approx(-11.450779639799105).epsilon(1e-12));
  CHECK(hi == doctest::Approx(29.567432670708786).epsilon(1e-12));
}

TEST_CASE("rope step 5: the revealed half-layout matrix holds pair 0's block in rows and columns 0 and 4") {
  const Deck* steps = lesson_steps("rope");
  REQUIRE(steps != nullptr);
  const Scene& s = steps->scenes[4];
  const fig::Figure f = figure_of(s, true, test::english());
  REQUIRE(f.heatmaps.size() == 1);
  const auto& h = f.heatmaps[0];
  REQUIRE(h.cols == 8);
  auto at = [&](int r, int c) { return h.values[static_cast<std::size_t>(r) * 8 + static_cast<std::size_t>(c)]; };
  // m = 2, θ₀ = 1: the block [[cos 2, −sin 2], [sin 2, cos 2]] on indices 0 and 4 = 0 + d/2.
  CHECK(at(0, 0) == doctest::Approx(std::cos(2.0)).epsilon(1e-6));
  CHECK(at(0, 4) == doctest::Approx(-std::sin(2.0)).epsilon(1e-6));
  CHECK(at(4, 0) == doctest::Approx(std::sin(2.0)).epsilon(1e-6));
  CHECK(at(4, 4) == doctest::Approx(std::cos(2.0)).epsilon(1e-6));
  CHECK(at(0, 1) == 0.0f);
}

TEST_CASE("rope-2d step 5: at m = 1 the quarter turn lays q′ = ι along k = 0.5·ι, score 0 → 0.5") {
  const Deck* steps = lesson_steps("rope-2d");
  REQUIRE(steps != nullptr);
  const Scene& s = steps->scenes[4];
  for (bool revealed : {false, true}) {
    const fig::Figure f = figure_of(s, revealed, test::english());
    bool found = false;
    for (const auto& n : f.notes)
      if (n.text.starts_with("q′·k′ = ")) {
        found = true;
        CHECK(n.text == (revealed ? "q′·k′ = 0.5" : "q′·k′ = 0"));
      }
    CHECK(found);
  }
}
