// Sinusoidal position encoding: values against exact references, the notes'
// numbers, PE(p + k) = M(k)·PE(p), the dot-product closed form, and the fast
// table kernel's error bound.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "core_test_support.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/random.hpp"
#include "poslab/core/sinusoidal.hpp"

using namespace poslab::core;
using namespace poslab::test;

namespace {

/// A seeded random configuration: d even in 2..512, base in 2..1e6 (log-uniform).
struct Config {
  int d;
  double base;
};
Config random_config(std::uint64_t seed, std::uint64_t t) {
  const int d = 2 * (1 + static_cast<int>(random_uniform(seed, 100, t) * 256));
  const double base = std::pow(10.0, 0.3 + random_uniform(seed, 101, t) * 5.7);
  return {d, base};
}

}  // namespace

// Reference values: python3 + mpmath at 60 significant digits, evaluating the
// paper's form PE[pos, 2i] = sin(pos / base^(2i/d)), PE[pos, 2i+1] = cos(...)
// exactly and rounding once to double (repr). Our double result may differ by
// the rounding of ω and of pos·ω: at most ~1e-15·max(1, pos).
TEST_CASE("sinusoidal values against exact references") {
  struct Row {
    double pos;
    std::vector<double> pe;
  };
  const std::vector<Row> d8 = {
      {0, {0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0}},
      {1,
       {0.8414709848078965, 0.5403023058681398, 0.09983341664682815, 0.9950041652780258, 0.009999833334166664,
        0.9999500004166653, 0.0009999998333333417, 0.9999995000000417}},
      {2,
       {0.9092974268256817, -0.4161468365471424, 0.19866933079506122, 0.9800665778412416, 0.01999866669333308,
        0.9998000066665778, 0.0019999986666669333, 0.9999980000006666}},
      {3,
       {0.1411200080598672, -0.9899924966004454, 0.2955202066613396, 0.955336489125606, 0.02999550020249566,
        0.9995500337489875, 0.002999995500002025, 0.999995500003375}},
      {10,
       {-0.5440211108893698, -0.8390715290764524, 0.8414709848078965, 0.5403023058681398, 0.09983341664682815,
        0.9950041652780258, 0.009999833334166664, 0.9999500004166653}},
      {100,
       {-0.5063656411097588, 0.8623188722876839, -0.5440211108893698, -0.8390715290764524, 0.8414709848078965,
        0.5403023058681398, 0.09983341664682815, 0.9950041652780258}},
      {12345,
       {-0.9937716364556811, 0.11143578678412723, 0.14539565052293643, -0.989373592132422, -0.8003546353267118,
        -0.5995268615425385, -0.21956699673793312, 0.9755974241168764}},
  };
  for (const Row& r : d8) {
    CAPTURE(r.pos);
    const double tolerance = 1e-15 * std::max(1.0, r.pos);
    const auto row = sinusoidal_row<double>(r.pos, 8, 1e4);
    for (int j = 0; j < 8; ++j) {
      CAPTURE(j);
      CHECK(std::fabs(sinusoidal_value(r.pos, j, 8, 1e4) - r.pe[static_cast<std::size_t>(j)]) <= tolerance);
      CHECK(std::fabs(row[j] - r.pe[static_cast<std::size_t>(j)]) <= tolerance);
    }
  }
  // d = 128 (a common head width), pos = 511.
  const int dims128[] = {0, 1, 2, 3, 62, 63, 64, 65, 126, 127};
  const double pe128[] = {0.8817704007607503, -0.4716788741741842, 0.4410739109616401, -0.8974707822926622,
                          -0.3730084354037012, 0.9278279512483351,  -0.9219886775482165, 0.3872168365049369,
                          0.05897511925358246, 0.9982594529024134};
  for (int k = 0; k < 10; ++k) CHECK(std::fabs(sinusoidal_value(511, dims128[k], 128, 1e4) - pe128[k]) <= 1e-12);
  // d = 64, base = 5e5 (Llama 3's base), pos = 4095.
  const int dims64[] = {0, 1, 20, 21, 62, 63};
  const double pe64[] = {-0.9978212103769744, -0.0659759965580649, -0.9635678808953431,
                         0.2674639020631716,  0.012341435822051388, 0.9999238415808727};
  for (int k = 0; k < 6; ++k) CHECK(std::fabs(sinusoidal_value(4095, dims64[k], 64, 5e5) - pe64[k]) <= 1e-12);
}

TEST_CASE("frequencies and wavelengths (notes seed 003 §2.2)") {
  // Seed 003: d_model = 8, T_0 = 2π ≈ 6.28, T_3 = 2π·1000 ≈ 6283.
  const double two_pi = 2 * std::numbers::pi;
  CHECK(sinusoidal_wavelength(0, 8, 1e4) == doctest::Approx(two_pi).epsilon(1e-15));
  CHECK(sinusoidal_wavelength(1, 8, 1e4) == doctest::Approx(two_pi).epsilon(1e-15));
  CHECK(sinusoidal_wavelength(2, 8, 1e4) == doctest::Approx(62.83185307179586).epsilon(1e-15));
  CHECK(sinusoidal_wavelength(4, 8, 1e4) == doctest::Approx(628.3185307179587).epsilon(1e-15));
  CHECK(sinusoidal_wavelength(6, 8, 1e4) == doctest::Approx(two_pi * 1000).epsilon(1e-15));
  CHECK(sinusoidal_wavelength(7, 8, 1e4) == doctest::Approx(6283.185307179587).epsilon(1e-15));
  // mpmath: 10000^(−2i/128) for i = 0, 1, 32, 63.
  CHECK(sinusoidal_frequency(0, 128, 1e4) == 1.0);
  CHECK(sinusoidal_frequency(1, 128, 1e4) == doctest::Approx(0.8659643233600653).epsilon(1e-15));
  CHECK(sinusoidal_frequency(32, 128, 1e4) == doctest::Approx(0.01).epsilon(1e-15));
  CHECK(sinusoidal_frequency(63, 128, 1e4) == doctest::Approx(0.00011547819846894582).epsilon(1e-15));
  for (std::uint64_t t = 0; t < 200; ++t) {
    const Config c = random_config(1, t);
    const auto w = sinusoidal_frequencies(c.d, c.base);
    REQUIRE(w.size() == c.d / 2);
    CHECK(w[0] == 1.0);
    for (int i = 0; i + 1 < c.d / 2; ++i) CHECK(w[i + 1] < w[i]);  // slower and slower
    for (int i = 0; i < c.d / 2; ++i) {
      CHECK(w[i] == sinusoidal_frequency(i, c.d, c.base));
      CHECK(sinusoidal_wavelength(2 * i, c.d, c.base) * w[i] == doctest::Approx(two_pi).epsilon(1e-15));
    }
  }
}

TEST_CASE_TEMPLATE("rows and matrices agree with the values", Scalar, float, double) {
  const double eps = std::numeric_limits<Scalar>::epsilon();
  for (std::uint64_t t = 0; t < 200; ++t) {
    const Config c = random_config(2, t);
    const double pos = std::floor(random_uniform(2, 3, t) * 100000);
    CAPTURE(c.d);
    CAPTURE(c.base);
    CAPTURE(pos);
    const auto row = sinusoidal_row<Scalar>(pos, c.d, c.base);
    REQUIRE(row.size() == c.d);
    for (int j = 0; j < c.d; ++j)
      CHECK(std::fabs(static_cast<double>(row[j]) - sinusoidal_value(pos, j, c.d, c.base)) <= eps);
    for (int i = 0; i < c.d / 2; ++i) {  // each pair lies on the unit circle
      const double s = row[2 * i];
      const double co = row[2 * i + 1];
      CHECK(std::fabs(s * s + co * co - 1) <= 4 * eps);
    }
  }
  const std::vector<double> positions = {0, 1, 7, 100, 2048, 4095, 123456};
  const auto m = sinusoidal_matrix<Scalar>(positions, 64, 1e4);
  REQUIRE(m.rows() == 7);
  REQUIRE(m.cols() == 64);
  for (std::size_t r = 0; r < positions.size(); ++r)
    CHECK(m.row(static_cast<Eigen::Index>(r)) == sinusoidal_row<Scalar>(positions[r], 64, 1e4).transpose());
}

TEST_CASE_TEMPLATE("PE(p + k) = M(k)·PE(p) for seeded random p, k, d, base", Scalar, float, double) {
  // In double the two sides differ by the rounding of the angles, ~1e-16 per
  // unit of angle; in float by the rounding of the rows (~1e-7 each, summed
  // over a 2 × 2 block).
  const double tolerance = std::is_same_v<Scalar, float> ? 1e-6 : 1e-10;
  for (std::uint64_t t = 0; t < 300; ++t) {
    const Config c = random_config(3, t);
    const double p = std::floor(random_uniform(3, 1, t) * 10000);
    const double k = std::floor((random_uniform(3, 2, t) - 0.5) * 2 * 10000);
    if (p + k < 0) continue;
    CAPTURE(c.d);
    CAPTURE(c.base);
    CAPTURE(p);
    CAPTURE(k);
    const Eigen::MatrixXd m = sinusoidal_shift_matrix(k, c.d, c.base);
    const Eigen::VectorXd shifted = m * sinusoidal_row<Scalar>(p, c.d, c.base).template cast<double>();
    const Eigen::VectorXd direct = sinusoidal_row<Scalar>(p + k, c.d, c.base).template cast<double>();
    CHECK((shifted - direct).cwiseAbs().maxCoeff() <= tolerance);
  }
}

TEST_CASE("M(k) is a rotation: orthogonal, M(a)M(b) = M(a + b), M(k)ᵀ = M(−k)") {
  for (std::uint64_t t = 0; t < 100; ++t) {
    const Config c = random_config(4, t);
    if (c.d > 256) continue;  // keep the d × d products small
    const double a = (random_uniform(4, 1, t) - 0.5) * 2000;
    const double b = (random_uniform(4, 2, t) - 0.5) * 2000;
    const Eigen::MatrixXd ma = sinusoidal_shift_matrix(a, c.d, c.base);
    const Eigen::MatrixXd mb = sinusoidal_shift_matrix(b, c.d, c.base);
    const Eigen::MatrixXd id = Eigen::MatrixXd::Identity(c.d, c.d);
    CHECK((ma.transpose() * ma - id).cwiseAbs().maxCoeff() < 1e-14);
    CHECK((ma * mb - sinusoidal_shift_matrix(a + b, c.d, c.base)).cwiseAbs().maxCoeff() < 1e-12);
    CHECK((ma.transpose() - sinusoidal_shift_matrix(-a, c.d, c.base)).cwiseAbs().maxCoeff() == 0);
  }
  // The 2 × 2 block of seed 003 §2.3.1 for ω = 1 (pair 0): [[cos k, sin k], [−sin k, cos k]].
  const Eigen::MatrixXd m = sinusoidal_shift_matrix(3, 8, 1e4);
  CHECK(m(0, 0) == std::cos(3.0));
  CHECK(m(0, 1) == std::sin(3.0));
  CHECK(m(1, 0) == -std::sin(3.0));
  CHECK(m(1, 1) == std::cos(3.0));
  CHECK(m(0, 2) == 0);
}

TEST_CASE("PE_m · PE_n depends only on m − n: Σ_i cos(ω_i (m − n))") {
  // mpmath: Σ_{i<4} cos(k / 10000^(2i/8)) for k = 1, 3, 10, 100.
  CHECK(sinusoidal_dot_closed_form(1, 8, 1e4) == doctest::Approx(3.5352559715628726).epsilon(1e-15));
  CHECK(sinusoidal_dot_closed_form(3, 8, 1e4) == doctest::Approx(1.964889526277523).epsilon(1e-15));
  CHECK(sinusoidal_dot_closed_form(10, 8, 1e4) == doctest::Approx(1.6961849424863784).epsilon(1e-15));
  CHECK(sinusoidal_dot_closed_form(100, 8, 1e4) == doctest::Approx(1.558553814357397).epsilon(1e-14));
  CHECK(sinusoidal_dot(5, 5, 8, 1e4) == doctest::Approx(4.0).epsilon(1e-15));  // |PE|² = d/2
  for (std::uint64_t t = 0; t < 300; ++t) {
    const Config c = random_config(5, t);
    const double m = std::floor(random_uniform(5, 1, t) * 5000);
    const double n = std::floor(random_uniform(5, 2, t) * 5000);
    CAPTURE(c.d);
    CAPTURE(m);
    CAPTURE(n);
    const double dot = sinusoidal_dot(m, n, c.d, c.base);
    CHECK(std::fabs(dot - sinusoidal_dot_closed_form(m - n, c.d, c.base)) <= 1e-12 * c.d);
    CHECK(std::fabs(dot - sinusoidal_dot(m + 17, n + 17, c.d, c.base)) <= 1e-12 * c.d);  // shift invariant
    CHECK(dot == doctest::Approx(sinusoidal_dot(n, m, c.d, c.base)));                    // symmetric
  }
}

TEST_CASE("the closed form along a progression stays within its error bound of the closed form") {
  // The bound of sinusoidal_dot_closed_form_curve (header), with the two sums' rounding.
  auto bound = [](int d, double k, double step) {
    const double eps = std::numeric_limits<double>::epsilon() / 2;
    const double pairs = d / 2.0;
    const double ulp = std::nextafter(std::abs(k), INFINITY) - std::abs(k);
    return pairs * (ulp + kSinusoidalDotReanchor * (std::abs(step) + 4) * eps) + 2 * pairs * pairs * eps;
  };
  for (std::uint64_t t = 0; t < 60; ++t) {
    const Config c = random_config(6, t);
    const double scale = std::pow(10.0, random_uniform(6, 1, t) * 9);
    const double first = std::floor((random_uniform(6, 2, t) - 0.5) * scale);
    const double step = t % 3 == 0 ? 1.0 : std::floor((random_uniform(6, 3, t) - 0.5) * 40);
    std::vector<double> out(1 + t * 7);
    sinusoidal_dot_closed_form_curve(first, step, c.d, c.base, out);
    CAPTURE(c.d);
    CAPTURE(c.base);
    CAPTURE(first);
    CAPTURE(step);
    for (std::size_t j = 0; j < out.size(); ++j) {
      const double k = first + static_cast<double>(j) * step;
      CAPTURE(k);
      const double ref = sinusoidal_dot_closed_form(k, c.d, c.base);
      CHECK(std::abs(out[j] - ref) <= bound(c.d, k, step));
      // Anchors evaluate the same terms as the closed form (only the summation order differs).
      if (j % kSinusoidalDotReanchor == 0) CHECK(std::abs(out[j] - ref) <= c.d * c.d * 0.25 * 2.3e-16);
    }
  }
  // k = 0 is d/2 exactly, and the curve is even: the progression −3..3 reads the same both ways.
  std::vector<double> sym(7);
  sinusoidal_dot_closed_form_curve(-3, 1, 128, 1e4, sym);
  CHECK(sym[3] == 64.0);
  for (int j = 0; j < 3; ++j) CHECK(sym[static_cast<std::size_t>(j)] == doctest::Approx(sym[static_cast<std::size_t>(6 - j)]).epsilon(1e-14));
  // Offsets are differences of positions, checked against `pos` (|k| <= 1e12).
  std::vector<double> two(2);
  CHECK(key_of([&] { sinusoidal_dot_closed_form_curve(1e12, 1, 8, 1e4, two); }) == "pos");
  CHECK(key_of([&] { sinusoidal_dot_closed_form_curve(-1e12 - 1, 1, 8, 1e4, two); }) == "pos");
  CHECK(key_of([&] { sinusoidal_dot_closed_form_curve(0, NAN, 8, 1e4, two); }) == "pos");
  sinusoidal_dot_closed_form_curve(-1e12, 1, 8, 1e4, two);  // both ends in range
  CHECK(std::isfinite(two[1]));
}

TEST_CASE("sinusoidal_grid samples the values into float") {
  const std::vector<double> positions = {0, 3, 17.5, 1000, 65535};
  const std::vector<int> dims = {0, 1, 10, 63};
  std::vector<float> out(positions.size() * dims.size());
  sinusoidal_grid(positions, dims, 64, 1e4, out);
  for (std::size_t r = 0; r < positions.size(); ++r)
    for (std::size_t c = 0; c < dims.size(); ++c)
      CHECK(out[r * dims.size() + c] == static_cast<float>(sinusoidal_value(positions[r], dims[c], 64, 1e4)));
}

TEST_CASE("sinusoidal_table: error <= 1e-6 against double sin/cos") {
  // Every entry of several tables, including re-anchor rows and the rows just
  // before them (where the recurrence has run longest).
  struct Case {
    std::int64_t positions;
    int d;
    double base;
  };
  for (const Case c : {Case{1, 2, 1e4}, Case{65, 8, 1e4}, Case{3000, 128, 1e4}, Case{4096, 256, 5e5},
                       Case{1000, 64, 2.0}, Case{700, 1024, 1e12}}) {
    CAPTURE(c.positions);
    CAPTURE(c.d);
    CAPTURE(c.base);
    std::vector<float> out(static_cast<std::size_t>(c.positions * c.d));
    sinusoidal_table(out, c.positions, c.d, c.base);
    double worst = 0;
    for (std::int64_t p = 0; p < c.positions; ++p)
      for (int i = 0; i < c.d / 2; ++i) {
        const double angle = static_cast<double>(p) * std::pow(c.base, -2.0 * i / c.d);
        const std::size_t at = static_cast<std::size_t>(p * c.d + 2 * i);
        worst = std::max(worst, std::fabs(out[at] - std::sin(angle)));
        worst = std::max(worst, std::fabs(out[at + 1] - std::cos(angle)));
      }
    CHECK(worst <= 1e-6);
    CHECK(worst <= 1e-7);  // the bound stated next to the code (float rounding dominates)
  }
  // The benchmark size: 32768 × 1024 (128 MiB of floats). Check sampled rows.
  const std::int64_t positions = 32768;
  const int d = 1024;
  std::vector<float> out(static_cast<std::size_t>(positions * d));
  sinusoidal_table(out, positions, d, 1e4);
  double worst = 0;
  for (std::int64_t p = 0; p < positions; p += 61)
    for (int j = 0; j < d; ++j)
      worst = std::max(worst, std::fabs(out[static_cast<std::size_t>(p * d + j)] - sinusoidal_value(p, j, d, 1e4)));
  CHECK(worst <= 1e-7);
}

TEST_CASE("invalid sinusoidal inputs are rejected with the right key") {
  CHECK(key_of([] { sinusoidal_value(0, 0, 7, 1e4); }) == "d");
  CHECK(key_of([] { sinusoidal_value(0, 0, 0, 1e4); }) == "d");
  CHECK(key_of([] { sinusoidal_value(0, 0, 8194, 1e4); }) == "d");
  CHECK(key_of([] { sinusoidal_value(0, 0, 8, 1.0); }) == "base");
  CHECK(key_of([] { sinusoidal_value(0, 0, 8, std::nan("")); }) == "base");
  CHECK(key_of([] { sinusoidal_value(-1, 0, 8, 1e4); }) == "pos");
  CHECK(key_of([] { sinusoidal_value(std::nan(""), 0, 8, 1e4); }) == "pos");
  CHECK(key_of([] { sinusoidal_value(2e12, 0, 8, 1e4); }) == "pos");
  CHECK(key_of([] { sinusoidal_value(0, 8, 8, 1e4); }) == "dims");
  CHECK(key_of([] { sinusoidal_value(0, -1, 8, 1e4); }) == "dims");
  CHECK(key_of([] { sinusoidal_frequency(4, 8, 1e4); }) == "pair");
  CHECK(key_of([] { sinusoidal_frequency(-1, 8, 1e4); }) == "pair");
  CHECK(key_of([] { sinusoidal_frequencies(9, 1e4); }) == "d");
  CHECK(key_of([] { sinusoidal_wavelength(8, 8, 1e4); }) == "dims");
  CHECK(key_of([] { sinusoidal_row<float>(-3, 8, 1e4); }) == "pos");
  CHECK(key_of([] { sinusoidal_row<double>(3, 8, 0.5); }) == "base");
  CHECK(key_of([] { sinusoidal_dot(-1, 0, 8, 1e4); }) == "m");
  CHECK(key_of([] { sinusoidal_dot(0, -1, 8, 1e4); }) == "n");
  CHECK(key_of([] { sinusoidal_dot_closed_form(2e9, 8, 1e4); }) == "offset");
  CHECK(key_of([] { sinusoidal_shift_matrix(std::nan(""), 8, 1e4); }) == "offset");
  CHECK(key_of([] { sinusoidal_shift_matrix(1, 8192, 1e4); }) == "d");
  const std::vector<double> bad_pos = {0, -2};
  CHECK(key_of([&] { sinusoidal_matrix<double>(bad_pos, 8, 1e4); }) == "pos");
  const std::vector<double> many(5000, 1.0);
  CHECK(key_of([&] { sinusoidal_matrix<float>(many, 8192, 1e4); }) == "pos");  // 4e7 entries
  std::vector<float> out(6);
  const std::vector<double> pos3 = {0, 1, 2};
  const std::vector<int> dims2 = {0, 9};
  CHECK(key_of([&] { sinusoidal_grid(pos3, dims2, 8, 1e4, out); }) == "dims");
  const std::vector<int> dims3 = {0, 1, 2};
  CHECK(key_of([&] { sinusoidal_grid(pos3, dims3, 8, 1e4, out); }) == "out");
  CHECK(key_of([&] { sinusoidal_table(out, 3, 4, 1e4); }) == "out");
  CHECK(key_of([&] { sinusoidal_table(out, 0, 2, 1e4); }) == "positions");
  CHECK(key_of([&] { sinusoidal_table(out, 3, 2, 1e4); }) == "(accepted)");
}
