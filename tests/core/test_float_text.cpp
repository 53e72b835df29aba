// poslab/core/float_text.hpp: the portable shortest round-trip formatting
// (used where the C++ library lacks floating-point std::to_chars, as in the
// browser build) must give the same text as std::to_chars, and read as
// std::from_chars reads.
#include <doctest/doctest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "poslab/core/float_text.hpp"

namespace {

using poslab::core::portable::read_double;
using poslab::core::portable::write_double;
using poslab::core::portable::write_float;

std::string text(double x, std::chars_format f) {
  char buf[400];
  const auto r = write_double(buf, buf + sizeof buf, x, f);
  REQUIRE(r.ec == std::errc());
  return std::string(buf, r.ptr);
}

std::string text_f(float x) {
  char buf[64];
  const auto r = write_float(buf, buf + sizeof buf, x);
  REQUIRE(r.ec == std::errc());
  return std::string(buf, r.ptr);
}

double read(const std::string& s) {
  double v = 0;
  const auto r = read_double(s.data(), s.data() + s.size(), v);
  REQUIRE(r.ec == std::errc());
  REQUIRE(r.ptr == s.data() + s.size());
  return v;
}

/// Doubles over every magnitude poslab meets and beyond: random bits of
/// finite doubles, plus short decimals such as 0.1 or 500000.
double random_double(std::mt19937_64& rng) {
  if (rng() % 2) {
    std::uint64_t bits = rng();
    double x = 0;
    std::memcpy(&x, &bits, sizeof x);
    return std::isfinite(x) ? x : 1.5;
  }
  std::uniform_int_distribution<int> digits(0, 999999), exp10(-12, 12);
  return digits(rng) * std::pow(10.0, exp10(rng)) * (rng() % 2 ? -1 : 1);
}

}  // namespace

TEST_CASE("float_text: known numbers in both forms") {
  CHECK(text(500000, std::chars_format::fixed) == "500000");
  CHECK(text(500000, std::chars_format::scientific) == "5e+05");
  CHECK(text(0.001, std::chars_format::fixed) == "0.001");
  CHECK(text(0.1, std::chars_format::scientific) == "1e-01");
  CHECK(text(1.0 / 3, std::chars_format::fixed) == "0.3333333333333333");
  CHECK(text(-2.5e-7, std::chars_format::scientific) == "-2.5e-07");
  CHECK(text(6.02e23, std::chars_format::scientific) == "6.02e+23");
  CHECK(text(0.0, std::chars_format::fixed) == "0");
  CHECK(text_f(0.84147096f) == "0.84147096");
  CHECK(text_f(1e-7f) == "1e-07");
  CHECK(text_f(1234.5f) == "1234.5");
}

TEST_CASE("float_text: reads as from_chars reads") {
  CHECK(read("1.5") == 1.5);
  CHECK(read("-0.25") == -0.25);
  CHECK(read("1e-7") == 1e-7);
  CHECK(read("500000") == 500000);
  double v = 7;
  for (const std::string bad : {"+1", " 1", "0x10", "", "-", "e5", "abc"}) {
    const auto r = read_double(bad.data(), bad.data() + bad.size(), v);
    CHECK_MESSAGE(r.ec == std::errc::invalid_argument, bad);
  }
  CHECK(v == 7);  // untouched on failure
  const std::string big = "1e400";
  CHECK(read_double(big.data(), big.data() + big.size(), v).ec == std::errc::result_out_of_range);
  const std::string tail = "2.5km";
  const auto r = read_double(tail.data(), tail.data() + tail.size(), v);
  CHECK(r.ec == std::errc());
  CHECK(r.ptr == tail.data() + 3);
  CHECK(v == 2.5);
}

TEST_CASE("float_text: the shortest text reads back as the same number (20,000 random doubles)") {
  std::mt19937_64 rng(20261124);
  for (int i = 0; i < 20000; ++i) {
    const double x = random_double(rng);
    const std::string sci = text(x, std::chars_format::scientific);
    CHECK_MESSAGE(read(sci) == x, sci);
    // one digit fewer no longer reads back (it is the shortest)
    const std::size_t e = sci.find('e');
    const std::string mantissa = sci.substr(0, e);
    if (mantissa.find('.') != std::string::npos && mantissa.size() > 3) {
      char buf[64];
      const int shown = static_cast<int>(mantissa.size() - mantissa.find('.') - 2);
      std::snprintf(buf, sizeof buf, "%.*e", shown, x);
      CHECK_MESSAGE(std::strtod(buf, nullptr) != x, sci);
    }
    if (std::fabs(x) > 1e-30 && std::fabs(x) < 1e30) CHECK(read(text(x, std::chars_format::fixed)) == x);
  }
}

#if defined(__cpp_lib_to_chars)
TEST_CASE("float_text: the portable forms are std::to_chars's (20,000 random doubles and floats)") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const double x = random_double(rng);
    char buf[400];
    auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
    CHECK(text(x, std::chars_format::scientific) == std::string(buf, r.ptr));
    if (std::fabs(x) < 1e300 && std::fabs(x) > 1e-300) {
      r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed);
      CHECK(text(x, std::chars_format::fixed) == std::string(buf, r.ptr));
    }
    const float f = static_cast<float>(x);
    if (std::isfinite(f)) {
      r = std::to_chars(buf, buf + sizeof buf, f);
      CHECK(text_f(f) == std::string(buf, r.ptr));
    }
    const std::string s = text(x, std::chars_format::scientific);
    double a = 0, b = 0;
    const auto ra = read_double(s.data(), s.data() + s.size(), a);
    const auto rb = std::from_chars(s.data(), s.data() + s.size(), b, std::chars_format::general);
    CHECK(ra.ptr == rb.ptr);
    CHECK(a == b);
  }
}
#endif
