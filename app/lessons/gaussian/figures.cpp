// Lesson "gaussian": the notes' Gaussian-kernel RoPE (seed 000), read exactly.
//   K(x) = α1·exp(−x²/2σ1²) + α2·exp(−x²/2σ2²)
//   notes (absolute): f(x, m) = K(m)·R_m x for q and k  ⇒  score = K(m)·K(n)·⟨R_m q, R_n k⟩
//   relative variant:                                       score = K(m − n)·⟨R_m q, R_n k⟩
// Only the relative form keeps RoPE's property that scores depend on m − n.
// Their sample code also mixes the pair layouts (core::rope_rotate_mixed).
// Scores use q = k = (1, …, 1) of dimension d, whose RoPE part is
// ⟨R_m 1, R_n 1⟩ = Σ_i 2cos((n − m)θ_i) = core::rope_ones_score (RoFormer §3.4.3).
//
// [SECTION] Index
// - Helpers
// - Figures: kernel, scores (absolute and relative), shift
// - Readouts
// - The view

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "app/plot/figure_text.hpp"
#include "app/plot/render.hpp"
#include "app/lessons/budget.hpp"
#include "app/lessons/gaussian/setting.hpp"
#include "app/lessons/common/figures.hpp"
#include "app/lessons/lesson.hpp"
#include "poslab/core/decay.hpp"
#include "poslab/core/gaussian.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::app {

namespace {

using fig::Figure;
using gaussian::mixed_rope;
using gaussian::notes_code_score;
using gaussian::score;
using lessons::gaussian_kernel;

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr long long kMaxMatrixPositions = 4096;  // the N × N score figures show at most this many positions
constexpr double kShiftWork = 1 << 18;           // pair rotations the shift readouts may spend (window·d)
constexpr double kCutoff = 0.01;                 // "erased": K below 1 % of K(0)

// [SECTION] Helpers

int d_of(const core::Params& p) { return static_cast<int>(p.integer("d")); }

/// The x from which |K| stays below 1 % of |K(0)| (positions there are
/// erased), or a negative value when K(0) = 0 (core::gaussian_kernel_cutoff).
double cutoff_of(const core::GaussianKernel& k) { return core::gaussian_kernel_cutoff(k, kCutoff); }

/// With both weights >= 0, K is positive and decreasing in |x|: the texts say
/// "K < 1% of K(0)". A negative weight lets K change sign, so they say it of
/// |K| (what the cutoff is measured on) and that K changes sign.
bool positive_weights(const core::GaussianKernel& k) { return k.alpha1 >= 0 && k.alpha2 >= 0; }

std::string kernel_subtitle(const FigureContext& ctx, const core::GaussianKernel& k) {
  return ctx.tr.format("gaussian.subtitle.kernel", {{"a1", fig::num(k.alpha1)}, {"s1", fig::num(k.sigma1)},
                                                    {"a2", fig::num(k.alpha2)}, {"s2", fig::num(k.sigma2)}});
}

/// The window of shifts the readouts check: `window`, capped so window·d stays
/// within kShiftWork pair rotations (the label says which window was used).
int shift_window(const core::Params& p) {
  const double cap = std::max(1.0, std::floor(kShiftWork / d_of(p)));
  return static_cast<int>(std::min(static_cast<double>(p.integer("window")), cap));
}

/// Rounding bound for two evaluations of a relative-form score at positions up
/// to `largest`: the kernel factor is the same; the RoPE part's angles pos·θ_i
/// (θ_i <= 1) round within u·pos, the sum of d terms adds a few ulp each.
double relative_tolerance(const core::GaussianKernel& k, int d, double largest) {
  const double peak = std::abs(k.alpha1) + std::abs(k.alpha2);
  return peak * d * (1e-12 + kEps * (8 * largest + 4 * d)) + std::numeric_limits<double>::denorm_min();
}

/// How many positions the N × N score figures show: every one up to
/// kMaxMatrixPositions, and no more than their table of Σ 2cos(rθ_i) (d/2
/// cosines a row) fits in half a figure's budget (lessons/budget.hpp): 4096
/// up to d = 1024, 512 at d = 8192. The subtitle says when they are fewer.
long long matrix_positions(const core::Params& p) {
  const auto fit = static_cast<long long>(kFigureWorkBudget / 2 / (d_of(p) / 2.0));
  return std::min({p.integer("positions"), kMaxMatrixPositions, std::max(fit, 64LL)});
}

/// The N × N score figure (N = matrix_positions) for `mode`, sampled at
/// the pixels: K factors and Σ 2cos(rθ_i) tabulated once per figure, every
/// cell value the exact score at integer (m, n).
Figure scores(const FigureContext& ctx, core::KernelMode mode) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const core::GaussianKernel k = gaussian_kernel(p);
  const int d = d_of(p);
  const double base = p.real("base");
  const long long n_all = p.integer("positions");
  const long long n = matrix_positions(p);
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
  const std::span<const double> th(theta.data(), static_cast<std::size_t>(theta.size()));
  // g[r] = ⟨R_m 1, R_{m+r} 1⟩ (even in r), kabs[x] = K(x), one table each.
  auto g = std::make_shared<std::vector<double>>(static_cast<std::size_t>(n));
  auto kx = std::make_shared<std::vector<double>>(static_cast<std::size_t>(n));
  for (long long r = 0; r < n; ++r) {
    (*kx)[static_cast<std::size_t>(r)] = k(static_cast<double>(r));
    (*g)[static_cast<std::size_t>(r)] = core::rope_ones_score(static_cast<double>(r), th);
  }
  const bool absolute = mode == core::KernelMode::absolute;
  auto value = [g, kx, absolute](long long m, long long nn) {
    const auto r = static_cast<std::size_t>(m > nn ? m - nn : nn - m);
    const double factor = absolute ? (*kx)[static_cast<std::size_t>(m)] * (*kx)[static_cast<std::size_t>(nn)] : (*kx)[r];
    return factor * (*g)[r];
  };
  // The largest |score| over the N × N cells, in O(N): |g(r)| ≤ g(0) = d
  // (a sum of d/2 terms 2cos), so the absolute form's K(m)K(n)g(m − n) is
  // largest on the diagonal where |K| peaks, K(m)²·g(0); the relative form's
  // K(r)g(r) depends on r = |m − n| only.
  double vmax = 0;
  for (long long r = 0; r < n; ++r) {
    const auto i = static_cast<std::size_t>(r);
    vmax = std::max(vmax, absolute ? (*kx)[i] * (*kx)[i] * std::abs((*g)[0]) : std::abs((*kx)[i] * (*g)[i]));
  }
  if (!(vmax > 0) || !std::isfinite(vmax)) vmax = 1;

  Figure f;
  f.title = tr(absolute ? "gaussian.scores_absolute.title" : "gaussian.scores_relative.title");
  lessons::matrix_axes(f, tr("gaussian.axis.key"), tr("gaussian.axis.query"));  // query 0 at the top
  fig::Heatmap h;
  h.x0 = 0, h.x1 = static_cast<double>(n), h.y0 = 0, h.y1 = static_cast<double>(n);
  h.cols = h.rows = static_cast<int>(n);
  h.x_cells = h.y_cells = true;
  h.colormap = fig::Colormap::signed_;
  h.vmin = -vmax, h.vmax = vmax;
  h.value_name = tr("gaussian.scores.value");
  h.x_name = "n";
  h.y_name = "m";
  // (generic in the output: floats drawn, doubles exported)
  const auto fill = [value, n](std::span<const double> xs, std::span<const double> ys, auto out) {
    using Out = typename decltype(out)::value_type;
    auto index = [n](double v) { return std::clamp(static_cast<long long>(std::floor(v)), 0LL, n - 1); };
    for (std::size_t r = 0; r < ys.size(); ++r)
      for (std::size_t c = 0; c < xs.size(); ++c)
        out[r * xs.size() + c] = static_cast<Out>(value(index(ys[r]), index(xs[c])));
  };
  h.sampler = fill;
  h.exact = fill;
  f.heatmaps.push_back(std::move(h));
  // The heatmap fills the whole plot, so no legend and no label can sit on
  // it without hiding scores: what the dashed lines and the dot mark is said
  // in the subtitle instead.
  f.legend = fig::LegendPlace::none;
  std::vector<std::string> parts = {
      kernel_subtitle(ctx, k), tr.format("gaussian.subtitle.rope", {{"d", fig::num(d)}, {"base", fig::num(base)}}),
      n < n_all ? tr.format("gaussian.scores.first", {{"n", fig::num(static_cast<double>(n))}}) : ""};
  // Where the kernel has fallen below 1 % of its peak.
  const double cut = cutoff_of(k);
  const auto nd = static_cast<double>(n);
  const fig::Color mark = fig::Color::rgb(0x1d1d1f);  // dark: readable on the neutral grey of score 0
  if (cut >= 0 && cut < nd) {
    const bool below = positive_weights(k);
    if (absolute) {
      f.ref_lines.push_back({.value = cut, .color = mark});
      f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = cut, .color = mark});
      parts.push_back(tr.format(below ? "gaussian.scores.cut_positions" : "gaussian.scores.first_positions",
                                {{"x", fig::num(cut)}}));
    } else {
      for (double sign : {1.0, -1.0}) {
        fig::Series edge{.name = ""};
        // n − m = ±cut, clipped to the square.
        const double a = sign > 0 ? 0 : cut, b = sign > 0 ? nd - cut : nd;
        edge.x = {sign > 0 ? a + cut : a - cut, sign > 0 ? b + cut : b - cut};
        edge.y = {a, b};
        edge.color = mark, edge.width = 1.5f, edge.style = fig::LineStyle::dashed;
        edge.x_name = "n", edge.y_name = "m";
        edge.data_name = tr.format("gaussian.scores.edge", {{"r", fig::num(-sign * cut)}});  // r = m − n
        f.series.push_back(std::move(edge));
      }
      parts.push_back(tr.format(below ? "gaussian.scores.cut_band" : "gaussian.scores.first_band", {{"x", fig::num(cut)}}));
    }
  }
  // The query–key pair of the sliders, marked, its score in the subtitle:
  // the number a step's answer cites is on screen. The absolute form also
  // gives the pair's score in the relative form (met one step before); the
  // relative form does not name the absolute form, which comes after it.
  const long long qm = std::llround(p.real("m")), kn = std::llround(p.real("n"));
  if (qm >= 0 && kn >= 0 && qm < n && kn < n) {
    const auto r = static_cast<std::size_t>(qm > kn ? qm - kn : kn - qm);
    const double abs_score = (*kx)[static_cast<std::size_t>(qm)] * (*kx)[static_cast<std::size_t>(kn)] * (*g)[r];
    const double rel_score = (*kx)[r] * (*g)[r];
    parts.push_back(tr.format(absolute ? "gaussian.scores.pair_absolute" : "gaussian.scores.pair_relative",
                              {{"m", fig::num(static_cast<double>(qm))}, {"n", fig::num(static_cast<double>(kn))},
                               {"v", lessons::text_number(absolute ? abs_score : rel_score, 3)},
                               {"other", lessons::text_number(absolute ? rel_score : abs_score, 3)}}));
    fig::Series at{.name = "", .kind = fig::SeriesKind::scatter};
    at.x = {static_cast<double>(kn) + 0.5}, at.y = {static_cast<double>(qm) + 0.5};
    at.color = fig::Color::rgb(0xd55e00), at.marker = 6.0f;
    at.x_name = "n", at.y_name = "m";
    at.data_name = tr.format("gaussian.scores.dot", {{"m", fig::num(static_cast<double>(qm))}, {"n", fig::num(static_cast<double>(kn))}});
    f.series.push_back(std::move(at));
  }
  f.subtitle = fig::join_dot(parts);
  return f;
}

// [SECTION] Figures

/// K(x) and its two Gaussians, with the 1 % level and where K drops below it.
Figure kernel(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const core::GaussianKernel k = gaussian_kernel(p);
  const double cut = cutoff_of(k);
  const double xmax = std::max(1.0, static_cast<double>(p.integer("positions") - 1));
  const int samples = std::clamp(static_cast<int>(2 * ctx.width), 200, 4000);
  Figure f;
  f.title = tr("gaussian.kernel.title");
  f.subtitle = kernel_subtitle(ctx, k);
  f.x = {.label = tr("gaussian.kernel.axis.x"), .unit = tr("unit.tokens")};
  f.y = {.label = tr("gaussian.kernel.axis.y")};
  fig::Series total{.name = tr("gaussian.kernel.total")};
  // Short legend entries (the values are in the subtitle), so the legend fits
  // beside the plot instead of covering the curves or the cut-off line.
  fig::Series first{.name = tr("gaussian.kernel.first")};
  fig::Series second{.name = tr("gaussian.kernel.second")};
  const core::GaussianKernel only1{k.alpha1, 0, k.sigma1, k.sigma2}, only2{0, k.alpha2, k.sigma1, k.sigma2};
  std::vector<double> ratio;
  const double k0 = k(0);
  for (int i = 0; i < samples; ++i) {
    const double x = xmax * i / (samples - 1);
    total.x.push_back(x), total.y.push_back(k(x));
    first.x.push_back(x), first.y.push_back(only1(x));
    second.x.push_back(x), second.y.push_back(only2(x));
    ratio.push_back(k0 != 0 ? k(x) / k0 : 0.0);
  }
  total.width = 3.0f, total.color = fig::palette_color(0);
  first.style = second.style = fig::LineStyle::dashed;
  first.width = second.width = 1.5f;
  first.color = fig::palette_color(2), second.color = fig::palette_color(1);
  for (fig::Series* s : {&total, &first, &second}) s->x_name = "r", s->y_name = "K";
  total.extra = {{tr("gaussian.kernel.readout.ratio"), "", ratio}};
  f.series = {std::move(first), std::move(second), std::move(total)};
  if (cut >= 0) {
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = kCutoff * k0,
                           .label = tr("gaussian.kernel.one_percent"), .style = fig::LineStyle::dotted});
    if (cut <= xmax) {
      const bool below = positive_weights(k);
      f.ref_lines.push_back({.value = cut, .label = tr.format(below ? "gaussian.kernel.cut" : "gaussian.kernel.first_below",
                                                              {{"x", fig::num(cut)}}),
                             .color = fig::palette_color(3)});
      f.bands.push_back({.from = cut, .to = xmax, .label = tr("gaussian.kernel.erased"),
                         .color = fig::palette_color(3).with_alpha(0.10f)});
    } else {
      f.notes.push_back({.x = xmax, .y = 0.9 * std::max(k0, 1e-300),
                         .text = tr.format("gaussian.kernel.cut_beyond", {{"x", fig::num(cut)}}),
                         .anchor = fig::Anchor::right, .color = fig::palette_color(3)});
    }
  }
  f.legend = fig::LegendPlace::automatic;
  return f;
}

Figure scores_absolute(const FigureContext& ctx) { return scores(ctx, core::KernelMode::absolute); }
Figure scores_relative(const FigureContext& ctx) { return scores(ctx, core::KernelMode::relative); }

/// score(m + s, n + s) over the shift s = 0..window: the notes' absolute form
/// fades as both positions leave the kernel; the relative form stays flat; the
/// notes' code as written (mixed layouts) also wobbles.
Figure shift(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const auto [k, d, base, m, n] = gaussian::setting(p);
  const auto window = static_cast<double>(p.integer("window"));
  const double top = std::min(window, 1e12 - std::max(m, n));  // positions stay in core's range
  // One shift per pixel column (the curves are smooth at that scale; all of
  // them when fewer), and no more than a figure's budget: each shift costs
  // three scores of d/2 rotated pairs on both sides, ~16·d units
  // (lessons/budget.hpp): all of them up to d = 256, 32 at d = 8192.
  const double fit = std::max(16.0, std::floor(kFigureWorkBudget / (16.0 * d)));
  const int samples = static_cast<int>(std::min({top + 1, std::clamp(ctx.width, 100.0, 2000.0), fit}));
  Figure f;
  f.title = tr("gaussian.shift.title");
  f.subtitle = fig::join_dot({kernel_subtitle(ctx, k), tr.format("gaussian.shift.positions", {{"m", fig::num(m)}, {"n", fig::num(n)}}),
                              tr.format("gaussian.subtitle.rope", {{"d", fig::num(d)}, {"base", fig::num(base)}})});
  f.x = {.label = tr("gaussian.shift.axis.x"), .unit = tr("unit.tokens")};
  f.y = {.label = tr("gaussian.shift.axis.y")};
  fig::Series rel{.name = tr("gaussian.shift.relative")}, abs{.name = tr("gaussian.shift.absolute")},
      code{.name = tr("gaussian.shift.code")};
  rel.color = fig::palette_color(2), rel.width = 3.0f;
  abs.color = fig::palette_color(0), abs.width = 2.2f;
  // The code's curve lies close to the absolute form's: drawn over it, dashed
  // and wider than a hairline, so it is not lost under the blue line.
  code.color = fig::palette_color(3), code.width = 2.0f, code.style = fig::LineStyle::dashed;
  for (int i = 0; i < samples; ++i) {
    // Whole-token shifts, evenly spread over 0..top.
    const double s = samples > 1 ? std::round(top * i / (samples - 1)) : 0.0;
    if (!rel.x.empty() && s == rel.x.back()) continue;
    rel.x.push_back(s), rel.y.push_back(score(k, m + s, n + s, d, base, core::KernelMode::relative));
    abs.x.push_back(s), abs.y.push_back(score(k, m + s, n + s, d, base, core::KernelMode::absolute));
    code.x.push_back(s), code.y.push_back(notes_code_score(k, m + s, n + s, d, base));
  }
  for (fig::Series* c : {&rel, &abs, &code}) c->x_name = tr("gaussian.readout.shift"), c->y_name = tr("gaussian.readout.score");
  // Room above the curves for the legend.
  double lo = 0, hi = 0;
  for (const fig::Series* c : {&rel, &abs, &code})
    for (double v : c->y) lo = std::min(lo, v), hi = std::max(hi, v);
  if (hi > lo) f.y.min = lo - 0.05 * (hi - lo), f.y.max = hi + 0.45 * (hi - lo);
  f.legend = fig::LegendPlace::top_left;  // ref-line labels sit at the top right
  f.series = {std::move(abs), std::move(rel), std::move(code)};
  const double cut = cutoff_of(k);
  const double pass = cut - std::max(m, n);  // from this shift on, one position is past the cutoff
  if (cut >= 0 && pass > 0 && pass <= top)
    f.ref_lines.push_back({.value = pass, .label = tr.format("gaussian.shift.pass", {{"x", fig::num(cut)}}),
                           .color = fig::palette_color(3)});
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0, .style = fig::LineStyle::solid});
  return f;
}

// [SECTION] Readouts

std::vector<Readout> readouts(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const auto [k, d, base, m, n] = gaussian::setting(p);
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(d);
  std::vector<Readout> out;

  // 1. Where K falls below 1 % of K(0) (the notes' defaults: x ≈ 52.16).
  const double cut = cutoff_of(k);
  if (cut >= 0)
    out.push_back({.label = tr("gaussian.readout.cutoff"),
                   .value = tr.format(positive_weights(k) ? "gaussian.readout.cutoff_value" : "gaussian.readout.cutoff_sign",
                                      {{"x", fig::num(cut, 4)}}),
                   .number = cut});
  else
    out.push_back({.label = tr("gaussian.readout.cutoff"), .value = tr("gaussian.readout.no_peak"), .number = cut});

  // 2. The scores at (m, n) in both forms.
  const double s_abs = score(k, m, n, d, base, core::KernelMode::absolute);
  const double s_rel = score(k, m, n, d, base, core::KernelMode::relative);
  out.push_back({.label = tr("gaussian.readout.scores"),
                 .value = tr.format("gaussian.readout.scores_value", {{"a", fig::num(s_abs, 5)}, {"r", fig::num(s_rel, 5)}}),
                 .number = s_abs});

  // 3. Shift invariance: absolute form (a measurement: it breaks), relative form (holds).
  const int window = static_cast<int>(std::min<double>(shift_window(p), std::floor(1e12 - std::max(m, n))));
  if (window >= 1) {
    const double e_abs = core::gaussian_shift_invariance_error(ones, ones, m, n, window, base,
                                                               core::PairLayout::interleaved, k, core::KernelMode::absolute);
    const double e_rel = core::gaussian_shift_invariance_error(ones, ones, m, n, window, base,
                                                               core::PairLayout::interleaved, k, core::KernelMode::relative);
    const double ref = std::abs(s_abs) > 0 ? std::abs(s_abs) : 1.0;
    out.push_back({.label = tr.format("gaussian.readout.shift_absolute", {{"w", fig::num(window)}}),
                   .value = tr.format("gaussian.readout.shift_absolute_value",
                                      {{"e", fig::num(e_abs, 4)}, {"pct", fig::num(100 * e_abs / ref, 3)}}),
                   .number = e_abs, .notes = true});
    out.push_back({.label = tr.format("gaussian.readout.shift_relative", {{"w", fig::num(window)}}),
                   .value = tr.format("gaussian.readout.shift_relative_value", {{"e", fig::num(e_rel, 2)}}),
                   .number = e_rel, .holds = e_rel <= relative_tolerance(k, d, std::max(m, n) + window)});

    // 4. The notes' code as written: even without the kernel its mixed pair
    //    layouts break the shift invariance of the RoPE part.
    const int code_window = std::min(window, 256);
    const double code0 = mixed_rope(m, n, d, base);
    double worst = 0;
    for (int s = 1; s <= code_window; ++s) worst = std::max(worst, std::abs(mixed_rope(m + s, n + s, d, base) - code0));
    out.push_back({.label = tr.format("gaussian.readout.code", {{"w", fig::num(code_window)}}),
                   .value = tr.format("gaussian.readout.code_value", {{"e", fig::num(worst, 4)}, {"d", fig::num(d)}}),
                   .number = worst, .notes = true});
  }

  // 5. The kernel factors themselves at (m, n).
  out.push_back({.label = tr("gaussian.readout.factors"),
                 .value = tr.format("gaussian.readout.factors_value", {{"km", fig::num(k(m), 4)}, {"kn", fig::num(k(n), 4)},
                                                                       {"kmn", fig::num(k(m - n), 4)}}),
                 .number = k(m) * k(n)});
  return out;
}

}  // namespace

ViewDef gaussian_view() {
  return {.id = "gaussian",
          .group = "rotary",
          .keys = {"alpha1", "alpha2", "sigma1", "sigma2", "m", "n", "window", "positions", "d", "base"},
          .defaults = {{"positions", "128"}, {"d", "64"}},
          .figures = {{"kernel", kernel},
                      {"scores-absolute", scores_absolute},
                      {"scores-relative", scores_relative},
                      {"shift", shift}},
          .tables = {"gaussian-kernel", "gaussian-shift"},
          .readouts = readouts};
}

}  // namespace poslab::app
