// RoPE: frequencies, both pair layouts, matrix and complex forms, scores, the
// notes' worked examples and their mixed-layout bug, and the benchmark kernels.
//
// Reference values: "python3 + numpy, float64" means a throwaway script (not in
// the repo) that evaluates the formula named next to the number with numpy at
// development time; "HF float32" means HF transformers'
// `_compute_default_rope_parameters` transcribed and run in torch 1.13 float32.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "core_test_support.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/random.hpp"
#include "poslab/core/rope.hpp"

using namespace poslab::core;
using namespace poslab::test;

namespace {

constexpr std::uint64_t kVectorSeed = 7;  // random_vector's seed for q, k and x

/// Seeded choices for property tests: an even d in 2..256, a base, a position.
struct Case {
  int d;
  double base;
  double m;
  double n;
};

Case random_case(std::uint64_t i) {
  const double bases[] = {10000.0, 500000.0, 1e6, 2.0, 1e12};
  const int d = 2 * (1 + static_cast<int>(random_uniform(11, 0, i) * 128));
  const double base = bases[static_cast<int>(random_uniform(11, 1, i) * 5)];
  const double m = std::floor(random_uniform(11, 2, i) * 10000);
  const double n = std::floor(random_uniform(11, 3, i) * 10000);
  return {d, base, m, n};
}

template <class Scalar>
double dot_d(const Vec<Scalar>& a, const Vec<Scalar>& b) {
  return a.template cast<double>().dot(b.template cast<double>());
}

}  // namespace

TEST_CASE("inverse frequencies θ_i = base^(−2i/d) and wavelengths 2π/θ_i") {
  const Eigen::VectorXd t4 = rope_inverse_frequencies(4, 10000);
  REQUIRE(t4.size() == 2);
  CHECK(t4[0] == 1.0);
  CHECK(t4[1] == doctest::Approx(0.01).epsilon(1e-15));
  // d = 128, base 1e4, against HF float32 (_compute_default_rope_parameters)
  // and python float64: pair → (float64, float32)
  const Eigen::VectorXd t = rope_inverse_frequencies(128, 10000);
  const struct {
    int pair;
    double f64, f32;
  } hf[] = {{8, 0.31622776601683794, 0.3162277638912201},
            {20, 0.056234132519034905, 0.05623412877321243},
            {32, 0.01, 0.009999999776482582},
            {46, 0.001333521432163324, 0.0013335214462131262},
            {63, 0.00011547819846894582, 0.00011547819303814322}};
  for (const auto& e : hf) {
    CAPTURE(e.pair);
    CHECK(t[e.pair] == doctest::Approx(e.f64).epsilon(1e-13));
    CHECK(t[e.pair] == doctest::Approx(e.f32).epsilon(1e-6));
  }
  const Eigen::VectorXd w = rope_wavelengths(128, 10000);
  CHECK(w[0] == doctest::Approx(2 * std::numbers::pi));
  CHECK(w[32] == doctest::Approx(200 * std::numbers::pi).epsilon(1e-13));
}

TEST_CASE("inverse frequencies: within the stated bound of base^(−2i/d), every d and base") {
  // rope.cpp computes θ_i as base^(−qK/h)·base^(−r/h) (two std::pow and a
  // product) and states |θ̂/θ − 1| <= 5u, u = 2^−53, plus ln(base)·u·i/h when
  // h = d/2 is not a power of two (the exponents are rounded). The reference
  // is powl in long double (x87: 64-bit mantissa, within ~2^−63 of exact).
  const double u = std::ldexp(1.0, -53);
  // Where long double's powl is only double's pow — musl's for 113-bit long
  // double, in the browser build (emscripten) — the reference itself is off
  // by up to one ulp (2u) of pow plus ln(base)·u·i/h (its exponent rounded to
  // double): that is added to the bound there, nowhere else.
#if defined(__EMSCRIPTEN__)
  constexpr bool kReferenceIsDouble = true;
#else
  constexpr bool kReferenceIsDouble = false;
#endif
  double worst_ratio = 0;  // the largest error seen, in units of its bound
  for (std::uint64_t trial = 0; trial < 400; ++trial) {
    const int d = trial < 13 ? 2 << trial : 2 * (1 + static_cast<int>(random_uniform(21, 0, trial) * 4096));
    if (d > 8192) continue;
    const double base = trial % 3 == 0 ? 10000.0 : 1.0 + std::pow(10.0, 12 * random_uniform(21, 1, trial));
    CAPTURE(d);
    CAPTURE(base);
    const Eigen::VectorXd t = rope_inverse_frequencies(d, base);
    const int h = d / 2;
    REQUIRE(t.size() == h);
    CHECK(t[0] == 1.0);
    const bool exact_exponents = (h & (h - 1)) == 0;
    for (int i = 0; i < h; ++i) {
      const long double ref = std::pow(static_cast<long double>(base), -static_cast<long double>(i) / h);
      const double err = static_cast<double>(std::fabs(static_cast<long double>(t[i]) / ref - 1));
      const double rounded_exponent = exact_exponents ? 0.0 : std::log(base) * u * i / h;
      const double bound = 5 * u + rounded_exponent + (kReferenceIsDouble ? 2 * u + rounded_exponent : 0.0) + 1e-18;
      if (!(err <= bound)) {
        CAPTURE(i);
        CHECK(err <= bound);
      }
      worst_ratio = std::max(worst_ratio, err / bound);
    }
    // The span form is the same computation, for any base > 1 (derived bases).
    std::vector<double> out(static_cast<std::size_t>(h));
    rope_inverse_frequencies(d, base, out);
    for (int i = 0; i < h; ++i) CHECK_MESSAGE(out[static_cast<std::size_t>(i)] == t[i], "pair " << i);
  }
  MESSAGE("largest error / bound: " << worst_ratio);
  CHECK(worst_ratio > 0);  // the comparison saw rounding at all (the reference is finer than double)
  std::vector<double> out(4);
  rejects([&] { rope_inverse_frequencies(8, 1.0, out); }, "base");
  rejects([&] { rope_inverse_frequencies(8, std::nan(""), out); }, "base");
  rejects([&] { rope_inverse_frequencies(6, 10000, out); }, "d");  // 3 pairs, out holds 4
  rejects([&] { rope_inverse_frequencies(7, 10000, out); }, "d");
}

TEST_CASE("pair layouts: interleaved (2i, 2i+1) and half (i, i + d/2)") {
  CHECK(rope_pair_indices(0, 8, PairLayout::interleaved) == std::pair{0, 1});
  CHECK(rope_pair_indices(3, 8, PairLayout::interleaved) == std::pair{6, 7});
  CHECK(rope_pair_indices(0, 8, PairLayout::half) == std::pair{0, 4});
  CHECK(rope_pair_indices(3, 8, PairLayout::half) == std::pair{3, 7});
  CHECK(parse_pair_layout("interleaved") == PairLayout::interleaved);
  CHECK(parse_pair_layout("half") == PairLayout::half);
  CHECK(std::string(pair_layout_name(PairLayout::half)) == "half");
  CHECK(std::string(pair_layout_name(PairLayout::interleaved)) == "interleaved");
  const std::vector<int> perm = rope_layout_permutation(8);
  CHECK(perm == std::vector<int>{0, 4, 1, 5, 2, 6, 3, 7});
  const Eigen::VectorXd x = (Eigen::VectorXd(8) << 0, 1, 2, 3, 4, 5, 6, 7).finished();
  const Eigen::VectorXd h = interleaved_to_half(x);
  CHECK(h == (Eigen::VectorXd(8) << 0, 2, 4, 6, 1, 3, 5, 7).finished());
  CHECK(half_to_interleaved(h) == x);
}

// The notes, seed 003 §3.4: q = [1, 2, 3, 4], m = 2, d = 4, base 10000.
// Expected: python3 float64, (q_a cos mθ − q_b sin mθ, q_a sin mθ + q_b cos mθ).
// The notes print −2.234, 0.077, 2.92, 4.06 (pair 2 rounded to 2 places).
TEST_CASE("notes seed 003: q = [1,2,3,4] rotated to m = 2") {
  const Eigen::VectorXd q = (Eigen::VectorXd(4) << 1, 2, 3, 4).finished();
  const Eigen::VectorXd y = rope_rotate<double>(q, 2, 10000, PairLayout::interleaved);
  const double expected[] = {-2.234741690198506, 0.0770037537313969, 2.919405353226401, 4.05919602674631};
  for (int j = 0; j < 4; ++j) CHECK(y[j] == doctest::Approx(expected[j]).epsilon(1e-14));
  CHECK(std::round(y[0] * 1000) / 1000 == doctest::Approx(-2.235).epsilon(1e-12));  // −2.2347 → −2.235 (notes: −2.234, truncated)
  CHECK(std::round(y[1] * 1000) / 1000 == doctest::Approx(0.077));
  CHECK(std::round(y[2] * 100) / 100 == doctest::Approx(2.92));
  CHECK(std::round(y[3] * 100) / 100 == doctest::Approx(4.06));
}

// The notes, seed 001: five vectors at positions 0..4, d = 4, base 10000
// (angles m and m/100). Expected: python3 float64 of the notes' own loop.
// The notes' table has two rounding slips: position 3, pair 2 is 1.029546
// (4 places: 1.0295; 5 places 1.02955; the notes print 1.0296) and position 1,
// pair 2 second value is cos(0.01) = 0.99995000 (4 places 1.0000; notes 0.9999).
TEST_CASE("notes seed 001: the five-vector table") {
  const double vectors[5][4] = {{1, 0, 1, 0}, {0, 1, 0, 1}, {1, 1, 1, 1}, {1, -1, 1, -1}, {0.5, 0.5, 0.5, 0.5}};
  const double expected[5][4] = {
      {1.0, 0.0, 1.0, 0.0},
      {-0.8414709848078965, 0.5403023058681398, -0.009999833334166664, 0.9999500004166653},
      {-1.325444263372824, 0.4931505902785393, 0.9798013399732447, 1.019798673359911},
      {-0.8488724885405782, 1.1311125046603125, 1.0295455339514832, -0.9695545335464919},
      {0.05157943722215813, -0.7052230580857701, 0.47960538623717186, 0.5195947204238061}};
  for (int p = 0; p < 5; ++p) {
    CAPTURE(p);
    const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(vectors[p], 4);
    const Eigen::VectorXd y = rope_rotate<double>(x, p, 10000, PairLayout::interleaved);
    for (int j = 0; j < 4; ++j) CHECK(y[j] == doctest::Approx(expected[p][j]).epsilon(1e-14));
  }
  const Eigen::VectorXd y3 = rope_rotate<double>((Eigen::VectorXd(4) << 1, -1, 1, -1).finished(), 3, 10000,
                                                 PairLayout::interleaved);
  CHECK(std::round(y3[2] * 1e5) / 1e5 == doctest::Approx(1.02955).epsilon(1e-12));
  CHECK(std::round(y3[2] * 1e4) / 1e4 == doctest::Approx(1.0295).epsilon(1e-12));  // not 1.0296
}

TEST_CASE_TEMPLATE("rotation keeps the norm (both layouts, 300 seeded cases)", Scalar, float, double) {
  const double tol = std::is_same_v<Scalar, float> ? 1e-6 : 1e-13;
  for (std::uint64_t i = 0; i < 300; ++i) {
    const Case c = random_case(i);
    const Vec<Scalar> x = random_vector<Scalar>(c.d, kVectorSeed, i);
    for (PairLayout layout : {PairLayout::interleaved, PairLayout::half}) {
      const Vec<Scalar> y = rope_rotate<Scalar>(x, c.m, c.base, layout);
      CAPTURE(c.d);
      CAPTURE(c.m);
      const double nx = x.template cast<double>().norm();
      CHECK(std::fabs(y.template cast<double>().norm() - nx) <= tol * nx);
    }
  }
}

TEST_CASE_TEMPLATE("scores depend on m − n only (both layouts, 300 seeded cases)", Scalar, float, double) {
  const double tol = std::is_same_v<Scalar, float> ? 2e-6 : 1e-11;
  for (std::uint64_t i = 0; i < 300; ++i) {
    const Case c = random_case(i);
    const Vec<Scalar> q = random_vector<Scalar>(c.d, kVectorSeed, 2 * i);
    const Vec<Scalar> k = random_vector<Scalar>(c.d, kVectorSeed, 2 * i + 1);
    const double scale = q.template cast<double>().norm() * k.template cast<double>().norm();
    const double shift = std::floor(random_uniform(12, 0, i) * 5000);
    for (PairLayout layout : {PairLayout::interleaved, PairLayout::half}) {
      CAPTURE(c.d);
      CAPTURE(c.m);
      CAPTURE(c.n);
      const double s0 = dot_d<Scalar>(rope_rotate<Scalar>(q, c.m, c.base, layout), rope_rotate<Scalar>(k, c.n, c.base, layout));
      const double s1 = dot_d<Scalar>(rope_rotate<Scalar>(q, c.m + shift, c.base, layout),
                                      rope_rotate<Scalar>(k, c.n + shift, c.base, layout));
      CHECK(std::fabs(s1 - s0) <= tol * scale);
      // ⟨R_m q, R_n k⟩ = ⟨q, R_{n−m} k⟩ (or ⟨R_{m−n} q, k⟩ when m > n)
      const double s2 = c.n >= c.m ? dot_d<Scalar>(q, rope_rotate<Scalar>(k, c.n - c.m, c.base, layout))
                                   : dot_d<Scalar>(rope_rotate<Scalar>(q, c.m - c.n, c.base, layout), k);
      CHECK(std::fabs(s2 - s0) <= tol * scale);
    }
    if constexpr (std::is_same_v<Scalar, double>) {
      const double s = rope_score(q, k, c.m, c.n, c.base, PairLayout::half);
      CHECK(std::fabs(s - rope_score(q, k, c.m + shift, c.n + shift, c.base, PairLayout::half)) <= tol * scale);
    }
  }
}

TEST_CASE_TEMPLATE("the layouts agree up to the permutation (300 seeded cases)", Scalar, float, double) {
  for (std::uint64_t i = 0; i < 300; ++i) {
    const Case c = random_case(i);
    const Eigen::VectorXd x = random_vector<double>(c.d, kVectorSeed, i);
    const Vec<Scalar> xi = x.cast<Scalar>();
    const Vec<Scalar> xh = interleaved_to_half(x).cast<Scalar>();
    const Vec<Scalar> yi = rope_rotate<Scalar>(xi, c.m, c.base, PairLayout::interleaved);
    const Vec<Scalar> yh = rope_rotate<Scalar>(xh, c.m, c.base, PairLayout::half);
    // same arithmetic on the same pairs: bit-identical after relabelling
    CHECK(interleaved_to_half(yi.template cast<double>()) == yh.template cast<double>());
  }
}

TEST_CASE("the rotation matrix equals rope_rotate and is orthogonal with R_mᵀR_n = R_{n−m}") {
  for (std::uint64_t i = 0; i < 100; ++i) {
    Case c = random_case(i);
    c.d = std::min(c.d, 64);
    const Eigen::VectorXd x = random_vector(c.d, kVectorSeed, i);
    for (PairLayout layout : {PairLayout::interleaved, PairLayout::half}) {
      const Eigen::MatrixXd rm = rope_rotation_matrix(c.d, c.m, c.base, layout);
      CHECK((rm * x - rope_rotate<double>(x, c.m, c.base, layout)).norm() <= 1e-13 * x.norm());
      CHECK((rm.transpose() * rm - Eigen::MatrixXd::Identity(c.d, c.d)).norm() <= 1e-13);
      if (c.n >= c.m) {
        const Eigen::MatrixXd rn = rope_rotation_matrix(c.d, c.n, c.base, layout);
        const Eigen::MatrixXd rd = rope_rotation_matrix(c.d, c.n - c.m, c.base, layout);
        CHECK((rm.transpose() * rn - rd).norm() <= 1e-9);
      }
    }
  }
  // d = 4, m = 2 written out (notes seed 003 step 3): [[cos 2, −sin 2, 0, 0], [sin 2, cos 2, 0, 0], ...]
  const Eigen::MatrixXd r = rope_rotation_matrix(4, 2, 10000, PairLayout::interleaved);
  CHECK(r(0, 0) == doctest::Approx(std::cos(2.0)));
  CHECK(r(0, 1) == doctest::Approx(-std::sin(2.0)));
  CHECK(r(1, 0) == doctest::Approx(std::sin(2.0)));
  CHECK(r(2, 3) == doctest::Approx(-std::sin(0.02)));
  CHECK(r(0, 2) == 0.0);
  const Eigen::MatrixXd rh = rope_rotation_matrix(4, 2, 10000, PairLayout::half);
  CHECK(rh(0, 2) == doctest::Approx(-std::sin(2.0)));
  CHECK(rh(1, 3) == doctest::Approx(-std::sin(0.02)));
}

TEST_CASE("the complex form equals the interleaved rotation") {
  for (std::uint64_t i = 0; i < 200; ++i) {
    const Case c = random_case(i);
    const Eigen::VectorXd x = random_vector(c.d, kVectorSeed, i);
    const auto z = rope_complex(x, c.m, c.base);
    const Eigen::VectorXd y = rope_rotate<double>(x, c.m, c.base, PairLayout::interleaved);
    REQUIRE(z.size() == static_cast<std::size_t>(c.d / 2));
    for (int p = 0; p < c.d / 2; ++p) {
      CHECK(std::fabs(z[static_cast<std::size_t>(p)].real() - y[2 * p]) <= 1e-14 * x.norm());
      CHECK(std::fabs(z[static_cast<std::size_t>(p)].imag() - y[2 * p + 1]) <= 1e-14 * x.norm());
    }
  }
}

TEST_CASE("an attention factor scales cos and sin (YaRN)") {
  const Eigen::VectorXd x = random_vector(64, kVectorSeed, 3);
  const Eigen::VectorXd theta = rope_inverse_frequencies(64, 10000);
  const Eigen::VectorXd y1 = rope_rotate<double>(x, 17, as_span(theta), PairLayout::half, 1.0);
  const Eigen::VectorXd y2 = rope_rotate<double>(x, 17, as_span(theta), PairLayout::half, 1.2079441541679836);
  CHECK((y2 - 1.2079441541679836 * y1).norm() <= 1e-14 * y2.norm());
  CHECK(y2.norm() == doctest::Approx(1.2079441541679836 * x.norm()).epsilon(1e-13));
}

// The notes' seed-000 code: cos/sin from cat(freqs, freqs) but rotate_half
// pairing neighbours. Expected: python3 + numpy float64 transcription of that
// code for x = [1..8], m = 3, base 10000.
TEST_CASE("the notes' mixed layout: matches their code and breaks RoPE's properties") {
  const Eigen::VectorXd x = (Eigen::VectorXd(8) << 1, 2, 3, 4, 5, 6, 7, 8).finished();
  const Eigen::VectorXd y = rope_rotate_mixed(x, 3, 10000);
  const double expected[] = {-1.27223251272018, 2.206193184912552, 2.8786681004369807, 4.008981986513506,
                             -5.79668253136143, 7.209619968060334,  6.756886234622949,  8.020963968527013};
  for (int j = 0; j < 8; ++j) CHECK(y[j] == doctest::Approx(expected[j]).epsilon(1e-14));

  // over seeded cases the relative property fails by a large margin, while
  // proper RoPE keeps it to rounding
  double worst_mixed = 0, worst_rope = 0, worst_norm_change = 0;
  for (std::uint64_t i = 0; i < 200; ++i) {
    const int d = 2 * (2 + static_cast<int>(random_uniform(13, 0, i) * 63));  // 4..128: pairs need distinct angles
    const Eigen::VectorXd q = random_vector(d, kVectorSeed, 2 * i), k = random_vector(d, kVectorSeed, 2 * i + 1);
    const double m = 1 + std::floor(random_uniform(13, 1, i) * 50), n = std::floor(random_uniform(13, 2, i) * 50);
    const double s = 1 + std::floor(random_uniform(13, 3, i) * 20);
    const double scale = q.norm() * k.norm();
    const double mixed0 = rope_rotate_mixed(q, m, 10000).dot(rope_rotate_mixed(k, n, 10000));
    const double mixed1 = rope_rotate_mixed(q, m + s, 10000).dot(rope_rotate_mixed(k, n + s, 10000));
    worst_mixed = std::max(worst_mixed, std::fabs(mixed1 - mixed0) / scale);
    worst_rope = std::max(worst_rope, std::fabs(rope_score(q, k, m + s, n + s, 10000, PairLayout::half) -
                                                rope_score(q, k, m, n, 10000, PairLayout::half)) /
                                          scale);
    worst_norm_change = std::max(worst_norm_change, std::fabs(rope_rotate_mixed(q, m, 10000).norm() / q.norm() - 1));
  }
  CHECK(worst_mixed > 0.1);
  CHECK(worst_rope < 1e-12);
  CHECK(worst_norm_change > 0.05);
}

TEST_CASE("cos/sin tables: the recurrence with re-anchoring stays within its stated bound") {
  const double u = 0x1.0p-53;
  const Eigen::VectorXd base_theta = rope_inverse_frequencies(128, 10000);
  // frequencies: plain RoPE, and an odd count with θ up to 3 and an attention factor
  Eigen::VectorXd odd(37);
  for (int i = 0; i < 37; ++i) odd[i] = 3.0 * std::pow(0.7, i);
  struct Setup {
    const Eigen::VectorXd* theta;
    double af;
    std::int64_t tokens;
  } setups[] = {{&base_theta, 1.0, 4096}, {&odd, 1.2079441541679836, 1000}, {&base_theta, 0.5, 130}};
  for (const Setup& s : setups) {
    const auto half = static_cast<std::size_t>(s.theta->size());
    const auto cells = static_cast<std::size_t>(s.tokens) * half;
    std::vector<double> cd(cells), sd(cells);
    std::vector<float> cf(cells), sf(cells);
    rope_cos_sin_table(std::span<double>(cd), std::span<double>(sd), s.tokens, as_span(*s.theta), s.af);
    rope_cos_sin_table(std::span<float>(cf), std::span<float>(sf), s.tokens, as_span(*s.theta), s.af);
    double worst_ratio = 0;
    for (std::int64_t t = 0; t < s.tokens; ++t) {
      const std::int64_t k = t % kRopeReanchor;
      const std::int64_t t0 = t - k;
      for (std::size_t i = 0; i < half; ++i) {
        const double theta = (*s.theta)[static_cast<Eigen::Index>(i)];
        const double angle = static_cast<double>(t) * theta;
        const double ref_c = s.af * std::cos(angle), ref_s = s.af * std::sin(angle);
        // the stated bound, plus the reference's own rounding (angle u·|tθ|, cos/sin, the product)
        const double bound = s.af * ((3.0 * static_cast<double>(k) + 1) * std::numbers::sqrt2 * u +
                                     u * static_cast<double>(t0) * theta + u * angle + 4 * u);
        const std::size_t cell = static_cast<std::size_t>(t) * half + i;
        const double err = std::hypot(cd[cell] - ref_c, sd[cell] - ref_s);
        worst_ratio = std::max(worst_ratio, err / bound);
        const double float_bound = bound + 0x1.0p-24 * s.af;
        CHECK(std::fabs(cf[cell] - ref_c) <= float_bound);
        CHECK(std::fabs(sf[cell] - ref_s) <= float_bound);
      }
    }
    CHECK(worst_ratio <= 1.0);
  }
}

TEST_CASE("rope_apply equals rope_rotate on every [token, head] vector (both layouts)") {
  const std::int64_t tokens = 150;
  const int heads = 3, d = 16;
  const Eigen::VectorXd theta = rope_inverse_frequencies(d, 10000);
  const auto cells = static_cast<std::size_t>(tokens) * (d / 2);
  std::vector<float> c(cells), s(cells);
  rope_cos_sin_table(c, s, tokens, as_span(theta), 1.1);
  for (PairLayout layout : {PairLayout::interleaved, PairLayout::half}) {
    std::vector<float> data(static_cast<std::size_t>(tokens) * heads * d);
    for (std::size_t j = 0; j < data.size(); ++j) data[j] = static_cast<float>(random_normal(5, 0, j));
    const std::vector<float> before = data;
    rope_apply(data, tokens, heads, d, c, s, layout);
    for (std::int64_t t = 0; t < tokens; ++t)
      for (int h = 0; h < heads; ++h) {
        const std::size_t off = (static_cast<std::size_t>(t) * heads + static_cast<std::size_t>(h)) * d;
        const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXf>(before.data() + off, d).cast<double>();
        const Eigen::VectorXd want = rope_rotate<double>(x, static_cast<double>(t), as_span(theta), layout, 1.1);
        const Eigen::VectorXd got = Eigen::Map<const Eigen::VectorXf>(data.data() + off, d).cast<double>();
        CHECK((got - want).norm() <= 5e-7 * x.norm());
      }
  }
}

TEST_CASE("every invalid RoPE parameter is rejected with its key") {
  const Eigen::VectorXd x4 = (Eigen::VectorXd(4) << 1, 2, 3, 4).finished();
  const Eigen::VectorXd theta = rope_inverse_frequencies(4, 10000);
  rejects([] { rope_inverse_frequencies(7, 10000); }, "d");
  rejects([] { rope_inverse_frequencies(0, 10000); }, "d");
  rejects([] { rope_inverse_frequencies(10000, 10000); }, "d");
  rejects([] { rope_inverse_frequencies(8, 1); }, "base");
  rejects([] { rope_inverse_frequencies(8, std::nan("")); }, "base");
  rejects([] { rope_wavelengths(8, -3); }, "base");
  rejects([] { rope_pair_indices(4, 8, PairLayout::half); }, "pair");
  rejects([] { rope_pair_indices(-1, 8, PairLayout::half); }, "pair");
  rejects([] { parse_pair_layout("diagonal"); }, "layout");
  rejects([&] { rope_rotate<double>(x4, -1, 10000, PairLayout::half); }, "m");
  rejects([&] { rope_rotate<double>(x4, std::numeric_limits<double>::infinity(), 10000, PairLayout::half); }, "m");
  rejects([&] { rope_rotate<double>(x4, 1, 0.5, PairLayout::half); }, "base");
  rejects([] { rope_rotate<double>((Eigen::VectorXd(3) << 1, 2, 3).finished(), 1, 10000, PairLayout::half); },
          "vector");
  rejects([] { rope_rotate<float>((Eigen::VectorXf(2) << 1, std::nanf("")).finished(), 1, 10000, PairLayout::half); },
          "vector");
  rejects([] { rope_rotate<double>(Eigen::VectorXd(0), 1, 10000, PairLayout::half); }, "vector");
  rejects([&] { rope_rotate<double>(x4, 1, std::span<const double>(theta.data(), 1), PairLayout::half); }, "d");
  rejects([&] { rope_rotate<double>(x4, 1, as_span(theta), PairLayout::half, 0.0); }, "attention_factor");
  rejects([&] { rope_rotate<double>(x4, 1, as_span(theta), PairLayout::half, std::nan("")); }, "attention_factor");
  const double bad_theta[] = {1.0, -0.1};
  rejects([&] { rope_rotate<double>(x4, 1, bad_theta, PairLayout::half); }, "theta");
  rejects([] { rope_rotation_matrix(5, 1, 10000, PairLayout::half); }, "d");
  rejects([] { rope_rotation_matrix(4, -2, 10000, PairLayout::half); }, "m");
  rejects([] { rope_complex((Eigen::VectorXd(2) << 1, std::nan("")).finished(), 1, 10000); }, "vector");
  rejects([&] { rope_score(x4, Eigen::VectorXd::Ones(6), 1, 2, 10000, PairLayout::half); }, "vector");
  rejects([&] { rope_score(x4, x4, 1, -2, 10000, PairLayout::half); }, "n");
  rejects([] { rope_layout_permutation(3); }, "d");
  rejects([] { interleaved_to_half((Eigen::VectorXd(1) << 1).finished()); }, "vector");
  rejects([] { rope_rotate_mixed((Eigen::VectorXd(5) << 1, 2, 3, 4, 5).finished(), 1, 10000); }, "vector");
  std::vector<float> c(8), s(8), data(16);
  rejects([&] { rope_cos_sin_table(c, s, 0, as_span(theta)); }, "positions");
  rejects([&] { rope_cos_sin_table(c, s, 3, as_span(theta)); }, "positions");  // 3 × 2 != 8
  rejects([&] { rope_cos_sin_table(c, s, 4, std::span<const double>()); }, "d");
  rejects([&] { rope_cos_sin_table(c, s, 4, as_span(theta), -1.0); }, "attention_factor");
  rejects([&] { rope_apply(data, 4, 0, 4, c, s, PairLayout::half); }, "heads");
  rejects([&] { rope_apply(data, 4, 1, 3, c, s, PairLayout::half); }, "d");
  rejects([&] { rope_apply(data, 4, 2, 4, c, s, PairLayout::half); }, "d");  // 4 × 2 × 4 != 16
  rejects([&] { rope_apply(data, 2, 2, 4, c, s, PairLayout::half); }, "positions");  // tables hold 4 rows
  rejects([&] { rope_apply(data, -1, 1, 4, c, s, PairLayout::half); }, "positions");
}
