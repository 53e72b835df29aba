// The "decay" lesson: its readouts hold (defaults and random settings), its
// curves are core's (bound, ones score, random q, k; xPos, ALiBi, Gaussian
// kernel, T5 on the comparison axis), and spot values agree with independent
// Python transcriptions run at development time:
//   RoFormer bound, d = 128, base 1e4: r = 1 → 31.53816614265808,
//     r = 100 → 10.227329948505133; base 5e5, r = 1000 → 10.200187756099268
//     (running complex sum of e^{i r θ_k}, θ_k = base^(−2k/d), mean of |S_j|);
//   torchscale XPOS all-ones score / d, d = 128, γ = 0.4, B = 512:
//     r = 100 → 0.45402308543590447, r = 1000 → 0.16270242946438715;
//   K(5)/K(0) for α = 0.7, 0.3, σ = 5, 20: 0.7153414321417466;
//   xPos half-distances B·ln ½ / ln ζ: pair 0 → 283.28691490053745,
//     last pair → 31620.487934281693.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "lesson_test_support.hpp"
#include "poslab/core/decay.hpp"
#include "poslab/core/t5.hpp"
#include "poslab/core/xpos.hpp"

using namespace poslab;
using test::params;

namespace {

const test::Lesson lesson{"decay"};

/// The y of `s` at x (exact match), or NaN.
double y_at(const app::fig::Series& s, double x) {
  for (std::size_t i = 0; i < s.x.size(); ++i)
    if (s.x[i] == x) return s.y[i];
  return std::nan("");
}

}  // namespace

TEST_CASE("decay readouts hold at the defaults and over random settings") {
  CHECK(lesson.check_readouts(core::Params{}) == 3);  // bound(0), ones(0), RoFormer's inequality
  const auto rs = lesson.readouts(core::Params{});
  CHECK(rs[0].number == doctest::Approx(32.5).epsilon(1e-14));  // (d/2 + 1)/2
  CHECK(rs[1].number == doctest::Approx(128).epsilon(1e-14));
  CHECK(rs[2].number > 0.01);  // the inequality is not vacuous: some ratio is sizeable
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 30; ++trial) {
    core::Params p;
    p.set("d", std::ldexp(1.0, std::uniform_int_distribution<int>(1, 8)(rng)));
    p.set("base", std::pow(10.0, std::uniform_real_distribution<double>(0.5, 7)(rng)));
    p.set("seed", static_cast<double>(trial));
    p.set("samples", static_cast<double>(std::uniform_int_distribution<int>(1, 64)(rng)));
    p.set("log_x", trial % 2 == 0);
    p.set_text("distance", trial % 3 == 0 ? "0:300" : "0,1,5,17,1000:1100,65536");
    CAPTURE(p.integer("d"));
    CHECK(lesson.check_readouts(p) == 3);
  }
}

TEST_CASE("decay curves figure: core's bound, ones score and random q, k at the distances drawn") {
  const auto f = lesson.figure("curves", params({{"distance", "0:2000"}, {"log_x", "false"}}));
  REQUIRE(f.series.size() == 6);  // ones, random, bound, trend, lowest, random-phase level
  const auto& ones = f.series[0];
  const auto& random = f.series[1];
  const auto& bound = f.series[2];
  CHECK(bound.x.size() == 2001);
  CHECK(bound.y[1] * 32.5 == doctest::Approx(31.53816614265808).epsilon(1e-12));
  CHECK(y_at(bound, 100) * 32.5 == doctest::Approx(10.227329948505133).epsilon(1e-12));
  for (std::size_t i = 0; i < ones.x.size(); i += 97) {
    CHECK(ones.y[i] * 128 == doctest::Approx(core::rope_ones_score(ones.x[i], 128, 1e4)).epsilon(1e-12));
    CHECK(random.y[i] * std::sqrt(256 / std::numbers::pi) ==
          doctest::Approx(core::rope_random_mean_abs_score(random.x[i], 128, 1e4, 0, 64)).epsilon(1e-12));
  }
  // The trend is the mean of the bound over [r/1.1, 1.1·r].
  const auto& trend = f.series[3];
  const std::size_t k = trend.x.size() / 2;
  const double r = trend.x[k];
  double sum = 0;
  int n = 0;
  for (std::size_t i = 0; i < bound.x.size(); ++i)
    if (bound.x[i] >= r / 1.1 && bound.x[i] <= r * 1.1) sum += bound.y[i], ++n;
  CHECK(trend.y[k] == doctest::Approx(sum / n).epsilon(1e-12));
  CHECK(f.series[5].y[0] == doctest::Approx(0.14711431640358888).epsilon(1e-12));
}

TEST_CASE("decay bases figure: every base relative to (d/2 + 1)/2") {
  const auto f = lesson.figure("bases", params({{"bases", "500000"}, {"distance", "0:2000"}, {"log_x", "false"}}));
  // raw 10000, raw 500000, trend 10000, trend 500000, minima, level
  REQUIRE(f.series.size() == 6);
  CHECK(y_at(f.series[1], 1000) * 32.5 == doctest::Approx(10.200187756099268).epsilon(1e-12));
  CHECK(f.series[4].x.size() == 2);
}

TEST_CASE("decay compare figure: xPos, ALiBi, Gaussian kernel and T5 on one axis") {
  const auto f = lesson.figure("compare", params({{"distance", "0:2000"}, {"log_x", "false"}}));
  REQUIRE(f.series.size() == 6);  // rope ones, rope bound trend, xpos, alibi, gaussian, t5
  const auto& xpos = f.series[2];
  CHECK(y_at(xpos, 100) == doctest::Approx(0.45402308543590447).epsilon(1e-12));
  CHECK(y_at(xpos, 1000) == doctest::Approx(0.16270242946438715).epsilon(1e-12));
  for (std::size_t i = 0; i < xpos.x.size(); i += 101)
    CHECK(xpos.y[i] * 128 == doctest::Approx(core::xpos_ones_score(xpos.x[i], 128, 1e4, 0.4, 512)).epsilon(1e-12));
  CHECK(y_at(f.series[3], 7) == doctest::Approx(std::exp(-3.5)).epsilon(1e-14));  // head 1 of 8: m = 1/2
  CHECK(y_at(f.series[4], 5) == doctest::Approx(0.7153414321417466).epsilon(1e-14));
  const auto& t5 = f.series[5];
  for (double r : {0.0, 7.0, 8.0, 90.0, 91.0, 2000.0})
    CHECK(y_at(t5, r) == core::t5_relative_bucket(-static_cast<long long>(r), true, 32, 128) / 15.0);
  CHECK(y_at(t5, 91) == 1.0);  // T5-base: the last bucket from 91 on
  CHECK(y_at(t5, 90) == doctest::Approx(14.0 / 15));
}

TEST_CASE("decay readouts: xPos half-distances, ALiBi halving, T5 and Gaussian cut-offs") {
  const auto rs = lesson.readouts(core::Params{});
  CHECK(test::readout_containing(rs, "xPos").number == doctest::Approx(283.28691490053745).epsilon(1e-12));
  CHECK(test::readout_containing(rs, "ALiBi").number == doctest::Approx(2 * std::numbers::ln2).epsilon(1e-14));
  CHECK(test::readout_containing(rs, "T5").number == 91);
}

TEST_CASE("decay tables: the comparison and the bases, with their default distances") {
  const app::Table t = test::table("decay-compare");
  REQUIRE(t.rows.size() == 29);  // 0..16, then 32 … 65,536
  CHECK(std::get<double>(t.rows[0][1]) == doctest::Approx(1).epsilon(1e-15));
  CHECK(std::get<double>(t.rows[1][1]) * 32.5 == doctest::Approx(31.53816614265808).epsilon(1e-12));
  CHECK(std::get<long long>(t.rows[16][6]) == core::t5_relative_bucket(-16, true, 32, 128));
  const app::Table b = test::table("decay-bases");
  CHECK(b.rows.size() == 2 * 29);  // base 10,000 and the default bases' 500,000
}
