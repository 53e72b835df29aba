#pragma once
// The lab's model: a decoder-only (causal) Transformer small enough to train on
// a CPU in seconds (GPT-2's layout, Radford et al. 2019, as in llm.c):
//
//   x = wte[token] (+ wpe[position] | + PE(position))         embedding
//   repeat `layers` times (pre-LayerNorm blocks):
//     x = x + Wo·Attention(LN1(x))                              (RoPE on q, k | ALiBi / T5 bias on scores)
//     x = x + W2·GELU(W1·LN2(x))
//   logits = Wout·LNf(x),  loss = cross-entropy
//
// Positions enter in one of six ways (`Encoding`), each the lesson's own:
//   nope        none: the causal mask is the only order the model sees
//   learned     a trained table wpe of max_positions rows added to the embedding
//               (rows no training sequence reaches keep their initial values)
//   sinusoidal  Vaswani et al.'s fixed PE (core/sinusoidal.hpp) added
//   rope        q and k rotated (core/rope.hpp), either pair layout
//   alibi       −m_h·(i − j) on the scores, slopes from core/alibi.hpp
//   t5          a learned bias per head and bucket of i − j (core/t5.hpp's buckets),
//               one table shared by the layers, as T5 does
//
// Every weight lives in one flat array (llm.c's params_memory); `layout()`
// names its tensors. Templated on the scalar (float to train, double for the
// gradient checks).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "poslab/core/lab/layers.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::core::lab {

enum class Encoding { nope, learned, sinusoidal, rope, alibi, t5 };

/// "rope" ↔ Encoding::rope, …; parse raises InvalidParameter("encoding", …).
Encoding parse_encoding(std::string_view word);
const char* encoding_name(Encoding encoding);
/// The six encodings in the order the lab lists them.
std::span<const Encoding> all_encodings();

/// The architecture. check() names the first field out of range.
struct ModelShape {
  int vocab = 32;
  int layers = 2;
  int width = 64;  ///< C
  int heads = 4;   ///< NH; head size hs = C/NH must be even (RoPE rotates pairs)
  /// P: positions 0..P−1 exist — the learned table's rows, the RoPE and
  /// sinusoidal tables, the T5 distances. The longest evaluated sequence.
  int max_positions = 128;
  Encoding encoding = Encoding::rope;
  PairLayout rope_layout = PairLayout::half;
  double rope_base = 10000;
  int t5_buckets = 32, t5_max_distance = 128;  ///< HF T5's defaults (causal: all buckets on one side)
  int head_size() const { return width / heads; }
  void check() const;
};

/// One named tensor of the flat parameter array: rows × cols values from offset.
struct ParameterTensor {
  std::string name;  ///< "wte", "wpe", "t5_bias", "h0.ln1_w", …, "lnf_w", "out_w", "out_b"
  std::int64_t offset = 0;
  int rows = 0, cols = 0;
  std::int64_t size() const { return static_cast<std::int64_t>(rows) * cols; }
};

/// The tensors of `shape` in the order they sit in the flat array.
std::vector<ParameterTensor> parameter_layout(const ModelShape& shape);

/// A batch of B sequences of T tokens. positions[n] is the position of token n
/// (t for contiguous sequences; sorted random positions when training with
/// randomized positions); every position must be < max_positions. The loss
/// scores token n's prediction of targets[n] with weight weights[n] (0: not scored).
struct Batch {
  int B = 0, T = 0;
  std::vector<int> tokens, positions, targets;
  std::vector<double> weights;
};

template <class Scalar>
class Model {
 public:
  /// Weights initialised from `seed` (counter-based: the same seed gives the
  /// same weights everywhere): wte N(0, 1); wpe and the T5 table N(0, 1/C)
  /// (fairseq's learned positions, HF T5's bias init); linear layers N(0, 0.02²),
  /// the two projections into the residual stream N(0, 0.02²/(2·layers)) (GPT-2);
  /// biases 0, LayerNorm gains 1. Checks the shape.
  Model(const ModelShape& shape, std::uint64_t seed);

  const ModelShape& shape() const { return shape_; }
  const std::vector<ParameterTensor>& layout() const { return layout_; }
  std::int64_t parameter_count() const { return static_cast<std::int64_t>(params_.size()); }
  std::span<Scalar> parameters() { return params_; }
  std::span<const Scalar> parameters() const { return params_; }
  std::span<Scalar> gradients() { return grads_; }
  std::span<const Scalar> gradients() const { return grads_; }
  /// The tensor called `name` (throws std::out_of_range when there is none).
  const ParameterTensor& tensor(std::string_view name) const;

  /// RoPE's frequencies and the factor on cos and sin (YaRN's attention
  /// factor); the default is θ_i = base^(−2i/hs), factor 1. Context extension
  /// at evaluation sets scaled ones (core/scaling.hpp). rope only.
  void set_rope_frequencies(std::span<const double> thetas, double attention_factor = 1.0);

  /// The weighted mean loss of `batch`; keeps every activation for backward()
  /// and for the readers below.
  Scalar forward(const Batch& batch);
  /// Sets every gradient to 0.
  void zero_grad();
  /// Adds the gradient of the last forward()'s loss to gradients().
  void backward();

  /// After forward(): −ln p(target) of every token (N = B·T) and the
  /// probabilities (N, V).
  std::span<const Scalar> token_losses() const { return {losses_.data(), static_cast<std::size_t>(n_)}; }
  std::span<const Scalar> probabilities() const;
  /// After forward(): the attention weights of `layer`, (B, NH, T, T).
  std::span<const Scalar> attention(int layer) const;

 private:
  struct LayerActs {
    std::vector<Scalar> ln1, ln1_mean, ln1_rstd, qkv, qkvr, att, atty, res2, ln2, ln2_mean, ln2_rstd, fch, fcht, fchg, res3;
  };
  void ensure(int B, int T);
  AttentionBias<Scalar> bias() const;
  RopeTables<Scalar> rope() const;
  Scalar* p(std::int64_t offset) { return params_.data() + offset; }
  const Scalar* p(std::int64_t offset) const { return params_.data() + offset; }
  Scalar* g(std::int64_t offset) { return grads_.data() + offset; }

  ModelShape shape_;
  std::vector<ParameterTensor> layout_;
  std::vector<Scalar> params_, grads_;
  // offsets of the tensors the forward pass reads (−1: absent)
  std::int64_t wte_ = 0, wpe_ = -1, t5_ = -1, lnf_w_ = 0, lnf_b_ = 0, out_w_ = 0, out_b_ = 0;
  struct LayerOffsets {
    std::int64_t ln1_w, ln1_b, qkv_w, qkv_b, proj_w, proj_b, ln2_w, ln2_b, fc_w, fc_b, fcproj_w, fcproj_b;
  };
  std::vector<LayerOffsets> lo_;
  // fixed position tables
  std::vector<Scalar> pe_;                 ///< sinusoidal (P, C)
  std::vector<Scalar> rope_cos_, rope_sin_;  ///< (P, hs/2)
  std::vector<double> slopes_;             ///< alibi (NH)
  std::vector<int> bucket_of_distance_;    ///< t5 (P)
  // the last forward
  Batch batch_;
  int B_ = 0, T_ = 0, n_ = 0, capacity_ = 0;
  std::vector<Scalar> weights_, x0_, lnf_, lnf_mean_, lnf_rstd_, logits_, probs_, losses_;
  std::vector<LayerActs> acts_;
  // backward scratch
  std::vector<Scalar> dres_, dres2_, dtmp_, dqkv_, dqkvr_, datty_, dfch_, dfchg_, dlogits_, dlnf_, scratch_;
};

extern template class Model<float>;
extern template class Model<double>;

}  // namespace poslab::core::lab
