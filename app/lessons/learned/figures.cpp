// Lesson "learned": learned absolute position embeddings (BERT: Devlin et al.
// 2019 §3; HF BertEmbeddings.position_embeddings = nn.Embedding(512, 768),
// initialised N(0, 0.02²) by BertPreTrainedModel._init_weights). A table P
// with one trainable row per position 0..L−1 is added to the token
// embeddings: h_p = x_p + P[p]. There is no row for p >= L.
//
// [SECTION] Index
// - Helpers (rows at a pixel's positions, cosine similarity)
// - Figures: table, sinusoidal, similarity
// - Readouts
// - The view

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "app/plot/figure_text.hpp"
#include "app/lessons/common/figures.hpp"
#include "app/lessons/learned/setting.hpp"
#include "app/lessons/lesson.hpp"
#include "poslab/core/learned.hpp"
#include "poslab/core/sinusoidal.hpp"

namespace poslab::app {

namespace {

using fig::Figure;

/// Colour range of the table: ±3 standard deviations of the initialisation.
constexpr double kRange = 3 * core::kLearnedInitStddev;
/// Entries one similarity curve may compute (rows × d): the figure spans
/// min(N, max(L + L/2, 2048), kSimilarityBudget / d) positions.
constexpr double kSimilarityBudget = 4194304;  // 2^22
/// Entries of the learned table (random normals, O(d) per row) the similarity
/// curve and the statistics readouts may draw: rows × d <= 2^16 (every row of
/// the default 512 × 128 table; 64 rows at d = 1024).
constexpr double kLearnedBudget = 65536;  // 2^16
/// Points per pixel column of the similarity curves.
constexpr double kPointsPerColumn = 2;
/// The texts of the table figures (the sinusoidal one shows PE as its value).
constexpr lessons::EncodingKeys kTableKeys{"learned.axis.dim", "learned.axis.pos", "learned.readout.dim",
                                           "learned.readout.pos", "learned.readout.value"};

/// The learned table (learned::embedding), the positions shown and the
/// sinusoidal base it is compared with.
struct Setting : learned::Embedding {
  long long positions;
  double base;
};

Setting setting(const core::Params& p) { return {learned::embedding(p), p.integer("positions"), p.real("base")}; }

// [SECTION] Helpers

/// cos∠(a, b) = a·b / (‖a‖‖b‖) (0 when either is the zero vector).
double cosine(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  const double den = a.norm() * b.norm();
  return den > 0 ? a.dot(b) / den : 0.0;
}

/// "0.01", "−0.10": a cosine as the legend prints it.
std::string two_decimals(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string out = buf;
  if (out == "-0.00") out = "0.00";
  if (!out.empty() && out[0] == '-') out = "−" + out.substr(1);
  return out;
}

/// How many positions the similarity figure spans (see kSimilarityBudget).
long long similarity_span(const Setting& s) {
  const long long wanted = std::max(s.max_length + s.max_length / 2, 2048LL);
  const auto budget = static_cast<long long>(kSimilarityBudget / s.d);
  return std::max(1LL, std::min({s.positions, wanted, budget}));
}

/// 0, s, 2s, … below `end`, the last position end − 1 and `extra` when it is
/// below `end`: sorted, without repeats.
std::vector<long long> sampled_positions(long long end, long long stride, long long extra) {
  std::vector<long long> out;
  for (long long pos = 0; pos < end; pos += stride) out.push_back(pos);
  if (out.back() != end - 1) out.push_back(end - 1);
  if (extra >= 0 && extra < end - 1 && extra % stride != 0) out.insert(std::upper_bound(out.begin(), out.end(), extra), extra);
  return out;
}

/// Round ticks over [0, top] and the trained length L, labelled "L = 512":
/// on the axis, outside the plot, where no data hides the label (a label on
/// a full heatmap is unreadable). A round tick within 7 % of the range of L
/// makes room for it.
std::vector<std::pair<double, std::string>> ticks_with_length(double top, long long length, const Translator& tr) {
  const double raw = std::max(top, 1.0) / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double f : {1.0, 2.0, 5.0, 10.0})
    if (f * magnitude >= raw) {
      step = f * magnitude;
      break;
    }
  const auto at_length = static_cast<double>(length);
  std::vector<std::pair<double, std::string>> out;
  for (double v = 0; v <= top + 1e-9; v += step)
    if (std::abs(v - at_length) > 0.07 * top) out.emplace_back(v, fig::num(v));
  if (at_length <= top) out.emplace_back(at_length, tr.format("learned.ref.max_length", {{"L", fig::num(at_length)}}));
  std::sort(out.begin(), out.end());
  return out;
}

/// The anchor position of the similarity figure: the integer part of m (rows
/// exist at whole positions only).
long long anchor_of(const core::Params& p) { return static_cast<long long>(std::floor(p.real("m"))); }

// [SECTION] Figures

/// The learned table P[pos, i] as initialised, over the positions that have a
/// row; positions L..N−1 are a grey band: nothing to look up there.
Figure table(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const long long rows = std::min(s.positions, s.max_length);
  Figure f;
  f.title = tr("learned.table.title");
  f.subtitle = tr.format("learned.table.subtitle", {{"L", fig::num(static_cast<double>(s.max_length))},
                                                    {"d", fig::num(s.d)},
                                                    {"seed", std::to_string(s.seed)}});
  lessons::encoding_axes(f, kTableKeys, tr);
  f.y.min = 0.0, f.y.max = static_cast<double>(s.positions);
  fig::Heatmap h = lessons::encoding_heatmap(s.d, rows, kRange, kTableKeys, tr);
  // One core row per distinct pixel row (a pixel row shows one position).
  // (generic in the output: floats drawn, doubles exported)
  const auto fill = [s](std::span<const double> xs, std::span<const double> ys, auto out) {
    using Out = typename decltype(out)::value_type;
    std::map<long long, Eigen::VectorXd> cache;
    for (std::size_t r = 0; r < ys.size(); ++r) {
      const long long pos = std::clamp(static_cast<long long>(std::floor(ys[r])), 0LL, s.max_length - 1);
      auto it = cache.find(pos);
      if (it == cache.end()) it = cache.emplace(pos, *s.row(pos)).first;
      for (std::size_t c = 0; c < xs.size(); ++c) {
        const int dim = std::clamp(static_cast<int>(std::floor(xs[c])), 0, s.d - 1);
        out[r * xs.size() + c] = static_cast<Out>(it->second[dim]);
      }
    }
  };
  h.sampler = fill;
  h.exact = fill;
  f.heatmaps.push_back(std::move(h));
  if (s.positions > s.max_length) {
    f.bands.push_back({.orientation = fig::Orientation::horizontal, .from = static_cast<double>(s.max_length),
                       .to = static_cast<double>(s.positions), .color = fig::Color::rgb(0x9aa0a6, 0.35f)});
    f.notes.push_back({.x = s.d / 2.0, .y = (static_cast<double>(s.max_length) + static_cast<double>(s.positions)) / 2,
                       .text = tr.format("learned.table.no_row", {{"L", fig::num(static_cast<double>(s.max_length))}}),
                       .anchor = fig::Anchor::center});
  }
  // L on the axis; the line only where the table ends inside the plot.
  f.y.ticks = ticks_with_length(static_cast<double>(s.positions), s.max_length, tr);
  if (s.positions > s.max_length)
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = static_cast<double>(s.max_length),
                           .color = fig::palette_color(3), .style = fig::LineStyle::solid});
  return f;
}

/// The sinusoidal table for the same d and positions: a row at every position.
Figure sinusoidal(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  Figure f;
  f.title = tr("learned.sinusoidal.title");
  f.subtitle = tr.format("learned.sinusoidal.subtitle", {{"d", fig::num(s.d)}, {"base", fig::num(s.base)}});
  const lessons::EncodingKeys keys{kTableKeys.axis_dim, kTableKeys.axis_pos, kTableKeys.dim, kTableKeys.pos,
                                   "learned.readout.pe"};
  lessons::encoding_axes(f, keys, tr);
  f.heatmaps.push_back(lessons::sinusoidal_heatmap(s.d, s.base, s.positions, keys, tr));
  if (s.max_length < s.positions) {  // L on the axis, the dashed line across: the rows go on past it
    f.y.ticks = ticks_with_length(static_cast<double>(s.positions), s.max_length, tr);
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = static_cast<double>(s.max_length),
                           .color = fig::palette_color(3)});
  }
  return f;
}

/// cos∠(row m, row n) for every position n: the learned table at
/// initialisation (1 at m, noise of size ~1/√d elsewhere, nothing past L)
/// against the sinusoidal one (a smooth function of r = m − n, everywhere).
/// m and n as in attention (query and key position), so the slider that sets
/// the anchor, "query position m", names it as the figure does.
Figure similarity(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const long long span = similarity_span(s);
  const long long anchor = anchor_of(ctx.params);
  Figure f;
  f.title = tr("learned.similarity.title");
  const double m = ctx.params.real("m");
  f.subtitle = tr.format("learned.similarity.subtitle", {{"m", fig::num(m)},
                                                         {"n", fig::num(static_cast<double>(span - 1))},
                                                         {"d", fig::num(s.d)}});
  if (m != static_cast<double>(anchor))
    f.subtitle += " · " + tr.format("learned.similarity.fractional", {{"p", fig::num(static_cast<double>(anchor))}});
  f.x = {.label = tr("learned.similarity.axis.x"), .unit = tr("unit.tokens"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("learned.similarity.axis.y"), .min = -1.05, .max = 1.05};
  f.legend = fig::LegendPlace::bottom_right;
  fig::Series sin_s{.name = tr("learned.similarity.series_sinusoidal")};
  fig::Series learned_s{.name = tr("learned.similarity.series_learned")};
  // Sinusoidal: every position when about 2 per pixel column fit, else every
  // s-th (and the anchor and the last position). cos∠(PE(m), PE(n)) =
  // PE(m)·PE(n) / (d/2) (every row has squared length d/2) =
  // Σ_i cos(θ_i (n − m)) / (d/2): core's closed form along the progression.
  const auto per_pixels = static_cast<long long>(std::max(1.0, kPointsPerColumn * ctx.width));
  const long long stride = std::max(1LL, (span + per_pixels - 1) / per_pixels);
  std::vector<double> closed(static_cast<std::size_t>((span - 1) / stride + 1));
  core::sinusoidal_dot_closed_form_curve(-static_cast<double>(anchor), static_cast<double>(stride), s.d, s.base, closed);
  for (long long pos : sampled_positions(span, stride, anchor)) {
    double dot = 0;
    if (pos % stride == 0) dot = closed[static_cast<std::size_t>(pos / stride)];
    else core::sinusoidal_dot_closed_form_curve(static_cast<double>(pos - anchor), 0, s.d, s.base, {&dot, 1});
    sin_s.x.push_back(static_cast<double>(pos));
    sin_s.y.push_back(dot / (s.d / 2.0));
  }
  // Learned: core's rows up to L − 1 (the curve ends there), at the same
  // stride or coarser so rows × d stays within kLearnedBudget (the subtitle
  // says so), and the anchor's row.
  const auto learned_anchor = s.row(anchor);
  const long long rows = std::min(span, s.max_length);
  const auto budget_rows = std::max(1LL, static_cast<long long>(kLearnedBudget / s.d));
  const long long learned_stride = std::max(stride, (rows + budget_rows - 1) / budget_rows);
  if (learned_anchor) {
    for (long long pos : sampled_positions(rows, learned_stride, anchor)) {
      learned_s.x.push_back(static_cast<double>(pos));
      learned_s.y.push_back(cosine(*learned_anchor, *s.row(pos)));
    }
  }
  if (learned_stride > 1 && learned_anchor)
    f.subtitle += " · " + tr.format("learned.similarity.sampled", {{"s", fig::num(static_cast<double>(learned_stride))}});
  if (span == 1) sin_s.kind = learned_s.kind = fig::SeriesKind::scatter;  // one position: a dot
  sin_s.width = 1.8f;
  learned_s.width = 1.0f;
  for (fig::Series* x : {&sin_s, &learned_s}) {
    x->x_name = "n";
    x->y_name = tr("learned.readout.cos");
  }
  f.series = {std::move(learned_s), std::move(sin_s)};
  // The neighbour m + 1 on both curves, its two values in the legend: the
  // numbers the step's answer compares, readable without hovering.
  const long long next = anchor + 1;
  if (learned_anchor && next < rows) {
    double sin_next = 0;
    core::sinusoidal_dot_closed_form_curve(1.0, 0, s.d, s.base, {&sin_next, 1});
    sin_next /= s.d / 2.0;
    const double learned_next = cosine(*learned_anchor, *s.row(next));
    fig::Series marks{.name = tr.format("learned.similarity.series_neighbour",
                                        {{"p", fig::num(static_cast<double>(next))},
                                         {"learned", two_decimals(learned_next)},
                                         {"sinusoidal", two_decimals(sin_next)}}),
                      .kind = fig::SeriesKind::scatter};
    marks.x = {static_cast<double>(next), static_cast<double>(next)};
    marks.y = {learned_next, sin_next};
    marks.color = fig::Color::rgb(0xe8eaed);
    marks.marker = 4.5f;
    marks.x_name = "n";
    marks.y_name = tr("learned.readout.cos");
    f.series.push_back(std::move(marks));
  }
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0, .style = fig::LineStyle::solid});
  if (s.max_length < span)
    f.ref_lines.push_back({.orientation = fig::Orientation::vertical, .value = static_cast<double>(s.max_length),
                           .label = tr.format("learned.ref.max_length", {{"L", fig::num(static_cast<double>(s.max_length))}}),
                           .color = fig::palette_color(3), .style = fig::LineStyle::solid});
  if (!learned_anchor)
    f.notes.push_back({.x = static_cast<double>(span - 1) / 2, .y = 0.85,
                       .text = tr.format("learned.similarity.no_anchor", {{"p", fig::num(m)}}),
                       .anchor = fig::Anchor::center});
  return f;
}

// [SECTION] Readouts

std::vector<Readout> readouts(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  std::vector<Readout> out;

  const double parameters = static_cast<double>(s.max_length) * s.d;
  out.push_back({tr("learned.readout.parameters"),
                 tr.format("learned.readout.parameters_value",
                           {{"L", fig::num(static_cast<double>(s.max_length))}, {"d", fig::num(s.d)}, {"n", fig::num(parameters)}}),
                 parameters, std::nullopt});

  // The last row exists; the next one does not (asked of core, not assumed).
  const bool last = s.row(s.max_length - 1).has_value();
  out.push_back({tr.format("learned.readout.last_row", {{"p", fig::num(static_cast<double>(s.max_length - 1))}}),
                 last ? tr("learned.readout.exists") : tr("learned.readout.missing"), last ? 1.0 : 0.0, last});
  const bool past = s.row(s.max_length).has_value();
  out.push_back({tr.format("learned.readout.past_row", {{"p", fig::num(static_cast<double>(s.max_length))}}),
                 past ? tr("learned.readout.exists") : tr("learned.readout.missing"), past ? 1.0 : 0.0, !past});
  const double without = static_cast<double>(std::max(0LL, s.positions - s.max_length));
  out.push_back({tr("learned.readout.without_row"), fig::num(without), without, std::nullopt});

  // The statistics below read the first rows of each table, rows × d within
  // kLearnedBudget (every row of the default table); the labels name the rows
  // when they are not all of them.
  const long long rows = std::clamp(static_cast<long long>(kLearnedBudget / s.d), 1LL, s.max_length);
  const long long pairs = std::min({s.max_length - 1, 1024LL, rows});
  std::vector<Eigen::VectorXd> learned;
  for (long long pos = 0; pos < std::max(rows, pairs + 1); ++pos) learned.push_back(*s.row(pos));
  auto sample = [&](std::string label, long long last_row) {
    if (last_row < s.max_length - 1)
      label += " · " + tr.format("learned.readout.sample", {{"last", fig::num(static_cast<double>(last_row))}});
    return label;
  };

  // The initialisation: sample standard deviation against 0.02 within 6
  // standard errors (s.e. of a std ≈ σ/√(2n)).
  double sum2 = 0;
  for (long long pos = 0; pos < rows; ++pos) sum2 += learned[static_cast<std::size_t>(pos)].squaredNorm();
  const double count = static_cast<double>(rows) * s.d;
  const double stddev = std::sqrt(sum2 / count);
  const double allowed = 6 * core::kLearnedInitStddev / std::sqrt(2 * count);
  out.push_back({sample(tr("learned.readout.stddev"), rows - 1),
                 tr.format("learned.readout.stddev_value", {{"v", fig::num(stddev, 4)}, {"tol", fig::num(allowed, 2)}}),
                 stddev, std::abs(stddev - core::kLearnedInitStddev) <= allowed});

  // Neighbours: mean |cos∠(row p, row p+1)| over the first rows of each table.
  if (pairs > 0) {
    std::vector<double> positions;
    for (long long pos = 0; pos <= pairs; ++pos) positions.push_back(static_cast<double>(pos));
    const Eigen::MatrixXd sin_rows = core::sinusoidal_matrix<double>(positions, s.d, s.base);
    double learned_sum = 0, sin_sum = 0;
    for (long long pos = 0; pos < pairs; ++pos) {
      const auto i = static_cast<std::size_t>(pos);
      learned_sum += std::abs(cosine(learned[i], learned[i + 1]));
      sin_sum += std::abs(cosine(sin_rows.row(pos).transpose(), sin_rows.row(pos + 1).transpose()));
    }
    out.push_back({sample(tr("learned.readout.neighbours_learned"), pairs), fig::num(learned_sum / static_cast<double>(pairs), 3),
                   learned_sum / static_cast<double>(pairs), std::nullopt});
    out.push_back({sample(tr("learned.readout.neighbours_sinusoidal"), pairs), fig::num(sin_sum / static_cast<double>(pairs), 3),
                   sin_sum / static_cast<double>(pairs), std::nullopt});
  }
  return out;
}

}  // namespace

// [SECTION] The view

ViewDef learned_view() {
  return {.id = "learned",
          .group = "absolute",
          .keys = {"max_length", "d", "positions", "seed", "base", "m"},
          .defaults = {{"positions", "768"}},
          .figures = {{"table", table}, {"sinusoidal", sinusoidal}, {"similarity", similarity}},
          .tables = {"encoding-comparison", "learned-rows"},
          .readouts = readouts};
}

}  // namespace poslab::app
