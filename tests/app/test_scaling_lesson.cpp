// The "scaling" lesson: its readouts hold (defaults, presets and many random
// settings, extremes included), its figures and tables show core's numbers,
// and the notes' wrong numbers are shown next to the right ones.
//
// Reference values were computed at development time in plain Python (math
// and cmath only, no poslab code), with d = 128, base = 1e4, s = 8, L = 4096:
//   th = [1e4 ** (-2*i/128) for i in range(64)]
//   bound(r, th): S = 0; acc = 0; for t in th: S += cmath.exp(1j*r*t); acc += abs(S); return acc/len(th)
//   bound(4096, th) -> 4.882792191194106;  bound(32768, [t/8 for t in th]) -> the same
//   bound(1, th)/bound(0, th) -> 0.9704051120817871
//   sum(L*t < 2*pi for t in th) -> 18 (pairs 46..63)
//   HF yarn: low, high = floor(dim(32)), ceil(dim(1)) = 20, 46 with
//     dim(r) = 128*log(4096/(r*2*pi))/(2*log(1e4)); ramp = 1 - clamp((i-20)/26, 0, 1)
//     -> 21 pairs kept, 25 blended, 18 divided; pair 32: 0.01*(7/13 + (6/13)/8) = 0.005961538461538462
//   beta_slow = 0.25: high = ceil(dim(0.25)) = 55 -> pairs 46..54 keep part of θ: 9 meet unseen angles
//   1e4*(8*32768/4096 - 7)**(128/126) -> 607779.2727297307 (dynamic NTK base)
//   0.1*log(8) + 1 -> 1.2079441541679836
//   0.125**0.8 -> 0.18946457081379975; 100*, 30000*, 32768* that -> 18.946457081379975,
//     5683.937124413992, 6208.37505642659; 4096*8**0.8 -> 21618.817610103102
//   0.01/8**(0.25/64) -> 0.009919100824251096; 8**(0.25/64) -> 1.0081558981184175
//   q = 1..128, m = 1: out[j] = q[j]*cos(th[j%64]) + q[j-1]*sin(th[j%64]) -> |out|/|q| = 1.0508542472692388

#include <doctest/doctest.h>

#include <algorithm>

#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "app/common/presets.hpp"
#include "app/export/figure_export.hpp"
#include "app/plot/formula.hpp"
#include "lesson_test_support.hpp"
#include "poslab/core/scaling.hpp"

using namespace poslab;
using test::params;
namespace fig = poslab::app::fig;

namespace {

const test::Lesson lesson{"scaling"};

std::string tr(std::string_view key) { return test::english()(key); }
std::string method(std::string_view name) { return tr("scaling.method." + std::string(name)); }
std::string with_method(std::string_view key, std::string_view name) {
  return test::english().format(key, {{"method", method(name)}});
}

}  // namespace

TEST_CASE("scaling lesson: readouts at the defaults, against Python references") {
  CHECK(lesson.check_readouts({}) == 6);  // unseen (yarn), by-parts, entropy, PI stretch, γ limit, rotate_half
  const auto r = lesson.readouts(core::Params{});
  CHECK(test::readout(r, with_method("scaling.readout.regimes", "yarn")).number == 21);
  CHECK(test::readout(r, with_method("scaling.readout.regimes", "yarn")).value ==
        test::english().format("scaling.readout.regimes_yarn", {{"kept", "21"}, {"blended", "25"}, {"divided", "18"}}));
  // The notes-check labels name the live s and η (the notes' numbers are for s = 8, η = 0.8).
  const auto at_s = [](const char* key) { return test::english().format(key, {{"s", "8"}, {"eta", "0.8"}}); };
  CHECK(test::readout(r, at_s("scaling.readout.gamma_slope")).notes);
  CHECK(test::readout(r, tr("scaling.readout.notes_divisor")).notes);
  CHECK(test::readout(r, tr("scaling.readout.roll")).notes);
  CHECK(!test::readout(r, tr("scaling.readout.unseen_none")).notes);
  CHECK(test::readout(r, tr("scaling.readout.unseen_none")).number == 18);
  const app::Readout& unseen = test::readout(r, with_method("scaling.readout.unseen_method", "yarn"));
  CHECK(unseen.number == 0);
  REQUIRE(unseen.holds.has_value());
  CHECK(test::readout(r, with_method("scaling.readout.fastest", "yarn")).number == 1.0);  // the fastest pair is kept
  CHECK(test::readout(r, with_method("scaling.readout.attention", "yarn")).number ==
        doctest::Approx(1.2079441541679836).epsilon(1e-15));
  CHECK(test::readout(r, tr("scaling.readout.dynamic")).number == doctest::Approx(607779.2727297307).epsilon(1e-12));
  CHECK(std::abs(test::readout(r, tr("scaling.readout.pi_stretch")).number) < 1e-10);
  CHECK(test::readout(r, at_s("scaling.readout.gamma_slope")).number == doctest::Approx(0.18946457081379975).epsilon(1e-14));
  CHECK(test::readout(r, at_s("scaling.readout.gamma_100")).number == doctest::Approx(18.946457081379975).epsilon(1e-14));
  // At s = 1 (the first step) the labels say s = 1, not the notes' s = 8 beside a value of 1.
  const auto one = lesson.readouts(params({{"factor", "1"}}));
  const app::Readout& slope1 = test::readout(one, test::english().format("scaling.readout.gamma_slope", {{"s", "1"}, {"eta", "0.8"}}));
  CHECK(slope1.number == 1);
  CHECK(test::readout(r, tr("scaling.readout.gamma_limit")).number == doctest::Approx(21618.817610103102).epsilon(1e-14));
  const app::Readout& last = test::readout(r, test::english().format("scaling.readout.gamma_target", {{"L", "32,768"}}));
  CHECK(last.number == doctest::Approx(6208.37505642659).epsilon(1e-14));
  CHECK(last.number > 4096);  // the notes' map leaves the trained range
  CHECK(test::readout(r, test::english().format("scaling.readout.seed_theta", {{"i", "32"}, {"d", "128"}, {"s", "8"}, {"t", "0.25"}})).number ==
        doctest::Approx(0.009919100824251096).epsilon(1e-13));
  CHECK(test::readout(r, tr("scaling.readout.notes_divisor")).number == doctest::Approx(1.0081558981184175).epsilon(1e-13));
  CHECK(test::readout(r, tr("scaling.readout.roll")).number == doctest::Approx(1.0508542472692388).epsilon(1e-12));
  CHECK(test::readout(r, tr("scaling.readout.rotate_half")).number == doctest::Approx(1.0).epsilon(1e-14));
}

TEST_CASE("scaling lesson: the first readout and the shaded band follow the selected method") {
  // Python: λᵢ = 2π·10000^(2i/128), L = 4096, f_low = 1, f_high = 4:
  // λ < 1024 → 36 left alone, 1024 ≤ λ ≤ 4096 → 10 blended, λ > 4096 → 18 stretched.
  const auto llama = lesson.readouts(params({{"method", "llama3"}}));
  const app::Readout& first = test::readout(llama, with_method("scaling.readout.regimes", "llama3"));
  CHECK(first.number == 36);
  CHECK(first.value == test::english().format("scaling.readout.regimes_llama3",
                                              {{"kept", "36"}, {"blended", "10"}, {"divided", "18"}, {"s", "8"}}));
  CHECK(llama.front().label == first.label);
  const auto pi = lesson.readouts(params({{"method", "linear"}}));
  CHECK(test::readout(pi, with_method("scaling.readout.regimes", "linear")).value ==
        test::english().format("scaling.readout.regimes_linear", {{"n", "64"}, {"s", "8"}}));
  for (const char* fig_id : {"ratio", "wavelength"}) {
    CAPTURE(fig_id);
    const fig::Figure l3 = lesson.figure(fig_id, params({{"method", "llama3"}}));
    REQUIRE(l3.bands.size() == 1);
    CHECK(l3.bands[0].from > 35);
    CHECK(l3.bands[0].to < 46);
    // The label names whole pairs, the ones with 0 < wᵢ < 1 (Python: 36 … 45), not the band's real edges.
    CHECK(l3.bands[0].label.starts_with("Llama 3 blends pairs 36–45: "));
    const fig::Figure paper = lesson.figure(fig_id, params({{"method", "yarn-paper"}}));
    REQUIRE(paper.bands.size() == 1);
    CHECK(paper.bands[0].label == "YaRN (paper) blends pairs 21–45");  // band 20.94 … 45.03
    CHECK(paper.bands[0].from == doctest::Approx(20.94).epsilon(1e-3));
    // YaRN (code): HF's range floor(20.94) = 20 … ceil(45.03) = 46, ramp 0 and 1 at its ends.
    CHECK(lesson.figure(fig_id, params({{"method", "yarn"}})).bands[0].label == "YaRN (code) blends pairs 21–45");
    // A range between two pairs (ρ₄₀ = 2.0615, ρ₄₁ = 1.7852) blends none, and says so.
    const fig::Figure narrow = lesson.figure(fig_id, params({{"method", "yarn-paper"}, {"beta_fast", "2"}, {"beta_slow", "1.8"}}));
    REQUIRE(narrow.bands.size() == 1);
    CHECK(narrow.bands[0].label == "YaRN (paper): the ramp falls between two pairs, no pair blended");
    for (const char* m : {"none", "linear", "ntk", "dynamic", "notes"}) {
      CAPTURE(m);
      CHECK(lesson.figure(fig_id, params({{"method", m}})).bands.empty());
    }
  }
  // L/β_fast is YaRN's line: drawn for yarn, not for PI.
  auto has_beta_line = [](const fig::Figure& f) {
    for (const fig::RefLine& l : f.ref_lines)
      if (fig::plain_text(l.label).find("L/β_fast") != std::string::npos) return true;  // $L/β_{fast}$
    return false;
  };
  CHECK(has_beta_line(lesson.figure("wavelength", params({{"method", "yarn"}}))));
  CHECK(!has_beta_line(lesson.figure("wavelength", params({{"method", "linear"}}))));
}

TEST_CASE("scaling lesson: the attention figure's subtitle states the chosen method's rule") {
  auto subtitle = [](std::initializer_list<std::pair<const char*, const char*>> kv) {
    return lesson.figure("attention", params(kv)).subtitle;
  };
  CHECK(subtitle({{"method", "yarn"}, {"mscale", "0.707"}}).find("mscale = 0.707") != std::string::npos);
  const std::string lr = subtitle({{"method", "longrope"}, {"original_context", "4096"}});
  CHECK(fig::plain_text(lr).find("a = √(1 + (ln s)/(ln L))") != std::string::npos);  // typeset: a fraction under the root
  CHECK(lr.find("L = 4,096") != std::string::npos);
  CHECK(lr.find("mscale") == std::string::npos);
  CHECK(subtitle({{"method", "longrope"}, {"attention_factor", "1.19"}}).find("a = 1.19") != std::string::npos);
  const std::string paper = fig::plain_text(subtitle({{"method", "yarn-paper"}}));
  CAPTURE(paper);
  CHECK(paper.find("a = 0.1 ln s + 1") != std::string::npos);
  // The entropies are the spread figure's (the step's reveal), not the subtitle's: shown before the
  // step's question, they gave its answer away.
  CHECK(subtitle({{"method", "yarn"}}).find("nats") == std::string::npos);
  for (const char* m : {"none", "linear", "ntk", "dynamic", "llama3", "notes"}) {
    CAPTURE(m);
    const std::string t = subtitle({{"method", m}});
    CHECK(t.find("mscale") == std::string::npos);
    CHECK(t.find("a = 1") != std::string::npos);
  }
}

TEST_CASE("scaling lesson: the attention entropy readout (why YaRN scales attention)") {
  // numpy (every key): q = k = ones (entries of size 1, the decay lesson's),
  // logits (2/√128)·Σᵢ cos(r·θᵢ) (√d = 11.3 at r = 0, about ±1 far away), HF
  // YaRN θ′ᵢ at s = 8, a² = (0.1·ln 8 + 1)² = 1.4591290795886054:
  //   H(L = 4096, θ) = 3.5641027399865903, H(32768, θ′) = 7.4065131376991715,
  //   H(32768, θ′, a²) = 2.159420889122321 — a² now visibly sharpens (the old
  //   unit-length q, k gave 10.390 against 10.382: bars that looked the same).
  const auto r = lesson.readouts(core::Params{});
  const app::Readout& e = test::readout(r, with_method("scaling.readout.entropy", "yarn"));
  CHECK(e.number == doctest::Approx(2.159420889122321).epsilon(1e-9));
  REQUIRE(e.holds.has_value());
  CHECK(*e.holds);
  CHECK(e.value == test::english().format("scaling.readout.entropy_value", {{"L", "4,096"}, {"h0", "3.5641"}, {"Lt", "32,768"},
                                                                          {"h1", "7.4065"}, {"a2", "1.4591"}, {"h2", "2.1594"}}));
  // The spread figure shows the readout's three numbers as bars, each labelled as the step's answer cites it,
  // beside ln N (N equal weights).
  const fig::Figure bars = lesson.figure("entropy", core::Params{});
  REQUIRE(bars.series.size() == 2);
  REQUIRE(bars.series[0].y.size() == 3);
  CHECK(bars.series[0].y[0] == doctest::Approx(3.5641027399865903).epsilon(1e-9));
  CHECK(bars.series[0].y[1] == doctest::Approx(7.4065131376991715).epsilon(1e-9));
  CHECK(bars.series[0].y[2] == e.number);
  CHECK(bars.series[1].y[0] == doctest::Approx(std::log(4096.0)).epsilon(1e-14));
  CHECK(bars.series[1].y[2] == doctest::Approx(std::log(32768.0)).epsilon(1e-14));
  std::vector<std::string> labels;
  for (const fig::TextNote& n : bars.notes) labels.push_back(n.text);
  CHECK(labels == std::vector<std::string>{"3.5641", "7.4065", "2.1594"});
  for (std::size_t k = 0; k < 3; ++k) CHECK(bars.series[0].y[k] < bars.series[1].y[k]);  // never above ln N
  CHECK(bars.series[0].y[1] - bars.series[0].y[2] > 5);  // a² changes the spread by more than 5 nats
  // The weights themselves (figure reach): the share of attention on the keys
  // within r — numpy: the 16 nearest keys (r ≤ 15) hold 0.7525572318576103,
  // 0.33955244624335224 and 0.9128094303099681; the 2 nearest 0.5047588128527973,
  // 0.22717500885388858, 0.760422381227597.
  const fig::Figure reach = lesson.figure("reach", core::Params{});
  REQUIRE(reach.series.size() == 3);
  const double near16[] = {0.7525572318576103, 0.33955244624335224, 0.9128094303099681};
  const double near2[] = {0.5047588128527973, 0.22717500885388858, 0.760422381227597};
  const char* shown[] = {"75.3%", "34%", "91.3%"};
  for (std::size_t k = 0; k < 3; ++k) {
    CAPTURE(k);
    const fig::Series& s = reach.series[k];
    CHECK(s.x.front() == 1);
    CHECK(s.y.front() == doctest::Approx(near2[k]).epsilon(1e-9));  // r ≤ 1
    const auto at15 = std::find(s.x.begin(), s.x.end(), 15.0);
    REQUIRE(at15 != s.x.end());
    CHECK(s.y[static_cast<std::size_t>(at15 - s.x.begin())] == doctest::Approx(near16[k]).epsilon(1e-9));
    CHECK(s.y.back() == doctest::Approx(1).epsilon(1e-12));  // every key: all of it
    CHECK(s.name.find(shown[k]) != std::string::npos);       // the legend says the share, as step 6 cites it
    for (std::size_t i = 1; i < s.y.size(); ++i) CHECK(s.y[i] >= s.y[i - 1]);  // a share only grows with r
  }
  // a = 1 (PI): no claim. s = 64 reads 262,144 keys: sampled, and said so.
  CHECK(!test::readout(lesson.readouts(params({{"method", "linear"}})), with_method("scaling.readout.entropy", "linear")).holds);
  const auto big = lesson.readouts(params({{"factor", "64"}}));
  const app::Readout& capped = test::readout(big, with_method("scaling.readout.entropy", "yarn"));
  CHECK(capped.value.find("sampled evenly") != std::string::npos);
  CHECK(capped.number > 0);
}

TEST_CASE("scaling lesson: the unseen-angle claim can fail, and is only claimed where the code guarantees it") {
  // β_slow = 0.25 < 1: YaRN's ramp reaches pairs that never turn once within L (Python above: 9).
  const auto r = lesson.readouts(params({{"beta_slow", "0.25"}}));
  const app::Readout& yarn = test::readout(r, with_method("scaling.readout.unseen_method", "yarn"));
  CHECK(yarn.number == 9);
  CHECK(!yarn.holds.has_value());
  // no scaling at all: every slow pair meets unseen angles, and nothing is claimed
  const auto none = lesson.readouts(params({{"method", "none"}}));
  const app::Readout& n = test::readout(none, with_method("scaling.readout.unseen_method", "none"));
  CHECK(n.number == 18);
  CHECK(!n.holds.has_value());
  // PI, YaRN (paper) and Llama 3 at their defaults claim and keep 0
  for (const char* m : {"linear", "yarn-paper", "llama3"}) {
    CAPTURE(m);
    const auto rm = lesson.readouts(params({{"method", m}}));
    const app::Readout& u = test::readout(rm, with_method("scaling.readout.unseen_method", m));
    CHECK(u.number == 0);
    REQUIRE(u.holds.has_value());
    CHECK(*u.holds);
  }
}

TEST_CASE("scaling lesson: readouts hold over random settings, extremes and the presets") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  const char* methods[] = {"none", "linear", "ntk", "dynamic", "yarn", "yarn-paper", "llama3", "notes"};
  auto log_uniform = [&](double lo, double hi) { return lo * std::pow(hi / lo, u(rng)); };
  for (int trial = 0; trial < 300; ++trial) {
    core::Params p;
    p.set("method", std::string(methods[trial % 8]));
    p.set("d", std::ldexp(1.0, 1 + static_cast<int>(u(rng) * 10)));  // 2 .. 1024
    p.set("base", log_uniform(2, 1e9));
    p.set("factor", trial % 17 == 0 ? 1.0 : log_uniform(1, 1024));
    p.set("original_context", std::round(log_uniform(1, 1e9)));
    p.set("seq_len", std::round(log_uniform(1, 1e9)));
    const double slow = log_uniform(0.01, 64);
    p.set("beta_slow", slow);
    p.set("beta_fast", slow * log_uniform(1.01, 100));
    const double low = log_uniform(0.1, 16);
    p.set("low_freq_factor", low);
    p.set("high_freq_factor", low * log_uniform(1.01, 64));
    p.set("mscale", u(rng) < 0.5 ? 0.0 : u(rng) * 4);
    p.set("mscale_all_dim", u(rng) < 0.5 ? 0.0 : u(rng) * 4);
    p.set("gamma", u(rng) * 2);
    p.set("temperature", u(rng) < 0.1 ? 1000.0 : u(rng) * 4);
    p.set("log_x", u(rng) < 0.5);
    std::string where;
    for (const auto& k : p.set_keys()) where += " " + k + "=" + core::format_param_value(core::param_spec(k), p.value(k));
    CAPTURE(where);
    // The entropy readout reports whether a² brings the entropy back closer;
    // at random settings it may not (a < 1, or a² overshooting), so its
    // holds is an observation there, not a claim.
    auto r = lesson.readouts(p);
    for (app::Readout& one : r)
      if (one.label.starts_with("why ")) one.holds.reset();
    test::check_readouts(r);
    if (trial % 10 == 0)
      for (const auto& f : lesson.view().figures) CHECK(fig::all_finite(lesson.figure(f.id, p, 640)));
  }
  const std::vector<app::Preset> presets = app::load_presets(app::assets_dir());
  for (const char* preset : {"llama3.1-8b", "qwen2.5-7b", "notes-yarn-example"}) {
    CAPTURE(preset);
    core::Params p;
    app::find_preset(presets, preset).apply(p);
    CHECK(lesson.check_readouts(p) >= 4);
  }
}

TEST_CASE("scaling lesson: figures show core's numbers") {
  const core::Params defaults;
  SUBCASE("ratio: every method, YaRN (code) on top, values θ′/θ from core") {
    const fig::Figure f = lesson.figure("ratio", defaults);
    CHECK(f.series.size() == 9);
    CHECK(f.series.back().name == method("yarn"));
    CHECK(test::series(f, method("yarn")).y[32] == doctest::Approx(0.5961538461538462).epsilon(1e-13));
    CHECK(test::series(f, method("linear")).y[5] == doctest::Approx(0.125).epsilon(1e-15));
    REQUIRE(f.bands.size() == 1);
    CHECK(f.bands[0].from == 20);
    CHECK(f.bands[0].to == 46);
  }
  SUBCASE("wavelength: λ′ of the chosen method, the markers of unseen angles") {
    const fig::Figure f = lesson.figure("wavelength", params({{"method", "none"}}));
    const fig::Series& unseen = test::series(f, tr("scaling.wavelength.unseen"));
    CHECK(unseen.x.size() == 18);
    CHECK(unseen.x.front() == 46);
    const fig::Figure y = lesson.figure("wavelength", defaults);
    CHECK(!test::has_series(y, tr("scaling.wavelength.unseen")));
    const double lambda63 = 2 * std::numbers::pi / std::pow(1e4, -126.0 / 128);
    CHECK(test::series(y, test::english().format("scaling.wavelength.scaled", {{"method", method("yarn")}})).y[63] ==
          doctest::Approx(8 * lambda63).epsilon(1e-13));
  }
  SUBCASE("score: the first bin on the log axis is distance 1") {
    const fig::Figure f = lesson.figure("score", defaults);
    const fig::Series& orig = test::series(f, tr("scaling.score.original"));
    CHECK(orig.x.front() == 1);
    CHECK(orig.y.front() == doctest::Approx(0.9704051120817871).epsilon(1e-12));
    // YaRN keeps the fastest pairs: at distance 1 it is within 3% of the original, PI is not
    CHECK(test::series(f, method("yarn")).y.front() == doctest::Approx(orig.y.front()).epsilon(0.03));
    CHECK(test::series(f, test::english().format("scaling.score.stretched", {{"s", "8"}})).y.front() > 0.99);
    // The local mean says what it averages (audit: sampled, and unlabelled):
    // every distance near the start, every k-th one farther out.
    CHECK(f.subtitle.find("local mean") != std::string::npos);
    CHECK(f.subtitle.find("every k-th one (k ≤ ") != std::string::npos);
    // PI lies exactly on "the original stretched s times": the dotted line is
    // drawn over PI's wider one, so it stays visible (it was hidden under it).
    const fig::Figure pi = lesson.figure("score", params({{"method", "linear"}}));
    std::size_t at_pi = 99, at_dotted = 99;
    for (std::size_t k = 0; k < pi.series.size(); ++k) {
      if (pi.series[k].name == method("linear")) at_pi = k;
      if (pi.series[k].style == fig::LineStyle::dotted) at_dotted = k;
    }
    REQUIRE(at_pi < pi.series.size());
    REQUIRE(at_dotted < pi.series.size());
    CHECK(at_dotted > at_pi);
    CHECK(pi.series[at_pi].width > pi.series[at_dotted].width);
  }
  SUBCASE("attention: the marked point is core's factor") {
    const fig::Figure f = lesson.figure("attention", defaults);
    bool found = false;
    for (const fig::Series& s : f.series)
      if (s.kind == fig::SeriesKind::scatter) {
        CHECK(s.x.front() == 8);
        CHECK(s.y.front() == doctest::Approx(1.2079441541679836).epsilon(1e-15));
        found = true;
      }
    CHECK(found);
  }
  SUBCASE("positions: γ-mapped markers, the notes' wrong values only at their own s and γ") {
    const fig::Figure f = lesson.figure("positions", defaults);
    const fig::Series& marks = test::series(f, tr("scaling.positions.marks"));
    REQUIRE(marks.x.size() == 7);
    CHECK(marks.x[5] == 30000);
    CHECK(marks.y[5] == doctest::Approx(5683.937124413992).epsilon(1e-14));
    CHECK(test::series(f, tr("scaling.positions.notes")).y.back() == 6270);
    CHECK(!test::has_series(lesson.figure("positions", params({{"gamma", "0.7"}})), tr("scaling.positions.notes")));
    REQUIRE(!f.ref_lines.empty());
    bool limit = false;
    for (const fig::RefLine& l : f.ref_lines) limit = limit || l.value == doctest::Approx(21618.817610103102).epsilon(1e-14);
    CHECK(limit);
  }
  SUBCASE("d = 2: NTK and dynamic NTK are undefined, the figures say so instead of failing") {
    const fig::Figure f = lesson.figure("ratio", params({{"d", "2"}, {"method", "ntk"}}));
    CHECK(f.series.size() == 7);
    CHECK(f.notes.size() == 2);
    CHECK_NOTHROW(lesson.figure("wavelength", params({{"d", "2"}, {"method", "dynamic"}})));
    CHECK(lesson.check_readouts(params({{"d", "2"}, {"method", "ntk"}})) >= 3);
  }
}

TEST_CASE("scaling lesson: tables") {
  SUBCASE("yarn-interpolation: pair 32 and the correction range") {
    const app::Table t = test::table("yarn-interpolation");
    REQUIRE(t.rows.size() == 64);
    CHECK(test::number(t, 32, "theta") == doctest::Approx(0.01).epsilon(1e-15));
    CHECK(test::number(t, 32, "wavelength") == doctest::Approx(628.3185307179587).epsilon(1e-14));
    CHECK(test::number(t, 32, "rotations_in_l") == doctest::Approx(4096 / 628.3185307179587).epsilon(1e-14));
    CHECK(std::get<std::string>(test::cell(t, 32, "yarn_regime")) == "blend");
    CHECK(std::get<std::string>(test::cell(t, 0, "yarn_regime")) == "extrapolate");
    CHECK(std::get<std::string>(test::cell(t, 63, "yarn_regime")) == "interpolate");
    CHECK(test::number(t, 32, "ramp_yarn") == doctest::Approx(7.0 / 13).epsilon(1e-14));
    CHECK(test::number(t, 32, "scaled_theta_yarn") == doctest::Approx(0.005961538461538462).epsilon(1e-13));
    CHECK(test::number(t, 32, "scaled_theta_linear") == doctest::Approx(0.00125).epsilon(1e-15));
    CHECK(test::number(t, 32, "scaled_theta_notes") == doctest::Approx(0.009919100824251096).epsilon(1e-13));
    CHECK(test::meta(t, "correction_low") == 20);
    CHECK(test::meta(t, "correction_high") == 46);
    CHECK(test::meta(t, "effective_base_dynamic") == doctest::Approx(607779.2727297307).epsilon(1e-12));
    CHECK(test::meta(t, "notes_divisor") == doctest::Approx(1.0081558981184175).epsilon(1e-13));
    CHECK_THROWS_AS(test::table("yarn-interpolation", params({{"d", "2"}})), core::InvalidParameter);
  }
  SUBCASE("position-mapping: what leaves the trained range") {
    const app::Table t = test::table("position-mapping");
    REQUIRE(t.rows.size() == 7);
    CHECK(test::number(t, 5, "pos") == 30000);
    CHECK(test::number(t, 5, "gamma_mapped") == doctest::Approx(5683.937124413992).epsilon(1e-14));
    CHECK(test::number(t, 5, "linear") == 3750);
    CHECK(std::get<bool>(test::cell(t, 5, "gamma_in_trained_range")) == false);
    CHECK(std::get<bool>(test::cell(t, 5, "linear_in_trained_range")) == true);
    CHECK(std::get<bool>(test::cell(t, 4, "gamma_in_trained_range")) == true);  // 16384 → 3104
    CHECK(test::meta(t, "gamma_leaves_trained_range_above") == doctest::Approx(21618.817610103102).epsilon(1e-14));
  }
  SUBCASE("notes-yarn-check: only PI's 3750 is right") {
    const app::Table t = test::table("notes-yarn-check");
    REQUIRE(t.rows.size() == 7);
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      const std::string id = std::get<std::string>(t.rows[r][0]);
      CAPTURE(id);
      CHECK(std::get<bool>(test::cell(t, r, "notes_correct")) == (id == "linear_map_30000"));
      CHECK(test::english().has("scaling.cell." + id));
    }
    CHECK(test::number(t, 0, "true_value") == doctest::Approx(0.18946457081379975).epsilon(1e-14));
    CHECK(test::number(t, 1, "true_value") == doctest::Approx(18.946457081379975).epsilon(1e-14));
    CHECK(test::number(t, 6, "true_value") == doctest::Approx(0.009919100824251096).epsilon(1e-13));
  }
  SUBCASE("every table the view lists exists and has a caption") {
    for (std::string_view id : lesson.view().tables) {
      CAPTURE(std::string(id));
      CHECK(app::find_table(id) != nullptr);
      CHECK(test::english().has("scaling.tables." + std::string(id)));
    }
  }
}

TEST_CASE("scaling lesson: LongRoPE with Phi-3's lists, and without lists") {
  const std::vector<app::Preset> presets = app::load_presets(app::assets_dir());
  core::Params phi;
  app::find_preset(presets, "phi-3-mini-128k").apply(phi);
  // the preset opens on the init state (what transformers builds at load: the short list) ...
  CHECK(phi.integer("seq_len") == 4096);
  // ... and its long_context state is seq_len = 131072
  phi.set("seq_len", 131072.0);
  // the ratio figure: LongRoPE on top, θ′/θ = 1/long_factor[i] (seq_len 131072 > L = 4096)
  const fig::Figure f = lesson.figure("ratio", phi);
  CHECK(f.series.back().name == method("longrope"));
  const auto divisors = phi.list("long_factor");
  for (std::size_t i = 0; i < divisors.size(); ++i) CHECK(f.series.back().y[i] == doctest::Approx(1 / divisors[i]).epsilon(1e-14));
  // the readouts: which list, its range; the attention factor √(1 + ln 32 / ln 4096)
  const auto rs = lesson.readouts(phi);
  test::check_readouts(rs);
  const app::Readout* regimes = &test::readout(rs, with_method("scaling.readout.regimes", "longrope"));
  CHECK(regimes->value.rfind("long_factor (ℓ = 131,072 > L = 4,096)", 0) == 0);
  CHECK(regimes->number == doctest::Approx(64.76000213623047).epsilon(1e-14));
  const app::Readout* attention = &test::readout(rs, with_method("scaling.readout.attention", "longrope"));
  CHECK(attention->number == doctest::Approx(std::sqrt(1 + std::log(32.0) / std::log(4096.0))).epsilon(1e-14));
  // seq_len ≤ L: the short list
  phi.set("seq_len", 4096.0);
  const auto short_rs = lesson.readouts(phi);
  const app::Readout* short_regimes = &test::readout(short_rs, with_method("scaling.readout.regimes", "longrope"));
  CHECK(short_regimes->value.rfind("short_factor (ℓ = 4,096 ≤ L = 4,096)", 0) == 0);
  CHECK(short_regimes->number == doctest::Approx(3.049999999999997).epsilon(1e-14));
  // the tables list LongRoPE in every method's column and in the rope-scaling meta
  const app::Table t = app::build_table(*app::find_table("yarn-interpolation"), phi);
  CHECK(test::number(t, 47, "scaled_theta_longrope") == doctest::Approx(std::pow(1e4, -94.0 / 96) / 3.049999999999997).epsilon(1e-13));
  // without lists (--set method=longrope): 1 up to L, s beyond — the defaults show PI's numbers
  const fig::Figure plain = lesson.figure("ratio", params({{"method", "longrope"}}));
  CHECK(plain.series.back().y[10] == doctest::Approx(0.125).epsilon(1e-15));
  CHECK(lesson.check_readouts(params({{"method", "longrope"}})) >= 3);
  // lists of the wrong length for d are refused naming the list
  core::Params wrong = phi;
  wrong.set("d", 128.0);
  try {
    (void)app::resolve_view_params(lesson.view(), wrong);
    FAIL("accepted 48 divisors for 64 pairs");
  } catch (const core::InvalidParameter& e) {
    CHECK(e.key() == "short_factor");
  }
}

TEST_CASE("scaling lesson: YaRN truncate = false and an explicit attention factor, gpt-oss") {
  const std::vector<app::Preset> presets = app::load_presets(app::assets_dir());
  core::Params oss;
  app::find_preset(presets, "gpt-oss-20b").apply(oss);
  CHECK_FALSE(oss.boolean("truncate"));
  const app::Table t = app::build_table(*app::find_table("rope-scaling"), oss);
  CHECK(test::meta(t, "correction_low") == doctest::Approx(8.092779115512402).epsilon(1e-13));
  CHECK(test::number(t, 10, "ramp") == doctest::Approx(0.7950380881581633).epsilon(1e-12));
  oss.set("attention_factor", 1.5);
  const app::Table a = app::build_table(*app::find_table("rope-scaling"), oss);
  CHECK(test::meta(a, "attention_factor") == 1.5);
  test::check_readouts(lesson.readouts(oss));
}

TEST_CASE("scaling lesson: YaRN's inverted correction range is said, as HF says nothing (audit)") {
  // b = 2, d = 128, L = 4096: dim(β) = 128·ln(4096/(2π·β))/(2·ln 2) gives
  // dim(32) = 278.32 → low 278 and dim(1) = 598.3 → high min(599, 127) = 127:
  // low > high, so HF's ramp is 0 for every pair and divides every θᵢ by s,
  // although the slowest pair turns 4096·2^(−126/128)/(2π) = 329.6 times in L.
  const auto p = params({{"base", "2"}});
  const app::Table t = test::table("yarn-interpolation", p);
  CHECK(test::meta(t, "correction_low") == 278);
  CHECK(test::meta(t, "correction_high") == 127);
  bool inverted = false;
  for (const auto& [key, value] : t.meta)
    if (key == "correction_range_inverted") inverted = std::get<bool>(value);
  CHECK(inverted);
  for (std::size_t i = 0; i < t.rows.size(); ++i) CHECK(test::number(t, i, "ramp_yarn") == 0);
  const auto said = [](const fig::Figure& f) {
    for (const fig::TextNote& n : f.notes)
      if (n.text.find("Inverted correction range (low 278 > high 127)") != std::string::npos &&
          n.text.find("≥ 329 times") != std::string::npos)
        return true;
    return false;
  };
  CHECK(said(lesson.figure("ratio", p)));
  CHECK(said(lesson.figure("wavelength", p)));
  // the default base: no warning, and the table says so
  const app::Table ok = test::table("yarn-interpolation");
  for (const auto& [key, value] : ok.meta)
    if (key == "correction_range_inverted") CHECK_FALSE(std::get<bool>(value));
  CHECK_FALSE(said(lesson.figure("ratio", core::Params{})));
}
