#pragma once
// The layers of the lab's tiny Transformer, each a pair of plain functions
// X_forward / X_backward in the style of Karpathy's llm.c (train_gpt2.c).
// Shapes are written B (batch), T (time = tokens per sequence), C (channels
// = width), NH (heads), hs = C/NH (head size), V (vocabulary), N = B·T.
// Every tensor is a flat row-major array: (B, T, C) means index (b·T + t)·C + c.
//
// Backward functions ACCUMULATE into the parameter gradients (dw, db, …) and
// into the input gradient (dinp) — the caller zeroes them once per step, as
// llm.c does — so a tensor read by two layers (the residual stream) simply
// receives both contributions.
//
// Templated on the scalar: float32 for training, double for the gradient
// checks of tests/core/test_lab.cpp. Matrix products go through gemm.hpp (a
// register-blocked kernel with an AVX2 path chosen at run time).

#include <cstdint>

#include "poslab/core/rope.hpp"

namespace poslab::core::lab {

// [SECTION] Embedding

/// encoder_forward — out (N, C); tokens, positions (N); wte (V, C); wpe (P, C) or null; pe (P, C) or null
///   out[n] = wte[token[n]] + wpe[position[n]] + pe[position[n]]
/// wpe is the learned position table (trained), pe the sinusoidal one (fixed).
template <class T>
void encoder_forward(T* out, const int* tokens, const int* positions, const T* wte, const T* wpe, const T* pe,
                     int N, int C);

/// encoder_backward — the gradients of the two tables it reads (dwpe may be null)
///   dwte[token[n]] += dout[n]        dwpe[position[n]] += dout[n]
template <class T>
void encoder_backward(T* dwte, T* dwpe, const T* dout, const int* tokens, const int* positions, int N, int C);

// [SECTION] LayerNorm

/// layernorm_forward — out (N, C); mean, rstd (N); inp (N, C); weight, bias (C)
///   μ = Σ_c x_c / C,  σ² = Σ_c (x_c − μ)² / C,  r = 1/√(σ² + 1e-5)
///   x̂_c = (x_c − μ)·r,  out_c = x̂_c·w_c + b_c
template <class T>
void layernorm_forward(T* out, T* mean, T* rstd, const T* inp, const T* weight, const T* bias, int N, int C);

/// layernorm_backward — dinp (N, C); dweight, dbias (C)
template <class T>
void layernorm_backward(T* dinp, T* dweight, T* dbias, const T* dout, const T* inp, const T* weight, const T* mean,
                        const T* rstd, int N, int C);

// [SECTION] Linear layer

/// matmul_forward — out (N, OC); inp (N, C); weight (C, OC); bias (OC)
///   out = inp·W + b
template <class T>
void matmul_forward(T* out, const T* inp, const T* weight, const T* bias, int N, int C, int OC);

/// matmul_backward — dinp (N, C); dweight (C, OC); dbias (OC)
///   dinp += dout·Wᵀ,  dW += inpᵀ·dout,  db += Σ_n dout[n]
template <class T>
void matmul_backward(T* dinp, T* dweight, T* dbias, const T* dout, const T* inp, const T* weight, int N, int C,
                     int OC);

// [SECTION] Rotary position embedding

/// What rope_forward rotates with: a cos/sin table of P positions × hs/2 pairs,
/// cos[p·hs/2 + i] = a·cos(p·θ_i), sin[…] = a·sin(p·θ_i) (a = YaRN's attention
/// factor, 1 for plain RoPE), and the pair layout (rope.hpp).
template <class T>
struct RopeTables {
  const T* cos = nullptr;
  const T* sin = nullptr;
  int positions = 0;
  PairLayout layout = PairLayout::half;
};

/// rope_forward — out (N, 3C) from qkv (N, 3C); positions (N)
///   q and k of every head: pair i = (u, v) at position p →
///   (u·cos pθ_i − v·sin pθ_i,  u·sin pθ_i + v·cos pθ_i);  v (values) copied.
template <class T>
void rope_forward(T* out, const T* qkv, const int* positions, const RopeTables<T>& rope, int N, int C, int NH);

/// rope_backward — dqkv (N, 3C) += Rᵀ·dout on q and k (the rotation by −pθ_i), dout on v
template <class T>
void rope_backward(T* dqkv, const T* dout, const int* positions, const RopeTables<T>& rope, int N, int C, int NH);

// [SECTION] Causal self-attention

/// A bias added to every attention score, from the positions p_i (query) and
/// p_j (key), distance δ = p_i − p_j ≥ 0:
///   alibi: −m_h·δ            (slopes m_h from core/alibi.hpp, fixed)
///   t5:    table[h, bucket(δ)] (bucket from core/t5.hpp, the table learned)
template <class T>
struct AttentionBias {
  enum class Kind { none, alibi, t5 } kind = Kind::none;
  const double* slopes = nullptr;     ///< alibi: NH slopes
  const T* table = nullptr;           ///< t5: (NH, buckets)
  int buckets = 0;
  const int* bucket_of_distance = nullptr;  ///< t5: bucket(δ) for δ = 0 .. P − 1
};

/// attention_forward — out (N, C); att (B, NH, T, T); qkv (N, 3C) [q | k | v, each head hs wide]
///   s_ij = q_i·k_j / √hs + bias(i, j)   for j ≤ i (j > i masked: the future)
///   a_ij = exp(s_ij) / Σ_{j'≤i} exp(s_ij')
///   out_i = Σ_j a_ij·v_j
template <class T>
void attention_forward(T* out, T* att, const T* qkv, const int* positions, const AttentionBias<T>& bias, int B, int T_,
                       int C, int NH);

/// attention_backward — dqkv (N, 3C) += ; dtable (NH, buckets) += (t5 only, else null); scratch (T, T)
///   dv_j   = Σ_i a_ij·dout_i                         (out_i = Σ_j a_ij v_j)
///   da_ij  = dout_i·v_j
///   ds_ij  = a_ij·(da_ij − Σ_j' a_ij' da_ij')         (softmax)
///   dq_i   = Σ_j ds_ij·k_j / √hs,  dk_j = Σ_i ds_ij·q_i / √hs
///   dtable[h, bucket(δ_ij)] += ds_ij
template <class T>
void attention_backward(T* dqkv, T* dtable, T* scratch, const T* dout, const T* qkv, const T* att,
                        const int* positions, const AttentionBias<T>& bias, int B, int T_, int C, int NH);

// [SECTION] GELU, residual

/// gelu_forward — out, th, inp (n)
///   GELU(x) = ½x·(1 + tanh(√(2/π)·(x + 0.044715x³)))   (GPT-2's tanh form)
/// th receives the tanh, which gelu_backward reuses instead of computing it again.
template <class T>
void gelu_forward(T* out, T* th, const T* inp, int n);
/// gelu_backward — dinp (n) += GELU′(x)·dout, th = gelu_forward's tanh of the same x
template <class T>
void gelu_backward(T* dinp, const T* inp, const T* th, const T* dout, int n);

/// residual_forward — out = a + b (n)
template <class T>
void residual_forward(T* out, const T* a, const T* b, int n);
/// residual_backward — da += dout, db += dout
template <class T>
void residual_backward(T* da, T* db, const T* dout, int n);

// [SECTION] Softmax and cross-entropy

/// crossentropy_forward — losses (N); probs (N, V); logits (N, V); targets, weights (N)
///   p = softmax(logits),  loss_n = −ln p[target_n]
/// Returns the weighted mean Σ_n w_n·loss_n / Σ_n w_n (weight 0: not scored,
/// e.g. the input half of a copy sequence). Positions with weight 0 still get
/// their loss and probabilities (for evaluation).
template <class T>
T crossentropy_forward(T* losses, T* probs, const T* logits, const int* targets, const T* weights, int N, int V);

/// crossentropy_backward — dlogits (N, V) = (p − onehot(target))·w_n / Σ w
template <class T>
void crossentropy_backward(T* dlogits, const T* probs, const int* targets, const T* weights, int N, int V);

// [SECTION] Adam

/// adam_update — params, grads, m, v (n); t = step number from 1
///   m ← β1·m + (1 − β1)·g,   v ← β2·v + (1 − β2)·g²
///   θ ← θ − lr·(m/(1 − β1ᵗ)) / (√(v/(1 − β2ᵗ)) + ε)
/// (Kingma & Ba 2015, Algorithm 1.)
template <class T>
void adam_update(T* params, const T* grads, T* m, T* v, std::int64_t n, double lr, double beta1, double beta2,
                 double eps, int t);

}  // namespace poslab::core::lab
