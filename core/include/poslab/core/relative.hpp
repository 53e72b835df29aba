#pragma once
// Relative positions (Shaw, Uszkoreit, Vaswani 2018, "Self-Attention with
// Relative Position Representations", eq. 3–4) and the four-term decomposition
// of an attention score with absolute position embeddings (notes seed 001 eq. 6,
// seed 002 §2.3; Transformer-XL, T5 and DeBERTa drop or replace terms).

#include <cstdint>

#include <Eigen/Dense>

namespace poslab::core {

/// Shaw et al.: the relative index of key j seen from query i,
///   clip(j − i, −k, k)  (so 2k + 1 learned vectors cover every distance).
long long shaw_relative_index(long long i, long long j, long long k);

/// The n × n matrix of shaw_relative_index(i, j, k), row i = query, column j = key.
Eigen::MatrixXi shaw_index_matrix(int n, int k);

/// Seeded toy inputs for the four-term decomposition, row-vector convention
/// as in the notes: x, p are tokens × d_model (row i = token i), W_q and W_k are
/// d_model × d_head. x ~ N(0, 1); p = sinusoidal rows 0..tokens−1 (base);
/// W ~ N(0, 1/d_model). Also seeded parts the variants need:
///   u, v (1 × d_head, N(0, 1)): Transformer-XL's replacements of p_i W_q (they
///     live where a projected query lives, Dai et al. 2019 §3.3);
///   W_kr (d_model × d_head, N(0, 1/d_model)): the position-key projection
///     (Transformer-XL's W_{k,R}; DeBERTa's W_{k,r});
///   W_qr (d_model × d_head, N(0, 1/d_model)): DeBERTa's position-query projection W_{q,r};
///   relative_embeddings (2·kDebertaSpan × d_model, N(0, 1)): DeBERTa's shared
///     relative position table P, row δ ∈ [0, 2k);
///   bucket_bias (kT5ToyBuckets learned scalars, N(0, 1)): T5's per-bucket bias.
/// Sizes: tokens 1..4096 (key `positions`), d_model and d_head as `d`.
struct ToyAttention {
  Eigen::MatrixXd x, p, w_q, w_k, w_kr, w_qr, relative_embeddings;
  Eigen::RowVectorXd u, v;
  Eigen::VectorXd bucket_bias;
  double base = 10000;
};

/// The T5 variant's bucketing: bidirectional, 32 buckets, max distance 128 (T5 defaults).
inline constexpr int kT5ToyBuckets = 32;
inline constexpr int kT5ToyMaxDistance = 128;
/// DeBERTa's attention span k (max_relative_positions): relative distances are
/// clipped to [−k, k − 1], δ(i, j) = clamp(i − j + k, 0, 2k − 1).
inline constexpr int kDebertaSpan = 8;

ToyAttention toy_attention(int tokens, int d_model, int d_head, double base, std::uint64_t seed);

/// The four tokens × tokens terms of q_i·k_j = (x_i + p_i) W_q W_kᵀ (x_j + p_j)ᵀ:
///   content_content   = x_i W_q W_kᵀ x_jᵀ
///   content_position  = x_i W_q W_kᵀ p_jᵀ
///   position_content  = p_i W_q W_kᵀ x_jᵀ
///   position_position = p_i W_q W_kᵀ p_jᵀ
/// Their sum equals the full score (x + p) W_q ((x + p) W_k)ᵀ.
struct FourTerms {
  Eigen::MatrixXd content_content, content_position, position_content, position_position;
  Eigen::MatrixXd sum() const;
};

/// Which terms a model keeps (and how it replaces them). Row i = query, column
/// j = key; no variant applies a 1/√d (or DeBERTa's 1/√(3d)) scale.
enum class TermVariant {
  /// The absolute-PE expansion, all four terms (notes seed 002 §2.3).
  all,
  /// Dai et al. 2019 §3.3, eq. (a)–(d): no absolute p; the key's p_j becomes
  /// R_{i−j} (the sinusoid of the relative distance, d_model wide) with its own
  /// projection W_kr, and the query's p_i W_q becomes the learned u (next to
  /// content keys) and v (next to position keys):
  ///   content_content   (a) = x_i W_q W_kᵀ x_jᵀ
  ///   content_position  (b) = x_i W_q W_krᵀ R_{i−j}ᵀ
  ///   position_content  (c) = u W_kᵀ x_jᵀ
  ///   position_position (d) = v W_krᵀ R_{i−j}ᵀ
  transformer_xl,
  /// Raffel et al. 2020 §2.1 (HF T5Attention): no absolute p; cp and pc are
  /// dropped (zero); pp becomes one learned scalar per relative bucket:
  ///   content_content = x_i W_q W_kᵀ x_jᵀ,
  ///   position_position = bucket_bias[t5_relative_bucket(j − i, bidirectional,
  ///                                   kT5ToyBuckets, kT5ToyMaxDistance)]
  t5,
  /// He et al. 2021 §3.1, eq. 2–4: no absolute p; content-to-position and
  /// position-to-content through the relative table P = relative_embeddings,
  /// pp dropped (zero). δ(i, j) = clamp(i − j + k, 0, 2k − 1), k = kDebertaSpan:
  ///   content_content  = x_i W_q (x_j W_k)ᵀ
  ///   content_position = x_i W_q (P_{δ(i,j)} W_kr)ᵀ                 (c2p)
  ///   position_content = x_j W_k (P_{δ(i,j)} W_qr)ᵀ                 (p2c)
  /// p2c is indexed by δ(i, j) as the reference code computes it (microsoft/DeBERTa
  /// and HF DisentangledSelfAttention: gather with clamp(−(i − j) + k) on K_c Q_rᵀ,
  /// then transpose); eq. 4 of the paper writes δ(j, i).
  deberta,
};

/// The four terms of `variant` for the toy inputs; a dropped term is all zeros.
FourTerms four_term_decomposition(const ToyAttention& toy, TermVariant variant = TermVariant::all);

/// The full score (x + p) W_q ((x + p) W_k)ᵀ, computed directly (for checking).
Eigen::MatrixXd absolute_attention_scores(const ToyAttention& toy);

}  // namespace poslab::core
