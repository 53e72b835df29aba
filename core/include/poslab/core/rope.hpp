#pragma once
// Rotary position embedding (Su et al. 2021, "RoFormer", §3.2–3.4).
//   θ_i = base^(−2i/d), i = 0 .. d/2 − 1
// Pair i of a vector at position m is rotated by the angle m·θ_i:
//   (x_a, x_b) → (x_a cos mθ_i − x_b sin mθ_i,  x_a sin mθ_i + x_b cos mθ_i)
// Two pair layouts are in use:
//   interleaved: pair i = (2i, 2i+1)      — RoFormer, Meta's Llama (complex view)
//   half:        pair i = (i, i + d/2)    — HF transformers / GPT-NeoX `rotate_half`
// Scores depend on m − n only: ⟨R_m q, R_n k⟩ = ⟨q, R_{n−m} k⟩.

#include <complex>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include <Eigen/Dense>

namespace poslab::core {

enum class PairLayout { interleaved, half };

/// "interleaved" / "half" ↔ PairLayout; parse raises InvalidParameter("layout", ...).
PairLayout parse_pair_layout(std::string_view word);
const char* pair_layout_name(PairLayout layout);

/// θ_i = base^(−2i/d), i = 0 .. d/2 − 1. Checks d and base. Relative error
/// <= 5·2^−53 (+ ln(base)·2^−53 when d/2 is not a power of two; see rope.cpp).
Eigen::VectorXd rope_inverse_frequencies(int d, double base);
/// The same into `out` (d/2 values, no allocation) for any finite base > 1 —
/// also a derived base beyond the `base` range, e.g. NTK's base·s^(d/(d−2)).
void rope_inverse_frequencies(int d, double base, std::span<double> out);

/// Wavelength of pair i in tokens: λ_i = 2π/θ_i.
Eigen::VectorXd rope_wavelengths(int d, double base);

/// Raises InvalidParameter unless `thetas` can be the frequencies of one head:
/// 1..4096 of them (d = 2·count must be a valid `d`), each within the `theta`
/// spec (> 0, <= 1e3 rad/token). Every entry point taking frequencies (here
/// and in decay.hpp) checks them so.
void rope_check_thetas(std::span<const double> thetas);
/// Raises InvalidParameter, as check_real(key, x) does, on the first of `xs`
/// outside the spec of `key`; the items in range cost a few comparisons each
/// (no message is formatted), so long inputs are checked cheaply.
void check_real_items(std::string_view key, std::span<const double> xs);

/// The index pair (a, b) that pair i occupies in `layout` for dimension d.
std::pair<int, int> rope_pair_indices(int pair, int d, PairLayout layout);

/// x rotated to position m with frequencies `thetas` (size x.size()/2) and an
/// optional factor on cos and sin (YaRN's attention factor; 1 = plain RoPE).
template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, 1> rope_rotate(const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& x,
                                                     double m, std::span<const double> thetas,
                                                     PairLayout layout, double attention_factor = 1.0);

/// x rotated to position m with θ_i = base^(−2i/d), d = x.size().
template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, 1> rope_rotate(const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& x,
                                                     double m, double base, PairLayout layout);

/// The d × d rotation R_{Θ,m}: block diagonal 2×2 rotations [[cos, −sin], [sin, cos]]
/// on the pairs of `layout` (for `half` the blocks sit at rows/cols (i, i+d/2)).
Eigen::MatrixXd rope_rotation_matrix(int d, double m, double base, PairLayout layout);

/// The complex form: z_i = (x_{2i} + i·x_{2i+1})·e^{i m θ_i} (interleaved pairs).
std::vector<std::complex<double>> rope_complex(const Eigen::VectorXd& x, double m, double base);

/// ⟨R_m q, R_n k⟩ with θ_i = base^(−2i/d).
double rope_score(const Eigen::VectorXd& q, const Eigen::VectorXd& k, double m, double n, double base,
                  PairLayout layout);

/// The permutation P with half = P·interleaved: perm[j] is where interleaved
/// index j lands in the half layout (2i → i, 2i+1 → i + d/2). The two
/// permutations below take any finite vector of an even length in 2..8192.
std::vector<int> rope_layout_permutation(int d);
Eigen::VectorXd interleaved_to_half(const Eigen::VectorXd& x);
Eigen::VectorXd half_to_interleaved(const Eigen::VectorXd& x);

/// What mixing the layouts computes — the notes' Gaussian-RoPE code (seed 000):
/// cos/sin duplicated half-style (cat(freqs, freqs)) but rotate_half pairing
/// interleaved neighbours (stack(−x[1::2], x[0::2])). Not a rotation of any
/// pairs: norms change and scores stop depending on m − n alone.
Eigen::VectorXd rope_rotate_mixed(const Eigen::VectorXd& x, double m, double base);

/// Benchmark kernel: cos/sin tables [tokens × d/2] (row t = position t) for
/// positions 0..tokens−1, times attention_factor a. Advances angles by complex
/// multiplication (in double) with re-anchoring every kRopeReanchor positions:
/// no per-element sin/cos, no allocation.
/// Error bound, u = 2^−53, position t = t0 + k after the anchor t0:
///   |table − a·e^{i t θ}| <= a·((3k + 1)·√2·u + u·|t0 θ|)   (double tables)
/// plus the final rounding 2^−24·a for float tables (see rope.cpp).
/// Checks tokens (`positions`), every θ (`theta`), the table sizes.
void rope_cos_sin_table(std::span<float> cos_out, std::span<float> sin_out, std::int64_t tokens,
                        std::span<const double> thetas, double attention_factor = 1.0);
/// The same in double precision (to see and test the recurrence error itself).
void rope_cos_sin_table(std::span<double> cos_out, std::span<double> sin_out, std::int64_t tokens,
                        std::span<const double> thetas, double attention_factor = 1.0);
inline constexpr int kRopeReanchor = 64;

/// Benchmark kernel: rotates `data` [tokens, heads, d] (row-major, float32) in
/// place, token t at position t, with tables from rope_cos_sin_table.
void rope_apply(std::span<float> data, std::int64_t tokens, int heads, int d, std::span<const float> cos_table,
                std::span<const float> sin_table, PairLayout layout);

}  // namespace poslab::core
