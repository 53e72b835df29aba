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
/// W ~ N(0, 1/d_model). Also seeded parts the variants need: u, v (1 × d_model,
/// N(0,1)), W_kr (d_model × d_head, N(0, 1/d_model)), bucket_bias (32 T5
/// buckets, N(0, 1)).
struct ToyAttention {
  Eigen::MatrixXd x, p, w_q, w_k, w_kr;
  Eigen::RowVectorXd u, v;
  Eigen::VectorXd bucket_bias;
  double base = 10000;
};
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

/// Which terms a model keeps (and how it replaces them).
enum class TermVariant {
  all,             ///< the absolute-PE expansion, all four terms
  transformer_xl,  ///< Dai et al. 2019: p_j → R_{i−j} (sinusoid of the relative distance) with W_kr,
                   ///< p_i W_q → learned u and v: cc + x_i W_q W_krᵀ R_{i−j} + u W_kᵀ x_j + v W_krᵀ R_{i−j}
  t5,              ///< Raffel et al. 2020: cc + a learned scalar per relative bucket (cp, pc dropped;
                   ///< pp replaced by bucket_bias[t5 bucket(j − i)])
  deberta,         ///< He et al. 2021: cc + c2p + p2c with relative embeddings of clip(i − j), pp dropped
};

/// The four terms of `variant` for the toy inputs; a dropped term is all zeros.
FourTerms four_term_decomposition(const ToyAttention& toy, TermVariant variant = TermVariant::all);

/// The full score (x + p) W_q ((x + p) W_k)ᵀ, computed directly (for checking).
Eigen::MatrixXd absolute_attention_scores(const ToyAttention& toy);

}  // namespace poslab::core
