#pragma once
// Parameter groups that more than one lesson reads into core, written once:
// the notes' Gaussian kernel (lessons gaussian and decay) and T5's buckets
// (lessons t5 and decay). A lesson's own groups are in its setting.hpp.

#include "poslab/core/gaussian.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::lessons {

/// K(x) = α1·exp(−x²/2σ1²) + α2·exp(−x²/2σ2²) at `alpha1`, `alpha2`,
/// `sigma1`, `sigma2`, checked (core::GaussianKernel::check).
core::GaussianKernel gaussian_kernel(const core::Params& p);

/// T5's bucketing (core/t5.hpp): `buckets`, `bucket_max_distance`, `bidirectional`.
struct T5Buckets {
  int buckets, max_distance;
  bool bidirectional;
  int side() const { return bidirectional ? buckets / 2 : buckets; }  ///< buckets per direction
  int max_exact() const { return side() / 2; }                        ///< distances with a bucket each
};
T5Buckets t5_buckets(const core::Params& p);

}  // namespace poslab::app::lessons
