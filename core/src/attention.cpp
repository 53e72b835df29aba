// One toy self-attention head (Vaswani et al. 2017, §3.2.1 eq. 1):
//   A = softmax_row(Q·Kᵀ/√d),  Y = A·V,  Q = X·W_qᵀ, K = X·W_kᵀ, V = X·W_vᵀ,
// its toy weights and embeddings (seeded normals, core/random.hpp), the
// sinusoidal positions added to the embeddings (§3.5), and the shuffle test
// Y(P·X) = P·Y(X) that shows attention alone is blind to word order
// (see attention.hpp for the derivation).
//
// Everything is computed in Scalar (float or double); the random numbers and
// PE(p) are drawn in double and rounded once.

#include "poslab/core/attention.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/random.hpp"
#include "poslab/core/sinusoidal.hpp"

namespace poslab::core {

namespace {

/// The random streams of the toy head and embeddings ("ATT_WQ", "ATT_WK",
/// "ATT_WV", "ATT_EMB" in ASCII), distinct from the other toys' streams.
constexpr std::uint64_t kQueryStream = 0x4154545F5751ULL;
constexpr std::uint64_t kKeyStream = 0x4154545F574BULL;
constexpr std::uint64_t kValueStream = 0x4154545F5756ULL;
constexpr std::uint64_t kEmbeddingStream = 0x4154545F454D42ULL;
/// Embedding entry (id, j) is drawn at index id·kMaxD + j: a wider d keeps
/// the entries of a narrower one (8192 = the largest d allowed).
constexpr std::uint64_t kMaxD = 8192;

void check_d_seed(int d, std::uint64_t seed) {
  check_integer("d", d);
  // Compare as an integer first: the cast to double rounds seeds above 2^53.
  if (seed > (std::uint64_t{1} << 53))
    throw InvalidParameter("seed", std::to_string(seed), describe_allowed(param_spec("seed")),
                           allowed_reason(param_spec("seed")));
  check_integer("seed", static_cast<double>(seed));
}

template <class Scalar>
AttentionMatrix<Scalar> toy_matrix(int d, std::uint64_t seed, std::uint64_t stream) {
  const double stddev = 1.0 / std::sqrt(static_cast<double>(d));  // N(0, 1/d)
  std::vector<double> draws(static_cast<std::size_t>(d) * static_cast<std::size_t>(d));
  random_normals(seed, stream, 0, draws);
  AttentionMatrix<Scalar> w(d, d);
  for (int r = 0; r < d; ++r)
    for (int c = 0; c < d; ++c)
      w(r, c) = static_cast<Scalar>(stddev * draws[static_cast<std::size_t>(r) * static_cast<std::size_t>(d) +
                                                   static_cast<std::size_t>(c)]);
  return w;
}

void check_perm(std::span<const int> perm, long long rows) {
  std::vector<double> items(perm.begin(), perm.end());
  if (static_cast<long long>(perm.size()) != rows || !is_permutation(perm)) {
    // The same message as the parameter check, for the same mistake.
    check_permutation("perm", items);
    throw InvalidParameter("perm", "[" + std::to_string(perm.size()) + " items]",
                           "must have one index per token (" + std::to_string(rows) + ")");
  }
}

}  // namespace

template <class Scalar>
AttentionMatrix<Scalar> softmax_each_row(const AttentionMatrix<Scalar>& scores) {
  AttentionMatrix<Scalar> out(scores.rows(), scores.cols());
  for (Eigen::Index r = 0; r < scores.rows(); ++r) {
    const Scalar top = scores.row(r).maxCoeff();
    out.row(r) = (scores.row(r).array() - top).exp().matrix();
    out.row(r) /= out.row(r).sum();  // >= 1: the largest entry contributes e⁰
  }
  return out;
}

template <class Scalar>
AttentionResult<Scalar> self_attention(const AttentionMatrix<Scalar>& x, const AttentionHead<Scalar>& head,
                                       bool causal) {
  const Eigen::Index d = x.cols();
  for (const auto* w : {&head.w_q, &head.w_k, &head.w_v})
    if (w->rows() != d || w->cols() != d)
      throw InvalidParameter("d", std::to_string(d), "the head's matrices must be d × d");
  if (x.rows() < 1 || d < 1) throw InvalidParameter("tokens", std::to_string(x.rows()), "must be >= 1");
  const AttentionMatrix<Scalar> q = x * head.w_q.transpose();
  const AttentionMatrix<Scalar> k = x * head.w_k.transpose();
  const AttentionMatrix<Scalar> v = x * head.w_v.transpose();
  const Scalar scale = Scalar(1) / std::sqrt(static_cast<Scalar>(d));
  AttentionResult<Scalar> out;
  AttentionMatrix<Scalar> scores = (q * k.transpose()) * scale;
  if (causal)  // key n > query m: masked (every row keeps its diagonal, so its max is finite)
    scores.template triangularView<Eigen::StrictlyUpper>().setConstant(-std::numeric_limits<Scalar>::infinity());
  out.weights = softmax_each_row<Scalar>(scores);
  out.output = out.weights * v;
  return out;
}

template <class Scalar>
AttentionHead<Scalar> toy_attention_head(int d, std::uint64_t seed) {
  check_d_seed(d, seed);
  return {toy_matrix<Scalar>(d, seed, kQueryStream), toy_matrix<Scalar>(d, seed, kKeyStream),
          toy_matrix<Scalar>(d, seed, kValueStream)};
}

template <class Scalar>
AttentionMatrix<Scalar> toy_embeddings(std::span<const int> ids, int d, std::uint64_t seed) {
  check_d_seed(d, seed);
  AttentionMatrix<Scalar> x(static_cast<Eigen::Index>(ids.size()), d);
  std::vector<double> row(static_cast<std::size_t>(d));
  for (std::size_t r = 0; r < ids.size(); ++r) {
    if (ids[r] < 0) throw InvalidParameter("token", std::to_string(ids[r]), "token ids must be >= 0");
    random_normals(seed, kEmbeddingStream, static_cast<std::uint64_t>(ids[r]) * kMaxD, row);
    for (int j = 0; j < d; ++j) x(static_cast<Eigen::Index>(r), j) = static_cast<Scalar>(row[static_cast<std::size_t>(j)]);
  }
  return x;
}

template <class Scalar>
AttentionMatrix<Scalar> add_sinusoidal_positions(const AttentionMatrix<Scalar>& x, double scale, double base) {
  AttentionMatrix<Scalar> h = x;
  if (scale == 0) return h;
  check_real("base", base);
  for (Eigen::Index p = 0; p < x.rows(); ++p)
    h.row(p) += (static_cast<Scalar>(scale) *
                 sinusoidal_row<double>(static_cast<double>(p), static_cast<int>(x.cols()), base).template cast<Scalar>())
                    .transpose();
  return h;
}

bool is_permutation(std::span<const int> perm) {
  std::vector<bool> seen(perm.size(), false);
  for (int i : perm) {
    if (i < 0 || static_cast<std::size_t>(i) >= perm.size() || seen[static_cast<std::size_t>(i)]) return false;
    seen[static_cast<std::size_t>(i)] = true;
  }
  return true;
}

template <class Scalar>
AttentionMatrix<Scalar> permute_rows(const AttentionMatrix<Scalar>& x, std::span<const int> perm) {
  check_perm(perm, x.rows());
  AttentionMatrix<Scalar> out(x.rows(), x.cols());
  for (std::size_t i = 0; i < perm.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = x.row(perm[i]);
  return out;
}

template <class Scalar>
AttentionMatrix<Scalar> unpermute_rows(const AttentionMatrix<Scalar>& y, std::span<const int> perm) {
  check_perm(perm, y.rows());
  AttentionMatrix<Scalar> out(y.rows(), y.cols());
  for (std::size_t i = 0; i < perm.size(); ++i) out.row(perm[i]) = y.row(static_cast<Eigen::Index>(i));
  return out;
}

template <class Scalar>
ShuffleTest<Scalar> shuffle_test(const AttentionMatrix<Scalar>& x, std::span<const int> perm,
                                 const AttentionHead<Scalar>& head, double pe_scale, double base) {
  ShuffleTest<Scalar> t;
  t.original = self_attention<Scalar>(add_sinusoidal_positions<Scalar>(x, pe_scale, base), head);
  t.shuffled = self_attention<Scalar>(add_sinusoidal_positions<Scalar>(permute_rows<Scalar>(x, perm), pe_scale, base), head);
  t.shuffled_back = unpermute_rows<Scalar>(t.shuffled.output, perm);
  // |Y(P·X) − P·Y(X)| entry by entry is |Pᵀ·Y(P·X) − Y(X)| with the rows reordered.
  t.gap = (t.shuffled_back - t.original.output).cwiseAbs().maxCoeff();
  return t;
}

#define POSLAB_ATTENTION_INSTANTIATE(Scalar)                                                                     \
  template AttentionMatrix<Scalar> softmax_each_row<Scalar>(const AttentionMatrix<Scalar>&);                    \
  template AttentionResult<Scalar> self_attention<Scalar>(const AttentionMatrix<Scalar>&,                       \
                                                          const AttentionHead<Scalar>&, bool);                  \
  template AttentionHead<Scalar> toy_attention_head<Scalar>(int, std::uint64_t);                                \
  template AttentionMatrix<Scalar> toy_embeddings<Scalar>(std::span<const int>, int, std::uint64_t);            \
  template AttentionMatrix<Scalar> add_sinusoidal_positions<Scalar>(const AttentionMatrix<Scalar>&, double,     \
                                                                    double);                                    \
  template AttentionMatrix<Scalar> permute_rows<Scalar>(const AttentionMatrix<Scalar>&, std::span<const int>);  \
  template AttentionMatrix<Scalar> unpermute_rows<Scalar>(const AttentionMatrix<Scalar>&, std::span<const int>); \
  template ShuffleTest<Scalar> shuffle_test<Scalar>(const AttentionMatrix<Scalar>&, std::span<const int>,       \
                                                    const AttentionHead<Scalar>&, double, double);

POSLAB_ATTENTION_INSTANTIATE(float)
POSLAB_ATTENTION_INSTANTIATE(double)
#undef POSLAB_ATTENTION_INSTANTIATE

}  // namespace poslab::core
