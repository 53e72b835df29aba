#pragma once
// The Gaussian-kernel RoPE variant of the notes (seed 000):
//   K(x) = α1·exp(−x²/2σ1²) + α2·exp(−x²/2σ2²)
// The notes apply K to the *absolute* position: f(x, m) = K(m)·R_m x for both
// q and k, so a score carries K(m)·K(n) and is no longer a function of m − n.
// The relative variant puts K(m − n) on the score and keeps RoPE's property.

#include <cstdint>
#include <string_view>

#include <Eigen/Dense>

#include "poslab/core/rope.hpp"

namespace poslab::core {

struct GaussianKernel {
  double alpha1 = 0.7, alpha2 = 0.3, sigma1 = 5, sigma2 = 20;
  /// K(x) = α1·exp(−x²/2σ1²) + α2·exp(−x²/2σ2²). Never NaN/Inf: a kernel that
  /// could make it so (σ <= 0 or not finite, α not finite) raises through check().
  double operator()(double x) const;
  /// Checks alpha1, alpha2, sigma1, sigma2 against their specs (InvalidParameter).
  /// Every function below calls it once on entry.
  void check() const;
};

enum class KernelMode { absolute, relative };
KernelMode parse_kernel_mode(std::string_view word);

/// absolute: K(m)·K(n)·⟨R_m q, R_n k⟩;  relative: K(m − n)·⟨R_m q, R_n k⟩.
double gaussian_rope_score(const Eigen::VectorXd& q, const Eigen::VectorXd& k, double m, double n,
                           double base, PairLayout layout, const GaussianKernel& kernel, KernelMode mode);

/// N × N matrix of gaussian_rope_score for m, n = 0 .. N−1 (row m = query),
/// N = positions <= 4096.
Eigen::MatrixXd gaussian_score_matrix(const Eigen::VectorXd& q, const Eigen::VectorXd& k, int positions,
                                      double base, PairLayout layout, const GaussianKernel& kernel,
                                      KernelMode mode);

/// Shift-invariance error: max over s = 0..window of
///   |score(m + s, n + s) − score(m, n)|. Zero (to rounding) for a relative
/// score; large for the notes' absolute form.
double gaussian_shift_invariance_error(const Eigen::VectorXd& q, const Eigen::VectorXd& k, double m, double n,
                                       int window, double base, PairLayout layout, const GaussianKernel& kernel,
                                       KernelMode mode);

/// The distance from which |K| stays below threshold·|K(0)| (e.g. 0.01 for
/// "below 1%"): the last root of |K(x)| = threshold·|K(0)|. On |K|, not K: a
/// negative weight makes K change sign, and signed K is "below 1%" long
/// before its size is. For α1, α2 ≥ 0 it is the first (and only) root.
/// Returns a negative value when K(0) = 0 (no peak to take a fraction of).
/// threshold must be in (0, 1) (InvalidParameter "threshold" otherwise).
double gaussian_kernel_cutoff(const GaussianKernel& kernel, double threshold);

}  // namespace poslab::core
