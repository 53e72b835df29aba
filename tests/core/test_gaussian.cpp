// The notes' Gaussian-kernel RoPE (seed 000): K(x), the absolute form
// K(m)K(n)·score that the notes use, the relative form K(m − n)·score, the
// shift-invariance measure and the cutoff distance.
//
// Reference values for K: python3 float64 at development time,
// 0.7*exp(-x*x/50) + 0.3*exp(-x*x/800) (the notes' defaults α = 0.7, 0.3, σ = 5, 20).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>

#include "core_test_support.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/gaussian.hpp"
#include "poslab/core/random.hpp"

using namespace poslab::core;
using namespace poslab::test;

namespace {

constexpr std::uint64_t kVectorSeed = 41;  // random_vector's seed for q and k

}  // namespace

TEST_CASE("K(x) = α1 exp(−x²/2σ1²) + α2 exp(−x²/2σ2²) with the notes' defaults") {
  const GaussianKernel k;  // 0.7, 0.3, 5, 20
  const struct {
    double x, value;
  } ref[] = {{0, 1.0},
             {1, 0.9857643055921028},
             {5, 0.7153414321417466},
             {10, 0.35948376904100754},
             {20, 0.18219402175332178},
             {50, 0.013181080087022226},
             {-7, 0.5448941882052822}};
  for (const auto& r : ref) {
    CAPTURE(r.x);
    CHECK(k(r.x) == doctest::Approx(r.value).epsilon(1e-14));
  }
  CHECK(k(3) == k(-3));
  CHECK(parse_kernel_mode("absolute") == KernelMode::absolute);
  CHECK(parse_kernel_mode("relative") == KernelMode::relative);
}

TEST_CASE("the two forms are the kernel times the RoPE score") {
  const GaussianKernel kernel{0.6, 0.4, 3, 12};
  for (std::uint64_t c = 0; c < 50; ++c) {
    const int d = 2 * (1 + static_cast<int>(random_uniform(42, 0, c) * 32));
    const Eigen::VectorXd q = random_vector(d, kVectorSeed, 2 * c), k = random_vector(d, kVectorSeed, 2 * c + 1);
    const double m = std::floor(random_uniform(42, 1, c) * 40), n = std::floor(random_uniform(42, 2, c) * 40);
    for (PairLayout layout : {PairLayout::interleaved, PairLayout::half}) {
      const double s = rope_score(q, k, m, n, 10000, layout);
      CHECK(gaussian_rope_score(q, k, m, n, 10000, layout, kernel, KernelMode::absolute) ==
            doctest::Approx(kernel(m) * kernel(n) * s).epsilon(1e-14));
      CHECK(gaussian_rope_score(q, k, m, n, 10000, layout, kernel, KernelMode::relative) ==
            doctest::Approx(kernel(m - n) * s).epsilon(1e-14));
    }
  }
}

TEST_CASE("the notes' absolute form breaks shift invariance; the relative form keeps it (200 seeded cases)") {
  const GaussianKernel kernel;
  int large = 0, counted = 0;
  for (std::uint64_t c = 0; c < 200; ++c) {
    const int d = 2 * (1 + static_cast<int>(random_uniform(43, 0, c) * 64));
    const Eigen::VectorXd q = random_vector(d, kVectorSeed, 2 * c), k = random_vector(d, kVectorSeed, 2 * c + 1);
    const double m = std::floor(random_uniform(43, 1, c) * 10), n = std::floor(random_uniform(43, 2, c) * 10);
    const PairLayout layout = c % 2 ? PairLayout::half : PairLayout::interleaved;
    const double scale = q.norm() * k.norm();
    const double rel = gaussian_shift_invariance_error(q, k, m, n, 64, 10000, layout, kernel, KernelMode::relative);
    CHECK(rel <= 1e-12 * scale);
    const double abs_err =
        gaussian_shift_invariance_error(q, k, m, n, 64, 10000, layout, kernel, KernelMode::absolute);
    const double s0 = std::fabs(gaussian_rope_score(q, k, m, n, 10000, layout, kernel, KernelMode::absolute));
    if (s0 > 0.05 * scale) {
      ++counted;
      // shifting both positions by up to 64 drives K(m + s)K(n + s) towards 0:
      // the score loses most of its value although m − n did not change
      if (abs_err > 0.5 * s0) ++large;
    }
  }
  REQUIRE(counted > 20);
  CHECK(large == counted);
}

TEST_CASE("the score matrix equals the pointwise scores; relative mode is Toeplitz") {
  const GaussianKernel kernel{0.7, 0.3, 4, 15};
  const Eigen::VectorXd q = random_vector(16, kVectorSeed, 1), k = random_vector(16, kVectorSeed, 2);
  for (PairLayout layout : {PairLayout::interleaved, PairLayout::half})
    for (KernelMode mode : {KernelMode::absolute, KernelMode::relative}) {
      const Eigen::MatrixXd s = gaussian_score_matrix(q, k, 40, 500000, layout, kernel, mode);
      REQUIRE(s.rows() == 40);
      REQUIRE(s.cols() == 40);
      for (int m = 0; m < 40; ++m)
        for (int n = 0; n < 40; ++n)
          CHECK(s(m, n) == doctest::Approx(gaussian_rope_score(q, k, m, n, 500000, layout, kernel, mode))
                               .epsilon(1e-12)
                               .scale(q.norm() * k.norm()));
      if (mode == KernelMode::relative) {
        double worst = 0;
        for (int m = 0; m + 1 < 40; ++m)
          for (int n = 0; n + 1 < 40; ++n) worst = std::max(worst, std::fabs(s(m + 1, n + 1) - s(m, n)));
        CHECK(worst <= 1e-12 * q.norm() * k.norm());
      }
    }
}

TEST_CASE("cutoff: the first x with K(x) < threshold·K(0)") {
  // one Gaussian: x* = σ·√(2 ln(1/threshold))
  const GaussianKernel single{1.0, 0.0, 5, 20};
  CHECK(gaussian_kernel_cutoff(single, 0.01) == doctest::Approx(5 * std::sqrt(2 * std::log(100.0))).epsilon(1e-14));
  // the notes' defaults: K(x*) = 0.01·K(0), and K stays above it before x*
  const GaussianKernel notes;
  const double x1 = gaussian_kernel_cutoff(notes, 0.01);
  CHECK(notes(x1) == doctest::Approx(0.01).epsilon(1e-12));
  CHECK(notes(x1 * (1 - 1e-9)) >= 0.01);
  // python3 bisection of the same K: 52.16280193135454 (= 20·√(2 ln 30): only the σ2 term is left)
  CHECK(x1 == doctest::Approx(52.16280193135454).epsilon(1e-13));
  // A mix that changes sign (α2 < 0 with the wider σ): K dips below zero and
  // comes back in size. The cutoff is where |K| stays below threshold·|K(0)|
  // for good — the last crossing of |K| = c, not the first of K = c (at 0.01
  // signed K is below 1 % from x ≈ 13, but |K| is still 0.37 at x = 14).
  // Oracle: python3 (numpy grid of 2e6 points to 2000, brentq on the last
  // bracket where |K| >= c).
  const GaussianKernel dip{1.0, -0.5, 5, 20};
  const std::pair<double, double> dip_cut[] = {
      {0.9, 1.62844324319071}, {0.5, 23.547162675441427}, {0.1, 42.91932052578693}, {0.01, 60.69708517540585}};
  for (const auto& entry : dip_cut) {
    const double thr = entry.first, expected = entry.second;  // (no structured binding: clang 14's CAPTURE refuses one)
    const double x = gaussian_kernel_cutoff(dip, thr);
    CAPTURE(thr);
    CHECK(x == doctest::Approx(expected).epsilon(1e-12));
    CHECK(std::fabs(dip(x)) == doctest::Approx(thr * 0.5).epsilon(1e-12));
    for (int j = 1; j <= 2000; ++j) CHECK(std::fabs(dip(x * (1 + j / 100.0))) < thr * 0.5);  // below for good
  }
  CHECK(std::fabs(dip(14)) > 0.3);  // where signed K was already "below 1 %"
  // the same mix negated: |K| is the same, so is the cutoff (K(0) < 0 has a size to take 1 % of)
  CHECK(gaussian_kernel_cutoff(GaussianKernel{-1.0, 0.5, 5, 20}, 0.5) == doctest::Approx(23.547162675441427).epsilon(1e-12));
  CHECK(gaussian_kernel_cutoff(GaussianKernel{-1.0, 0.5, 5, 20}, 0.01) == doctest::Approx(60.69708517540585).epsilon(1e-12));
  // a mix that rises first (α1 < 0 with the narrower σ), positive throughout
  const GaussianKernel rise{-0.5, 1.0, 5, 20};
  const double xr = gaussian_kernel_cutoff(rise, 0.1);
  CHECK(xr == doctest::Approx(48.95493661361633).epsilon(1e-12));
  CHECK(rise(xr) == doctest::Approx(0.05).epsilon(1e-12));
  for (int j = 0; j < 1000; ++j) CHECK(rise(xr * j / 1000.0) >= 0.05 * (1 - 1e-12));
  // no peak to take a fraction of
  CHECK(gaussian_kernel_cutoff(GaussianKernel{0, 0, 5, 20}, 0.5) < 0);
  CHECK(gaussian_kernel_cutoff(GaussianKernel{-0.5, 0.5, 5, 20}, 0.5) < 0);
}

TEST_CASE("every invalid Gaussian-kernel parameter is rejected with its key") {
  const Eigen::VectorXd q = random_vector(8, kVectorSeed, 1), k = random_vector(8, kVectorSeed, 2);
  const GaussianKernel ok;
  rejects([] { GaussianKernel{0.7, 0.3, 0, 20}.check(); }, "sigma1");
  rejects([] { GaussianKernel{0.7, 0.3, 5, -1}.check(); }, "sigma2");
  rejects([] { GaussianKernel{std::nan(""), 0.3, 5, 20}.check(); }, "alpha1");
  rejects([] { GaussianKernel{0.7, 2e6, 5, 20}.check(); }, "alpha2");
  rejects([] { return GaussianKernel{0.7, 0.3, 0, 20}(1.0); }, "sigma1");
  rejects([] { return GaussianKernel{0.7, std::numeric_limits<double>::infinity(), 5, 20}(1.0); }, "alpha2");
  rejects([&] { return ok(std::nan("")); }, "distance");
  rejects([] { parse_kernel_mode("both"); }, "kernel_mode");
  rejects([&] { gaussian_rope_score(q, k, 1, 2, 10000, PairLayout::half, GaussianKernel{1, 1, 1, 0}, KernelMode::relative); },
          "sigma2");
  rejects([&] { gaussian_rope_score(q, k, -1, 2, 10000, PairLayout::half, ok, KernelMode::relative); }, "m");
  rejects([&] { gaussian_rope_score(q, Eigen::VectorXd::Ones(4), 1, 2, 10000, PairLayout::half, ok, KernelMode::relative); },
          "vector");
  rejects([&] { gaussian_score_matrix(q, k, 0, 10000, PairLayout::half, ok, KernelMode::absolute); }, "positions");
  rejects([&] { gaussian_score_matrix(q, k, 5000, 10000, PairLayout::half, ok, KernelMode::absolute); }, "positions");
  rejects([&] { gaussian_score_matrix(q, k, 8, 1, PairLayout::half, ok, KernelMode::absolute); }, "base");
  rejects([&] { gaussian_shift_invariance_error(q, k, 1, 2, 0, 10000, PairLayout::half, ok, KernelMode::absolute); },
          "window");
  rejects([&] { gaussian_kernel_cutoff(ok, 0); }, "threshold");
  rejects([&] { gaussian_kernel_cutoff(ok, 1); }, "threshold");
  rejects([&] { gaussian_kernel_cutoff(GaussianKernel{1, 1, -5, 1}, 0.5); }, "sigma1");
}
