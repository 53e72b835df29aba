// xPos: ζ_i, the per-pair decay and the all-ones score, against exact values
// and torchscale's XPOS.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core_test_support.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/random.hpp"
#include "poslab/core/xpos.hpp"

using namespace poslab::core;
using namespace poslab::test;


// ζ_i: exact fractions (2i + 0.4·128)/(1.4·128); torchscale's float32 buffer
// (torch.arange(0, 128, 2) + 0.4 * 128) / (1.4 * 128) gives the same values
// rounded to float (0.2857143, 0.296875, 0.64285713, 0.98883927).
TEST_CASE("xpos_zeta: torchscale's scale buffer") {
  CHECK(xpos_zeta(0, 128, 0.4) == doctest::Approx(2.0 / 7.0).epsilon(1e-15));
  CHECK(xpos_zeta(1, 128, 0.4) == doctest::Approx(0.296875).epsilon(1e-15));
  CHECK(xpos_zeta(32, 128, 0.4) == doctest::Approx(0.6428571428571429).epsilon(1e-15));
  CHECK(xpos_zeta(63, 128, 0.4) == doctest::Approx(0.9888392857142857).epsilon(1e-15));
  CHECK(static_cast<float>(xpos_zeta(1, 16, 0.4)) == 0.375f);
  for (std::uint64_t t = 0; t < 300; ++t) {
    const int d = 2 * (1 + static_cast<int>(random_uniform(21, 0, t) * 512));
    const double gamma = 0.01 + random_uniform(21, 1, t) * 4;
    double previous = 0;
    for (int i = 0; i < d / 2; ++i) {
      const double z = xpos_zeta(i, d, gamma);
      CHECK(z > gamma / (1 + gamma) - 1e-15);  // ζ_0 = γ/(1+γ)
      CHECK(z < 1);
      CHECK(z > previous);  // high-frequency pairs decay most
      previous = z;
    }
  }
}

TEST_CASE("xpos_decay: ζ_i^(r/B)") {
  // mpmath: (2/7)^(1000/512) and ((126 + 51.2)/179.2)^(4096/512).
  CHECK(xpos_decay(0, 1000, 128, 0.4, 512) == doctest::Approx(0.08656993688286957).epsilon(1e-14));
  CHECK(xpos_decay(63, 4096, 128, 0.4, 512) == doctest::Approx(0.9141252344111382).epsilon(1e-14));
  CHECK(xpos_decay(5, 0, 128, 0.4, 512) == 1.0);
  for (std::uint64_t t = 0; t < 300; ++t) {
    const int d = 2 * (1 + static_cast<int>(random_uniform(22, 0, t) * 256));
    const int pair = static_cast<int>(random_uniform(22, 1, t) * (d / 2));
    const double r = random_uniform(22, 2, t) * 1e5;
    const double scale_base = 1 + random_uniform(22, 3, t) * 4096;
    const double a = xpos_decay(pair, r, d, 0.4, scale_base);
    const double b = xpos_decay(pair, 2 * r, d, 0.4, scale_base);
    CHECK(a >= 0);  // may underflow to 0 for large r/B (0.29^(1e5/1)), never NaN
    CHECK(a <= 1);
    CHECK(b <= a);                                           // decays with distance
    CHECK(b == doctest::Approx(a * a).epsilon(1e-12));       // exponential in r
  }
}

// Reference values: mpmath (50 digits) of Σ_{i<d/2} 2 cos(r·10000^(−2i/d))·ζ_i^(r/512), γ = 0.4.
// A transcription of torchscale's XPOS (upscale for q, downscale=True for k,
// fixed_pos_embedding, rotate_every_two) run in float32 on q = k = ones, scoring
// the last query against the key r tokens earlier, gave the same numbers to
// ~3e-6 relative (16.0, 14.954689, 7.2926674, 10.9379 for d = 16, L = 64;
// 128.0, 124.06901, 58.115108, 20.82589, 12.584775 for d = 128, L = 2048): the
// decay of the score is ζ_i^((n − m)/B), as xpos.hpp states.
TEST_CASE("xpos_ones_score against exact values (and torchscale)") {
  struct Case {
    int d;
    double r;
    double expected;
  };
  for (const Case c : {Case{16, 0, 16.0}, Case{16, 1, 14.95469023219634}, Case{16, 10, 7.292667083520332},
                       Case{16, 63, 10.937900387336382}, Case{128, 0, 128.0}, Case{128, 1, 124.06880336522828},
                       Case{128, 100, 58.1149549357958}, Case{128, 1000, 20.825910971441584},
                       Case{128, 2047, 12.584772945095665}}) {
    CAPTURE(c.d);
    CAPTURE(c.r);
    CHECK(xpos_ones_score(c.r, c.d, 1e4, 0.4, 512) == doctest::Approx(c.expected).epsilon(1e-13));
  }
  // Other γ, B and base: mpmath, γ = 1, B = 100, d = 8, base = 5e5, r = 250.
  CHECK(xpos_ones_score(250, 8, 5e5, 1.0, 100) == doctest::Approx(1.8139815383251776).epsilon(1e-13));
  // Bounded by RoPE's envelope: |score| <= Σ 2 ζ_i^(r/B) <= d.
  for (std::uint64_t t = 0; t < 200; ++t) {
    const int d = 2 * (1 + static_cast<int>(random_uniform(23, 0, t) * 128));
    const double r = random_uniform(23, 1, t) * 20000;
    double envelope = 0;
    for (int i = 0; i < d / 2; ++i) envelope += 2 * xpos_decay(i, r, d, 0.4, 512);
    CHECK(std::fabs(xpos_ones_score(r, d, 1e4, 0.4, 512)) <= envelope + 1e-12);
  }
  // The curve form: the exact values above, at every distance of a list.
  const std::vector<double> rs = {0, 1, 100, 1000, 2047};
  std::vector<double> curve(rs.size());
  xpos_ones_score_curve(rs, 128, 1e4, 0.4, 512, curve);
  const double expected[] = {128.0, 124.06880336522828, 58.1149549357958, 20.825910971441584, 12.584772945095665};
  for (std::size_t j = 0; j < rs.size(); ++j) CHECK(curve[j] == doctest::Approx(expected[j]).epsilon(1e-13));
  CHECK(key_of([&] { xpos_ones_score_curve(rs, 128, 1e4, 0.4, 512, std::span<double>(curve.data(), 2)); }) ==
        "distance");
}

TEST_CASE("invalid xPos parameters are rejected with the right key") {
  CHECK(key_of([] { xpos_zeta(0, 5, 0.4); }) == "d");
  CHECK(key_of([] { xpos_zeta(0, 8, 0.0); }) == "xpos_gamma");
  CHECK(key_of([] { xpos_zeta(0, 8, std::nan("")); }) == "xpos_gamma");
  CHECK(key_of([] { xpos_zeta(4, 8, 0.4); }) == "pair");
  CHECK(key_of([] { xpos_zeta(-1, 8, 0.4); }) == "pair");
  CHECK(key_of([] { xpos_decay(0, -1, 8, 0.4, 512); }) == "distance");
  CHECK(key_of([] { xpos_decay(0, 1, 8, 0.4, 0); }) == "xpos_scale_base");
  CHECK(key_of([] { xpos_decay(0, 1, 8, 0.4, -5); }) == "xpos_scale_base");
  CHECK(key_of([] { xpos_ones_score(1, 8, 1.0, 0.4, 512); }) == "base");
  CHECK(key_of([] { xpos_ones_score(std::nan(""), 8, 1e4, 0.4, 512); }) == "distance");
  CHECK(key_of([] { xpos_ones_score(1, 8, 1e4, 0.4, 512); }) == "(accepted)");
}
