#pragma once
// Layers that mix encodings: layers with no position encoding (NoPE), fewer
// rotating pairs (p-RoPE against partial rotary).
//
// NoPE and the causal mask (Kazemnejad et al. 2023, "The Impact of Positional
// Encoding on Length Generalization in Transformers", arXiv 2305.19466,
// Theorem 1): a decoder layer without any position encoding still sees order,
// because query m attends to keys 0 … m only. If every score is equal (a head
// that attends evenly to what it may see) and only the first token carries a
// marker x₀ = 1 (others 0), token m's output is
//   y_m = Σ_{n<=m} x_n/(m + 1) = 1/(m + 1),
// a different number at every position: the position can be read off,
// m = 1/y_m − 1. Without the mask (bidirectional) every token gets 1/N.
//
// p-RoPE (Barbero et al. 2025, "Round and Round We Go! What makes Rotary
// Positional Encodings useful?", arXiv 2410.06205; HF transformers
// `_compute_proportional_rope_parameters`, rope_type "proportional", Gemma 4):
// of a head's d/2 pairs the first k = ⌊p·d/2⌋ keep RoPE's own frequencies,
// the exponent still over the whole head,
//   θ_i = base^(−2i/d),  i < k;      θ_i = 0 (no rotation), i >= k.
// Partial rotary (GPT-NeoX `rotary_pct`, Phi `partial_rotary_factor`, HF
// `_compute_default_rope_parameters`): the first r = p·d dims rotate and the
// frequencies are spread over those r dims instead,
//   θ_i = base^(−2i/r),  i < r/2;    the other dims pass through.
// Both rotate the same number of pairs; p-RoPE keeps only the fastest ones,
// partial rotary runs down to θ ≈ 1/base over fewer pairs.

#include <Eigen/Dense>

#include "poslab/core/attention.hpp"

namespace poslab::core {

/// k = ⌊p·d/2⌋: the pairs p-RoPE rotates (HF: int(p·head_dim // 2)). Checks d
/// and p (`partial_rotary_factor`, 0 < p <= 1).
int proportional_rope_pairs(int d, double p);

/// d/2 values: θ_i = base^(−2i/d) for i < k, 0 for the pairs that do not turn.
Eigen::VectorXd proportional_rope_inverse_frequencies(int d, double base, double p);

/// r: the dims partial rotary turns, ⌊p·d⌋ (HF: int(head_dim·p)) rounded
/// down to an even number (rotate_half pairs them; an odd count has no pairing).
int partial_rotary_dims(int d, double p);

/// r/2 values: θ_i = base^(−2i/r). Empty when r = 0.
Eigen::VectorXd partial_rotary_inverse_frequencies(int d, double base, double p);

/// y_m (the marker's share in token m's output) for a head that attends evenly
/// to what it may see, computed through self_attention: N tokens (x₀ =
/// (1, 0), the others (0, 1)), W_q = W_k = 0 (every score 0), W_v = I. Causal:
/// y_m = 1/(m + 1); bidirectional: 1/N. N in 1..4096 (N² weights).
template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, 1> even_attention_marker(int tokens, bool causal);

}  // namespace poslab::core
