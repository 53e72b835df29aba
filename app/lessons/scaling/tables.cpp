// The tables the "scaling" lesson shows beyond docs/CONTRACT.md §3:
// - yarn-interpolation: one row per pair — θ_i, λ_i, turns within L
//   (r_i = L/λ_i, YaRN §3.2), the ramps of the by-parts methods and θ′_i under
//   every method, all from core::rope_scaling_table;
// - position-mapping: target positions under PI (m/s) and the notes' γ map
//   (m·(1/s)^γ), flagging the mapped positions that leave the trained range [0, L];
// - notes-yarn-check: the numbers printed in the notes' YaRN section (seed 002
//   §4.4.2) next to what their own formulas give. Row ids are explained in
//   the lesson's translation file as "scaling.cell.<id>".

#include <array>
#include <cmath>
#include <optional>
#include <string>

#include "app/lessons/scaling/setting.hpp"
#include "app/lessons/table.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/scaling.hpp"

namespace poslab::app::tables {

namespace {

using core::Params;
using core::ScalingMethod;
using scaling::scaling_config;
using scaling::trained_context;

/// The methods with a θ′ column, in the lesson's order (none is θ itself).
constexpr std::array kScaled = {ScalingMethod::linear, ScalingMethod::ntk,        ScalingMethod::dynamic,
                                ScalingMethod::yarn,   ScalingMethod::yarn_paper, ScalingMethod::llama3,
                                ScalingMethod::longrope, ScalingMethod::seed};

std::string column_suffix(ScalingMethod m) {
  std::string name = core::scaling_method_name(m);
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

/// Every method's table; a method undefined at these parameters (NTK needs
/// d ≥ 4, the notes' divisor may overflow) makes the whole table refuse with
/// core's message, so no column is silently missing.
Table yarn_interpolation(const Params& p) {
  const core::ScalingTable none = core::rope_scaling_table(scaling_config(p, ScalingMethod::none));
  std::vector<core::ScalingTable> scaled;
  for (ScalingMethod m : kScaled) scaled.push_back(core::rope_scaling_table(scaling_config(p, m)));
  const auto at = [&](ScalingMethod m) -> const core::ScalingTable& {
    for (std::size_t k = 0; k < kScaled.size(); ++k)
      if (kScaled[k] == m) return scaled[k];
    return none;
  };
  const core::ScalingTable& yarn = at(ScalingMethod::yarn);
  const double L = trained_context(p);
  Table t;
  t.columns = {"pair", "theta", "wavelength", "rotations_in_l", "yarn_regime", "ramp_yarn", "ramp_yarn_paper", "ramp_llama3"};
  for (ScalingMethod m : kScaled) t.columns.push_back("scaled_theta_" + column_suffix(m));
  for (Eigen::Index i = 0; i < none.theta.size(); ++i) {
    // HF's ramp: 1 keeps the pair (extrapolation), 0 divides it by s (interpolation).
    const double ramp = yarn.ramp[i];
    const char* regime = ramp == 1 ? "extrapolate" : ramp == 0 ? "interpolate" : "blend";
    std::vector<Cell> row = {static_cast<long long>(i), none.theta[i], none.wavelength[i], L / none.wavelength[i],
                             std::string(regime), ramp, at(ScalingMethod::yarn_paper).ramp[i],
                             at(ScalingMethod::llama3).ramp[i]};
    for (const core::ScalingTable& s : scaled) row.emplace_back(s.scaled_theta[i]);
    t.add_row(std::move(row));
  }
  const int d = static_cast<int>(p.integer("d"));
  const double base = p.real("base");
  t.meta.emplace_back("correction_low", *yarn.correction_low);
  t.meta.emplace_back("correction_high", *yarn.correction_high);
  // low > high: HF's ramp is 0 for every pair, so it divides every pair by s
  // although the slowest turns more than β_fast times within L (the figures say so).
  t.meta.emplace_back("correction_range_inverted", *yarn.correction_low > *yarn.correction_high);
  t.meta.emplace_back("correction_low_exact", core::yarn_find_correction_dim(p.real("beta_fast"), d, base, L));
  t.meta.emplace_back("correction_high_exact", core::yarn_find_correction_dim(p.real("beta_slow"), d, base, L));
  t.meta.emplace_back("attention_factor_yarn", yarn.attention_factor);
  t.meta.emplace_back("attention_factor_yarn_paper", at(ScalingMethod::yarn_paper).attention_factor);
  t.meta.emplace_back("attention_factor_longrope", at(ScalingMethod::longrope).attention_factor);
  t.meta.emplace_back("effective_base_ntk", at(ScalingMethod::ntk).effective_base);
  t.meta.emplace_back("effective_base_dynamic", at(ScalingMethod::dynamic).effective_base);
  t.meta.emplace_back("effective_factor_dynamic", at(ScalingMethod::dynamic).effective_factor);
  t.meta.emplace_back("notes_divisor", none.theta[0] / at(ScalingMethod::seed).scaled_theta[0]);
  return t;
}

/// m ↦ m/s (PI) and m ↦ m·(1/s)^γ (the notes); a mapped position is inside
/// the trained range when it is ≤ L. The γ map leaves it above L·s^γ.
Table position_mapping(const Params& p) {
  const auto [s, gamma, L, L_target] = scaling::position_maps(p);
  const auto pos = p.list("pos");
  Table t;
  t.columns = {"pos", "linear", "gamma_mapped", "linear_in_trained_range", "gamma_in_trained_range"};
  for (double m : pos) {
    const double lin = core::position_map_linear(m, s);
    const double gam = core::position_map_gamma(m, s, gamma);
    t.add_row({m, lin, gam, lin <= L, gam <= L});
  }
  t.meta.emplace_back("trained_range", L);
  t.meta.emplace_back("extended_context", L_target);
  t.meta.emplace_back("gamma_slope", std::pow(1.0 / s, gamma));
  t.meta.emplace_back("gamma_leaves_trained_range_above", core::position_map_gamma_limit(L, s, gamma));
  return t;
}

/// The notes' printed numbers at their own parameters (d = 128, base = 10000,
/// L = 4096, L′ = 32768, s = 8, t = 0.25, γ = 0.8) against core's values of
/// the same formulas. notes_value is what the notes print (seed 002 §4.4.2);
/// gamma_map_32767's 4095 is the range their "target [0, 32767] → original
/// [0, 4095]" picture implies.
Table notes_yarn_check(const Params&) {
  constexpr double kS = 8, kGamma = 0.8;
  core::ScalingConfig seed;
  seed.method = ScalingMethod::seed;
  seed.d = 128, seed.base = 10000, seed.factor = kS, seed.original_context = 4096, seed.temperature = 0.25;
  const core::ScalingTable notes_freq = core::rope_scaling_table(seed);
  struct Row {
    const char* id;
    double notes;  ///< as printed
    int digits;    ///< significant digits printed
    double truth;
  };
  const Row rows[] = {
      {"gamma_slope", 0.209, 3, core::position_map_gamma(1, kS, kGamma)},
      {"gamma_map_100", 42, 2, core::position_map_gamma(100, kS, kGamma)},
      {"gamma_map_1000", 209, 3, core::position_map_gamma(1000, kS, kGamma)},
      {"gamma_map_30000", 6270, 3, core::position_map_gamma(30000, kS, kGamma)},
      {"linear_map_30000", 3750, 3, core::position_map_linear(30000, kS)},
      {"gamma_map_32767", 4095, 4, core::position_map_gamma(32767, kS, kGamma)},
      {"seed_theta_pair_32", 0.0097, 2, notes_freq.scaled_theta[32]},
  };
  Table t;
  t.columns = {"quantity", "notes_value", "true_value", "relative_error", "notes_correct"};
  for (const Row& r : rows) {
    // Right when the true value, rounded to the digits the notes print, is what they print.
    const double scale = std::pow(10.0, r.digits - 1 - std::floor(std::log10(std::abs(r.truth))));
    const bool correct = std::abs(std::round(r.truth * scale) / scale - r.notes) <= 1e-9 * std::abs(r.notes);
    t.add_row({std::string(r.id), r.notes, r.truth, (r.notes - r.truth) / r.truth, correct});
  }
  return t;
}

// docs/CONTRACT.md §3
Table rope_scaling(const Params& p) {
  const core::ScalingConfig c = scaling_config(p, scaling::selected_method(p));
  const core::ScalingTable s = core::rope_scaling_table(c);
  Table t;
  t.columns = {"pair", "theta", "scaled_theta", "wavelength", "scaled_wavelength", "ramp"};
  for (Eigen::Index i = 0; i < s.theta.size(); ++i)
    t.add_row({static_cast<long long>(i), s.theta[i], s.scaled_theta[i], s.wavelength[i], s.scaled_wavelength[i],
               s.ramp[i]});
  t.meta.emplace_back("attention_factor", s.attention_factor);
  if (s.correction_low) t.meta.emplace_back("correction_low", *s.correction_low);
  if (s.correction_high) t.meta.emplace_back("correction_high", *s.correction_high);
  if (s.correction_low && s.correction_high)  // low > high: HF divides every pair by s (see yarn-interpolation)
    t.meta.emplace_back("correction_range_inverted", *s.correction_low > *s.correction_high);
  if (c.method == core::ScalingMethod::ntk || c.method == core::ScalingMethod::dynamic)
    t.meta.emplace_back("effective_base", s.effective_base);
  if (s.uses_long_factor) t.meta.emplace_back("factor_list", std::string(*s.uses_long_factor ? "long" : "short"));
  // The divisor the ramp interpolates towards (= factor unless a method divides
  // some θ by more, e.g. dynamic NTK at seq_len ≫ L): θ' = ramp·θ + (1 − ramp)·θ/effective_factor.
  t.meta.emplace_back("effective_factor", s.effective_factor);
  return t;
}

Table position_map(const Params& p) {
  const scaling::PositionMaps maps = scaling::position_maps(p);
  const double factor = maps.s, gamma = maps.gamma, L = maps.L;
  const auto pos = p.list("pos");
  Table t;
  t.columns = {"pos", "linear", "gamma_mapped"};
  for (double m : pos) t.add_row({m, core::position_map_linear(m, factor), core::position_map_gamma(m, factor, gamma)});
  // m·s^(−γ) > L exactly when m > L·s^γ: such positions leave the trained range.
  t.meta.emplace_back("trained_range", L);
  t.meta.emplace_back("gamma_leaves_trained_range_above", core::position_map_gamma_limit(L, factor, gamma));
  return t;
}

double pairs(const Params& p) { return static_cast<double>(p.integer("d") / 2); }
TableCost rope_scaling_cost(const Params& p) { return fixed_rows(pairs(p), 6); }
/// Eight methods' tables, one row per pair.
TableCost yarn_interpolation_cost(const Params& p) { return fixed_rows(pairs(p), 15, 8, "8"); }
TableCost position_map_cost(const Params&) { return rows_of("pos", 3); }
TableCost position_mapping_cost(const Params&) { return rows_of("pos", 5); }
TableCost notes_yarn_check_cost(const Params&) { return fixed_rows(7, 5); }

}  // namespace

std::vector<TableDef> scaling_lesson_tables() {
  return {
      {"rope-scaling", "per-pair frequencies under a context-extension method",
       {"method", "d", "base", "factor", "original_context", "seq_len", "beta_fast", "beta_slow", "mscale",
        "mscale_all_dim", "low_freq_factor", "high_freq_factor", "temperature", "truncate", "attention_factor",
        "short_factor", "long_factor"},
       {}, rope_scaling, rope_scaling_cost},
      {"position-map", "target positions mapped by PI (linear) and by the notes' gamma formula",
       {"original_context", "factor", "gamma", "pos"},
       {{"pos", "100,1000,4096,8192,16384,30000,32768"}}, position_map, position_map_cost},
      {"yarn-interpolation", "per pair: theta, wavelength, turns within L, ramps and theta' under every method",
       {"d", "base", "factor", "original_context", "seq_len", "beta_fast", "beta_slow", "mscale", "mscale_all_dim",
        "low_freq_factor", "high_freq_factor", "temperature", "truncate", "attention_factor", "short_factor",
        "long_factor"},
       {},
       yarn_interpolation, yarn_interpolation_cost},
      {"position-mapping", "target positions under PI and the notes' gamma map, inside or outside the trained range",
       {"original_context", "factor", "gamma", "pos"},
       {{"pos", "100,1000,4096,8192,16384,30000,32768"}},
       position_mapping, position_mapping_cost},
      {"notes-yarn-check", "the notes' printed YaRN numbers against their own formulas", {}, {}, notes_yarn_check, notes_yarn_check_cost},
  };
}

}  // namespace poslab::app::tables
