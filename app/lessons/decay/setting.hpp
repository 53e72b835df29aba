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

/// Every method but RoPE at the lesson's parameters, at distance r (key r
/// tokens before the query).
struct Methods {
  double xpos_gamma, xpos_scale_base;  ///< xPos's γ and scale base B
  int heads, head;                     ///< ALiBi: the head shown among `heads`
  double slope;                        ///< its slope, core::alibi_slopes(heads)[head − 1]
  core::GaussianKernel kernel;         ///< lessons::gaussian_kernel
  double kernel0;                      ///< K(0)
  lessons::T5Buckets t5;

  /// ALiBi's bias −μₕ·r at the distance as given (the line core::alibi_bias
  /// draws through the whole distances; a key r ≥ 0 tokens back, causal).
  double bias(double r) const;
  /// The whole distance T5's bucket is read at: T5 counts whole tokens, so a
  /// fractional r is rounded to the nearest (half away from 0), and the
  /// decay-compare table says which (its t5_distance column).
  static long long t5_distance(double r);
  /// T5's bucket of key − query = −t5_distance(r).
  int bucket(double r) const;
};
Methods methods(const core::Params& p);

/// The one quantity the comparison puts every method on: the softmax weight
/// a key at distance r gets relative to the key at distance 0 when both hold
/// the same content, exp(s(r) − s(0)), with s the logit
/// softmax(q′·k′/√d + bias) reads and q = k = (1, …, 1):
///   RoPE        s(r) = Σᵢ 2cos(rθᵢ)/√d            (s(0) = d/√d)
///   xPos        s(r) = its all-ones score/√d        (ζᵢ^(r/T) on each pair)
///   ALiBi       s(r) = q·k/√d − μₕ·r (no rotation)   → e^(−μₕ·r)
///   Gaussian    s(r) = K(r)·Σᵢ 2cos(rθᵢ)/√d        (relative form, K on the score)
/// T5's bias per bucket is learned, so T5 has no value here without trained
/// weights. `delta` = s(r) − s(0); the exponent is capped at 700 (finite).
double relative_weight(double delta);

/// Gaussian-kernel RoPE's logit difference for q = k = 1 at distance r:
/// (K(r)·ones(r) − K(0)·d)/√d, `ones_r` = Σᵢ 2cos(rθᵢ).
double gaussian_delta(const Methods& m, double kernel_r, double ones_r, int d);

}  // namespace poslab::app::decay
