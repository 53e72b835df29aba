// [SECTION] Index
// - Shaw et al. relative indices
// - Toy inputs (seeded)
// - The four-term decomposition and the variants of Transformer-XL, T5, DeBERTa
//
// Shaw, Uszkoreit, Vaswani 2018, "Self-Attention with Relative Position
// Representations", §3.2 eq. 3–4: e_ij = x_i W^Q (x_j W^K + a^K_ij)ᵀ / √d_z with
// a^K_ij = w^K_{clip(j − i, k)}, clip(x, k) = max(−k, min(k, x)).
//
// The four terms: with absolute embeddings added to the input, the score of
// query i on key j (row vectors, notes seed 002 §2.3; seed 001 eq. 6 writes
// the same in column vectors) expands as
//   (x_i + p_i) W_q W_kᵀ (x_j + p_j)ᵀ
//     = x_i W_q W_kᵀ x_jᵀ + x_i W_q W_kᵀ p_jᵀ + p_i W_q W_kᵀ x_jᵀ + p_i W_q W_kᵀ p_jᵀ.
// Relative schemes keep some of these terms and replace the rest (relative.hpp
// documents each variant term by term).

#include "poslab/core/relative.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/random.hpp"
#include "poslab/core/sinusoidal.hpp"
#include "poslab/core/t5.hpp"

namespace poslab::core {

namespace {

constexpr int kMaxMatrixSide = 4096;

void check_side(long long n) {
  check_integer("positions", static_cast<double>(n));
  if (n > kMaxMatrixSide)
    throw InvalidParameter("positions", std::to_string(n),
                           "must be <= " + std::to_string(kMaxMatrixSide) + " for a tokens x tokens matrix",
                           Reason{"max_tokens_matrix", {{"max", std::to_string(kMaxMatrixSide)}}, {}});
}

void check_seed(std::uint64_t seed) {
  // Compare as an integer first: the cast to double rounds seeds above 2^53.
  if (seed > (std::uint64_t{1} << 53))
    throw InvalidParameter("seed", std::to_string(seed), describe_allowed(param_spec("seed")),
                           allowed_reason(param_spec("seed")));
  check_integer("seed", static_cast<double>(seed));
}

// Random streams of the toy's parts (distinct from each other and from the
// learned table's stream).
enum ToyStream : std::uint64_t {
  kStreamX = 0x544F590001ULL,  // "TOY" + part
  kStreamWq,
  kStreamWk,
  kStreamWkr,
  kStreamWqr,
  kStreamU,
  kStreamV,
  kStreamBucketBias,
  kStreamRelativeEmbeddings,
};

/// rows × cols matrix with entries stddev · N(0, 1), entry (r, c) drawn at index r·cols + c.
Eigen::MatrixXd normal_matrix(Eigen::Index rows, Eigen::Index cols, double stddev, std::uint64_t seed,
                              std::uint64_t stream) {
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> m(rows, cols);
  random_normals(seed, stream, 0, {m.data(), static_cast<std::size_t>(rows * cols)});
  return stddev * m;
}

/// The sinusoid of a relative distance, which may be negative:
/// [sin(r ω_0), cos(r ω_0), …] for omegas = sinusoidal_frequencies(d, base).
/// (sinusoidal_row only takes positions >= 0.)
Eigen::RowVectorXd relative_sinusoid(long long r, const Eigen::VectorXd& omegas) {
  const auto d = static_cast<int>(2 * omegas.size());
  Eigen::RowVectorXd out(d);
  for (int i = 0; i < d / 2; ++i) {
    const double angle = static_cast<double>(r) * omegas[i];
    out[2 * i] = std::sin(angle);
    out[2 * i + 1] = std::cos(angle);
  }
  return out;
}

/// The sizes the decomposition relies on; raises InvalidParameter for a
/// hand-built toy whose parts do not fit together.
void check_toy(const ToyAttention& t) {
  check_real("base", t.base);
  const Eigen::Index tokens = t.x.rows();
  const Eigen::Index d_model = t.x.cols();
  const Eigen::Index d_head = t.w_q.cols();
  check_side(tokens);
  check_integer("d", static_cast<double>(d_model));
  check_integer("d", static_cast<double>(d_head));
  const bool fits = t.p.rows() == tokens && t.p.cols() == d_model &&                        //
                    t.w_q.rows() == d_model && t.w_k.rows() == d_model && t.w_k.cols() == d_head &&  //
                    t.w_kr.rows() == d_model && t.w_kr.cols() == d_head &&                         //
                    t.w_qr.rows() == d_model && t.w_qr.cols() == d_head &&                         //
                    t.u.size() == d_head && t.v.size() == d_head &&                               //
                    t.relative_embeddings.rows() == 2 * kDebertaSpan &&                            //
                    t.relative_embeddings.cols() == d_model && t.bucket_bias.size() == kT5ToyBuckets;
  if (!fits)
    throw InvalidParameter("d", std::to_string(d_model) + " x " + std::to_string(d_head),
                           "the toy's parts must have matching sizes (see ToyAttention)");
  const bool finite = t.x.allFinite() && t.p.allFinite() && t.w_q.allFinite() && t.w_k.allFinite() &&
                      t.w_kr.allFinite() && t.w_qr.allFinite() && t.u.allFinite() && t.v.allFinite() &&
                      t.relative_embeddings.allFinite() && t.bucket_bias.allFinite();
  if (!finite) throw InvalidParameter("vector", "nan/inf", "the toy's entries must be finite numbers");
}

}  // namespace

// [SECTION] Shaw et al. relative indices

/// clip(j − i, −k, k): keys more than k tokens away share the vector of ±k.
/// i and j are positions (checked against `pos`, 0..1e12), k against `clip`.
long long shaw_relative_index(long long i, long long j, long long k) {
  check_real("pos", static_cast<double>(i));
  check_real("pos", static_cast<double>(j));
  check_integer("clip", static_cast<double>(k));
  return std::clamp(j - i, -k, k);
}

Eigen::MatrixXi shaw_index_matrix(int n, int k) {
  check_side(n);
  check_integer("clip", k);
  Eigen::MatrixXi out(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) out(i, j) = std::clamp(j - i, -k, k);
  return out;
}

// [SECTION] Toy inputs (seeded)

/// x ~ N(0, 1); p = PE rows 0..tokens−1 (sinusoidal, base); W_q, W_k, W_kr, W_qr
/// ~ N(0, 1/d_model) (so x W has entries of order 1); u, v, bucket_bias and the
/// DeBERTa table ~ N(0, 1). Every part has its own random stream, so changing
/// one size never reshuffles another part.
ToyAttention toy_attention(int tokens, int d_model, int d_head, double base, std::uint64_t seed) {
  check_side(tokens);
  check_integer("d", d_model);
  check_integer("d", d_head);
  check_real("base", base);
  check_seed(seed);
  const double w_std = 1.0 / std::sqrt(static_cast<double>(d_model));
  ToyAttention t;
  t.base = base;
  t.x = normal_matrix(tokens, d_model, 1.0, seed, kStreamX);
  std::vector<double> positions(static_cast<std::size_t>(tokens));
  for (int i = 0; i < tokens; ++i) positions[static_cast<std::size_t>(i)] = i;
  t.p = sinusoidal_matrix<double>(positions, d_model, base);
  t.w_q = normal_matrix(d_model, d_head, w_std, seed, kStreamWq);
  t.w_k = normal_matrix(d_model, d_head, w_std, seed, kStreamWk);
  t.w_kr = normal_matrix(d_model, d_head, w_std, seed, kStreamWkr);
  t.w_qr = normal_matrix(d_model, d_head, w_std, seed, kStreamWqr);
  t.u = normal_matrix(1, d_head, 1.0, seed, kStreamU);
  t.v = normal_matrix(1, d_head, 1.0, seed, kStreamV);
  t.bucket_bias = normal_matrix(kT5ToyBuckets, 1, 1.0, seed, kStreamBucketBias);
  t.relative_embeddings = normal_matrix(2 * kDebertaSpan, d_model, 1.0, seed, kStreamRelativeEmbeddings);
  return t;
}

// [SECTION] The four-term decomposition and the variants

Eigen::MatrixXd FourTerms::sum() const {
  return content_content + content_position + position_content + position_position;
}

FourTerms four_term_decomposition(const ToyAttention& toy, TermVariant variant) {
  check_toy(toy);
  const Eigen::Index n = toy.x.rows();
  const int d_model = static_cast<int>(toy.x.cols());
  const Eigen::MatrixXd q_content = toy.x * toy.w_q;  // x_i W_q, row i
  const Eigen::MatrixXd k_content = toy.x * toy.w_k;  // x_j W_k, row j
  FourTerms out;
  out.content_content = q_content * k_content.transpose();  // x_i W_q W_kᵀ x_jᵀ
  const Eigen::MatrixXd zero = Eigen::MatrixXd::Zero(n, n);

  switch (variant) {
    case TermVariant::all: {
      const Eigen::MatrixXd q_position = toy.p * toy.w_q;  // p_i W_q
      const Eigen::MatrixXd k_position = toy.p * toy.w_k;  // p_j W_k
      out.content_position = q_content * k_position.transpose();
      out.position_content = q_position * k_content.transpose();
      out.position_position = q_position * k_position.transpose();
      return out;
    }
    case TermVariant::transformer_xl: {
      // R_{i−j} W_kr for every distance r = i − j in −(n−1)..n−1, computed once.
      // (The reference concatenates [sin | cos] instead of interleaving, a fixed
      // permutation of R's coordinates that the learned W_kr absorbs. XL itself
      // is causal, r >= 0; for keys after the query the same sinusoid is taken at
      // the negative distance, as XLNet's bidirectional attention does.)
      const Eigen::VectorXd omegas = sinusoidal_frequencies(d_model, toy.base);
      Eigen::MatrixXd r_key(2 * n - 1, toy.w_kr.cols());  // row r + n − 1
      for (Eigen::Index r = -(n - 1); r <= n - 1; ++r)
        r_key.row(r + n - 1) = relative_sinusoid(r, omegas) * toy.w_kr;
      const Eigen::VectorXd v_r = r_key * toy.v.transpose();          // v W_krᵀ R_rᵀ per r
      const Eigen::RowVectorXd u_k = toy.u * k_content.transpose();  // u W_kᵀ x_jᵀ per j
      out.content_position.resize(n, n);
      out.position_content.resize(n, n);
      out.position_position.resize(n, n);
      for (Eigen::Index i = 0; i < n; ++i) {
        // Row i meets distances r = i − j, stored at rows i .. i + n − 1 of
        // r_key in reverse j order: one matrix-vector product per query, no
        // n × (2n − 1) temporary.
        const Eigen::VectorXd b = r_key.middleRows(i, n) * q_content.row(i).transpose();
        out.content_position.row(i) = b.reverse().transpose();  // x_i W_q W_krᵀ R_{i−j}ᵀ
        out.position_content.row(i) = u_k;
        out.position_position.row(i) = v_r.segment(i, n).reverse().transpose();
      }
      return out;
    }
    case TermVariant::t5: {
      out.content_position = zero;
      out.position_content = zero;
      out.position_position.resize(n, n);
      const Eigen::MatrixXi buckets = t5_bucket_matrix(static_cast<int>(n), static_cast<int>(n), true,
                                                       kT5ToyBuckets, kT5ToyMaxDistance);
      for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = 0; i < n; ++i) out.position_position(i, j) = toy.bucket_bias[buckets(i, j)];
      return out;
    }
    case TermVariant::deberta: {
      const Eigen::MatrixXd k_rel = toy.relative_embeddings * toy.w_kr;  // K_r = P W_{k,r}, row δ
      const Eigen::MatrixXd q_rel = toy.relative_embeddings * toy.w_qr;  // Q_r = P W_{q,r}, row δ
      const Eigen::MatrixXd c2p = q_content * k_rel.transpose();        // (i, δ): Q_c_i K_r_δᵀ
      const Eigen::MatrixXd p2c = k_content * q_rel.transpose();        // (j, δ): K_c_j Q_r_δᵀ
      out.content_position.resize(n, n);
      out.position_content.resize(n, n);
      for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = 0; i < n; ++i) {
          const Eigen::Index delta = std::clamp<Eigen::Index>(i - j + kDebertaSpan, 0, 2 * kDebertaSpan - 1);
          out.content_position(i, j) = c2p(i, delta);
          out.position_content(i, j) = p2c(j, delta);
        }
      out.position_position = zero;
      return out;
    }
  }
  throw InvalidParameter("terms", std::to_string(static_cast<int>(variant)),
                         "must be one of all, transformer-xl, t5, deberta");
}

/// (x + p) W_q ((x + p) W_k)ᵀ, directly (no expansion).
Eigen::MatrixXd absolute_attention_scores(const ToyAttention& toy) {
  check_toy(toy);
  const Eigen::MatrixXd h = toy.x + toy.p;
  return (h * toy.w_q) * (h * toy.w_k).transpose();
}

}  // namespace poslab::core
