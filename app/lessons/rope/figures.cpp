// Lesson "rope": RoPE in d dimensions (Su et al. 2021, "RoFormer", §3.2–3.4).
//   θ_i = base^(−2i/d), i = 0 .. d/2 − 1;  pair i of x at position m turns by m·θ_i:
//   (x_a, x_b) → (x_a cos mθ_i − x_b sin mθ_i,  x_a sin mθ_i + x_b cos mθ_i)
//   interleaved pairs (a, b) = (2i, 2i+1) (RoFormer eq. 15, Meta's Llama);
//   half pairs (a, b) = (i, i + d/2) (HF transformers / GPT-NeoX `rotate_half`).
// Both are the same rotation up to the permutation 2i → i, 2i+1 → i + d/2;
// mixing them (cos/sin duplicated half-style with interleaved rotate_half, the
// notes' seed-000 code) is no rotation at all: core::rope_rotate_mixed.
//
// [SECTION] Index
// - Helpers
// - Figures: frequencies, dials, rotation matrix, layouts, mixing, worked example
// - Readouts
// - The view

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>

#include "app/plot/figure_describe.hpp"
#include "app/plot/figure_text.hpp"
#include "app/lessons/budget.hpp"
#include "app/lessons/lesson.hpp"
#include "app/lessons/rope/setting.hpp"
#include "app/lessons/table.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::app {

namespace {

using fig::Figure;
using rope::dial_pairs;
using rope::self_score;

constexpr double kPi = std::numbers::pi;
constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr int kMatrixPairs = 8;         // the rotation matrix shows at most 8 pairs (16 × 16)
constexpr int kLayoutPairs = 8;         // the layout diagram shows at most 8 pairs
constexpr int kMaxShift = 128;          // the mixing figure and readouts shift by s = 0..128
constexpr int kMaxMatrixCheck = 512;    // the matrix-form readout builds d × d up to this d
constexpr double kMaxPosition = 1e12;   // core's position range

// [SECTION] Helpers

int d_of(const core::Params& p) { return static_cast<int>(p.integer("d")); }

core::PairLayout layout_of(const core::Params& p) { return core::parse_pair_layout(p.choice("layout")); }

/// "[−2.2347, 0.077, 2.9194, 4.0592]" (the first `shown` entries, then "…").
std::string vector_text(const Eigen::VectorXd& v, int shown = 8) {
  std::string out = "[";
  for (Eigen::Index i = 0; i < std::min<Eigen::Index>(v.size(), shown); ++i) {
    if (i) out += ", ";
    out += fig::num(v[i], 5);
  }
  if (v.size() > shown) out += ", …";
  return out + "]";
}

/// The shifts 0..S with both m + s and n + s inside core's position range,
/// S <= kMaxShift, and fewer for long vectors: each shift rotates the vector
/// four times (proper and mixed, at m + s and n + s), |vector|/2 pairs each,
/// within a quarter of a figure's budget (lessons/budget.hpp; 128 shifts up
/// to |vector| = 2048, 32 at 8192).
int shift_count(double m, double n, Eigen::Index dims) {
  const double fit = std::max(8.0, std::floor(kFigureWorkBudget / 4 / (2.0 * static_cast<double>(dims))));
  return static_cast<int>(std::clamp(std::floor(kMaxPosition - std::max(m, n)), 0.0, std::min(fit, static_cast<double>(kMaxShift))));
}

/// max over s = 1..S of |score(m + s, n + s) − score(m, n)|.
double shift_error(const rope::Rotation& r, double m, double n, bool mixed) {
  const double ref = self_score(r, m, n, mixed);
  double worst = 0;
  for (int s = 1; s <= shift_count(m, n, r.x.size()); ++s) worst = std::max(worst, std::abs(self_score(r, m + s, n + s, mixed) - ref));
  return worst;
}

/// Rounding bound for two evaluations of the same RoPE score: every angle
/// pos·θ_i (θ_i <= 1) is rounded within u·pos, sin/cos and the sums add a few
/// ulp per term; the score moves by at most |x|² per radian.
double score_tolerance(const Eigen::VectorXd& x, double largest_position) {
  const double terms = static_cast<double>(x.size());
  return x.squaredNorm() * (1e-12 + kEps * (8 * largest_position + 4 * terms));
}

/// A circle or arc as a polyline.
fig::Series arc(double cx, double cy, double r, double a0, double a1, fig::Color color, float width,
                fig::LineStyle style) {
  fig::Series s{.kind = fig::SeriesKind::line};
  const int n = std::max(6, static_cast<int>(std::ceil(std::abs(a1 - a0) / (2 * kPi) * 48)));
  for (int i = 0; i <= n; ++i) {
    const double a = a0 + (a1 - a0) * i / n;
    s.x.push_back(cx + r * std::cos(a)), s.y.push_back(cy + r * std::sin(a));
  }
  s.color = color, s.width = width, s.style = style;
  return s;
}

/// An axis with no numbers (diagrams whose coordinates mean nothing): one
/// unlabelled tick replaces the automatic ones.
fig::Axis bare_axis(double at) {
  fig::Axis a;
  a.ticks = {{at, ""}};
  a.tight = true;
  return a;
}

// [SECTION] Figures

/// θ_i = base^(−2i/d) and λ_i = 2π/θ_i per pair, log y, with the trained
/// context L as a reference: pairs above it never complete a turn within L.
Figure frequencies(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const auto [d, base, theta] = rope::frequencies(p);
  const double L = rope::trained_context(p);
  Figure f;
  f.title = tr("rope.frequencies.title");
  f.subtitle = tr.format("rope.frequencies.subtitle", {{"d", fig::num(d)}, {"base", fig::num(base)}});
  f.x = {.label = tr("rope.axis.pair"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("rope.frequencies.axis.y"), .scale = fig::AxisScale::log};
  fig::Series lambda{.name = tr("rope.frequencies.wavelength"), .kind = fig::SeriesKind::line};
  fig::Series th{.name = tr("rope.frequencies.theta"), .kind = fig::SeriesKind::line};
  std::vector<double> lam_values, theta_values;
  for (Eigen::Index i = 0; i < theta.size(); ++i) {
    const double l = 2 * kPi / theta[i];
    lambda.x.push_back(static_cast<double>(i)), lambda.y.push_back(l);
    th.x.push_back(static_cast<double>(i)), th.y.push_back(theta[i]);
    lam_values.push_back(l), theta_values.push_back(theta[i]);
  }
  if (theta.size() <= 64) lambda.kind = th.kind = fig::SeriesKind::line, lambda.marker = th.marker = 3;
  lambda.x_name = th.x_name = tr("rope.readout.pair");
  lambda.y_name = "λ";
  th.y_name = "θ";
  lambda.extra = {{"θ", tr("unit.rad_per_token"), theta_values}};
  th.extra = {{"λ", tr("unit.tokens"), lam_values}};
  f.series = {std::move(lambda), std::move(th)};
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = L, .label = "L = " + fig::num(L)});
  // The numbers step 2 talks about: which pairs turn within the context.
  const auto below = std::count_if(lam_values.begin(), lam_values.end(), [L](double l) { return l < L; });
  if (!lam_values.empty())
    f.key_numbers = tr.format(below > 0 ? "rope.frequencies.key_numbers" : "rope.frequencies.key_numbers_none",
                              {{"below", fig::num(static_cast<double>(below))},
                               {"pairs", fig::num(static_cast<double>(lam_values.size()))},
                               {"last_below", fig::num(static_cast<double>(below - 1))}, {"L", fig::num(L)},
                               {"last", fig::num(static_cast<double>(lam_values.size() - 1))},
                               {"slowest", fig::spoken_number(lam_values.back())}});
  return f;
}

/// Pairs as clock hands at position m: dial i has its hand at angle m·θ_i
/// (counter-clockwise from 3 o'clock, as e^{imθ_i}); the thin arc is how far
/// it turned modulo one turn. Hands whose wavelength exceeds the trained
/// context L (less than one turn over L tokens) are drawn in a second colour.
Figure dials(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const auto [d, base, theta] = rope::frequencies(p);
  const double m = p.real("m"), L = rope::trained_context(p);
  const std::vector<int> pairs = dial_pairs(d / 2);
  const auto count = static_cast<int>(pairs.size());
  // Columns so the grid roughly fills the figure's aspect (dials 2.5 wide, 2.7 tall).
  const double aspect = std::clamp(ctx.width / std::max(1.0, ctx.height - 120), 0.6, 4.0);
  const int cols = std::clamp(static_cast<int>(std::ceil(std::sqrt(count * aspect * 2.7 / 2.5))), 1, count);
  const int rows = (count + cols - 1) / cols;
  constexpr double kDx = 2.5, kDy = 2.7;
  const fig::Color fast = fig::palette_color(0), slow = fig::palette_color(1), rim = fig::Color::rgb(0x9aa0a6);
  Figure f;
  f.title = tr("rope.dials.title");
  f.subtitle = tr.format(count < d / 2 ? "rope.dials.subtitle_sampled" : "rope.dials.subtitle",
                         {{"m", fig::num(m)}, {"d", fig::num(d)}, {"base", fig::num(base)},
                          {"shown", fig::num(count)}, {"pairs", fig::num(d / 2)}});
  f.x = bare_axis(0);
  f.y = bare_axis(0);
  f.x.min = -1.3, f.x.max = (cols - 1) * kDx + 1.3;
  f.y.min = -(rows - 1) * kDy - 2.8, f.y.max = 1.3;  // room under the key for large text (--font-scale 1.5)
  f.equal_aspect = true;
  f.legend = fig::LegendPlace::none;
  fig::Series tips{.name = "", .kind = fig::SeriesKind::scatter};
  tips.marker = 1.5f, tips.color = rim;
  std::vector<double> pair_col, theta_col, angle_col, turns_col, lambda_col;
  auto decorate = [&f](fig::Series s) {
    s.decoration = true;
    f.series.push_back(std::move(s));
  };
  for (int k = 0; k < count; ++k) {
    const int i = pairs[static_cast<std::size_t>(k)];
    const double cx = (k % cols) * kDx, cy = -(k / cols) * kDy;
    const double turned = m * theta[i];
    const double a = std::fmod(turned, 2 * kPi);
    const double lambda = 2 * kPi / theta[i];
    const fig::Color c = lambda < L ? fast : slow;
    // The rim, the arc of the angle turned and the 3 o'clock mark (angle 0)
    // are drawing aids: the hand tips below carry the numbers (CSV, readout).
    decorate(arc(cx, cy, 1.0, 0, 2 * kPi, rim, 1.0f, fig::LineStyle::solid));
    if (a > 1e-3) decorate(arc(cx, cy, 0.45, 0, a, c.with_alpha(0.6f), 1.2f, fig::LineStyle::solid));
    decorate({.kind = fig::SeriesKind::line, .x = {cx + 0.8, cx + 1.0}, .y = {cy, cy}, .color = rim, .width = 1.0f});
    f.arrows.push_back({.x0 = cx, .y0 = cy, .x1 = cx + 0.88 * std::cos(a), .y1 = cy + 0.88 * std::sin(a), .color = c});
    f.notes.push_back({.x = cx, .y = cy - 1.3, .text = std::to_string(i), .anchor = fig::Anchor::center, .color = c});
    tips.x.push_back(cx + 0.88 * std::cos(a)), tips.y.push_back(cy + 0.88 * std::sin(a));
    pair_col.push_back(i), theta_col.push_back(theta[i]), angle_col.push_back(a), turns_col.push_back(turned / (2 * kPi));
    lambda_col.push_back(lambda);
  }
  tips.data_name = tr("rope.dials.hands");
  tips.x_name = tr("rope.dials.readout.x"), tips.y_name = tr("rope.dials.readout.y");
  tips.extra = {{tr("rope.readout.pair"), "", pair_col},
                {"θ", tr("unit.rad_per_token"), theta_col},
                {tr("rope.dials.readout.angle"), tr("rope.unit.rad"), angle_col},
                {tr("rope.dials.readout.turns"), "", turns_col},
                {"λ", tr("unit.tokens"), lambda_col}};
  f.series.push_back(std::move(tips));
  // Colour key as text under the grid (a legend box would cover dials).
  const double key_y = -(rows - 1) * kDy - 2.15;
  f.notes.push_back({.x = -1.2, .y = key_y, .text = tr.format("rope.dials.key_fast", {{"L", fig::num(L)}}), .color = fast});
  f.notes.push_back({.x = (cols - 1) * kDx + 1.2, .y = key_y, .text = tr.format("rope.dials.key_slow", {{"L", fig::num(L)}}),
                     .anchor = fig::Anchor::right, .color = slow});
  return f;
}

/// R_{Θ,m} as a signed heatmap: 2×2 blocks [[cos mθ_i, −sin mθ_i], [sin mθ_i,
/// cos mθ_i]] on the pairs of the layout. For d > 16 the rows and columns of
/// the first 8 pairs (their real indices on the ticks). Row 0 at the top.
Figure rotation_matrix(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const int d = d_of(p);
  const double base = p.real("base"), m = p.real("m");
  const core::PairLayout layout = layout_of(p);
  const int pairs = std::min(d / 2, kMatrixPairs);
  // The indices shown: both members of pairs 0..pairs−1, in increasing order.
  std::vector<int> idx;
  for (int i = 0; i < pairs; ++i) {
    const auto [a, b] = core::rope_pair_indices(i, d, layout);
    idx.push_back(a), idx.push_back(b);
  }
  std::sort(idx.begin(), idx.end());
  const int n = static_cast<int>(idx.size());
  // Entries through core: the full d × d matrix when small; else column j of
  // R_{Θ,m} as core's rotation of the unit vector e_j (no d × d matrix built).
  Eigen::MatrixXd sub(n, n);
  if (d <= 2 * kMatrixPairs) {
    sub = core::rope_rotation_matrix(d, m, base, layout);
  } else {
    for (int c = 0; c < n; ++c) {
      Eigen::VectorXd e = Eigen::VectorXd::Zero(d);
      e[idx[static_cast<std::size_t>(c)]] = 1;
      const Eigen::VectorXd col = core::rope_rotate<double>(e, m, base, layout);
      for (int r = 0; r < n; ++r) sub(r, c) = col[idx[static_cast<std::size_t>(r)]];
    }
  }
  Figure f;
  f.title = tr("rope.matrix.title");
  f.subtitle = tr.format(d > 2 * kMatrixPairs ? "rope.matrix.subtitle_part" : "rope.matrix.subtitle",
                         {{"m", fig::num(m)}, {"d", fig::num(d)}, {"base", fig::num(base)},
                          {"layout", tr(layout == core::PairLayout::interleaved ? "rope.layout.interleaved" : "rope.layout.half")}});
  f.x = {.label = tr("rope.matrix.axis.col"), .tight = true};
  f.y = {.label = tr("rope.matrix.axis.row"), .tight = true, .reversed = true};  // row 0 at the top
  // Cells fill the plot area (no equal aspect): a square matrix would leave empty margins.
  // The ticks name the real indices (for d > 16 two runs of them).
  fig::Heatmap h;
  h.x0 = -0.5, h.x1 = n - 0.5, h.y0 = -0.5, h.y1 = n - 0.5;
  h.cols = n, h.rows = n;
  h.values.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      h.values[static_cast<std::size_t>(r) * static_cast<std::size_t>(n) + static_cast<std::size_t>(c)] =
          static_cast<float>(sub(r, c));
  // Exports: the real row and column indices (two runs of them for d > 16), in double.
  h.x_index.assign(idx.begin(), idx.begin() + n);
  h.y_index = h.x_index;
  h.exact = [copy = std::make_shared<const Eigen::MatrixXd>(sub), n](std::span<const double> xs, std::span<const double> ys,
                                                                      std::span<double> out) {
    auto at = [n](double v) { return std::clamp(static_cast<Eigen::Index>(std::lround(v)), Eigen::Index{0}, Eigen::Index{n - 1}); };
    for (std::size_t r = 0; r < ys.size(); ++r)
      for (std::size_t c = 0; c < xs.size(); ++c) out[r * xs.size() + c] = (*copy)(at(ys[r]), at(xs[c]));
  };
  h.colormap = fig::Colormap::signed_;
  h.vmin = -1, h.vmax = 1;
  h.value_name = tr("rope.matrix.value");
  h.x_name = tr("rope.matrix.readout.col");
  h.y_name = tr("rope.matrix.readout.row");
  f.heatmaps.push_back(std::move(h));
  for (int j = 0; j < n; ++j) f.x.ticks.emplace_back(j, std::to_string(idx[static_cast<std::size_t>(j)]));
  for (int j = 0; j < n; ++j) f.y.ticks.emplace_back(j, std::to_string(idx[static_cast<std::size_t>(j)]));
  // Values in the non-zero cells when they fit (d <= 8).
  if (n <= 8)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        if (sub(r, c) != 0)
          f.notes.push_back({.x = static_cast<double>(c), .y = static_cast<double>(r), .text = fig::num(sub(r, c), 3), .anchor = fig::Anchor::center,
                             // the signed map is dark only at its negative end
                             .color = sub(r, c) < -0.35 ? fig::Color::rgb(0xffffff) : fig::Color::rgb(0x1d1d1f)});
  return f;
}

/// The two pair layouts side by side: slot j of each row coloured by the pair
/// it belongs to, arrows from interleaved slot j to half slot P(j)
/// (2i → i, 2i+1 → i + d/2). For d > 16 the first 8 pairs.
Figure layouts(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const int d = d_of(p);
  const int pairs = std::min(d / 2, kLayoutPairs);
  const int n = 2 * pairs;
  const std::vector<int> perm = core::rope_layout_permutation(d);
  // Slots shown: interleaved 0..n−1 (pairs 0..pairs−1); half 0..pairs−1 and d/2..d/2+pairs−1.
  std::vector<int> top(static_cast<std::size_t>(n)), bottom(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) top[static_cast<std::size_t>(j)] = j;
  for (int j = 0; j < pairs; ++j) bottom[static_cast<std::size_t>(j)] = j, bottom[static_cast<std::size_t>(pairs + j)] = d / 2 + j;
  auto pair_of_half_slot = [&](int slot) { return slot < d / 2 ? slot : slot - d / 2; };
  Figure f;
  f.title = tr("rope.layouts.title");
  f.subtitle = tr.format(d / 2 > kLayoutPairs ? "rope.layouts.subtitle_part" : "rope.layouts.subtitle",
                         {{"d", fig::num(d)}, {"shown", fig::num(pairs)}, {"half", fig::num(d / 2)}});
  f.x = bare_axis(0);
  f.x.label = tr("rope.layouts.axis.x");
  f.x.label_without_cell_numbers = tr("rope.layouts.axis.x_bare");  // the numbers did not fit: not "the number in each cell"
  f.y = {.label = "", .tight = true};
  f.y.ticks = {{0.5, tr("rope.layouts.row_half")}, {2.5, tr("rope.layouts.row_interleaved")}};  // ascending
  for (int row = 0; row < 2; ++row) {
    fig::Heatmap h;
    h.x0 = -0.5, h.x1 = n - 0.5, h.y0 = row == 0 ? 2 : 0, h.y1 = h.y0 + 1;
    h.cols = n, h.rows = 1;
    for (int j = 0; j < n; ++j)
      h.values.push_back(static_cast<float>(row == 0 ? j / 2 : pair_of_half_slot(bottom[static_cast<std::size_t>(j)])));
    h.colormap = fig::Colormap::magnitude;
    h.vmin = 0, h.vmax = std::max(1, pairs - 1);
    h.value_format = fig::TickFormat::integer;  // pair indices: whole ticks on the colour bar (d = 4: 0 and 1)
    h.value_name = tr("rope.layouts.value");
    h.x_name = tr("rope.layouts.readout.column");
    h.y_name = tr("rope.layouts.readout.row");
    f.heatmaps.push_back(std::move(h));
  }
  // The magnitude map is light above ~0.55 of its range (yellow at the top):
  // dark digits there, white ones on the dark end.
  const double top_pair = std::max(1, pairs - 1);
  auto light_cell = [&](int pair) { return pair / top_pair > 0.55; };
  for (int j = 0; j < n; ++j) {
    const bool light = light_cell(j / 2);
    f.notes.push_back({.x = static_cast<double>(j), .y = 2.5, .text = std::to_string(top[static_cast<std::size_t>(j)]), .anchor = fig::Anchor::center,
                       .color = light ? fig::Color::rgb(0x1d1d1f) : fig::Color::rgb(0xffffff)});
    const int b = bottom[static_cast<std::size_t>(j)];
    const bool light_b = light_cell(pair_of_half_slot(b));
    f.notes.push_back({.x = static_cast<double>(j), .y = 0.5, .text = std::to_string(b), .anchor = fig::Anchor::center,
                       .color = light_b ? fig::Color::rgb(0x1d1d1f) : fig::Color::rgb(0xffffff)});
    // Interleaved slot j → half slot perm[j], at its column in the bottom row.
    const int target = perm[static_cast<std::size_t>(j)];
    const auto col = static_cast<double>(std::find(bottom.begin(), bottom.end(), target) - bottom.begin());
    f.arrows.push_back({.x0 = static_cast<double>(j), .y0 = 1.95, .x1 = col, .y1 = 1.05, .color = fig::Color::rgb(0x5f6368)});
  }
  return f;
}

/// ⟨f(x, m + s), f(x, n + s)⟩ over the shift s: flat for RoPE in either
/// layout, not for the notes' mixed code (cos/sin half-style, rotate_half interleaved).
Figure mixing(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const rope::Rotation r = rope::rotation(p);
  const auto& [x, base, layout] = r;
  const double m = p.real("m"), n = p.real("n");
  const int shifts = shift_count(m, n, x.size());
  Figure f;
  f.title = tr("rope.mixing.title");
  f.subtitle = tr.format("rope.mixing.subtitle", {{"x", vector_text(x, 6)}, {"d", fig::num(static_cast<double>(x.size()))},
                                                  {"m", fig::num(m)}, {"n", fig::num(n)}, {"base", fig::num(base)}});
  f.x = {.label = tr("rope.mixing.axis.x"), .unit = tr("unit.tokens"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("rope.mixing.axis.y")};
  fig::Series proper, mixed;
  proper.color = fig::palette_color(2), proper.width = 3.0f;
  mixed.color = fig::palette_color(3), mixed.width = 1.8f;
  for (int s = 0; s <= shifts; ++s) {
    proper.x.push_back(s), proper.y.push_back(self_score(r, m + s, n + s, false));
    mixed.x.push_back(s), mixed.y.push_back(self_score(r, m + s, n + s, true));
  }
  for (fig::Series* c : {&proper, &mixed}) c->x_name = tr("rope.readout.shift"), c->y_name = tr("rope.readout.score");
  // The legend gives the numbers a reader compares: RoPE's one score, the
  // range the mixed code's score sweeps.
  const auto [mixed_lo, mixed_hi] = std::minmax_element(mixed.y.begin(), mixed.y.end());
  proper.name = tr.format("rope.mixing.proper",
                          {{"layout", tr(layout == core::PairLayout::interleaved ? "rope.layout.interleaved" : "rope.layout.half")},
                           {"v", fig::num(proper.y.front())}});
  mixed.name = tr.format("rope.mixing.mixed", {{"lo", fig::num(*mixed_lo)}, {"hi", fig::num(*mixed_hi)}});
  mixed.width = 1.2f;
  // Positions are whole tokens: markers show the samples, the thin line only guides the eye.
  fig::Series dots{.name = "", .kind = fig::SeriesKind::scatter, .x = mixed.x, .y = mixed.y};
  dots.color = mixed.color, dots.marker = 2.5f, dots.x_name = mixed.x_name, dots.y_name = mixed.y_name;
  dots.decoration = true;  // the mixed line's own points: its rows are in the CSV once
  if (shifts < 2) proper.kind = fig::SeriesKind::scatter, proper.marker = 5;  // no room to shift: one point
  // Room above the data for the legend: the mixed dots fill the plot from
  // side to side, and no corner of it is free.
  double lo = 0, hi = 0;
  for (const fig::Series* c : {&mixed, &proper})
    for (double v : c->y) lo = std::min(lo, v), hi = std::max(hi, v);
  if (hi > lo) f.y.min = lo - 0.05 * (hi - lo), f.y.max = hi + 0.4 * (hi - lo);
  f.series = {std::move(mixed), std::move(dots), std::move(proper)};
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0, .style = fig::LineStyle::solid});
  f.legend = fig::LegendPlace::top_left;
  return f;
}

/// The worked example as a figure: x and f(x, m) index by index (bars and
/// stems), so a reader sees which entries moved: pairs turn, lengths stay.
Figure worked(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const auto [x, base, layout] = rope::rotation(p);
  const double m = p.real("m");
  const Eigen::VectorXd y = core::rope_rotate<double>(x, m, base, layout);
  Figure f;
  f.title = tr("rope.worked.title");
  f.subtitle = tr.format("rope.worked.subtitle", {{"x", vector_text(x, 6)}, {"m", fig::num(m)}, {"base", fig::num(base)},
                                                  {"layout", tr(layout == core::PairLayout::interleaved
                                                                    ? "rope.layout.interleaved"
                                                                    : "rope.layout.half")}});
  f.x = {.label = tr("rope.worked.axis.x"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("rope.worked.axis.y")};
  fig::Series in{.name = tr("rope.worked.input"), .kind = fig::SeriesKind::bars};
  fig::Series outs{.name = tr("rope.worked.output"), .kind = fig::SeriesKind::stems};
  in.color = fig::palette_color(0).with_alpha(0.35f), outs.color = fig::palette_color(3);
  outs.marker = x.size() <= 64 ? 5.0f : 2.0f;
  std::vector<double> pair_col;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const int d = static_cast<int>(x.size());
    const auto jj = static_cast<int>(j);
    pair_col.push_back(layout == core::PairLayout::interleaved ? jj / 2 : jj % (d / 2));
    in.x.push_back(static_cast<double>(j)), in.y.push_back(x[j]);
    outs.x.push_back(static_cast<double>(j)), outs.y.push_back(y[j]);
  }
  in.x_name = outs.x_name = tr("rope.worked.readout.index");
  in.y_name = "q", outs.y_name = "q′";
  in.extra = outs.extra = {{tr("rope.readout.pair"), "", pair_col}};
  f.series = {std::move(in), std::move(outs)};
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0, .style = fig::LineStyle::solid});
  return f;
}

/// Partial rotary: per dimension j of a head of head_dim dims, the wavelength
/// λ of the pair it belongs to (log y) — pair j/2 (interleaved) or j mod d/2
/// (half, HF's rotate_half over the first d dims). Dims d … head_dim − 1 do not
/// rotate: a shaded band, no position in them. With head_dim = 0 (or d) every
/// dim rotates and the figure says so.
Figure partial_rotary(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const auto [d, base, theta] = rope::frequencies(p);
  const auto [head, rotary] = rope::head_split(p);
  const core::PairLayout layout = layout_of(p);
  const double L = rope::trained_context(p);
  Figure f;
  f.title = tr("rope.partial.title");
  const std::string pct = fig::num(100.0 * rotary / head, 4);
  f.subtitle = head > rotary ? tr.format("rope.partial.subtitle", {{"d", fig::num(rotary)}, {"head", fig::num(head)},
                                                                   {"pct", pct}, {"rest", fig::num(head - rotary)}})
                             : tr.format("rope.partial.subtitle_all", {{"d", fig::num(rotary)}});
  f.x = {.label = tr("rope.partial.axis.x"), .format = fig::TickFormat::integer};
  f.x.min = -0.5, f.x.max = head - 0.5;
  f.y = {.label = tr("rope.partial.axis.y"), .unit = tr("unit.tokens"), .scale = fig::AxisScale::log};
  fig::Series lambda{.name = tr("rope.partial.rotating"), .kind = fig::SeriesKind::scatter};
  lambda.marker = head <= 128 ? 3.5f : 1.5f;
  lambda.color = fig::palette_color(0);
  std::vector<double> pair_col;
  for (int j = 0; j < rotary; ++j) {
    const int pair = layout == core::PairLayout::interleaved ? j / 2 : j % (d / 2);
    lambda.x.push_back(j), lambda.y.push_back(2 * kPi / theta[pair]);
    pair_col.push_back(pair);
  }
  lambda.x_name = tr("rope.partial.readout.dim");
  lambda.y_name = "λ";
  lambda.extra = {{tr("rope.readout.pair"), "", pair_col}};
  f.series.push_back(std::move(lambda));
  if (head > rotary)
    f.bands.push_back({.from = rotary - 0.5, .to = head - 0.5,
                       .label = tr.format("rope.partial.passthrough", {{"rest", fig::num(head - rotary)}}),
                       .color = fig::Color::rgb(0x9aa0a6).with_alpha(0.25f)});
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = L, .label = "L = " + fig::num(L)});
  f.legend = fig::LegendPlace::automatic;
  return f;
}

// [SECTION] Readouts

std::vector<Readout> readouts(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const rope::Rotation r = rope::rotation(p);
  const auto& [x, base, layout] = r;
  const int dv = static_cast<int>(x.size());
  const double m = p.real("m"), n = p.real("n");
  std::vector<Readout> out;

  // 1. The worked example: f(x, m) in the chosen layout.
  const Eigen::VectorXd y = core::rope_rotate<double>(x, m, base, layout);
  out.push_back({.label = tr.format("rope.readout.rotated", {{"m", fig::num(m)}, {"d", fig::num(dv)}}),
                 .value = vector_text(y), .number = y[0]});

  // 2. Rotation keeps the norm.
  const double stretch = std::abs(y.norm() - x.norm());
  out.push_back({.label = tr("rope.readout.norm"),
                 .value = tr.format("rope.readout.norm_value", {{"a", fig::num(x.norm(), 8)}, {"b", fig::num(y.norm(), 8)}}),
                 .number = y.norm(), .holds = stretch <= 8 * kEps * dv * x.norm()});

  // 3. The matrix form R_{Θ,m}·x equals the pairwise form.
  if (dv <= kMaxMatrixCheck) {
    const Eigen::VectorXd z = core::rope_rotation_matrix(dv, m, base, layout) * x;
    const double gap = (z - y).cwiseAbs().maxCoeff();
    out.push_back({.label = tr("rope.readout.matrix"), .value = tr.format("rope.readout.gap", {{"g", fig::num(gap, 2)}}),
                   .number = gap, .holds = gap <= 8 * kEps * dv * x.cwiseAbs().maxCoeff()});
  }

  // 4. Half layout = the interleaved rotation of the permuted vector, permuted back.
  const Eigen::VectorXd half = core::rope_rotate<double>(x, m, base, core::PairLayout::half);
  const Eigen::VectorXd via = core::interleaved_to_half(
      core::rope_rotate<double>(core::half_to_interleaved(x), m, base, core::PairLayout::interleaved));
  const double pgap = (half - via).cwiseAbs().maxCoeff();
  out.push_back({.label = tr("rope.readout.permutation"), .value = tr.format("rope.readout.gap", {{"g", fig::num(pgap, 2)}}),
                 .number = pgap, .holds = pgap == 0});

  // 5. The relative property: ⟨f(x, m + s), f(x, n + s)⟩ = ⟨f(x, m), f(x, n)⟩
  //    (skipped when m or n sits at the top of the position range: no room to shift).
  const int shifts = shift_count(m, n, x.size());
  if (shifts > 0) {
    const double err = shift_error(r, m, n, false);
    const double scale = std::max(x.squaredNorm(), std::numeric_limits<double>::min());
    out.push_back({.label = tr.format("rope.readout.relative", {{"s", fig::num(shifts)}}),
                   .value = tr.format("rope.readout.relative_value", {{"e", fig::num(err, 2)}}),
                   .number = err, .holds = err <= score_tolerance(x, std::max(m, n) + shifts)});

    // 6. The notes' mixed layouts: the same check fails (a measurement: for d = 2
    //    both halves coincide and nothing breaks).
    const double mixed_err = shift_error(r, m, n, true);
    out.push_back({.label = tr.format("rope.readout.mixed", {{"s", fig::num(shifts)}}),
                   .value = tr.format("rope.readout.mixed_value", {{"e", fig::num(mixed_err, 3)},
                                                                   {"pct", fig::num(100 * mixed_err / scale, 3)}}),
                   .number = mixed_err, .notes = true});
  }
  // 7. Partial rotary: the whole head's score still depends on m − n only, and
  //    the dims that do not rotate add the same ⟨q, k⟩ at every position.
  const rope::HeadSplit split = rope::head_split(p);
  const int head = split.head, rotary = split.rotary;  // (plain ints: the lambda below captures them)
  if (head > rotary && shifts > 0) {
    Eigen::VectorXd q(head), k(head);
    for (int j = 0; j < head; ++j) q[j] = std::cos(0.7 * j + 0.3), k[j] = std::sin(1.3 * j + 0.5);
    auto score = [&, base_ = base, layout_ = layout](double a, double b) {  // (clang 14: no captured binding)
      return rope::rotate_partial(q, rotary, a, base_, layout_).dot(rope::rotate_partial(k, rotary, b, base_, layout_));
    };
    const double passthrough = q.tail(head - rotary).dot(k.tail(head - rotary));
    const double ref = score(m, n);
    double worst = 0;
    for (int s = 1; s <= shifts; ++s) worst = std::max(worst, std::abs(score(m + s, n + s) - ref));
    const double rest = ref - rope::rotate_partial(q, rotary, m, base, layout).head(rotary).dot(
                                  rope::rotate_partial(k, rotary, n, base, layout).head(rotary));
    const double tol = score_tolerance(q, std::max(m, n) + shifts) + score_tolerance(k, std::max(m, n) + shifts);
    out.push_back({.label = tr.format("rope.readout.partial", {{"d", fig::num(rotary)}, {"head", fig::num(head)}}),
                   .value = tr.format("rope.readout.partial_value", {{"s", fig::num(shifts)}, {"e", fig::num(worst, 2)},
                                                                     {"c", fig::num(passthrough, 6)}}),
                   .number = worst, .holds = worst <= tol && std::abs(rest - passthrough) <= tol});
  }
  const double ratio = x.norm() > 0 ? core::rope_rotate_mixed(x, m, base).norm() / x.norm() : 1.0;
  out.push_back({.label = tr("rope.readout.mixed_norm"), .value = fig::num(ratio, 6), .number = ratio, .notes = true});

  // 7. The notes' printed worked examples against the reference (table rope-notes-check).
  if (const TableDef* def = find_table("rope-notes-check")) {
    const Table t = build_table(*def, core::Params{});
    std::string wrong;
    long long count = 0;
    for (const auto& row : t.rows) {
      if (std::get<bool>(row[6])) continue;
      ++count;
      if (!wrong.empty()) wrong += ", ";
      wrong += fig::num(std::get<double>(row[3]), 6) + " → " + fig::num(std::get<double>(row[5]), 6);
    }
    out.push_back({.label = tr.format("rope.readout.notes", {{"n", fig::num(static_cast<double>(t.rows.size()))}}),
                   .value = tr.format("rope.readout.notes_value", {{"count", fig::num(static_cast<double>(count))},
                                                                   {"list", wrong}}),
                   .number = static_cast<double>(count), .notes = true});
  }
  return out;
}

}  // namespace

ViewDef rope_view() {
  return {.id = "rope",
          .group = "rotary",
          .keys = {"vector", "m", "n", "layout", "pos", "d", "base", "original_context", "head_dim"},
          .defaults = {{"pos", "0:4"}},
          .figures = {{"frequencies", frequencies},
                      {"dials", dials},
                      {"rotation-matrix", rotation_matrix},
                      {"layouts", layouts},
                      {"mixing", mixing},
                      {"worked", worked},
                      {"partial-rotary", partial_rotary}},
          .tables = {"rope-steps", "rope-five-vectors", "rope-notes-check", "rope-layouts", "rope-frequencies",
                     "rope-rotate"},
          .readouts = readouts};
}

}  // namespace poslab::app
