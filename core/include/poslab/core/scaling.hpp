#pragma once
// Context extension: how each method rescales RoPE's frequencies so a model
// trained on L tokens reads L' = s·L tokens (s = factor).
//
//   none      θ'_i = θ_i
//   linear    θ'_i = θ_i / s                         (position interpolation, Chen et al. 2023)
//   ntk       base' = base·s^(d/(d−2))                (NTK-aware, bloc97 2023)
//   dynamic   base' = base·((s·seq_len/L) − (s − 1))^(d/(d−2)), seq_len = max(seq_len, L)
//                                                     (HF `_compute_dynamic_ntk_parameters`)
//   yarn      HF `_compute_yarn_parameters` / YaRN authors' code: ramp linear in the pair
//             index between floor(low) and ceil(high) correction dims,
//             θ'_i = θ_i·ramp_i + (θ_i/s)·(1 − ramp_i); attention factor 0.1·ln s + 1
//             (or get_mscale(s, mscale)/get_mscale(s, mscale_all_dim) when both are set);
//             truncate = false (HF's newer flag, gpt-oss) keeps the correction range unrounded
//   yarn-paper the paper's γ(r): ramp linear in r_i = L/λ_i between α = beta_slow and
//             β = beta_fast (Peng et al. 2023, eq. 17–18), no floor/ceil
//   llama3    HF `_compute_llama3_parameters`: keep λ < L/high_freq_factor, divide
//             λ > L/low_freq_factor by s, smooth in between
//   longrope  HF `_compute_longrope_parameters` (Phi-3; first called `su`): every pair
//             has its own divisor, θ'_i = θ_i / ext_i with ext = long_factor when
//             seq_len > L, else short_factor; attention factor √(1 + ln s / ln L)
//             (1 for s ≤ 1). Without lists: short_factor = 1, long_factor = s for
//             every pair (LongRoPE reduced to PI beyond L).
//   seed      the notes' formula (seed 002 §4.1): θ'_i = θ_i / s^(t/(d/2))
//
// `ramp` is the weight of the unscaled frequency:
//   θ'_i = ramp_i·θ_i + (1 − ramp_i)·θ_i/s,
// defined for every method by solving this for ramp_i (1 when s = 1); the
// by-parts methods (linear, yarn, yarn-paper, llama3) give it directly (0 for
// linear, HF's `1 − linear_ramp_factor` for yarn, γ(r) for yarn-paper, the
// smooth factor for llama3). ramp stays in [0, 1]: when a method divides some
// θ_i by more than s (dynamic NTK once seq_len > ~2L, since its effective
// factor is s·seq_len/L − (s − 1); the seed formula once t > d/2) the solve
// uses that larger divisor instead, reported as `effective_factor`:
//   θ'_i = ramp_i·θ_i + (1 − ramp_i)·θ_i/effective_factor.
// longrope's lists may divide a pair by more than s too (effective_factor =
// max(s, max ext_i)); a list entry below 1 speeds its pair up, which no ramp in
// [0, 1] describes: that pair's ramp is clamped to 1.
//
// yarn and longrope take an explicit `attention_factor` (> 0) in place of the
// computed one, as HF reads rope_scaling["attention_factor"].

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <Eigen/Dense>

namespace poslab::core {

enum class ScalingMethod { none, linear, ntk, dynamic, yarn, yarn_paper, llama3, seed, longrope };

/// "yarn-paper" ↔ ScalingMethod::yarn_paper, etc. ("seed" and "su" are accepted as the
/// older names of "notes" and "longrope"). Raises InvalidParameter("method", ...).
ScalingMethod parse_scaling_method(std::string_view word);
const char* scaling_method_name(ScalingMethod method);

struct ScalingConfig {
  ScalingMethod method = ScalingMethod::yarn;
  int d = 128;
  double base = 10000;
  double factor = 8;                 ///< s = L'/L
  long long original_context = 4096; ///< L
  long long seq_len = 32768;         ///< dynamic NTK only
  double beta_fast = 32, beta_slow = 1;
  double mscale = 0, mscale_all_dim = 0;  ///< 0 = unset
  double low_freq_factor = 1, high_freq_factor = 4;
  double temperature = 0.25;         ///< seed method's t
  /// longrope: one divisor per pair (d/2 each); empty = 1 (short) and s (long) for every pair.
  std::vector<double> short_factor, long_factor;
  /// yarn and longrope: the factor on cos and sin when > 0 (HF's rope_scaling
  /// attention_factor); 0 = computed from factor (and mscale, mscale_all_dim).
  double attention_factor = 0;
  /// yarn: round the correction range to whole pairs (floor/ceil, HF's default);
  /// false keeps it fractional (HF's `truncate`, gpt-oss).
  bool truncate = true;
  /// Checks every field against its parameter spec and the relations
  /// (beta_fast > beta_slow, high > low; longrope: lists of d/2 numbers, and
  /// L ≥ 2 when its attention factor divides by ln L). Raises InvalidParameter.
  void check() const;
};

struct ScalingTable {
  Eigen::VectorXd theta;              ///< θ_i = base^(−2i/d)
  Eigen::VectorXd scaled_theta;       ///< θ'_i
  Eigen::VectorXd wavelength;         ///< 2π/θ_i
  Eigen::VectorXd scaled_wavelength;  ///< 2π/θ'_i
  Eigen::VectorXd ramp;               ///< weight of the unscaled frequency, in [0, 1]
  double attention_factor = 1.0;      ///< factor on cos and sin
  double effective_base = 0;          ///< base' for ntk/dynamic, else base
  /// The divisor of a fully interpolated frequency in the ramp identity:
  /// max(factor, max_i θ_i/θ'_i) (= factor except dynamic past ~2L, seed with t > d/2).
  double effective_factor = 1.0;
  std::optional<double> correction_low, correction_high;  ///< yarn: the (truncated) correction dims
  /// longrope: which list divides the pairs (seq_len > L: long_factor).
  std::optional<bool> uses_long_factor;
};

/// The per-pair table for `config` (checks it first: config.check()).
ScalingTable rope_scaling_table(const ScalingConfig& config);

/// YaRN's inverse dimension formula: the (fractional) pair-dimension index at
/// which a frequency makes `num_rotations` turns within L tokens:
///   d·ln(L/(2π·num_rotations)) / (2·ln base).
/// num_rotations is checked against the beta_fast spec (> 0; errors name beta_fast).
double yarn_find_correction_dim(double num_rotations, int d, double base, double original_context);

/// (low, high) = (max(floor(dim(beta_fast)), 0), min(ceil(dim(beta_slow)), d − 1));
/// without truncate: no floor/ceil (HF's `truncate=False`).
std::pair<double, double> yarn_correction_range(double beta_fast, double beta_slow, int d, double base,
                                                double original_context, bool truncate = true);

/// YaRN's get_mscale: 1 for s ≤ 1, else 0.1·mscale·ln s + 1.
double yarn_get_mscale(double scale, double mscale = 1.0);

/// LongRoPE's attention factor (HF `_compute_longrope_parameters`, Microsoft's
/// Phi-3 code): 1 for s ≤ 1, else √(1 + ln s / ln L). Needs L ≥ 2 when s > 1.
double longrope_attention_factor(double factor, double original_context);

/// Position interpolation: m' = m / s.
double position_map_linear(double pos, double factor);
/// The notes' "nonlinear" map (seed 002 §4.2): m' = m·(1/s)^γ. It is linear in
/// m (slope s^−γ); for γ < 1 it leaves the trained range [0, L] once
/// m > L·s^γ (position_map_gamma_limit).
double position_map_gamma(double pos, double factor, double gamma);
/// L·s^γ: the largest position the γ map sends into the trained range [0, L].
double position_map_gamma_limit(double original_context, double factor, double gamma);

}  // namespace poslab::core
