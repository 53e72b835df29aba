#pragma once
// Sinusoidal absolute position encoding (Vaswani et al. 2017, "Attention Is All
// You Need", §3.5):
//   ω_i = base^(−2i/d),  i = 0 .. d/2 − 1
//   PE[p, 2i] = sin(p·ω_i),  PE[p, 2i+1] = cos(p·ω_i)

#include <cstdint>
#include <span>

#include <Eigen/Dense>

namespace poslab::core {

/// ω_i = base^(−2i/d) for pair i (0-based). Checks d and base.
double sinusoidal_frequency(int pair, int d, double base);

/// All d/2 frequencies ω_0 .. ω_{d/2−1}.
Eigen::VectorXd sinusoidal_frequencies(int d, double base);

/// PE[pos, dim]: sin(pos·ω_{dim/2}) for even dim, cos(pos·ω_{dim/2}) for odd dim.
double sinusoidal_value(double pos, int dim, int d, double base);

/// The row PE[pos, 0..d−1].
template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, 1> sinusoidal_row(double pos, int d, double base);

/// The matrix with rows PE[positions[r], 0..d−1].
template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> sinusoidal_matrix(std::span<const double> positions,
                                                                         int d, double base);

/// Wavelength of dimension dim in tokens: λ = 2π / ω_{dim/2}.
double sinusoidal_wavelength(int dim, int d, double base);

/// PE_m · PE_n computed as a dot product of the two rows.
double sinusoidal_dot(double m, double n, int d, double base);

/// Closed form of PE_m · PE_n with k = m − n:
///   Σ_{i=0}^{d/2−1} [sin(mω_i) sin(nω_i) + cos(mω_i) cos(nω_i)] = Σ_i cos(ω_i k).
double sinusoidal_dot_closed_form(double k, int d, double base);

/// sinusoidal_dot_closed_form along a progression: out[j] = Σ_i cos(ω_i k_j) at
/// the offsets k_j = first + j·step, j = 0 .. out.size() − 1 — a curve of
/// PE_m·PE_n against m − n in O(d) per offset without a cos per term. Each
/// pair's angle advances by one rotation per offset,
///   cos(θ + ω·step) = cos θ·cos(ω·step) − sin θ·sin(ω·step),
///   sin(θ + ω·step) = sin θ·cos(ω·step) + cos θ·sin(ω·step),
/// re-anchored with std::cos/std::sin(ω_i·k_j) every kSinusoidalDotReanchor
/// offsets. Offsets are differences of positions: |k_j| <= 1e12 (key `pos`).
///
/// Error bound against sinusoidal_dot_closed_form(k_j) (ω_i <= 1, ε = 2^-53):
/// each term differs by at most ulp(|k_j|) (the two round the angle ω_i·k_j
/// differently) plus (|step| + 4)·ε per rotation since the last anchor, so
///   |out[j] − closed form| <= (d/2)·(ulp(|k_j|) + kSinusoidalDotReanchor·(|step| + 4)·ε)
/// plus the rounding of the two sums ((d/2)²·ε each).
void sinusoidal_dot_closed_form_curve(double first, double step, int d, double base, std::span<double> out);
inline constexpr int kSinusoidalDotReanchor = 32;

/// M(k) with PE(p + k) = M(k) · PE(p) for every p: block diagonal, block i
///   [ cos(ω_i k)   sin(ω_i k) ]
///   [ −sin(ω_i k)  cos(ω_i k) ]   acting on (sin, cos) = (PE[2i], PE[2i+1]).
Eigen::MatrixXd sinusoidal_shift_matrix(double k, int d, double base);

/// Samples PE at positions × dims into `out` (row-major, positions.size() ×
/// dims.size(), float32) — what a heatmap needs at its pixel resolution.
void sinusoidal_grid(std::span<const double> positions, std::span<const int> dims, int d, double base,
                     std::span<float> out);

/// Benchmark kernel: the full table PE[p, j] for p = 0..positions−1, j = 0..d−1
/// into `out` (row-major, positions × d, float32). Angles advance by complex
/// multiplication per row with re-anchoring (exact sin/cos) every
/// kSinusoidalReanchor rows; absolute error ≤ 1e-6 against std::sin/std::cos
/// in double.
void sinusoidal_table(std::span<float> out, std::int64_t positions, int d, double base);
inline constexpr int kSinusoidalReanchor = 512;

}  // namespace poslab::core
