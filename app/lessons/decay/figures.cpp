// Lesson "decay": how attention depends on distance, across methods.
// RoPE's long-term decay (RoFormer §3.4.3, core/decay.hpp): the relative upper
// bound (1/(d/2))·Σ_{j=1}^{d/2} |S_j(r)|, S_j(r) = Σ_{k<j} e^{i r θ_k}, falls
// over the first hundreds of tokens, then stops falling, rises again and
// levels off; the score of q = k = 1 and the mean |score| of random q, k.
// On one distance axis with it, as one quantity (the softmax weight of a key
// at distance r over the key at 0 for equal content, decay/setting.hpp):
// RoPE's and xPos's all-ones scores (core/xpos.hpp), ALiBi's bias
// (core/alibi.hpp) and Gaussian-kernel RoPE (core/gaussian.hpp, relative
// form). T5's learned bucket biases have no value there; its readout stays.
//
// [SECTION] Index
// - Setting, distances drawn, the comparison curves
// - Figures: curves, bases, compare
// - Readouts
// - The view

#include <algorithm>
#include <climits>
#include <cmath>
#include <complex>
#include <list>
#include <memory>
#include <mutex>
#include <numbers>
#include <optional>
#include <string>

#include "app/plot/figure_text.hpp"
#include "app/lessons/budget.hpp"
#include "app/lessons/decay/setting.hpp"
#include "app/lessons/decay/trend.hpp"
#include "app/lessons/lesson.hpp"
#include "poslab/core/decay.hpp"
#include "poslab/core/gaussian.hpp"
#include "poslab/core/random.hpp"
#include "poslab/core/rope.hpp"
#include "poslab/core/t5.hpp"
#include "poslab/core/xpos.hpp"

namespace poslab::app {

namespace {

using fig::Figure;

/// How many of the distances a curve is computed at: all of them up to a
/// budget of work, otherwise a sample of them along the axis (sampled(): runs
/// with power-of-two strides per octave, so each run stays an arithmetic
/// progression for core's blocked bound kernel); the renderer's per-pixel
/// decimation keeps what a dense curve looks like. The budgets are sized to
/// what a 1600-pixel-wide export shows (a few samples per pixel column where
/// d is small) and to a frame of the GUI while a slider moves
/// (lessons/budget.hpp, kFigureWorkBudget = 2^21 units per figure): the bound
/// (d/2 complex steps per distance, for every base drawn) gets kBoundWork /
/// (d/2 · bases) distances, the ones and xPos scores (d/2 cos and pow)
/// kScoreWork / (d/2), the random curve (samples · d/2 per distance)
/// kRandomWork / (samples · d/2), each within [lo, hi]; the trend's prefix
/// sums kExactTrendWork (or kSampledTrendWork) pair-steps shared by the
/// bases, at trend_points(d)
/// distances. The random curve's floor of kMinRandomDistances is what the
/// budget on samples × d (view_budget) keeps within kRandomWork.
constexpr double kBoundWork = kFigureWorkBudget / 2, kScoreWork = 1 << 15, kRandomWork = kFigureWorkBudget;
/// The trend's prefix sums run through core's blocked kernel on long
/// progressions, some 2 ns a pair-step (`poslab bench --kernels`): up to
/// 2^24 of them, ~30 ms, keep the defaults (d = 128, three bases, 0:65536)
/// exact (a stride over the integers aliases with the bound's oscillation).
/// When even that needs a stride, 2^22 do (the mean is sampled either way).
constexpr double kExactTrendWork = 16'777'216, kSampledTrendWork = 4'194'304;
constexpr std::size_t kMinRandomDistances = 8;

std::size_t budget(double work, double per_distance, std::size_t lo, std::size_t hi) {
  return std::clamp(static_cast<std::size_t>(work / per_distance), lo, hi);
}
std::size_t full_budget(int d, std::size_t bases) { return budget(kBoundWork, d / 2.0 * static_cast<double>(bases), 32, 4096); }
std::size_t score_budget(int d) { return budget(kScoreWork, d / 2.0, 32, 512); }
/// At most as many as the scores (the curves figure draws them side by side).
std::size_t random_budget(int d, int samples) {
  return std::min(score_budget(d), budget(kRandomWork, samples * (d / 2.0), kMinRandomDistances, 512));
}
/// Random q, k pairs and distances the RoFormer-inequality readout checks.
constexpr int kInequalitySamples = 16;
std::size_t inequality_budget(int d) { return budget(kScoreWork, d / 2.0, 64, 256); }

// [SECTION] Setting, distances drawn, the comparison curves

struct Setting {
  int d;
  double base;
  std::vector<double> bases;  ///< base first, then `bases` without repeats
  std::vector<double> distances;  ///< sorted, without repeats
  bool log_x;
  std::uint64_t seed;
  int samples;
};

Setting setting(const core::Params& p) {
  Setting s{static_cast<int>(p.integer("d")), p.real("base"), {}, {}, p.boolean("log_x"),
            static_cast<std::uint64_t>(p.integer("seed")), static_cast<int>(p.integer("samples"))};
  s.bases = decay::compared_bases(p);
  s.distances = p.list("distance");
  if (!std::is_sorted(s.distances.begin(), s.distances.end())) std::sort(s.distances.begin(), s.distances.end());
  s.distances.erase(std::unique(s.distances.begin(), s.distances.end()), s.distances.end());
  return s;
}

/// At most `budget` of the sorted distances, spread evenly along the axis
/// (log-evenly with log_x; distance 0 kept), always with the first and last.
std::vector<double> spread(const std::vector<double>& all, std::size_t budget, bool log_x) {
  if (all.size() <= budget) return all;
  std::vector<double> out;
  const double lo = all.front(), hi = all.back();
  const double first_positive = *std::upper_bound(all.begin(), all.end(), 0.0);
  for (std::size_t k = 0; k < budget; ++k) {
    const double t = static_cast<double>(k) / static_cast<double>(budget - 1);
    const double target = log_x && first_positive < hi
                              ? first_positive * std::pow(hi / first_positive, t)
                              : lo + (hi - lo) * t;
    const auto it = std::lower_bound(all.begin(), all.end(), target);
    out.push_back(it == all.end() ? hi : *it);
  }
  if (log_x && lo == 0) out.insert(out.begin(), 0.0);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// Distances a curve is computed at.
struct Sampled {
  std::vector<double> r;
};

/// Every distance when there are at most `budget`; otherwise every stride-th
/// one (stride a power of two) per segment of the axis — per octave
/// [2^k, 2^(k+1)) with log_x (and [0, 1) below), per sixteenth of the range
/// without — the segments sharing the budget equally, as they share the
/// axis; always with the last distance. Runs of consecutive listed distances
/// (the default 0:65536) stay arithmetic progressions.
Sampled sampled(const std::vector<double>& all, std::size_t budget, bool log_x) {
  Sampled out;
  if (all.size() <= budget) {
    out.r = all;
    return out;
  }
  std::vector<std::size_t> cuts{0};  // segment starts (indices into all)
  const double lo = all.front(), hi = all.back();
  if (log_x) {
    for (double edge = 1; edge <= hi; edge *= 2) {
      const auto at = static_cast<std::size_t>(std::lower_bound(all.begin(), all.end(), edge) - all.begin());
      if (at > cuts.back()) cuts.push_back(at);
    }
  } else {
    for (int k = 1; k < 16; ++k) {
      const auto at = static_cast<std::size_t>(std::lower_bound(all.begin(), all.end(), lo + (hi - lo) * k / 16) - all.begin());
      if (at > cuts.back()) cuts.push_back(at);
    }
  }
  cuts.push_back(all.size());
  const std::size_t share = std::max<std::size_t>(1, budget / (cuts.size() - 1));
  for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
    const std::size_t n = cuts[c + 1] - cuts[c];
    std::size_t stride = 1;
    while (n / stride > share) stride *= 2;
    for (std::size_t i = cuts[c]; i < cuts[c + 1]; i += stride) out.r.push_back(all[i]);
  }
  if (out.r.back() != hi) out.r.push_back(hi);
  return out;
}

/// The distances the bound is computed at (full_budget: the same for every
/// base, so the figures and readouts share the curves).
Sampled full_distances(const Setting& s) { return sampled(s.distances, full_budget(s.d, s.bases.size()), s.log_x); }

std::span<const double> as_span(const Eigen::VectorXd& v) { return {v.data(), static_cast<std::size_t>(v.size())}; }

/// Values already computed, by what they were computed from (a description
/// of the inputs and the distances themselves): the curves, and the trends
/// drawn from them. Dragging one slider changes one curve; the three figures
/// and the readouts share the rest (the bound at `base` is drawn in all three,
/// the other bases do not move with it), and a key toggled back (log_x)
/// finds its curves and trends again. A memo of pure functions: the same
/// inputs give the same numbers, whether remembered or not. Thread-safe; the
/// last kMemoEntries kept.
template <class T>
class Memo {
 public:
  using Value = std::shared_ptr<const T>;

  template <class Compute>
  Value get(std::string what, const std::vector<double>& distances, Compute compute) {
    {
      const std::lock_guard lock(mutex_);
      for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->what == what && it->distances == distances) {
          entries_.splice(entries_.begin(), entries_, it);  // most recently used first
          return entries_.front().values;
        }
    }
    Value values = std::make_shared<const T>(compute());
    const std::lock_guard lock(mutex_);
    entries_.push_front({std::move(what), distances, values});
    if (entries_.size() > kMemoEntries) entries_.pop_back();
    return values;
  }

 private:
  static constexpr std::size_t kMemoEntries = 24;
  struct Entry {
    std::string what;
    std::vector<double> distances;
    Value values;
  };
  std::mutex mutex_;
  std::list<Entry> entries_;
};

using CurveMemo = Memo<std::vector<double>>;

CurveMemo& memo() {
  static CurveMemo m;
  return m;
}

/// Full precision, for the memo's descriptions.
std::string exact(double v) { return core::format_number(v); }

/// The bound at each distance, through core's fast kernel.
CurveMemo::Value bound_curve(const std::vector<double>& distances, int d, double base) {
  return memo().get("bound d=" + std::to_string(d) + " base=" + exact(base), distances, [&] {
    const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
    std::vector<double> out(distances.size());
    core::rope_decay_bound_curve(distances, as_span(theta), out);
    return out;
  });
}

/// The all-ones score at each distance (core::rope_ones_score).
CurveMemo::Value ones_curve(const std::vector<double>& distances, int d, double base) {
  return memo().get("ones d=" + std::to_string(d) + " base=" + exact(base), distances, [&] {
    const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
    std::vector<double> out;
    out.reserve(distances.size());
    for (double r : distances) out.push_back(core::rope_ones_score(r, as_span(theta)));
    return out;
  });
}

/// The index of the smallest value (the first one on ties).
std::size_t argmin(const std::vector<double>& v) {
  return static_cast<std::size_t>(std::min_element(v.begin(), v.end()) - v.begin());
}

/// Beyond a few hundred tokens the bound oscillates within a wide band, so
/// its smallest raw value says little. Its trend is the local mean over
/// every integer distance in [⌈r/1.1⌉, ⌊1.1·r⌋] (decay::window_means), at up
/// to trend_points(d) of the listed distances (512 up to d = 1024: a point
/// whose window holds no sampled integer costs a direct bound, d/2 sin/cos).
std::size_t trend_points(int d) { return budget(kFigureWorkBudget / 16, d / 2.0, 32, 512); }

struct Trend {
  std::vector<double> x, y;
  long long stride = 1;  ///< 1: over every integer distance (decay::WindowMeans)
};

Trend compute_local_mean(const Setting& s, double base) {
  Trend t;
  t.x = spread(s.distances, trend_points(s.d), s.log_x);
  const double bases = static_cast<double>(s.bases.size());
  const double exact = (std::floor(t.x.back() * decay::kWindow) + 1) * (s.d / 2.0) * bases;
  const double work = exact <= kExactTrendWork ? kExactTrendWork : kSampledTrendWork;
  decay::WindowMeans means = decay::window_means(t.x, s.d, base, work / bases);
  t.y = std::move(means.mean);
  t.stride = means.stride;
  return t;
}

/// local_mean remembered (Memo): the curves and bases figures draw it on
/// every rebuild, and it is their largest cost once the curves are remembered.
/// It reads the listed distances, d, log_x and how many bases share the work.
Trend local_mean(const Setting& s, double base) {
  static Memo<Trend> trends;
  return *trends.get("trend d=" + std::to_string(s.d) + " base=" + exact(base) + " log_x=" + (s.log_x ? "1" : "0") +
                         " bases=" + std::to_string(s.bases.size()),
                     s.distances, [&] { return compute_local_mean(s, base); });
}

/// The trend's legend: over every integer distance, or every k-th one.
std::string trend_name(const Translator& tr, long long stride) {
  return stride == 1 ? tr("decay.series.trend") : tr.format("decay.series.trend_every", {{"k", fig::num(static_cast<double>(stride))}});
}

/// Where the bound levels off: once the phases r·θ_k are effectively
/// independent and uniform, S_j is a planar walk of j unit steps, and the
/// relative bound settles near (1/(d/2))·Σ_j E|S_j| divided by its value at 0,
/// (d/2 + 1)/2 (d = 128: 0.1475): core::rope_decay_bound_random_level, E|S_j|
/// exactly (not the Rayleigh mean √(πj)/2, 0.24 % low at d = 128). A
/// reference, not a law: it needs distances far beyond the longest wavelength.
double random_phase_level(int d) { return core::rope_decay_bound_random_level(d); }

/// The random-phase level as a dotted line across the distances shown (a
/// series, so the legend names it and no label collides with the curves).
void add_random_phase_level(Figure& f, const Setting& s, const Translator& tr) {
  const double level = random_phase_level(s.d);
  const auto positive = std::upper_bound(s.distances.begin(), s.distances.end(), 0.0);
  const double first = s.log_x && positive != s.distances.end() ? *positive : s.distances.front();
  fig::Series line{.name = tr.format("decay.ref.random_phase", {{"v", fig::num(level, 3)}})};
  line.x = {first, s.distances.back()};
  line.y = {level, level};
  line.style = fig::LineStyle::dotted;
  line.width = 1.6f;
  line.color = fig::Color::rgb(0x8a8f96);  // neutral: readable on light and dark themes
  f.series.push_back(std::move(line));
}

/// Fixes the y range so the top of the plot is free for the legend: as many
/// rows as it has entries, in a plot `height` pixels tall (a fixed 40 % of
/// the range left a five-entry legend on the curves in a 400-pixel step view).
void make_legend_room(Figure& f, double height) {
  double lo = 0, hi = 1;
  int entries = 0;
  for (const fig::Series& ser : f.series) {
    entries += !ser.name.empty();
    for (double y : ser.y) lo = std::min(lo, y), hi = std::max(hi, y);
  }
  // About 21 px a legend row plus its padding, in a plot about 130 px
  // shorter than the figure (title, subtitle, x axis).
  const double legend_px = 21.0 * entries + 14, plot_px = std::max(160.0, height - 130);
  const double share = std::clamp(legend_px / plot_px, 0.2, 0.6);  // of the plot's height, at the top
  f.y.min = lo - 0.03 * (hi - lo);
  f.y.max = hi + share / (1 - share) * (hi - lo);
  f.legend = fig::LegendPlace::top_right;
}

/// Curve colours for the bases: the Okabe–Ito palette without its black
/// (unreadable on the dark theme), then a neutral grey.
fig::Color curve_colour(std::size_t k) {
  static constexpr int kOrder[] = {0, 1, 2, 3, 4, 5, 7};
  return k < 7 ? fig::palette_color(kOrder[k]) : fig::Color::rgb(0x9aa0a6);
}

/// A curve of one point is drawn as a marker (a single distance asked for).
void mark_single_points(Figure& f) {
  for (fig::Series& ser : f.series)
    if (ser.x.size() == 1 && ser.kind != fig::SeriesKind::scatter) ser.kind = fig::SeriesKind::scatter, ser.marker = 5;
}

/// The last touches of the RoPE figures (curves, bases): the random-phase
/// level, room for the legend above the curves (a figure `height` px tall),
/// single points as markers.
void finish_rope_figure(Figure& f, const Setting& s, const Translator& tr, double height) {
  add_random_phase_level(f, s, tr);
  make_legend_room(f, height);
  mark_single_points(f);
}

fig::Axis distance_axis(const Setting& s, const Translator& tr) {
  return {.label = tr("decay.axis.distance"), .unit = tr("unit.tokens"),
          .scale = s.log_x ? fig::AxisScale::log : fig::AxisScale::linear, .format = fig::TickFormat::integer};
}

// [SECTION] Figures

/// The RoPE curves at one base, each divided by its value at distance 0:
/// which of them a figure draws (the guided steps bring them in one at a
/// time: the all-ones score, then RoFormer's bound, then its local mean and
/// the random-phase level, and apart from those the random q, k).
struct CurvesShown {
  bool bound = false, trend = false, random = false;
};

fig::Series relative_series(std::string name, const Translator& tr) {
  fig::Series s{.name = std::move(name)};
  s.x_name = tr("decay.readout.distance");
  s.y_name = tr("decay.readout.relative");
  return s;
}

/// The all-ones score ÷ d, grey (the curve every RoPE figure of the lesson starts from).
fig::Series ones_series(const Setting& s, const Translator& tr) {
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(s.d, s.base);
  const std::vector<double> few = sampled(s.distances, score_budget(s.d), s.log_x).r;
  const std::vector<double>& ones_all = *ones_curve(few, s.d, s.base);
  const double ones0 = core::rope_ones_score(0, as_span(theta));
  fig::Series so = relative_series(tr("decay.series.ones"), tr);
  for (std::size_t i = 0; i < few.size(); ++i) so.x.push_back(few[i]), so.y.push_back(ones_all[i] / ones0);
  so.extra = {{tr("decay.readout.score"), "", ones_all}};
  so.width = 1.0f;
  so.color = fig::Color::rgb(0x9aa0a6);
  return so;
}

/// Where pair 0 has turned once: θ₀ = b⁰ = 1 rad per token, so r = 2π. The
/// drawn distance nearest 2π is marked on the ones score, its value in the
/// legend (step 1's answer reads it there), when the axis is linear and
/// short enough to show the point apart from r = 0: 2π at least a twentieth
/// of the range (the reveal's 0:64, not the 0:1024 the question is asked on).
std::optional<fig::Series> first_turn_marker(const Setting& s, const fig::Series& ones, const Translator& tr) {
  constexpr double kTurn = 2 * std::numbers::pi;
  if (s.log_x || ones.x.empty() || kTurn * 20 < ones.x.back() - ones.x.front()) return std::nullopt;
  std::size_t at = 0;
  for (std::size_t i = 1; i < ones.x.size(); ++i)
    if (std::abs(ones.x[i] - kTurn) < std::abs(ones.x[at] - kTurn)) at = i;
  if (std::abs(ones.x[at] - kTurn) > 1) return std::nullopt;  // no drawn distance near one turn
  fig::Series m = relative_series(tr.format("decay.ones.turn", {{"r", fig::num(ones.x[at])}, {"v", fig::num(ones.y[at], 2)}}), tr);
  m.kind = fig::SeriesKind::scatter;
  m.x = {ones.x[at]}, m.y = {ones.y[at]};
  m.marker = 6;
  m.color = fig::palette_color(3);
  return m;
}

Figure rope_curves(const FigureContext& ctx, CurvesShown shown) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(s.d, s.base);
  Figure f;
  f.x = distance_axis(s, tr);
  f.y = {.label = tr("decay.axis.relative")};
  const std::string d_base = fig::join_dot({"d = " + fig::num(s.d), "b = " + fig::num(s.base)});
  fig::Series so = ones_series(s, tr);
  if (shown.random) {
    f.title = tr("decay.random.title");
    f.subtitle = fig::join_dot({d_base, tr.format("decay.random.subtitle", {{"samples", fig::num(s.samples)}})});
    const std::vector<double> rare = sampled(s.distances, random_budget(s.d, s.samples), s.log_x).r;
    const std::vector<double>& random =
        *memo().get("random d=" + std::to_string(s.d) + " base=" + exact(s.base) + " seed=" + std::to_string(s.seed) +
                        " samples=" + std::to_string(s.samples),
                    rare, [&] {
                      std::vector<double> out(rare.size());
                      core::rope_random_mean_abs_score_curve(rare, s.d, s.base, s.seed, s.samples, out);
                      return out;
                    });
    // Random q, k ~ N(0, I_d): score(r) has variance d at every r (each pair
    // contributes A_i cos + B_i sin with Var A_i = Var B_i = 2, uncorrelated),
    // so E|score| ≈ √(2d/π) for large d, whatever r — at r = 0 too, so the
    // curve is drawn relative to r = 0 as the others are, without its own
    // (noisy) value there.
    const double random_scale = std::sqrt(2.0 * s.d / std::numbers::pi);
    fig::Series sr = relative_series(tr.format("decay.series.random", {{"n", fig::num(s.samples)}}), tr);
    for (std::size_t i = 0; i < rare.size(); ++i) sr.x.push_back(rare[i]), sr.y.push_back(random[i] / random_scale);
    sr.extra = {{tr("decay.readout.mean_abs"), "", random}};
    sr.color = fig::palette_color(2);
    sr.width = 1.6f;
    f.series = {std::move(so), std::move(sr)};
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0, .style = fig::LineStyle::solid});
    make_legend_room(f, ctx.height);
    mark_single_points(f);
    return f;
  }
  if (!shown.bound) {
    f.title = tr("decay.ones.title");
    f.subtitle = fig::join_dot({d_base, tr("decay.ones.subtitle")});
    so.width = 1.8f;  // alone, it is the figure
    std::optional<fig::Series> turn = first_turn_marker(s, so, tr);
    f.series = {std::move(so)};
    if (turn) f.series.push_back(std::move(*turn));
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0, .style = fig::LineStyle::solid});
    make_legend_room(f, ctx.height);
    mark_single_points(f);
    return f;
  }
  f.title = tr(shown.trend ? "decay.curves.title" : "decay.bound.title");
  f.subtitle = fig::join_dot({d_base, tr.format("decay.curves.subtitle", {{"lo", fig::num(s.distances.front())},
                                                                        {"hi", fig::num(s.distances.back())}})});
  const std::vector<double>& full = full_distances(s).r;
  const std::vector<double>& bound = *bound_curve(full, s.d, s.base);
  const double bound0 = core::rope_decay_bound(0, as_span(theta));
  fig::Series sb = relative_series(tr("decay.series.bound"), tr);
  for (std::size_t i = 0; i < full.size(); ++i) sb.x.push_back(full[i]), sb.y.push_back(bound[i] / bound0);
  sb.extra = {{tr("decay.readout.bound"), "", bound}};
  sb.color = fig::palette_color(0).with_alpha(shown.trend ? 0.45f : 1.0f);
  sb.width = shown.trend ? 1.2f : 1.6f;
  f.series = {std::move(so), std::move(sb)};
  if (shown.trend) {
    // The bound's trend and where it is lowest.
    const Trend trend = local_mean(s, s.base);
    fig::Series st = relative_series(trend_name(tr, trend.stride), tr);
    for (std::size_t i = 0; i < trend.x.size(); ++i) st.x.push_back(trend.x[i]), st.y.push_back(trend.y[i] / bound0);
    st.color = fig::palette_color(0);
    st.width = 3.0f;
    const std::size_t at = argmin(st.y);
    fig::Series lowest = relative_series(tr.format("decay.curves.minimum", {{"r", fig::num(st.x[at])}}), tr);
    lowest.kind = fig::SeriesKind::scatter;
    lowest.x = {st.x[at]}, lowest.y = {st.y[at]};
    lowest.marker = 6;
    lowest.color = fig::palette_color(3);
    f.series.push_back(std::move(st));
    f.series.push_back(std::move(lowest));
  }
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0, .style = fig::LineStyle::solid});
  if (shown.trend) add_random_phase_level(f, s, tr);
  make_legend_room(f, ctx.height);
  mark_single_points(f);
  return f;
}

/// The all-ones score alone.
Figure ones(const FigureContext& ctx) { return rope_curves(ctx, {}); }
/// The all-ones score and RoFormer's bound.
Figure bound(const FigureContext& ctx) { return rope_curves(ctx, {.bound = true}); }
/// The bound with its local mean, where that is lowest, and the random-phase level.
Figure curves(const FigureContext& ctx) { return rope_curves(ctx, {.bound = true, .trend = true}); }
/// The all-ones score beside the mean |q′·k′| of seeded random q, k.
Figure random_vectors(const FigureContext& ctx) { return rope_curves(ctx, {.random = true}); }

/// The bound for every base, each divided by its value at 0 (the same for
/// every base: (d/2 + 1)/2): the raw bound faint, its local mean bold, and
/// where each local mean is lowest.
Figure bases(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const Sampled sampled_full = full_distances(s);
  const std::vector<double>& full = sampled_full.r;
  const double bound0 = (s.d / 2 + 1) / 2.0;
  Figure f;
  f.title = tr("decay.bases.title");
  f.x = distance_axis(s, tr);
  f.y = {.label = tr("decay.axis.bound_relative")};
  fig::Series minima{.name = tr("decay.bases.minima"), .kind = fig::SeriesKind::scatter};
  minima.marker = 6;
  minima.color = fig::Color::rgb(0x8a8f96);
  std::vector<double> minima_base;
  std::vector<fig::Series> raw, trends;
  long long stride = 1;
  for (std::size_t b = 0; b < s.bases.size(); ++b) {
    const std::vector<double>& bound = *bound_curve(full, s.d, s.bases[b]);
    fig::Series ser;
    for (std::size_t i = 0; i < full.size(); ++i) ser.x.push_back(full[i]), ser.y.push_back(bound[i] / bound0);
    ser.extra = {{tr("decay.readout.bound"), "", bound}};
    ser.data_name = tr.format("decay.bases.raw", {{"base", fig::num(s.bases[b])}});  // faint, not in the legend
    ser.color = curve_colour(b).with_alpha(0.3f);
    ser.width = 1.0f;
    const Trend trend = local_mean(s, s.bases[b]);
    stride = trend.stride;  // the same for every base (it depends on d and the distances)
    fig::Series mean;
    for (std::size_t i = 0; i < trend.x.size(); ++i) mean.x.push_back(trend.x[i]), mean.y.push_back(trend.y[i] / bound0);
    // The legend says where each base's local mean is lowest (the marker's r).
    mean.name = tr.format("decay.bases.series", {{"base", fig::num(s.bases[b])}, {"r", fig::num(mean.x[argmin(mean.y)])}});
    mean.color = curve_colour(b);
    mean.width = 2.8f;
    for (fig::Series* x : {&ser, &mean}) {
      x->x_name = tr("decay.readout.distance");
      x->y_name = tr("decay.readout.relative");
    }
    const std::size_t at = argmin(mean.y);
    minima.x.push_back(mean.x[at]), minima.y.push_back(mean.y[at]), minima_base.push_back(s.bases[b]);
    raw.push_back(std::move(ser));
    trends.push_back(std::move(mean));
  }
  f.subtitle = stride == 1 ? tr.format("decay.bases.subtitle", {{"d", fig::num(s.d)}})
                           : tr.format("decay.bases.subtitle_every", {{"d", fig::num(s.d)}, {"k", fig::num(static_cast<double>(stride))}});
  minima.x_name = tr("decay.readout.distance");
  minima.y_name = tr("decay.readout.relative");
  minima.extra = {{tr("decay.readout.base"), "", minima_base}};
  for (auto& x : raw) f.series.push_back(std::move(x));
  for (auto& x : trends) f.series.push_back(std::move(x));
  f.series.push_back(std::move(minima));
  finish_rope_figure(f, s, tr, ctx.height);
  return f;
}

/// Every method on one distance axis as ONE quantity: the softmax weight a
/// key at distance r gets relative to the key at distance 0 for equal
/// content, exp(s(r) − s(0)) (decay::relative_weight, q = k = 1, logits
/// q′·k′/√d + bias): RoPE, xPos, ALiBi and Gaussian-kernel RoPE. T5 is not
/// drawn: its bias per bucket is learned (the subtitle says so; its buckets
/// have their own lesson and readout).
Figure compare(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const Setting s = setting(p);
  const std::vector<double> few = sampled(s.distances, score_budget(s.d), s.log_x).r;
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(s.d, s.base);
  const decay::Methods others = decay::methods(p);
  const double gamma = others.xpos_gamma, scale_base = others.xpos_scale_base;
  const core::GaussianKernel& kernel = others.kernel;
  const double root_d = std::sqrt(static_cast<double>(s.d));

  Figure f;
  f.title = tr("decay.compare.title");
  f.subtitle = fig::join_dot({"d = " + fig::num(s.d), "b = " + fig::num(s.base), tr("decay.compare.subtitle")});
  f.x = distance_axis(s, tr);
  // A log axis: the weights span many orders of magnitude (q = k = 1 makes the
  // softmax sharp), and on a linear axis every curve is 0 after ten tokens.
  f.y = {.label = tr("decay.axis.weight"), .scale = fig::AxisScale::log, .min = 1e-12, .max = 2};
  auto series = [&](const char* name_key, std::vector<std::pair<std::string, std::string>> args, int colour) {
    fig::Series ser{.name = tr.format(name_key, std::move(args))};
    ser.color = fig::palette_color(colour);
    ser.x_name = tr("decay.readout.distance");
    ser.y_name = tr("decay.readout.weight");
    return ser;
  };
  // Plain names: the symbols of xPos and of the Gaussian kernel are met in
  // later steps and lessons; the sliders and readouts carry their values.
  fig::Series rope = series("decay.compare.rope_ones", {{"base", fig::num(s.base)}}, 0);
  fig::Series xpos = series("decay.compare.xpos", {}, 2);
  fig::Series alibi = series("decay.compare.alibi", {{"h", fig::num(others.head)}, {"m", fig::num(others.slope, 3)}}, 1);
  fig::Series gauss = series("decay.compare.gaussian", {}, 4);
  const std::vector<double>& ones_all = *ones_curve(few, s.d, s.base);
  const std::vector<double>& xpos_all =
      *memo().get("xpos d=" + std::to_string(s.d) + " base=" + exact(s.base) + " gamma=" + exact(gamma) +
                      " B=" + exact(scale_base),
                  few, [&] {
                    std::vector<double> out(few.size());
                    core::xpos_ones_score_curve(few, s.d, s.base, gamma, scale_base, out);
                    return out;
                  });
  const double ones0 = core::rope_ones_score(0, as_span(theta));
  const double xpos0 = core::xpos_ones_score(0, s.d, s.base, gamma, scale_base);
  std::vector<double> rope_logit, xpos_logit, alibi_bias, gauss_logit;
  for (std::size_t i = 0; i < few.size(); ++i) {
    const double r = few[i];
    const double k_r = kernel(r);
    const double dr = (ones_all[i] - ones0) / root_d, dx = (xpos_all[i] - xpos0) / root_d;
    const double da = others.bias(r), dg = decay::gaussian_delta(others, k_r, ones_all[i], s.d);
    rope.x.push_back(r), rope.y.push_back(decay::relative_weight(dr)), rope_logit.push_back(dr);
    xpos.x.push_back(r), xpos.y.push_back(decay::relative_weight(dx)), xpos_logit.push_back(dx);
    alibi.x.push_back(r), alibi.y.push_back(decay::relative_weight(da)), alibi_bias.push_back(da);
    gauss.x.push_back(r), gauss.y.push_back(decay::relative_weight(dg)), gauss_logit.push_back(dg);
  }
  const std::string delta = tr("decay.readout.logit_delta");
  rope.extra = {{delta, "", rope_logit}};
  xpos.extra = {{delta, "", xpos_logit}};
  alibi.extra = {{delta, "", alibi_bias}};
  gauss.extra = {{delta, "", gauss_logit}};
  rope.width = 2.6f;
  f.series = {std::move(rope), std::move(xpos), std::move(alibi), std::move(gauss)};
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0, .style = fig::LineStyle::solid});
  f.y.min = 0;
  f.y.max = 1.45;  // room for the legend above the curves, which all start at 1
  f.legend = fig::LegendPlace::automatic;  // where the curves leave room (log y: the top is not always free)
  mark_single_points(f);
  return f;
}

// [SECTION] Readouts

/// RoPE's bound in numbers: the bound and the ones score at 0, the
/// inequality on seeded pairs, the trend's minimum and tail, each compared
/// base's minimum.
std::vector<Readout> rope_readouts(const Setting& s, const Translator& tr) {
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(s.d, s.base);
  std::vector<Readout> out;

  // At distance 0 every S_j = j, so the bound is (1/(d/2))·Σ j = (d/2 + 1)/2;
  // the ones score is Σ 2cos 0 = d.
  const double bound0 = core::rope_decay_bound(0, as_span(theta)), expected0 = (s.d / 2 + 1) / 2.0;
  out.push_back({tr("decay.readout.bound0_label"), fig::num(bound0, 8), bound0, std::abs(bound0 - expected0) <= 1e-12 * expected0});
  const double ones0 = core::rope_ones_score(0, as_span(theta));
  out.push_back({tr("decay.readout.ones0_label"), fig::num(ones0, 8), ones0, std::abs(ones0 - s.d) <= 1e-12 * s.d});

  // RoFormer's inequality on seeded random q, k (the same pairs as the curve):
  // |⟨R_0 q, R_r k⟩| <= max_i |h_{i+1} − h_i| · Σ_j |S_j(r)|, h_i = q_i·conj(k_i)
  // over complex pairs, h_{d/2} = 0. The readout is the largest ratio seen.
  // The distances checked are among those the bound curve is computed at (so
  // Σ_j |S_j(r)| comes from it), and the score is written per pair as
  // ⟨R_0 q, R_r k⟩ = Σ_i A_i cos(r θ_i) + B_i sin(r θ_i) with
  // A_i = q_2i k_2i + q_2i+1 k_2i+1, B_i = q_2i+1 k_2i − q_2i k_2i+1 (RoPE's
  // rotation of k expanded), so cos and sin are taken once per distance.
  const Sampled sampled_full = full_distances(s);
  const std::vector<double>& full = sampled_full.r;
  const std::vector<double>& full_bound = *bound_curve(full, s.d, s.base);
  const std::vector<double> checked = spread(full, inequality_budget(s.d), s.log_x);
  const auto half = static_cast<std::size_t>(s.d / 2);
  Eigen::MatrixXd cos_rt(static_cast<Eigen::Index>(half), static_cast<Eigen::Index>(checked.size()));
  Eigen::MatrixXd sin_rt(cos_rt.rows(), cos_rt.cols());
  std::vector<double> checked_bound(checked.size());
  for (std::size_t c = 0; c < checked.size(); ++c) {
    const auto col = static_cast<Eigen::Index>(c);
    for (std::size_t i = 0; i < half; ++i) {
      const double angle = checked[c] * theta[static_cast<Eigen::Index>(i)];
      cos_rt(static_cast<Eigen::Index>(i), col) = std::cos(angle);
      sin_rt(static_cast<Eigen::Index>(i), col) = std::sin(angle);
    }
    const auto at = std::lower_bound(full.begin(), full.end(), checked[c]) - full.begin();
    checked_bound[c] = full_bound[static_cast<std::size_t>(at)];
  }
  double worst = 0;
  for (int smp = 0; smp < std::min(s.samples, kInequalitySamples); ++smp) {
    Eigen::VectorXd q(s.d), k(s.d);
    for (int j = 0; j < s.d; ++j) {
      q[j] = core::random_normal(s.seed, static_cast<std::uint64_t>(2 * smp), static_cast<std::uint64_t>(j));
      k[j] = core::random_normal(s.seed, static_cast<std::uint64_t>(2 * smp + 1), static_cast<std::uint64_t>(j));
    }
    double max_step = 0;
    for (std::size_t i = 0; i < half; ++i) {
      const std::complex<double> h(q[2 * i] * k[2 * i] + q[2 * i + 1] * k[2 * i + 1], q[2 * i + 1] * k[2 * i] - q[2 * i] * k[2 * i + 1]);
      std::complex<double> next = 0;
      if (i + 1 < half)
        next = {q[2 * i + 2] * k[2 * i + 2] + q[2 * i + 3] * k[2 * i + 3], q[2 * i + 3] * k[2 * i + 2] - q[2 * i + 2] * k[2 * i + 3]};
      max_step = std::max(max_step, std::abs(next - h));
    }
    Eigen::VectorXd a(static_cast<Eigen::Index>(half)), b(static_cast<Eigen::Index>(half));
    for (std::size_t i = 0; i < half; ++i) {
      const auto e = static_cast<Eigen::Index>(i);
      a[e] = q[2 * e] * k[2 * e] + q[2 * e + 1] * k[2 * e + 1];
      b[e] = q[2 * e + 1] * k[2 * e] - q[2 * e] * k[2 * e + 1];
    }
    const Eigen::VectorXd scores = cos_rt.transpose() * a + sin_rt.transpose() * b;
    for (std::size_t c = 0; c < checked.size(); ++c) {
      const double limit = max_step * static_cast<double>(half) * checked_bound[c];
      if (limit > 0) worst = std::max(worst, std::abs(scores[static_cast<Eigen::Index>(c)]) / limit);
    }
  }
  out.push_back({tr("decay.readout.inequality_label"),
                 tr.format("decay.readout.inequality_value", {{"v", fig::num(worst, 3)}, {"n", fig::num(static_cast<double>(checked.size()))}}),
                 worst, worst <= 1 + 1e-9});

  // The bound's trend (local mean): where it is lowest, and where it settles
  // over the last decade of distances shown (r_max/10 .. r_max), next to the
  // random-phase level.
  const Trend trend = local_mean(s, s.base);
  const std::size_t at = argmin(trend.y);
  // The labels say the range searched: the steps cite the minima over 0 … 65,536.
  const std::vector<std::pair<std::string, std::string>> range = {{"lo", fig::num(s.distances.front())},
                                                                  {"hi", fig::num(s.distances.back())}};
  out.push_back({tr.format("decay.readout.minimum_label", range),
                 tr.format("decay.readout.minimum_value", {{"v", fig::num(trend.y[at] / bound0, 3)}, {"r", fig::num(trend.x[at])}}),
                 trend.x[at], std::nullopt});
  double tail = 0;
  int count = 0;
  for (std::size_t i = 0; i < trend.x.size(); ++i)
    if (trend.x[i] >= trend.x.back() / 10) tail += trend.y[i] / bound0, ++count;
  tail /= std::max(count, 1);
  out.push_back({tr("decay.readout.tail_label"),
                 tr.format("decay.readout.tail_value", {{"v", fig::num(tail, 3)}, {"lo", fig::num(std::round(trend.x.back() / 10))},
                                                        {"hi", fig::num(trend.x.back())}, {"level", fig::num(random_phase_level(s.d), 3)}}),
                 tail, std::nullopt});
  for (std::size_t b = 1; b < s.bases.size(); ++b) {
    const Trend other = local_mean(s, s.bases[b]);
    const std::size_t j = argmin(other.y);
    out.push_back({tr.format("decay.readout.base_minimum_label",
                             {{"base", fig::num(s.bases[b])}, range[0], range[1]}),
                   tr.format("decay.readout.minimum_value", {{"v", fig::num(other.y[j] / bound0, 3)}, {"r", fig::num(other.x[j])}}),
                   other.x[j], std::nullopt});
  }
  return out;
}

/// rope_readouts remembered by what they are computed from, as the curves
/// are (CurveMemo): the same inputs give the same rows. They read only the
/// Setting, yet are most of the readouts' work (~35 ms natively at the
/// maxima, 50–85 ms in the page), and the readouts are rebuilt whenever a
/// key they read changes — the other methods' too (alpha1, sigma1, head, …):
/// in the page those rebuilds held the worker, and figures queued behind
/// them trailed the slider by ~40 ms though each built in ~1 ms. Thread-safe;
/// the last kEntries kept.
class RopeReadoutsMemo {
 public:
  std::vector<Readout> get(const Setting& s, const Translator& tr) {
    const auto same = [&](const Entry& e) {
      return e.tr == &tr && e.lang == tr.lang() && e.s.d == s.d && e.s.base == s.base && e.s.bases == s.bases &&
             e.s.distances == s.distances && e.s.log_x == s.log_x && e.s.seed == s.seed && e.s.samples == s.samples;
    };
    {
      const std::lock_guard lock(mutex_);
      for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (same(*it)) {
          entries_.splice(entries_.begin(), entries_, it);  // most recently used first
          return entries_.front().rows;
        }
    }
    std::vector<Readout> rows = rope_readouts(s, tr);
    const std::lock_guard lock(mutex_);
    entries_.push_front({&tr, tr.lang(), s, rows});
    if (entries_.size() > kEntries) entries_.pop_back();
    return rows;
  }

 private:
  static constexpr std::size_t kEntries = 8;
  struct Entry {
    const Translator* tr;  ///< the texts the rows were written with (and their language)
    std::string lang;
    Setting s;
    std::vector<Readout> rows;
  };
  std::mutex mutex_;
  std::list<Entry> entries_;
};

std::vector<Readout> readouts(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const Setting s = setting(p);
  static RopeReadoutsMemo memo;
  std::vector<Readout> out = memo.get(s, ctx.tr);
  const auto& tr = ctx.tr;

  // The other methods in one number each.
  const decay::Methods others = decay::methods(p);
  out.push_back({tr.format("decay.readout.alibi_label", {{"h", fig::num(others.head)}}),
                 tr.format("decay.readout.tokens", {{"n", fig::num(std::numbers::ln2 / others.slope, 4)}}),
                 std::numbers::ln2 / others.slope, std::nullopt});
  long long from = 0;
  for (const auto& r : core::t5_bucket_ranges(others.t5.bidirectional, others.t5.buckets, others.t5.max_distance))
    if (r.first == LLONG_MIN) from = -r.last;
  out.push_back({tr("decay.readout.t5_label"), tr.format("decay.readout.tokens", {{"n", fig::num(static_cast<double>(from))}}),
                 static_cast<double>(from), std::nullopt});
  const double gamma = others.xpos_gamma, scale_base = others.xpos_scale_base;
  const double fast = scale_base * std::log(0.5) / std::log(core::xpos_zeta(0, s.d, gamma));
  const double slow = scale_base * std::log(0.5) / std::log(core::xpos_zeta(s.d / 2 - 1, s.d, gamma));
  out.push_back({tr("decay.readout.xpos_label"),
                 tr.format("decay.readout.xpos_value", {{"fast", fig::num(std::round(fast))}, {"slow", fig::num(std::round(slow))}}), fast, std::nullopt});
  const double cutoff = core::gaussian_kernel_cutoff(others.kernel, 0.01);
  out.push_back({tr("decay.readout.gaussian_label"),
                 cutoff >= 0 ? tr.format("decay.readout.tokens", {{"n", fig::num(cutoff, 4)}}) : tr("decay.readout.no_peak"),
                 cutoff, std::nullopt});
  return out;
}

/// The random curve averages `samples` seeded pairs at no fewer than
/// kMinRandomDistances distances: samples × d/2 × kMinRandomDistances pair
/// products (and samples × 2d seeded normals), within kRandomWork when
/// samples × d ≤ 2^19 (d = 128: 4,096 samples; d = 1024: 512; d = 8192: 64).
void view_budget(const core::Params& p) {
  const double d = static_cast<double>(p.integer("d"));
  check_budget(p, "samples", static_cast<double>(p.integer("samples")), {[d](double samples) {
                 return BudgetUse{BudgetKind::work, "samples × d",
                                  core::format_number(samples) + " × " + core::format_number(d), samples * d,
                                  2 * kRandomWork / static_cast<double>(kMinRandomDistances)};
               }});
}

}  // namespace

// [SECTION] The view

ViewDef decay_view() {
  return {.id = "decay",
          .group = "rotary",
          .keys = {"d", "base", "bases", "distance", "log_x", "seed", "samples", "heads", "head", "buckets",
                   "bucket_max_distance", "bidirectional", "xpos_gamma", "xpos_scale_base", "alpha1", "alpha2", "sigma1",
                   "sigma2"},
          .defaults = {{"distance", "0:65536"}, {"log_x", "true"}, {"bases", "100,10000,500000"}},
          .figures = {{"ones", ones},
                      {"bound", bound},
                      {"curves", curves},
                      {"random", random_vectors},
                      {"bases", bases},
                      {"compare", compare}},
          .tables = {"rope-decay", "decay-compare", "decay-bases"},
          .readouts = readouts,
          .budget = view_budget};
}

}  // namespace poslab::app
