// Lesson "sinusoidal": the sinusoidal absolute encoding (Vaswani et al. 2017,
// "Attention Is All You Need", §3.5):
//   ω_i = base^(−2i/d),  PE[p, 2i] = sin(p·ω_i),  PE[p, 2i+1] = cos(p·ω_i).
// Two identities the lesson proves live (both per pair, from the angle-addition
// formulas; the source notes “About Position Embedding: Sinusoidal PE & RoPE” §2.3):
//   PE(p + k) = M(k)·PE(p), M(k) block diagonal with [[cos ω_i k, sin ω_i k], [−sin ω_i k, cos ω_i k]];
//   PE_m·PE_n = Σ_i cos(ω_i (m − n)).
//
// [SECTION] Index
// - Helpers (exact curves at pixel resolution, tolerances; PE rows and the shift
//   for any d: setting.hpp)
// - Figures: heatmap, sinusoids, wavelengths, dot, shift_matrix, turn, shift
// - Readouts
// - The view

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <numbers>
#include <string>
#include <string_view>
#include <tuple>

#include "app/plot/figure_text.hpp"
#include "app/lessons/common/figures.hpp"
#include "app/lessons/common/memo.hpp"
#include "app/lessons/lesson.hpp"
#include "app/lessons/sinusoidal/setting.hpp"
#include "poslab/core/sinusoidal.hpp"

namespace poslab::app {

namespace {

using fig::Figure;
using sinusoidal::apply_shift;
using sinusoidal::kMaxCoreOffset;
using sinusoidal::kMaxCoreShiftSide;

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr long long kMaxDotOffset = 16384;  // the dot figure spans |k| <= min(N − 1, this)
constexpr int kAnchorMarkers = 12;        // the dot figure checks 13 offsets per anchor row
constexpr std::size_t kDotMemoEntries = 4;  // dot figures remembered (see dot_samples)
constexpr int kShiftMatrixShown = 16;      // the top-left corner of M(k) drawn as a matrix
constexpr int kShiftMarkersUpTo = 256;     // the shift figure marks every dimension up to this d

// [SECTION] Helpers

/// A length in tokens for captions: whole tokens from 100 up ("35,333"),
/// 4 significant digits below ("6.283").
std::string tokens_text(double v) { return fig::num(std::abs(v) >= 100 ? std::round(v) : v); }

/// Σ_i cos(ω_i k): core::sinusoidal_dot_closed_form within its offset range
/// (|k| <= 1e9); the same sum with core's ω_i beyond (k = m − n can reach 1e12).
double closed_form(double k, int d, double base) {
  if (std::abs(k) <= kMaxCoreOffset) return core::sinusoidal_dot_closed_form(k, d, base);
  const Eigen::VectorXd omega = core::sinusoidal_frequencies(d, base);
  double s = 0;
  for (Eigen::Index i = 0; i < omega.size(); ++i) s += std::cos(omega[i] * k);
  return s;
}

/// How far two evaluations of the same angle-sum identity may differ in
/// double: the angles (m + k)·ω and m·ω + k·ω are rounded separately, each
/// within a few ulp of |m| + |k| (ω <= 1), and |sin a − sin b| <= |a − b|.
double identity_tolerance(double a, double b) { return 1e-12 + 8 * kEps * (std::abs(a) + std::abs(b)); }

/// Rounding of a sum of d/2 terms of size <= 1 (the bound on naive summation,
/// (n − 1)·ε·Σ|terms|, plus the terms' own rounding).
double summation_tolerance(int d) { return (d / 2.0 + 2) * (d / 2.0) * 2 * kEps; }

/// frac(v) in [0, 1) (v − floor(v) can round up to 1 for tiny negative v).
double fraction(double v) {
  const double f = v - std::floor(v);
  return f < 1 ? f : 0.0;
}

/// The x in [0, n) where frac(x·α + γ) is smallest (`lowest`) or largest, for
/// α, γ in [0, 1), in O(log n): the Euclid-like recursion of the three-gap
/// theorem. Between two wraps (x where ⌊x·α + γ⌋ steps up) the fraction only
/// grows, so the smallest sits at x = 0 or right at a wrap, the largest at
/// x = n − 1 or just before one. Wrap k (k = 1..K, K = ⌊(n − 1)α + γ⌋) is at
/// x_k = ⌈(k − γ)/α⌉ with fraction α·frac(k·α′ + γ′), α′ = frac(−1/α),
/// γ′ = frac(γ/α): the same question over k, with K <= n/2 when α <= 1/2
/// (above 1/2, frac(xα + γ) = 1 − frac(x(1 − α) + 1 − γ) turns it into the
/// opposite question for 1 − α).
long long extreme_fraction(long long n, double alpha, double gamma, bool lowest) {
  if (n <= 1 || alpha == 0) return 0;
  if (alpha > 0.5) return extreme_fraction(n, 1 - alpha, fraction(1 - gamma), !lowest);
  auto at = [&](long long x) { return fraction(static_cast<double>(x) * alpha + gamma); };
  const long long best_end = lowest ? 0 : n - 1;
  const auto wraps = static_cast<long long>(std::floor(static_cast<double>(n - 1) * alpha + gamma));
  if (wraps <= 0) return best_end;
  const double inv = 1 / alpha;
  const double alpha2 = fraction(-inv);
  const long long k = 1 + extreme_fraction(wraps, alpha2, fraction(alpha2 + fraction(gamma * inv)), lowest);
  // x_k, corrected for rounding: the first x with x·α + γ >= k.
  auto reached = [&](long long x) { return static_cast<double>(x) * alpha + gamma >= static_cast<double>(k); };
  auto x = static_cast<long long>(std::ceil((static_cast<double>(k) - gamma) * inv));
  while (x > 0 && reached(x - 1)) --x;
  while (!reached(x)) ++x;
  x = std::clamp(lowest ? x : x - 1, 0LL, n - 1);
  return (lowest ? at(x) < at(best_end) : at(x) > at(best_end)) ? x : best_end;
}

/// The integer positions in [first, last] where PE[p, dim] is lowest and
/// highest: where p·ω/2π comes nearest to the crest (sin: 1/4 turn, cos: 0)
/// and the trough (sin: 3/4, cos: 1/2). For each, the nearest approach from
/// either side (extreme_fraction); `value` decides between the two.
template <class Value>
std::pair<long long, long long> sinusoid_extremes(long long first, long long last, double omega, int dim, Value value) {
  const double turns = omega / (2 * std::numbers::pi);
  const double crest = dim % 2 == 0 ? 0.25 : 0.0;
  const long long n = last - first + 1;
  auto nearest = [&](double target, bool highest) {
    const double gamma = fraction(static_cast<double>(first) * turns - target);
    const long long a = first + extreme_fraction(n, turns, gamma, true);
    const long long b = first + extreme_fraction(n, turns, gamma, false);
    return (value(a) > value(b)) == highest ? a : b;
  };
  return {nearest(crest + 0.5, false), nearest(crest, true)};
}

/// A curve over the integer positions 0..n−1 for drawing at `columns` pixel
/// columns: every position when n <= 4·columns; otherwise, per column of
/// ⌈n / columns⌉ positions, its lowest and highest position (and the curve's
/// first and last), all exact values at integer positions (so fast sinusoids
/// show their true envelope, never an alias; a line through a column's two
/// extremes covers what the column shows). `extremes(curve, first, last)` gives the
/// positions of the lowest and highest value in [first, last] (without
/// visiting them all); `exact(curve, pos)` the values. The result holds one
/// (x, y) list per curve.
struct Curves {
  std::vector<std::vector<double>> x, y;
};

template <class Extremes, class Exact>
Curves integer_curves(long long n, int curves, double columns, Extremes extremes, Exact exact) {
  Curves out;
  out.x.resize(static_cast<std::size_t>(curves));
  out.y.resize(static_cast<std::size_t>(curves));
  const bool every = n <= static_cast<long long>(4 * columns);
  const long long per_column = every ? 1 : static_cast<long long>(std::ceil(static_cast<double>(n) / std::max(1.0, columns)));
  for (std::size_t c = 0; c < static_cast<std::size_t>(curves); ++c) {
    const std::size_t reserve = static_cast<std::size_t>(every ? n : 4 * (n / per_column + 1));
    out.x[c].reserve(reserve);
    out.y[c].reserve(reserve);
    for (long long start = 0; start < n; start += per_column) {
      const long long end = std::min(n, start + per_column) - 1;
      std::array<long long, 4> keep{start, start, start, end};
      if (end > start) {
        std::tie(keep[1], keep[2]) = extremes(c, start, end);
        if (start > 0) keep[0] = keep[1];  // inside the curve the extremes draw the column
        if (end < n - 1) keep[3] = keep[2];
      }
      std::sort(keep.begin(), keep.end());
      for (std::size_t k = 0; k < keep.size(); ++k) {
        if (k > 0 && keep[k] == keep[k - 1]) continue;
        out.x[c].push_back(static_cast<double>(keep[k]));
        out.y[c].push_back(exact(c, static_cast<double>(keep[k])));
      }
    }
  }
  return out;
}

/// The dimensions the sinusoids figure draws: the user's `dims` when set
/// (each < d, checked by core), else chosen from d so dragging d never
/// invalidates them — every dimension when d <= 8, else 0 and the sin
/// dimensions of the pairs d/16, d/4 and 15d/32 (d = 128: 0, 16, 64, 120).
std::vector<int> shown_dims(const core::Params& p, int d) {
  std::vector<int> out;
  if (p.is_set("dims")) {
    for (double x : p.list("dims")) out.push_back(static_cast<int>(x));
    return out;
  }
  if (d <= 8) {
    for (int i = 0; i < d; ++i) out.push_back(i);
    return out;
  }
  for (int dim : {0, 2 * (d / 16), 2 * (d / 4), 2 * (15 * d / 32)})
    if (out.empty() || dim > out.back()) out.push_back(dim);
  return out;
}

// [SECTION] Figures

/// PE[pos, i] over positions × dims, sampled at the pixels that show it (a
/// 1,048,576 × 1024 table is never built).
Figure heatmap(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const auto [d, base] = sinusoidal::encoding(ctx.params);
  const auto positions = ctx.params.integer("positions");
  Figure f;
  f.title = tr("sinusoidal.heatmap.title");
  f.subtitle = tr.format("sinusoidal.heatmap.subtitle", {{"d", fig::num(d)}, {"base", fig::num(base)},
                                                         {"n", fig::num(static_cast<double>(positions - 1))},
                                                         {"N", fig::num(static_cast<double>(positions))}});
  const lessons::EncodingKeys keys{"sinusoidal.axis.dim", "sinusoidal.axis.pos", "sinusoidal.readout.dim",
                                   "sinusoidal.readout.pos", "sinusoidal.readout.pe"};
  lessons::encoding_axes(f, keys, tr);
  f.heatmaps.push_back(lessons::sinusoidal_heatmap(d, base, positions, keys, tr));
  return f;
}

/// The chosen dimensions over positions, one row each (fast at the top of the
/// list, slow at the bottom for the default dims), with their wavelengths.
Figure sinusoids(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const auto [d, base] = sinusoidal::encoding(p);
  const long long n = p.integer("positions");
  const std::vector<int> dims = shown_dims(p, d);
  constexpr double kRowGap = 2.8;
  Figure f;
  f.title = tr("sinusoidal.sinusoids.title");
  // Arrows (one wavelength) are drawn on at most six rows; the subtitle says so only then.
  f.subtitle = tr.format(dims.size() <= 6 ? "sinusoidal.sinusoids.subtitle" : "sinusoidal.sinusoids.subtitle_no_arrows",
                         {{"d", fig::num(d)}, {"base", fig::num(base)},
                                                           {"n", fig::num(static_cast<double>(n - 1))}});
  f.x = {.label = tr("sinusoidal.axis.pos"), .unit = tr("unit.tokens"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("sinusoidal.sinusoids.axis.y"), .min = -kRowGap * static_cast<double>(dims.size() - 1) - 1.3,
         .max = 1.75};
  f.legend = fig::LegendPlace::none;
  // PE[pos, dim] as core::sinusoidal_value computes it (sin or cos of pos·ω_i
  // with core's ω_i: the same double), without its per-call checks and pow.
  std::vector<double> omega;
  for (int dim : dims) omega.push_back(core::sinusoidal_frequency(dim / 2, d, base));
  const auto exact = [&](std::size_t curve, double pos) {
    const double angle = pos * omega[curve];
    return dims[curve] % 2 == 0 ? std::sin(angle) : std::cos(angle);
  };
  const Curves c = integer_curves(
      n, static_cast<int>(dims.size()), ctx.width,
      [&](std::size_t curve, long long first, long long last) {
        return sinusoid_extremes(first, last, omega[curve], dims[curve],
                                 [&](long long pos) { return exact(curve, static_cast<double>(pos)); });
      },
      exact);
  for (std::size_t k = 0; k < dims.size(); ++k) {
    const int dim = dims[k];
    const double row = -kRowGap * static_cast<double>(k);
    const double lambda = core::sinusoidal_wavelength(dim, d, base);
    fig::Series s{.name = tr.format(dim % 2 == 0 ? "sinusoidal.sinusoids.series_sin" : "sinusoidal.sinusoids.series_cos",
                                    {{"i", std::to_string(dim)}, {"lambda", tokens_text(lambda)}}),
                  .kind = n == 1 ? fig::SeriesKind::scatter : fig::SeriesKind::line};  // one position: a dot
    s.color = fig::palette_color(static_cast<int>(k));
    s.width = 1.6f;
    s.x = c.x[k];
    s.y.reserve(c.y[k].size());
    for (double v : c.y[k]) s.y.push_back(row + v);
    s.x_name = tr("sinusoidal.readout.pos");
    s.y_name = tr("sinusoidal.sinusoids.readout_y");
    s.extra = {{tr("sinusoidal.readout.pe"), "", c.y[k]},
               {"λ", tr("unit.tokens"), std::vector<double>(c.x[k].size(), lambda)}};
    f.series.push_back(std::move(s));
    f.y.ticks.emplace(f.y.ticks.begin(), row, tr.format("sinusoidal.sinusoids.tick", {{"i", std::to_string(dim)}}));  // ascending
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = row, .color = fig::Color::rgb(0xb0b4ba),
                           .style = fig::LineStyle::dotted});
    // One wavelength marked on the row when it fits: an arrow from 0 to λ.
    if (dims.size() <= 6 && lambda < static_cast<double>(n)) {
      f.arrows.push_back({.x0 = 0, .y0 = row + 1.4, .x1 = lambda, .y1 = row + 1.4, .color = s.color});
      f.notes.push_back({.x = lambda + 0.006 * static_cast<double>(n), .y = row + 1.4,
                         .text = tr.format("sinusoidal.sinusoids.lambda", {{"lambda", tokens_text(lambda)}}),
                         .color = s.color});
    } else if (dims.size() <= 6) {
      f.notes.push_back({.x = 0, .y = row + 1.4,
                         .text = tr.format("sinusoidal.sinusoids.lambda_long", {{"lambda", tokens_text(lambda)}}),
                         .color = s.color});
    }
  }
  return f;
}

/// λ per dimension on a log axis, for `base` and every entry of `bases`: the
/// first pair turns once every 2π ≈ 6.28 tokens (the second hand), the last
/// once every 2π·base^((d−2)/d) tokens (the hour hand).
Figure wavelengths(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const auto [d, base] = sinusoidal::encoding(p);
  const auto n = static_cast<double>(p.integer("positions"));
  std::vector<double> all_bases{base};
  for (double b : p.list("bases"))
    if (std::find(all_bases.begin(), all_bases.end(), b) == all_bases.end()) all_bases.push_back(b);
  Figure f;
  f.title = tr("sinusoidal.wavelengths.title");
  // What a larger base does is the step's question: the figure says it only
  // when it shows it, with several bases drawn.
  const bool several = all_bases.size() > 1;
  f.subtitle = tr.format("sinusoidal.wavelengths.subtitle", {{"d", fig::num(d)}});
  if (several) f.subtitle += " · " + tr("sinusoidal.wavelengths.subtitle_bases");
  f.x = {.label = tr("sinusoidal.axis.dim"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("sinusoidal.wavelengths.axis.y"), .unit = tr("unit.tokens"), .scale = fig::AxisScale::log,
         .format = fig::TickFormat::integer};
  for (std::size_t b = 0; b < all_bases.size(); ++b) {
    fig::Series s{.name = tr.format(b == 0 ? "sinusoidal.wavelengths.series_base" : "sinusoidal.wavelengths.series_other",
                                    {{"base", fig::num(all_bases[b])}})};
    s.width = b == 0 ? 2.6f : 1.5f;
    s.style = b == 0 ? fig::LineStyle::solid : fig::LineStyle::dashed;
    std::vector<double> omega;
    for (int dim = 0; dim < d; ++dim) {
      const double l = core::sinusoidal_wavelength(dim, d, all_bases[b]);
      s.x.push_back(dim), s.y.push_back(l), omega.push_back(2 * std::numbers::pi / l);
    }
    s.x_name = tr("sinusoidal.readout.dim");
    s.y_name = "λ";
    s.extra = {{"θ", tr("unit.rad_per_token"), omega}};
    f.series.push_back(std::move(s));
  }
  const double longest = core::sinusoidal_wavelength(d - 1, d, base);
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 2 * std::numbers::pi,
                         .label = tr(several ? "sinusoidal.wavelengths.second_hand_bases" : "sinusoidal.wavelengths.second_hand"),
                         .style = fig::LineStyle::dotted});
  if (longest > 4 * std::numbers::pi)  // d = 2 has a single hand: no separate hour hand to mark
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = longest,
                           .label = tr.format("sinusoidal.wavelengths.hour_hand", {{"lambda", tokens_text(longest)}}),
                           .style = fig::LineStyle::dotted});
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = n,
                         .label = tr.format("sinusoidal.wavelengths.positions", {{"n", fig::num(n)}}),
                         .color = fig::palette_color(3)});
  return f;
}

/// What the dot figure draws apart from your (m, n): it moves with d, base,
/// the offsets shown and their stride only, so dragging m or n finds it in a
/// memo (the most recently used few; a pure function, remembered or not).
struct DotKey {
  int d;
  double base;
  long long kmax, stride;
  bool operator==(const DotKey&) const = default;
};

struct DotSamples {
  std::vector<double> ks, half;  ///< k = 0, s, 2s, … and kmax; Σ_i cos(ω_i k) there
  std::array<double, 3> anchors{};
  std::array<std::vector<double>, 3> anchor_k, anchor_dot;  ///< PE(p + Δ)·PE(p) at 13 offsets per anchor p
};

/// Inserts the offset k >= 0 and Σ_i cos(ω_i k) into the sorted samples (once).
void add_offset(DotSamples& samples, double k, int d, double base) {
  const auto at = std::lower_bound(samples.ks.begin(), samples.ks.end(), k);
  if (at != samples.ks.end() && *at == k) return;
  double value = 0;
  core::sinusoidal_dot_closed_form_curve(k, 0, d, base, {&value, 1});
  samples.half.insert(samples.half.begin() + (at - samples.ks.begin()), value);
  samples.ks.insert(at, k);
}

std::shared_ptr<const DotSamples> compute_dot_samples(const DotKey& key) {
  auto out = std::make_shared<DotSamples>();
  const double kmax = static_cast<double>(key.kmax);
  for (long long k = 0; k < key.kmax; k += key.stride) out->ks.push_back(static_cast<double>(k));
  out->ks.push_back(kmax);
  out->half.resize(out->ks.size());
  core::sinusoidal_dot_closed_form_curve(0, static_cast<double>(key.stride), key.d, key.base,
                                         std::span<double>(out->half).first(out->half.size() - 1));
  out->half.back() = core::sinusoidal_dot_closed_form(kmax, key.d, key.base);
  // Real dot products of rows at three unrelated anchors p (PE rows from core,
  // one matrix per anchor).
  out->anchors = {kmax, kmax + 997, kmax + 65521};
  for (std::size_t a = 0; a < 3; ++a) {
    std::vector<double> positions{out->anchors[a]};
    for (int j = 0; j <= kAnchorMarkers; ++j) {
      const double k = std::round(-kmax + 2.0 * kmax * (j + 0.37 * static_cast<double>(a)) / kAnchorMarkers);
      if (std::abs(k) > kmax) continue;
      out->anchor_k[a].push_back(k);
      positions.push_back(out->anchors[a] + k);
    }
    const Eigen::MatrixXd rows = core::sinusoidal_matrix<double>(positions, key.d, key.base);
    for (Eigen::Index r = 1; r < rows.rows(); ++r) out->anchor_dot[a].push_back(rows.row(r).dot(rows.row(0)));
  }
  // The line passes through every marker's offset (between two samples of a
  // stride it would not): those offsets join the samples.
  if (key.stride > 1)
    for (const auto& ks : out->anchor_k)
      for (double k : ks) add_offset(*out, std::abs(k), key.d, key.base);
  return out;
}

std::shared_ptr<const DotSamples> dot_samples(const DotKey& key) {
  static lessons::Memo<DotKey, DotSamples, kDotMemoEntries> memo;
  return memo.get(key, [&] { return compute_dot_samples(key); });
}

/// PE_m·PE_n against the offset k = m − n: the closed form Σ_i cos(ω_i k) as a
/// line, real dot products of rows at three unrelated anchors as markers (they
/// fall on the line: only k matters), the current (m, n) and its mirror (n, m).
Figure dot(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const auto [d, base] = sinusoidal::encoding(p);
  const double m = p.real("m"), n = p.real("n");
  const long long kmax = std::clamp(p.integer("positions") - 1, 1LL, kMaxDotOffset);
  Figure f;
  f.title = tr("sinusoidal.dot.title");
  f.subtitle = tr.format("sinusoidal.dot.subtitle", {{"d", fig::num(d)}, {"base", fig::num(base)},
                                                     {"k", fig::num(static_cast<double>(kmax))}});
  // No legend on the curve: the subtitle says what the line and the markers are.
  f.legend = fig::LegendPlace::none;
  f.x = {.label = tr("sinusoidal.dot.axis.x"), .unit = tr("unit.tokens"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("sinusoidal.dot.axis.y")};
  // Σ_i cos(ω_i k) at k = 0, s, 2s, … up to kmax (and kmax itself), with the
  // stride s = 1 when every integer offset fits in 2 per pixel column, else
  // the smallest that does (core's rotation kernel: O(d) per offset). The
  // sum is even in k, so the negative half mirrors it exactly.
  const auto half_columns = static_cast<long long>(std::max(1.0, ctx.width));
  const long long stride = std::max(1LL, (kmax + half_columns - 1) / half_columns);
  if (stride > 1) f.subtitle += " · " + tr.format("sinusoidal.dot.stride", {{"s", fig::num(static_cast<double>(stride))}});
  const std::shared_ptr<const DotSamples> samples = dot_samples({d, base, kmax, stride});
  std::string anchors;
  // "127; 1,124; 65,648" (Chinese "127、1,124、65,648"): a comma would read as a thousands separator.
  for (double a : samples->anchors) anchors += (anchors.empty() ? "" : tr("sinusoidal.dot.list_sep")) + fig::num(a);
  f.subtitle += " · " + tr.format("sinusoidal.dot.markers", {{"p", anchors}});
  const bool now_shown = std::abs(m - n) <= static_cast<double>(kmax);  // off the shown range, the readouts still have it
  DotSamples with_now;  // the samples and your offset |m − n|, so the line passes through your markers too
  if (stride > 1 && now_shown) {
    with_now = *samples;
    add_offset(with_now, std::abs(m - n), d, base);
  }
  const std::vector<double>& ks = stride > 1 && now_shown ? with_now.ks : samples->ks;
  const std::vector<double>& half = stride > 1 && now_shown ? with_now.half : samples->half;
  fig::Series closed{.name = tr("sinusoidal.dot.series_closed")};
  for (std::size_t j = ks.size(); j-- > 1;) {
    closed.x.push_back(-ks[j]);
    closed.y.push_back(half[j]);
  }
  closed.x.insert(closed.x.end(), ks.begin(), ks.end());
  closed.y.insert(closed.y.end(), half.begin(), half.end());
  closed.width = 1.4f;
  closed.x_name = "r";
  closed.y_name = "Σᵢ cos(θᵢ·r)";
  f.series.push_back(std::move(closed));
  for (std::size_t a = 0; a < samples->anchors.size(); ++a) {
    fig::Series s{.name = tr.format("sinusoidal.dot.series_anchor", {{"p", fig::num(samples->anchors[a])}}),
                  .kind = fig::SeriesKind::scatter};
    s.marker = 3.2f - 0.6f * static_cast<float>(a);
    s.x = samples->anchor_k[a];
    s.y = samples->anchor_dot[a];
    s.x_name = "r";
    s.y_name = "PE(p + r)·PE(p)";
    f.series.push_back(std::move(s));
  }
  fig::Series now{.name = tr("sinusoidal.dot.series_now"), .kind = fig::SeriesKind::scatter};
  now.marker = 6;
  now.color = fig::palette_color(6);
  // Your (m, n) only: its mirror (n, m) is what the step's question asks
  // about, so it is not drawn before the student swaps the two.
  const double now_dot = core::sinusoidal_dot(m, n, d, base);
  if (now_shown) {
    now.x = {m - n};
    now.y = {now_dot};
  }
  f.subtitle += " · " + tr.format("sinusoidal.dot.now", {{"m", fig::num(m)}, {"n", fig::num(n)}, {"r", fig::num(m - n)},
                                                         {"v", fig::num(now_dot, 4)}});
  now.x_name = "r = m − n";
  now.y_name = "PE(m)·PE(n)";
  f.series.push_back(std::move(now));
  // The peak's line labelled by the layout, where it covers no marker (a
  // note beside r = 0 sat on the peak itself).
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = d / 2.0,
                         .label = tr.format("sinusoidal.dot.max", {{"v", fig::num(d / 2.0)}})});
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0, .style = fig::LineStyle::solid});
  return f;
}

/// "0.540", "−0.001", "1.000": a matrix entry with three decimals and a minus sign.
std::string three_decimals(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", std::abs(v));
  const bool negative = v < 0 && std::string_view(buf) != "0.000";
  return (negative ? "−" : "") + std::string(buf);
}

/// The top-left corner of M(k): 2 × 2 rotation blocks down the diagonal,
/// each turning its pair by ω_i·k.
Figure shift_matrix(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const auto [d, base] = sinusoidal::encoding(p);
  const double k = p.real("offset");
  const int side = std::min(d, kShiftMatrixShown);
  Eigen::MatrixXd corner(side, side);
  if (d <= kMaxCoreShiftSide) {
    corner = core::sinusoidal_shift_matrix(k, d, base).topLeftCorner(side, side);
  } else {  // the same blocks, one column of M(k) at a time (apply_shift to unit vectors)
    for (int c = 0; c < side; ++c) {
      Eigen::VectorXd e = Eigen::VectorXd::Zero(d);
      e[c] = 1;
      corner.col(c) = apply_shift(k, e, d, base).head(side);
    }
  }
  Figure f;
  f.title = tr("sinusoidal.shift_matrix.title");
  f.subtitle = tr.format(side < d ? "sinusoidal.shift_matrix.subtitle" : "sinusoidal.shift_matrix.subtitle_whole",
                         {{"k", fig::num(k)}, {"side", std::to_string(side)}, {"d", fig::num(d)}});
  lessons::matrix_axes(f, tr("sinusoidal.shift_matrix.axis.col"), tr("sinusoidal.shift_matrix.axis.row"));
  fig::Heatmap h = lessons::matrix_heatmap(corner);
  h.colormap = fig::Colormap::signed_;
  h.vmin = -1, h.vmax = 1;
  h.value_name = tr("sinusoidal.shift_matrix.value");
  h.x_name = tr("sinusoidal.shift_matrix.readout_col");
  h.y_name = tr("sinusoidal.shift_matrix.readout_row");
  f.heatmaps.push_back(std::move(h));
  // The value of every non-zero entry, written in its cell with three
  // decimals as a matrix is written ("0.001", not "1.00e-3").
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c)
      if (corner(r, c) != 0)
        f.notes.push_back({.x = c + 0.5, .y = r + 0.5, .text = three_decimals(corner(r, c)), .anchor = fig::Anchor::center,
                           .color = fig::Color::rgb(corner(r, c) < -0.3 ? 0xffffff : 0x1d1d1f)});
  return f;
}

/// PE(m) and PE(m + k), dimension by dimension, and with `rotated` M(k)·PE(m):
/// its markers sit on the stems, whatever m, k, d and base.
Figure shift_figure(const FigureContext& ctx, bool rotated_shown) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const sinusoidal::ShiftRows rows = sinusoidal::shift_rows(p);
  const auto [d, base] = rows.e;
  const double m = rows.m, k = rows.k;
  const Eigen::VectorXd &from = rows.from, &target = rows.target, &rotated = rows.rotated;
  Figure f;
  f.title = tr(rotated_shown ? "sinusoidal.shift.title" : "sinusoidal.turn.title");
  f.subtitle = tr.format(!rotated_shown                 ? "sinusoidal.turn.subtitle"
                         : d <= kShiftMarkersUpTo ? "sinusoidal.shift.subtitle"
                                                  : "sinusoidal.shift.subtitle_lines",
                         {{"m", fig::num(m)}, {"k", fig::num(k)}, {"d", fig::num(d)}, {"base", fig::num(base)}});
  f.x = {.label = tr("sinusoidal.axis.dim"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("sinusoidal.shift.axis.y"), .min = -1.15, .max = 1.55};
  f.legend = fig::LegendPlace::automatic;  // the corner the stems leave free
  // Markers while they fit (one per dimension); past kShiftMarkersUpTo they
  // would overlap anyway and cost a circle each per frame, so lines: a thin
  // M(k)·PE(m) inside a wider PE(m + k) (solid: a dash pattern over a
  // thousand zigzags would cost more than the markers).
  const bool markers = d <= kShiftMarkersUpTo;
  const fig::SeriesKind dots = markers ? fig::SeriesKind::scatter : fig::SeriesKind::line;
  fig::Series before{.name = tr("sinusoidal.shift.series_from"), .kind = dots};
  fig::Series after{.name = tr("sinusoidal.shift.series_target"), .kind = d <= 128 ? fig::SeriesKind::stems : dots};
  fig::Series turned{.name = tr("sinusoidal.shift.series_rotated"), .kind = dots};
  if (!markers) before.width = 1.0f, turned.width = 0.8f;
  for (int j = 0; j < d; ++j) {
    before.x.push_back(j), before.y.push_back(from[j]);
    after.x.push_back(j), after.y.push_back(target[j]);
    turned.x.push_back(j), turned.y.push_back(rotated[j]);
  }
  before.color = fig::Color::rgb(0x9aa0a6);
  before.marker = d <= 32 ? 3.5f : 1.6f;
  after.color = fig::palette_color(0);
  after.width = markers ? 1.6f : 2.4f;
  after.marker = d <= 32 ? 4.0f : d <= 128 ? 2.0f : 2.8f;
  turned.color = fig::palette_color(3);
  turned.marker = d <= 32 ? 3.0f : d <= 128 ? 1.6f : 1.3f;
  for (fig::Series* s : {&before, &after, &turned}) s->x_name = tr("sinusoidal.readout.dim");
  before.y_name = "PE(m)";
  after.y_name = "PE(m + Δ)";
  turned.y_name = "M(Δ)·PE(m)";
  f.series = {std::move(before), std::move(after)};
  if (rotated_shown) f.series.push_back(std::move(turned));
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0, .style = fig::LineStyle::solid});
  return f;
}

/// A shift turns every pair of PE(m) by its own angle k·θᵢ: PE(m) and PE(m + k).
Figure turn(const FigureContext& ctx) { return shift_figure(ctx, false); }

/// The same with M(k)·PE(m): the markers sit on the stems.
Figure shift(const FigureContext& ctx) { return shift_figure(ctx, true); }

// [SECTION] Readouts

std::vector<Readout> readouts(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const sinusoidal::ShiftRows rows = sinusoidal::shift_rows(p);
  const auto [d, base] = rows.e;
  const double m = rows.m, n = p.real("n"), k = rows.k;
  const auto positions = static_cast<double>(p.integer("positions"));
  std::vector<Readout> out;

  // PE(m + k) = M(k)·PE(m), every dimension.
  const double shift_err = (rows.rotated - rows.target).cwiseAbs().maxCoeff();
  const double shift_tol = identity_tolerance(m, k);
  out.push_back({tr("sinusoidal.readout.shift_error"),
                 tr.format("sinusoidal.readout.within", {{"v", fig::num(shift_err, 2)}, {"tol", fig::num(shift_tol, 2)}}),
                 shift_err, shift_err <= shift_tol});

  // PE_m·PE_n as a dot product of rows, and its closed form at k = m − n.
  const double dot = core::sinusoidal_dot(m, n, d, base);
  const double closed = closed_form(m - n, d, base);
  const double dot_tol = (d / 2.0) * identity_tolerance(m, n) + summation_tolerance(d);
  out.push_back({tr("sinusoidal.readout.dot"), fig::num(dot, 8), dot, std::nullopt});
  out.push_back({tr("sinusoidal.readout.closed"),
                 tr.format("sinusoidal.readout.closed_value",
                           {{"v", fig::num(closed, 8)}, {"diff", fig::num(std::abs(dot - closed), 2)}}),
                 closed, std::abs(dot - closed) <= dot_tol});

  // The same score for k and −k: the position–position term has no direction.
  const double mirrored = core::sinusoidal_dot(n, m, d, base);
  out.push_back({tr("sinusoidal.readout.mirror"), fig::num(mirrored, 8), mirrored, mirrored == dot});

  // Every PE row has squared length d/2 (sin² + cos² = 1 per pair), so M(k) is a rotation.
  const double norm2 = rows.from.squaredNorm();
  out.push_back({tr("sinusoidal.readout.norm"), fig::num(norm2, 8), norm2,
                 std::abs(norm2 - d / 2.0) <= summation_tolerance(d)});

  // Second hand and hour hand, and how many pairs turn at least once in N positions.
  const double shortest = core::sinusoidal_wavelength(0, d, base);
  const double longest = core::sinusoidal_wavelength(d - 1, d, base);
  int turning = 0;
  for (int i = 0; i < d / 2; ++i) turning += core::sinusoidal_wavelength(2 * i, d, base) <= positions;
  out.push_back({tr("sinusoidal.readout.shortest"), fig::num(shortest, 6), shortest, std::nullopt});
  out.push_back({tr("sinusoidal.readout.longest"), fig::num(longest, 6), longest, std::nullopt});
  out.push_back({tr("sinusoidal.readout.turning"),
                 tr.format("sinusoidal.readout.turning_value", {{"n", std::to_string(turning)}, {"of", std::to_string(d / 2)}}),
                 static_cast<double>(turning), std::nullopt});
  return out;
}

}  // namespace

// [SECTION] The view

ViewDef sinusoidal_view() {
  return {.id = "sinusoidal",
          .group = "absolute",
          .keys = {"base", "d", "positions", "dims", "bases", "m", "n", "offset"},
          .defaults = {{"positions", "128"}},
          .figures = {{"heatmap", heatmap},
                      {"sinusoids", sinusoids},
                      {"wavelengths", wavelengths},
                      {"dot", dot},
                      {"shift_matrix", shift_matrix},
                      {"turn", turn},
                      {"shift", shift}},
          .tables = {"sinusoidal", "sinusoidal-wavelengths", "sinusoidal-dot", "sinusoidal-shift"},
          .readouts = readouts};
}

}  // namespace poslab::app
