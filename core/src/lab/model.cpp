// [SECTION] Index
// - Encodings, the shape and its checks
// - The parameter layout and initialisation
// - Position tables (sinusoidal, RoPE, ALiBi slopes, T5 buckets)
// - Forward: embedding, blocks, loss
// - Backward: the same steps in reverse

#include "poslab/core/lab/model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "poslab/core/alibi.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/lab/checks.hpp"
#include "poslab/core/random.hpp"
#include "poslab/core/sinusoidal.hpp"
#include "poslab/core/t5.hpp"

namespace poslab::core::lab {

// [SECTION] Encodings, the shape and its checks

namespace {
constexpr std::array<Encoding, 6> kEncodings = {Encoding::nope, Encoding::learned, Encoding::sinusoidal,
                                                Encoding::rope, Encoding::alibi, Encoding::t5};
constexpr const char* kEncodingChoices = "nope, learned, sinusoidal, rope, alibi, t5";
}  // namespace

std::span<const Encoding> all_encodings() { return kEncodings; }

const char* encoding_name(Encoding e) {
  switch (e) {
    case Encoding::nope: return "nope";
    case Encoding::learned: return "learned";
    case Encoding::sinusoidal: return "sinusoidal";
    case Encoding::rope: return "rope";
    case Encoding::alibi: return "alibi";
    case Encoding::t5: return "t5";
  }
  return "?";
}

Encoding parse_encoding(std::string_view word) {
  for (Encoding e : kEncodings)
    if (word == encoding_name(e)) return e;
  refuse_choice("encoding", word, kEncodingChoices);
}

void ModelShape::check() const {
  check_integer_in("vocab", vocab, 2, 1024);
  check_integer_in("layers", layers, 1, 4);
  check_integer_in("heads", heads, 1, 16);
  check_integer_in("width", width, 4, 512);
  if (width % heads != 0 || (width / heads) % 2 != 0)
    throw InvalidParameter("width", std::to_string(width),
                           "must be a multiple of heads = " + std::to_string(heads) +
                               " with an even head size width/heads (RoPE rotates pairs)",
                           Reason{"lab_head_size", {{"heads", std::to_string(heads)}}, {}});
  check_integer_in("max_positions", max_positions, 1, 4096);
  check_number_in("rope_base", rope_base, 2, 1e9);
  if (encoding == Encoding::t5) (void)t5_relative_bucket(-1, false, t5_buckets, t5_max_distance);  // checks both
}

// [SECTION] The parameter layout and initialisation

std::vector<ParameterTensor> parameter_layout(const ModelShape& s) {
  std::vector<ParameterTensor> out;
  std::int64_t offset = 0;
  auto add = [&](std::string name, int rows, int cols) {
    out.push_back({std::move(name), offset, rows, cols});
    offset += static_cast<std::int64_t>(rows) * cols;
  };
  const int C = s.width;
  add("wte", s.vocab, C);
  if (s.encoding == Encoding::learned) add("wpe", s.max_positions, C);
  if (s.encoding == Encoding::t5) add("t5_bias", s.heads, s.t5_buckets);
  for (int l = 0; l < s.layers; ++l) {
    const std::string h = "h" + std::to_string(l) + ".";
    add(h + "ln1_w", 1, C);
    add(h + "ln1_b", 1, C);
    add(h + "qkv_w", C, 3 * C);
    add(h + "qkv_b", 1, 3 * C);
    add(h + "proj_w", C, C);
    add(h + "proj_b", 1, C);
    add(h + "ln2_w", 1, C);
    add(h + "ln2_b", 1, C);
    add(h + "fc_w", C, 4 * C);
    add(h + "fc_b", 1, 4 * C);
    add(h + "fcproj_w", 4 * C, C);
    add(h + "fcproj_b", 1, C);
  }
  add("lnf_w", 1, C);
  add("lnf_b", 1, C);
  add("out_w", C, s.vocab);
  add("out_b", 1, s.vocab);
  return out;
}

template <class Scalar>
const ParameterTensor& Model<Scalar>::tensor(std::string_view name) const {
  for (const ParameterTensor& t : layout_)
    if (t.name == name) return t;
  throw std::out_of_range("no tensor " + std::string(name));
}

template <class Scalar>
Model<Scalar>::Model(const ModelShape& shape, std::uint64_t seed) : shape_(shape) {
  shape_.check();
  layout_ = parameter_layout(shape_);
  params_.assign(static_cast<std::size_t>(layout_.back().offset + layout_.back().size()), Scalar(0));
  grads_.assign(params_.size(), Scalar(0));
  const double C = shape_.width;
  std::vector<double> draw;
  for (std::size_t i = 0; i < layout_.size(); ++i) {
    const ParameterTensor& t = layout_[i];
    const std::string& n = t.name;
    const auto ends = [&](std::string_view suffix) {
      return n.size() >= suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    double stddev = 0, constant = 0;
    if (n == "wte") stddev = 1.0;
    else if (n == "wpe" || n == "t5_bias") stddev = 1.0 / std::sqrt(C);
    else if (ends("proj_w")) stddev = 0.02 / std::sqrt(2.0 * shape_.layers);  // proj_w, fcproj_w
    else if (ends("_w") && (ends("ln1_w") || ends("ln2_w") || n == "lnf_w")) constant = 1.0;
    else if (ends("_w")) stddev = 0.02;
    if (stddev == 0) {
      std::fill_n(params_.begin() + t.offset, t.size(), static_cast<Scalar>(constant));
      continue;
    }
    draw.resize(static_cast<std::size_t>(t.size()));
    random_normals(seed, 0x1ab0000 + i, 0, draw);  // one stream per tensor
    for (std::int64_t j = 0; j < t.size(); ++j) params_[t.offset + j] = static_cast<Scalar>(stddev * draw[j]);
  }
  // offsets
  wte_ = tensor("wte").offset;
  if (shape_.encoding == Encoding::learned) wpe_ = tensor("wpe").offset;
  if (shape_.encoding == Encoding::t5) t5_ = tensor("t5_bias").offset;
  for (int l = 0; l < shape_.layers; ++l) {
    const std::string h = "h" + std::to_string(l) + ".";
    auto o = [&](const char* name) { return tensor(h + name).offset; };
    lo_.push_back({o("ln1_w"), o("ln1_b"), o("qkv_w"), o("qkv_b"), o("proj_w"), o("proj_b"), o("ln2_w"), o("ln2_b"),
                   o("fc_w"), o("fc_b"), o("fcproj_w"), o("fcproj_b")});
  }
  lnf_w_ = tensor("lnf_w").offset;
  lnf_b_ = tensor("lnf_b").offset;
  out_w_ = tensor("out_w").offset;
  out_b_ = tensor("out_b").offset;

  // [SECTION] Position tables (sinusoidal, RoPE, ALiBi slopes, T5 buckets)
  const int P = shape_.max_positions;
  switch (shape_.encoding) {
    case Encoding::sinusoidal: {
      std::vector<double> positions(static_cast<std::size_t>(P));
      for (int q = 0; q < P; ++q) positions[static_cast<std::size_t>(q)] = q;
      const Eigen::MatrixXd pe = sinusoidal_matrix<double>(positions, shape_.width, 10000.0);
      pe_.resize(static_cast<std::size_t>(P) * shape_.width);
      for (int q = 0; q < P; ++q)
        for (int c = 0; c < shape_.width; ++c) pe_[static_cast<std::size_t>(q) * shape_.width + c] = static_cast<Scalar>(pe(q, c));
      break;
    }
    case Encoding::rope: {
      const Eigen::VectorXd theta = rope_inverse_frequencies(shape_.head_size(), shape_.rope_base);
      set_rope_frequencies(std::span<const double>(theta.data(), static_cast<std::size_t>(theta.size())), 1.0);
      break;
    }
    case Encoding::alibi: slopes_ = alibi_slopes(shape_.heads); break;
    case Encoding::t5:
      bucket_of_distance_.resize(static_cast<std::size_t>(P));
      for (int d = 0; d < P; ++d)  // relative_position = key − query = −δ
        bucket_of_distance_[static_cast<std::size_t>(d)] =
            t5_relative_bucket(-d, false, shape_.t5_buckets, shape_.t5_max_distance);
      break;
    case Encoding::nope:
    case Encoding::learned: break;
  }
}

template <class Scalar>
void Model<Scalar>::set_rope_frequencies(std::span<const double> thetas, double attention_factor) {
  const int half = shape_.head_size() / 2, P = shape_.max_positions;
  if (shape_.encoding != Encoding::rope || static_cast<int>(thetas.size()) != half)
    throw InvalidParameter("theta", std::to_string(thetas.size()) + " frequencies",
                           "RoPE needs head_size/2 = " + std::to_string(half) + " frequencies on a rope model");
  rope_cos_.resize(static_cast<std::size_t>(P) * half);
  rope_sin_.resize(rope_cos_.size());
  for (int q = 0; q < P; ++q)
    for (int i = 0; i < half; ++i) {
      const double angle = q * thetas[static_cast<std::size_t>(i)];  // p·θ_i, in double
      rope_cos_[static_cast<std::size_t>(q) * half + i] = static_cast<Scalar>(attention_factor * std::cos(angle));
      rope_sin_[static_cast<std::size_t>(q) * half + i] = static_cast<Scalar>(attention_factor * std::sin(angle));
    }
}

template <class Scalar>
AttentionBias<Scalar> Model<Scalar>::bias() const {
  AttentionBias<Scalar> b;
  if (shape_.encoding == Encoding::alibi) {
    b.kind = AttentionBias<Scalar>::Kind::alibi;
    b.slopes = slopes_.data();
  } else if (shape_.encoding == Encoding::t5) {
    b.kind = AttentionBias<Scalar>::Kind::t5;
    b.table = p(t5_);
    b.buckets = shape_.t5_buckets;
    b.bucket_of_distance = bucket_of_distance_.data();
  }
  return b;
}

template <class Scalar>
RopeTables<Scalar> Model<Scalar>::rope() const {
  return {rope_cos_.data(), rope_sin_.data(), shape_.max_positions, shape_.rope_layout};
}

template <class Scalar>
void Model<Scalar>::ensure(int B, int T) {
  B_ = B;
  T_ = T;
  n_ = B * T;
  const std::size_t N = static_cast<std::size_t>(n_), C = static_cast<std::size_t>(shape_.width),
                    V = static_cast<std::size_t>(shape_.vocab), NH = static_cast<std::size_t>(shape_.heads);
  const std::size_t att = static_cast<std::size_t>(B) * NH * static_cast<std::size_t>(T) * static_cast<std::size_t>(T);
  auto fit = [](std::vector<Scalar>& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
  };
  acts_.resize(static_cast<std::size_t>(shape_.layers));
  for (LayerActs& a : acts_) {
    fit(a.ln1, N * C), fit(a.ln1_mean, N), fit(a.ln1_rstd, N), fit(a.qkv, N * 3 * C);
    if (shape_.encoding == Encoding::rope) fit(a.qkvr, N * 3 * C);
    fit(a.att, att), fit(a.atty, N * C), fit(a.res2, N * C), fit(a.ln2, N * C), fit(a.ln2_mean, N);
    fit(a.ln2_rstd, N), fit(a.fch, N * 4 * C), fit(a.fcht, N * 4 * C), fit(a.fchg, N * 4 * C), fit(a.res3, N * C);
  }
  fit(weights_, N), fit(x0_, N * C), fit(lnf_, N * C), fit(lnf_mean_, N), fit(lnf_rstd_, N), fit(logits_, N * V);
  fit(probs_, N * V), fit(losses_, N);
}

template <class Scalar>
std::span<const Scalar> Model<Scalar>::probabilities() const {
  return {probs_.data(), static_cast<std::size_t>(n_) * static_cast<std::size_t>(shape_.vocab)};
}

template <class Scalar>
std::span<const Scalar> Model<Scalar>::attention(int layer) const {
  const std::size_t n = static_cast<std::size_t>(B_) * static_cast<std::size_t>(shape_.heads) *
                        static_cast<std::size_t>(T_) * static_cast<std::size_t>(T_);
  return {acts_.at(static_cast<std::size_t>(layer)).att.data(), n};
}

// [SECTION] Forward: embedding, blocks, loss

template <class Scalar>
Scalar Model<Scalar>::forward(const Batch& batch) {
  const int B = batch.B, T = batch.T, N = B * T, C = shape_.width, V = shape_.vocab, NH = shape_.heads;
  if (B < 1 || T < 1 || batch.tokens.size() != static_cast<std::size_t>(N) ||
      batch.positions.size() != static_cast<std::size_t>(N) || batch.targets.size() != static_cast<std::size_t>(N) ||
      batch.weights.size() != static_cast<std::size_t>(N))
    throw std::invalid_argument("lab batch: tokens, positions, targets and weights must hold B·T entries");
  for (int n = 0; n < N; ++n) {
    const auto i = static_cast<std::size_t>(n);
    if (batch.tokens[i] < 0 || batch.tokens[i] >= V || batch.targets[i] < 0 || batch.targets[i] >= V ||
        batch.positions[i] < 0 || batch.positions[i] >= shape_.max_positions)
      throw std::invalid_argument("lab batch: a token, target or position out of range");
  }
  ensure(B, T);
  batch_ = batch;
  for (int n = 0; n < N; ++n) weights_[static_cast<std::size_t>(n)] = static_cast<Scalar>(batch.weights[static_cast<std::size_t>(n)]);
  const int* tok = batch_.tokens.data();
  const int* pos = batch_.positions.data();

  encoder_forward(x0_.data(), tok, pos, p(wte_), wpe_ >= 0 ? p(wpe_) : nullptr,
                  shape_.encoding == Encoding::sinusoidal ? pe_.data() : nullptr, N, C);
  const AttentionBias<Scalar> att_bias = bias();
  const Scalar* residual = x0_.data();
  for (int l = 0; l < shape_.layers; ++l) {
    LayerActs& a = acts_[static_cast<std::size_t>(l)];
    const LayerOffsets& o = lo_[static_cast<std::size_t>(l)];
    layernorm_forward(a.ln1.data(), a.ln1_mean.data(), a.ln1_rstd.data(), residual, p(o.ln1_w), p(o.ln1_b), N, C);
    matmul_forward(a.qkv.data(), a.ln1.data(), p(o.qkv_w), p(o.qkv_b), N, C, 3 * C);
    const Scalar* qkv = a.qkv.data();
    if (shape_.encoding == Encoding::rope) {
      rope_forward(a.qkvr.data(), a.qkv.data(), pos, rope(), N, C, NH);
      qkv = a.qkvr.data();
    }
    attention_forward(a.atty.data(), a.att.data(), qkv, pos, att_bias, B, T, C, NH);
    matmul_forward(a.res2.data(), a.atty.data(), p(o.proj_w), p(o.proj_b), N, C, C);  // attproj, then
    residual_forward(a.res2.data(), residual, a.res2.data(), N * C);                  // res2 = x + attproj
    layernorm_forward(a.ln2.data(), a.ln2_mean.data(), a.ln2_rstd.data(), a.res2.data(), p(o.ln2_w), p(o.ln2_b), N, C);
    matmul_forward(a.fch.data(), a.ln2.data(), p(o.fc_w), p(o.fc_b), N, C, 4 * C);
    gelu_forward(a.fchg.data(), a.fcht.data(), a.fch.data(), N * 4 * C);
    matmul_forward(a.res3.data(), a.fchg.data(), p(o.fcproj_w), p(o.fcproj_b), N, 4 * C, C);  // fcproj, then
    residual_forward(a.res3.data(), a.res2.data(), a.res3.data(), N * C);                      // res3 = res2 + fcproj
    residual = a.res3.data();
  }
  layernorm_forward(lnf_.data(), lnf_mean_.data(), lnf_rstd_.data(), residual, p(lnf_w_), p(lnf_b_), N, C);
  matmul_forward(logits_.data(), lnf_.data(), p(out_w_), p(out_b_), N, C, V);
  return crossentropy_forward(losses_.data(), probs_.data(), logits_.data(), batch_.targets.data(), weights_.data(), N,
                              V);
}

template <class Scalar>
void Model<Scalar>::zero_grad() {
  std::fill(grads_.begin(), grads_.end(), Scalar(0));
}

// [SECTION] Backward: the same steps in reverse

template <class Scalar>
void Model<Scalar>::backward() {
  if (n_ == 0) throw std::logic_error("lab model: backward() before forward()");
  const int B = B_, T = T_, N = n_, C = shape_.width, V = shape_.vocab, NH = shape_.heads;
  const std::size_t NC = static_cast<std::size_t>(N) * static_cast<std::size_t>(C);
  auto zeroed = [](std::vector<Scalar>& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
    std::fill_n(v.begin(), n, Scalar(0));
    return v.data();
  };
  const int* tok = batch_.tokens.data();
  const int* pos = batch_.positions.data();
  const AttentionBias<Scalar> att_bias = bias();

  Scalar* dlogits = zeroed(dlogits_, static_cast<std::size_t>(N) * static_cast<std::size_t>(V));
  crossentropy_backward(dlogits, probs_.data(), batch_.targets.data(), weights_.data(), N, V);
  Scalar* dlnf = zeroed(dlnf_, NC);
  matmul_backward(dlnf, g(out_w_), g(out_b_), dlogits, lnf_.data(), p(out_w_), N, C, V);
  Scalar* dres = zeroed(dres_, NC);  // d loss / d residual stream, walking down the layers
  const Scalar* last = shape_.layers > 0 ? acts_.back().res3.data() : x0_.data();
  layernorm_backward(dres, g(lnf_w_), g(lnf_b_), dlnf, last, p(lnf_w_), lnf_mean_.data(), lnf_rstd_.data(), N, C);

  for (int l = shape_.layers - 1; l >= 0; --l) {
    LayerActs& a = acts_[static_cast<std::size_t>(l)];
    const LayerOffsets& o = lo_[static_cast<std::size_t>(l)];
    const Scalar* residual = l == 0 ? x0_.data() : acts_[static_cast<std::size_t>(l - 1)].res3.data();
    // res3 = res2 + fcproj: dres (= d res3) flows to both
    Scalar* dres2 = zeroed(dres2_, NC);
    Scalar* dfcproj = zeroed(dtmp_, NC);
    residual_backward(dres2, dfcproj, dres, N * C);
    Scalar* dfchg = zeroed(dfchg_, NC * 4);
    matmul_backward(dfchg, g(o.fcproj_w), g(o.fcproj_b), dfcproj, a.fchg.data(), p(o.fcproj_w), N, 4 * C, C);
    Scalar* dfch = zeroed(dfch_, NC * 4);
    gelu_backward(dfch, a.fch.data(), a.fcht.data(), dfchg, N * 4 * C);
    Scalar* dln2 = zeroed(dtmp_, NC);
    matmul_backward(dln2, g(o.fc_w), g(o.fc_b), dfch, a.ln2.data(), p(o.fc_w), N, C, 4 * C);
    layernorm_backward(dres2, g(o.ln2_w), g(o.ln2_b), dln2, a.res2.data(), p(o.ln2_w), a.ln2_mean.data(),
                       a.ln2_rstd.data(), N, C);
    // res2 = x + attproj: d res2 flows to both
    std::fill_n(dres, NC, Scalar(0));
    Scalar* dattproj = zeroed(dtmp_, NC);
    residual_backward(dres, dattproj, dres2, N * C);
    Scalar* datty = zeroed(datty_, NC);
    matmul_backward(datty, g(o.proj_w), g(o.proj_b), dattproj, a.atty.data(), p(o.proj_w), N, C, C);
    const bool rotated = shape_.encoding == Encoding::rope;
    Scalar* dqkv_att = zeroed(rotated ? dqkvr_ : dqkv_, NC * 3);
    Scalar* scratch = zeroed(scratch_, static_cast<std::size_t>(T) * static_cast<std::size_t>(T));
    attention_backward(dqkv_att, t5_ >= 0 ? g(t5_) : nullptr, scratch, datty, rotated ? a.qkvr.data() : a.qkv.data(),
                       a.att.data(), pos, att_bias, B, T, C, NH);
    Scalar* dqkv = dqkv_att;
    if (rotated) {
      dqkv = zeroed(dqkv_, NC * 3);
      rope_backward(dqkv, dqkv_att, pos, rope(), N, C, NH);
    }
    Scalar* dln1 = zeroed(dtmp_, NC);
    matmul_backward(dln1, g(o.qkv_w), g(o.qkv_b), dqkv, a.ln1.data(), p(o.qkv_w), N, C, 3 * C);
    layernorm_backward(dres, g(o.ln1_w), g(o.ln1_b), dln1, residual, p(o.ln1_w), a.ln1_mean.data(), a.ln1_rstd.data(),
                       N, C);
  }
  encoder_backward(g(wte_), wpe_ >= 0 ? g(wpe_) : nullptr, dres, tok, pos, N, C);
}

template class Model<float>;
template class Model<double>;

}  // namespace poslab::core::lab
