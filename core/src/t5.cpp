// T5 relative-position buckets, bit for bit as the reference implementation.
//
// Source: HF transformers, models/t5/modeling_t5.py,
// `T5Attention._relative_position_bucket` (a port of Mesh TensorFlow's
// `_relative_position_bucket`, transformer_layers.py). In Python/PyTorch:
//
//   relative_buckets = 0
//   if bidirectional:
//       num_buckets //= 2
//       relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
//       relative_position = torch.abs(relative_position)
//   else:
//       relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
//   max_exact = num_buckets // 2
//   is_small = relative_position < max_exact
//   relative_position_if_large = max_exact + (
//       torch.log(relative_position.float() / max_exact)
//       / math.log(max_distance / max_exact)
//       * (num_buckets - max_exact)
//   ).to(torch.long)
//   relative_position_if_large = torch.min(relative_position_if_large,
//                                          torch.full_like(..., num_buckets - 1))
//   relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
//
// The large branch runs in float32: `.float()` rounds n to float32, the division
// by the Python int max_exact and the multiplication by the Python int
// (num_buckets − max_exact) are float32 operations, torch.log is float32, and
// the Python double math.log(max_distance / max_exact) is rounded to float32
// before the float32 division. `.to(torch.long)` truncates toward zero. The
// result depends on that rounding where log(n / max_exact) / log(max_distance /
// max_exact) · (num_buckets − max_exact) is (nearly) a whole number, i.e. at the
// bucket edges; we repeat every step in float (std::log(float)) so the edges
// fall where T5 was trained to expect them.

#include "poslab/core/t5.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <string>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"

namespace poslab::core {

namespace {

/// The largest query_len / key_len of a bucket matrix (a 4096 × 4096 int
/// matrix is 64 MiB).
constexpr int kMaxMatrixSide = 4096;

/// The checked parameters with the derived quantities of the reference code.
struct T5Setup {
  bool bidirectional = true;
  int side_buckets = 32;  ///< num_buckets, halved when bidirectional
  int max_exact = 8;      ///< side_buckets // 2
  float log_ratio = 0;    ///< float32(math.log(max_distance / max_exact))
  float log_span = 0;     ///< float32(side_buckets − max_exact)
};

T5Setup make_setup(bool bidirectional, int num_buckets, int max_distance) {
  check_integer("buckets", num_buckets);
  check_integer("bucket_max_distance", max_distance);
  if (bidirectional && (num_buckets % 2 != 0 || num_buckets < 4))
    throw InvalidParameter("buckets", std::to_string(num_buckets),
                           "must be even and >= 4 when bidirectional=true (half the buckets "
                           "for each direction, half of those exact)",
                           Reason{"buckets_bidirectional", {}, {}});
  T5Setup s;
  s.bidirectional = bidirectional;
  s.side_buckets = bidirectional ? num_buckets / 2 : num_buckets;
  s.max_exact = s.side_buckets / 2;
  if (max_distance <= s.max_exact)
    throw InvalidParameter("bucket_max_distance", std::to_string(max_distance),
                           "must be > " + std::to_string(s.max_exact) + " (the exact range: buckets/" +
                               (bidirectional ? "4" : "2") + ") so the logarithmic buckets have room",
                           Reason{"bucket_room",
                                  {{"max_exact", std::to_string(s.max_exact)}, {"div", bidirectional ? "4" : "2"}}, {}});
  // Python: max_distance / max_exact is a true division in double, math.log
  // is the C library's log in double; PyTorch rounds the scalar to float32.
  s.log_ratio = static_cast<float>(
      std::log(static_cast<double>(max_distance) / static_cast<double>(s.max_exact)));
  s.log_span = static_cast<float>(s.side_buckets - s.max_exact);
  return s;
}

/// The bucket of a magnitude n >= 0 within one side (before the +half offset
/// of the bidirectional upper half): n itself when n < max_exact, otherwise the
/// float32 logarithmic formula clamped to side_buckets − 1.
int side_bucket(unsigned long long n, const T5Setup& s) {
  if (n < static_cast<unsigned long long>(s.max_exact)) return static_cast<int>(n);
  const float scaled = static_cast<float>(n) / static_cast<float>(s.max_exact);  // .float() / max_exact
  const float log_n = std::log(scaled);                                          // torch.log (float32)
  const float fraction = log_n / s.log_ratio;                                    // / math.log(...)
  const float large = fraction * s.log_span;                                     // * (nb − max_exact)
  // .to(torch.long) truncates toward zero; large >= 0 here (scaled >= 1) and
  // far below 2^63 (log of at most 2^64 over a ratio > 1, times <= 512).
  const long long bucket = s.max_exact + static_cast<long long>(large);
  return static_cast<int>(std::min<long long>(bucket, s.side_buckets - 1));
}

/// |rp| as an unsigned magnitude (well defined for LLONG_MIN too: 2^63).
unsigned long long magnitude(long long rp) {
  return rp < 0 ? 0ULL - static_cast<unsigned long long>(rp) : static_cast<unsigned long long>(rp);
}

int bucket_of(long long rp, const T5Setup& s) {
  if (s.bidirectional) {
    const int offset = rp > 0 ? s.side_buckets : 0;
    return offset + side_bucket(magnitude(rp), s);
  }
  // causal: n = max(−rp, 0); every rp >= 0 (the present and the future) is bucket 0
  return rp >= 0 ? 0 : side_bucket(magnitude(rp), s);
}

/// The smallest n in [lo, hi] with side_bucket(n) >= target, or hi + 1 if none.
/// side_bucket is non-decreasing in n: float conversion, a division and a
/// multiplication by positive constants, truncation and min are monotone, and
/// so is the C library's logf (a property the tests check exhaustively up to
/// 2^20 and at every bucket edge).
unsigned long long first_reaching(int target, unsigned long long lo, unsigned long long hi, const T5Setup& s) {
  if (side_bucket(hi, s) < target) return hi + 1;
  while (lo < hi) {
    const unsigned long long mid = lo + (hi - lo) / 2;
    if (side_bucket(mid, s) >= target)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

/// The magnitudes [first, last] of each side bucket 0..side_buckets−1 within
/// n in [lo, hi]; a bucket no magnitude reaches gets first > last.
struct MagnitudeRange {
  unsigned long long first = 1, last = 0;
};
std::vector<MagnitudeRange> side_ranges(unsigned long long lo, unsigned long long hi, const T5Setup& s) {
  std::vector<MagnitudeRange> out(static_cast<std::size_t>(s.side_buckets));
  for (int b = 0; b < s.side_buckets; ++b) {
    const unsigned long long first = first_reaching(b, lo, hi, s);
    if (first > hi || side_bucket(first, s) != b) continue;  // skipped bucket
    const unsigned long long next = b + 1 < s.side_buckets ? first_reaching(b + 1, first, hi, s) : hi + 1;
    out[static_cast<std::size_t>(b)] = {first, next - 1};
  }
  return out;
}

void check_side(int length) {
  check_integer("positions", length);
  if (length > kMaxMatrixSide)
    throw InvalidParameter("positions", std::to_string(length),
                           "must be <= " + std::to_string(kMaxMatrixSide) + " for a bucket matrix",
                           Reason{"max_bucket_matrix", {{"max", std::to_string(kMaxMatrixSide)}}, {}});
}

}  // namespace

/// relative_position = key − query; see the file comment for the formula.
/// Defined for every long long (|LLONG_MIN| is taken as 2^63, where the
/// reference's int64 abs would wrap).
int t5_relative_bucket(long long relative_position, bool bidirectional, int num_buckets, int max_distance) {
  return bucket_of(relative_position, make_setup(bidirectional, num_buckets, max_distance));
}

/// Entry (i, j) = bucket(j − i). The bucket depends on j − i only, so the
/// query_len + key_len − 1 distinct offsets are bucketed once and every column
/// is a copy of a slice of that table (4096 × 4096 in a few tens of ms).
Eigen::MatrixXi t5_bucket_matrix(int query_len, int key_len, bool bidirectional, int num_buckets,
                                 int max_distance) {
  const T5Setup s = make_setup(bidirectional, num_buckets, max_distance);
  check_side(query_len);
  check_side(key_len);
  // rev[t] = bucket(key_len − 1 − t), t = 0 .. query_len + key_len − 2, so that
  // column j, rows i = 0..query_len−1 (rp = j − i, decreasing) is
  // rev[key_len − 1 − j .. key_len − 1 − j + query_len − 1].
  const int count = query_len + key_len - 1;
  Eigen::VectorXi rev(count);
  for (int t = 0; t < count; ++t) rev[t] = bucket_of(static_cast<long long>(key_len) - 1 - t, s);
  Eigen::MatrixXi out(query_len, key_len);
  for (int j = 0; j < key_len; ++j)
    std::memcpy(out.col(j).data(), rev.data() + (key_len - 1 - j),
                static_cast<std::size_t>(query_len) * sizeof(int));
  return out;
}

/// Bisection per side on the magnitude n (bidirectional: rp = −n for buckets
/// 0..half−1, rp = +n for buckets half..; causal: rp = −n, with bucket 0 also
/// holding every rp >= 0). The outermost bucket of each side is open-ended.
std::vector<T5BucketRange> t5_bucket_ranges(bool bidirectional, int num_buckets, int max_distance) {
  const T5Setup s = make_setup(bidirectional, num_buckets, max_distance);
  constexpr unsigned long long kMaxNegative = 1ULL << 63;  // |LLONG_MIN|
  constexpr auto kMaxPositive = static_cast<unsigned long long>(LLONG_MAX);
  auto negate = [](unsigned long long n) {
    return n == kMaxNegative ? LLONG_MIN : -static_cast<long long>(n);
  };
  std::vector<T5BucketRange> out;
  // Non-positive side: rp = −n, n in [0, 2^63].
  const auto down = side_ranges(0, kMaxNegative, s);
  for (int b = 0; b < s.side_buckets; ++b) {
    const MagnitudeRange& r = down[static_cast<std::size_t>(b)];
    if (r.first > r.last) continue;
    T5BucketRange range{b, negate(r.last), negate(r.first)};
    if (!s.bidirectional && b == 0) range.last = LLONG_MAX;  // causal: the future is bucket 0 too
    out.push_back(range);
  }
  if (s.bidirectional) {
    // Positive side: rp = n in [1, LLONG_MAX], bucket half + side_bucket(n).
    const auto up = side_ranges(1, kMaxPositive, s);
    for (int b = 0; b < s.side_buckets; ++b) {
      const MagnitudeRange& r = up[static_cast<std::size_t>(b)];
      if (r.first > r.last) continue;
      out.push_back({s.side_buckets + b, static_cast<long long>(r.first), static_cast<long long>(r.last)});
    }
  }
  return out;
}

/// Queries and keys in 0..seq_len−1 give rp in [−(seq_len−1), seq_len−1]; a
/// bucket is used when its range meets that interval.
int t5_distinct_buckets(long long seq_len, bool bidirectional, int num_buckets, int max_distance) {
  check_integer("seq_len", static_cast<double>(seq_len));
  const long long reach = seq_len - 1;
  int used = 0;
  for (const T5BucketRange& r : t5_bucket_ranges(bidirectional, num_buckets, max_distance))
    if (r.first <= reach && r.last >= -reach) ++used;
  return used;
}

}  // namespace poslab::core
