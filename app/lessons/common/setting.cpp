#include "app/lessons/common/setting.hpp"

namespace poslab::app::lessons {

core::GaussianKernel gaussian_kernel(const core::Params& p) {
  const core::GaussianKernel k{p.real("alpha1"), p.real("alpha2"), p.real("sigma1"), p.real("sigma2")};
  k.check();
  return k;
}

T5Buckets t5_buckets(const core::Params& p) {
  return {static_cast<int>(p.integer("buckets")), static_cast<int>(p.integer("bucket_max_distance")),
          p.boolean("bidirectional")};
}

}  // namespace poslab::app::lessons
