// [SECTION] Index
// - Method names and the config check
// - YaRN helpers (HF transformers / YaRN authors' code)
// - The methods, one function each
// - The ramp: weight of the unscaled frequency
// - rope_scaling_table
// - Position maps (PI and the notes' γ map)
//
// Reference code followed (HF's file changes often, so both versions read are named):
// - HF transformers `src/transformers/modeling_rope_utils.py`, the 2025 layout
//   whose `_compute_yarn_parameters` reads `mscale`, `mscale_all_dim`,
//   `truncate` (default True) and `original_max_position_embeddings` from
//   `rope_scaling`; checked against the 2024 file at commit ef46806 (v4.45 era:
//   no mscale/truncate, attention_factor = 0.1·ln(factor) + 1 always). The two
//   give the same numbers when mscale is unset and truncate is True.
// - YaRN authors' repository jquesnelle/yarn, `scaled_rope/LlamaYaRNScaledRotaryEmbedding.py`
//   (`find_correction_dim`, `find_correction_range`, `linear_ramp_mask`,
//   `get_mscale`): the same formulas as HF with truncate = True.
// - The same file's `_compute_longrope_parameters` (LongRoPE, Ding et al. 2024,
//   arXiv:2402.13753; Phi-3's configs), in both layouts: the 2024 one takes the
//   factor from max_position_embeddings/original_max_position_embeddings when
//   the config has the latter at its top level, the 2025 one prefers
//   rope_scaling["factor"] and falls back to that ratio. Both give
//   attention_factor = √(1 + ln s / ln L) (1 for s ≤ 1) unless the config sets
//   one, and divide pair i by long_factor[i] when seq_len > L, else by
//   short_factor[i]. Reading a config into (factor, L) is app/model's job; here
//   s = `factor` and L = `original_context`.
// - Peng, Quesnelle, Fan, Shippole 2023, "YaRN: Efficient Context Window
//   Extension of Large Language Models", arXiv:2309.00071, §3.2 ("NTK-by-parts"):
//   r(d) = L/λ_d, the ramp γ(r), h(θ_d) = (1 − γ(r(d)))·θ_d/s + γ(r(d))·θ_d
//   (eqs. 16–18 in the v2 numbering), and §3.4 √(1/t) = 0.1·ln(s) + 1 (eq. 22).
// - Chen et al. 2023, "Extending Context Window of Large Language Models via
//   Positional Interpolation" (linear), bloc97 2023 (NTK-aware base change).
// - The lecture notes, seed 002 §4.1/§4.4 (θ'_i = θ_i / s^(t/(d/2))) and §4.2 (m' = m·(L/L')^γ).

#include "poslab/core/scaling.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::core {

// [SECTION] Method names and the config check

namespace {

struct MethodName {
  ScalingMethod method;
  const char* name;
};

constexpr std::array kMethodNames = {
    MethodName{ScalingMethod::none, "none"},     MethodName{ScalingMethod::linear, "linear"},
    MethodName{ScalingMethod::ntk, "ntk"},       MethodName{ScalingMethod::dynamic, "dynamic"},
    MethodName{ScalingMethod::yarn, "yarn"},     MethodName{ScalingMethod::yarn_paper, "yarn-paper"},
    MethodName{ScalingMethod::llama3, "llama3"}, MethodName{ScalingMethod::longrope, "longrope"},
    MethodName{ScalingMethod::seed, "notes"},
};

/// The cross-parameter rules, through the one implementation in params.cpp so
/// the messages are the same as for `--set`.
void check_relations(double beta_fast, double beta_slow, double low_freq_factor, double high_freq_factor) {
  Params p;
  p.set("beta_fast", beta_fast);
  p.set("beta_slow", beta_slow);
  p.set("low_freq_factor", low_freq_factor);
  p.set("high_freq_factor", high_freq_factor);
  constexpr std::array<std::string_view, 4> kKeys = {"beta_fast", "beta_slow", "low_freq_factor", "high_freq_factor"};
  check_param_relations(p, kKeys);
}

void check_beta_relation(double beta_fast, double beta_slow) {
  Params p;
  p.set("beta_fast", beta_fast);
  p.set("beta_slow", beta_slow);
  constexpr std::array<std::string_view, 2> kKeys = {"beta_fast", "beta_slow"};
  check_param_relations(p, kKeys);
}

}  // namespace

ScalingMethod parse_scaling_method(std::string_view word) {
  for (const auto& m : kMethodNames)
    if (word == m.name) return m.method;
  if (word == "seed") return ScalingMethod::seed;  // the name before "notes" (docs/CONTRACT.md)
  if (word == "su") return ScalingMethod::longrope;  // Phi-3's first name for it (transformers renames it)
  check_param_value(param_spec("method"), std::string(word));  // raises the uniform message
  throw InvalidParameter("method", std::string(word), describe_allowed(param_spec("method")),
                         allowed_reason(param_spec("method")));
}

const char* scaling_method_name(ScalingMethod method) {
  for (const auto& m : kMethodNames)
    if (m.method == method) return m.name;
  return "none";
}

// Every field against its spec, through specs looked up once (this runs on
// every table, i.e. on every frame of a dragged slider); the relations are
// compared directly and, only when one is broken, raised through
// check_relations so the message is the one `--set` gives.
void ScalingConfig::check() const {
  struct Specs {
    const ParamSpec &d, &base, &factor, &original_context, &seq_len, &beta_fast, &beta_slow, &mscale, &mscale_all_dim,
        &low_freq_factor, &high_freq_factor, &temperature;
  };
  static const Specs k{param_spec("d"),         param_spec("base"),           param_spec("factor"),
                       param_spec("original_context"), param_spec("seq_len"), param_spec("beta_fast"),
                       param_spec("beta_slow"), param_spec("mscale"),         param_spec("mscale_all_dim"),
                       param_spec("low_freq_factor"), param_spec("high_freq_factor"), param_spec("temperature")};
  check_integer(k.d, d);
  check_real(k.base, base);
  check_real(k.factor, factor);
  check_integer(k.original_context, static_cast<double>(original_context));
  check_integer(k.seq_len, static_cast<double>(seq_len));
  check_real(k.beta_fast, beta_fast);
  check_real(k.beta_slow, beta_slow);
  check_real(k.mscale, mscale);
  check_real(k.mscale_all_dim, mscale_all_dim);
  check_real(k.low_freq_factor, low_freq_factor);
  check_real(k.high_freq_factor, high_freq_factor);
  check_real(k.temperature, temperature);
  if (!(beta_fast > beta_slow) || !(high_freq_factor >= low_freq_factor))
    check_relations(beta_fast, beta_slow, low_freq_factor, high_freq_factor);
  if ((method == ScalingMethod::ntk || method == ScalingMethod::dynamic) && d < 4)
    throw InvalidParameter("d", std::to_string(d),
                           "must be >= 4 for method=ntk and method=dynamic (base' = base·s^(d/(d−2)) is "
                           "undefined at d = 2)",
                           Reason{"ntk_needs_d4", {}, {}});
  static const ParamSpec& kAttention = param_spec("attention_factor");
  check_real(kAttention, attention_factor);
  if (method != ScalingMethod::longrope) return;
  // the lists, and their length against d, through params.cpp (the messages `--set` gives)
  Params p;
  p.set("method", std::string("longrope"));
  p.set("d", static_cast<double>(d));
  if (!short_factor.empty()) p.set("short_factor", short_factor);
  if (!long_factor.empty()) p.set("long_factor", long_factor);
  constexpr std::array<std::string_view, 4> kKeys = {"method", "d", "short_factor", "long_factor"};
  check_param_relations(p, kKeys);
  if (attention_factor == 0 && factor > 1 && original_context < 2)
    throw InvalidParameter("original_context", std::to_string(original_context),
                           "must be >= 2 for method=longrope with factor > 1 (its attention factor "
                           "√(1 + ln s / ln L) divides by ln L)",
                           Reason{"longrope_needs_l2", {}, {}});
}

// [SECTION] YaRN helpers
//
// Each public helper checks its arguments and calls the unchecked formula,
// which rope_scaling_table uses directly on a config it has checked once.

namespace {

// HF `find_correction_dim` / YaRN `find_correction_dim`:
//   (dim·ln(L/(num_rotations·2π))) / (2·ln base)
double correction_dim(double num_rotations, int d, double base, double original_context) {
  return (d * std::log(original_context / (num_rotations * 2 * std::numbers::pi))) / (2 * std::log(base));
}

// HF `find_correction_range(low_rot, high_rot, dim, base, L, truncate)`:
//   low = dim(beta_fast), high = dim(beta_slow); truncate → floor(low), ceil(high);
//   return max(low, 0), min(high, dim − 1).
// The upper clamp uses the full dim − 1, not the pair count d/2 − 1 (a quirk of
// the reference, kept): high is a pair index, so it is effectively unclamped.
std::pair<double, double> correction_range(double beta_fast, double beta_slow, int d, double base,
                                           double original_context, bool truncate) {
  double low = correction_dim(beta_fast, d, base, original_context);
  double high = correction_dim(beta_slow, d, base, original_context);
  if (truncate) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  return {std::max(low, 0.0), std::min(high, static_cast<double>(d - 1))};
}

// YaRN `get_mscale` / HF's nested `get_mscale(scale, mscale=1)`:
//   1 if scale <= 1, else 0.1·mscale·ln(scale) + 1.
double get_mscale(double scale, double mscale) {
  if (scale <= 1) return 1.0;
  return 0.1 * mscale * std::log(scale) + 1.0;
}

}  // namespace

double yarn_find_correction_dim(double num_rotations, int d, double base, double original_context) {
  check_real("beta_fast", num_rotations);
  check_integer("d", d);
  check_real("base", base);
  check_integer("original_context", original_context);
  return correction_dim(num_rotations, d, base, original_context);
}

std::pair<double, double> yarn_correction_range(double beta_fast, double beta_slow, int d, double base,
                                                double original_context, bool truncate) {
  check_real("beta_slow", beta_slow);
  check_beta_relation(beta_fast, beta_slow);
  check_real("beta_fast", beta_fast);
  check_integer("d", d);
  check_real("base", base);
  check_integer("original_context", original_context);
  return correction_range(beta_fast, beta_slow, d, base, original_context, truncate);
}

double yarn_get_mscale(double scale, double mscale) {
  check_real("factor", scale);
  check_real("mscale", mscale);
  return get_mscale(scale, mscale);
}

namespace {

// HF `_compute_longrope_parameters`:
//   if factor <= 1.0: attention_factor = 1.0
//   else: attention_factor = math.sqrt(1 + math.log(factor) / math.log(original_max_position_embeddings))
double longrope_attention(double factor, double original_context) {
  if (factor <= 1.0) return 1.0;
  return std::sqrt(1 + std::log(factor) / std::log(original_context));
}

}  // namespace

double longrope_attention_factor(double factor, double original_context) {
  check_real("factor", factor);
  check_integer("original_context", original_context);
  if (factor > 1 && original_context < 2)
    throw InvalidParameter("original_context", format_number(original_context),
                           "must be >= 2 for method=longrope with factor > 1 (its attention factor "
                           "√(1 + ln s / ln L) divides by ln L)",
                           Reason{"longrope_needs_l2", {}, {}});
  return longrope_attention(factor, original_context);
}

// [SECTION] The methods

namespace {

/// θ_i = base^(−2i/d) into `out` for a derived base (base' may exceed the
/// `base` spec), through the same computation as rope_inverse_frequencies.
void frequencies_for_base(int d, double base, Eigen::VectorXd& out) {
  rope_inverse_frequencies(d, base, std::span<double>(out.data(), static_cast<std::size_t>(out.size())));
}

/// HF `_compute_ntk_parameters` (static NTK-aware, bloc97):
///   base' = base·factor^(dim/(dim − 2)), attention factor 1.
double ntk_base(const ScalingConfig& c) {
  return c.base * std::pow(c.factor, static_cast<double>(c.d) / (c.d - 2));
}

/// HF `_compute_dynamic_ntk_parameters`:
///   seq_len = seq_len if seq_len > max_pos else max_pos
///   base' = base·((factor·seq_len/max_pos) − (factor − 1))^(dim/(dim − 2))
/// (same operation order as the Python), attention factor 1.
double dynamic_base(const ScalingConfig& c) {
  const double max_pos = static_cast<double>(c.original_context);
  const double seq = c.seq_len > c.original_context ? static_cast<double>(c.seq_len) : max_pos;
  return c.base * std::pow((c.factor * seq / max_pos) - (c.factor - 1), static_cast<double>(c.d) / (c.d - 2));
}

/// HF `_compute_yarn_parameters`:
///   low, high = find_correction_range(beta_fast, beta_slow, dim, base, L, truncate)
///   linear_ramp_factor(min, max, dim/2): if min == max: max += 0.001;
///     clamp((i − min)/(max − min), 0, 1)
///   extrapolation_factor = 1 − linear_ramp           (our ramp)
///   inv_freq = (θ/s)·(1 − extrapolation_factor) + θ·extrapolation_factor
///   attention_factor = rope_scaling["attention_factor"] if set, else
///     get_mscale(s, mscale)/get_mscale(s, mscale_all_dim) if both are set
///     (non-zero), else get_mscale(s) = 0.1·ln s + 1.
/// HF computes the ramp in float32; here in double.
void yarn_hf(const ScalingConfig& c, ScalingTable& t) {
  const auto [low, high_raw] =
      correction_range(c.beta_fast, c.beta_slow, c.d, c.base, static_cast<double>(c.original_context), c.truncate);
  t.correction_low = low;
  t.correction_high = high_raw;
  double high = high_raw;
  if (low == high) high += 0.001;  // "Prevent singularity"
  const Eigen::Index half = t.theta.size();
  for (Eigen::Index i = 0; i < half; ++i) {
    const double linear = std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
    const double extrapolation = 1.0 - linear;
    t.ramp[i] = extrapolation;
    t.scaled_theta[i] = (t.theta[i] / c.factor) * (1.0 - extrapolation) + t.theta[i] * extrapolation;
  }
  t.attention_factor = c.attention_factor > 0 ? c.attention_factor
                       : (c.mscale != 0 && c.mscale_all_dim != 0)
                           ? get_mscale(c.factor, c.mscale) / get_mscale(c.factor, c.mscale_all_dim)
                           : get_mscale(c.factor, 1.0);
}

/// HF `_compute_longrope_parameters`:
///   ext_factors = long_factor if seq_len and seq_len > original_max_position_embeddings else short_factor
///   inv_freq = 1.0 / (ext_factors * base**(arange(0, dim, 2)/dim))
///   attention_factor = rope_scaling["attention_factor"] or longrope_attention(factor, L)
/// HF builds the table at init with seq_len = None (short) and rebuilds it
/// once a sequence is longer than L (long); `seq_len` here is that length.
/// Empty lists: 1 (short) and s (long) for every pair.
void longrope(const ScalingConfig& c, ScalingTable& t) {
  const bool use_long = c.seq_len > c.original_context;
  const std::vector<double>& list = use_long ? c.long_factor : c.short_factor;
  const double uniform = use_long ? c.factor : 1.0;
  for (Eigen::Index i = 0; i < t.theta.size(); ++i) {
    const double ext = list.empty() ? uniform : list[static_cast<std::size_t>(i)];
    t.scaled_theta[i] = t.theta[i] / ext;
  }
  t.uses_long_factor = use_long;
  t.attention_factor =
      c.attention_factor > 0 ? c.attention_factor : longrope_attention(c.factor, static_cast<double>(c.original_context));
}

/// The paper's NTK-by-parts (YaRN §3.2): r_i = L/λ_i (turns within L tokens),
///   γ(r) = 0 if r < α, 1 if r > β, else (r − α)/(β − α),  α = beta_slow, β = beta_fast,
///   h(θ_i) = (1 − γ(r_i))·θ_i/s + γ(r_i)·θ_i;  attention factor √(1/t) = 0.1·ln s + 1.
/// Unlike the code it ramps in r, not in the pair index, and does not round.
void yarn_paper(const ScalingConfig& c, ScalingTable& t) {
  const double alpha = c.beta_slow;
  const double beta = c.beta_fast;
  const double big_l = static_cast<double>(c.original_context);
  for (Eigen::Index i = 0; i < t.theta.size(); ++i) {
    const double r = big_l / t.wavelength[i];
    const double gamma = r < alpha ? 0.0 : (r > beta ? 1.0 : (r - alpha) / (beta - alpha));
    t.ramp[i] = gamma;
    t.scaled_theta[i] = (1.0 - gamma) * t.theta[i] / c.factor + gamma * t.theta[i];
  }
  t.attention_factor = 0.1 * std::log(c.factor) + 1.0;
}

/// HF `_compute_llama3_parameters` (Meta's Llama 3.1 `apply_scaling`):
///   low_freq_wavelen = L/low_freq_factor, high_freq_wavelen = L/high_freq_factor
///   λ < high_freq_wavelen: keep θ;  λ > low_freq_wavelen: θ/s;
///   otherwise smooth = (L/λ − low)/(high − low), θ' = (1 − smooth)·θ/s + smooth·θ.
/// low = high (Llama 4 Scout: 1 and 1) leaves no band between the two: a hard
/// step at λ = L/low. transformers' torch.where never selects the band's 0/0
/// there (no wavelength equals L/low exactly); poslab keeps θ at that point.
void llama3(const ScalingConfig& c, ScalingTable& t) {
  const double big_l = static_cast<double>(c.original_context);
  const double low_freq_wavelen = big_l / c.low_freq_factor;
  const double high_freq_wavelen = big_l / c.high_freq_factor;
  for (Eigen::Index i = 0; i < t.theta.size(); ++i) {
    const double wl = t.wavelength[i];
    if (wl < high_freq_wavelen) {
      t.ramp[i] = 1.0;
      t.scaled_theta[i] = t.theta[i];
    } else if (wl > low_freq_wavelen) {
      t.ramp[i] = 0.0;
      t.scaled_theta[i] = t.theta[i] / c.factor;
    } else if (c.high_freq_factor == c.low_freq_factor) {  // the step's one point (wl = L/low)
      t.ramp[i] = 1.0;
      t.scaled_theta[i] = t.theta[i];
    } else {
      const double smooth = (big_l / wl - c.low_freq_factor) / (c.high_freq_factor - c.low_freq_factor);
      t.ramp[i] = smooth;
      t.scaled_theta[i] = (1.0 - smooth) * t.theta[i] / c.factor + smooth * t.theta[i];
    }
  }
}

// [SECTION] The ramp

/// For the methods that only give θ'_i: effective_factor = max(s, max_i θ_i/θ'_i)
/// (ratios within 1e-9 of s count as s: rounding), then
///   ramp_i = (s_eff·θ'_i/θ_i − 1)/(s_eff − 1),  1 when s_eff = 1,
/// clamped to [0, 1] against rounding only (the identity is tested).
void solve_ramp(ScalingTable& t, double factor) {
  double worst = 1.0;
  for (Eigen::Index i = 0; i < t.theta.size(); ++i) worst = std::max(worst, t.theta[i] / t.scaled_theta[i]);
  const double s_eff = worst > factor * (1 + 1e-9) ? worst : factor;
  t.effective_factor = s_eff;
  for (Eigen::Index i = 0; i < t.theta.size(); ++i) {
    const double ramp = s_eff == 1.0 ? 1.0 : (s_eff * (t.scaled_theta[i] / t.theta[i]) - 1.0) / (s_eff - 1.0);
    t.ramp[i] = std::clamp(ramp, 0.0, 1.0);
  }
}

}  // namespace

// [SECTION] rope_scaling_table

ScalingTable rope_scaling_table(const ScalingConfig& config) {
  config.check();
  const ScalingConfig& c = config;
  ScalingTable t;
  t.theta.resize(c.d / 2);
  frequencies_for_base(c.d, c.base, t.theta);
  t.wavelength = (2.0 * std::numbers::pi) * t.theta.cwiseInverse();
  t.scaled_theta = t.theta;
  t.ramp = Eigen::VectorXd::Ones(t.theta.size());
  t.attention_factor = 1.0;
  t.effective_base = c.base;
  t.effective_factor = c.factor;
  switch (c.method) {
    case ScalingMethod::none:
      break;
    case ScalingMethod::linear:
      // HF `_compute_linear_scaling_rope_parameters`: inv_freq /= factor
      t.scaled_theta = t.theta / c.factor;
      t.ramp.setZero();
      break;
    case ScalingMethod::ntk:
      t.effective_base = ntk_base(c);
      frequencies_for_base(c.d, t.effective_base, t.scaled_theta);
      solve_ramp(t, c.factor);
      break;
    case ScalingMethod::dynamic:
      t.effective_base = dynamic_base(c);
      frequencies_for_base(c.d, t.effective_base, t.scaled_theta);
      solve_ramp(t, c.factor);
      break;
    case ScalingMethod::yarn:
      yarn_hf(c, t);
      break;
    case ScalingMethod::yarn_paper:
      yarn_paper(c, t);
      break;
    case ScalingMethod::llama3:
      llama3(c, t);
      break;
    case ScalingMethod::longrope:
      longrope(c, t);
      solve_ramp(t, c.factor);
      break;
    case ScalingMethod::seed: {
      // the notes (seed 002 §4.4 and §4.5 code): θ'_i = θ_i / s^(t/(d/2)); attention factor 1
      const double divisor = std::pow(c.factor, c.temperature / (c.d / 2));
      // within the specs the divisor can reach 1024^1000: keep wavelengths finite
      if (!(divisor <= 1e200))
        throw InvalidParameter("temperature", format_number(c.temperature),
                               "is too large for factor = " + format_number(c.factor) + " and d = " +
                                   std::to_string(c.d) + ": s^(t/(d/2)) = " + format_number(divisor) +
                                   " (must stay <= 1e200)",
                               Reason{"temperature_overflow",
                                      {{"factor", format_number(c.factor)},
                                       {"d", std::to_string(c.d)},
                                       {"divisor", format_number(divisor)}},
                                      {}});
      t.scaled_theta = t.theta / divisor;
      solve_ramp(t, c.factor);
      break;
    }
  }
  if (t.effective_factor == 1.0) t.ramp.setOnes();  // s = 1: nothing is scaled
  t.scaled_wavelength = (2.0 * std::numbers::pi) * t.scaled_theta.cwiseInverse();
  return t;
}

// [SECTION] Position maps

// Position interpolation (Chen et al. 2023): m' = m/s.
double position_map_linear(double pos, double factor) {
  check_real("pos", pos);
  check_real("factor", factor);
  return pos / factor;
}

// The notes (seed 002 §4.2 and the §4.5 code `pos * (1.0 / scaling_factor) ** 0.8`):
// m' = m·(1/s)^γ. Example s = 8, γ = 0.8: (1/8)^0.8 = 0.18946, so 30000 → 5683.8
// (beyond L = 4096: the map leaves the trained range once m > L·s^γ = 21619.6).
double position_map_gamma(double pos, double factor, double gamma) {
  check_real("pos", pos);
  check_real("factor", factor);
  check_real("gamma", gamma);
  return pos * std::pow(1.0 / factor, gamma);
}

double position_map_gamma_limit(double original_context, double factor, double gamma) {
  check_integer("original_context", original_context);
  check_real("factor", factor);
  check_real("gamma", gamma);
  return original_context * std::pow(factor, gamma);
}

}  // namespace poslab::core
