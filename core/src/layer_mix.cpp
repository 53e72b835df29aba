// Layers that mix encodings: p-RoPE's kept pairs against partial rotary's
// spread frequencies, and the NoPE marker count through the causal mask.
// The formulas and their sources are in layer_mix.hpp.

#include "poslab/core/layer_mix.hpp"

#include <cmath>
#include <string>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::core {

namespace {

void check_d_p(int d, double p) {
  check_integer("d", d);
  check_real("partial_rotary_factor", p);
}

}  // namespace

int proportional_rope_pairs(int d, double p) {
  check_d_p(d, p);
  // Python: int(rope_proportion * head_dim // 2) = ⌊(p·d)/2⌋ for p·d >= 0.
  return static_cast<int>(std::floor(p * d / 2));
}

Eigen::VectorXd proportional_rope_inverse_frequencies(int d, double base, double p) {
  const int kept = proportional_rope_pairs(d, p);
  Eigen::VectorXd theta = rope_inverse_frequencies(d, base);  // exponents over the whole head
  theta.tail(d / 2 - kept).setZero();
  return theta;
}

int partial_rotary_dims(int d, double p) {
  check_d_p(d, p);
  const int r = static_cast<int>(std::floor(d * p));
  return r - r % 2;
}

Eigen::VectorXd partial_rotary_inverse_frequencies(int d, double base, double p) {
  const int r = partial_rotary_dims(d, p);
  check_real("base", base);
  if (r == 0) return {};
  return rope_inverse_frequencies(r, base);  // exponents over the r rotating dims
}

template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, 1> even_attention_marker(int tokens, bool causal) {
  if (tokens < 1 || tokens > 4096)
    throw InvalidParameter("positions", std::to_string(tokens), "must be an integer in 1..4096",
                           Reason{"integer_in", {{"min", "1"}, {"max", "4096"}}, {}});
  AttentionMatrix<Scalar> x = AttentionMatrix<Scalar>::Zero(tokens, 2);
  x(0, 0) = 1;
  for (int m = 1; m < tokens; ++m) x(m, 1) = 1;
  AttentionHead<Scalar> head{AttentionMatrix<Scalar>::Zero(2, 2), AttentionMatrix<Scalar>::Zero(2, 2),
                             AttentionMatrix<Scalar>::Identity(2, 2)};
  return self_attention<Scalar>(x, head, causal).output.col(0);
}

template Eigen::Matrix<float, Eigen::Dynamic, 1> even_attention_marker<float>(int, bool);
template Eigen::Matrix<double, Eigen::Dynamic, 1> even_attention_marker<double>(int, bool);

}  // namespace poslab::core
