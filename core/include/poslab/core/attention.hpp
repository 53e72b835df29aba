#pragma once
// One toy self-attention head, to show why a Transformer needs positions
// (Vaswani et al. 2017, "Attention Is All You Need", §3.2.1 eq. 1, §3.5).
//
// X is N × d, one token's embedding x per row (NOTATION.md: q = W_q·x, …):
//   Q = X·W_qᵀ,  K = X·W_kᵀ,  V = X·W_vᵀ      (row m of Q is q = W_q·x_m)
//   A = softmax_row(Q·Kᵀ / √d)                 (N × N; row m: how query m
//                                               spreads over the keys n)
//   Y = A·V                                    (N × d; row m: token m's output)
//
// Permutation equivariance (Lee et al. 2019, "Set Transformer", §3.1;
// Yun et al. 2020, "Are Transformers universal approximators…", §2): for a
// permutation matrix P (shuffled tokens P·X),
//   (PQ)(PK)ᵀ = P·(QKᵀ)·Pᵀ,   softmax_row(P·S·Pᵀ) = P·softmax_row(S)·Pᵀ
//   ⇒ A(P·X) = P·A(X)·Pᵀ  and  Y(P·X) = P·A·Pᵀ·P·V = P·Y(X):
// shuffling the words only shuffles the outputs; attention cannot see order.
// Adding a position vector to each row after the order is fixed,
// H = X + s·PE with row p of PE = PE(p) (§3.5, core/sinusoidal.hpp), breaks
// it: P·X + s·PE ≠ P·(X + s·PE) unless P·PE = PE.
//
// The weights and embeddings here are seeded toys (core/random.hpp), not a
// trained model: the symmetry above holds for every choice of them.

#include <cstdint>
#include <span>

#include <Eigen/Dense>

namespace poslab::core {

template <class Scalar>
using AttentionMatrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;

/// One head's projections, each d × d: q = W_q·x, k = W_k·x, v = W_v·x.
template <class Scalar>
struct AttentionHead {
  AttentionMatrix<Scalar> w_q, w_k, w_v;
};

/// What one head computes for a sequence.
template <class Scalar>
struct AttentionResult {
  AttentionMatrix<Scalar> weights;  ///< A, N × N, every row sums to 1
  AttentionMatrix<Scalar> output;   ///< Y = A·V, N × d
};

/// softmax of every row, exp(sᵢ − max s) / Σ exp(sⱼ − max s) (the max
/// subtracted first, so no overflow): rows sum to 1, entries in (0, 1].
template <class Scalar>
AttentionMatrix<Scalar> softmax_each_row(const AttentionMatrix<Scalar>& scores);

/// A = softmax_row(Q·Kᵀ/√d) and Y = A·V for the rows of `x` (N × d, N >= 1;
/// the head's matrices d × d). Raises InvalidParameter on mismatched sizes.
/// `causal`: the decoder's mask, query m sees keys n <= m only (the scores of
/// later keys are −∞ before the softmax, so their weights are exactly 0 and
/// row 0 puts all its weight on token 0).
template <class Scalar>
AttentionResult<Scalar> self_attention(const AttentionMatrix<Scalar>& x, const AttentionHead<Scalar>& head,
                                       bool causal = false);

/// A toy head: every entry of W_q, W_k, W_v drawn N(0, 1/d) (so q·k/√d is of
/// order 1), from random_normal(seed, stream of W_q | W_k | W_v, r·d + c).
/// Checks d and seed against their parameter specs.
template <class Scalar>
AttentionHead<Scalar> toy_attention_head(int d, std::uint64_t seed);

/// Toy embeddings: row r is the embedding of token id ids[r], entries N(0, 1)
/// from random_normal(seed, embedding stream, id·8192 + j). A repeated id
/// gets the same row (a word has one embedding wherever it stands).
template <class Scalar>
AttentionMatrix<Scalar> toy_embeddings(std::span<const int> ids, int d, std::uint64_t seed);

/// H = X + s·PE: row p of `x` plus s·PE(p), p = 0..N−1 (Vaswani §3.5). With
/// s = 0, H = X exactly (no position information).
template <class Scalar>
AttentionMatrix<Scalar> add_sinusoidal_positions(const AttentionMatrix<Scalar>& x, double scale, double base);

/// True if `perm` holds each of 0..N−1 exactly once (N = perm.size()).
bool is_permutation(std::span<const int> perm);

/// P·X: row i of the result is row perm[i] of `x` (position i of the shuffled
/// sentence holds the token that stood at perm[i]). Raises InvalidParameter
/// (key `perm`) unless `perm` is a permutation of 0..rows−1.
template <class Scalar>
AttentionMatrix<Scalar> permute_rows(const AttentionMatrix<Scalar>& x, std::span<const int> perm);

/// Pᵀ·Y, the inverse of permute_rows: row perm[i] of the result is row i of
/// `y` (each shuffled row put back where its token stood).
template <class Scalar>
AttentionMatrix<Scalar> unpermute_rows(const AttentionMatrix<Scalar>& y, std::span<const int> perm);

/// The shuffle test, both ways round: the sentence `x` (embeddings, no
/// positions) in its order and shuffled by `perm`, positions added to each
/// after its order is fixed (pe_scale = 0: none), through the same head.
template <class Scalar>
struct ShuffleTest {
  AttentionResult<Scalar> original;  ///< attention of X + s·PE
  AttentionResult<Scalar> shuffled;  ///< attention of P·X + s·PE
  /// Pᵀ·Y(shuffled): each shuffled output put back at its word's original place.
  AttentionMatrix<Scalar> shuffled_back;
  /// max over entries of |Y(P·X + s·PE) − P·Y(X + s·PE)|: 0 up to rounding
  /// without positions (equivariance), > 0 with them.
  Scalar gap = 0;
};

template <class Scalar>
ShuffleTest<Scalar> shuffle_test(const AttentionMatrix<Scalar>& x, std::span<const int> perm,
                                 const AttentionHead<Scalar>& head, double pe_scale, double base);

}  // namespace poslab::core
