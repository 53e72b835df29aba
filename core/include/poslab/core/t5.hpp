#pragma once
// T5 relative-position buckets (Raffel et al. 2020), exactly as HF transformers'
// `T5Attention._relative_position_bucket` (itself from Mesh TensorFlow),
// including its float32 arithmetic:
//
//   relative_position = key − query
//   bidirectional: num_buckets //= 2; ret += (rp > 0) · num_buckets; n = |rp|
//   causal:        n = max(−rp, 0)
//   max_exact = num_buckets // 2
//   n < max_exact  →  ret += n
//   otherwise      →  ret += min(max_exact + int(log(n / max_exact) / log(max_distance / max_exact)
//                                              · (num_buckets − max_exact)),  num_buckets − 1)

#include <vector>

#include <Eigen/Dense>

namespace poslab::core {

/// The bucket of one relative position (key − query). Checks the parameters
/// (num_buckets = `buckets`, max_distance = `bucket_max_distance`).
int t5_relative_bucket(long long relative_position, bool bidirectional, int num_buckets, int max_distance);

/// query_len × key_len matrix of buckets, entry (i, j) = bucket(j − i).
Eigen::MatrixXi t5_bucket_matrix(int query_len, int key_len, bool bidirectional, int num_buckets,
                                 int max_distance);

/// The relative positions one bucket covers: [first, last], both inclusive
/// (last = LLONG_MAX / first = LLONG_MIN when the bucket is open-ended).
struct T5BucketRange {
  int bucket = 0;
  long long first = 0;
  long long last = 0;
};

/// Every bucket with the relative positions it covers, in bucket order; a
/// bucket no integer position reaches is omitted. Exact: found by bisection on
/// t5_relative_bucket itself (buckets are monotone in |rp| on each side).
std::vector<T5BucketRange> t5_bucket_ranges(bool bidirectional, int num_buckets, int max_distance);

/// How many distinct buckets a sequence of seq_len tokens uses (queries and
/// keys both in 0 .. seq_len − 1).
int t5_distinct_buckets(long long seq_len, bool bidirectional, int num_buckets, int max_distance);

}  // namespace poslab::core
