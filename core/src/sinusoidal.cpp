// Sinusoidal absolute position encoding (Vaswani et al. 2017, "Attention Is
// All You Need", §3.5):
//   ω_i = base^(−2i/d),  i = 0 .. d/2 − 1
//   PE[p, 2i] = sin(p·ω_i),  PE[p, 2i+1] = cos(p·ω_i)
// (base = 10000 in the paper). Everything is computed in double, ω_i as
// std::pow(base, −2i/d) (not exp(−2i/d · ln base), which loses a few ulps at
// large i), and rounded to float only where a float result is asked for.

#include "poslab/core/sinusoidal.hpp"

#include <cmath>
#include <vector>
#include <numbers>
#include <string>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"

namespace poslab::core {

namespace {

/// The largest number of entries a positions × d matrix may have (2^25 doubles
/// are 256 MiB), and the largest d of the d × d shift matrix.
constexpr double kMaxMatrixEntries = 33554432.0;
constexpr int kMaxShiftMatrixSide = 4096;

void check_d_base(int d, double base) {
  check_integer("d", d);
  check_real("base", base);
}

void check_dim(int dim, int d) {
  if (dim < 0 || dim >= d)
    throw InvalidParameter("dims", std::to_string(dim), "must be a dimension in 0..d-1 = 0.." + std::to_string(d - 1),
                           Reason{"dims_in_range", {{"last", std::to_string(d - 1)}}, {}});
}

void check_pair(int pair, int d) {
  if (pair < 0 || pair >= d / 2)
    throw InvalidParameter("pair", std::to_string(pair),
                           "must be a pair index in 0..d/2-1 = 0.." + std::to_string(d / 2 - 1));
}

/// ω_i without checks.
double omega(int pair, int d, double base) { return std::pow(base, -2.0 * pair / d); }

/// PE[pos, dim] without checks.
double value_unchecked(double pos, int dim, int d, double base) {
  const double angle = pos * omega(dim / 2, d, base);
  return dim % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

}  // namespace

double sinusoidal_frequency(int pair, int d, double base) {
  check_d_base(d, base);
  check_pair(pair, d);
  return omega(pair, d, base);
}

Eigen::VectorXd sinusoidal_frequencies(int d, double base) {
  check_d_base(d, base);
  Eigen::VectorXd out(d / 2);
  for (int i = 0; i < d / 2; ++i) out[i] = omega(i, d, base);
  return out;
}

/// PE[pos, dim] = sin(pos·ω_{dim/2}) (dim even) or cos(pos·ω_{dim/2}) (dim odd);
/// pos is checked against `pos` (0..1e12), dim against 0..d−1 (key `dims`).
double sinusoidal_value(double pos, int dim, int d, double base) {
  check_d_base(d, base);
  check_real("pos", pos);
  check_dim(dim, d);
  return value_unchecked(pos, dim, d, base);
}

/// [sin(pos·ω_0), cos(pos·ω_0), sin(pos·ω_1), cos(pos·ω_1), …], computed in
/// double and rounded once to Scalar.
template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, 1> sinusoidal_row(double pos, int d, double base) {
  check_d_base(d, base);
  check_real("pos", pos);
  Eigen::Matrix<Scalar, Eigen::Dynamic, 1> out(d);
  for (int i = 0; i < d / 2; ++i) {
    const double angle = pos * omega(i, d, base);
    out[2 * i] = static_cast<Scalar>(std::sin(angle));
    out[2 * i + 1] = static_cast<Scalar>(std::cos(angle));
  }
  return out;
}

/// Row r = PE[positions[r], 0..d−1]. At most 2^25 entries (key `pos`).
template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> sinusoidal_matrix(std::span<const double> positions,
                                                                         int d, double base) {
  check_d_base(d, base);
  if (static_cast<double>(positions.size()) * d > kMaxMatrixEntries)
    throw InvalidParameter("pos", std::to_string(positions.size()) + " positions",
                           "at most " + format_number(std::floor(kMaxMatrixEntries / d)) + " positions at d = " +
                               std::to_string(d) + " (2^25 entries)",
                           Reason{"max_positions_at_d",
                                  {{"n", std::to_string(positions.size())},
                                   {"max", format_number(std::floor(kMaxMatrixEntries / d))},
                                   {"d", std::to_string(d)}},
                                  "positions"});
  for (double p : positions) check_real("pos", p);
  const Eigen::VectorXd omegas = sinusoidal_frequencies(d, base);
  Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> out(static_cast<Eigen::Index>(positions.size()), d);
  for (int i = 0; i < d / 2; ++i)
    for (std::size_t r = 0; r < positions.size(); ++r) {
      const double angle = positions[r] * omegas[i];
      const auto row = static_cast<Eigen::Index>(r);
      out(row, 2 * i) = static_cast<Scalar>(std::sin(angle));
      out(row, 2 * i + 1) = static_cast<Scalar>(std::cos(angle));
    }
  return out;
}

template Eigen::Matrix<float, Eigen::Dynamic, 1> sinusoidal_row<float>(double, int, double);
template Eigen::Matrix<double, Eigen::Dynamic, 1> sinusoidal_row<double>(double, int, double);
template Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic> sinusoidal_matrix<float>(std::span<const double>, int,
                                                                                        double);
template Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic> sinusoidal_matrix<double>(std::span<const double>,
                                                                                          int, double);

/// λ = 2π / ω_{dim/2} tokens: base^(2i/d)·2π, from 2π (i = 0) to nearly
/// 2π·base (seed 003: d = 8, base = 10^4 gives T_0 = 2π, T_3 = 2π·1000).
double sinusoidal_wavelength(int dim, int d, double base) {
  check_d_base(d, base);
  check_dim(dim, d);
  return 2.0 * std::numbers::pi / omega(dim / 2, d, base);
}

/// PE_m · PE_n = Σ_j PE[m, j]·PE[n, j], as a plain dot product of the two rows.
/// m and n are checked against the contract keys `m`, `n` (0..1e12).
double sinusoidal_dot(double m, double n, int d, double base) {
  check_d_base(d, base);
  check_real("m", m);
  check_real("n", n);
  double sum = 0;
  for (int i = 0; i < d / 2; ++i) {
    const double w = omega(i, d, base);
    sum += std::sin(m * w) * std::sin(n * w) + std::cos(m * w) * std::cos(n * w);
  }
  return sum;
}

/// Σ_{i=0}^{d/2−1} cos(ω_i k), k = m − n (cos(A − B) = cos A cos B + sin A sin B
/// per pair; seed 003 §2.3.2–2.3.3 shows one pair). k is checked against
/// `offset` (−1e9..1e9).
double sinusoidal_dot_closed_form(double k, int d, double base) {
  check_d_base(d, base);
  check_real("offset", k);
  double sum = 0;
  for (int i = 0; i < d / 2; ++i) sum += std::cos(omega(i, d, base) * k);
  return sum;
}

/// See the header for the rotation and its error bound. The rotation runs
/// over contiguous arrays (vectorised); the sum is Eigen's (pairwise packets).
void sinusoidal_dot_closed_form_curve(double first, double step, int d, double base, std::span<double> out) {
  check_d_base(d, base);
  if (out.empty()) return;
  const double last = first + static_cast<double>(out.size() - 1) * step;
  check_real("pos", std::abs(first));
  check_real("pos", std::abs(last));
  const Eigen::ArrayXd omegas = sinusoidal_frequencies(d, base).array();
  const Eigen::ArrayXd step_cos = (omegas * step).cos();
  const Eigen::ArrayXd step_sin = (omegas * step).sin();
  Eigen::ArrayXd c(omegas.size()), s(omegas.size()), next_c(omegas.size());
  for (std::size_t j = 0; j < out.size(); ++j) {
    const double k = first + static_cast<double>(j) * step;
    if (j % kSinusoidalDotReanchor == 0) {
      for (Eigen::Index i = 0; i < omegas.size(); ++i) {
        const double angle = omegas[i] * k;
        c[i] = std::cos(angle);
        s[i] = std::sin(angle);
      }
    } else {
      next_c = c * step_cos - s * step_sin;
      s = s * step_cos + c * step_sin;
      c = next_c;
    }
    out[j] = c.sum();
  }
}

/// Block i (rows and columns 2i, 2i+1) = [[cos ω_i k, sin ω_i k], [−sin ω_i k,
/// cos ω_i k]], from sin(a + b) = sin a cos b + cos a sin b and
/// cos(a + b) = cos a cos b − sin a sin b (seed 003 §2.3.1, per pair). M(k) is a
/// rotation (orthogonal, M(k)ᵀ = M(−k)) and M(a)·M(b) = M(a + b). k is checked
/// against `offset`; d <= 4096 (the matrix is d × d).
Eigen::MatrixXd sinusoidal_shift_matrix(double k, int d, double base) {
  check_d_base(d, base);
  check_real("offset", k);
  if (d > kMaxShiftMatrixSide)
    throw InvalidParameter("d", std::to_string(d),
                           "must be <= " + std::to_string(kMaxShiftMatrixSide) + " for the d x d shift matrix",
                           Reason{"max_shift_matrix", {{"max", std::to_string(kMaxShiftMatrixSide)}}, {}});
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(d, d);
  for (int i = 0; i < d / 2; ++i) {
    const double angle = omega(i, d, base) * k;
    const double c = std::cos(angle);
    const double s = std::sin(angle);
    out(2 * i, 2 * i) = c;
    out(2 * i, 2 * i + 1) = s;
    out(2 * i + 1, 2 * i) = -s;
    out(2 * i + 1, 2 * i + 1) = c;
  }
  return out;
}

/// out[r·dims.size() + c] = float(PE[positions[r], dims[c]]), each entry from
/// double sin/cos (error <= half a float ulp).
void sinusoidal_grid(std::span<const double> positions, std::span<const int> dims, int d, double base,
                     std::span<float> out) {
  check_d_base(d, base);
  if (out.size() != positions.size() * dims.size())
    throw InvalidParameter("out", std::to_string(out.size()) + " floats",
                           "must hold positions x dims = " + std::to_string(positions.size() * dims.size()) +
                               " floats");
  for (double p : positions) check_real("pos", p);
  for (int dim : dims) check_dim(dim, d);
  // ω of each dim once (a pow each), not once per cell: the same numbers as
  // value_unchecked, which computes the same ω.
  std::vector<double> omegas(dims.size());
  for (std::size_t j = 0; j < dims.size(); ++j) omegas[j] = omega(dims[j] / 2, d, base);
  std::size_t k = 0;
  for (double p : positions)
    for (std::size_t j = 0; j < dims.size(); ++j) {
      const double angle = p * omegas[j];
      out[k++] = static_cast<float>(dims[j] % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
}

/// Row p+1 from row p by the angle-addition rotation of every pair:
///   c_{p+1} = c_p·cos ω − s_p·sin ω,  s_{p+1} = s_p·cos ω + c_p·sin ω,
/// in double, re-anchored with std::sin/std::cos(p·ω) every
/// kSinusoidalReanchor rows. One fused pass per row over contiguous arrays
/// (the compiler vectorises it): rotate the pairs, round to float and write
/// the row interleaved (sin, cos) — no allocation after the first row.
///
/// Error bound (absolute, against float(std::sin(p·ω)) in double): one step
/// adds at most ~4 ulp of double (≈ 4.5e-16) to the pair's angle and length,
/// so the kSinusoidalReanchor − 1 = 511 steps after an anchor stay below
/// 2.3e-13; the difference between our angle and the reference's rounded p·ω
/// is at most ulp(p·ω)/2 <= 1.2e-10 for p < 2^20, ω <= 1; the final rounding
/// to float adds <= 2^-25 ≈ 3e-8 (|PE| <= 1). Total < 1e-7, well inside the
/// documented 1e-6.
void sinusoidal_table(std::span<float> out, std::int64_t positions, int d, double base) {
  check_d_base(d, base);
  check_integer("positions", static_cast<double>(positions));
  if (static_cast<std::int64_t>(out.size()) != positions * d)
    throw InvalidParameter("out", std::to_string(out.size()) + " floats",
                           "must hold positions x d = " + std::to_string(positions * d) + " floats");
  const auto pairs = static_cast<std::size_t>(d / 2);
  const Eigen::ArrayXd omegas = sinusoidal_frequencies(d, base).array();
  const Eigen::ArrayXd step_cos = omegas.cos();
  const Eigen::ArrayXd step_sin = omegas.sin();
  Eigen::ArrayXd c(static_cast<Eigen::Index>(pairs)), s(static_cast<Eigen::Index>(pairs));
  const double* __restrict wc = step_cos.data();
  const double* __restrict ws = step_sin.data();
  double* __restrict cc = c.data();
  double* __restrict ss = s.data();
  for (std::int64_t p = 0; p < positions; ++p) {
    float* __restrict row = out.data() + p * d;
    if (p % kSinusoidalReanchor == 0) {
      for (std::size_t i = 0; i < pairs; ++i) {
        const double angle = static_cast<double>(p) * omegas[static_cast<Eigen::Index>(i)];
        cc[i] = std::cos(angle);
        ss[i] = std::sin(angle);
        row[2 * i] = static_cast<float>(ss[i]);
        row[2 * i + 1] = static_cast<float>(cc[i]);
      }
      continue;
    }
    for (std::size_t i = 0; i < pairs; ++i) {
      const double ci = cc[i] * wc[i] - ss[i] * ws[i];
      const double si = ss[i] * wc[i] + cc[i] * ws[i];
      cc[i] = ci;
      ss[i] = si;
      row[2 * i] = static_cast<float>(si);
      row[2 * i + 1] = static_cast<float>(ci);
    }
  }
}

}  // namespace poslab::core
