// ALiBi slopes against the authors' get_slopes, the structure of the slopes,
// the bias, the matrix and the masked softmax.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core_test_support.hpp"
#include "poslab/core/alibi.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/random.hpp"

using namespace poslab::core;
using namespace poslab::test;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void check_relative(double got, double want, double tolerance) {
  CAPTURE(got);
  CAPTURE(want);
  CHECK(std::fabs(got - want) <= tolerance * std::fabs(want));
}

}  // namespace

// Reference values: python3 (CPython 3.11, C library pow) running the authors'
// get_slopes verbatim (ofirpress/attention_with_linear_biases, fairseq
// multihead_attention.py; the same function is in HF BLOOM's build_alibi_tensor
// as a closed form), printed with repr(): every slope below 16 heads; from 16
// heads on, six (the first two, the middle pair, the last two). A comparison of
// all heads = 1..256 at development time agreed to the last bit.
TEST_CASE("alibi_slopes matches the authors' get_slopes") {
  struct Reference {
    int heads;
    std::vector<double> slopes;  ///< of every head, or of the six heads pinned from 16 on
  };
  const std::vector<Reference> references = {
      {1, {0.00390625}},
      {2, {0.0625, 0.00390625}},
      {3, {0.0625, 0.00390625, 0.25}},
      {5, {0.25, 0.0625, 0.015625, 0.00390625, 0.5}},
      {6, {0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125}},
      {8, {0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625}},
      {12,
       {0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625, 0.7071067811865476,
        0.35355339059327384, 0.17677669529663692, 0.08838834764831849}},
      {16,
       {0.7071067811865476, 0.5000000000000001, 0.06250000000000004, 0.044194173824159244,
        0.005524271728019908, 0.003906250000000004}},
      {24,
       {0.7071067811865476, 0.5000000000000001, 0.01562500000000001, 0.011048543456039816,
        0.10511205190671426, 0.07432544468767001}},
      {40,
       {0.8408964152537145, 0.7071067811865475, 0.03124999999999997, 0.02627801297667855,
        0.32420988866275235, 0.27262693316631437}},
      {80,
       {0.9170040432046712, 0.8408964152537145, 0.031249999999999976, 0.028656376350145955,
        0.28469715868917334, 0.2610684456068539}},
      {256,
       {0.9785720620877001, 0.9576032806985736, 0.062499999999999625, 0.061160753880480895,
        0.003991785736930097, 0.0039062499999999536}},
  };
  for (const Reference& r : references) {
    CAPTURE(r.heads);
    const auto s = alibi_slopes(r.heads);
    REQUIRE(s.size() == static_cast<std::size_t>(r.heads));
    const auto h = static_cast<std::size_t>(r.heads);
    const std::size_t pinned[] = {0, 1, h / 2 - 1, h / 2, h - 2, h - 1};
    for (std::size_t k = 0; k < r.slopes.size(); ++k) {
      const std::size_t head = r.heads < 16 ? k : pinned[k];
      CAPTURE(head);
      check_relative(s[head], r.slopes[k], 1e-15);
    }
  }
}

TEST_CASE("ALiBi paper: 8 heads give 1/2, 1/4, ..., 1/256") {
  // Press et al. 2022 §3: "For a model with 8 heads, the slopes we use are the
  // geometric sequence 1/2^1, 1/2^2, ..., 1/2^8."
  const auto s = alibi_slopes(8);
  for (int k = 0; k < 8; ++k) CHECK(s[static_cast<std::size_t>(k)] == std::ldexp(1.0, -(k + 1)));
}

TEST_CASE("slope structure for every head count 1..256") {
  for (int heads = 1; heads <= 256; ++heads) {
    CAPTURE(heads);
    const auto s = alibi_slopes(heads);
    REQUIRE(s.size() == static_cast<std::size_t>(heads));
    int p = 1;
    while (2 * p <= heads) p *= 2;
    for (double x : s) {
      CHECK(x > 0);
      CHECK(x < 1);
    }
    // Powers of two: geometric, start = ratio = 2^(−8/n), so slope k (1-based) is 2^(−8k/n).
    // (The reference's start·ratio^i accumulates a few ulps: up to 1.2e-14 off 2^(−8k/n).)
    const auto base = alibi_slopes(p);
    const double start = std::exp2(-8.0 / p);
    check_relative(base[0], start, 1e-15);
    for (int k = 0; k + 1 < p; ++k) {
      check_relative(base[static_cast<std::size_t>(k + 1)] / base[static_cast<std::size_t>(k)], start, 1e-14);
      check_relative(base[static_cast<std::size_t>(k)], std::exp2(-8.0 * (k + 1) / p), 1e-13);
    }
    // Not a power of two: the slopes of p, then the even-indexed slopes of 2p.
    for (int k = 0; k < p; ++k) CHECK(s[static_cast<std::size_t>(k)] == base[static_cast<std::size_t>(k)]);
    if (heads != p) {
      const auto doubled = alibi_slopes(2 * p);
      for (int k = p; k < heads; ++k)
        CHECK(s[static_cast<std::size_t>(k)] == doubled[static_cast<std::size_t>(2 * (k - p))]);
    }
  }
}

TEST_CASE("alibi_bias: causal and symmetric") {
  CHECK(alibi_bias(0.5, 5, 2, true) == -1.5);
  CHECK(alibi_bias(0.5, 5, 5, true) == 0.0);
  CHECK(!std::signbit(alibi_bias(0.5, 5, 5, true)));  // +0, not −0
  CHECK(alibi_bias(0.5, 5, 6, true) == -kInf);       // the future is masked
  CHECK(alibi_bias(0.5, 5, 8, false) == -1.5);
  CHECK(alibi_bias(0.5, 8, 5, false) == -1.5);
  CHECK(!std::signbit(alibi_bias(0.25, 3, 3, false)));
  for (std::uint64_t t = 0; t < 300; ++t) {
    const double slope = random_uniform(3, 0, t);
    const auto i = static_cast<long long>(random_uniform(3, 1, t) * 1e6);
    const auto j = static_cast<long long>(random_uniform(3, 2, t) * 1e6);
    const double b = alibi_bias(slope, i, j, false);
    CHECK(b == alibi_bias(slope, j, i, false));  // symmetric
    CHECK(b <= 0);
    CHECK(std::isfinite(b));
    if (j <= i) CHECK(alibi_bias(slope, i, j, true) == b);
  }
}

TEST_CASE("alibi_bias_matrix agrees with alibi_bias") {
  for (bool causal : {true, false}) {
    const double slope = alibi_slopes(8)[2];
    const auto m = alibi_bias_matrix(slope, 37, causal);
    REQUIRE(m.rows() == 37);
    REQUIRE(m.cols() == 37);
    for (int i = 0; i < 37; ++i)
      for (int j = 0; j < 37; ++j) CHECK(m(i, j) == alibi_bias(slope, i, j, causal));
  }
}

TEST_CASE("softmax_rows: rows sum to 1, masked entries are 0") {
  for (std::uint64_t t = 0; t < 200; ++t) {
    const int n = 1 + static_cast<int>(random_uniform(9, 0, t) * 40);
    const bool causal = t % 2 == 0;
    const double slope = alibi_slopes(16)[t % 16];
    Eigen::MatrixXd scores = alibi_bias_matrix(slope, n, causal);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const auto index = t * 4096 + static_cast<std::uint64_t>(i * n + j);
        if (std::isfinite(scores(i, j))) scores(i, j) += 20 * (random_uniform(9, 1, index) - 0.5);  // content
      }
    const auto w = softmax_rows(scores);
    for (int i = 0; i < n; ++i) {
      CHECK(std::fabs(w.row(i).sum() - 1.0) < 1e-12);
      for (int j = 0; j < n; ++j) {
        CHECK(w(i, j) >= 0);
        if (causal && j > i) CHECK(w(i, j) == 0);
      }
    }
  }
  // Hand-checked: softmax(0, ln 3) = (1/4, 3/4); an all-masked row is all 0.
  Eigen::MatrixXd s(2, 2);
  s << 0, std::log(3.0), -kInf, -kInf;
  const auto w = softmax_rows(s);
  CHECK(w(0, 0) == doctest::Approx(0.25).epsilon(1e-15));
  CHECK(w(0, 1) == doctest::Approx(0.75).epsilon(1e-15));
  CHECK(w(1, 0) == 0);
  CHECK(w(1, 1) == 0);
  // Large scores do not overflow (the row maximum is subtracted first).
  Eigen::MatrixXd big(1, 2);
  big << 1000, 1000;
  CHECK(softmax_rows(big)(0, 0) == 0.5);
}

TEST_CASE("invalid ALiBi inputs are rejected with the right key") {
  CHECK(key_of([] { alibi_slopes(0); }) == "heads");
  CHECK(key_of([] { alibi_slopes(257); }) == "heads");
  CHECK(key_of([] { alibi_slopes(256); }) == "(accepted)");
  CHECK(key_of([] { alibi_bias(std::nan(""), 1, 0, true); }) == "slope");
  CHECK(key_of([] { alibi_bias(-0.5, 1, 0, true); }) == "slope");
  CHECK(key_of([] { alibi_bias(kInf, 1, 0, true); }) == "slope");
  CHECK(key_of([] { alibi_bias(0.5, -1, 0, true); }) == "pos");
  CHECK(key_of([] { alibi_bias(0.5, 0, 2000000000000LL, true); }) == "pos");
  CHECK(key_of([] { alibi_bias_matrix(0.5, 0, true); }) == "positions");
  CHECK(key_of([] { alibi_bias_matrix(0.5, 4097, true); }) == "positions");
  CHECK(key_of([] { alibi_bias_matrix(2.0, 4, true); }) == "slope");
  Eigen::MatrixXd bad(1, 2);
  bad << 0, std::nan("");
  CHECK(key_of([&] { softmax_rows(bad); }) == "scores");
  bad << 0, kInf;
  CHECK(key_of([&] { softmax_rows(bad); }) == "scores");
}

TEST_CASE("alibi_bias_grid gives alibi_bias at every cell, masks included, and checks its arguments") {
  for (int t = 0; t < 200; ++t) {
    const double slope = random_uniform(11, 0, t);
    const bool causal = t % 2 == 0;
    std::vector<long long> rows, cols;
    const int nr = 1 + t % 7, nc = 1 + t % 5;
    for (int r = 0; r < nr; ++r) rows.push_back(static_cast<long long>(random_uniform(11, 1 + r, t) * 1e6));
    for (int c = 0; c < nc; ++c) cols.push_back(static_cast<long long>(random_uniform(11, 20 + c, t) * 1e6));
    std::vector<double> out(rows.size() * cols.size());
    alibi_bias_grid(slope, rows, cols, causal, out);
    for (std::size_t r = 0; r < rows.size(); ++r)
      for (std::size_t c = 0; c < cols.size(); ++c) {
        const double want = alibi_bias(slope, rows[r], cols[c], causal);
        const double got = out[r * cols.size() + c];
        CHECK((got == want || (std::isinf(got) && std::isinf(want) && got < 0 && want < 0)));
        CHECK_FALSE(std::signbit(got) != std::signbit(want));  // +0 stays +0
      }
  }
  std::vector<long long> rows{0, 1}, cols{0, 1, 2}, bad{-1};
  std::vector<double> out(6), small(5), three(3);
  CHECK(key_of([&] { alibi_bias_grid(0.5, rows, cols, true, small); }) == "pos");
  CHECK(key_of([&] { alibi_bias_grid(0.5, bad, cols, true, three); }) == "pos");
  CHECK(key_of([&] { alibi_bias_grid(0.5, rows, cols, true, out); }) == "(accepted)");
  CHECK(key_of([&] { alibi_bias_grid(std::nan(""), rows, cols, true, out); }) == "slope");
}
