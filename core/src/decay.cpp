// [SECTION] Index
// - Argument checks
// - RoFormer's relative upper bound (§3.4.3) at one distance
// - Scores of q = k = ones and of seeded random q, k
// - The level of the bound for random phases
// - The bound for many distances (fast kernel)
//
// Source: Su et al. 2021, "RoFormer", §3.4.3 "Long-term decay": with
// h_i = q_[2i:2i+1] k*_[2i:2i+1] and S_j = Σ_{k=0}^{j−1} e^{i r θ_k}, Abel
// summation gives |Σ_i h_i e^{i r θ_i}| <= (max_i |h_{i+1} − h_i|)·Σ_{j=1}^{d/2} |S_j|;
// the paper's Figure 2 plots (1/(d/2))·Σ_{j=1}^{d/2} |S_j| against r.

#include "poslab/core/decay.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <numbers>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/random.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::core {

// [SECTION] Argument checks
// (frequencies and distance lists through rope_check_thetas and
// check_real_items, core/rope.hpp)

namespace {

std::span<const double> as_span(const Eigen::VectorXd& v) {
  return {v.data(), static_cast<std::size_t>(v.size())};
}

/// The seeded toy pair of sample s: q_j = N(seed, stream 2s, j),
/// k_j = N(seed, stream 2s + 1, j), j = 0..d−1 (core/random.hpp), folded into
/// the coefficients of the score at distance r with interleaved pairs:
///   ⟨R_m q, R_{m+r} k⟩ = Σ_i A_i cos(r θ_i) + B_i sin(r θ_i),
///   A_i = q_{2i} k_{2i} + q_{2i+1} k_{2i+1},  B_i = q_{2i+1} k_{2i} − q_{2i} k_{2i+1}.
void random_score_coefficients(int d, std::uint64_t seed, int samples, std::vector<double>& a,
                               std::vector<double>& b) {
  const auto half = static_cast<std::size_t>(d / 2);
  a.assign(static_cast<std::size_t>(samples) * half, 0.0);
  b.assign(static_cast<std::size_t>(samples) * half, 0.0);
  std::vector<double> q(2 * half), k(2 * half);
  for (int s = 0; s < samples; ++s) {
    const auto sq = static_cast<std::uint64_t>(2 * s);
    random_normals(seed, sq, 0, q);  // the same numbers as random_normal(seed, sq, j), the stream's key once
    random_normals(seed, sq + 1, 0, k);
    for (std::size_t i = 0; i < half; ++i) {
      const double q0 = q[2 * i], q1 = q[2 * i + 1], k0 = k[2 * i], k1 = k[2 * i + 1];
      a[static_cast<std::size_t>(s) * half + i] = q0 * k0 + q1 * k1;
      b[static_cast<std::size_t>(s) * half + i] = q1 * k0 - q0 * k1;
    }
  }
}

void check_random_args(int d, double base, std::uint64_t seed, int samples) {
  check_integer("d", d);
  check_real("base", base);
  check_integer("seed", static_cast<double>(seed));
  check_integer("samples", samples);
}

}  // namespace

// [SECTION] RoFormer's relative upper bound at one distance

// (1/(d/2))·Σ_{j=1}^{d/2} |S_j(r)|, S_j(r) = Σ_{k=0}^{j−1} e^{i r θ_k}: one
// running sum, its modulus accumulated after each term.
double rope_decay_bound(double distance, std::span<const double> thetas) {
  check_real("distance", distance);
  rope_check_thetas(thetas);
  double sr = 0, si = 0, acc = 0;
  for (double theta : thetas) {
    const double angle = distance * theta;
    sr += std::cos(angle);
    si += std::sin(angle);
    acc += std::sqrt(sr * sr + si * si);
  }
  return acc / static_cast<double>(thetas.size());
}

double rope_decay_bound(double distance, int d, double base) {
  check_real("distance", distance);
  const Eigen::VectorXd theta = rope_inverse_frequencies(d, base);
  return rope_decay_bound(distance, as_span(theta));
}

// [SECTION] The level of the bound for random phases
//
// With independent uniform phases S_j is a planar walk of j unit steps, and
// E|S_j| = ∫₀^∞ (1 − J₀(t)^j)/t² dt (the radial form of E|X| for an isotropic
// X whose projections have characteristic function J₀(t)^j). For j ≥ 32 the
// substitution t = u/√j and ln J₀(x) = −x²/4 − x⁴/64 − x⁶/576 − 11x⁸/49152 −
// 19x¹⁰/614400 − … give, term by term over Gaussian moments, the series
// √(πj)/2·Σ c_k/j^k below; what it leaves out comes from J₀'s lobes beyond
// its first zero, |J₀| ≤ 0.403 there, so it is below 0.403^j ≈ 2e-13 at
// j = 32. For 3 ≤ j < 32: Gauss–Legendre on panels (π/64 wide up to 4π,
// π/2 beyond) up to t ≈ 512, J₀ by the trapezoidal rule on its integral representation
// (1/π)∫₀^π cos(t·sin τ) dτ, 1024 nodes (error ~|J₁₀₂₄(t)|, nil for t ≤ 512),
// and the tail ∫_T^∞ as 1/T minus the mean of J₀^j's envelope,
// (2/(πt))^(j/2) times the mean of cos^j, C(j, j/2)/2^j for even j, 0 for odd
// (its oscillating rest: 1e-10 at j = 3, T ≈ 512, less for larger j).

namespace {

constexpr int kSeriesFrom = 32;

/// ∫₀^∞ (1 − J₀(t)^j)/t² dt for j = 0 … kSeriesFrom − 1, computed once.
const std::vector<double>& walk_means_by_quadrature() {
  static std::vector<double> means;
  static std::once_flag once;
  std::call_once(once, [] {
    constexpr double kPi = std::numbers::pi;
    constexpr double kEnd = 512.0;
    constexpr int kNodes = 1024;  // trapezoidal nodes for J₀ over a period of τ
    // 8-point Gauss–Legendre on [−1, 1]
    constexpr double gx[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363};
    constexpr double gw[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};
    auto j0 = [&](double t) {
      // (1/N)·Σ_k cos(t·sin(2πk/N)): a periodic integrand, so the trapezoidal
      // rule is exact up to |J_N(t)|. The quarter period suffices by symmetry.
      double sum = 0;
      for (int k = 0; k <= kNodes / 4; ++k) {
        const double w = (k == 0 || k == kNodes / 4) ? 1.0 : 2.0;
        sum += w * std::cos(t * std::sin(2 * kPi * k / kNodes));
      }
      return sum / (kNodes / 2.0);
    };
    means.assign(kSeriesFrom, 0.0);
    // Panels of π/64 up to 4π, where 1 − J₀(t)^j rises within t ~ 2/√j
    // (0.36 at j = 31), then of π/2.
    std::vector<std::pair<double, double>> panels;
    for (int k = 0; k < 256; ++k) panels.emplace_back(k * kPi / 64, (k + 1) * kPi / 64);
    for (double a = 4 * kPi; a < kEnd - 1e-9; a += kPi / 2) panels.emplace_back(a, a + kPi / 2);
    const double end = panels.back().second;  // the tail starts where the panels end
    for (const auto& [from, to] : panels) {
      const double mid = (from + to) / 2, half = (to - from) / 2;
      for (int g = 0; g < 8; ++g) {
        const double t = mid + (g < 4 ? -gx[g] : gx[g - 4]) * half;
        const double w = gw[g < 4 ? g : g - 4] * half;
        const double J = j0(t);
        double power = 1;  // J₀(t)^j
        for (int j = 1; j < kSeriesFrom; ++j) {
          power *= J;
          means[static_cast<std::size_t>(j)] += w * (1 - power) / (t * t);
        }
      }
    }
    double binom = 1;  // C(j, j/2)/2^j for even j
    for (int j = 1; j < kSeriesFrom; ++j) {
      double envelope = 0;
      if (j % 2 == 0) {
        binom = j == 2 ? 0.5 : binom * (j - 1) / j;  // C(j, j/2)/2^j = C(j−2, j/2−1)/2^(j−2) · (j−1)/j
        const double p = j / 2.0 + 1;
        envelope = std::pow(2 / kPi, j / 2.0) * binom / (p * std::pow(end, p));
      }
      means[static_cast<std::size_t>(j)] += 1 / end - envelope;
    }
    means[1] = 1.0;            // exact: |S_1| = 1
    means[2] = 4 / kPi;        // exact: |S_2| = |2 cos(φ/2)|
  });
  return means;
}

}  // namespace

double random_walk_mean_distance(int j) {
  if (j < 0) throw std::domain_error("random_walk_mean_distance: j < 0");
  if (j == 0) return 0.0;
  if (j < kSeriesFrom) return walk_means_by_quadrature()[static_cast<std::size_t>(j)];
  static constexpr double c[] = {1.0, 1.0 / 16, 19.0 / 1536, 25.0 / 24576, -20923.0 / 7864320,
                                 -306383.0 / 125829120, 301790533.0 / 253671505920.0};
  const double n = j;
  double sum = 0;
  for (int k = 6; k >= 0; --k) sum = sum / n + c[k];
  return std::sqrt(std::numbers::pi * n) / 2 * sum;
}

double rope_decay_bound_random_level(int d) {
  check_integer("d", d);
  const int half = d / 2;
  double sum = 0;
  for (int j = 1; j <= half; ++j) sum += random_walk_mean_distance(j);
  return sum / half / ((half + 1) / 2.0);
}

// [SECTION] Scores of q = k = ones and of seeded random q, k

// q = k = 1: every pair has A_i = 2, B_i = 0, so the score is Σ_i 2 cos(r θ_i)
// (the same in both layouts).
double rope_ones_score(double distance, std::span<const double> thetas) {
  check_real("distance", distance);
  rope_check_thetas(thetas);
  double sum = 0;
  for (double theta : thetas) sum += 2.0 * std::cos(distance * theta);
  return sum;
}

double rope_ones_score(double distance, int d, double base) {
  check_real("distance", distance);
  const Eigen::VectorXd theta = rope_inverse_frequencies(d, base);
  return rope_ones_score(distance, as_span(theta));
}

// (1/samples)·Σ_s |⟨R_m q_s, R_{m+r} k_s⟩| with seeded q_s, k_s ~ N(0, I_d).
// The score depends on r only (RoFormer eq. 16), so m drops out.
double rope_random_mean_abs_score(double distance, int d, double base, std::uint64_t seed, int samples) {
  double out = 0;
  rope_random_mean_abs_score_curve(std::span<const double>(&distance, 1), d, base, seed, samples,
                                   std::span<double>(&out, 1));
  return out;
}

void rope_random_mean_abs_score_curve(std::span<const double> distances, int d, double base, std::uint64_t seed,
                                      int samples, std::span<double> out) {
  check_random_args(d, base, seed, samples);
  check_real_items("distance", distances);
  if (out.size() != distances.size())
    throw InvalidParameter("distance", std::to_string(distances.size()) + " items",
                           "the output must hold one value per distance (" + std::to_string(out.size()) + ")");
  const Eigen::VectorXd theta = rope_inverse_frequencies(d, base);
  const auto half = static_cast<Eigen::Index>(theta.size());
  std::vector<double> a, b;
  random_score_coefficients(d, seed, samples, a, b);
  // Row s of A and B: sample s's coefficients (a[s·half + i]).
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> am(a.data(), samples, half);
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> bm(b.data(), samples, half);
  // Blocks of distances: cos and sin of r·θ_i once per (distance, pair), then
  // every sample's score at once, scores = A·C + B·S (Eigen's matrix
  // product, vectorised), and the mean of |score| over the samples.
  constexpr Eigen::Index kBlockDistances = 32;
  Eigen::MatrixXd c(half, kBlockDistances), sn(half, kBlockDistances), scores(samples, kBlockDistances);
  for (std::size_t j0 = 0; j0 < distances.size(); j0 += kBlockDistances) {
    const auto n = static_cast<Eigen::Index>(std::min<std::size_t>(kBlockDistances, distances.size() - j0));
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < half; ++i) {
        const double angle = distances[j0 + static_cast<std::size_t>(j)] * theta[i];
        c(i, j) = std::cos(angle);
        sn(i, j) = std::sin(angle);
      }
    scores.leftCols(n).noalias() = am * c.leftCols(n);
    scores.leftCols(n).noalias() += bm * sn.leftCols(n);
    for (Eigen::Index j = 0; j < n; ++j)
      out[j0 + static_cast<std::size_t>(j)] = scores.col(j).cwiseAbs().sum() / samples;
  }
}

// [SECTION] The bound for many distances

namespace {

constexpr int kBlock = 64;         // distances per block (SIMD lanes of the running sums)
constexpr int kTableAnchor = 16;   // step-table entries between exact sin/cos

using StepTable = Eigen::Array<double, kBlock, Eigen::Dynamic>;

/// Rows `from`..`to`−1 of column k of (re, im) = e^{i b Δ θ_k}: exact sin/cos
/// at every kTableAnchor-th b, complex products by e^{iΔθ_k} in between (row
/// b from row b − 1, filled before: each row is what one fill of 0..to gives).
void fill_step_table(double step, std::span<const double> thetas, StepTable& re, StepTable& im, int from, int to) {
  for (std::size_t k = 0; k < thetas.size(); ++k) {
    const auto col = static_cast<Eigen::Index>(k);
    const double wr = std::cos(step * thetas[k]), wi = std::sin(step * thetas[k]);
    for (int b = from; b < to; ++b) {
      if (b % kTableAnchor == 0) {
        const double angle = (static_cast<double>(b) * step) * thetas[k];
        re(b, col) = std::cos(angle);
        im(b, col) = std::sin(angle);
      } else {
        re(b, col) = re(b - 1, col) * wr - im(b - 1, col) * wi;
        im(b, col) = re(b - 1, col) * wi + im(b - 1, col) * wr;
      }
    }
  }
}

/// One run of `count` <= L distances r_0 + b·Δ: L running sums at once (the
/// smallest L of 8, 16, 32, 64 that holds the run, so a short run does not
/// pay for 64), from rows 0..L−1 of the step table.
template <int L>
void bound_run(double r0, std::size_t count, std::span<const double> thetas, const StepTable& step_re,
               const StepTable& step_im, double* out, double* ones) {
  using Lanes = Eigen::Array<double, L, 1>;
  Lanes sr = Lanes::Zero(), si = Lanes::Zero(), acc = Lanes::Zero();
  for (std::size_t k = 0; k < thetas.size(); ++k) {
    const double ar = std::cos(r0 * thetas[k]);
    const double ai = std::sin(r0 * thetas[k]);
    const auto pr = step_re.col(static_cast<Eigen::Index>(k)).template head<L>();
    const auto pi = step_im.col(static_cast<Eigen::Index>(k)).template head<L>();
    sr += ar * pr - ai * pi;
    si += ar * pi + ai * pr;
    acc += (sr.square() + si.square()).sqrt();
  }
  for (std::size_t b = 0; b < count; ++b) out[b] = acc[static_cast<Eigen::Index>(b)] / static_cast<double>(thetas.size());
  if (ones)
    for (std::size_t b = 0; b < count; ++b) ones[b] = 2 * sr[static_cast<Eigen::Index>(b)];
}

/// How many of distances[j..] (at most kBlock) form the progression
/// distances[j] + b·step, step = distances[j+1] − distances[j].
std::size_t progression_length(std::span<const double> distances, std::size_t j) {
  const std::size_t n = std::min<std::size_t>(kBlock, distances.size() - j);
  if (n < 2) return n;
  const double r0 = distances[j], step = distances[j + 1] - r0;
  std::size_t len = 2;
  while (len < n) {
    const double expected = r0 + static_cast<double>(len) * step;
    if (!(std::fabs(distances[j + len] - expected) <= 1e-12 * std::max(1.0, std::fabs(expected)))) break;
    ++len;
  }
  return len;
}

}  // namespace

// Runs of consecutive distances that form an arithmetic progression
// r_b = r_0 + b·Δ (up to kBlock of them, in 8, 16, 32 or 64 lanes) use
// e^{i r_b θ_k} = e^{i r_0 θ_k}·e^{i b Δ θ_k}:
// the second factor is a table built once per Δ (exact sin/cos every
// kTableAnchor entries, complex products by e^{iΔθ_k} in between), the first
// one sin/cos per pair per run. The inner loop runs over the run's distances
// (independent running sums, Eigen packets, packet sqrt). A distance that
// starts no progression (any list is accepted) uses rope_decay_bound's direct
// sum.
//
// Error of each term (u = 2^−53): the table entry is within
// (3·(kTableAnchor − 1) + 2)·√2·u ≈ 67u of e^{i b Δ θ_k} (anchor and w within
// √2·u, each complex product adds <= 2√2·u, Higham Lemma 3.5) plus the angle
// rounding u·|bΔθ_k|; the product with e^{i r_0 θ_k} (within √2·u + u·|r_0 θ_k|)
// adds 2√2·u. So |term − e^{i r_b θ_k}| <= 75u + u·(|r_0 θ_k| + |bΔθ_k|): no
// growth along the list. The sums then add the usual summation error.
void rope_decay_bound_curve(std::span<const double> distances, std::span<const double> thetas,
                            std::span<double> out) {
  rope_decay_bound_curve(distances, thetas, out, {});
}

void rope_decay_bound_curve(std::span<const double> distances, std::span<const double> thetas,
                            std::span<double> out, std::span<double> ones) {
  rope_check_thetas(thetas);
  check_real_items("distance", distances);
  if (out.size() != distances.size() || (!ones.empty() && ones.size() != distances.size()))
    throw InvalidParameter("distance", std::to_string(distances.size()) + " items",
                           "the output must hold one value per distance (" + std::to_string(out.size()) + ")");
  const bool want_ones = !ones.empty();
  const std::size_t half = thetas.size();
  const std::size_t n = distances.size();
  StepTable step_re(kBlock, static_cast<Eigen::Index>(half)), step_im(kBlock, static_cast<Eigen::Index>(half));
  double table_step = std::numeric_limits<double>::quiet_NaN();
  int table_rows = 0;  // rows of the table filled for table_step
  for (std::size_t j0 = 0; j0 < n;) {
    const std::size_t count = progression_length(distances, j0);
    if (count < 2) {
      out[j0] = rope_decay_bound(distances[j0], thetas);
      if (want_ones) ones[j0] = rope_ones_score(distances[j0], thetas);
      ++j0;
      continue;
    }
    const double r0 = distances[j0];
    const double step = distances[j0 + 1] - r0;
    const int lanes = count <= 8 ? 8 : count <= 16 ? 16 : count <= 32 ? 32 : kBlock;
    if (!(step == table_step)) table_step = step, table_rows = 0;
    if (table_rows < lanes) {
      fill_step_table(step, thetas, step_re, step_im, table_rows, lanes);
      table_rows = lanes;
    }
    double* o = out.data() + j0;
    double* w = want_ones ? ones.data() + j0 : nullptr;
    switch (lanes) {
      case 8: bound_run<8>(r0, count, thetas, step_re, step_im, o, w); break;
      case 16: bound_run<16>(r0, count, thetas, step_re, step_im, o, w); break;
      case 32: bound_run<32>(r0, count, thetas, step_re, step_im, o, w); break;
      default: bound_run<kBlock>(r0, count, thetas, step_re, step_im, o, w); break;
    }
    j0 += count;
  }
}

}  // namespace poslab::core
