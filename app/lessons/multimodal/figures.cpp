// Lesson "multimodal": positions in images and video.
//   Axial 2-D RoPE (Heo et al. 2024, arXiv 2403.13298; the Qwen2-VL vision
//   tower): patch (row, col) turns d/4 pairs by row·θ_j and d/4 by col·θ_j,
//   θ_j = b^(−4j/d), so q′·k′ depends on (Δrow, Δcol) only.
//   M-RoPE (Qwen2-VL, arXiv 2409.12191 §2.1; HF get_rope_index): every token
//   has ids (t, h, w); text tokens have t = h = w and count up; a grid starting
//   at s has (s + τ(k), s + row, s + col); the text after it resumes at the
//   largest id + 1. Pair i turns by id_axis(i)·θ_i, the axes' pairs given by
//   mrope_section, contiguous (Qwen2-VL) or interleaved (Qwen3-VL).
// Every number comes from core/mrope.hpp.
//
// [SECTION] Index
// - Helpers
// - Figures: grid score, position ids, sections, reach along one axis
// - Readouts
// - The view

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "app/lessons/budget.hpp"
#include "app/lessons/lesson.hpp"
#include "app/lessons/multimodal/setting.hpp"
#include "app/plot/figure_text.hpp"
#include "poslab/core/mrope.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::app {

namespace {

using fig::Figure;
using multimodal::Grid;
using multimodal::Sections;

constexpr double kPi = std::numbers::pi;
constexpr double kEps = std::numeric_limits<double>::epsilon();
/// The position-id figure draws every token up to this many, else every k-th.
constexpr long long kMaxIdPoints = 65536;
/// The reach figure: offsets Δ = 0 … kReach along one axis.
constexpr double kReach = 128;
/// Cells written with their value in the grid figure (each side at most).
constexpr int kWrittenCells = 12;

// [SECTION] Helpers

/// "t", "h", "w" in the reader's words ("t (time)").
std::string axis_label(const Translator& tr, core::MropeAxis a) {
  switch (a) {
    case core::MropeAxis::temporal: return tr("multimodal.axis.t");
    case core::MropeAxis::height: return tr("multimodal.axis.h");
    case core::MropeAxis::width: return tr("multimodal.axis.w");
  }
  return tr("multimodal.axis.t");
}

/// "image 4 × 6" or "video 3 × 2 × 2".
std::string grid_text(const Translator& tr, const multimodal::SequenceShape& s, core::TokenKind kind) {
  if (kind == core::TokenKind::video)
    return tr.format("multimodal.grid_video", {{"t", fig::num(static_cast<double>(s.t))},
                                               {"h", fig::num(static_cast<double>(s.h))},
                                               {"w", fig::num(static_cast<double>(s.w))}});
  return tr.format("multimodal.grid_image", {{"h", fig::num(static_cast<double>(s.h))}, {"w", fig::num(static_cast<double>(s.w))}});
}

/// "[16, 24, 24]"
std::string sections_text(const Sections& s) {
  return "[" + std::to_string(s.s[0]) + ", " + std::to_string(s.s[1]) + ", " + std::to_string(s.s[2]) + "]";
}

/// A wavelength as a caption shows it: 6.28, 160, 35,333 (whole tokens from 100 on).
std::string tokens_text(double lambda) { return lambda < 100 ? fig::num(lambda, 3) : fig::num(std::round(lambda)); }

/// The colour of an axis, the same in every figure: blue, orange and pink,
/// apart even where t and h share a line (an image's row; green beside blue
/// read as one colour there).
fig::Color axis_color(core::MropeAxis a) {
  switch (a) {
    case core::MropeAxis::temporal: return fig::palette_color(4);
    case core::MropeAxis::height: return fig::palette_color(0);
    case core::MropeAxis::width: return fig::palette_color(1);
  }
  return fig::palette_color(0);
}

constexpr std::array<core::MropeAxis, 3> kAxes = {core::MropeAxis::temporal, core::MropeAxis::height,
                                                  core::MropeAxis::width};

// [SECTION] Figures

/// The normalised score q′·k′/(|q||k|) of the query patch against every patch
/// of the grid (q = k = ones, so the content is the same everywhere and only
/// the positions count): a cross through the query that moves with it.
Figure grid_score(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Grid g = multimodal::grid(ctx.params);
  const multimodal::GridScores s = multimodal::grid_scores(g);
  const double low = std::min(s.floor(), 1 - 1e-9);  // a 1 × 1 grid has one score
  Figure f;
  f.title = tr("multimodal.grid.title");
  f.subtitle = tr.format("multimodal.grid.subtitle", {{"d", fig::num(g.d)}, {"pairs", fig::num(g.d / 4)},
                                                      {"row", fig::num(g.row)}, {"col", fig::num(g.col)}});
  if (g.clamped) f.subtitle += " · " + tr("multimodal.grid.clamped");
  f.x = {.label = tr("multimodal.axis.column"), .format = fig::TickFormat::integer, .tight = true};
  f.y = {.label = tr("multimodal.axis.row"), .format = fig::TickFormat::integer, .tight = true, .reversed = true};
  fig::Heatmap h;
  h.x0 = -0.5, h.x1 = g.w - 0.5, h.y0 = -0.5, h.y1 = g.h - 0.5;
  h.cols = g.w, h.rows = g.h;
  h.values.resize(static_cast<std::size_t>(g.h) * static_cast<std::size_t>(g.w));
  for (int r = 0; r < g.h; ++r)
    for (int c = 0; c < g.w; ++c)
      h.values[static_cast<std::size_t>(r) * static_cast<std::size_t>(g.w) + static_cast<std::size_t>(c)] =
          static_cast<float>(s.at(g, r, c));
  h.colormap = fig::Colormap::magnitude;
  h.vmin = low, h.vmax = 1;
  h.value_name = tr("multimodal.grid.value");
  h.x_name = tr("multimodal.axis.column"), h.y_name = tr("multimodal.axis.row");
  f.heatmaps.push_back(std::move(h));
  if (g.h <= kWrittenCells && g.w <= kWrittenCells)
    for (int r = 0; r < g.h; ++r)
      for (int c = 0; c < g.w; ++c) {
        char buf[16];
        const double v = s.at(g, r, c);
        std::snprintf(buf, sizeof buf, "%.2f", v);
        std::string text = buf;
        if (text.rfind('-', 0) == 0) text = "−" + text.substr(1);
        // The magnitude map is light above ~0.55 of its range: dark text there, white below.
        f.notes.push_back({.x = static_cast<double>(c), .y = static_cast<double>(r), .text = text,
                           .anchor = fig::Anchor::center,
                           .color = (v - low) / (1 - low) > 0.55 ? fig::Color::rgb(0x1d1d1f) : fig::Color::rgb(0xffffff)});
      }
  // The query patch framed, as on the window's canvas.
  const double c0 = g.col - 0.5, c1 = g.col + 0.5, r0 = g.row - 0.5, r1 = g.row + 0.5;
  fig::Series query{.name = tr("multimodal.grid.query"), .kind = fig::SeriesKind::line,
                    .x = {c0, c1, c1, c0, c0}, .y = {r0, r0, r1, r1, r0}};
  query.color = fig::Color::rgb(0x1d1d1f), query.width = 3.0f;
  query.x_name = tr("multimodal.axis.column"), query.y_name = tr("multimodal.axis.row");
  query.described = tr.format("multimodal.grid.query_described", {{"row", fig::num(static_cast<double>(g.row))},
                                                                   {"col", fig::num(static_cast<double>(g.col))}});
  f.series.push_back(std::move(query));
  f.equal_aspect = true;
  f.legend = fig::LegendPlace::none;
  return f;
}

/// The three ids (t, h, w) of every token of the sequence, against its index:
/// the text counts up on all three at once; in the grid t stays (an image) or
/// steps per temporal patch (a video), h steps per row, w sweeps each row; the
/// text after resumes past the largest id.
Figure position_ids(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const auto& p = ctx.params;
  const core::MropeLayout seq = multimodal::sequence(p);
  const multimodal::SequenceShape shape = multimodal::shape(p);
  const core::TokenKind kind = multimodal::grid_kind(p);
  const long long n = seq.tokens();
  const long long stride = std::max<long long>(1, (n + kMaxIdPoints - 1) / kMaxIdPoints);
  Figure f;
  f.title = tr("multimodal.ids.title");
  std::string sub = tr.format("multimodal.ids.subtitle", {{"before", fig::num(static_cast<double>(shape.before))},
                                                          {"grid", grid_text(tr, shape, kind)},
                                                          {"after", fig::num(static_cast<double>(shape.after))}});
  if (kind == core::TokenKind::video)
    sub += " · " + (p.choice("video_time") == "absolute"
                        ? tr.format("multimodal.ids.time_absolute",
                                    {{"spg", fig::num(p.real("second_per_grid"))},
                                     {"tps", fig::num(static_cast<double>(p.integer("tokens_per_second")))}})
                        : tr("multimodal.ids.time_index"));
  if (stride > 1) sub += " · " + tr.format("multimodal.ids.every", {{"k", fig::num(static_cast<double>(stride))}});
  f.subtitle = sub;
  f.x = {.label = tr("multimodal.ids.axis.x"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("multimodal.ids.axis.y"), .format = fig::TickFormat::integer};
  const bool marks = n <= 64;
  std::array<fig::Series, 3> s;
  // w drawn first, t on top. On text all three coincide, and on an image's
  // row t and h do: a wide solid w, a dashed h and a dotted t over it show
  // every colour along a shared line, and dots of 7, 5 and 3.5 points
  // leave a ring of each around a shared point. t's dotted line is thin
  // (1.2) beside its dots: at 2.0 the line's own dots were as large as the
  // tokens' and read as tokens at t = 3 between t = 2 and 4 (a student's
  // review of step 4, whose question is which t ids the video gets).
  for (int a = 2; a >= 0; --a) {
    fig::Series& x = s[static_cast<std::size_t>(a)];
    x.name = axis_label(tr, kAxes[static_cast<std::size_t>(a)]);
    x.kind = fig::SeriesKind::line;
    x.color = axis_color(kAxes[static_cast<std::size_t>(a)]);
    x.width = a == 2 ? 3.0f : a == 1 ? 2.2f : 1.2f;
    x.style = a == 2 ? fig::LineStyle::solid : a == 1 ? fig::LineStyle::dashed : fig::LineStyle::dotted;
    x.marker = a == 2 ? 7.0f : a == 1 ? 5.0f : 3.5f;
    x.x_name = tr("multimodal.ids.readout.index");
    x.y_name = tr("multimodal.ids.readout.id");
  }
  for (long long i = 0; i < n; i += stride) {
    const core::MropePosition pos = seq.position(i);
    const double ids[3] = {static_cast<double>(pos.t), static_cast<double>(pos.h), static_cast<double>(pos.w)};
    for (int a = 0; a < 3; ++a) s[static_cast<std::size_t>(a)].x.push_back(static_cast<double>(i)),
                                  s[static_cast<std::size_t>(a)].y.push_back(ids[a]);
  }
  f.series = {s[2], s[1], s[0]};
  // A dot per token when there are few: w's largest, t's smallest on top, so
  // all three show where they coincide (text).
  if (marks)
    for (int a = 2; a >= 0; --a) {
      fig::Series dots = s[static_cast<std::size_t>(a)];
      dots.name = "", dots.kind = fig::SeriesKind::scatter, dots.style = fig::LineStyle::solid;
      dots.decoration = true;  // the line's own points: its rows are in the CSV once
      f.series.push_back(std::move(dots));
    }
  // The grid's tokens, shaded and named.
  const long long g0 = shape.before, g1 = shape.before + shape.t * shape.h * shape.w;
  f.bands.push_back({.from = static_cast<double>(g0) - 0.5, .to = static_cast<double>(g1) - 0.5,
                     .label = grid_text(tr, shape, kind), .color = fig::Color::rgb(0x9aa0a6).with_alpha(0.18f),
                     .label_top = true});
  // Where the text after the grid resumes: the largest id so far + 1 (the
  // note on the side of the point with more room: left of it when the point
  // is past the middle, where a note to its right would run off the plot).
  if (shape.after > 0) {
    const core::MropePosition first = seq.position(g1);
    const bool right = 2 * g1 > n;
    const std::string text = tr.format("multimodal.ids.resume", {{"id", fig::num(static_cast<double>(first.t))},
                                                                 {"max", fig::num(static_cast<double>(first.t - 1))}});
    // Beside the point, clear of its dot and of the line that leaves it.
    const double gap = std::max(1.3, 0.03 * static_cast<double>(n));  // past the largest dot, lecture mode too
    f.notes.push_back({.x = static_cast<double>(g1) + (right ? -gap : gap), .y = static_cast<double>(first.t), .text = text,
                       .anchor = right ? fig::Anchor::right : fig::Anchor::left});
  }
  // Automatic: the renderer keeps the legend clear of the data and of the
  // note above (top left, chosen before, covered the note in lecture mode).
  f.legend = fig::LegendPlace::automatic;
  return f;
}

/// λᵢ = 2π/θᵢ of every pair, coloured by the axis that drives it: contiguous
/// sections give w only the slowest pairs, interleaved ones spread every axis
/// over the whole spectrum.
Figure sections_figure(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Sections sec = multimodal::sections(ctx.params);
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(sec.d(), sec.base);
  const std::vector<core::MropeAxis> axes = core::mrope_pair_axes(sec.s, sec.interleaved);
  Figure f;
  f.title = tr("multimodal.sections.title");
  f.subtitle = tr.format(sec.interleaved ? "multimodal.sections.subtitle_interleaved" : "multimodal.sections.subtitle",
                         {{"sections", sections_text(sec)}, {"d", fig::num(sec.d())}, {"base", fig::num(sec.base)}});
  f.x = {.label = tr("multimodal.sections.axis.x"), .format = fig::TickFormat::integer};
  // In position ids, not tokens: a 4 × 6 image spends 24 tokens but 6 ids.
  f.y = {.label = tr("multimodal.sections.axis.y"), .unit = tr("multimodal.unit.ids"), .scale = fig::AxisScale::log};
  fig::Series all{.name = "", .kind = fig::SeriesKind::line};
  all.color = fig::Color::rgb(0x9aa0a6), all.width = 1.0f;
  for (Eigen::Index i = 0; i < theta.size(); ++i) all.x.push_back(static_cast<double>(i)), all.y.push_back(2 * kPi / theta[i]);
  all.x_name = tr("multimodal.sections.readout.pair"), all.y_name = "λ";
  all.decoration = true;  // joins the axes' dots below, which hold every pair (the sections sum to d/2)
  f.series.push_back(std::move(all));
  for (core::MropeAxis a : kAxes) {
    fig::Series s{.kind = fig::SeriesKind::scatter};
    for (std::size_t i = 0; i < axes.size(); ++i)
      if (axes[i] == a) s.x.push_back(static_cast<double>(i)), s.y.push_back(2 * kPi / theta[static_cast<Eigen::Index>(i)]);
    if (s.x.empty()) {
      s.name = tr.format("multimodal.sections.none", {{"axis", axis_label(tr, a)}});
    } else {
      const auto [lo, hi] = std::minmax_element(s.y.begin(), s.y.end());
      s.name = tr.format("multimodal.sections.axis_pairs", {{"axis", axis_label(tr, a)}, {"n", fig::num(static_cast<double>(s.x.size()))},
                                                            {"lo", tokens_text(*lo)}, {"hi", tokens_text(*hi)}});
    }
    s.color = axis_color(a);
    s.marker = axes.size() <= 128 ? 4.0f : 2.0f;
    s.x_name = tr("multimodal.sections.readout.pair"), s.y_name = "λ";
    f.series.push_back(std::move(s));
  }
  f.legend = fig::LegendPlace::top_left;
  return f;
}

/// How far apart two tokens must be along one axis before that axis's pairs
/// tell them apart: the mean of cos(Δ·θᵢ) over the axis's pairs, Δ = 0 … 128.
/// It is that axis's share of q′·k′ for q = k = ones: a pair (1, 1) turned by
/// Δ·θᵢ against (1, 1) unturned gives (cos − sin) + (sin + cos) = 2·cos(Δ·θᵢ),
/// so q′·k′ = 2·Σ cos(Δ·θᵢ) over the axis's pairs + 2 per pair of the other
/// axes. θᵢ are core's (rope_inverse_frequencies, as mrope_rotate turns by);
/// the pairs' axes core's mrope_pair_axes. Written as the sum, not as 387
/// rotations of a whole head: the step that brings this figure forward builds
/// it in the frame (13 ms that way at the defaults, a frame's budget gone).
Figure reach(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Sections sec = multimodal::sections(ctx.params);
  const std::vector<core::MropeAxis> axes = core::mrope_pair_axes(sec.s, sec.interleaved);
  const int pairs = sec.pairs();
  // Each sample turns two vectors of d/2 pairs per axis.
  // Whole offsets 0 … 128 (positions are whole tokens), fewer for a head so
  // wide that 129 of them would pass a figure's budget.
  const int samples = std::clamp(static_cast<int>(kFigureWorkBudget / (6.0 * pairs)), 16, static_cast<int>(kReach) + 1);
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(sec.d(), sec.base);
  Figure f;
  f.title = tr("multimodal.reach.title");
  f.subtitle = tr.format(sec.interleaved ? "multimodal.reach.subtitle_interleaved" : "multimodal.reach.subtitle",
                         {{"sections", sections_text(sec)}, {"d", fig::num(sec.d())}, {"base", fig::num(sec.base)}});
  f.x = {.label = tr("multimodal.reach.axis.x"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("multimodal.reach.axis.y")};
  f.y.min = -0.6, f.y.max = 1.35;
  for (core::MropeAxis a : kAxes) {
    const int count = static_cast<int>(std::count(axes.begin(), axes.end(), a));
    if (count == 0) continue;
    fig::Series s{.name = tr.format("multimodal.reach.series", {{"axis", axis_label(tr, a)}, {"n", fig::num(count)}}),
                  .kind = fig::SeriesKind::line};
    s.color = axis_color(a), s.width = a == core::MropeAxis::width ? 2.6f : 2.0f;
    for (int k = 0; k < samples; ++k) {
      const double delta = std::round(kReach * k / (samples - 1));
      double sum = 0;  // Σ cos(Δ·θᵢ) over this axis's pairs
      for (int i = 0; i < pairs; ++i)
        if (axes[static_cast<std::size_t>(i)] == a) sum += std::cos(delta * theta[i]);
      s.x.push_back(delta), s.y.push_back(sum / count);
    }
    s.x_name = tr("multimodal.reach.readout.delta"), s.y_name = tr("multimodal.reach.readout.mean");
    f.series.push_back(std::move(s));
  }
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 1, .style = fig::LineStyle::dotted});
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0, .style = fig::LineStyle::solid});
  f.legend = fig::LegendPlace::top_right;
  return f;
}

// [SECTION] Readouts

std::vector<Readout> readouts(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const auto& p = ctx.params;
  std::vector<Readout> out;

  // 1. Axial 2-D: moving query and key by the same (Δrow, Δcol) keeps the score.
  const Grid g = multimodal::grid(p);
  {
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(g.d);
    const int kr = g.h - 1, kc = 0;  // a key patch: the bottom-left corner
    const double ref = core::axial_rope_score(ones, ones, g.row, g.col, kr, kc, g.base);
    double worst = 0;
    for (const auto& [dr, dc] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{3, 5}, std::pair{17, 2}, std::pair{40, 40}})
      worst = std::max(worst, std::abs(core::axial_rope_score(ones, ones, g.row + dr, g.col + dc, kr + dr, kc + dc, g.base) - ref));
    const double largest = std::max({g.row, g.col, kr, kc}) + 40.0;
    out.push_back({.label = tr("multimodal.readout.shift"),
                   .value = tr.format("multimodal.readout.change", {{"e", fig::num(worst, 2)}}),
                   .number = worst, .holds = worst <= g.d * (1e-12 + 16 * kEps * largest)});
  }
  // 2. Axial 2-D: the score is a row part plus a column part.
  {
    // Every cell the figure draws is row part + column part − 1: checked
    // against the score turned patch by patch, on up to 8 × 8 cells.
    const multimodal::GridScores parts = multimodal::grid_scores(g);
    double worst = 0;
    const int step_r = std::max(1, g.h / 8), step_c = std::max(1, g.w / 8);
    for (int r = 0; r < g.h; r += step_r)
      for (int c = 0; c < g.w; c += step_c) worst = std::max(worst, std::abs(multimodal::grid_score(g, r, c) - parts.at(g, r, c)));
    out.push_back({.label = tr("multimodal.readout.split"),
                   .value = tr.format("multimodal.readout.gap", {{"g", fig::num(worst, 2)}}), .number = worst,
                   .holds = worst <= 1e-12 + 64 * kEps * (g.h + g.w)});
  }
  // 3. M-RoPE ids: text tokens have t = h = w; the text after the grid starts
  //    one above the largest id before it (found token by token here).
  const core::MropeLayout seq = multimodal::sequence(p);
  const multimodal::SequenceShape shape = multimodal::shape(p);
  {
    const long long g1 = shape.before + shape.t * shape.h * shape.w;
    long long top = -1;
    bool equal = true;
    // Every token when there are few, else the text and the grid's corners
    // (the largest ids sit in the last row, column and temporal patch).
    const long long n = seq.tokens();
    auto visit = [&](long long i) {
      const core::MropePosition pos = seq.position(i);
      if (pos.kind == core::TokenKind::text) equal = equal && pos.t == pos.h && pos.h == pos.w;
      if (i < g1) top = std::max({top, pos.t, pos.h, pos.w});
    };
    if (n <= (1 << 16)) {
      for (long long i = 0; i < n; ++i) visit(i);
    } else {
      for (long long i = 0; i < std::min<long long>(shape.before, 1 << 12); ++i) visit(i);
      if (shape.before > 0) visit(shape.before - 1);
      const long long per_frame = shape.h * shape.w;
      for (long long k : {0LL, shape.t - 1})
        for (long long r : {0LL, shape.h - 1})
          for (long long c : {0LL, shape.w - 1}) visit(shape.before + k * per_frame + r * shape.w + c);
      for (long long i = g1; i < std::min(n, g1 + (1 << 12)); ++i) visit(i);
    }
    out.push_back({.label = tr("multimodal.readout.text_equal"), .value = tr(equal ? "multimodal.readout.yes" : "multimodal.readout.no"),
                   .number = equal ? 1.0 : 0.0, .holds = equal});
    if (shape.after > 0) {
      const long long resume = seq.position(g1).t;
      out.push_back({.label = tr("multimodal.readout.resume"),
                     .value = tr.format("multimodal.readout.resume_value", {{"id", fig::num(static_cast<double>(resume))},
                                                                           {"max", fig::num(static_cast<double>(top))}}),
                     .number = static_cast<double>(resume), .holds = resume == top + 1});
    }
  }
  // 4. A text token's M-RoPE turn is 1-D RoPE's (half layout) at its id.
  const Sections sec = multimodal::sections(p);
  {
    Eigen::VectorXd x(sec.d());
    for (int j = 0; j < sec.d(); ++j) x[j] = std::cos(0.7 * j + 0.3);
    const double id = static_cast<double>(seq.next_id() - 1);
    const Eigen::VectorXd m = core::mrope_rotate<double>(x, id, id, id, sec.base, sec.s, sec.interleaved);
    const Eigen::VectorXd r = core::rope_rotate<double>(x, id, sec.base, core::PairLayout::half);
    const double gap = (m - r).cwiseAbs().maxCoeff();
    out.push_back({.label = tr.format("multimodal.readout.one_d", {{"id", fig::num(id)}}),
                   .value = tr.format("multimodal.readout.gap", {{"g", fig::num(gap, 2)}}), .number = gap,
                   .holds = gap <= 1e-12 + 16 * kEps * (1 + id)});
  }
  // 5. The sections split the pairs: counts per axis sum to d/2.
  {
    const std::vector<core::MropeAxis> axes = core::mrope_pair_axes(sec.s, sec.interleaved);
    int counts[3] = {0, 0, 0};
    for (core::MropeAxis a : axes) ++counts[static_cast<int>(a)];
    out.push_back({.label = tr("multimodal.readout.pairs"),
                   .value = tr.format("multimodal.readout.pairs_value", {{"t", fig::num(counts[0])}, {"h", fig::num(counts[1])},
                                                                         {"w", fig::num(counts[2])}, {"d", fig::num(sec.d())}}),
                   .number = static_cast<double>(counts[0] + counts[1] + counts[2]),
                   .holds = counts[0] + counts[1] + counts[2] == sec.pairs()});
    // 6. The slowest and fastest pair of the width axis.
    if (counts[2] > 0) {
      const Eigen::VectorXd theta = core::rope_inverse_frequencies(sec.d(), sec.base);
      double lo = std::numeric_limits<double>::infinity(), hi = 0;
      for (std::size_t i = 0; i < axes.size(); ++i)
        if (axes[i] == core::MropeAxis::width)
          lo = std::min(lo, 2 * kPi / theta[static_cast<Eigen::Index>(i)]), hi = std::max(hi, 2 * kPi / theta[static_cast<Eigen::Index>(i)]);
      out.push_back({.label = tr("multimodal.readout.width"),
                     .value = tr.format("multimodal.readout.width_value", {{"lo", tokens_text(lo)}, {"hi", tokens_text(hi)}}),
                     .number = lo});
    }
  }
  return out;
}

/// The grid figure turns one key per row and per column of the grid when it
/// is too large to turn one per patch (multimodal::grid_scores): (h + w)·d/2
/// pair turns within a figure's budget.
void view_budget(const core::Params& p) {
  const double h = static_cast<double>(p.integer("grid_h")), w = static_cast<double>(p.integer("grid_w"));
  check_budget(p, "d", static_cast<double>(p.integer("d")), {[h, w](double d) {
                 return BudgetUse{BudgetKind::work, "(grid_h + grid_w) × d/2",
                                  core::format_number(h + w) + " × " + core::format_number(d / 2), (h + w) * d / 2,
                                  kFigureWorkBudget};
               }});
}

}  // namespace

ViewDef multimodal_view() {
  return {.id = "multimodal",
          .group = "models",
          .keys = {"grid_h", "grid_w", "row", "col", "d", "text_before", "grid_t", "text_after", "video_time",
                   "tokens_per_second", "second_per_grid", "mrope_section", "mrope_interleaved", "base"},
          .defaults = {{"d", "64"}, {"base", "1000000"}},
          .figures = {{"grid-score", grid_score},
                      {"position-ids", position_ids},
                      {"sections", sections_figure},
                      {"reach", reach}},
          .tables = {"mrope-positions", "mrope-frequencies", "axial-scores"},
          .readouts = readouts,
          .budget = view_budget};
}

}  // namespace poslab::app
