// Learned absolute position embeddings: a table with max_length rows of
// N(0, 0.02²) entries and no row past it.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "core_test_support.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/learned.hpp"

using namespace poslab::core;
using namespace poslab::test;


// Reference values: a Python transcription of core/random.cpp (SplitMix64,
// 53-bit uniforms, Box–Muller with u1 in (0, 1]) evaluated at stream
// 0x4C4541524E4544 ("LEARNED"), index pos·8192 + dim, times 0.02. They pin the
// table so a figure shows students the same numbers on every platform.
TEST_CASE("learned entries are the documented counter-based draws") {
  struct Entry {
    std::uint64_t seed;
    long long pos;
    int dim;
    double value;
  };
  const Entry entries[] = {
      {0, 0, 0, 0.0037695200798725454},       {0, 0, 1, -0.03285705777610183},
      {0, 1, 0, -0.02014299563048624},        {0, 511, 767, 0.012009727785113531},
      {42, 0, 0, 0.02251235369822506},        {42, 100, 5, -0.028719128821623256},
      {7, 1048575, 8191, 0.023153832451153634},
  };
  for (const Entry& e : entries) {
    CAPTURE(e.seed);
    CAPTURE(e.pos);
    CAPTURE(e.dim);
    const auto v = learned_value(e.pos, e.dim, 1048576, 8192, e.seed);
    REQUIRE(v.has_value());
    CHECK(std::fabs(*v - e.value) <= 1e-15 * std::fabs(e.value));
  }
}

TEST_CASE("no row at or past max_length (BERT's 512-position limit)") {
  CHECK(learned_value(511, 0, 512, 768, 0).has_value());
  CHECK_FALSE(learned_value(512, 0, 512, 768, 0).has_value());
  CHECK_FALSE(learned_value(100000, 0, 512, 768, 0).has_value());
  CHECK_FALSE(learned_value(-1, 0, 512, 768, 0).has_value());
  CHECK(learned_row(511, 512, 768, 0).has_value());
  CHECK_FALSE(learned_row(512, 512, 768, 0).has_value());
  CHECK_FALSE(learned_row(-5, 512, 768, 0).has_value());
  CHECK(learned_row(0, 1, 2, 0).has_value());
  CHECK_FALSE(learned_row(1, 1, 2, 0).has_value());
}

TEST_CASE("rows agree with values; entries do not depend on d or max_length") {
  for (std::uint64_t seed : {0ULL, 1ULL, 12345ULL}) {
    for (long long pos : {0LL, 1LL, 77LL, 511LL}) {
      const auto row = learned_row(pos, 512, 64, seed);
      REQUIRE(row.has_value());
      REQUIRE(row->size() == 64);
      const auto wide = learned_row(pos, 4096, 768, seed);
      REQUIRE(wide.has_value());
      for (int dim = 0; dim < 64; ++dim) {
        CHECK((*row)[dim] == *learned_value(pos, dim, 512, 64, seed));
        CHECK((*row)[dim] == (*wide)[dim]);  // a wider, longer table extends the smaller one
      }
    }
  }
  // Different seeds give different tables.
  CHECK(*learned_value(3, 3, 512, 64, 0) != *learned_value(3, 3, 512, 64, 1));
}

TEST_CASE("entries look like N(0, 0.02²)") {
  // 512 × 768 entries (BERT-base's table): mean within 4 standard errors of 0,
  // standard deviation within 1% of 0.02, about 95.45% within 2σ.
  double sum = 0, sum_sq = 0;
  long long within_two_sigma = 0;
  const int rows = 512, d = 768;
  for (int pos = 0; pos < rows; ++pos) {
    const auto row = learned_row(pos, rows, d, 2024);
    REQUIRE(row.has_value());
    for (int j = 0; j < d; ++j) {
      const double x = (*row)[j];
      CHECK(std::isfinite(x));
      sum += x;
      sum_sq += x * x;
      if (std::fabs(x) < 2 * kLearnedInitStddev) ++within_two_sigma;
    }
  }
  const double n = static_cast<double>(rows) * d;
  const double mean = sum / n;
  const double stddev = std::sqrt(sum_sq / n - mean * mean);
  CHECK(std::fabs(mean) < 4 * kLearnedInitStddev / std::sqrt(n));
  CHECK(std::fabs(stddev / kLearnedInitStddev - 1) < 0.01);
  CHECK(std::fabs(static_cast<double>(within_two_sigma) / n - 0.9545) < 0.003);
}

TEST_CASE("invalid learned-table parameters are rejected with the right key") {
  CHECK(key_of([] { learned_value(0, 0, 0, 8, 0); }) == "max_length");
  CHECK(key_of([] { learned_value(0, 0, 2000000, 8, 0); }) == "max_length");
  CHECK(key_of([] { learned_value(0, 0, 512, 7, 0); }) == "d");
  CHECK(key_of([] { learned_value(0, 8, 512, 8, 0); }) == "dims");
  CHECK(key_of([] { learned_value(0, -1, 512, 8, 0); }) == "dims");
  CHECK(key_of([] { learned_value(0, 0, 512, 8, (1ULL << 53) + 1); }) == "seed");
  CHECK(key_of([] { learned_value(0, 0, 512, 8, 1ULL << 53); }) == "(accepted)");
  CHECK(key_of([] { learned_row(0, 512, 0, 0); }) == "d");
  CHECK(key_of([] { learned_row(0, -3, 8, 0); }) == "max_length");
  CHECK(key_of([] { learned_row(0, 512, 8, ~0ULL); }) == "seed");
  // Checks come before the range test: an invalid table is an error even past its end.
  CHECK(key_of([] { learned_value(9999, 0, 512, 7, 0); }) == "d");
}
