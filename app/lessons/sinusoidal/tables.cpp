// The tables the "sinusoidal" lesson shows beyond docs/CONTRACT.md §3
// (Vaswani et al. 2017 §3.5: ω_i = base^(−2i/d), PE[p, 2i] = sin(p·ω_i),
// PE[p, 2i+1] = cos(p·ω_i)). Every number through poslab_core.

#include <cmath>
#include <numbers>
#include <string>

#include "app/lessons/table.hpp"
#include "poslab/core/sinusoidal.hpp"

namespace poslab::app::tables {

namespace {

using core::InvalidParameter;
using core::Params;

constexpr int kMaxCoreShiftSide = 512;    // d × d through core up to this (as the lesson's figure)
constexpr double kMaxCoreOffset = 1e9;    // core checks offsets against `offset`
constexpr double kMaxCorePosition = 1e12; // and positions against `pos`
constexpr double kMaxWork = 33554432;     // sin/cos evaluations one table may take (2^25)

/// PE(pos) for any finite pos: core's row at |pos| with the sin entries
/// negated for pos < 0 (sin is odd, cos even); past 1e12 the same formula with
/// core's ω_i (as the lesson's figure does).
Eigen::VectorXd pe_row(double pos, int d, double base) {
  Eigen::VectorXd row(d);
  if (std::abs(pos) <= kMaxCorePosition) {
    row = core::sinusoidal_row<double>(std::abs(pos), d, base);
  } else {
    const Eigen::VectorXd omega = core::sinusoidal_frequencies(d, base);
    for (int i = 0; i < d / 2; ++i)
      row[2 * i] = std::sin(std::abs(pos) * omega[i]), row[2 * i + 1] = std::cos(std::abs(pos) * omega[i]);
  }
  if (pos < 0)
    for (int i = 0; i < d; i += 2) row[i] = -row[i];
  return row;
}

/// M(k)·v: core's d × d matrix up to d = 512, the same 2 × 2 blocks applied
/// pair by pair above.
Eigen::VectorXd apply_shift(double k, const Eigen::VectorXd& v, int d, double base) {
  if (d <= kMaxCoreShiftSide) return core::sinusoidal_shift_matrix(k, d, base) * v;
  const Eigen::VectorXd omega = core::sinusoidal_frequencies(d, base);
  Eigen::VectorXd out(d);
  for (int i = 0; i < d / 2; ++i) {
    const double c = std::cos(omega[i] * k), s = std::sin(omega[i] * k);
    out[2 * i] = c * v[2 * i] + s * v[2 * i + 1];
    out[2 * i + 1] = -s * v[2 * i] + c * v[2 * i + 1];
  }
  return out;
}

/// ω_i and λ_i = 2π/ω_i per pair i, with the two dimensions the pair fills.
Table sinusoidal_wavelengths(const Params& p) {
  const int d = static_cast<int>(p.integer("d"));
  const double base = p.real("base");
  Table t;
  t.columns = {"pair", "dim_sin", "dim_cos", "omega", "wavelength"};
  for (int i = 0; i < d / 2; ++i)
    t.add_row({static_cast<long long>(i), static_cast<long long>(2 * i), static_cast<long long>(2 * i + 1),
               core::sinusoidal_frequency(i, d, base), core::sinusoidal_wavelength(2 * i, d, base)});
  return t;
}

/// PE_{n+k}·PE_n (a dot product of two rows) next to Σ_i cos(ω_i k) for every
/// offset k in `distance`: equal up to rounding, whatever n is.
Table sinusoidal_dot_table(const Params& p) {
  const int d = static_cast<int>(p.integer("d"));
  const double base = p.real("base");
  const double n = p.real("n");
  const auto distance = p.list("distance");
  if (static_cast<double>(distance.size()) * d > kMaxWork)
    throw InvalidParameter("distance", std::to_string(distance.size()) + " offsets",
                           "at d = " + std::to_string(d) + " at most " +
                               core::format_number(std::floor(kMaxWork / d)) + " offsets; ask for fewer",
                           core::Reason{"max_offsets_at_d",
                                        {{"d", std::to_string(d)},
                                         {"max", core::format_number(std::floor(kMaxWork / d))},
                                         {"n", std::to_string(distance.size())}},
                                        "offsets"});
  Table t;
  t.columns = {"offset", "dot_product", "closed_form", "difference"};
  for (double k : distance) {
    if (k > kMaxCoreOffset || n + k > kMaxCorePosition)
      throw InvalidParameter("distance", core::format_number(k),
                             "offsets must be <= 1e9 and n + offset <= 1e12 in this table",
                             core::Reason{"offset_max", {}, {}});
    const double dot = core::sinusoidal_dot(n + k, n, d, base);
    const double closed = core::sinusoidal_dot_closed_form(k, d, base);
    t.add_row({k, dot, closed, dot - closed});
  }
  t.meta.emplace_back("anchor_n", n);
  t.meta.emplace_back("dot_at_offset_0", d / 2.0);
  return t;
}

/// PE(m), PE(m + k) and M(k)·PE(m) per dimension, and their difference.
Table sinusoidal_shift_table(const Params& p) {
  const int d = static_cast<int>(p.integer("d"));
  const double base = p.real("base");
  const double m = p.real("m"), k = p.real("offset");
  const Eigen::VectorXd from = pe_row(m, d, base);
  const Eigen::VectorXd target = pe_row(m + k, d, base);
  const Eigen::VectorXd rotated = apply_shift(k, from, d, base);
  Table t;
  t.columns = {"dim", "pe_m", "pe_m_plus_k", "rotated", "difference"};
  for (int j = 0; j < d; ++j)
    t.add_row({static_cast<long long>(j), from[j], target[j], rotated[j], rotated[j] - target[j]});
  t.meta.emplace_back("max_abs_difference", (rotated - target).cwiseAbs().maxCoeff());
  return t;
}

// docs/CONTRACT.md §3
Table sinusoidal(const Params& p) {
  const int d = static_cast<int>(p.integer("d"));
  const double base = p.real("base");
  const auto pos = p.list("pos");
  check_table_rows("pos", static_cast<double>(pos.size()) * d);
  Table t;
  t.columns = {"pos", "i", "value"};
  for (double m : pos)
    for (int i = 0; i < d; ++i) t.add_row({m, static_cast<long long>(i), core::sinusoidal_value(m, i, d, base)});
  return t;
}

}  // namespace

std::vector<TableDef> sinusoidal_lesson_tables() {
  return {
      {"sinusoidal", "PE[pos, i] of the sinusoidal encoding", {"d", "base", "pos"}, {{"pos", "0:9"}}, sinusoidal},
      {"sinusoidal-wavelengths", "frequency omega_i and wavelength 2pi/omega_i of every sinusoidal pair",
       {"d", "base"}, {}, sinusoidal_wavelengths},
      {"sinusoidal-dot", "PE_{n+k} . PE_n next to the closed form sum_i cos(omega_i k)",
       {"d", "base", "n", "distance"}, {{"distance", "0:16"}}, sinusoidal_dot_table},
      {"sinusoidal-shift", "PE(m), PE(m+k) and M(k) PE(m) per dimension",
       {"d", "base", "m", "offset"}, {}, sinusoidal_shift_table},
  };
}

}  // namespace poslab::app::tables
