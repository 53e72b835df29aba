// [SECTION] Index
// - Embedding, LayerNorm, linear layer
// - Rotary position embedding
// - Causal self-attention (with ALiBi / T5 biases)
// - GELU, residual, softmax + cross-entropy, Adam
// - Explicit instantiations (float, double)
//
// Each backward line quotes the forward line it differentiates. References:
// Karpathy's llm.c train_gpt2.c (the layer set and the LayerNorm, GELU and
// attention backward passes), Vaswani et al. 2017 (attention), Ba et al. 2016
// (LayerNorm), Hendrycks & Gimpel 2016 (GELU, tanh form as GPT-2), Kingma & Ba
// 2015 (Adam), RoFormer §3.4 (rotation), Press et al. 2022 (ALiBi), Raffel et
// al. 2020 (T5 bias).

#include "poslab/core/lab/layers.hpp"

#include "poslab/core/lab/gemm.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace poslab::core::lab {

// [SECTION] Embedding

template <class T>
void encoder_forward(T* out, const int* tokens, const int* positions, const T* wte, const T* wpe, const T* pe, int N,
                     int C) {
  for (int n = 0; n < N; ++n) {
    T* o = out + static_cast<std::ptrdiff_t>(n) * C;
    const T* e = wte + static_cast<std::ptrdiff_t>(tokens[n]) * C;
    for (int c = 0; c < C; ++c) o[c] = e[c];  // out[n] = wte[token[n]]
    if (wpe) {
      const T* p = wpe + static_cast<std::ptrdiff_t>(positions[n]) * C;
      for (int c = 0; c < C; ++c) o[c] += p[c];  //        + wpe[position[n]]
    }
    if (pe) {
      const T* p = pe + static_cast<std::ptrdiff_t>(positions[n]) * C;
      for (int c = 0; c < C; ++c) o[c] += p[c];  //        + pe[position[n]]
    }
  }
}

template <class T>
void encoder_backward(T* dwte, T* dwpe, const T* dout, const int* tokens, const int* positions, int N, int C) {
  for (int n = 0; n < N; ++n) {
    const T* d = dout + static_cast<std::ptrdiff_t>(n) * C;
    T* e = dwte + static_cast<std::ptrdiff_t>(tokens[n]) * C;
    for (int c = 0; c < C; ++c) e[c] += d[c];  // out[n] = wte[token[n]] + …
    if (dwpe) {
      T* p = dwpe + static_cast<std::ptrdiff_t>(positions[n]) * C;
      for (int c = 0; c < C; ++c) p[c] += d[c];  // … + wpe[position[n]]
    }
  }
}

// [SECTION] LayerNorm

template <class T>
void layernorm_forward(T* out, T* mean, T* rstd, const T* inp, const T* weight, const T* bias, int N, int C) {
  const T eps = T(1e-5);
  for (int n = 0; n < N; ++n) {
    const T* x = inp + static_cast<std::ptrdiff_t>(n) * C;
    T m = 0;
    for (int c = 0; c < C; ++c) m += x[c];
    m /= T(C);  // μ = Σ x_c / C
    T var = 0;
    for (int c = 0; c < C; ++c) var += (x[c] - m) * (x[c] - m);
    var /= T(C);  // σ² = Σ (x_c − μ)² / C
    const T r = T(1) / std::sqrt(var + eps);  // r = 1/√(σ² + ε)
    T* o = out + static_cast<std::ptrdiff_t>(n) * C;
    for (int c = 0; c < C; ++c) o[c] = (x[c] - m) * r * weight[c] + bias[c];  // out = x̂·w + b
    mean[n] = m;
    rstd[n] = r;
  }
}

template <class T>
void layernorm_backward(T* dinp, T* dweight, T* dbias, const T* dout, const T* inp, const T* weight, const T* mean,
                        const T* rstd, int N, int C) {
  for (int n = 0; n < N; ++n) {
    const T* d = dout + static_cast<std::ptrdiff_t>(n) * C;
    const T* x = inp + static_cast<std::ptrdiff_t>(n) * C;
    T* dx = dinp + static_cast<std::ptrdiff_t>(n) * C;
    const T m = mean[n], r = rstd[n];
    // dx̂_c = dout_c·w_c; the mean of dx̂ and of dx̂·x̂ over the row
    T dnorm_mean = 0, dnorm_norm_mean = 0;
    for (int c = 0; c < C; ++c) {
      const T norm = (x[c] - m) * r;
      const T dnorm = weight[c] * d[c];
      dnorm_mean += dnorm;
      dnorm_norm_mean += dnorm * norm;
    }
    dnorm_mean /= T(C);
    dnorm_norm_mean /= T(C);
    for (int c = 0; c < C; ++c) {
      const T norm = (x[c] - m) * r;
      const T dnorm = weight[c] * d[c];
      dbias[c] += d[c];           // out = x̂·w + b
      dweight[c] += norm * d[c];  // out = x̂·w + b
      // x̂ = (x − μ)·r with μ and r functions of the whole row:
      // dx = r·(dx̂ − mean(dx̂) − x̂·mean(dx̂·x̂))
      dx[c] += r * (dnorm - dnorm_mean - norm * dnorm_norm_mean);
    }
  }
}

// [SECTION] Linear layer

template <class T>
void matmul_forward(T* out, const T* inp, const T* weight, const T* bias, int N, int C, int OC) {
  if (bias)
    for (int n = 0; n < N; ++n) std::copy_n(bias, OC, out + static_cast<std::ptrdiff_t>(n) * OC);  // out = b
  gemm<T>(N, OC, C, {inp, C, 1}, {weight, OC, 1}, out, OC, bias != nullptr);                     //     + inp·W
}

template <class T>
void matmul_backward(T* dinp, T* dweight, T* dbias, const T* dout, const T* inp, const T* weight, int N, int C,
                     int OC) {
  gemm<T>(N, C, OC, {dout, OC, 1}, {weight, 1, OC}, dinp, C, true);   // out = inp·W → dinp += dout·Wᵀ
  gemm<T>(C, OC, N, {inp, 1, C}, {dout, OC, 1}, dweight, OC, true);  // out = inp·W → dW += inpᵀ·dout
  if (dbias)                                                          // out = … + b → db += Σ_n dout
    for (int n = 0; n < N; ++n) {
      const T* d = dout + static_cast<std::ptrdiff_t>(n) * OC;
      for (int o = 0; o < OC; ++o) dbias[o] += d[o];
    }
}

// [SECTION] Rotary position embedding

namespace {

/// Calls f(u, v, i) for the index pairs (u, v) of pair i of one head of size hs.
template <class F>
void for_each_pair(int hs, PairLayout layout, F&& f) {
  const int half = hs / 2;
  for (int i = 0; i < half; ++i) {
    if (layout == PairLayout::interleaved) f(2 * i, 2 * i + 1, i);
    else f(i, i + half, i);
  }
}

}  // namespace

template <class T>
void rope_forward(T* out, const T* qkv, const int* positions, const RopeTables<T>& rope, int N, int C, int NH) {
  const int hs = C / NH, half = hs / 2;
  for (int n = 0; n < N; ++n) {
    const T* in = qkv + static_cast<std::ptrdiff_t>(n) * 3 * C;
    T* o = out + static_cast<std::ptrdiff_t>(n) * 3 * C;
    const T* cs = rope.cos + static_cast<std::ptrdiff_t>(positions[n]) * half;
    const T* sn = rope.sin + static_cast<std::ptrdiff_t>(positions[n]) * half;
    for (int part = 0; part < 2; ++part)  // q, then k
      for (int h = 0; h < NH; ++h) {
        const int base = part * C + h * hs;
        for_each_pair(hs, rope.layout, [&](int u, int v, int i) {
          const T a = in[base + u], b = in[base + v];
          o[base + u] = a * cs[i] - b * sn[i];  // u' = u·cos pθ − v·sin pθ
          o[base + v] = a * sn[i] + b * cs[i];  // v' = u·sin pθ + v·cos pθ
        });
      }
    for (int c = 2 * C; c < 3 * C; ++c) o[c] = in[c];  // values are not rotated
  }
}

template <class T>
void rope_backward(T* dqkv, const T* dout, const int* positions, const RopeTables<T>& rope, int N, int C, int NH) {
  const int hs = C / NH, half = hs / 2;
  for (int n = 0; n < N; ++n) {
    const T* d = dout + static_cast<std::ptrdiff_t>(n) * 3 * C;
    T* g = dqkv + static_cast<std::ptrdiff_t>(n) * 3 * C;
    const T* cs = rope.cos + static_cast<std::ptrdiff_t>(positions[n]) * half;
    const T* sn = rope.sin + static_cast<std::ptrdiff_t>(positions[n]) * half;
    for (int part = 0; part < 2; ++part)
      for (int h = 0; h < NH; ++h) {
        const int base = part * C + h * hs;
        for_each_pair(hs, rope.layout, [&](int u, int v, int i) {
          const T du = d[base + u], dv = d[base + v];
          g[base + u] += du * cs[i] + dv * sn[i];   // u' = u·cos − v·sin,  v' = u·sin + v·cos
          g[base + v] += -du * sn[i] + dv * cs[i];  // (the transpose: a rotation by −pθ)
        });
      }
    for (int c = 2 * C; c < 3 * C; ++c) g[c] += d[c];
  }
}

// [SECTION] Causal self-attention

namespace {

template <class T>
T bias_of(const AttentionBias<T>& bias, int h, int distance) {
  switch (bias.kind) {
    case AttentionBias<T>::Kind::alibi: return static_cast<T>(-bias.slopes[h] * distance);  // −m_h·δ
    case AttentionBias<T>::Kind::t5: return bias.table[h * bias.buckets + bias.bucket_of_distance[distance]];
    case AttentionBias<T>::Kind::none: break;
  }
  return T(0);
}

}  // namespace

template <class T>
void attention_forward(T* out, T* att, const T* qkv, const int* positions, const AttentionBias<T>& bias, int B, int T_,
                       int C, int NH) {
  const int hs = C / NH;
  const T scale = T(1) / std::sqrt(T(hs));
  for (int b = 0; b < B; ++b) {
    const T* seq = qkv + static_cast<std::ptrdiff_t>(b) * T_ * 3 * C;
    const int* pos = positions + static_cast<std::ptrdiff_t>(b) * T_;
    for (int h = 0; h < NH; ++h) {
      const T* q = seq + h * hs;          // q_i = q[i·3C + d]
      const T* k = seq + C + h * hs;      // k_j = k[j·3C + d]
      const T* v = seq + 2 * C + h * hs;  // v_j = v[j·3C + d]
      T* a = att + (static_cast<std::ptrdiff_t>(b) * NH + h) * T_ * T_;
      gemm<T>(T_, T_, hs, {q, 3 * C, 1}, {k, 1, 3 * C}, a, T_, false);  // q·kᵀ
      for (int i = 0; i < T_; ++i) {
        T* row = a + static_cast<std::ptrdiff_t>(i) * T_;
        T max = -std::numeric_limits<T>::infinity();
        for (int j = 0; j <= i; ++j) {
          row[j] *= scale;  // s_ij = q_i·k_j / √hs
          if (bias.kind != AttentionBias<T>::Kind::none) row[j] += bias_of(bias, h, pos[i] - pos[j]);  // + bias(i, j)
          max = std::max(max, row[j]);
        }
        T sum = 0;
        for (int j = 0; j <= i; ++j) {
          row[j] = std::exp(row[j] - max);  // a_ij = exp(s_ij) / Σ exp(s_ij'), j ≤ i
          sum += row[j];
        }
        const T inv = T(1) / sum;
        for (int j = 0; j <= i; ++j) row[j] *= inv;
        for (int j = i + 1; j < T_; ++j) row[j] = 0;  // the future is masked
      }
      // out_i = Σ_j a_ij·v_j
      gemm<T>(T_, hs, T_, {a, T_, 1}, {v, 3 * C, 1}, out + static_cast<std::ptrdiff_t>(b) * T_ * C + h * hs, C, false);
    }
  }
}

template <class T>
void attention_backward(T* dqkv, T* dtable, T* scratch, const T* dout, const T* qkv, const T* att,
                        const int* positions, const AttentionBias<T>& bias, int B, int T_, int C, int NH) {
  const int hs = C / NH;
  const T scale = T(1) / std::sqrt(T(hs));
  for (int b = 0; b < B; ++b) {
    const T* seq = qkv + static_cast<std::ptrdiff_t>(b) * T_ * 3 * C;
    T* dseq = dqkv + static_cast<std::ptrdiff_t>(b) * T_ * 3 * C;
    const int* pos = positions + static_cast<std::ptrdiff_t>(b) * T_;
    for (int h = 0; h < NH; ++h) {
      const T *q = seq + h * hs, *k = seq + C + h * hs, *v = seq + 2 * C + h * hs;  // rows 3C apart
      T *dq = dseq + h * hs, *dk = dseq + C + h * hs, *dv = dseq + 2 * C + h * hs;
      const T* dout_h = dout + static_cast<std::ptrdiff_t>(b) * T_ * C + h * hs;  // rows C apart
      const T* a = att + (static_cast<std::ptrdiff_t>(b) * NH + h) * T_ * T_;
      T* ds = scratch;
      gemm<T>(T_, hs, T_, {a, 1, T_}, {dout_h, C, 1}, dv, 3 * C, true);  // out_i = Σ_j a_ij v_j → dv_j += Σ_i a_ij dout_i
      gemm<T>(T_, T_, hs, {dout_h, C, 1}, {v, 1, 3 * C}, ds, T_, false);  //                      → da_ij = dout_i·v_j
      for (int i = 0; i < T_; ++i) {
        T* row = ds + static_cast<std::ptrdiff_t>(i) * T_;
        const T* ai = a + static_cast<std::ptrdiff_t>(i) * T_;
        T dot = 0;
        for (int j = 0; j <= i; ++j) dot += ai[j] * row[j];
        for (int j = 0; j <= i; ++j) row[j] = ai[j] * (row[j] - dot);  // softmax: ds = a·(da − Σ a·da)
        for (int j = i + 1; j < T_; ++j) row[j] = 0;
        if (dtable)  // s_ij = … + table[h, bucket(δ)] → dtable += ds_ij
          for (int j = 0; j <= i; ++j) dtable[h * bias.buckets + bias.bucket_of_distance[pos[i] - pos[j]]] += row[j];
        for (int j = 0; j <= i; ++j) row[j] *= scale;  // s_ij = q_i·k_j/√hs: the 1/√hs of dq and dk, once
      }
      gemm<T>(T_, hs, T_, {ds, T_, 1}, {k, 3 * C, 1}, dq, 3 * C, true);  // s_ij = q_i·k_j/√hs → dq_i += Σ_j ds_ij k_j/√hs
      gemm<T>(T_, hs, T_, {ds, 1, T_}, {q, 3 * C, 1}, dk, 3 * C, true);  //                    → dk_j += Σ_i ds_ij q_i/√hs
    }
  }
}

// [SECTION] GELU, residual

namespace {
constexpr double kGeluScaling = 0.7978845608028654;  // √(2/π)
}

template <class T>
void gelu_forward(T* out, T* th, const T* inp, int n) {
  // Eigen's array tanh (vectorised for float: a rational approximation within a few ulp)
  const Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>> x(inp, n);
  Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>> t(th, n);
  t = (T(kGeluScaling) * (x + T(0.044715) * x * x * x)).tanh();  // tanh u, kept for the backward pass
  Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>(out, n) = T(0.5) * x * (T(1) + t);
}

template <class T>
void gelu_backward(T* dinp, const T* inp, const T* th, const T* dout, int n) {
  const Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>> x(inp, n), t(th, n), d(dout, n);
  // GELU(x) = ½x(1 + tanh u), u = √(2/π)(x + 0.044715x³):
  // GELU′ = ½(1 + tanh u) + ½x·(1 − tanh² u)·√(2/π)(1 + 3·0.044715x²)
  Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>(dinp, n) +=
      (T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * T(kGeluScaling) * (T(1) + T(3 * 0.044715) * x * x)) * d;
}

template <class T>
void residual_forward(T* out, const T* a, const T* b, int n) {
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
}

template <class T>
void residual_backward(T* da, T* db, const T* dout, int n) {
  for (int i = 0; i < n; ++i) {
    da[i] += dout[i];  // out = a + b
    db[i] += dout[i];
  }
}

// [SECTION] Softmax and cross-entropy

template <class T>
T crossentropy_forward(T* losses, T* probs, const T* logits, const int* targets, const T* weights, int N, int V) {
  T total = 0, weight_sum = 0;
  for (int n = 0; n < N; ++n) {
    const T* z = logits + static_cast<std::ptrdiff_t>(n) * V;
    T* p = probs + static_cast<std::ptrdiff_t>(n) * V;
    T max = z[0];
    for (int i = 1; i < V; ++i) max = std::max(max, z[i]);
    T sum = 0;
    for (int i = 0; i < V; ++i) {
      p[i] = std::exp(z[i] - max);  // p = softmax(z)
      sum += p[i];
    }
    for (int i = 0; i < V; ++i) p[i] /= sum;
    // −ln p[target] from the logits directly: max + ln Σ exp(z − max) − z[target]
    losses[n] = max + std::log(sum) - z[targets[n]];
    total += weights[n] * losses[n];
    weight_sum += weights[n];
  }
  return weight_sum > 0 ? total / weight_sum : T(0);
}

template <class T>
void crossentropy_backward(T* dlogits, const T* probs, const int* targets, const T* weights, int N, int V) {
  T weight_sum = 0;
  for (int n = 0; n < N; ++n) weight_sum += weights[n];
  if (weight_sum <= 0) return;
  for (int n = 0; n < N; ++n) {
    const T w = weights[n] / weight_sum;
    if (w == 0) continue;
    const T* p = probs + static_cast<std::ptrdiff_t>(n) * V;
    T* d = dlogits + static_cast<std::ptrdiff_t>(n) * V;
    for (int i = 0; i < V; ++i) d[i] += w * (p[i] - (i == targets[n] ? T(1) : T(0)));  // loss = −ln p[target]
  }
}

// [SECTION] Adam

template <class T>
void adam_update(T* params, const T* grads, T* m, T* v, std::int64_t n, double lr, double beta1, double beta2,
                 double eps, int t) {
  const double c1 = 1 - std::pow(beta1, t), c2 = 1 - std::pow(beta2, t);
  const T b1 = T(beta1), b2 = T(beta2);
  const T step = T(lr / c1), rc2 = T(1 / std::sqrt(c2)), e = T(eps);
  for (std::int64_t i = 0; i < n; ++i) {
    const T g = grads[i];
    m[i] = b1 * m[i] + (T(1) - b1) * g;      // m ← β1·m + (1 − β1)·g
    v[i] = b2 * v[i] + (T(1) - b2) * g * g;  // v ← β2·v + (1 − β2)·g²
    // θ ← θ − lr·m̂/(√v̂ + ε),  m̂ = m/(1 − β1ᵗ), v̂ = v/(1 − β2ᵗ)
    params[i] -= step * m[i] / (std::sqrt(v[i]) * rc2 + e);
  }
}

// [SECTION] Explicit instantiations (float, double)

#define POSLAB_LAB_LAYERS(T)                                                                                          \
  template void encoder_forward<T>(T*, const int*, const int*, const T*, const T*, const T*, int, int);              \
  template void encoder_backward<T>(T*, T*, const T*, const int*, const int*, int, int);                             \
  template void layernorm_forward<T>(T*, T*, T*, const T*, const T*, const T*, int, int);                            \
  template void layernorm_backward<T>(T*, T*, T*, const T*, const T*, const T*, const T*, const T*, int, int);       \
  template void matmul_forward<T>(T*, const T*, const T*, const T*, int, int, int);                                  \
  template void matmul_backward<T>(T*, T*, T*, const T*, const T*, const T*, int, int, int);                         \
  template void rope_forward<T>(T*, const T*, const int*, const RopeTables<T>&, int, int, int);                      \
  template void rope_backward<T>(T*, const T*, const int*, const RopeTables<T>&, int, int, int);                     \
  template void attention_forward<T>(T*, T*, const T*, const int*, const AttentionBias<T>&, int, int, int, int);     \
  template void attention_backward<T>(T*, T*, T*, const T*, const T*, const T*, const int*, const AttentionBias<T>&, \
                                      int, int, int, int);                                                           \
  template void gelu_forward<T>(T*, T*, const T*, int);                                                              \
  template void gelu_backward<T>(T*, const T*, const T*, const T*, int);                                             \
  template void residual_forward<T>(T*, const T*, const T*, int);                                                    \
  template void residual_backward<T>(T*, T*, const T*, int);                                                         \
  template T crossentropy_forward<T>(T*, T*, const T*, const int*, const T*, int, int);                              \
  template void crossentropy_backward<T>(T*, const T*, const int*, const T*, int, int);                              \
  template void adam_update<T>(T*, const T*, T*, T*, std::int64_t, double, double, double, double, int);

POSLAB_LAB_LAYERS(float)
POSLAB_LAB_LAYERS(double)
#undef POSLAB_LAB_LAYERS

}  // namespace poslab::core::lab
