// Lesson "alibi": attention with linear biases (Press, Smith, Lewis 2022,
// "Train Short, Test Long", §3). Each head h adds −m_h·(i − j) to the logit of
// query i on key j (causal; the symmetric variant uses −m_h·|i − j|), with the
// slopes of the authors' get_slopes(n) (core/alibi.hpp):
//   n a power of two: m_k = 2^(−8k/n), k = 1..n (a geometric sequence);
//   otherwise p = 2^⌊log2 n⌋: get_slopes(p) + get_slopes(2p)[0::2][: n − p],
//   so heads p+1..n take every other slope of 2p heads, each falling between
//   two slopes of the first p heads (BLOOM: 112 heads = 64 + 48).
//
// [SECTION] Index
// - Slope groups, the attention of a uniform score (the setting: setting.hpp)
// - Figures: slopes, interleave, bias, attention, weights
// - Readouts
// - The view

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <type_traits>

#include "app/plot/figure_text.hpp"
#include "app/lessons/alibi/setting.hpp"
#include "app/lessons/common/figures.hpp"
#include "app/lessons/lesson.hpp"
#include "poslab/core/alibi.hpp"

namespace poslab::app {

namespace {

using alibi::Setting;
using alibi::setting;
using fig::Figure;

/// A bias matrix is drawn with one cell per position up to this many
/// positions per side; beyond, one cell per block of positions.
constexpr int kMaxBiasCells = 1024;
/// Heads drawn in the weights figure (spread over 1..H, the chosen one added).
constexpr int kMaxWeightCurves = 8;
/// The readouts check the closed form against core's softmax on a row of at
/// most this many keys (the check is O(keys) per change).
constexpr long long kCheckPositions = 16384;

// [SECTION] Slope groups, the attention of a uniform score

/// Superscript digits for "2⁻³" tick labels (a number, not a word).
std::string power_of_two_label(int exponent) {
  static const char* digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string out = exponent < 0 ? "2⁻" : "2";
  for (char c : std::to_string(std::abs(exponent))) out += digits[c - '0'];
  return out;
}

/// 1 − e^(−m·count) without cancellation: Σ_{k<count} e^(−mk) · (1 − e^(−m)).
double one_minus_exp(double m, double count) { return -std::expm1(-m * count); }

/// The attention weights of query i over keys j when every content score is
/// equal (so only the ALiBi bias differs): softmax_j(−m·(i − j)) over the
/// keys the query sees, in closed form (geometric sums) so a million-position
/// heatmap needs no N × N matrix:
///   causal, j <= i: e^(−m(i−j)) · (1 − e^(−m)) / (1 − e^(−m(i+1)));  j > i: 0
///   symmetric:      e^(−m|i−j|) / (S(i) + S(N−1−i) − 1),  S(n) = (1 − e^(−m(n+1))) / (1 − e^(−m))
/// The row's normaliser is computed once, so a weight costs one exp; a weight
/// whose exp underflows is 0 without calling it (glibc's exp takes a slow
/// path there, and a heatmap at a million positions is mostly such cells).
/// test_alibi_lesson checks it against core::softmax_rows(core::alibi_bias_matrix).
class UniformRow {
 public:
  /// exp(−x) is +0 in double for x above ~745.13; in float a weight (at most
  /// e^(−x): the normaliser is ≥ its numerator's factor) rounds to 0 below
  /// 2^−150 ≈ 7.0e−46, i.e. for x above ~103.97.
  static constexpr double kDoubleUnderflow = 746;
  static constexpr double kFloatUnderflow = 104.5;

  UniformRow(double m, long long i, long long n, bool causal)
      : m_(m), i_(i), causal_(causal), q_(one_minus_exp(m, 1)),
        norm_(causal ? one_minus_exp(m, static_cast<double>(i + 1))
                     : (one_minus_exp(m, static_cast<double>(i + 1)) + one_minus_exp(m, static_cast<double>(n - i))) / q_ - 1) {}

  /// The weight on key j; 0 where e^(−m·|i − j|) is below `underflow`'s exp.
  double operator()(long long j, double underflow = kDoubleUnderflow) const {
    if (causal_ && j > i_) return 0.0;
    const double x = m_ * static_cast<double>(std::llabs(i_ - j));
    if (x > underflow) return 0.0;
    return causal_ ? std::exp(-x) * q_ / norm_ : std::exp(-x) / norm_;
  }

 private:
  double m_;
  long long i_;
  bool causal_;
  double q_, norm_;  ///< 1 − e^(−m); causal: 1 − e^(−m(i+1)), symmetric: S(i) + S(N−1−i) − 1
};

double uniform_attention(double m, long long i, long long j, long long n, bool causal) {
  return UniformRow(m, i, n, causal)(j);
}

/// The attention row of `query` over keys 0..N−1 through core: the biases of
/// core::alibi_bias as a 1 × N matrix, normalised by core::softmax_rows.
/// With `bloom`, the bias is m·j as HF BLOOM's build_alibi_tensor adds it
/// (the same for every query, future keys masked by the causal mask).
Eigen::VectorXd attention_row(double m, long long query, long long n, bool causal, bool bloom = false) {
  Eigen::MatrixXd row(1, n);
  for (long long j = 0; j < n; ++j) {
    const bool masked = causal && j > query;
    row(0, j) = masked ? -std::numeric_limits<double>::infinity()
                       : (bloom ? m * static_cast<double>(j) : core::alibi_bias(m, query, j, causal));
  }
  return core::softmax_rows(row).row(0).transpose();
}

/// Curve colours: the Okabe–Ito palette without its black (unreadable on the
/// dark theme), then a neutral grey for a ninth curve.
fig::Color curve_colour(int k) {
  static constexpr int kOrder[] = {0, 1, 2, 3, 4, 5, 7};
  return k < 7 ? fig::palette_color(kOrder[k]) : fig::Color::rgb(0x9aa0a6);
}

/// Up to kMaxWeightCurves heads spread over 1..H, always with the chosen one.
std::vector<int> shown_heads(const Setting& s) {
  std::vector<int> out;
  const int n = std::min(s.heads, kMaxWeightCurves);
  for (int k = 0; k < n; ++k) out.push_back(n == 1 ? 1 : 1 + static_cast<int>(std::lround(k * (s.heads - 1.0) / (n - 1))));
  if (std::find(out.begin(), out.end(), s.head) == out.end()) out.push_back(s.head);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string mode_text(const Setting& s, const Translator& tr) { return s.causal ? tr("alibi.causal") : tr("alibi.symmetric"); }

// [SECTION] Figures

/// Room above the steepest and below the shallowest slope, in powers of two.
constexpr double kSlopeMargin = 1.0 / 3;

/// Slope per head as stems on a log axis, coloured by where get_slopes takes
/// it from: the first p heads and (H not a power of two) the interleaved rest.
Figure slopes(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const int p = s.power();
  Figure f;
  f.title = tr("alibi.slopes.title");
  f.subtitle = tr.format(p == s.heads ? "alibi.slopes.subtitle_pow2" : "alibi.slopes.subtitle_mixed",
                         {{"h", fig::num(s.heads)}, {"p", fig::num(p)}, {"p2", fig::num(2 * p)}, {"rest", fig::num(s.heads - p)}});
  f.x = {.label = tr("alibi.axis.head"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("alibi.axis.slope"), .scale = fig::AxisScale::log};
  for (int e = -8; e <= 0; ++e) f.y.ticks.emplace_back(std::ldexp(1.0, e), power_of_two_label(e));
  f.legend = fig::LegendPlace::automatic;  // stems fall to the right: usually the top right is free
  fig::Series first{.name = tr.format("alibi.slopes.series_first", {{"p", fig::num(p)}}), .kind = fig::SeriesKind::stems};
  fig::Series rest{.name = tr.format("alibi.slopes.series_rest", {{"p2", fig::num(2 * p)}}), .kind = fig::SeriesKind::stems};
  rest.color = fig::palette_color(3);
  std::vector<double> first_log, first_efold, rest_log, rest_efold;
  for (int h = 1; h <= s.heads; ++h) {
    const double m = s.slopes[static_cast<std::size_t>(h - 1)];
    const bool in_first = h <= p;
    fig::Series& ser = in_first ? first : rest;
    ser.x.push_back(h), ser.y.push_back(m);
    (in_first ? first_log : rest_log).push_back(std::log2(m));
    (in_first ? first_efold : rest_efold).push_back(1 / m);
  }
  for (fig::Series* ser : {&first, &rest}) {
    ser->x_name = tr("alibi.readout.head");
    ser->y_name = "μₕ";
    ser->marker = s.heads > 64 ? 2.5f : 4.0f;
    ser->width = s.heads > 64 ? 1.2f : 2.0f;
  }
  first.extra = {{"log₂ μₕ", "", first_log}, {"1/μₕ", tr("unit.tokens"), first_efold}};
  rest.extra = {{"log₂ μₕ", "", rest_log}, {"1/μₕ", tr("unit.tokens"), rest_efold}};
  fig::Series chosen{.name = tr.format("alibi.slopes.series_chosen", {{"h", fig::num(s.head)}}), .kind = fig::SeriesKind::scatter};
  chosen.x = {static_cast<double>(s.head)};
  chosen.y = {s.slope()};
  chosen.marker = 7;
  chosen.color = fig::palette_color(4);
  chosen.x_name = tr("alibi.readout.head");
  chosen.y_name = "μₕ";
  // A little room beyond the steepest and shallowest slope (a third of a
  // power of two on the log axis): the chosen head's large marker at the top
  // is not cut by the frame.
  const auto [lo, hi] = std::minmax_element(s.slopes.begin(), s.slopes.end());
  f.y.min = *lo * std::exp2(-kSlopeMargin);
  f.y.max = *hi * std::exp2(kSlopeMargin);
  f.series = {std::move(first)};
  if (!rest.x.empty()) f.series.push_back(std::move(rest));
  f.series.push_back(std::move(chosen));
  return f;
}

/// The slopes on one log axis, one row per source: all 2p slopes of
/// get_slopes(2p), the first p heads (every second of those), and the other
/// heads (the odd-numbered ones of 2p), so the interleaving shows as markers
/// falling into the gaps of the row above.
Figure interleave(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const int p = s.power();
  const std::vector<double> doubled = core::alibi_slopes(std::min(2 * p, 256));
  Figure f;
  f.title = tr("alibi.interleave.title");
  f.subtitle = tr.format(p == s.heads ? "alibi.interleave.subtitle_pow2" : "alibi.interleave.subtitle_mixed",
                         {{"h", fig::num(s.heads)}, {"p", fig::num(p)}, {"p2", fig::num(2 * p)}});
  f.x = {.label = tr("alibi.axis.slope"), .scale = fig::AxisScale::log};
  for (int e = -8; e <= 0; ++e) f.x.ticks.emplace_back(std::ldexp(1.0, e), power_of_two_label(e));
  f.y = {.label = "", .min = -0.6, .max = 2.6};
  f.legend = fig::LegendPlace::none;  // the rows are labelled on the y axis
  // Rows bottom to top (ticks ascending); the extra heads' row only when there are extra heads.
  if (p < s.heads)
    f.y.ticks.emplace_back(0.0, tr.format("alibi.interleave.row_rest", {{"p", fig::num(p + 1)}, {"h", fig::num(s.heads)}}));
  f.y.ticks.emplace_back(1.0, tr.format("alibi.interleave.row_first", {{"p", fig::num(p)}}));
  if (2 * p <= 256) f.y.ticks.emplace_back(2.0, tr.format("alibi.interleave.row_doubled", {{"p2", fig::num(2 * p)}}));
  // get_slopes(2p) as grey stems from the bottom row to the top one: the
  // first p heads sit on every second stem, the other heads on the stems between.
  fig::Series all{.kind = fig::SeriesKind::stems}, first{.kind = fig::SeriesKind::scatter}, rest{.kind = fig::SeriesKind::scatter};
  all.color = fig::Color::rgb(0xb0b4ba);
  all.width = 1.0f;
  first.color = fig::palette_color(0);
  rest.color = fig::palette_color(3);
  std::vector<double> all_index, first_head, rest_head;
  if (2 * p <= 256)
    for (std::size_t k = 0; k < doubled.size(); ++k) all.x.push_back(doubled[k]), all.y.push_back(2), all_index.push_back(static_cast<double>(k + 1));
  for (int h = 1; h <= s.heads; ++h) {
    fig::Series& ser = h <= p ? first : rest;
    ser.x.push_back(s.slopes[static_cast<std::size_t>(h - 1)]), ser.y.push_back(h <= p ? 1 : 0);
    (h <= p ? first_head : rest_head).push_back(h);
  }
  for (fig::Series* ser : {&all, &first, &rest}) {
    ser->marker = ser == &all ? 2.0f : (s.heads > 64 ? 3.0f : 4.5f);
    ser->x_name = "μₕ";
    ser->y_name = tr("alibi.readout.row");
  }
  // Named by their rows' labels on the y axis (no legend), for the CSV.
  all.data_name = tr.format("alibi.interleave.row_doubled", {{"p2", fig::num(2 * p)}});
  first.data_name = tr.format("alibi.interleave.row_first", {{"p", fig::num(p)}});
  rest.data_name = tr.format("alibi.interleave.row_rest", {{"p", fig::num(p + 1)}, {"h", fig::num(s.heads)}});
  all.extra = {{tr("alibi.readout.index_in_doubled"), "", all_index}};
  first.extra = {{tr("alibi.readout.head"), "", first_head}};
  rest.extra = {{tr("alibi.readout.head"), "", rest_head}};
  f.series = {std::move(all), std::move(first), std::move(rest)};
  return f;
}

/// The bias −m·(i − j) of the chosen head over queries × keys (causal: the
/// future masked), one cell per position up to kMaxBiasCells per side.
Figure bias(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const double m = s.slope();
  const auto n = static_cast<double>(s.positions);
  // One cell per position while the cells are no finer than the pixels (of
  // the shorter side: the cells are as many across as down) and at most
  // kMaxBiasCells per side; else blocks of positions. (By the longer side, a
  // wide figure's million cells were twice its pixels: twice the work, and
  // 4.7 MB to send from the page's worker on every move.)
  const auto pixels = static_cast<long long>(std::ceil(std::min(ctx.width, ctx.height)));
  const int cells = static_cast<int>(std::min({s.positions, static_cast<long long>(kMaxBiasCells), std::max(pixels, 64LL)}));
  const double block = n / cells;
  Figure f;
  f.title = tr.format(s.causal ? "alibi.bias.title" : "alibi.bias.title_symmetric", {{"h", fig::num(s.head)}});
  f.subtitle = tr.format(cells == s.positions ? "alibi.bias.subtitle" : "alibi.bias.subtitle_blocks",
                         {{"m", fig::num(m)}, {"n", fig::num(n)}, {"mode", mode_text(s, tr)}, {"b", fig::num(block, 3)}});
  lessons::matrix_axes(f, tr("alibi.axis.key"), tr("alibi.axis.query"));
  // Cells fill the plot area (no equal aspect): a square matrix would leave empty margins.
  fig::Heatmap h;
  h.x0 = 0, h.x1 = n, h.y0 = 0, h.y1 = n;
  h.cols = h.rows = cells;
  std::vector<long long> at(static_cast<std::size_t>(cells));  // the position each row / column of cells starts at
  for (int c = 0; c < cells; ++c) at[static_cast<std::size_t>(c)] = static_cast<long long>(std::floor(c * block));
  // Through core a block of rows at a time (a million cells at the largest
  // sizes: no table of doubles beside the floats drawn, and each block's
  // positions checked once).
  const std::size_t side = at.size();
  h.values.resize(side * side);
  if (s.causal) h.mask.resize(side * side);
  constexpr std::size_t kBlockRows = 64;
  std::vector<double> block_bias(std::min(side, kBlockRows) * side);
  for (std::size_t r0 = 0; r0 < side; r0 += kBlockRows) {
    const std::size_t rows = std::min(kBlockRows, side - r0);
    const std::span<double> out(block_bias.data(), rows * side);
    core::alibi_bias_grid(m, std::span(at).subspan(r0, rows), at, s.causal, out);
    for (std::size_t k = 0; k < out.size(); ++k) {
      const std::size_t cell = r0 * side + k;
      if (std::isfinite(out[k])) {
        h.values[cell] = static_cast<float>(out[k]);
      } else {
        h.values[cell] = 0.0f;  // a masked future key: drawn hatched, never a colour
        h.mask[cell] = 1;
      }
    }
  }
  // Exports: each cell at the position its row and column of cells start at, in double.
  h.x_index.assign(at.begin(), at.end());
  h.y_index = h.x_index;
  h.exact = [starts = std::make_shared<const std::vector<long long>>(std::move(at)), m, causal = s.causal, cells, n](
                std::span<const double> xs, std::span<const double> ys, std::span<double> out) {
    auto start = [&](double v) { return (*starts)[static_cast<std::size_t>(std::clamp(static_cast<int>(std::floor(v / n * cells)), 0, cells - 1))]; };
    for (std::size_t r = 0; r < ys.size(); ++r)
      for (std::size_t c = 0; c < xs.size(); ++c) out[r * xs.size() + c] = core::alibi_bias(m, start(ys[r]), start(xs[c]), causal);
  };
  h.colormap = fig::Colormap::magnitude;
  h.vmin = -m * std::max(1.0, n - 1), h.vmax = 0;
  h.value_name = tr("alibi.readout.bias");
  h.x_name = tr("alibi.readout.key");
  h.y_name = tr("alibi.readout.query");
  f.heatmaps.push_back(std::move(h));
  return f;
}

/// The softmax attention of the chosen head when every content score is the
/// same, so the bias alone decides: sampled at the pixels (closed form).
/// Colours stop at the peak of the row the other figures show (early causal
/// rows, with few keys, are brighter than that and saturate).
Figure attention(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const auto n = static_cast<double>(s.positions);
  const double m = s.slope();
  const double peak = uniform_attention(m, s.query(), s.query(), s.positions, s.causal);
  Figure f;
  f.title = tr.format("alibi.attention.title", {{"h", fig::num(s.head)}});
  f.subtitle = tr.format(s.causal ? "alibi.attention.subtitle" : "alibi.attention.subtitle_symmetric", {{"m", fig::num(m)}, {"n", fig::num(n)}, {"mode", mode_text(s, tr)},
                                                      {"peak", fig::num(peak, 3)}});
  lessons::matrix_axes(f, tr("alibi.axis.key"), tr("alibi.axis.query"));
  // Cells fill the plot area (no equal aspect): a square matrix would leave empty margins.
  fig::Heatmap h;
  h.x0 = 0, h.x1 = n, h.y0 = 0, h.y1 = n;
  h.cols = h.rows = static_cast<int>(s.positions);
  h.x_cells = h.y_cells = true;
  h.colormap = fig::Colormap::magnitude;
  h.vmin = 0, h.vmax = peak > 0 ? peak : 1;
  h.value_name = tr("alibi.readout.weight");
  h.x_name = tr("alibi.readout.key");
  h.y_name = tr("alibi.readout.query");
  // (generic in the output: floats drawn, doubles exported)
  const auto fill = [m, last = s.positions - 1, causal = s.causal](std::span<const double> xs, std::span<const double> ys,
                                                                   auto out) {
    using Out = typename decltype(out)::value_type;
    // Floats drawn: a weight that rounds to 0 in float is 0 before its exp.
    constexpr double underflow = std::is_same_v<Out, float> ? UniformRow::kFloatUnderflow : UniformRow::kDoubleUnderflow;
    for (std::size_t r = 0; r < ys.size(); ++r) {
      const long long i = std::clamp(static_cast<long long>(std::floor(ys[r])), 0LL, last);
      const UniformRow row(m, i, last + 1, causal);
      for (std::size_t c = 0; c < xs.size(); ++c) {
        const long long j = std::clamp(static_cast<long long>(std::floor(xs[c])), 0LL, last);
        out[r * xs.size() + c] = static_cast<Out>(row(j, underflow));
      }
    }
  };
  h.sampler = fill;
  h.exact = fill;
  f.heatmaps.push_back(std::move(h));
  return f;
}

/// One query's attention over the keys for several heads, log y: with equal
/// content scores the weights are e^(−m·distance) normalised, straight lines
/// whose steepness is the slope (the symmetric variant: a tent).
Figure weights(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const long long q = s.query();
  // Keys drawn: all up to 4096, else every k-th (the curves are smooth).
  const long long stride = std::max(1LL, s.positions / 4096);
  constexpr double kFloor = 1e-12;
  Figure f;
  f.title = tr("alibi.weights.title");
  f.subtitle = tr.format(s.causal ? "alibi.weights.subtitle_causal" : "alibi.weights.subtitle_symmetric",
                         {{"q", fig::num(static_cast<double>(q))}, {"n", fig::num(static_cast<double>(s.positions))}});
  // The chosen head's weight on the query's own token and on the key 2 back,
  // so the ratio e^(−2·μₕ) can be read off the figure.
  if (q >= 2)
    f.subtitle = fig::join_dot({f.subtitle, tr.format("alibi.weights.subtitle_head",
                                                      {{"h", fig::num(s.head)},
                                                       {"w0", fig::num(uniform_attention(s.slope(), q, q, s.positions, s.causal), 4)},
                                                       {"w2", fig::num(uniform_attention(s.slope(), q, q - 2, s.positions, s.causal), 4)}})});
  f.x = {.label = tr("alibi.axis.key"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("alibi.axis.weight"), .scale = fig::AxisScale::log, .min = kFloor};
  double top = kFloor, bottom = 1;
  int index = 0;
  for (int h : shown_heads(s)) {
    const double m = s.slopes[static_cast<std::size_t>(h - 1)];
    fig::Series ser{.name = tr.format("alibi.weights.series", {{"h", fig::num(h)}, {"m", fig::num(m, 3)}})};
    std::vector<double> distance;
    // The closed form (the readouts check it against core's softmax), at the
    // keys drawn only: a million keys cost what 4096 do.
    const UniformRow row(m, q, s.positions, s.causal);
    for (long long j = 0; j < s.positions; j += stride) {
      const double w = row(j);
      if (!(w > 0)) continue;  // masked future keys and underflow: nothing on a log axis
      ser.x.push_back(static_cast<double>(j)), ser.y.push_back(w);
      distance.push_back(static_cast<double>(std::llabs(q - j)));
      top = std::max(top, w), bottom = std::min(bottom, w);
    }
    ser.x_name = tr("alibi.readout.key");
    ser.y_name = tr("alibi.readout.weight");
    ser.extra = {{tr("alibi.readout.distance"), tr("unit.tokens"), distance}};
    // The eighth curve's grey is within ΔE 4 of head 5's reddish purple for
    // a protanope or deuteranope (Machado 2009): it differs by its dash.
    if (index >= 7) ser.style = fig::LineStyle::dashed;
    ser.color = curve_colour(index++);
    if (h == s.head) ser.width = 3.2f;
    f.series.push_back(std::move(ser));
  }
  f.y.min = std::max(kFloor, bottom / 2);  // the axis ends where the smallest weight drawn does (at most 12 decades)
  f.y.max = top * 1.5;
  f.ref_lines.push_back({.value = static_cast<double>(q), .label = tr.format("alibi.weights.query", {{"q", fig::num(static_cast<double>(q))}})});
  // Placed by the layout: with up to 8 lines fanning out from the query no
  // corner is free, so the legend goes beside the plot when it fits there.
  f.legend = fig::LegendPlace::automatic;
  return f;
}

// [SECTION] Readouts

std::vector<Readout> readouts(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const int p = s.power();
  const double m = s.slope();
  std::vector<Readout> out;

  // The chosen head's slope against the closed form of get_slopes.
  const int k = s.head <= p ? s.head : 2 * (s.head - p) - 1;  // index in get_slopes(p), or in get_slopes(2p)
  const int n = s.head <= p ? p : 2 * p;
  const double formula = std::exp2(-8.0 * k / n);
  out.push_back({tr.format("alibi.readout.slope_label", {{"h", fig::num(s.head)}, {"k", fig::num(k)}, {"n", fig::num(n)}}),
                 fig::num(m, 6), m, std::abs(m - formula) <= 1e-13 * formula});

  // Power of two: one geometric sequence; otherwise the interleaving.
  if (p == s.heads) {
    const double ratio = std::exp2(-8.0 / s.heads);
    bool geometric = true;
    for (int h = 1; h < s.heads; ++h)
      geometric = geometric && std::abs(s.slopes[static_cast<std::size_t>(h)] / s.slopes[static_cast<std::size_t>(h - 1)] - ratio) <= 1e-12;
    out.push_back({tr.format("alibi.readout.geometric_label", {{"h", fig::num(s.heads)}}), fig::num(ratio, 6), ratio, geometric});
  } else {
    bool between = true;
    for (int h = p + 1; h <= s.heads; ++h) {
      const int j = h - p;  // the j-th extra head lies between slopes j − 1 and j of the first p (slope 0 = 1)
      const double above = j == 1 ? 1.0 : s.slopes[static_cast<std::size_t>(j - 2)];
      const double below = s.slopes[static_cast<std::size_t>(j - 1)];
      const double x = s.slopes[static_cast<std::size_t>(h - 1)];
      between = between && below < x && x < above;
    }
    out.push_back({tr.format("alibi.readout.interleave_label", {{"a", fig::num(p + 1)}, {"h", fig::num(s.heads)}, {"p", fig::num(p)}}),
                   tr.format("alibi.readout.interleave_value", {{"rest", fig::num(s.heads - p)}, {"p2", fig::num(2 * p)}}),
                   static_cast<double>(s.heads - p), between});
  }
  std::vector<double> sorted = s.slopes;
  std::sort(sorted.begin(), sorted.end());
  const bool distinct = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
  out.push_back({tr("alibi.readout.distinct_label"),
                 tr.format("alibi.readout.distinct_value", {{"lo", fig::num(sorted.front(), 4)}, {"hi", fig::num(sorted.back(), 4)}}),
                 static_cast<double>(s.heads), distinct});

  // The attention row the figures show: core's softmax sums to 1, the closed
  // form of the heatmap agrees with it, and BLOOM's m·j gives the same row.
  // Core's row costs O(positions) per change: beyond kCheckPositions the
  // check runs on a sequence of kCheckPositions (the same head, the query in
  // the same place), and a readout says so.
  const long long check_n = std::min(s.positions, kCheckPositions);
  const long long check_q = s.causal ? check_n - 1 : (check_n - 1) / 2;
  const Eigen::VectorXd w = attention_row(m, check_q, check_n, s.causal);
  if (check_n < s.positions)
    out.push_back({tr("alibi.readout.check_label"), fig::num(static_cast<double>(check_n)), static_cast<double>(check_n),
                   std::nullopt});
  const double sum_error = std::abs(w.sum() - 1);
  out.push_back({tr.format("alibi.readout.sum_label", {{"q", fig::num(static_cast<double>(check_q))}}), fig::num(w.sum(), 15),
                 w.sum(), sum_error <= 1e-12});
  double closed_error = 0;
  const UniformRow check_row(m, check_q, check_n, s.causal);
  for (long long j = 0; j < check_n; ++j) closed_error = std::max(closed_error, std::abs(w[j] - check_row(j)));
  out.push_back({tr("alibi.readout.closed_label"), fig::num(closed_error, 2), closed_error, closed_error <= 1e-12});
  if (s.causal) {
    const Eigen::VectorXd bloom = attention_row(m, check_q, check_n, true, true);
    const double diff = (bloom - w).cwiseAbs().maxCoeff();
    out.push_back({tr("alibi.readout.bloom_label"), fig::num(diff, 2), diff, diff <= 1e-12});
  }

  // How local the chosen head is (the row of the figures, closed form):
  // weight on the query itself, and the distance within which 90% of its
  // attention lies (found by walking out from the query: a few hundred
  // steps at the smallest slope, 2⁻⁸ → ln 10 / 2⁻⁸ ≈ 590).
  const long long q = s.query();
  const double self = uniform_attention(m, q, q, s.positions, s.causal);
  out.push_back({tr.format("alibi.readout.self_label", {{"h", fig::num(s.head)}}), fig::num(self, 4), self, std::nullopt});
  double mass = 0;
  long long reach = 0;
  const UniformRow row(m, q, s.positions, s.causal);
  for (long long dist = 0; dist < s.positions && mass < 0.9; ++dist) {
    if (q - dist >= 0) mass += row(q - dist);
    if (dist > 0 && q + dist < s.positions) mass += row(q + dist);
    reach = dist;
  }
  out.push_back({tr.format("alibi.readout.reach_label", {{"h", fig::num(s.head)}}),
                 tr.format("alibi.readout.reach_value", {{"d", fig::num(static_cast<double>(reach))}}),
                 static_cast<double>(reach), std::nullopt});
  return out;
}

}  // namespace

// [SECTION] The view

ViewDef alibi_view() {
  return {.id = "alibi",
          .group = "relative",
          .keys = {"heads", "head", "causal", "positions"},
          .defaults = {{"positions", "64"}},
          .figures = {{"slopes", slopes}, {"interleave", interleave}, {"bias", bias}, {"attention", attention},
                      {"weights", weights}},
          .tables = {"alibi-slopes", "alibi-heads", "alibi-attention"},
          .readouts = readouts};
}

}  // namespace poslab::app
