// The tables the "sinusoidal" lesson shows beyond docs/CONTRACT.md §3
// (Vaswani et al. 2017 §3.5: ω_i = base^(−2i/d), PE[p, 2i] = sin(p·ω_i),
// PE[p, 2i+1] = cos(p·ω_i)). Every number through poslab_core.

#include <cmath>
#include <numbers>
#include <string>

#include "app/lessons/sinusoidal/setting.hpp"
#include "app/lessons/table.hpp"
#include "poslab/core/sinusoidal.hpp"

namespace poslab::app::tables {

namespace {

using core::InvalidParameter;
using core::Params;
using sinusoidal::kMaxCoreOffset;
using sinusoidal::kMaxCorePosition;

/// ω_i and λ_i = 2π/ω_i per pair i, with the two dimensions the pair fills.
Table sinusoidal_wavelengths(const Params& p) {
  const auto [d, base] = sinusoidal::encoding(p);
  Table t;
  t.columns = {"pair", "dim_sin", "dim_cos", "omega", "wavelength"};
  for (int i = 0; i < d / 2; ++i)
    t.add_row({static_cast<long long>(i), static_cast<long long>(2 * i), static_cast<long long>(2 * i + 1),
               core::sinusoidal_frequency(i, d, base), core::sinusoidal_wavelength(2 * i, d, base)});
  return t;
}

/// PE(n + Δ)·PE(n) (a dot product of two rows) next to Σᵢ cos(θᵢΔ) for every
/// offset k in `distance`: equal up to rounding, whatever n is.
Table sinusoidal_dot_table(const Params& p) {
  const auto [d, base] = sinusoidal::encoding(p);
  const double n = p.real("n");
  const auto distance = p.list("distance");
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

/// PE(m), PE(m + Δ) and M(Δ)·PE(m) per dimension, and their difference.
Table sinusoidal_shift_table(const Params& p) {
  const sinusoidal::ShiftRows s = sinusoidal::shift_rows(p);
  Table t;
  t.columns = {"dim", "pe_m", "pe_m_plus_k", "rotated", "difference"};
  for (int j = 0; j < s.e.d; ++j)
    t.add_row({static_cast<long long>(j), s.from[j], s.target[j], s.rotated[j], s.rotated[j] - s.target[j]});
  t.meta.emplace_back("max_abs_difference", (s.rotated - s.target).cwiseAbs().maxCoeff());
  return t;
}

// docs/CONTRACT.md §3
Table sinusoidal(const Params& p) {
  const auto [d, base] = sinusoidal::encoding(p);
  const auto pos = p.list("pos");
  Table t;
  t.columns = {"pos", "i", "value"};
  for (double m : pos)
    for (int i = 0; i < d; ++i) t.add_row({m, static_cast<long long>(i), core::sinusoidal_value(m, i, d, base)});
  return t;
}

// Their costs (docs/CONTRACT.md §3 "Budgets"): one unit per sinusoid evaluated.
double dims(const Params& p) { return static_cast<double>(p.integer("d")); }
/// d rows per position.
TableCost sinusoidal_cost(const Params& p) { return rows_of("pos", 3, 1, "1", dims(p)); }
TableCost sinusoidal_wavelengths_cost(const Params& p) { return fixed_rows(dims(p) / 2, 5); }
/// Two encodings of d dimensions and the closed form's d/2 cosines per
/// offset, and two rows allocated: 4·d + 16 units, as measured.
TableCost sinusoidal_dot_cost(const Params& p) { return rows_of("distance", 4, 4 * dims(p) + 16, "(4·d + 16)"); }
TableCost sinusoidal_shift_cost(const Params& p) { return fixed_rows(dims(p), 5, 4, "4"); }

}  // namespace

std::vector<TableDef> sinusoidal_lesson_tables() {
  return {
      {"sinusoidal", "PE(p), dimension j, of the sinusoidal encoding (columns pos = p, i = j)", {"d", "base", "pos"}, {{"pos", "0:9"}}, sinusoidal, sinusoidal_cost},
      {"sinusoidal-wavelengths", "frequency θᵢ and wavelength λᵢ = 2π/θᵢ of every sinusoidal pair i",
       {"d", "base"}, {}, sinusoidal_wavelengths, sinusoidal_wavelengths_cost},
      {"sinusoidal-dot", "PE(n + Δ)·PE(n) next to the closed form Σᵢ cos(θᵢΔ)",
       {"d", "base", "n", "distance"}, {{"distance", "0:16"}}, sinusoidal_dot_table, sinusoidal_dot_cost},
      {"sinusoidal-shift", "PE(m), PE(m + Δ) and M(Δ)·PE(m) per dimension j",
       {"d", "base", "m", "offset"}, {}, sinusoidal_shift_table, sinusoidal_shift_cost},
  };
}

}  // namespace poslab::app::tables
