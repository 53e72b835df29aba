// T5 relative-position buckets against the reference implementation (HF
// transformers T5Attention._relative_position_bucket, float32 arithmetic), and
// the properties the lesson relies on: range, monotone in |rp| per side, the
// bidirectional upper half only for rp > 0, exact bucket ranges.
#include <doctest/doctest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "core_test_support.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/random.hpp"
#include "poslab/core/t5.hpp"

using namespace poslab::core;
using namespace poslab::test;

namespace {

// Reference values: produced at development time with python3 + torch 1.13.1 (Debian
// python3-torch) running a verbatim transcription of HF transformers'
// T5Attention._relative_position_bucket(relative_position, bidirectional,
// num_buckets, max_distance) on torch.tensor(kRelative) (int64), then .tolist().
// The same comparison was run over every rp in −100000..100000 plus
// ±(2^63 − 1), 2^24, 2^24 + 1, 2^53 + 1, 1e9 + 7, 123456789012 for 21
// (buckets, max_distance, bidirectional) combinations: 0 mismatches.
// The configurations 20/160 bidirectional, 40/320 bidirectional, 72/100, 108/128
// and 99/1024 causal contain positions where the float32 arithmetic gives a
// different bucket than the same formula in double (20/160: rp = −80 → 9, −20 → 7,
// −10 → 6, 10 → 16; 72/100 causal: rp = −60 → 53, double gives 54; 108/128
// causal: rp = −72 → 72; 99/1024 causal: rp = −224 → 74, −426 → 88).
const std::vector<long long> kRelative = {-1000000000, -100000, -4096, -1000, -500, -426, -256, -255, -224, -160, -129, -128, -127, -100, -80, -72, -65, -64, -63, -60, -45, -33, -32, -31, -20, -17, -16, -15, -12, -11, -9, -8, -7, -2, -1, 0, 1, 2, 7, 8, 9, 11, 12, 15, 16, 17, 20, 31, 32, 33, 45, 60, 63, 64, 65, 72, 80, 100, 127, 128, 129, 160, 224, 255, 256, 426, 500, 1000, 4096, 100000, 1000000000};

struct Reference {
  int buckets;
  int max_distance;
  bool bidirectional;
  std::vector<int> expected;  // one per kRelative entry
};

const std::vector<Reference> kReferences = {
    {32, 128, true, {15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 14, 14, 14, 14, 13, 13, 12,
        12, 12, 11, 10, 10, 10, 9, 9, 8, 8, 8, 7, 2, 1, 0, 17, 18, 23, 24, 24, 24, 25, 25, 26, 26, 26, 27,
        28, 28, 28, 29, 29, 30, 30, 30, 30, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31}},
    {32, 128, false, {31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 30, 28, 27, 26, 26, 26, 26, 23,
        21, 21, 21, 17, 16, 16, 15, 12, 11, 9, 8, 7, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {64, 256, true, {31, 31, 31, 31, 31, 31, 31, 31, 31, 29, 28, 28, 27, 26, 25, 24, 24, 24, 23, 23, 21,
        20, 20, 19, 17, 16, 16, 15, 12, 11, 9, 8, 7, 2, 1, 0, 33, 34, 39, 40, 41, 43, 44, 47, 48, 48, 49,
        51, 52, 52, 53, 55, 55, 56, 56, 56, 57, 58, 59, 60, 60, 61, 63, 63, 63, 63, 63, 63, 63, 63, 63}},
    {128, 256, true, {63, 63, 63, 63, 63, 63, 63, 63, 61, 56, 53, 53, 53, 49, 46, 44, 42, 42, 42, 41, 37,
        32, 32, 31, 20, 17, 16, 15, 12, 11, 9, 8, 7, 2, 1, 0, 65, 66, 71, 72, 73, 75, 76, 79, 80, 81, 84,
        95, 96, 96, 101, 105, 106, 106, 106, 108, 110, 113, 117, 117, 117, 120, 125, 127, 127, 127, 127,
        127, 127, 127, 127}},
    {16, 50, false, {15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
        14, 14, 13, 12, 11, 11, 10, 9, 9, 8, 8, 7, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {32, 9, true, {15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
        15, 15, 15, 15, 15, 15, 15, 15, 15, 8, 7, 2, 1, 0, 17, 18, 23, 24, 31, 31, 31, 31, 31, 31, 31, 31,
        31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31}},
    {30, 128, true, {14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 13, 13, 13, 13, 13, 12, 12,
        11, 11, 11, 9, 9, 9, 9, 8, 8, 7, 7, 7, 2, 1, 0, 16, 17, 22, 22, 22, 23, 23, 24, 24, 24, 24, 26, 26,
        26, 27, 27, 28, 28, 28, 28, 28, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29}},
    {20, 160, true, {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8, 8, 7, 7, 7, 7, 6, 6, 6, 6,
        6, 5, 5, 5, 2, 1, 0, 11, 12, 15, 15, 15, 16, 16, 16, 16, 16, 17, 17, 17, 17, 18, 18, 18, 18, 18,
        18, 19, 19, 19, 19, 19, 19, 19, 19, 19, 19, 19, 19, 19, 19, 19}},
    {40, 320, true, {19, 19, 19, 19, 19, 19, 19, 19, 18, 18, 17, 17, 17, 16, 16, 15, 15, 15, 15, 15, 14,
        13, 13, 13, 12, 11, 11, 11, 10, 10, 9, 8, 7, 2, 1, 0, 21, 22, 27, 28, 29, 30, 30, 31, 31, 31, 32,
        33, 33, 33, 34, 35, 35, 35, 35, 35, 36, 36, 37, 37, 37, 38, 38, 39, 39, 39, 39, 39, 39, 39, 39}},
    {72, 100, false, {71, 71, 71, 71, 71, 71, 71, 71, 71, 71, 71, 71, 71, 71, 64, 60, 56, 56, 55, 53, 43,
        33, 32, 31, 20, 17, 16, 15, 12, 11, 9, 8, 7, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {108, 128, false, {107, 107, 107, 107, 107, 107, 107, 107, 107, 107, 107, 107, 107, 92, 78, 72, 65, 64,
        63, 60, 45, 33, 32, 31, 20, 17, 16, 15, 12, 11, 9, 8, 7, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {99, 1024, false, {98, 98, 98, 98, 87, 84, 76, 76, 74, 68, 64, 64, 64, 60, 57, 55, 53, 53, 53, 52, 45,
        33, 32, 31, 20, 17, 16, 15, 12, 11, 9, 8, 7, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {2, 2, false, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {4, 2, true, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3}},
};

}  // namespace

TEST_CASE("t5_relative_bucket matches HF transformers bit for bit") {
  for (const Reference& ref : kReferences) {
    CAPTURE(ref.buckets);
    CAPTURE(ref.max_distance);
    CAPTURE(ref.bidirectional);
    REQUIRE(ref.expected.size() == kRelative.size());
    for (std::size_t k = 0; k < kRelative.size(); ++k) {
      CAPTURE(kRelative[k]);
      CHECK(t5_relative_bucket(kRelative[k], ref.bidirectional, ref.buckets, ref.max_distance) ==
            ref.expected[k]);
    }
  }
}

TEST_CASE("T5 defaults: the published bucket edges") {
  // Bidirectional 32/128 (T5 encoder): 8 exact buckets per side (|rp| 0..7),
  // then log-spaced; the last bucket starts at |rp| = 91, not at max_distance.
  CHECK(t5_relative_bucket(0, true, 32, 128) == 0);
  CHECK(t5_relative_bucket(-1, true, 32, 128) == 1);
  CHECK(t5_relative_bucket(1, true, 32, 128) == 17);
  CHECK(t5_relative_bucket(-90, true, 32, 128) == 14);
  CHECK(t5_relative_bucket(-91, true, 32, 128) == 15);
  CHECK(t5_relative_bucket(91, true, 32, 128) == 31);
  // Causal 32/128 (T5 decoder): every key at or after the query is bucket 0.
  CHECK(t5_relative_bucket(5, false, 32, 128) == 0);
  CHECK(t5_relative_bucket(-15, false, 32, 128) == 15);
  CHECK(t5_relative_bucket(-16, false, 32, 128) == 16);
  CHECK(t5_relative_bucket(-112, false, 32, 128) == 30);
  CHECK(t5_relative_bucket(-113, false, 32, 128) == 31);
  // Extremes of long long stay in range (|LLONG_MIN| taken as 2^63).
  CHECK(t5_relative_bucket(LLONG_MIN, true, 32, 128) == 15);
  CHECK(t5_relative_bucket(LLONG_MAX, true, 32, 128) == 31);
  CHECK(t5_relative_bucket(LLONG_MIN, false, 32, 128) == 31);
}

TEST_CASE("bucket ranges are exact") {
  // Expected ranges: python3 + torch 1.13.1 on rp = −300000..300000 with the
  // transcription above, grouping rp by bucket (an end at ±300000 is open-ended).
  auto same = [](const std::vector<T5BucketRange>& got, const std::vector<T5BucketRange>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      CAPTURE(k);
      CHECK(got[k].bucket == want[k].bucket);
      CHECK(got[k].first == want[k].first);
      CHECK(got[k].last == want[k].last);
    }
  };
  same(t5_bucket_ranges(true, 32, 128),
       {{0, 0, 0}, {1, -1, -1}, {2, -2, -2}, {3, -3, -3}, {4, -4, -4}, {5, -5, -5}, {6, -6, -6},
        {7, -7, -7}, {8, -11, -8}, {9, -15, -12}, {10, -22, -16}, {11, -31, -23}, {12, -45, -32},
        {13, -63, -46}, {14, -90, -64}, {15, LLONG_MIN, -91}, {17, 1, 1}, {18, 2, 2}, {19, 3, 3},
        {20, 4, 4}, {21, 5, 5}, {22, 6, 6}, {23, 7, 7}, {24, 8, 11}, {25, 12, 15}, {26, 16, 22},
        {27, 23, 31}, {28, 32, 45}, {29, 46, 63}, {30, 64, 90}, {31, 91, LLONG_MAX}});
  same(t5_bucket_ranges(false, 32, 128),
       {{0, 0, LLONG_MAX}, {1, -1, -1}, {2, -2, -2}, {3, -3, -3}, {4, -4, -4}, {5, -5, -5}, {6, -6, -6},
        {7, -7, -7}, {8, -8, -8}, {9, -9, -9}, {10, -10, -10}, {11, -11, -11}, {12, -12, -12},
        {13, -13, -13}, {14, -14, -14}, {15, -15, -15}, {16, -18, -16}, {17, -20, -19}, {18, -23, -21},
        {19, -26, -24}, {20, -30, -27}, {21, -34, -31}, {22, -39, -35}, {23, -45, -40}, {24, -51, -46},
        {25, -58, -52}, {26, -66, -59}, {27, -76, -67}, {28, -86, -77}, {29, -98, -87}, {30, -112, -99},
        {31, LLONG_MIN, -113}});
  // 32 buckets but max_distance 9: buckets 9..14 and 25..30 are never reached.
  same(t5_bucket_ranges(true, 32, 9),
       {{0, 0, 0}, {1, -1, -1}, {2, -2, -2}, {3, -3, -3}, {4, -4, -4}, {5, -5, -5}, {6, -6, -6},
        {7, -7, -7}, {8, -8, -8}, {15, LLONG_MIN, -9}, {17, 1, 1}, {18, 2, 2}, {19, 3, 3}, {20, 4, 4},
        {21, 5, 5}, {22, 6, 6}, {23, 7, 7}, {24, 8, 8}, {31, 9, LLONG_MAX}});
}

TEST_CASE("bucket ranges agree with the function over seeded random configurations") {
  for (std::uint64_t trial = 0; trial < 60; ++trial) {
    const bool bidirectional = trial % 2 == 0;
    int buckets = 2 + static_cast<int>(random_uniform(7, 1, trial) * 200);
    if (bidirectional) buckets = std::max(4, buckets - buckets % 2);
    const int max_exact = bidirectional ? buckets / 4 : buckets / 2;
    const int max_distance = max_exact + 1 + static_cast<int>(random_uniform(7, 2, trial) * 3000);
    CAPTURE(buckets);
    CAPTURE(max_distance);
    CAPTURE(bidirectional);
    const auto ranges = t5_bucket_ranges(bidirectional, buckets, max_distance);
    int previous = -1;
    for (const T5BucketRange& r : ranges) {
      CHECK(r.bucket > previous);  // bucket order, each at most once
      previous = r.bucket;
      CHECK(r.first <= r.last);
      CHECK(t5_relative_bucket(r.first, bidirectional, buckets, max_distance) == r.bucket);
      CHECK(t5_relative_bucket(r.last, bidirectional, buckets, max_distance) == r.bucket);
      if (r.first != LLONG_MIN)
        CHECK(t5_relative_bucket(r.first - 1, bidirectional, buckets, max_distance) != r.bucket);
      if (r.last != LLONG_MAX)
        CHECK(t5_relative_bucket(r.last + 1, bidirectional, buckets, max_distance) != r.bucket);
    }
    // Every rp in a window lies in exactly the range of its bucket.
    for (long long rp = -3 * max_distance; rp <= 3 * max_distance; rp += 1 + max_distance / 500) {
      const int b = t5_relative_bucket(rp, bidirectional, buckets, max_distance);
      const auto it = std::find_if(ranges.begin(), ranges.end(), [&](const T5BucketRange& r) { return r.bucket == b; });
      REQUIRE(it != ranges.end());
      CHECK(it->first <= rp);
      CHECK(rp <= it->last);
    }
  }
}

TEST_CASE("buckets stay in range and grow with |rp| on each side (seeded random configurations)") {
  for (std::uint64_t trial = 0; trial < 200; ++trial) {
    const bool bidirectional = trial % 3 != 0;
    int buckets = 2 + static_cast<int>(random_uniform(11, 1, trial) * 1000);
    if (bidirectional) buckets = std::max(4, buckets - buckets % 2);
    const int max_exact = bidirectional ? buckets / 4 : buckets / 2;
    const int max_distance = max_exact + 1 + static_cast<int>(random_uniform(11, 2, trial) * 100000);
    CAPTURE(buckets);
    CAPTURE(max_distance);
    CAPTURE(bidirectional);
    const int half = bidirectional ? buckets / 2 : buckets;
    int up = bidirectional ? half : 0;  // last bucket seen going right (rp > 0)
    int down = 0;                       // last bucket seen going left (rp < 0)
    CHECK(t5_relative_bucket(0, bidirectional, buckets, max_distance) == 0);
    const long long limit = 4LL * max_distance;
    const long long step = 1 + limit / 1500;
    for (long long n = 1; n <= limit; n += step) {
      const int left = t5_relative_bucket(-n, bidirectional, buckets, max_distance);
      const int right = t5_relative_bucket(n, bidirectional, buckets, max_distance);
      CHECK(left >= 0);
      CHECK(left < half);  // rp <= 0: lower half (causal: all buckets)
      CHECK(left >= down);
      down = left;
      if (bidirectional) {
        CHECK(right >= half);  // upper half only for rp > 0
        CHECK(right < buckets);
        CHECK(right >= up);
        up = right;
      } else {
        CHECK(right == 0);  // causal: the future is bucket 0
      }
    }
    CHECK(down == half - 1);  // far enough out, the last bucket of each side
    if (bidirectional) CHECK(up == buckets - 1);
  }
}

TEST_CASE("monotone at every integer up to 2^20 for the T5 defaults") {
  for (bool bidirectional : {true, false}) {
    int previous = 0;
    for (long long n = 0; n <= (1LL << 20); ++n) {
      const int b = t5_relative_bucket(-n, bidirectional, 32, 128);
      if (b < previous) FAIL("bucket decreased at rp = " << -n);
      previous = b;
    }
  }
}

TEST_CASE("bucket matrix: entry (i, j) = bucket(j − i)") {
  for (std::uint64_t trial = 0; trial < 40; ++trial) {
    const int q = 1 + static_cast<int>(random_uniform(5, 1, trial) * 300);
    const int k = 1 + static_cast<int>(random_uniform(5, 2, trial) * 300);
    const bool bidirectional = trial % 2 == 1;
    const auto m = t5_bucket_matrix(q, k, bidirectional, 32, 128);
    REQUIRE(m.rows() == q);
    REQUIRE(m.cols() == k);
    for (int i = 0; i < q; ++i)
      for (int j = 0; j < k; ++j)
        if (m(i, j) != t5_relative_bucket(j - i, bidirectional, 32, 128)) FAIL("mismatch at " << i << ", " << j);
  }
  // The largest allowed matrix is built quickly (one bucket per offset, then copies).
  const auto big = t5_bucket_matrix(4096, 4096, true, 32, 128);
  CHECK(big(0, 4095) == 31);
  CHECK(big(4095, 0) == 15);
  CHECK(big(100, 100) == 0);
}

TEST_CASE("distinct buckets used by a sequence") {
  // 32/128 bidirectional: a sequence of 1 token sees only rp = 0; 8 tokens see
  // rp in −7..7 (15 buckets); from |rp| = 91 on every bucket but 16 (unreachable).
  CHECK(t5_distinct_buckets(1, true, 32, 128) == 1);
  CHECK(t5_distinct_buckets(8, true, 32, 128) == 15);
  CHECK(t5_distinct_buckets(91, true, 32, 128) == 29);
  CHECK(t5_distinct_buckets(92, true, 32, 128) == 31);
  CHECK(t5_distinct_buckets(1000000, true, 32, 128) == 31);
  // causal: rp in −(L−1)..0
  CHECK(t5_distinct_buckets(16, false, 32, 128) == 16);
  CHECK(t5_distinct_buckets(114, false, 32, 128) == 32);
  CHECK(t5_distinct_buckets(113, false, 32, 128) == 31);
}

TEST_CASE("invalid T5 parameters are rejected with the right key") {
  CHECK(key_of([] { t5_relative_bucket(1, true, 1, 128); }) == "buckets");
  CHECK(key_of([] { t5_relative_bucket(1, true, 2000, 128); }) == "buckets");
  CHECK(key_of([] { t5_relative_bucket(1, true, 31, 128); }) == "buckets");  // odd, bidirectional
  CHECK(key_of([] { t5_relative_bucket(1, true, 2, 128); }) == "buckets");   // < 4, bidirectional
  CHECK(key_of([] { t5_relative_bucket(1, false, 31, 128); }) == "(accepted)");
  CHECK(key_of([] { t5_relative_bucket(1, true, 32, 0); }) == "bucket_max_distance");
  CHECK(key_of([] { t5_relative_bucket(1, true, 32, 8); }) == "bucket_max_distance");   // max_exact 8
  CHECK(key_of([] { t5_relative_bucket(1, false, 32, 16); }) == "bucket_max_distance");  // max_exact 16
  CHECK(key_of([] { t5_relative_bucket(1, false, 32, 17); }) == "(accepted)");
  CHECK(key_of([] { t5_bucket_matrix(0, 5, true, 32, 128); }) == "positions");
  CHECK(key_of([] { t5_bucket_matrix(5, 4097, true, 32, 128); }) == "positions");
  CHECK(key_of([] { t5_bucket_ranges(true, 3, 128); }) == "buckets");
  CHECK(key_of([] { t5_distinct_buckets(0, true, 32, 128); }) == "seq_len");
  CHECK(key_of([] { t5_distinct_buckets(5, true, 32, 4); }) == "bucket_max_distance");
}
