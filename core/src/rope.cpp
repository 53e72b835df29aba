// [SECTION] Index
// - Argument checks shared by the RoPE entry points
// - Frequencies, wavelengths, pair layouts
// - Rotation (float and double), rotation matrix, complex form, score
// - Layout permutation
// - The notes' mixed-layout rotation (seed 000)
// - Benchmark kernels: cos/sin tables by recurrence, in-place rotation
//
// Sources: Su et al. 2021, "RoFormer" §3.2 (eq. 13–16: the rotation and the
// block-diagonal R_{Θ,m}), §3.4.2 (the element-wise form); Meta's Llama
// `precompute_freqs_cis`/`apply_rotary_emb` (complex view = interleaved pairs);
// HF transformers `rotate_half`/`apply_rotary_pos_emb` and GPT-NeoX (half pairs).

#include "poslab/core/rope.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"

namespace poslab::core {

// [SECTION] Argument checks shared by the RoPE entry points

namespace {

/// The bound rule of check_real, on the spec's own fields (no numbers copied
/// here), so long inputs can be checked without formatting a message per item.
bool in_spec(const ParamSpec& s, double x) {
  if (!std::isfinite(x)) return false;
  if (s.min_exclusive ? !(x > s.min) : !(x >= s.min)) return false;
  if (s.max_exclusive ? !(x < s.max) : !(x <= s.max)) return false;
  return true;
}

/// An input vector: the `vector` spec (2..8192 items, even length, finite,
/// |x| <= 1e12).
template <class Scalar>
void check_vector(const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& x) {
  const ParamSpec& spec = param_spec("vector");
  const auto n = static_cast<std::size_t>(x.size());
  if (n < spec.min_items || n > spec.max_items || n % 2 != 0)
    check_param_value(spec, std::vector<double>(x.data(), x.data() + x.size()));
  for (Eigen::Index j = 0; j < x.size(); ++j)
    if (!in_spec(spec, static_cast<double>(x[j]))) check_real("vector", static_cast<double>(x[j]));
}

/// YaRN's attention factor multiplies cos and sin; it is derived (not a
/// contract key), so it is checked here: finite and > 0.
void check_attention_factor(double af) {
  if (!(std::isfinite(af) && af > 0 && af <= 1e6))
    throw InvalidParameter("attention_factor", format_number(af), "must be a number > 0 and <= 1e+06");
}

void check_same_length(Eigen::Index a, Eigen::Index b) {
  if (a != b)
    throw InvalidParameter("vector", std::to_string(b) + " items",
                           "q and k must have the same length (" + std::to_string(a) + ")");
}

}  // namespace

void check_real_items(std::string_view key, std::span<const double> xs) {
  const ParamSpec& spec = param_spec(key);
  for (double x : xs)
    if (!in_spec(spec, x)) check_real(key, x);
}

void rope_check_thetas(std::span<const double> thetas) {
  check_integer("d", 2.0 * static_cast<double>(thetas.size()));
  check_real_items("theta", thetas);
}

// [SECTION] Frequencies, wavelengths, pair layouts

PairLayout parse_pair_layout(std::string_view word) {
  if (word == "interleaved") return PairLayout::interleaved;
  if (word == "half") return PairLayout::half;
  check_param_value(param_spec("layout"), std::string(word));  // raises the uniform message
  throw InvalidParameter("layout", std::string(word), describe_allowed(param_spec("layout")),
                         allowed_reason(param_spec("layout")));
}

const char* pair_layout_name(PairLayout layout) {
  return layout == PairLayout::interleaved ? "interleaved" : "half";
}

// θ_i = base^(−2i/d) = base^(−i/h), h = d/2 — HF `_compute_default_rope_parameters`
// (`1.0 / (base ** (arange(0, dim, 2) / dim))`), here in double (HF rounds to
// float32). Not one std::pow per pair: with K = ceil(√h) and i = q·K + r,
//   θ_i = A_q·B_r,  A_q = base^(−qK/h) (giant steps), B_r = base^(−r/h) (baby steps),
// 2√h powers instead of h (d = 128: 16 instead of 64; d = 1024: 46 instead of 512).
//
// Error bound (relative, u = 2^−53): std::pow is within 1 ulp (glibc: < 1 ULP),
// so A_q and B_r are each within 2u, and their product adds one rounding, u:
//   |θ̂_i/θ_i − 1| <= 5u ≈ 5.6e-16   (+ ln(base)·u·i/h when h is not a power
// of two: the exponents qK/h and r/h are rounded, as 2i/d was in one pow).
// Compared with 1/pow(base, 2i/d) (<= 3u) the values may differ in the last
// one or two bits; θ_0 = 1 exactly. The tests check the bound against long
// double powl over many seeded d and bases.
void rope_inverse_frequencies(int d, double base, std::span<double> out) {
  static const ParamSpec& kD = param_spec("d");  // looked up once: this runs on every slider move
  check_integer(kD, d);
  if (!(std::isfinite(base) && base > 1))
    throw InvalidParameter("base", format_number(base), "must be a finite number > 1");
  const int h = d / 2;
  if (out.size() != static_cast<std::size_t>(h))
    throw InvalidParameter("d", std::to_string(d),
                           "the output must hold d/2 = " + std::to_string(h) + " frequencies (it holds " +
                               std::to_string(out.size()) + ")");
  const int k = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(h))));
  std::array<double, 64> baby{};  // K <= ceil(√4096) = 64
  for (int r = 0; r < k; ++r) baby[static_cast<std::size_t>(r)] = std::pow(base, -static_cast<double>(r) / h);
  for (int q = 0; q * k < h; ++q) {
    const double giant = std::pow(base, -static_cast<double>(q * k) / h);
    const int end = std::min(k, h - q * k);
    for (int r = 0; r < end; ++r) out[static_cast<std::size_t>(q * k + r)] = giant * baby[static_cast<std::size_t>(r)];
  }
}

Eigen::VectorXd rope_inverse_frequencies(int d, double base) {
  check_integer("d", d);
  check_real("base", base);
  Eigen::VectorXd theta(d / 2);
  rope_inverse_frequencies(d, base, std::span<double>(theta.data(), static_cast<std::size_t>(theta.size())));
  return theta;
}

// λ_i = 2π/θ_i = 2π·base^(2i/d): tokens per full turn of pair i (YaRN §3.2, eq. 13).
Eigen::VectorXd rope_wavelengths(int d, double base) {
  Eigen::VectorXd theta = rope_inverse_frequencies(d, base);
  return (2.0 * std::numbers::pi) * theta.cwiseInverse();
}

std::pair<int, int> rope_pair_indices(int pair, int d, PairLayout layout) {
  check_integer("d", d);
  if (pair < 0 || pair >= d / 2)
    throw InvalidParameter("pair", std::to_string(pair), "must be in 0.." + std::to_string(d / 2 - 1) + " (d/2 − 1)");
  if (layout == PairLayout::interleaved) return {2 * pair, 2 * pair + 1};
  return {pair, pair + d / 2};
}

// [SECTION] Rotation, rotation matrix, complex form, score

// Pair (a, b) of x → (x_a cos mθ_i − x_b sin mθ_i, x_a sin mθ_i + x_b cos mθ_i)·attention_factor
// (RoFormer eq. 13/34). Computed in double whatever Scalar is and rounded once
// at the end, so the float result is the double result rounded to float.
// The angle m·θ_i is one double product: its rounding error is ≤ 2^−53·|mθ_i|.
template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, 1> rope_rotate(const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& x, double m,
                                                     std::span<const double> thetas, PairLayout layout,
                                                     double attention_factor) {
  check_vector(x);
  check_real("m", m);
  rope_check_thetas(thetas);
  check_attention_factor(attention_factor);
  const auto half = static_cast<Eigen::Index>(thetas.size());
  if (x.size() != 2 * half)
    throw InvalidParameter("d", std::to_string(x.size()),
                           "the vector length must be 2 × the number of frequencies (" + std::to_string(2 * half) +
                               ")");
  const int d = static_cast<int>(x.size());
  Eigen::Matrix<Scalar, Eigen::Dynamic, 1> y(x.size());
  for (int i = 0; i < static_cast<int>(half); ++i) {
    const auto [a, b] = layout == PairLayout::interleaved ? std::pair{2 * i, 2 * i + 1} : std::pair{i, i + d / 2};
    const double angle = m * thetas[static_cast<std::size_t>(i)];
    const double c = std::cos(angle) * attention_factor;
    const double s = std::sin(angle) * attention_factor;
    const double xa = static_cast<double>(x[a]);
    const double xb = static_cast<double>(x[b]);
    y[a] = static_cast<Scalar>(xa * c - xb * s);
    y[b] = static_cast<Scalar>(xa * s + xb * c);
  }
  return y;
}

template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, 1> rope_rotate(const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& x, double m,
                                                     double base, PairLayout layout) {
  check_vector(x);
  const Eigen::VectorXd theta = rope_inverse_frequencies(static_cast<int>(x.size()), base);
  return rope_rotate<Scalar>(x, m, std::span<const double>(theta.data(), static_cast<std::size_t>(theta.size())),
                             layout, 1.0);
}

template Eigen::Matrix<float, Eigen::Dynamic, 1> rope_rotate<float>(const Eigen::Matrix<float, Eigen::Dynamic, 1>&,
                                                                    double, std::span<const double>, PairLayout,
                                                                    double);
template Eigen::Matrix<double, Eigen::Dynamic, 1> rope_rotate<double>(
    const Eigen::Matrix<double, Eigen::Dynamic, 1>&, double, std::span<const double>, PairLayout, double);
template Eigen::Matrix<float, Eigen::Dynamic, 1> rope_rotate<float>(const Eigen::Matrix<float, Eigen::Dynamic, 1>&,
                                                                    double, double, PairLayout);
template Eigen::Matrix<double, Eigen::Dynamic, 1> rope_rotate<double>(
    const Eigen::Matrix<double, Eigen::Dynamic, 1>&, double, double, PairLayout);

// R_{Θ,m} (RoFormer eq. 15): 2×2 blocks [[cos mθ_i, −sin mθ_i], [sin mθ_i, cos mθ_i]]
// at rows/columns (a, b) of pair i; zero elsewhere. Orthogonal: R_mᵀ R_n = R_{n−m}.
Eigen::MatrixXd rope_rotation_matrix(int d, double m, double base, PairLayout layout) {
  check_real("m", m);
  const Eigen::VectorXd theta = rope_inverse_frequencies(d, base);
  Eigen::MatrixXd r = Eigen::MatrixXd::Zero(d, d);
  for (int i = 0; i < d / 2; ++i) {
    const auto [a, b] = rope_pair_indices(i, d, layout);
    const double c = std::cos(m * theta[i]);
    const double s = std::sin(m * theta[i]);
    r(a, a) = c;
    r(a, b) = -s;
    r(b, a) = s;
    r(b, b) = c;
  }
  return r;
}

// RoFormer eq. 12 / Llama `apply_rotary_emb`: view (x_{2i}, x_{2i+1}) as the
// complex number x_{2i} + i·x_{2i+1} and multiply by e^{i m θ_i} (`torch.polar`).
std::vector<std::complex<double>> rope_complex(const Eigen::VectorXd& x, double m, double base) {
  check_vector(x);
  check_real("m", m);
  const Eigen::VectorXd theta = rope_inverse_frequencies(static_cast<int>(x.size()), base);
  std::vector<std::complex<double>> z(static_cast<std::size_t>(theta.size()));
  for (Eigen::Index i = 0; i < theta.size(); ++i)
    z[static_cast<std::size_t>(i)] = std::complex<double>(x[2 * i], x[2 * i + 1]) * std::polar(1.0, m * theta[i]);
  return z;
}

// ⟨R_m q, R_n k⟩ computed literally: rotate both, then the dot product. That
// it equals ⟨q, R_{n−m} k⟩ (RoFormer eq. 16) is tested, not assumed.
double rope_score(const Eigen::VectorXd& q, const Eigen::VectorXd& k, double m, double n, double base,
                  PairLayout layout) {
  check_vector(q);
  check_vector(k);
  check_same_length(q.size(), k.size());
  check_real("n", n);
  return rope_rotate<double>(q, m, base, layout).dot(rope_rotate<double>(k, n, base, layout));
}

// [SECTION] Layout permutation

// half = P·interleaved: interleaved index 2i → i, 2i+1 → i + d/2. With this
// relabelling the two layouts compute the same rotation (HF's conversion of
// Meta checkpoints permutes the q/k projection rows this way).
std::vector<int> rope_layout_permutation(int d) {
  check_integer("d", d);
  std::vector<int> perm(static_cast<std::size_t>(d));
  for (int i = 0; i < d / 2; ++i) {
    perm[static_cast<std::size_t>(2 * i)] = i;
    perm[static_cast<std::size_t>(2 * i + 1)] = i + d / 2;
  }
  return perm;
}

namespace {

/// A permutation moves numbers without computing with them: any finite
/// vector of an allowed (even) length, also one a rotation took past the
/// bound on typed vectors (|x| grows up to √2 per pair: the rope readouts
/// permute rotated vectors of 1e12 entries).
void check_permutable(const Eigen::VectorXd& x) {
  const ParamSpec& spec = param_spec("vector");
  const auto n = static_cast<std::size_t>(x.size());
  if (n < spec.min_items || n > spec.max_items || n % 2 != 0)
    check_param_value(spec, std::vector<double>(x.data(), x.data() + x.size()));
  for (Eigen::Index j = 0; j < x.size(); ++j)
    if (!std::isfinite(x[j])) check_real("vector", x[j]);
}

}  // namespace

Eigen::VectorXd interleaved_to_half(const Eigen::VectorXd& x) {
  check_permutable(x);
  const std::vector<int> perm = rope_layout_permutation(static_cast<int>(x.size()));
  Eigen::VectorXd y(x.size());
  for (Eigen::Index j = 0; j < x.size(); ++j) y[perm[static_cast<std::size_t>(j)]] = x[j];
  return y;
}

Eigen::VectorXd half_to_interleaved(const Eigen::VectorXd& x) {
  check_permutable(x);
  const std::vector<int> perm = rope_layout_permutation(static_cast<int>(x.size()));
  Eigen::VectorXd y(x.size());
  for (Eigen::Index j = 0; j < x.size(); ++j) y[j] = x[perm[static_cast<std::size_t>(j)]];
  return y;
}

// [SECTION] The notes' mixed-layout rotation (seed 000)

// Transcribes the notes' code: emb = cat(freqs, freqs), so element j gets the
// angle m·θ_{j mod d/2} (half layout), while rotate_half is
// stack((−x[1::2], x[0::2]), −1).flatten(−2), i.e. r_{2i} = −x_{2i+1},
// r_{2i+1} = x_{2i} (interleaved layout):
//   y_j = x_j·cos(m θ_{j mod d/2}) + r_j·sin(m θ_{j mod d/2}).
// The two members of a pair get different angles, so this is no rotation.
Eigen::VectorXd rope_rotate_mixed(const Eigen::VectorXd& x, double m, double base) {
  check_vector(x);
  check_real("m", m);
  const int d = static_cast<int>(x.size());
  const Eigen::VectorXd theta = rope_inverse_frequencies(d, base);
  Eigen::VectorXd y(d);
  for (int j = 0; j < d; ++j) {
    const double angle = m * theta[j % (d / 2)];
    const double r = (j % 2 == 0) ? -x[j + 1] : x[j - 1];
    y[j] = x[j] * std::cos(angle) + r * std::sin(angle);
  }
  return y;
}

// [SECTION] Benchmark kernels

namespace {

constexpr std::size_t kTableChunk = 256;  // pairs per pass: 4 × 256 doubles of state on the stack

// cos/sin tables by the complex recurrence z_{t+1} = z_t·w, w = e^{iθ}, in
// double, re-anchored (z_t = a·e^{i t θ} from std::cos/std::sin) every
// kRopeReanchor positions.
//
// Error bound (first order in u = 2^−53, unit roundoff of double): for the
// k-th position after an anchor t0 (0 <= k < kRopeReanchor), t = t0 + k,
//   |z − a·e^{i t θ}| <= a·((3k + 1)·√2·u + u·|t0·θ|)
// because the anchor is within √2·u·a of a·e^{i fl(t0 θ)} (libm sin/cos within
// one ulp) and fl(t0 θ) within u·|t0 θ| of t0 θ; w is within √2·u of e^{iθ};
// and each complex product adds at most √2·γ₂ ≈ 2√2·u (Higham, "Accuracy and
// Stability of Numerical Algorithms", 2nd ed., Lemma 3.5). With k <= 63 the
// recurrence part is <= 190·√2·u ≈ 3e-14·a. A float table adds the final
// rounding, <= 2^−24·a. Without re-anchoring the first term grows with t.
template <class T>
void cos_sin_table(std::span<T> cos_out, std::span<T> sin_out, std::int64_t tokens, std::span<const double> thetas,
                   double attention_factor) {
  check_integer("positions", static_cast<double>(tokens));
  rope_check_thetas(thetas);
  check_attention_factor(attention_factor);
  const std::size_t half = thetas.size();
  const auto cells = static_cast<std::size_t>(tokens) * half;
  if (cos_out.size() != cells || sin_out.size() != cells)
    throw InvalidParameter("positions", std::to_string(tokens),
                           "the cos and sin tables must hold tokens × d/2 = " + std::to_string(cells) +
                               " values each (they hold " + std::to_string(cos_out.size()) + " and " +
                               std::to_string(sin_out.size()) + ")");
  std::array<double, kTableChunk> zr{}, zi{}, wr{}, wi{};
  for (std::size_t i0 = 0; i0 < half; i0 += kTableChunk) {
    const std::size_t n = std::min(kTableChunk, half - i0);
    for (std::size_t i = 0; i < n; ++i) {
      wr[i] = std::cos(thetas[i0 + i]);
      wi[i] = std::sin(thetas[i0 + i]);
    }
    for (std::int64_t t0 = 0; t0 < tokens; t0 += kRopeReanchor) {
      for (std::size_t i = 0; i < n; ++i) {
        const double angle = static_cast<double>(t0) * thetas[i0 + i];
        zr[i] = attention_factor * std::cos(angle);
        zi[i] = attention_factor * std::sin(angle);
      }
      const std::int64_t steps = std::min<std::int64_t>(kRopeReanchor, tokens - t0);
      for (std::int64_t k = 0; k < steps; ++k) {
        const std::size_t row = static_cast<std::size_t>(t0 + k) * half + i0;
        T* __restrict c = cos_out.data() + row;
        T* __restrict s = sin_out.data() + row;
        for (std::size_t i = 0; i < n; ++i) {
          c[i] = static_cast<T>(zr[i]);
          s[i] = static_cast<T>(zi[i]);
          const double re = zr[i] * wr[i] - zi[i] * wi[i];
          zi[i] = zr[i] * wi[i] + zi[i] * wr[i];
          zr[i] = re;
        }
      }
    }
  }
}

// One vector's pairs, interleaved (2i, 2i+1). Contiguous over i; GCC and Clang
// vectorise the stride-2 access with shuffles.
inline void rotate_interleaved(float* __restrict x, const float* __restrict c, const float* __restrict s,
                               std::size_t half) {
  for (std::size_t i = 0; i < half; ++i) {
    const float a = x[2 * i];
    const float b = x[2 * i + 1];
    x[2 * i] = a * c[i] - b * s[i];
    x[2 * i + 1] = a * s[i] + b * c[i];
  }
}

// One vector's pairs, half layout (i, i + d/2): two contiguous streams.
inline void rotate_half_layout(float* __restrict x, const float* __restrict c, const float* __restrict s,
                               std::size_t half) {
  float* y = x + half;
  for (std::size_t i = 0; i < half; ++i) {
    const float a = x[i];
    const float b = y[i];
    x[i] = a * c[i] - b * s[i];
    y[i] = a * s[i] + b * c[i];
  }
}

}  // namespace

void rope_cos_sin_table(std::span<float> cos_out, std::span<float> sin_out, std::int64_t tokens,
                        std::span<const double> thetas, double attention_factor) {
  cos_sin_table<float>(cos_out, sin_out, tokens, thetas, attention_factor);
}

void rope_cos_sin_table(std::span<double> cos_out, std::span<double> sin_out, std::int64_t tokens,
                        std::span<const double> thetas, double attention_factor) {
  cos_sin_table<double>(cos_out, sin_out, tokens, thetas, attention_factor);
}

// data[t, h, :] ← R_t data[t, h, :] with cos/sin row t of the tables: one pass
// over the tensor, the row of the tables (d/2 floats each) reused for every
// head. No allocation, no trigonometry. Finite input with |x| <= 1e38 gives
// finite output (|rotated| <= √2·|x|·attention_factor).
void rope_apply(std::span<float> data, std::int64_t tokens, int heads, int d, std::span<const float> cos_table,
                std::span<const float> sin_table, PairLayout layout) {
  check_integer("positions", static_cast<double>(tokens));
  check_integer("heads", heads);
  check_integer("d", d);
  const auto half = static_cast<std::size_t>(d / 2);
  const auto row = static_cast<std::size_t>(heads) * static_cast<std::size_t>(d);
  const auto t_count = static_cast<std::size_t>(tokens);
  if (data.size() != t_count * row)
    throw InvalidParameter("d", std::to_string(d),
                           "the tensor must hold tokens × heads × d = " + std::to_string(t_count * row) +
                               " floats (it holds " + std::to_string(data.size()) + ")");
  if (cos_table.size() != t_count * half || sin_table.size() != t_count * half)
    throw InvalidParameter("positions", std::to_string(tokens),
                           "the cos and sin tables must hold tokens × d/2 = " + std::to_string(t_count * half) +
                               " values each");
  for (std::size_t t = 0; t < t_count; ++t) {
    const float* c = cos_table.data() + t * half;
    const float* s = sin_table.data() + t * half;
    float* x = data.data() + t * row;
    if (layout == PairLayout::interleaved) {
      for (int h = 0; h < heads; ++h) rotate_interleaved(x + static_cast<std::size_t>(h) * static_cast<std::size_t>(d), c, s, half);
    } else {
      for (int h = 0; h < heads; ++h) rotate_half_layout(x + static_cast<std::size_t>(h) * static_cast<std::size_t>(d), c, s, half);
    }
  }
}

}  // namespace poslab::core
