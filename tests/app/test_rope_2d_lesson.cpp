// The "rope-2d" lesson: its readouts prove what they claim, at the defaults
// and over many random settings, and its figures and table carry core's numbers.
//
// Reference values: RoFormer eq. 13 written out by hand for one pair,
//   R(α)(x, y) = (x cos α − y sin α, x sin α + y cos α),
// evaluated with std::cos/std::sin here (independent of core::rope_rotate).

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "app/common/slider_math.hpp"
#include "app/lessons/rope_2d/setting.hpp"
#include "lesson_test_support.hpp"
#include "poslab/core/params.hpp"

using namespace poslab;

namespace {

const test::Lesson lesson{"rope-2d"};

std::pair<double, double> rot(double x, double y, double a) {
  return {x * std::cos(a) - y * std::sin(a), x * std::sin(a) + y * std::cos(a)};
}

double by_hand_score(double q0, double q1, double k0, double k1, double m, double n, double theta) {
  const auto [a, b] = rot(q0, q1, m * theta);
  const auto [c, d] = rot(k0, k1, n * theta);
  return a * c + b * d;
}

}  // namespace

TEST_CASE("rope-2d: readouts at the defaults hold and match a hand rotation") {
  const auto rs = lesson.readouts(core::Params{});
  REQUIRE(rs.size() >= 5);
  test::check_readouts(rs);
  // Defaults: q = (1, 0.5), k = (0.8, −0.4), m = 2, n = 5, θ = 0.5 (lesson default).
  const double expected = by_hand_score(1, 0.5, 0.8, -0.4, 2, 5, 0.5);
  const app::Readout* score = test::find_readout(rs, "rope-2d.readout.score");
  REQUIRE(score != nullptr);
  CHECK(score->number == doctest::Approx(expected).epsilon(1e-14));
  // 0.84044… as the figure note shows: |q||k| cos(φ_k − φ_q + 1.5).
  CHECK(expected == doctest::Approx(std::hypot(1, 0.5) * std::hypot(0.8, -0.4) *
                                    std::cos(std::atan2(-0.4, 0.8) - std::atan2(0.5, 1) + 1.5)).epsilon(1e-14));
}

TEST_CASE("rope-2d: shifting both positions keeps the score, moving one changes it (random settings)") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-3, 3), pos(0, 200), th(0.01, 3), sh(-50, 50);
  for (int trial = 0; trial < 300; ++trial) {
    core::Params p;
    const double q0 = u(rng), q1 = u(rng), k0 = u(rng), k1 = u(rng);
    const double m = pos(rng), n = pos(rng), theta = th(rng), s = sh(rng);
    p.set("q", std::vector<double>{q0, q1});
    p.set("k", std::vector<double>{k0, k1});
    p.set("m", m), p.set("n", n), p.set("theta", theta), p.set("shift", s);
    const auto rs = lesson.readouts(p);
    test::check_readouts(rs);
    const double applied = std::max(s, -std::min(m, n));  // the lesson keeps positions >= 0
    const app::Readout* shifted = test::find_readout(rs, "rope-2d.readout.shifted");
    REQUIRE(shifted != nullptr);
    CHECK(shifted->number == doctest::Approx(by_hand_score(q0, q1, k0, k1, m + applied, n + applied, theta)).epsilon(1e-9));
    CHECK(shifted->number == doctest::Approx(by_hand_score(q0, q1, k0, k1, m, n, theta)).epsilon(1e-9).scale(std::hypot(q0, q1) * std::hypot(k0, k1)));
  }
}

TEST_CASE("rope-2d: figures carry core's numbers") {
  core::Params p;
  p.set_text("m", "3"), p.set_text("n", "7"), p.set_text("shift", "2"), p.set_text("theta", "0.3");
  const auto f = lesson.figure("plane", p);
  // The rotated q is the shaft series named after q′, ending at R((m+s)θ)q.
  const auto [x, y] = rot(1, 0.5, (3 + 2) * 0.3);
  bool found = false;
  for (const auto& s : f.series)
    if (s.x.size() == 2 && s.x[0] == 0 && std::abs(s.x[1] - x) < 1e-12 && std::abs(s.y[1] - y) < 1e-12) found = true;
  CHECK(found);

  const auto g = lesson.figure("score-shift", p);
  REQUIRE(g.series.size() >= 2);
  for (const auto& s : g.series) {
    if (s.x.size() < 10) continue;
    for (std::size_t i = 0; i < s.x.size(); i += 97) {
      const double both = by_hand_score(1, 0.5, 0.8, -0.4, 3 + s.x[i], 7 + s.x[i], 0.3);
      const double key = by_hand_score(1, 0.5, 0.8, -0.4, 3, 7 + s.x[i], 0.3);
      CHECK((std::abs(s.y[i] - both) < 1e-12 || std::abs(s.y[i] - key) < 1e-12));
    }
  }
}

TEST_CASE("rope-2d: score-shift's x-axis is the shift slider's range, one period of the key-only cosine long at least") {
  // Student review: "the shift slider runs −20 … 20, but the plot's x-axis
  // runs from about −2 to 36" (θ small: the figure showed a whole period).
  const core::ParamSpec& shift = core::param_spec("shift");
  std::mt19937_64 rng(3012);
  std::uniform_real_distribution<double> pos(0.0, 40.0), log_theta(std::log(0.01), std::log(3.14159));
  for (int i = 0; i < 200; ++i) {
    const double m = std::round(pos(rng)), n = std::round(pos(rng)), theta = std::exp(log_theta(rng));
    core::Params p;
    p.set("m", m), p.set("n", n), p.set("theta", theta);
    CAPTURE(m);
    CAPTURE(n);
    CAPTURE(theta);
    const auto [lo, hi] = app::slider_range(shift, p);
    const double period = 2 * std::numbers::pi / theta;
    CHECK(lo == std::max(shift.ui_min, -std::min(m, n)));
    CHECK(hi == std::max(shift.ui_max, std::ceil(lo + period)));  // the end on a whole token
    const auto f = lesson.figure("score-shift", p);
    double x_lo = INFINITY, x_hi = -INFINITY;
    for (const auto& s : f.series)
      for (double x : s.x) x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x);
    CHECK(x_lo == doctest::Approx(lo).epsilon(1e-12));
    CHECK(x_hi == doctest::Approx(hi).epsilon(1e-12));
    CHECK(x_hi - x_lo >= period * (1 - 1e-12));
  }
  // The steps' setting, θ = 0.5: −2 … 20 (period 12.6); θ = 0.16: −2 … 38, not −2 … 20 under an axis to 37.3.
  CHECK(app::slider_range(shift, test::params({{"m", "5"}, {"n", "2"}, {"theta", "0.5"}})) == std::pair<double, double>{-2, 20});
  CHECK(app::slider_range(shift, test::params({{"m", "5"}, {"n", "2"}, {"theta", "0.16"}})).second == 38);
}

TEST_CASE("rope-2d-shift table: one row per shift, the score column constant") {
  const app::TableDef* def = app::find_table("rope-2d-shift");
  REQUIRE(def != nullptr);
  const app::Table t = app::build_table(*def, core::Params{});
  REQUIRE(t.rows.size() == 9);  // pos = 0:8
  const double first = std::get<double>(t.rows[0].back());
  CHECK(first == doctest::Approx(by_hand_score(1, 0.5, 0.8, -0.4, 2, 5, 1)).epsilon(1e-14));
  for (const auto& row : t.rows) CHECK(std::get<double>(row.back()) == doctest::Approx(first).epsilon(1e-12));
  core::Params far;
  far.set_text("pos", "1e12");
  CHECK_THROWS_AS(app::build_table(*def, far), core::InvalidParameter);
}

TEST_CASE("rope-2d: the shift slider starts at −min(m, n), where the lesson's clamp does, and shows a lower value as taken") {
  const core::ParamSpec& shift = core::param_spec("shift");
  std::mt19937_64 rng(2811);
  std::uniform_real_distribution<double> pos(0.0, 40.0);
  for (int i = 0; i < 200; ++i) {
    // whole positions (the sliders' tokens) and fractional ones (typed)
    const double m = i % 2 ? std::round(pos(rng)) : pos(rng), n = i % 3 ? std::round(pos(rng)) : pos(rng);
    core::Params p;
    p.set("m", m);
    p.set("n", n);
    CAPTURE(m);
    CAPTURE(n);
    const auto range = app::slider_range(shift, p);
    const double lo = range.first, hi = range.second;
    CHECK(lo == std::max(shift.ui_min, app::rope_2d::shift_min(m, n)));
    CHECK(hi == shift.ui_max);
    CHECK(app::lesson_floor("shift", p) == app::rope_2d::shift_min(m, n));
    // every shift the slider offers is one the lesson takes as it is
    for (double s : {lo, (lo + hi) / 2, hi}) {
      p.set("shift", s);
      CHECK_FALSE(app::rope_2d::setup(p).shift_clamped);
    }
    // below the slider's start (when that is the lesson's floor) the lesson clamps
    if (lo > shift.ui_min) {
      p.set("shift", lo - 1);
      CHECK(app::rope_2d::setup(p).shift_clamped);
      CHECK(app::rope_2d::setup(p).shift == lo);
      // a value left below it (a link, a deck) does not widen the slider below the floor
      CHECK(app::shown_slider_range(shift, p, shift.ui_min).first == lo);
    }
    // a value above the usual end still widens it
    CHECK(app::shown_slider_range(shift, p, 35).second == 35);
  }
  // The steps' setting: m = 5, n = 2 gives −2 … 20 (it offered −20 … 20).
  CHECK(app::slider_range(shift, test::params({{"m", "5"}, {"n", "2"}})) == std::pair<double, double>{-2, 20});
  // Only the shift follows other parameters from below.
  for (const core::ParamSpec& spec : core::param_specs()) {
    CAPTURE(spec.key);
    CHECK(app::lesson_floor(spec.key, core::Params{}).has_value() == (spec.key == "shift"));
  }
}
