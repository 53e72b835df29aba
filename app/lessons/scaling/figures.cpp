// Lesson "scaling": context extension of RoPE. A model trained on L tokens
// must read L′ tokens (target_context; s·L by default, s = factor); each method rescales the frequencies
// θ_i = base^(−2i/d) (all numbers from core/scaling.hpp, which follows HF
// transformers `modeling_rope_utils.py`, the YaRN authors' code and the YaRN
// paper, Peng et al. 2023, arXiv:2309.00071):
//   every by-parts method:  θ′_i = ramp_i·θ_i + (1 − ramp_i)·θ_i/s
//   (ramp 1 = keep the pair, "extrapolation"; ramp 0 = divide it by s, PI).
// The lesson's argument (YaRN §3.2, "NTK-by-parts"): pair i turns r_i = L/λ_i
// times within the trained context. Training saw the angles m·θ_i for
// 0 ≤ m ≤ L, which cover the whole circle only when r_i ≥ 1. At L′ the pair
// reaches L′·θ′_i; if that exceeds L·θ_i while r_i < 1, the model meets angles
// it never saw. Fast pairs (r ≫ 1) have seen every angle many times, so YaRN
// keeps them (and their fine local resolution); slow pairs are divided by s.
//
// [SECTION] Index
// - Methods (order, colours, names, tables at the current parameters)
// - Angles never seen in training
// - Figures: ratio, wavelength, attention, score, positions
// - Readouts
// - The view

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <string>

#include "app/plot/figure_text.hpp"
#include "app/lessons/lesson.hpp"
#include "app/lessons/scaling/setting.hpp"
#include "poslab/core/decay.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/rope.hpp"
#include "poslab/core/scaling.hpp"

namespace poslab::app {

namespace {

using core::ScalingMethod;
using fig::Figure;
using scaling::scaling_config;
using scaling::selected_method;
using scaling::target_context;
using scaling::trained_context;

constexpr double kTwoPi = 2 * std::numbers::pi;
constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kMaxCoreDistance = 1e12;  // core checks distances and positions against 0..1e12
constexpr double kMaxCoreFactor = 1024;    // and factors against the `factor` spec

// [SECTION] Methods

struct MethodInfo {
  ScalingMethod method;
  // Okabe–Ito hues where they go round, readable on the light and the dark
  // theme; PI (orange), Llama 3 (red) and the notes' method (purple) must
  // stay apart, as they are often drawn together.
  std::uint32_t colour;
};

constexpr std::array kMethods = {
    MethodInfo{ScalingMethod::none, 0x7F7F7F},   MethodInfo{ScalingMethod::linear, 0xE69F00},
    MethodInfo{ScalingMethod::ntk, 0x56B4E9},    MethodInfo{ScalingMethod::dynamic, 0x009E73},
    MethodInfo{ScalingMethod::yarn, 0x0072B2},   MethodInfo{ScalingMethod::yarn_paper, 0xCC79A7},
    MethodInfo{ScalingMethod::llama3, 0xD62728}, MethodInfo{ScalingMethod::longrope, 0x8C564B},
    MethodInfo{ScalingMethod::seed, 0x9467BD},
};

fig::Color method_colour(ScalingMethod m) {
  for (const auto& info : kMethods)
    if (info.method == m) return fig::Color::rgb(info.colour);
  return fig::Color::rgb(0x7F7F7F);
}

std::string method_name(const Translator& tr, ScalingMethod m) {
  return tr(std::string("scaling.method.") + core::scaling_method_name(m));
}

/// core::rope_scaling_table, or nothing where the method is undefined at these
/// parameters (NTK and dynamic NTK need d ≥ 4: base·s^(d/(d−2)); the notes'
/// divisor s^(t/(d/2)) can overflow). Core raises InvalidParameter for both.
std::optional<core::ScalingTable> try_table(const core::ScalingConfig& c) {
  try {
    return core::rope_scaling_table(c);
  } catch (const core::InvalidParameter&) {
    return std::nullopt;
  }
}

std::optional<core::ScalingTable> try_table(const core::Params& p, ScalingMethod m) {
  return try_table(scaling_config(p, m));
}

std::vector<double> to_vector(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

std::vector<double> pair_indices(Eigen::Index n) {
  std::vector<double> x(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = static_cast<double>(i);
  return x;
}

/// The pairs (fractional indices) where a method blends θ_i and θ_i/s, as a
/// band [from, to] clamped to the pair range; nothing for the other methods.
///   yarn:       HF's (truncated) correction range [floor dim(β_fast), ceil dim(β_slow)]
///   yarn-paper: r_i between α = β_slow and β = β_fast: [dim(β_fast), dim(β_slow)]
///   llama3:     λ_i between L/high and L/low, i.e. r_i between low and high
/// with dim(r) = core::yarn_find_correction_dim, the pair index turning r times in L.
std::optional<std::pair<double, double>> blend_band(const core::Params& p, ScalingMethod m,
                                                    const core::ScalingTable& yarn_table) {
  const int d = static_cast<int>(p.integer("d"));
  const double base = p.real("base");
  const double L = trained_context(p);
  double from = 0, to = 0;
  if (m == ScalingMethod::yarn_paper) {
    from = core::yarn_find_correction_dim(p.real("beta_fast"), d, base, L);
    to = core::yarn_find_correction_dim(p.real("beta_slow"), d, base, L);
  } else if (m == ScalingMethod::llama3) {
    from = core::yarn_find_correction_dim(p.real("high_freq_factor"), d, base, L);
    to = core::yarn_find_correction_dim(p.real("low_freq_factor"), d, base, L);
  } else {
    if (!yarn_table.correction_low || !yarn_table.correction_high) return std::nullopt;
    from = *yarn_table.correction_low, to = *yarn_table.correction_high;
  }
  const double last = d / 2 - 1;
  from = std::clamp(from, 0.0, last), to = std::clamp(to, 0.0, last);
  if (!(to > from)) return std::nullopt;
  return std::pair{from, to};
}

/// The shaded band of the selected method: YaRN's ramp (code or paper) or
/// Llama 3's blend (λ between L/f_high and L/f_low); nothing for the methods
/// without a ramp band (none, PI, NTK-aware, dynamic NTK, the notes').
std::optional<fig::Band> method_band(const core::Params& p, const Translator& tr, ScalingMethod m) {
  if (m != ScalingMethod::yarn && m != ScalingMethod::yarn_paper && m != ScalingMethod::llama3) return std::nullopt;
  const std::optional<core::ScalingTable> yarn = try_table(p, ScalingMethod::yarn);
  if (!yarn) return std::nullopt;
  const auto band = blend_band(p, m, *yarn);
  if (!band) return std::nullopt;
  const double L = trained_context(p);
  // The band's edges are where the ramp reaches 0 and 1, between pairs; the
  // label names the whole pairs it blends (0 < wᵢ < 1), as the readout counts them.
  const std::optional<core::ScalingTable> own = m == ScalingMethod::yarn ? yarn : try_table(p, m);
  int first = -1, last = -1;
  if (own)
    for (Eigen::Index i = 0; i < own->ramp.size(); ++i)
      if (own->ramp[i] > 0 && own->ramp[i] < 1) last = static_cast<int>(i), first = first < 0 ? last : first;
  const std::string name = method_name(tr, m);
  std::string label;
  if (first < 0)
    label = tr.format("scaling.band.no_pair", {{"method", name}});
  else if (m == ScalingMethod::llama3)
    label = tr.format("scaling.band.llama3", {{"lo", fig::num(L / p.real("high_freq_factor"))},
                                              {"hi", fig::num(L / p.real("low_freq_factor"))},
                                              {"from", std::to_string(first)}, {"to", std::to_string(last)}});
  else
    label = tr.format("scaling.band.yarn", {{"method", name}, {"from", std::to_string(first)}, {"to", std::to_string(last)}});
  return fig::Band{.from = band->first, .to = band->second, .label = label, .color = method_colour(m).with_alpha(0.12f)};
}

/// A one-point line draws nothing (d = 2 has one pair): show it as a marker.
void visible(fig::Series& s) {
  if (s.kind == fig::SeriesKind::line && s.x.size() == 1) s.kind = fig::SeriesKind::scatter, s.marker = 1.5f + s.width;
}

/// Why a method has no table here: NTK-aware and dynamic NTK divide by d − 2,
/// the notes' divisor s^(t/(d/2)) overflows (core raises for both).
std::string undefined_note(const Translator& tr, const core::Params& p, ScalingMethod m) {
  if (m == ScalingMethod::seed)
    return tr.format("scaling.note.undefined_seed", {{"method", method_name(tr, m)}, {"t", fig::num(p.real("temperature"))}});
  return tr.format("scaling.note.undefined_ntk", {{"method", method_name(tr, m)}, {"d", fig::num(static_cast<double>(p.integer("d")))}});
}

/// HF's YaRN with an inverted correction range: low = ⌊dim(β_fast)⌋ above
/// high = min(⌈dim(β_slow)⌉, d/2 − 1) when even the slowest pair turns more
/// than β_fast times within L (a small base: b = 2 gives low 278 > high 127 at
/// d = 256). linear_ramp_factor then sends every pair to ramp 0, so HF divides
/// every pair by s — PI's cost on pairs that need no interpolation — and says
/// nothing. The figures and the table say it (and the model report warns).
std::optional<std::string> inverted_range_warning(const core::Params& p, const Translator& tr, ScalingMethod m) {
  if (m != ScalingMethod::yarn) return std::nullopt;
  const std::optional<core::ScalingTable> t = try_table(p, ScalingMethod::yarn);
  if (!t || !t->correction_low || !t->correction_high || !(*t->correction_low > *t->correction_high)) return std::nullopt;
  const double turns = trained_context(p) * t->theta[t->theta.size() - 1] / kTwoPi;
  return tr.format("scaling.note.inverted_range", {{"low", fig::num(*t->correction_low)}, {"high", fig::num(*t->correction_high)},
                                                   {"turns", fig::num(std::floor(turns))}, {"beta", fig::num(p.real("beta_fast"))}});
}

// [SECTION] Angles never seen in training

/// Pair (θ, θ′) meets angles at L′ that training on L tokens never produced:
/// the trained angles m·θ, 0 ≤ m ≤ L, do not cover the circle (L·θ < 2π) and
/// the extended ones reach further (L′·θ′ > L·θ). Relative margins of 1e-12
/// absorb the rounding of s·L·(θ/s) against L·θ.
bool meets_unseen_angles(double theta, double scaled, double L, double L_target) {
  const double trained = L * theta;
  return trained < kTwoPi * (1 - 1e-12) && L_target * scaled > trained * (1 + 1e-12);
}

int count_unseen(const core::ScalingTable& t, double L, double L_target) {
  int n = 0;
  for (Eigen::Index i = 0; i < t.theta.size(); ++i) n += meets_unseen_angles(t.theta[i], t.scaled_theta[i], L, L_target);
  return n;
}

/// When the reference code guarantees that no pair meets unseen angles (every
/// pair with r_i < 1 gets ramp 0, i.e. θ_i/s exactly):
///   linear: always;  yarn-paper: α = β_slow ≥ 1 (γ(r) = 0 for r < α);
///   yarn (code): β_slow ≥ 1 and a proper range high > low (pairs past
///     dim(β_slow) ≥ ceil(…) = high get ramp 0; a degenerate range with
///     dim(β_slow) ≤ 0 keeps every pair instead);
///   llama3: low_freq_factor ≥ 1 (λ > L ≥ L/low is divided by s).
/// Each only up to L′ = s·L: a model run further than that (Llama 3.1: s = 8,
/// L′ = 16·L, target_context) takes the divided pairs past L·θ again.
bool guarantees_no_unseen(const core::Params& p, ScalingMethod m, const core::ScalingTable& t) {
  if (target_context(p) > p.real("factor") * trained_context(p) * (1 + 1e-12)) return false;
  switch (m) {
    case ScalingMethod::linear:
      return true;
    case ScalingMethod::yarn_paper:
      return p.real("beta_slow") >= 1;
    case ScalingMethod::yarn:
      return p.real("beta_slow") >= 1 && t.correction_low && t.correction_high &&
             *t.correction_high > *t.correction_low;
    case ScalingMethod::llama3:
      return p.real("low_freq_factor") >= 1;
    default:
      return false;
  }
}

std::string params_subtitle(const core::Params& p) {
  return fig::join_dot({"d = " + fig::num(static_cast<double>(p.integer("d"))), "b = " + fig::num(p.real("base")),
                        "s = " + fig::num(p.real("factor")), "L = " + fig::num(trained_context(p)),
                        "L′ = " + fig::num(target_context(p))});
}

// [SECTION] Figures

/// Whether the ratio and attention figures draw `m`: the selected method always; the others
/// all (compare = all), or those a guided step has introduced by the time it
/// shows the figure (compare = pi-ntk: the original, PI and NTK-aware;
/// pi-ntk-yarn: those and YaRN (paper)).
bool compared(const core::Params& p, ScalingMethod m, ScalingMethod chosen) {
  const std::string which = p.choice("compare");
  if (m == chosen || which == "all") return true;
  return m == ScalingMethod::none || m == ScalingMethod::linear || m == ScalingMethod::ntk ||
         (m == ScalingMethod::yarn_paper && which == "pi-ntk-yarn");
}

/// θ′_i/θ_i per pair for every compared method (the selected one drawn bold),
/// log y: 1 = kept, 1/s = divided by s (PI). The selected method's band is shaded.
Figure ratio(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const ScalingMethod chosen = selected_method(p);
  const double s = p.real("factor");
  Figure f;
  f.title = tr("scaling.ratio.title");
  // Dynamic NTK depends on the sequence length ℓ: said (and ℓ defined) only when it is drawn.
  f.subtitle = fig::join_dot({params_subtitle(p), compared(p, ScalingMethod::dynamic, chosen)
                                                      ? tr.format("scaling.ratio.seq_len", {{"n", fig::num(static_cast<double>(p.integer("seq_len")))}})
                                                      : std::string()});
  f.x = {.label = tr("scaling.axis.pair"), .format = fig::TickFormat::integer, .tight = true};
  f.y = {.label = tr("scaling.ratio.axis.y"), .scale = fig::AxisScale::log};
  f.legend = fig::LegendPlace::automatic;
  std::vector<fig::Series> thin;
  std::optional<fig::Series> bold;
  double y_note = 1;
  for (const auto& info : kMethods) {
    if (!compared(p, info.method, chosen)) continue;
    const std::optional<core::ScalingTable> t = try_table(p, info.method);
    if (!t) {
      const double mid = (static_cast<int>(p.integer("d")) / 2 - 1) / 2.0;
      y_note /= 1.25;
      f.notes.push_back({.x = mid, .y = y_note, .text = undefined_note(tr, p, info.method), .anchor = fig::Anchor::center,
                         .color = method_colour(info.method)});
      continue;
    }
    fig::Series sr{.name = method_name(tr, info.method), .kind = fig::SeriesKind::line, .color = method_colour(info.method)};
    sr.x = pair_indices(t->theta.size());
    sr.y = to_vector(t->scaled_theta.cwiseQuotient(t->theta));
    sr.x_name = tr("scaling.readout.pair");
    sr.y_name = "θ′/θ";
    sr.extra = {{"θ", tr("unit.rad_per_token"), to_vector(t->theta)},
                {"θ′", tr("unit.rad_per_token"), to_vector(t->scaled_theta)},
                {tr("scaling.readout.ramp"), "", to_vector(t->ramp)}};
    if (info.method == chosen) {
      sr.width = 3.5f;
      visible(sr);
      bold = std::move(sr);
    } else {
      sr.width = 1.4f;
      if (info.method == ScalingMethod::seed || info.method == ScalingMethod::none) sr.style = fig::LineStyle::dashed;
      visible(sr);
      thin.push_back(std::move(sr));
    }
  }
  f.series = std::move(thin);
  if (bold) f.series.push_back(std::move(*bold));  // drawn last, on top
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 1, .label = tr("scaling.ref.kept")});
  if (s > 1)
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 1 / s,
                           .label = tr.format("scaling.ref.divided", {{"s", fig::num(s)}})});
  if (auto band = method_band(p, tr, chosen)) f.bands.push_back(std::move(*band));
  // Ticks at 1, 1/2, 1/4, … down to the smallest ratio drawn.
  double lowest = 1;
  for (const fig::Series& sr : f.series)
    for (double y : sr.y) lowest = std::min(lowest, y);
  int deepest = 0;
  while (deepest < 60 && std::ldexp(1.0, -(deepest + 1)) >= lowest / 2) ++deepest;
  const int every = std::max(1, (deepest + 9) / 10);  // at most ~11 labels
  for (int k = deepest - deepest % every; k >= 0; k -= every)  // ascending values, as the renderer lays labels out
    f.y.ticks.emplace_back(std::ldexp(1.0, -k), k == 0 ? std::string("1") : "1/" + fig::num(std::ldexp(1.0, k)));
  if (const auto warning = inverted_range_warning(p, tr, chosen))
    f.notes.push_back({.x = (static_cast<int>(p.integer("d")) / 2 - 1) / 2.0, .y = y_note / 1.25, .text = *warning,
                       .anchor = fig::Anchor::center, .color = method_colour(chosen)});
  return f;
}

/// λ_i, s·λ_i and λ′_i of the selected method per pair (log y), with L, L′,
/// L/β_fast, the method's blend band, and markers on pairs meeting angles that
/// training never produced.
Figure wavelength(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const auto [chosen, s, L, Lt] = scaling::extension(p);
  // Without a method (the first step) the figure is the wavelengths alone:
  // λ′ᵢ = λᵢ, and PI's line belongs to the methods met later.
  const bool none_chosen = chosen == ScalingMethod::none;
  Figure f;
  f.title = none_chosen ? tr("scaling.wavelength.title_none")
                        : tr.format("scaling.wavelength.title", {{"method", method_name(tr, chosen)}});
  f.subtitle = params_subtitle(p);
  f.x = {.label = tr("scaling.axis.pair"), .format = fig::TickFormat::integer, .tight = true};
  f.y = {.label = tr("scaling.wavelength.axis.y"), .unit = tr("unit.tokens"), .scale = fig::AxisScale::log};
  const std::optional<core::ScalingTable> none = try_table(p, ScalingMethod::none);
  const std::optional<core::ScalingTable> t = try_table(p, chosen);
  if (!none) return f;  // none is defined wherever the parameters are valid
  f.legend = fig::LegendPlace::bottom_right;  // every curve rises with i: that corner stays free
  const std::vector<double> x = pair_indices(none->theta.size());
  const std::vector<double> turns = to_vector(none->wavelength.cwiseInverse() * L);
  fig::Series orig{.name = tr("scaling.wavelength.original"), .color = method_colour(ScalingMethod::none), .width = 1.6f};
  orig.x = x, orig.y = to_vector(none->wavelength);
  fig::Series stretched{.name = tr.format("scaling.wavelength.stretched", {{"s", fig::num(s)}}),
                        .color = method_colour(ScalingMethod::linear), .width = 1.4f, .style = fig::LineStyle::dotted};
  stretched.x = x, stretched.y = to_vector(none->wavelength * s);
  for (fig::Series* sr : {&orig, &stretched}) {
    sr->x_name = tr("scaling.readout.pair");
    sr->y_name = "λ";
    sr->extra = {{tr("scaling.readout.turns_in_l"), "", turns}};
  }
  visible(orig), visible(stretched);
  f.series = {std::move(orig)};
  if (!none_chosen) f.series.push_back(std::move(stretched));
  if (t) {
    fig::Series scaled{.name = tr.format("scaling.wavelength.scaled", {{"method", method_name(tr, chosen)}}),
                       .color = method_colour(chosen), .width = 3.0f};
    scaled.x = x, scaled.y = to_vector(t->scaled_wavelength);
    scaled.x_name = tr("scaling.readout.pair");
    scaled.y_name = "λ′";
    scaled.extra = {{"λ", tr("unit.tokens"), to_vector(t->wavelength)},
                    {tr("scaling.readout.ramp"), "", to_vector(t->ramp)},
                    {tr("scaling.readout.turns_in_l"), "", turns}};
    fig::Series unseen{.name = tr("scaling.wavelength.unseen"), .kind = fig::SeriesKind::scatter,
                       .color = fig::Color::rgb(0xD55E00), .marker = 4.5f};
    for (Eigen::Index i = 0; i < t->theta.size(); ++i)
      if (meets_unseen_angles(t->theta[i], t->scaled_theta[i], L, Lt))
        unseen.x.push_back(static_cast<double>(i)), unseen.y.push_back(t->scaled_wavelength[i]);
    unseen.x_name = tr("scaling.readout.pair");
    unseen.y_name = "λ′";
    visible(scaled);
    if (!none_chosen) f.series.push_back(std::move(scaled));
    if (!unseen.x.empty()) f.series.push_back(std::move(unseen));
    if (auto band = method_band(p, tr, chosen)) f.bands.push_back(std::move(*band));
  } else {
    f.notes.push_back({.x = (none->theta.size() - 1) / 2.0, .y = none->wavelength[0] * 2, .text = undefined_note(tr, p, chosen),
                       .anchor = fig::Anchor::center, .color = method_colour(chosen)});
  }
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = L,
                         .label = tr.format("scaling.ref.trained_turn", {{"L", fig::num(L)}})});
  if (s > 1)
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = Lt,
                           .label = tr.format("scaling.ref.target", {{"L", fig::num(Lt)}})});
  // Below this wavelength a pair is kept whole: L/β_fast for YaRN, L/high_freq_factor for Llama 3.
  if (chosen == ScalingMethod::llama3)
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = L / p.real("high_freq_factor"),
                           .label = tr.format("scaling.ref.high_freq", {{"v", fig::num(p.real("high_freq_factor"))}}),
                           .style = fig::LineStyle::dotted});
  else if (chosen == ScalingMethod::yarn || chosen == ScalingMethod::yarn_paper)
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = L / p.real("beta_fast"),
                           .label = tr.format("scaling.ref.beta_fast", {{"beta", fig::num(p.real("beta_fast"))}}),
                           .style = fig::LineStyle::dotted});
  if (const auto warning = inverted_range_warning(p, tr, chosen))
    f.notes.push_back({.x = (none->theta.size() - 1) / 2.0, .y = none->wavelength[0] * 2, .text = *warning,
                       .anchor = fig::Anchor::center, .color = method_colour(chosen)});
  return f;
}

/// Why YaRN scales attention: one query's softmax over ℓ keys, its weights
/// and their entropy (nats). The query sits at position ℓ − 1, the keys at
/// 0 … ℓ − 1 (distance r = 0 … ℓ − 1), and q = k = (1, …, 1), the decay
/// lesson's vectors: entries of size 1, as in a trained model, so that the
/// scores q′·k′/√d spread as real ones do — √d = 11.3 for the nearest keys
/// (d = 128), about ±1 far away. RoPE's score at distance r is then
///   (2/√d)·Σᵢ cos(r·θᵢ),
/// multiplied by a² when cos and sin carry the attention factor a. At most
/// `kEntropyKeys` keys (fewer for large d, so the work stays near 2^21 cosines)
/// are used, sampled evenly over r; each sample then stands for ℓ/N keys (the
/// entropy gets + ln(ℓ/N)).
struct Entropy {
  double nats = 0;
  double keys_used = 0;  ///< N, the keys evaluated (ℓ when not capped)
};
constexpr double kEntropyKeys = 65536;

/// z[k] = Σᵢ cos(r_k·θᵢ) at the keys r_k = k·step evaluated (step 1, or
/// (ℓ − 1)/(N − 1) when sampled), for ℓ keys.
struct KeyScores {
  double ell = 0, n = 0, step = 1;
  std::vector<double> z;
};

KeyScores key_scores(double ell, const Eigen::VectorXd& theta) {
  const double pairs = static_cast<double>(theta.size());
  const double cap = std::clamp(std::floor(2097152.0 / pairs), 128.0, kEntropyKeys);
  ell = std::max(1.0, std::floor(ell));
  const double n = std::min(ell, cap);
  const auto count = static_cast<std::size_t>(n);
  const double step = n == ell ? 1.0 : (ell - 1) / std::max(1.0, n - 1);
  // The figures and the readout ask for the same sums, with and without a²:
  // the last ones are kept (one thread builds a lesson's figures and
  // readouts) and only rescaled by a².
  thread_local KeyScores kept[2];  // the trained and the extended context
  thread_local Eigen::VectorXd kept_theta[2];
  thread_local int next_slot = 0;
  for (int k = 0; k < 2; ++k)
    if (kept[k].ell == ell && kept_theta[k].size() == theta.size() && kept_theta[k] == theta) return kept[k];
  // cos(r_k θ_i) by one complex rotation per key, re-anchored with std::cos
  // and std::sin every kAnchor keys (at ℓ = 10^9 the arguments are so large
  // that each std::cos pays a slow argument reduction; 32 rotations drift by ~1e-14).
  constexpr std::size_t kAnchor = 32;
  KeyScores out{ell, n, step, std::vector<double>(count, 0.0)};
  for (Eigen::Index i = 0; i < theta.size(); ++i) {
    const double cw = std::cos(step * theta[i]), sw = std::sin(step * theta[i]);
    double c = 1, s = 0;
    for (std::size_t k = 0; k < count; ++k) {
      if (k % kAnchor == 0) {
        const double angle = static_cast<double>(k) * step * theta[i];
        c = std::cos(angle), s = std::sin(angle);
      }
      out.z[k] += c;
      const double next = c * cw - s * sw;
      s = s * cw + c * sw, c = next;
    }
  }
  kept[next_slot] = out, kept_theta[next_slot] = theta;
  next_slot = 1 - next_slot;
  return out;
}

/// The softmax weights of the evaluated keys for the logits a²·(2/√d)·z,
/// summing to 1 over them (when sampled, each stands for ℓ/N keys).
std::vector<double> key_weights(const KeyScores& k, double pairs, double a2) {
  const double scale = a2 * 2 / std::sqrt(2 * pairs);
  double top = -std::numeric_limits<double>::infinity();
  for (double v : k.z) top = std::max(top, scale * v);
  std::vector<double> w(k.z.size());
  double total = 0;
  for (std::size_t i = 0; i < w.size(); ++i) total += w[i] = std::exp(scale * k.z[i] - top);
  for (double& v : w) v /= total;
  return w;
}

Entropy attention_entropy(double ell, const Eigen::VectorXd& theta, double a2) {
  const KeyScores k = key_scores(ell, theta);
  double h = 0;
  for (double w : key_weights(k, static_cast<double>(theta.size()), a2))
    if (w > 0) h -= w * std::log(w);
  return {h + std::log(k.ell / k.n), k.n};
}

/// The share of the query's attention on the keys within distance r, at about
/// `points` distances spread evenly on a log axis from 1 to ℓ − 1: how far its
/// weights reach.
std::pair<std::vector<double>, std::vector<double>> attention_reach(double ell, const Eigen::VectorXd& theta, double a2,
                                                                    int points) {
  const KeyScores k = key_scores(ell, theta);
  const std::vector<double> w = key_weights(k, static_cast<double>(theta.size()), a2);
  std::vector<double> r, share;
  double sum = 0;
  double next = 1;  // the next distance to record
  const double factor = std::pow(std::max(2.0, k.ell - 1), 1.0 / points);
  for (std::size_t i = 0; i < w.size(); ++i) {
    sum += w[i];
    const double at = static_cast<double>(i) * k.step;
    if (i > 0 && (at >= next || i + 1 == w.size())) {  // from r = 1: a log axis
      r.push_back(at), share.push_back(std::min(sum, 1.0));
      while (next <= at) next *= factor;
    }
  }
  return {r, share};
}

/// The factor a on cos and sin versus s (log x) for every method: YaRN's
/// 0.1·ln s + 1 (or HF's mscale ratio), 1 for the rest; scores scale by a².
Figure attention(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const double s_now = p.real("factor");
  const ScalingMethod chosen = selected_method(p);
  Figure f;
  f.title = tr("scaling.attention.title");
  // The subtitle states the rule of the method chosen (YaRN's mscale pair,
  // LongRoPE's √(1 + ln s / ln L), a factor given outright, or none).
  std::string rule;
  if (p.real("attention_factor") > 0 &&
      (chosen == ScalingMethod::yarn || chosen == ScalingMethod::longrope))
    rule = tr.format("scaling.attention.subtitle_given",
                     {{"method", method_name(tr, chosen)}, {"a", fig::num(p.real("attention_factor"))}});
  else if (chosen == ScalingMethod::yarn && p.real("mscale") == 0 && p.real("mscale_all_dim") == 0)
    rule = tr("scaling.attention.subtitle_default");  // HF's two temperature keys unset: the rule, not the key names
  else if (chosen == ScalingMethod::yarn)
    rule = tr.format("scaling.attention.subtitle", {{"mscale", fig::num(p.real("mscale"))},
                                                    {"all", fig::num(p.real("mscale_all_dim"))}});
  else if (chosen == ScalingMethod::longrope)
    rule = tr.format("scaling.attention.subtitle_longrope", {{"L", fig::num(p.real("original_context"))}});
  else if (chosen == ScalingMethod::yarn_paper)
    rule = tr("scaling.attention.subtitle_paper");
  else
    rule = tr.format("scaling.attention.subtitle_none", {{"method", method_name(tr, chosen)}});
  f.subtitle = fig::join_dot({rule, "s = " + fig::num(s_now)});
  f.x = {.label = tr("scaling.attention.axis.x"), .scale = fig::AxisScale::log};
  f.y = {.label = tr("scaling.attention.axis.y")};
  constexpr int kSamples = 97;
  std::vector<double> factors;
  for (int k = 0; k < kSamples; ++k) factors.push_back(std::pow(kMaxCoreFactor, k / double(kSamples - 1)));
  // Methods whose curves coincide are drawn once, with their names joined.
  struct Curve {
    std::vector<ScalingMethod> methods;
    std::vector<double> x, a;
  };
  std::vector<Curve> curves;
  for (const auto& info : kMethods) {
    if (!compared(p, info.method, chosen)) continue;
    Curve c{{info.method}, {}, {}};
    core::ScalingConfig config = scaling_config(p, info.method);
    for (double s : factors) {
      config.factor = s;
      if (const auto t = try_table(config)) c.x.push_back(s), c.a.push_back(t->attention_factor);
    }
    if (c.x.empty()) continue;
    bool merged = false;
    for (Curve& other : curves)
      if (other.x == c.x && other.a == c.a) other.methods.push_back(info.method), merged = true;
    if (!merged) curves.push_back(std::move(c));
  }
  for (const Curve& c : curves) {
    std::vector<std::string> names;
    for (ScalingMethod m : c.methods) names.push_back(method_name(tr, m));
    const ScalingMethod lead = c.methods.front();
    // The flat a = 1 shared by most methods is named by what it is: six
    // method names joined made the legend as wide as the plot, over the a² curve.
    const bool flat = c.methods.size() > 2 && std::all_of(c.a.begin(), c.a.end(), [](double a) { return a == 1; });
    fig::Series sr{.name = flat ? tr("scaling.attention.flat") : fig::join_dot(names), .color = method_colour(lead),
                   .width = 2.4f};
    sr.x = c.x, sr.y = c.a;
    sr.x_name = "s";
    sr.y_name = "a";
    std::vector<double> squared;
    for (double a : c.a) squared.push_back(a * a);
    sr.extra = {{"a²", "", squared}};
    if (lead == ScalingMethod::yarn) {
      fig::Series sq{.name = tr("scaling.attention.squared"), .color = method_colour(lead), .width = 1.4f,
                     .style = fig::LineStyle::dashed};
      sq.x = c.x, sq.y = squared;
      sq.x_name = "s";
      sq.y_name = "a²";
      f.series.push_back(std::move(sq));
    }
    f.series.push_back(std::move(sr));
  }
  f.ref_lines.push_back({.orientation = fig::Orientation::vertical, .value = s_now});
  // The selected method at the current s, marked and labelled.
  if (const auto t = try_table(p, chosen)) {
    const double a = t->attention_factor;
    fig::Series now{.name = "", .kind = fig::SeriesKind::scatter, .color = method_colour(chosen), .marker = 5.0f};
    now.x = {s_now}, now.y = {a};
    now.data_name = tr.format("scaling.attention.now_point", {{"method", method_name(tr, chosen)}, {"s", fig::num(s_now)}});
    now.x_name = "s";
    now.y_name = "a";
    now.extra = {{"a²", "", {a * a}}};
    f.series.push_back(std::move(now));
    // The values at s name the line through the marker: the layout puts a
    // line's label where it covers no curve (a note beside the marker lay
    // along YaRN's curve, which rises through it).
    f.ref_lines.back().label =
        tr.format("scaling.attention.now", {{"s", fig::num(s_now)}, {"a", fig::num(a, 5)}, {"a2", fig::num(a * a, 5)}});
    f.ref_lines.back().color = method_colour(chosen);
  }
  for (int k = 0; k <= 10; ++k) f.x.ticks.emplace_back(std::ldexp(1.0, k), fig::num(std::ldexp(1.0, k)));
  f.legend = fig::LegendPlace::automatic;
  return f;
}

/// What the attention factor does to one query's weights: the share of its
/// attention on the keys within distance r (log x), over the L trained keys
/// with θᵢ, over the s·L keys with θ′ᵢ, and the same with every score × a².
/// A flat attention reaches far before its share adds up; the legend gives the
/// share of the 16 nearest keys.
Figure reach(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const ScalingMethod chosen = selected_method(p);
  Figure f;
  f.title = tr("scaling.reach.title");
  f.x = {.label = tr("scaling.reach.axis.x"), .unit = tr("unit.tokens"), .scale = fig::AxisScale::log};
  f.y = {.label = tr("scaling.reach.axis.y"), .min = 0.0, .max = 1.0};
  const auto none = try_table(p, ScalingMethod::none);
  const auto t = try_table(p, chosen);
  if (!none || !t) {
    f.subtitle = undefined_note(tr, p, chosen);
    return f;
  }
  const auto maps = scaling::position_maps(p);
  const double a2 = t->attention_factor * t->attention_factor;
  f.subtitle = fig::join_dot({method_name(tr, chosen), "a² = " + fig::num(a2, 4), tr("scaling.reach.subtitle")});
  constexpr int kPoints = 400;
  constexpr double kNear = 16;  // the legend's share: the 16 nearest keys, r = 0 … 15
  struct Line {
    double ell;
    const Eigen::VectorXd* theta;
    double a2;
    std::string name;
    fig::Color color;
    float width;
    fig::LineStyle style;
  };
  const double keys = std::floor(maps.L_target), trained = std::floor(maps.L);
  const std::array<Line, 3> lines{
      Line{trained, &none->theta, 1, tr.format("scaling.reach.trained", {{"L", fig::num(trained)}}),
           method_colour(ScalingMethod::none), 2.0f, fig::LineStyle::solid},
      Line{keys, &t->scaled_theta, 1, tr.format("scaling.reach.wide", {{"Lt", fig::num(keys)}}), method_colour(chosen), 1.6f,
           fig::LineStyle::dashed},
      Line{keys, &t->scaled_theta, a2, tr.format("scaling.reach.sharp", {{"Lt", fig::num(keys)}, {"a2", fig::num(a2, 4)}}),
           method_colour(chosen), 2.8f, fig::LineStyle::solid}};
  for (const Line& l : lines) {
    if (&l == &lines[2] && a2 == 1) continue;  // the same as the second
    const auto [r, share] = attention_reach(l.ell, *l.theta, l.a2, kPoints);
    // the 16 nearest keys' share: the last point below r = 16 (every key is evaluated there unless sampled)
    double near = 0;
    for (std::size_t i = 0; i < r.size() && r[i] < kNear; ++i) near = share[i];
    fig::Series s{.name = tr.format("scaling.reach.series", {{"name", l.name}, {"share", fig::num(100 * near, 3)}}),
                  .color = l.color, .width = l.width, .style = l.style};
    s.x = r, s.y = share;
    s.x_name = tr("scaling.readout.distance");
    s.y_name = tr("scaling.reach.readout");
    f.series.push_back(std::move(s));
  }
  f.ref_lines.push_back({.orientation = fig::Orientation::vertical, .value = kNear - 1, .label = tr("scaling.reach.near"),
                         .style = fig::LineStyle::dotted});
  f.legend = fig::LegendPlace::bottom_right;
  return f;
}

/// What the attention factor is for, measured: the entropy (nats) of one
/// query's weights over the L trained keys with θᵢ, over the s·L keys of the
/// extended context with θ′ᵢ, and the same with every score × a² (the
/// numbers of the entropy readout), as three bars, each beside ln N, the
/// entropy of N equal weights.
Figure entropy(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const ScalingMethod chosen = selected_method(p);
  Figure f;
  f.title = tr("scaling.entropy.title");
  f.x = {.label = tr("scaling.entropy.axis.x"), .min = 0.4, .max = 3.6};
  f.y = {.label = tr("scaling.entropy.axis.y"), .min = 0.0};
  f.legend = fig::LegendPlace::none;
  const auto none = try_table(p, ScalingMethod::none);
  const auto t = try_table(p, chosen);
  if (!none || !t) {
    f.subtitle = undefined_note(tr, p, chosen);
    return f;
  }
  const auto maps = scaling::position_maps(p);
  const double a2 = t->attention_factor * t->attention_factor;
  const double keys = std::floor(maps.L_target);
  const Entropy trained = attention_entropy(maps.L, none->theta, 1);
  const Entropy wide = attention_entropy(maps.L_target, t->scaled_theta, 1);
  const Entropy sharp = a2 == 1 ? wide : attention_entropy(maps.L_target, t->scaled_theta, a2);
  f.subtitle = fig::join_dot({method_name(tr, chosen), "a² = " + fig::num(a2, 4), tr("scaling.entropy.subtitle")});
  const std::array<double, 3> h{trained.nats, wide.nats, sharp.nats};
  const std::array<double, 3> n{std::floor(maps.L), keys, keys};
  const std::array<std::string, 3> names{tr.format("scaling.entropy.trained", {{"L", fig::num(std::floor(maps.L))}}),
                                         tr.format("scaling.entropy.wide", {{"Lt", fig::num(keys)}}),
                                         tr.format("scaling.entropy.sharp", {{"Lt", fig::num(keys)}, {"a2", fig::num(a2, 4)}})};
  fig::Series bars{.name = "", .kind = fig::SeriesKind::bars, .color = method_colour(chosen)};
  fig::Series equal{.name = "", .kind = fig::SeriesKind::scatter, .color = method_colour(ScalingMethod::none), .marker = 5.0f};
  for (std::size_t k = 0; k < 3; ++k) {
    const double x = static_cast<double>(k + 1);
    bars.x.push_back(x), bars.y.push_back(h[k]);
    equal.x.push_back(x), equal.y.push_back(std::log(n[k]));
    f.x.ticks.emplace_back(x, names[k]);
    f.notes.push_back({.x = x, .y = h[k] / 2, .text = fig::num(h[k], 5), .anchor = fig::Anchor::center});
  }
  bars.x_name = equal.x_name = tr("scaling.entropy.keys");
  bars.y_name = tr("scaling.entropy.nats");
  equal.y_name = tr("scaling.entropy.uniform");
  // Not in a legend (the bars are named on the x axis): their names for the
  // CSV, and how many keys each bar is over (x is the bar's place, 1–3).
  bars.data_name = tr("scaling.entropy.nats"), equal.data_name = tr("scaling.entropy.uniform");
  bars.extra = equal.extra = {{tr("scaling.entropy.count"), "", std::vector<double>(n.begin(), n.end())}};
  f.series = {std::move(bars), std::move(equal)};
  f.y.max = std::log(std::max(n[0], n[1])) * 1.15;
  return f;
}

/// Bins of integer distances over [0, L′] (log-spaced from 1 when the axis is
/// logarithmic, else even), about three pixels each, and about `per_bin`
/// distances sampled inside each bin: the multiples of a power-of-two stride
/// (the largest not above count / per_bin), so neighbouring bins with the
/// same stride continue one arithmetic progression — what core's blocked
/// bound kernel computes fastest (it works in runs of 64 distances).
struct DistanceBins {
  std::vector<double> samples;     ///< every sampled distance, bin after bin
  std::vector<std::size_t> first;  ///< bin k holds samples[first[k] .. first[k + 1])
  std::vector<double> centre;      ///< the mean sampled distance of each bin (its x)
  double stride_from = -1;         ///< the first distance of the first bin not taken whole (−1: none)
  double max_stride = 1;           ///< the largest stride: bins are averaged over every k-th distance, k ≤ this
};

DistanceBins distance_bins(double L_target, int pairs, double width, bool log_x) {
  const double end = std::floor(std::min(L_target, kMaxCoreDistance));
  const double start = log_x ? 1.0 : 0.0;
  // ~3 pixels a bin, and at most 2^16/(d/2) bins: a bin's few sampled
  // distances are rarely a progression, so each costs d/2 sin/cos per curve
  // (d = 1024: 128 bins; d = 8192: 16).
  const int bins = static_cast<int>(std::clamp(std::min(width / 3, 65'536.0 / pairs), 16.0, 2048.0));
  // at most ~2^18 pair evaluations per curve (a frame of the GUI draws three
  // curves while the factor slider moves; the power-of-two strides may give
  // a bin up to twice as many), and 1 to 16 samples per bin
  const int per_bin = static_cast<int>(std::clamp(262'144.0 / (bins * static_cast<double>(pairs)), 1.0, 16.0));
  std::vector<double> edges;  // integer edges, strictly increasing; bin k = [edges[k], edges[k + 1])
  for (int k = 0; k <= bins; ++k) {
    const double u = k / static_cast<double>(bins);
    const double e = std::floor(log_x ? std::pow(std::max(end, 1.0) + 1, u) : start + (end + 1 - start) * u);
    if (edges.empty() || e > edges.back()) edges.push_back(e);
  }
  if (edges.size() < 2) edges = {start, start + 1};
  DistanceBins b;
  for (std::size_t k = 0; k + 1 < edges.size(); ++k) {
    const double lo = edges[k], count = edges[k + 1] - edges[k];
    const double stride = std::exp2(std::floor(std::log2(std::max(1.0, std::floor(count / per_bin)))));
    b.first.push_back(b.samples.size());
    double sum = 0;
    int n = 0;
    for (double r = std::ceil(lo / stride) * stride; r < edges[k + 1]; r += stride, ++n) b.samples.push_back(r), sum += r;
    b.centre.push_back(sum / n);
    if (stride > 1 && b.stride_from < 0) b.stride_from = lo;
    b.max_stride = std::max(b.max_stride, stride);
  }
  b.first.push_back(b.samples.size());
  return b;
}

/// RoFormer's relative bound (1/(d/2))·Σ_j |Σ_{k<j} e^{i r θ′_k}| (§3.4.3)
/// over [0, L′] for the original frequencies, the original stretched by s
/// (what PI gives exactly) and the selected method, each divided by its value
/// at 0, (d/2 + 1)/2. The bound swings from token to token, so each point is
/// its mean over the distances of one bin (about three pixels wide): over
/// every integer distance of the bin where that fits the budget, else over
/// every k-th one — the subtitle says which, and from where.
Figure score(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const bool log_x = p.boolean("log_x");
  const auto [chosen, s, L, Lt] = scaling::extension(p);
  Figure f;
  f.title = tr("scaling.score.title");
  f.subtitle = params_subtitle(p);
  f.x = {.label = tr("scaling.axis.distance"), .unit = tr("unit.tokens"),
         .scale = log_x ? fig::AxisScale::log : fig::AxisScale::linear};
  f.y = {.label = tr("scaling.score.axis.y"), .min = 0.0, .max = 1.05};
  const std::optional<core::ScalingTable> none = try_table(p, ScalingMethod::none);
  if (!none) return f;
  // On a log axis the curves start high at the left and the L line stands at
  // the right (a top-right legend covered it): the bottom left is free.
  f.legend = log_x ? fig::LegendPlace::bottom_left : fig::LegendPlace::top_right;
  const DistanceBins bins = distance_bins(Lt, static_cast<int>(none->theta.size()), ctx.width, log_x);
  f.subtitle = fig::join_dot(
      {f.subtitle, bins.stride_from < 0
                       ? tr("scaling.score.mean_every")
                       : tr.format("scaling.score.mean_sampled", {{"r", fig::num(bins.stride_from)}, {"k", fig::num(bins.max_stride)}})});
  const std::size_t nbins = bins.centre.size();
  auto curve = [&](const Eigen::VectorXd& theta) {
    const std::span<const double> th(theta.data(), static_cast<std::size_t>(theta.size()));
    std::vector<double> values(bins.samples.size());
    core::rope_decay_bound_curve(bins.samples, th, values);
    const double at0 = core::rope_decay_bound(0, th);
    std::vector<double> mean(nbins);
    for (std::size_t k = 0; k < nbins; ++k) {
      double sum = 0;
      for (std::size_t j = bins.first[k]; j < bins.first[k + 1]; ++j) sum += values[j];
      mean[k] = sum / static_cast<double>(bins.first[k + 1] - bins.first[k]) / at0;
    }
    return mean;
  };
  const std::vector<double> original = curve(none->theta);
  fig::Series inside{.name = tr("scaling.score.original"), .color = method_colour(ScalingMethod::none), .width = 2.0f};
  fig::Series beyond{.name = tr("scaling.score.beyond"), .color = method_colour(ScalingMethod::none), .width = 1.4f,
                     .style = fig::LineStyle::dashed};
  for (std::size_t k = 0; k < nbins; ++k) {
    fig::Series& sr = bins.centre[k] <= L ? inside : beyond;
    sr.x.push_back(bins.centre[k]), sr.y.push_back(original[k]);
  }
  // Neutral dots, drawn over the method's curve: in PI's orange they vanished on PI's line.
  fig::Series stretched{.name = tr.format("scaling.score.stretched", {{"s", fig::num(s)}}),
                        .color = fig::Color::rgb(0x5f6368), .width = 2.2f, .style = fig::LineStyle::dotted};
  stretched.x = bins.centre, stretched.y = curve(none->theta / s);
  f.series = {std::move(inside), std::move(beyond)};
  // The method's curve under the dotted "stretched" one, wider, so that the
  // dots stay visible where PI lies exactly on it (drawn last, PI hid them).
  std::optional<fig::Series> method_curve;
  if (chosen != ScalingMethod::none) {
    if (const auto t = try_table(p, chosen)) {
      fig::Series sr{.name = method_name(tr, chosen), .color = method_colour(chosen), .width = 3.4f};
      sr.x = bins.centre, sr.y = curve(t->scaled_theta);
      method_curve = std::move(sr);
    } else {
      f.notes.push_back({.x = bins.centre.back(), .y = 0.9, .text = undefined_note(tr, p, chosen), .anchor = fig::Anchor::right,
                         .color = method_colour(chosen)});
    }
  }
  if (method_curve) f.series.push_back(std::move(*method_curve));
  f.series.push_back(std::move(stretched));
  for (fig::Series& sr : f.series) {
    sr.x_name = tr("scaling.readout.distance");
    sr.y_name = tr("scaling.readout.relative");
  }
  // L and L′ as labels of their lines: the layout puts each beside its line
  // where it covers no curve and not the other label (two notes at fixed
  // heights overlapped when L′ is close to L on the axis).
  const double x_end = std::min(Lt, kMaxCoreDistance);
  f.ref_lines.push_back({.orientation = fig::Orientation::vertical, .value = L, .label = "L = " + fig::num(L)});
  if (s > 1) f.ref_lines.push_back({.orientation = fig::Orientation::vertical, .value = x_end, .label = "L′ = " + fig::num(Lt)});
  return f;
}

/// Target position m ↦ the position RoPE is evaluated at: unchanged, PI's m/s
/// and the notes' m·(1/s)^γ, with the trained range [0, L] shaded and the
/// point L·s^γ where the γ map leaves it. The notes' printed values (seed 002
/// §4.4.2: 100 → ~42, 1000 → ~209, 30000 → ~6270) are marked at their own
/// parameters s = 8, γ = 0.8.
Figure positions(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const auto [s, gamma, L, Lt] = scaling::position_maps(p);
  const bool log_axes = p.boolean("log_x");
  const auto pos = p.list("pos");
  double x_end = Lt;
  for (double m : pos) x_end = std::max(x_end, m);
  x_end = std::min(x_end, kMaxCoreDistance);
  const double x_start = log_axes ? 1.0 : 0.0;
  if (!(x_end > x_start)) x_end = x_start + 1;
  const double limit = core::position_map_gamma_limit(L, s, gamma);
  Figure f;
  f.title = tr("scaling.positions.title");
  f.subtitle = fig::join_dot({"s = " + fig::num(s), "η = " + fig::num(gamma), "L = " + fig::num(L), "L′ = " + fig::num(Lt),
                              tr.format("scaling.positions.slope", {{"v", fig::num(std::pow(1 / s, gamma), 5)}})});
  const auto scale = log_axes ? fig::AxisScale::log : fig::AxisScale::linear;
  f.x = {.label = tr("scaling.positions.axis.x"), .unit = tr("unit.tokens"), .scale = scale};
  f.y = {.label = tr("scaling.positions.axis.y"), .unit = tr("unit.tokens"), .scale = scale};
  // Straight lines through the origin: a few points suffice (more on log axes).
  std::vector<double> xs;
  const int n = log_axes ? 64 : 2;
  for (int k = 0; k < n; ++k)
    xs.push_back(log_axes ? x_start * std::pow(x_end / x_start, k / double(n - 1)) : x_start + (x_end - x_start) * k / (n - 1));
  fig::Series same{.name = tr("scaling.positions.none"), .color = method_colour(ScalingMethod::none), .width = 1.4f,
                   .style = fig::LineStyle::dashed};
  fig::Series lin{.name = tr("scaling.positions.linear"), .color = method_colour(ScalingMethod::linear), .width = 2.2f};
  fig::Series gam{.name = tr("scaling.positions.gamma"), .color = method_colour(ScalingMethod::seed), .width = 2.2f};
  for (double m : xs) {
    same.x.push_back(m), same.y.push_back(m);
    lin.x.push_back(m), lin.y.push_back(core::position_map_linear(m, s));
    gam.x.push_back(m), gam.y.push_back(core::position_map_gamma(m, s, gamma));
  }
  for (fig::Series* sr : {&same, &lin, &gam}) {
    sr->x_name = "p";
    sr->y_name = "p′";
  }
  f.series = {std::move(same), std::move(lin), std::move(gam)};
  // The asked-for positions as markers on both maps (the lines already show
  // long lists; markers for at most 512 of them).
  if (pos.size() <= 512) {
    fig::Series marks{.name = tr("scaling.positions.marks"), .kind = fig::SeriesKind::scatter,
                      .color = method_colour(ScalingMethod::seed), .marker = 4.0f};
    std::vector<double> linear_values, inside;
    for (double m : pos) {
      if (log_axes && m < 1) continue;
      const double g = core::position_map_gamma(m, s, gamma);
      marks.x.push_back(m), marks.y.push_back(g);
      linear_values.push_back(core::position_map_linear(m, s));
      inside.push_back(g <= L ? 1.0 : 0.0);
    }
    marks.x_name = "p";
    marks.y_name = tr("scaling.readout.gamma_mapped");
    marks.extra = {{tr("scaling.readout.linear_mapped"), "", linear_values}, {tr("scaling.readout.inside"), "", inside}};
    if (!marks.x.empty()) f.series.push_back(std::move(marks));
  }
  if (s == 8 && gamma == 0.8) {
    fig::Series notes{.name = tr("scaling.positions.notes"), .kind = fig::SeriesKind::scatter,
                      .color = method_colour(ScalingMethod::llama3), .marker = 5.0f};  // red: no Llama 3 here
    for (auto [m, claimed] : {std::pair{100.0, 42.0}, {1000.0, 209.0}, {30000.0, 6270.0}})
      if (m <= x_end) notes.x.push_back(m), notes.y.push_back(claimed);
    notes.x_name = "p";
    notes.y_name = tr("scaling.readout.notes_value");
    if (!notes.x.empty()) f.series.push_back(std::move(notes));
  }
  if (limit <= x_end && limit >= x_start)
    f.ref_lines.push_back({.orientation = fig::Orientation::vertical, .value = limit,
                           .label = tr.format("scaling.ref.gamma_limit", {{"m", fig::num(limit, 6)}}),
                           .color = method_colour(ScalingMethod::seed)});
  // y up to a little above the higher of L and the γ map's end: the identity
  // line leaves the plot at the top (it is only there to show how fast).
  const double y_top = std::max(L, core::position_map_gamma(x_end, s, gamma)) * (log_axes ? 2.0 : 1.25);
  const double y_bottom = log_axes ? std::min(x_start, core::position_map_linear(x_start, s)) : 0.0;
  f.y.min = y_bottom;
  f.y.max = y_top;
  // The trained range [0, L], labelled at the left just above its top.
  f.bands.push_back({.orientation = fig::Orientation::horizontal, .from = y_bottom, .to = L,
                     .color = method_colour(ScalingMethod::dynamic).with_alpha(0.12f)});
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = L, .color = method_colour(ScalingMethod::dynamic)});
  f.notes.push_back({.x = log_axes ? x_start * 1.2 : x_start + (x_end - x_start) * 0.01,
                     .y = log_axes ? L * 1.25 : L + (y_top - y_bottom) * 0.025,
                     .text = tr.format("scaling.ref.trained_top", {{"L", fig::num(L)}}),
                     .color = method_colour(ScalingMethod::dynamic)});
  f.legend = fig::LegendPlace::bottom_right;
  return f;
}

// [SECTION] Readouts

/// ‖q′‖/‖q‖ for the notes' "rotation" (seed 002 §4.5):
///   q′ = q·cos(emb) + torch.roll(q, 1)·sin(emb),  emb = cat(m·θ, m·θ)
/// torch.roll(q, 1)[j] = q[j − 1] (q[d − 1] for j = 0). HF's rotate_half would
/// use cat(−q[d/2:], q[:d/2]) and keep the norm; roll does not pair anything.
double notes_roll_norm_ratio(const Eigen::VectorXd& q, double m, const Eigen::VectorXd& theta) {
  const Eigen::Index d = q.size(), half = d / 2;
  Eigen::VectorXd out(d);
  for (Eigen::Index j = 0; j < d; ++j) {
    const double angle = m * theta[j % half];
    out[j] = q[j] * std::cos(angle) + q[(j + d - 1) % d] * std::sin(angle);
  }
  return out.norm() / q.norm();
}

std::vector<Readout> readouts(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const ScalingMethod chosen = selected_method(p);
  const std::string name = method_name(tr, chosen);
  const int d = static_cast<int>(p.integer("d"));
  const auto [s, gamma, L, Lt] = scaling::position_maps(p);
  std::vector<Readout> out;
  const std::optional<core::ScalingTable> none = try_table(p, ScalingMethod::none);
  if (!none) return out;
  const std::optional<core::ScalingTable> t = try_table(p, chosen);

  // What the selected method does to each pair: by-parts methods count their
  // regimes (ramp 1, between, 0); PI divides all by s, none keeps all; the
  // base-changing methods divide each pair by its own number.
  if (t) {
    int kept = 0, blended = 0, divided = 0;
    for (Eigen::Index i = 0; i < t->ramp.size(); ++i) (t->ramp[i] == 1 ? kept : t->ramp[i] == 0 ? divided : blended) += 1;
    const auto n = std::to_string(t->ramp.size());
    std::string value;
    double number = kept;
    switch (chosen) {
      case ScalingMethod::yarn:
      case ScalingMethod::yarn_paper:
        value = tr.format("scaling.readout.regimes_yarn",
                          {{"kept", std::to_string(kept)}, {"blended", std::to_string(blended)}, {"divided", std::to_string(divided)}});
        break;
      case ScalingMethod::llama3:
        value = tr.format("scaling.readout.regimes_llama3", {{"kept", std::to_string(kept)}, {"blended", std::to_string(blended)},
                                                             {"divided", std::to_string(divided)}, {"s", fig::num(s)}});
        break;
      case ScalingMethod::linear:
        value = tr.format("scaling.readout.regimes_linear", {{"n", n}, {"s", fig::num(s)}});
        number = divided;
        break;
      case ScalingMethod::none:
        value = tr.format("scaling.readout.regimes_none", {{"n", n}});
        break;
      case ScalingMethod::longrope: {
        // Which list divides the pairs (HF switches the whole table once seq_len > L) and its range.
        const Eigen::VectorXd divisor = t->theta.cwiseQuotient(t->scaled_theta);
        const bool lists = p.is_set(*t->uses_long_factor ? "long_factor" : "short_factor");
        value = tr.format(lists ? "scaling.readout.regimes_longrope" : "scaling.readout.regimes_longrope_uniform",
                          {{"list", *t->uses_long_factor ? "long_factor" : "short_factor"},
                           {"n", fig::num(static_cast<double>(p.integer("seq_len")))},
                           {"cmp", *t->uses_long_factor ? ">" : "≤"},
                           {"L", fig::num(L)},
                           {"min", fig::num(divisor.minCoeff(), 6)},
                           {"max", fig::num(divisor.maxCoeff(), 6)},
                           {"s", fig::num(s)}});
        number = divisor.maxCoeff();
        break;
      }
      default: {
        const Eigen::Index last = t->theta.size() - 1;
        const double first = t->theta[0] / t->scaled_theta[0], end = t->theta[last] / t->scaled_theta[last];
        value = tr.format("scaling.readout.regimes_base",
                          {{"first", fig::num(first, 6)}, {"last", fig::num(end, 6)}, {"i", std::to_string(last)}});
        number = end;
      }
    }
    out.push_back({tr.format("scaling.readout.regimes", {{"method", name}}), value, number, std::nullopt});
  }

  // Angles never seen in training: without scaling, and under the chosen method.
  const int unseen_none = count_unseen(*none, L, Lt);
  out.push_back({tr("scaling.readout.unseen_none"),
                 tr.format("scaling.readout.unseen_value", {{"n", std::to_string(unseen_none)}, {"of", std::to_string(d / 2)}}),
                 static_cast<double>(unseen_none), std::nullopt});
  if (t) {
    const int unseen = count_unseen(*t, L, Lt);
    std::optional<bool> holds;
    if (guarantees_no_unseen(p, chosen, *t)) holds = unseen == 0;
    out.push_back({tr.format("scaling.readout.unseen_method", {{"method", name}}),
                   tr.format("scaling.readout.unseen_value", {{"n", std::to_string(unseen)}, {"of", std::to_string(d / 2)}}),
                   static_cast<double>(unseen), holds});

    // The fastest pair: the angle between neighbouring tokens.
    const double ratio0 = t->scaled_theta[0] / t->theta[0];
    out.push_back({tr.format("scaling.readout.fastest", {{"method", name}}),
                   tr.format("scaling.readout.fastest_value", {{"theta", fig::num(t->scaled_theta[0], 6)}, {"ratio", fig::num(ratio0, 6)},
                                                               {"pi", fig::num(1 / s, 6)}}),
                   ratio0, std::nullopt});

    // The by-parts identity, with core's effective divisor (s, or more for
    // dynamic NTK past ~2L and the notes' formula with t > d/2).
    double worst = 0;
    for (Eigen::Index i = 0; i < t->theta.size(); ++i) {
      const double mix = t->ramp[i] * t->theta[i] + (1 - t->ramp[i]) * t->theta[i] / t->effective_factor;
      worst = std::max(worst, std::abs(t->scaled_theta[i] - mix) / t->scaled_theta[i]);
    }
    out.push_back({tr.format("scaling.readout.by_parts", {{"method", name}}),
                   tr.format("scaling.readout.by_parts_value", {{"err", fig::num(worst, 2)}, {"s", fig::num(t->effective_factor, 6)}}),
                   worst, worst <= 1e-12});

    out.push_back({tr.format("scaling.readout.attention", {{"method", name}}),
                   tr.format("scaling.readout.attention_value", {{"a", fig::num(t->attention_factor, 6)},
                                                                 {"a2", fig::num(t->attention_factor * t->attention_factor, 6)}}),
                   t->attention_factor, std::nullopt});

    // Why the factor: over s·L keys the softmax spreads thinner; a² > 1
    // sharpens it back (holds: the entropy with scores × a² is not above the one
    // without). No claim for a² ≤ 1: a = 1 changes nothing, and an mscale
    // below mscale_all_dim gives a² < 1, which flattens instead.
    const double a2 = t->attention_factor * t->attention_factor;
    const Entropy trained = attention_entropy(L, none->theta, 1);
    const Entropy wide = attention_entropy(Lt, t->scaled_theta, 1);
    const Entropy sharp = a2 == 1 ? wide : attention_entropy(Lt, t->scaled_theta, a2);
    // (no claim for an attention_factor given outright: any number can be typed there)
    std::optional<bool> sharper;
    // The entropy of softmax(β·z) never rises with β (dH/dβ = −β·Var(z)), and
    // stays equal when every score is the same (at extreme bases and lengths
    // the sampled keys can all score alike): ≤, up to rounding.
    if (a2 > 1 && p.real("attention_factor") == 0)
      sharper = sharp.nats <= wide.nats + 1e-12 * std::max(1.0, std::abs(wide.nats));
    std::string value = tr.format("scaling.readout.entropy_value",
                                  {{"L", fig::num(L)}, {"h0", fig::num(trained.nats, 5)}, {"Lt", fig::num(std::floor(Lt))},
                                   {"h1", fig::num(wide.nats, 5)}, {"a2", fig::num(a2, 5)}, {"h2", fig::num(sharp.nats, 5)}});
    if (wide.keys_used < std::floor(Lt) || trained.keys_used < std::floor(L))
      value += tr.format("scaling.readout.entropy_capped", {{"n", fig::num(wide.keys_used)}});
    out.push_back({tr.format("scaling.readout.entropy", {{"method", name}}), value, sharp.nats, sharper});
  }

  // Dynamic NTK: HF's scale s·seq_len/L − (s − 1) and the base it gives.
  if (const auto dyn = try_table(p, ScalingMethod::dynamic)) {
    const double seq = std::max(static_cast<double>(p.integer("seq_len")), L);
    out.push_back({tr("scaling.readout.dynamic"),
                   tr.format("scaling.readout.dynamic_value", {{"scale", fig::num(s * seq / L - (s - 1), 6)},
                                                               {"base", fig::num(dyn->effective_base, 6)}}),
                   dyn->effective_base, std::nullopt});
  }

  // PI stretches every score by s: bound_PI(s·r) = bound(r), shown at r = L
  // (or the largest r with s·r inside core's distance range).
  {
    const double r = std::min(L, std::floor(kMaxCoreDistance / s));
    const Eigen::VectorXd pi_theta = none->theta / s;
    const std::span<const double> th(none->theta.data(), static_cast<std::size_t>(none->theta.size()));
    const std::span<const double> th_pi(pi_theta.data(), static_cast<std::size_t>(pi_theta.size()));
    const double before = core::rope_decay_bound(r, th);
    const double after = core::rope_decay_bound(s * r, th_pi);
    // angles s·r·(θ/s) differ from r·θ by a few ulps: |Δcos| ≤ 8·ε·r·θ per term
    const double tol = 1e-12 + 8 * kEps * r * none->theta.sum();
    out.push_back({tr("scaling.readout.pi_stretch"),
                   tr.format("scaling.readout.pi_stretch_value", {{"r", fig::num(r)}, {"sr", fig::num(s * r)},
                                                                  {"a", fig::num(before, 8)}, {"b", fig::num(after, 8)}}),
                   after - before, std::abs(after - before) <= tol});
  }

  // The notes' γ map (seed 002 §4.2/§4.4.2): slope, position 100, the limit L·s^γ, L′.
  const double slope = std::pow(1 / s, gamma);
  // The labels name the live s and η: the notes' own numbers are for s = 8, η = 0.8.
  const std::vector<std::pair<std::string, std::string>> at_s = {{"s", fig::num(s)}, {"eta", fig::num(gamma)}};
  out.push_back({tr.format("scaling.readout.gamma_slope", at_s), fig::num(slope, 6), slope, std::nullopt, true});
  const double m100 = core::position_map_gamma(100, s, gamma);
  out.push_back({tr.format("scaling.readout.gamma_100", at_s), fig::num(m100, 6), m100, std::nullopt, true});
  const double limit = core::position_map_gamma_limit(L, s, gamma);
  {
    const double back = limit <= kMaxCoreDistance ? core::position_map_gamma(limit, s, gamma) : L;
    out.push_back({tr("scaling.readout.gamma_limit"),
                   tr.format("scaling.readout.gamma_limit_value", {{"m", fig::num(limit, 7)}, {"L", fig::num(L)}}), limit,
                   std::abs(back - L) <= 1e-12 * L, true});
  }
  if (Lt <= kMaxCoreDistance) {
    const double last = core::position_map_gamma(Lt, s, gamma);
    out.push_back({tr.format("scaling.readout.gamma_target", {{"L", fig::num(Lt)}}),
                   tr.format(last <= L ? "scaling.readout.gamma_inside" : "scaling.readout.gamma_outside",
                             {{"m", fig::num(last, 6)}, {"L", fig::num(L)}}),
                   last, std::nullopt, true});
  }

  // The notes' frequency formula (seed 002 §4.4.2 step 1, §4.5 code): θ′ = θ/s^(t/(d/2)).
  if (const auto seed = try_table(p, ScalingMethod::seed)) {
    const int pair = d / 4;
    out.push_back({tr.format("scaling.readout.seed_theta", {{"i", std::to_string(pair)}, {"d", fig::num(d)}, {"s", fig::num(s)},
                                                            {"t", fig::num(p.real("temperature"))}}),
                   fig::num(seed->scaled_theta[pair], 6),
                   seed->scaled_theta[pair], std::nullopt, true});
    const double divisor = seed->theta[0] / seed->scaled_theta[0];
    out.push_back({tr("scaling.readout.notes_divisor"),
                   tr.format("scaling.readout.notes_divisor_value", {{"v", fig::num(divisor, 6)}, {"s", fig::num(s)}}), divisor,
                   std::nullopt, true});
  }

  // The notes' code rotates with torch.roll(q, 1); rotate_half (core, layout
  // half) is a rotation. q = (1, 2, …, d), position m = 1, plain θ_i.
  {
    Eigen::VectorXd q(d);
    for (int j = 0; j < d; ++j) q[j] = j + 1.0;
    const std::span<const double> th(none->theta.data(), static_cast<std::size_t>(none->theta.size()));
    const double roll = notes_roll_norm_ratio(q, 1, none->theta);
    const double half = core::rope_rotate<double>(q, 1, th, core::PairLayout::half).norm() / q.norm();
    out.push_back({tr("scaling.readout.roll"), fig::num(roll, 6), roll, std::nullopt, true});
    out.push_back({tr("scaling.readout.rotate_half"), fig::num(half, 12), half, std::abs(half - 1) <= 64 * kEps * d, true});
  }
  return out;
}

}  // namespace

// [SECTION] The view

ViewDef scaling_view() {
  return {.id = "scaling",
          .group = "extension",
          .keys = {"method", "d", "base", "factor", "original_context", "target_context", "seq_len", "beta_fast", "beta_slow", "mscale",
                   "mscale_all_dim", "low_freq_factor", "high_freq_factor", "gamma", "temperature", "truncate",
                   "attention_factor", "short_factor", "long_factor", "pos", "log_x", "compare"},
          .defaults = {{"pos", "100,1000,4096,8192,16384,30000,32768"}, {"log_x", "true"}},
          .figures = {{"ratio", ratio},
                      {"wavelength", wavelength},
                      {"score", score},
                      {"attention", attention},
                      {"reach", reach},
                      {"entropy", entropy},
                      {"positions", positions}},
          .tables = {"yarn-interpolation", "position-mapping", "notes-yarn-check", "rope-scaling", "position-map"},
          .readouts = readouts};
}

}  // namespace poslab::app
