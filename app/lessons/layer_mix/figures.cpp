// Lesson "layer-mix": layers that mix encodings.
//   NoPE (Kazemnejad et al. 2023, arXiv 2305.19466): a causal layer with no
//   position encoding sees order through the mask — query m sees keys 0 … m;
//   a head attending evenly gives token m the first token's marker as 1/(m + 1).
//   Local and global bases (Gemma 3): sliding-window layers with b = 10,000 over
//   W = 1,024 tokens, global layers with b = 1,000,000 divided by s = 8
//   (linear) over the whole context.
//   p-RoPE (Barbero et al. 2025, arXiv 2410.06205; HF rope_type "proportional")
//   keeps the fastest ⌊p·d/2⌋ pairs at θᵢ = b^(−2i/d); partial rotary (GPT-NeoX,
//   Phi) spreads θᵢ = b^(−2i/r) over r = p·d dims.
//   The layer stack of a model preset (Llama 4 Scout, SmolLM3, Gemma 3,
//   Command R7B) as `poslab model` reads its config: the same figure the
//   model banner draws (app/model/layer_stack.hpp).
// Every number comes from core (attention.hpp, layer_mix.hpp, rope.hpp, scaling.hpp).
//
// [SECTION] Index
// - Helpers
// - Figures: the causal mask, the marker count, two bases, fewer pairs, the layer stack
// - Readouts
// - The view

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "app/lessons/budget.hpp"
#include "app/lessons/layer_mix/setting.hpp"
#include "app/lessons/lesson.hpp"
#include "app/model/layer_stack.hpp"
#include "app/plot/figure_text.hpp"
#include "poslab/core/layer_mix.hpp"

namespace poslab::app {

namespace {

using fig::Figure;
namespace wp = why_position;

constexpr double kPi = std::numbers::pi;
constexpr double kEps = std::numeric_limits<double>::epsilon();

// [SECTION] Helpers

/// "the₀", "dog₁": a word with its position as a subscript.
std::string labelled(int position) {
  static const char* digits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
  return std::string(wp::Setting::word(position)) + digits[position % 10];
}

std::string two_decimals(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

/// The largest entry-wise difference of the two "the" outputs (positions 0 and 3).
double the_gap(const core::AttentionResult<double>& a) { return (a.output.row(0) - a.output.row(3)).cwiseAbs().maxCoeff(); }

/// λᵢ = 2π/θᵢ of the pairs that turn (θᵢ > 0), as a series over pair i.
fig::Series wavelengths(const Eigen::VectorXd& theta, const std::string& name, fig::Color color, const Translator& tr) {
  fig::Series s{.name = name, .kind = fig::SeriesKind::line};
  for (Eigen::Index i = 0; i < theta.size(); ++i)
    if (theta[i] > 0) s.x.push_back(static_cast<double>(i)), s.y.push_back(2 * kPi / theta[i]);
  s.color = color;
  s.x_name = tr("layer-mix.readout.pair"), s.y_name = "λ";
  return s;
}

// [SECTION] Figures

/// A = softmax(Q·Kᵀ/√d) for the why-position sentence with no position
/// encoding: causal (future keys masked, row 0 all on itself) or bidirectional.
Figure causal_mask(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const bool causal = ctx.params.boolean("causal");
  const core::AttentionResult<double> a = layer_mix::sentence(ctx.params, causal);
  Figure f;
  f.title = tr(causal ? "layer-mix.mask.title_causal" : "layer-mix.mask.title_bidirectional");
  f.subtitle = tr.format("layer-mix.mask.subtitle", {{"sentence", wp::Setting::original_sentence()},
                                                     {"seed", fig::num(static_cast<double>(ctx.params.integer("seed")))},
                                                     {"gap", fig::num(the_gap(a), 2)}});
  f.x = {.label = tr("layer-mix.axis.key"), .tight = true};
  f.y = {.label = tr("layer-mix.axis.query"), .tight = true, .reversed = true};  // query 0 at the top
  const int n = wp::kTokens;
  fig::Heatmap h;
  h.x0 = -0.5, h.x1 = n - 0.5, h.y0 = -0.5, h.y1 = n - 0.5;
  h.cols = n, h.rows = n;
  h.values.resize(static_cast<std::size_t>(n * n));
  h.mask.assign(static_cast<std::size_t>(n * n), 0);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const auto cell = static_cast<std::size_t>(r * n + c);
      h.values[cell] = static_cast<float>(a.weights(r, c));
      h.mask[cell] = causal && c > r;
      if (causal && c > r) continue;
      f.notes.push_back({.x = static_cast<double>(c), .y = static_cast<double>(r), .text = two_decimals(a.weights(r, c)),
                         .anchor = fig::Anchor::center,
                         .color = a.weights(r, c) > 0.55 ? fig::Color::rgb(0x1d1d1f) : fig::Color::rgb(0xffffff)});
    }
  h.colormap = fig::Colormap::magnitude;
  h.vmin = 0, h.vmax = 1;
  h.value_name = tr("layer-mix.mask.value");
  h.x_name = tr("layer-mix.readout.key"), h.y_name = tr("layer-mix.readout.query");
  f.heatmaps.push_back(std::move(h));
  for (int j = 0; j < n; ++j) f.x.ticks.emplace_back(j, labelled(j)), f.y.ticks.emplace_back(j, labelled(j));
  f.legend = fig::LegendPlace::none;
  return f;
}

/// y_m, the first token's marker in token m's output, for a head that attends
/// evenly to what it may see: 1/N for every token without the mask, and with
/// it (`causal`, drawn only then: a guided step asks first) 1/(m + 1), a
/// different number at every position: m = 1/y − 1.
Figure marker_count(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const int n = static_cast<int>(ctx.params.integer("positions"));
  const bool with_mask = ctx.params.boolean("causal");
  const Eigen::VectorXd causal = core::even_attention_marker<double>(n, true);
  const Eigen::VectorXd both = core::even_attention_marker<double>(n, false);
  Figure f;
  f.title = tr("layer-mix.count.title");
  f.subtitle = tr.format("layer-mix.count.subtitle", {{"n", fig::num(n)}});
  f.x = {.label = tr("layer-mix.count.axis.x"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("layer-mix.count.axis.y")};
  f.y.min = 0, f.y.max = 1.15;
  fig::Series c{.name = tr("layer-mix.count.causal"), .kind = fig::SeriesKind::line};
  fig::Series b{.name = tr.format("layer-mix.count.bidirectional", {{"n", fig::num(n)}}), .kind = fig::SeriesKind::line};
  for (int m = 0; m < n; ++m) {
    c.x.push_back(m), c.y.push_back(causal[m]);
    b.x.push_back(m), b.y.push_back(both[m]);
  }
  c.color = fig::palette_color(0), c.width = 2.5f;
  b.color = fig::palette_color(1), b.style = fig::LineStyle::dashed;
  for (fig::Series* s : {&c, &b}) s->x_name = tr("layer-mix.count.readout.m"), s->y_name = tr("layer-mix.count.readout.y");
  c.extra = {{tr("layer-mix.count.readout.back"), "", {}}};
  for (int m = 0; m < n; ++m) c.extra[0].values.push_back(1 / causal[m] - 1);
  // Positions are whole tokens: a dot on each when there are few.
  fig::Series dots = c;
  dots.name = "", dots.kind = fig::SeriesKind::scatter, dots.marker = 4;
  dots.decoration = true;  // the causal line's own points: its rows are in the CSV once
  f.series = {std::move(b)};
  if (with_mask) f.series.push_back(std::move(c));
  if (with_mask && n <= 64) f.series.push_back(std::move(dots));
  f.legend = fig::LegendPlace::top_right;
  return f;
}

/// λᵢ per pair for the local layers (b_local, seen over the window W) and the
/// global ones (b, divided by s: λ·s), against W and the context ℓ.
Figure two_bases(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const layer_mix::Bases b = layer_mix::bases(ctx.params);
  Figure f;
  f.title = tr("layer-mix.bases.title");
  // s only once there is a scaling: the guided step before the one that
  // introduces s shows the bases alone (s = 1).
  f.subtitle = tr.format(b.factor != 1 ? "layer-mix.bases.subtitle" : "layer-mix.bases.subtitle_unscaled", {{"d", fig::num(b.d)}, {"local", fig::num(b.local_base)},
                                                      {"global", fig::num(b.global_base)}, {"s", fig::num(b.factor)}});
  f.x = {.label = tr("layer-mix.axis.pair"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("layer-mix.bases.axis.y"), .unit = tr("unit.tokens"), .scale = fig::AxisScale::log};
  // Before scaling (dotted) only when there is a scaling. The counts of pairs
  // that turn within W and ℓ are readouts (a guided step asks for one first).
  const std::string global_base = fig::num(b.global_base);
  if (b.factor != 1) {
    fig::Series unscaled = wavelengths(b.global_unscaled, tr.format("layer-mix.bases.global_unscaled", {{"b", global_base}}),
                                       fig::palette_color(1), tr);
    unscaled.style = fig::LineStyle::dotted, unscaled.width = 1.5f;
    f.series.push_back(std::move(unscaled));
  }
  f.series.push_back(wavelengths(b.global_theta,
                                 b.factor != 1 ? tr.format("layer-mix.bases.global", {{"s", fig::num(b.factor)}})
                                               : tr.format("layer-mix.bases.global_unscaled", {{"b", global_base}}),
                                 fig::palette_color(1), tr));
  f.series.push_back(wavelengths(b.local_theta, tr.format("layer-mix.bases.local", {{"b", fig::num(b.local_base)}}),
                                 fig::palette_color(0), tr));
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = static_cast<double>(b.window),
                         .label = tr.format("layer-mix.bases.window", {{"w", fig::num(static_cast<double>(b.window))}}),
                         .color = fig::palette_color(0)});
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = static_cast<double>(b.context),
                         .label = tr.format("layer-mix.bases.context", {{"l", fig::num(static_cast<double>(b.context))}}),
                         .color = fig::palette_color(1)});
  f.legend = fig::LegendPlace::top_left;
  return f;
}

/// λᵢ per pair: RoPE's own (grey), p-RoPE's kept pairs (on it, the fastest
/// ⌊p·d/2⌋), partial rotary's as many pairs spread to λ ≈ 2π·b; the pairs
/// past k do not turn in either.
Figure fewer_pairs(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const layer_mix::Fraction fr = layer_mix::fraction(ctx.params);
  const int pairs = fr.d / 2;
  Figure f;
  f.title = tr(ctx.params.boolean("show_partial") ? "layer-mix.fewer.title" : "layer-mix.fewer.title_p_rope");
  f.subtitle = tr.format(ctx.params.boolean("show_partial") ? "layer-mix.fewer.subtitle" : "layer-mix.fewer.subtitle_p_rope",
                         {{"d", fig::num(fr.d)}, {"base", fig::num(fr.base)}, {"p", fig::num(fr.p)}, {"k", fig::num(fr.kept)},
                          {"pairs", fig::num(pairs)}});
  f.x = {.label = tr("layer-mix.axis.pair"), .format = fig::TickFormat::integer};
  f.x.min = -0.5, f.x.max = pairs - 0.5;
  f.y = {.label = tr("layer-mix.fewer.axis.y"), .unit = tr("unit.tokens"), .scale = fig::AxisScale::log};
  fig::Series rope = wavelengths(fr.rope, tr("layer-mix.fewer.rope"), fig::Color::rgb(0x9aa0a6), tr);
  rope.width = 1.2f;
  f.series.push_back(std::move(rope));
  if (ctx.params.boolean("show_partial")) {
    fig::Series partial = wavelengths(fr.partial, tr.format("layer-mix.fewer.partial", {{"r", fig::num(2 * static_cast<int>(fr.partial.size()))}}),
                                      fig::palette_color(3), tr);
    partial.width = 2.5f;
    f.series.push_back(std::move(partial));
  }
  fig::Series kept = wavelengths(fr.p_rope, tr.format("layer-mix.fewer.p_rope", {{"k", fig::num(fr.kept)}}), fig::palette_color(0), tr);
  kept.kind = fig::SeriesKind::scatter, kept.marker = pairs <= 128 ? 4.0f : 2.5f;
  f.series.push_back(std::move(kept));
  if (fr.kept < pairs)
    f.bands.push_back({.from = fr.kept - 0.5, .to = pairs - 0.5,
                       .label = tr.format(ctx.params.boolean("show_partial") ? "layer-mix.fewer.idle" : "layer-mix.fewer.idle_p_rope",
                                          {{"n", fig::num(pairs - fr.kept)}}),
                       .color = fig::Color::rgb(0x9aa0a6).with_alpha(0.22f), .label_top = true});
  f.legend = fig::LegendPlace::bottom_right;
  return f;
}

// [SECTION] Readouts

/// The layer stack of the preset `stack_model`, built from its config by the
/// model reader: the figure File → Open model config draws, titled with the
/// model's name.
Figure layer_stack(const FigureContext& ctx) {
  const Preset& preset = layer_mix::stack_preset(ctx.params);
  Figure f = layer_stack_figure(*preset.reading, ctx.tr);
  f.id = "layer-stack";
  f.title = ctx.tr.format("layer-mix.stack.title", {{"model", preset.name}});
  return f;
}

std::vector<Readout> readouts(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const auto& p = ctx.params;
  std::vector<Readout> out;

  // 1–3. The two "the" of the sentence, no position encoding.
  const core::AttentionResult<double> both = layer_mix::sentence(p, false);
  const core::AttentionResult<double> causal = layer_mix::sentence(p, true);
  const double scale = std::max(1.0, both.output.cwiseAbs().maxCoeff());
  const double gap_both = the_gap(both), gap_causal = the_gap(causal);
  out.push_back({.label = tr("layer-mix.readout.the_bidirectional"),
                 .value = tr.format("layer-mix.readout.gap", {{"g", fig::num(gap_both, 2)}}), .number = gap_both,
                 .holds = gap_both <= 64 * kEps * scale});
  out.push_back({.label = tr("layer-mix.readout.the_causal"),
                 .value = tr.format("layer-mix.readout.gap", {{"g", fig::num(gap_causal, 3)}}), .number = gap_causal,
                 .holds = gap_causal > 1e-6 * scale});
  out.push_back({.label = tr("layer-mix.readout.first"), .value = fig::num(causal.weights(0, 0), 6),
                 .number = causal.weights(0, 0), .holds = causal.weights(0, 0) == 1});

  // 4. The marker count is 1/(m + 1) at every position.
  {
    const int n = static_cast<int>(p.integer("positions"));
    const Eigen::VectorXd y = core::even_attention_marker<double>(n, true);
    double worst = 0;
    for (int m = 0; m < n; ++m) worst = std::max(worst, std::abs(y[m] - 1.0 / (m + 1)));
    out.push_back({.label = tr("layer-mix.readout.count"),
                   .value = tr.format("layer-mix.readout.gap", {{"g", fig::num(worst, 2)}}), .number = worst,
                   .holds = worst <= 8 * kEps * n});
  }

  // 5–7. Local and global layers.
  const layer_mix::Bases b = layer_mix::bases(p);
  const int pairs = b.d / 2;
  const int local_in = layer_mix::pairs_turning_within(b.local_theta, static_cast<double>(b.window));
  const int global_in = layer_mix::pairs_turning_within(b.global_theta, static_cast<double>(b.context));
  out.push_back({.label = tr.format("layer-mix.readout.local", {{"w", fig::num(static_cast<double>(b.window))}}),
                 .value = tr.format("layer-mix.readout.of", {{"k", fig::num(local_in)}, {"pairs", fig::num(pairs)}}),
                 .number = static_cast<double>(local_in)});
  out.push_back({.label = tr.format("layer-mix.readout.global", {{"l", fig::num(static_cast<double>(b.context))}}),
                 .value = tr.format("layer-mix.readout.of", {{"k", fig::num(global_in)}, {"pairs", fig::num(pairs)}}),
                 .number = static_cast<double>(global_in)});
  out.push_back({.label = tr("layer-mix.readout.reach"),
                 .value = tr.format("layer-mix.readout.reach_value", {{"local", fig::num(static_cast<double>(b.local_reach()))},
                                                                     {"global", fig::num(static_cast<double>(b.global_reach()))}}),
                 .number = static_cast<double>(b.local_reach())});

  // 8–9. p-RoPE keeps RoPE's own θ on its k pairs; partial rotary's slowest pair.
  const layer_mix::Fraction fr = layer_mix::fraction(p);
  {
    const double gap = fr.kept > 0 ? (fr.p_rope.head(fr.kept) - fr.rope.head(fr.kept)).cwiseAbs().maxCoeff() : 0.0;
    const bool idle = (fr.p_rope.tail(fr.d / 2 - fr.kept).array() == 0).all();
    out.push_back({.label = tr.format("layer-mix.readout.p_rope", {{"k", fig::num(fr.kept)}}),
                   .value = tr.format("layer-mix.readout.gap", {{"g", fig::num(gap, 2)}}), .number = gap,
                   .holds = gap == 0 && idle});
  }
  if (fr.kept > 0) {
    const double slow_p = 2 * kPi / fr.p_rope[fr.kept - 1];
    const double slow_r = 2 * kPi / fr.partial[fr.partial.size() - 1];
    // Partial rotary only once the figure draws it (a step introduces p-RoPE alone first).
    if (p.boolean("show_partial"))
      out.push_back({.label = tr("layer-mix.readout.slowest"),
                     .value = tr.format("layer-mix.readout.slowest_value", {{"p", fig::num(slow_p, 4)}, {"r", fig::num(slow_r, 4)}}),
                     .number = slow_r});
    else
      out.push_back({.label = tr("layer-mix.readout.slowest_p_rope"),
                     .value = tr.format("layer-mix.readout.tokens", {{"n", fig::num(slow_p, 4)}}), .number = slow_p});
  }
  return out;
}

/// The marker count weighs N² pairs of tokens: N within a figure's budget.
void view_budget(const core::Params& p) {
  check_budget(p, "positions", static_cast<double>(p.integer("positions")), {[](double n) {
                 return BudgetUse{BudgetKind::work, "positions²", core::format_number(n) + "²", n * n,
                                  static_cast<double>(layer_mix::kMaxFigurePositions) * layer_mix::kMaxFigurePositions};
               }});
}

}  // namespace

ViewDef layer_mix_view() {
  return {.id = "layer-mix",
          .group = "models",
          .keys = {"causal", "seed", "positions", "local_base", "sliding_window", "base", "factor", "seq_len", "d",
                   "partial_rotary_factor", "show_partial", "stack_model"},
          .defaults = {{"positions", "16"}, {"base", "1000000"}, {"seq_len", "131072"}},
          .figures = {{"causal-mask", causal_mask},
                      {"marker-count", marker_count},
                      {"two-bases", two_bases},
                      {"fewer-pairs", fewer_pairs},
                      {"layer-stack", layer_stack}},
          .tables = {"nope-count", "layer-bases", "p-rope"},
          .readouts = readouts,
          .budget = view_budget};
}

}  // namespace poslab::app
