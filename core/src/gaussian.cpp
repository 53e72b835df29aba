// [SECTION] Index
// - The kernel K(x)
// - Scores in the notes' absolute form and in the relative form
// - Shift invariance
// - Cutoff distance
//
// Source: the lecture notes, seed 000 ("Gaussian Kernel-enhanced Rotary
// Position Embedding"): K(m) = α1·exp(−m²/2σ1²) + α2·exp(−m²/2σ2²) and
// f(x, m) = K(m)·R_m x for q and for k (their code: `K_r * (x*cos +
// rotate_half(x)*sin)` with r = arange(seq_len), i.e. absolute positions).
// Their code also mixes the pair layouts; that part is rope_rotate_mixed in
// rope.cpp. Here the rotation is proper RoPE in the chosen layout.

#include "poslab/core/gaussian.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"

namespace poslab::core {

namespace {

/// An N × N matrix is only drawn for N up to this many positions (8 × 4096² bytes = 128 MiB).
constexpr int kMaxMatrixPositions = 4096;

void check_pair(const Eigen::VectorXd& q, const Eigen::VectorXd& k) {
  if (q.size() != k.size())
    throw InvalidParameter("vector", std::to_string(k.size()) + " items",
                           "q and k must have the same length (" + std::to_string(q.size()) + ")");
}

double kernel_factor(const GaussianKernel& kernel, double m, double n, KernelMode mode) {
  return mode == KernelMode::absolute ? kernel(m) * kernel(n) : kernel(m - n);
}

}  // namespace

// [SECTION] The kernel K(x)

void GaussianKernel::check() const {
  check_real("alpha1", alpha1);
  check_real("alpha2", alpha2);
  check_real("sigma1", sigma1);
  check_real("sigma2", sigma2);
}

// K(x) = α1·exp(−x²/(2σ1²)) + α2·exp(−x²/(2σ2²)). The aggregate cannot check
// itself on construction, so operator() tests what could make the value NaN or
// Inf (σ not finite and > 0, α not finite) and then raises through check();
// the entry points below call check() once for the full parameter specs.
double GaussianKernel::operator()(double x) const {
  if (!(std::isfinite(alpha1) && std::isfinite(alpha2) && std::isfinite(sigma1) && std::isfinite(sigma2) &&
        sigma1 > 0 && sigma2 > 0 && std::isfinite(x)))
    check();
  if (!std::isfinite(x)) check_real("distance", x);
  return alpha1 * std::exp(-x * x / (2 * sigma1 * sigma1)) + alpha2 * std::exp(-x * x / (2 * sigma2 * sigma2));
}

KernelMode parse_kernel_mode(std::string_view word) {
  if (word == "absolute") return KernelMode::absolute;
  if (word == "relative") return KernelMode::relative;
  check_param_value(param_spec("kernel_mode"), std::string(word));  // raises the uniform message
  throw InvalidParameter("kernel_mode", std::string(word), describe_allowed(param_spec("kernel_mode")),
                         allowed_reason(param_spec("kernel_mode")));
}

// [SECTION] Scores

// absolute (the notes): ⟨K(m)R_m q, K(n)R_n k⟩ = K(m)K(n)·⟨R_m q, R_n k⟩
// relative:              K(m − n)·⟨R_m q, R_n k⟩
double gaussian_rope_score(const Eigen::VectorXd& q, const Eigen::VectorXd& k, double m, double n, double base,
                           PairLayout layout, const GaussianKernel& kernel, KernelMode mode) {
  kernel.check();
  check_pair(q, k);
  return kernel_factor(kernel, m, n, mode) * rope_score(q, k, m, n, base, layout);
}

// Row m, column n = gaussian_rope_score(q, k, m, n). The RoPE part depends on
// n − m only (RoFormer eq. 16), so it is computed once per difference:
//   g(r) = Σ_pairs (q_a k_a + q_b k_b) cos(r θ_i) + (q_b k_a − q_a k_b) sin(r θ_i),
// O(N·d + N²) instead of O(N²·d). Tests compare it with gaussian_rope_score.
Eigen::MatrixXd gaussian_score_matrix(const Eigen::VectorXd& q, const Eigen::VectorXd& k, int positions,
                                      double base, PairLayout layout, const GaussianKernel& kernel,
                                      KernelMode mode) {
  kernel.check();
  check_integer("positions", positions);
  if (positions > kMaxMatrixPositions)
    throw InvalidParameter("positions", std::to_string(positions),
                           "must be <= " + std::to_string(kMaxMatrixPositions) + " for an N × N score matrix",
                           Reason{"max_score_matrix", {{"max", std::to_string(kMaxMatrixPositions)}}, {}});
  check_pair(q, k);
  rope_score(q, k, 0, 0, base, layout);  // checks q, k (the `vector` spec) and base
  const int d = static_cast<int>(q.size());
  const Eigen::VectorXd theta = rope_inverse_frequencies(d, base);
  Eigen::VectorXd cos_coef(d / 2), sin_coef(d / 2);
  for (int i = 0; i < d / 2; ++i) {
    const auto [a, b] = rope_pair_indices(i, d, layout);
    cos_coef[i] = q[a] * k[a] + q[b] * k[b];
    sin_coef[i] = q[b] * k[a] - q[a] * k[b];
  }
  const int n_pos = positions;
  Eigen::VectorXd g(2 * n_pos - 1);  // g[r + N − 1] = ⟨R_0 q, R_r k⟩, r = −(N−1)..N−1
  for (int r = -(n_pos - 1); r <= n_pos - 1; ++r) {
    double sum = 0;
    for (int i = 0; i < d / 2; ++i) sum += cos_coef[i] * std::cos(r * theta[i]) + sin_coef[i] * std::sin(r * theta[i]);
    g[r + n_pos - 1] = sum;
  }
  Eigen::VectorXd k_abs(n_pos), k_rel(2 * n_pos - 1);
  for (int m = 0; m < n_pos; ++m) k_abs[m] = kernel(m);
  for (int r = -(n_pos - 1); r <= n_pos - 1; ++r) k_rel[r + n_pos - 1] = kernel(r);
  Eigen::MatrixXd out(n_pos, n_pos);
  for (int n = 0; n < n_pos; ++n)
    for (int m = 0; m < n_pos; ++m) {
      const double factor = mode == KernelMode::absolute ? k_abs[m] * k_abs[n] : k_rel[m - n + n_pos - 1];
      out(m, n) = factor * g[n - m + n_pos - 1];
    }
  return out;
}

// [SECTION] Shift invariance

// max_{s=0..window} |score(m + s, n + s) − score(m, n)|: 0 up to rounding for a
// function of m − n alone; for the notes' absolute form K(m+s)K(n+s) changes
// with s while the RoPE part does not.
double gaussian_shift_invariance_error(const Eigen::VectorXd& q, const Eigen::VectorXd& k, double m, double n,
                                       int window, double base, PairLayout layout, const GaussianKernel& kernel,
                                       KernelMode mode) {
  check_integer("window", window);
  const double reference = gaussian_rope_score(q, k, m, n, base, layout, kernel, mode);
  double worst = 0;
  for (int s = 1; s <= window; ++s) {
    const double score = gaussian_rope_score(q, k, m + s, n + s, base, layout, kernel, mode);
    worst = std::max(worst, std::fabs(score - reference));
  }
  return worst;
}

// [SECTION] Cutoff distance

// The distance beyond which |K| stays below c = threshold·|K(0)|: the last x
// with |K(x)| >= c (|K| < c on the open set beyond it). In y = x²,
// f(y) = α1 e^{−a y} + α2 e^{−b y} (a = 1/2σ1², b = 1/2σ2²) has f'(y) = 0 at
// most once, y* = ln(−b α2/(a α1))/(b − a) when that is real and > 0; f is
// monotone on [0, y*] and on [y*, ∞), where it tends to 0 without changing
// sign, so |f| decreases there. If |f(y*)| >= c the last crossing lies in
// [y*, Y] with (|α1| + |α2|)e^{−min(a,b) Y} < c; else |f| < c on all of
// [y*, ∞) and the crossing lies in [0, y*], where f is monotone from f(0)
// (|f(0)| > c) towards f(y*) with |f(y*)| < c, so {|f| >= c} is an initial
// segment of it. Either way: bisection in x on "|f| < c".
// A mix with a negative weight can change sign: signed K falls below c long
// before |K| does (α = (1, −0.5): K < 0 from x ≈ 23, |K| ≈ 0.5 far beyond).
// K(0) = 0 (no peak to take a fraction of): returns −1.
double gaussian_kernel_cutoff(const GaussianKernel& kernel, double threshold) {
  kernel.check();
  if (!(std::isfinite(threshold) && threshold > 0 && threshold < 1))
    throw InvalidParameter("threshold", format_number(threshold), "must be a number > 0 and < 1");
  // The crossing does not change when α1 and α2 are scaled together, so they
  // are scaled to at most 1 in size first: with α near the smallest double,
  // threshold·K(0) would underflow to 0 and |K(x)| < c never happen.
  const double scale = std::max(std::fabs(kernel.alpha1), std::fabs(kernel.alpha2));
  if (!(scale > 0)) return -1;
  const double alpha1 = kernel.alpha1 / scale, alpha2 = kernel.alpha2 / scale;
  const double k0 = std::fabs(alpha1 + alpha2);
  if (!(k0 > 0)) return -1;
  const double c = threshold * k0;
  const double a = 1 / (2 * kernel.sigma1 * kernel.sigma1);
  const double b = 1 / (2 * kernel.sigma2 * kernel.sigma2);
  auto size = [&](double y) { return std::fabs(alpha1 * std::exp(-a * y) + alpha2 * std::exp(-b * y)); };
  double y_turn = -1;  // the extremum y*, if any
  if (a != b && alpha1 != 0 && alpha2 != 0) {
    const double ratio = -b * alpha2 / (a * alpha1);
    if (ratio > 0) {
      const double y = std::log(ratio) / (b - a);
      if (y > 0 && std::isfinite(y)) y_turn = y;
    }
  }
  double y_lo = 0, y_hi = 0;
  if (y_turn > 0 && !(size(y_turn) >= c)) {
    y_hi = y_turn;  // the last crossing is before y*
  } else {
    y_lo = std::max(y_turn, 0.0);  // |f| >= c at y_lo; decreasing after
    y_hi = std::max(y_lo, std::log((std::fabs(alpha1) + std::fabs(alpha2)) / c) / std::min(a, b)) + 1;
    // A guard (the bound above already suffices); bounded, so rounding can never make it spin.
    for (int doubling = 0; doubling < 64 && !(size(y_hi) < c) && std::isfinite(2 * y_hi); ++doubling) y_hi *= 2;
  }
  double x_lo = std::sqrt(y_lo), x_hi = std::sqrt(y_hi);
  for (int it = 0; it < 200 && x_hi - x_lo > 0; ++it) {
    const double mid = 0.5 * (x_lo + x_hi);
    if (mid <= x_lo || mid >= x_hi) break;
    if (size(mid * mid) < c)
      x_hi = mid;
    else
      x_lo = mid;
  }
  return x_hi;
}

}  // namespace poslab::core
