#pragma once
// The "decay" lesson's parameters as core reads them, written once for its
// figures, readouts and tables: the bases it compares, and the other methods
// it puts on RoPE's distance axis (xPos, ALiBi's chosen head, the Gaussian
// kernel, T5's buckets).

#include <vector>

#include "app/lessons/common/setting.hpp"
#include "poslab/core/gaussian.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::decay {

/// `base` first, then the entries of `bases` without repeats.
std::vector<double> compared_bases(const core::Params& p);

/// Every method but RoPE at the lesson's parameters, as the comparison shows
/// it at distance r (key r tokens before the query).
struct Methods {
  double xpos_gamma, xpos_scale_base;  ///< xPos's γ and scale base B
  int heads, head;                     ///< ALiBi: the head shown among `heads`
  double slope;                        ///< its slope, core::alibi_slopes(heads)[head − 1]
  core::GaussianKernel kernel;         ///< lessons::gaussian_kernel
  double kernel0;                      ///< K(0)
  bool kernel_normalised;              ///< K(0) clearly positive: K is shown as K(r)/K(0)
  lessons::T5Buckets t5;

  /// ALiBi's bias −m·⌊r⌋ (core::alibi_bias, causal).
  double bias(double r) const;
  /// K(r) as shown: K(r)/K(0) when normalised, else K(r) itself; `k_r` = K(r).
  double kernel_shown(double k_r) const { return kernel_normalised ? k_r / kernel0 : k_r; }
  /// T5's bucket of key − query = −⌊r⌋.
  int bucket(double r) const;
};
Methods methods(const core::Params& p);

}  // namespace poslab::app::decay
