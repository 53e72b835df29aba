// Long-term decay (RoFormer §3.4.3): the relative upper bound, the all-ones
// score, the mean |score| of seeded random q, k, and the fast curve kernel.
//
// Reference values: python3 + numpy float64 at development time (a throwaway
// script, not in the repo): θ = 1/10000**(arange(0,128,2)/128),
// bound = mean(abs(cumsum(exp(1j*r*θ)))), ones = sum(2*cos(r*θ)).
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <utility>
#include <cstdio>
#include <string>
#include <vector>

#include "core_test_support.hpp"
#include "poslab/core/decay.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/random.hpp"
#include "poslab/core/rope.hpp"

using namespace poslab::core;
using namespace poslab::test;

namespace {

struct DecayRef {
  double distance, bound, ones;
};
// d = 128, base 10000 (python3 + numpy float64, see the top of the file)
constexpr DecayRef kRef[] = {
    {0, 32.5, 128.0},
    {1, 31.538166142658085, 124.18736761153525},
    {2, 28.955988473564467, 114.76372110564752},
    {10, 17.95413713708483, 85.6400457969942},
    {50, 12.629452488319247, 69.91002168666907},
    {100, 10.227329948505155, 61.08690940298136},
    {250, 6.548179031941592, 39.30364231044501},
    {1000, 4.470761034248712, 20.35545626442127},
    {4096, 4.882792191194369, -6.765227848964379},
    {10000, 3.8585404631791915, -3.5704038497088426},
    {65535, 5.81372429548593, 5.490040292389715},
};

}  // namespace

TEST_CASE("RoFormer's relative upper bound and the all-ones score (d = 128, base 1e4)") {
  const Eigen::VectorXd theta = rope_inverse_frequencies(128, 10000);
  for (const DecayRef& r : kRef) {
    CAPTURE(r.distance);
    CHECK(rope_decay_bound(r.distance, 128, 10000) == doctest::Approx(r.bound).epsilon(1e-12));
    CHECK(rope_decay_bound(r.distance, as_span(theta)) == doctest::Approx(r.bound).epsilon(1e-12));
    CHECK(rope_ones_score(r.distance, 128, 10000) == doctest::Approx(r.ones).epsilon(1e-11));
    CHECK(rope_ones_score(r.distance, as_span(theta)) == doctest::Approx(r.ones).epsilon(1e-11));
  }
  // at r = 0 every S_j = j: (1/K) Σ j = (K + 1)/2; the ones score is d
  for (int d : {2, 4, 64, 256}) {
    CHECK(rope_decay_bound(0, d, 10000) == (d / 2 + 1) / 2.0);
    CHECK(rope_ones_score(0, d, 10000) == d);
  }
}

TEST_CASE("the all-ones score is the RoPE score of q = k = ones in both layouts") {
  for (int d : {4, 16, 128}) {
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(d);
    for (double r : {0.0, 3.0, 77.0, 1234.0}) {
      for (PairLayout layout : {PairLayout::interleaved, PairLayout::half})
        CHECK(rope_score(ones, ones, 5, 5 + r, 10000, layout) ==
              doctest::Approx(rope_ones_score(r, d, 10000)).epsilon(1e-12).scale(d));
    }
  }
}

TEST_CASE("the bound bounds the score: |⟨R_m q, R_n k⟩| <= max|h_{i+1} − h_i|·Σ|S_j| (Abel summation)") {
  // RoFormer §3.4.3 with h_i = q̃_i conj(k̃_i) and the convention h_{d/2} = 0
  for (std::uint64_t c = 0; c < 100; ++c) {
    const int d = 2 * (1 + static_cast<int>(random_uniform(21, 0, c) * 64));
    const Eigen::VectorXd q = random_vector(d, 21, 2 * c), k = random_vector(d, 21, 2 * c + 1);
    const double r = std::floor(random_uniform(21, 1, c) * 5000);
    double max_diff = 0;
    for (int i = 0; i < d / 2; ++i) {
      const std::complex<double> hi(q[2 * i] * k[2 * i] + q[2 * i + 1] * k[2 * i + 1],
                                    q[2 * i + 1] * k[2 * i] - q[2 * i] * k[2 * i + 1]);
      std::complex<double> hn(0, 0);
      if (i + 1 < d / 2)
        hn = {q[2 * i + 2] * k[2 * i + 2] + q[2 * i + 3] * k[2 * i + 3],
              q[2 * i + 3] * k[2 * i + 2] - q[2 * i + 2] * k[2 * i + 3]};
      max_diff = std::max(max_diff, std::abs(hn - hi));
    }
    const double score = rope_score(q, k, 0, r, 10000, PairLayout::interleaved);
    const double sum_abs_s = rope_decay_bound(r, d, 10000) * (d / 2);
    CHECK(std::fabs(score) <= max_diff * sum_abs_s * (1 + 1e-12));
  }
}

TEST_CASE("mean |score| of seeded random q, k: deterministic, and equal to averaging rope_score") {
  const int d = 32, samples = 16;
  const std::uint64_t seed = 3;
  for (double r : {0.0, 1.0, 10.0, 500.0}) {
    double sum = 0;
    for (int s = 0; s < samples; ++s) {
      const auto stream = static_cast<std::uint64_t>(2 * s);
      const Eigen::VectorXd q = random_vector(d, seed, stream), k = random_vector(d, seed, stream + 1);
      sum += std::fabs(rope_score(q, k, 7, 7 + r, 10000, PairLayout::interleaved));
    }
    CAPTURE(r);
    CHECK(rope_random_mean_abs_score(r, d, 10000, seed, samples) == doctest::Approx(sum / samples).epsilon(1e-12));
    CHECK(rope_random_mean_abs_score(r, d, 10000, seed, samples) ==
          rope_random_mean_abs_score(r, d, 10000, seed, samples));
  }
  CHECK(rope_random_mean_abs_score(10, d, 10000, 3, samples) != rope_random_mean_abs_score(10, d, 10000, 4, samples));
  const std::vector<double> distances = {0, 5, 50, 5000};
  std::vector<double> out(distances.size());
  rope_random_mean_abs_score_curve(distances, d, 10000, seed, samples, out);
  for (std::size_t j = 0; j < distances.size(); ++j)
    CHECK(out[j] == doctest::Approx(rope_random_mean_abs_score(distances[j], d, 10000, seed, samples)).epsilon(1e-14));
}

TEST_CASE("the curve kernel agrees with the one-distance bound (progressions and arbitrary lists)") {
  const Eigen::VectorXd theta = rope_inverse_frequencies(128, 10000);
  std::vector<double> distances(65536);
  for (std::size_t j = 0; j < distances.size(); ++j) distances[j] = static_cast<double>(j);
  std::vector<double> out(distances.size());
  rope_decay_bound_curve(distances, as_span(theta), out);
  for (std::size_t j = 0; j < distances.size(); j += 97)
    CHECK(out[j] == doctest::Approx(rope_decay_bound(distances[j], as_span(theta))).epsilon(1e-10));
  for (const DecayRef& r : kRef)
    CHECK(out[static_cast<std::size_t>(r.distance)] == doctest::Approx(r.bound).epsilon(1e-10));

  // Runs of different lengths and steps back to back (how a log axis is
  // sampled: power-of-two strides per octave), each run shorter or longer
  // than a block, starting anywhere in one.
  std::vector<double> runs;
  for (int j = 0; j < 100; ++j) runs.push_back(j);
  for (double stride = 2, r = 100; r < 60000; stride *= 2)
    for (int j = 0; j < 37 + static_cast<int>(stride) % 50; ++j, r += stride) runs.push_back(r);
  std::vector<double> got_runs(runs.size()), ones_runs(runs.size());
  rope_decay_bound_curve(runs, as_span(theta), got_runs);
  rope_decay_bound_curve(runs, as_span(theta), got_runs, ones_runs);
  for (std::size_t j = 0; j < runs.size(); ++j) {
    CAPTURE(runs[j]);
    CHECK(got_runs[j] == doctest::Approx(rope_decay_bound(runs[j], as_span(theta))).epsilon(1e-10));
    // The ones score from the same running sums: within d·(75u + u·r·θ_0).
    const double ones_bound = 128 * (75 + runs[j]) * 0x1p-53;
    CHECK(std::abs(ones_runs[j] - rope_ones_score(runs[j], as_span(theta))) <= 2 * ones_bound);
  }
  // Runs of 2..64 distances with a new step each (8, 16, 32 and 64 lanes; the
  // step table refilled, or extended by the rows a longer run needs).
  std::vector<double> short_runs;
  for (int len = 2, r = 0; len <= 64; ++len)
    for (int j = 0; j < len; ++j) short_runs.push_back(r += len);
  std::vector<double> got_short(short_runs.size()), ones_short(short_runs.size());
  rope_decay_bound_curve(short_runs, as_span(theta), got_short, ones_short);
  for (std::size_t j = 0; j < short_runs.size(); ++j) {
    CAPTURE(short_runs[j]);
    CHECK(got_short[j] == doctest::Approx(rope_decay_bound(short_runs[j], as_span(theta))).epsilon(1e-10));
    CHECK(std::abs(ones_short[j] - rope_ones_score(short_runs[j], as_span(theta))) <= 2 * 128 * (75 + short_runs[j]) * 0x1p-53);
  }

  // a fractional step, a list that is no progression, a constant run, a short tail
  std::vector<double> mixed;
  for (int j = 0; j < 70; ++j) mixed.push_back(0.5 * j);
  for (int j = 0; j < 40; ++j) mixed.push_back(std::floor(random_uniform(31, 0, static_cast<std::uint64_t>(j)) * 1e5));
  for (int j = 0; j < 33; ++j) mixed.push_back(123);
  mixed.push_back(1e9);
  Eigen::VectorXd scaled(37);
  for (int i = 0; i < 37; ++i) scaled[i] = 0.9 * std::pow(0.75, i);
  for (const Eigen::VectorXd* th : {&theta, static_cast<const Eigen::VectorXd*>(&scaled)}) {
    std::vector<double> got(mixed.size());
    rope_decay_bound_curve(mixed, as_span(*th), got);
    for (std::size_t j = 0; j < mixed.size(); ++j) {
      CAPTURE(j);
      CHECK(got[j] == doctest::Approx(rope_decay_bound(mixed[j], as_span(*th))).epsilon(1e-9));
    }
  }
}

TEST_CASE("every invalid decay parameter is rejected with its key") {
  const Eigen::VectorXd theta = rope_inverse_frequencies(8, 10000);
  std::vector<double> out(2);
  const std::vector<double> two = {0, 1};
  rejects([] { rope_decay_bound(-1, 8, 10000); }, "distance");
  rejects([] { rope_decay_bound(std::nan(""), 8, 10000); }, "distance");
  rejects([] { rope_decay_bound(1, 7, 10000); }, "d");
  rejects([] { rope_decay_bound(1, 8, 0.5); }, "base");
  rejects([] { rope_decay_bound(1, std::span<const double>()); }, "d");
  const double bad[] = {1, std::nan("")};
  rejects([&] { rope_decay_bound(1, bad); }, "theta");
  rejects([] { rope_ones_score(-3, 8, 10000); }, "distance");
  rejects([] { rope_ones_score(1, 9, 10000); }, "d");
  rejects([] { rope_random_mean_abs_score(1, 8, 10000, 0, 0); }, "samples");
  rejects([] { rope_random_mean_abs_score(1, 8, 10000, 0, 20000); }, "samples");
  rejects([] { rope_random_mean_abs_score(1, 8, 10000, ~0ULL, 4); }, "seed");
  rejects([] { rope_random_mean_abs_score(-1, 8, 10000, 0, 4); }, "distance");
  rejects([&] { rope_random_mean_abs_score_curve(two, 8, 10000, 0, 4, std::span<double>(out.data(), 1)); },
          "distance");
  rejects([&] { rope_decay_bound_curve(two, as_span(theta), std::span<double>(out.data(), 1)); }, "distance");
  const std::vector<double> negative = {0, -1};
  rejects([&] { rope_decay_bound_curve(negative, as_span(theta), out); }, "distance");
  rejects([&] { rope_decay_bound_curve(two, bad, out); }, "theta");
}

TEST_CASE("the random-phase level: E|S_j| of a walk of j random unit steps, exactly (audit)") {
  // Oracle: python3 + scipy, E|S_j| = ∫₀^∞ (1 − J₀(t)^j)/t² dt by quad on unit
  // panels to t = 4000, its tail 1/T minus ∫_T J₀^j/t² to 24,000 (about 1e-12
  // for j ≥ 3). W₃(1) = 1.57459723755189… (Borwein et al.).
  CHECK(random_walk_mean_distance(0) == 0);
  CHECK(random_walk_mean_distance(1) == 1);
  CHECK(random_walk_mean_distance(2) == doctest::Approx(4 / std::numbers::pi).epsilon(1e-15));
  const std::pair<int, double> oracle[] = {{3, 1.5745972375522157}, {4, 1.7990924798432688}, {5, 2.0081618454159638},
                                           {10, 2.8203538275447735}, {31, 4.94431455100973}, {32, 5.023108768028679},
                                           {64, 7.09676048889862}};
  for (const auto& jv : oracle) {
    CAPTURE(jv.first);
    CHECK(random_walk_mean_distance(jv.first) == doctest::Approx(jv.second).epsilon(1e-10));
  }
  // The level of RoFormer's relative bound: Σ_j E|S_j| over d/2, over (d/2 + 1)/2.
  // Oracle as above for every j ≤ 128. The old √(πj)/2 (the Rayleigh mean) gave
  // 0.14711431640358888 at d = 128, 0.24 % low.
  const std::pair<int, double> levels[] = {{2, 1.0}, {4, 0.757746514911721}, {8, 0.5646929262130648},
                                           {16, 0.4094994144041464}, {64, 0.2081094262475546},
                                           {128, 0.14746477119095278}, {256, 0.10436744035741224}};
  for (const auto& dl : levels) {
    CAPTURE(dl.first);
    CHECK(rope_decay_bound_random_level(dl.first) == doctest::Approx(dl.second).epsilon(1e-10));
  }
  CHECK(std::abs(rope_decay_bound_random_level(128) - 0.14711431640358888) > 3e-4);
  // The far bound does settle there: its mean over many distances far beyond the longest wavelength.
  const int d = 16;
  const double base = 10;  // θ from 1 down to 10^(−14/16): every wavelength below 50 tokens
  double mean = 0;
  const int n = 200000;
  for (int k = 0; k < n; ++k) mean += rope_decay_bound(1e6 + 7.31 * k, d, base);
  mean /= n;
  CHECK(mean / ((d / 2 + 1) / 2.0) == doctest::Approx(rope_decay_bound_random_level(d)).epsilon(1e-4));  // numpy: 0.409499186
  CHECK_THROWS(rope_decay_bound_random_level(3));  // odd d
}
