// Lesson "t5": T5 relative-position buckets (Raffel et al. 2020 §2.1; HF
// transformers T5Attention._relative_position_bucket, via core/t5.hpp).
// A learned scalar bias per (bucket, head) is added to the attention logits;
// the bucket of key − query is exact for small distances, logarithmic up to
// max_distance, then one open-ended bucket per side.
//
// [SECTION] Index
// - Setting (T5's buckets: lessons/common/setting.hpp) and the bucket lookup
//   (exact ranges from core)
// - The notes' variant (the source notes' 《position embedding 概述》 §2.4)
// - Figures: buckets, matrix, usage, notes
// - Readouts
// - The view

#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>
#include <iterator>
#include <set>
#include <span>
#include <string>
#include <tuple>

#include "app/plot/figure_text.hpp"
#include "app/lessons/common/memo.hpp"
#include "app/lessons/common/setting.hpp"
#include "app/lessons/common/figures.hpp"
#include "app/lessons/lesson.hpp"
#include "poslab/core/t5.hpp"

namespace poslab::app {

namespace {

using fig::Figure;

// [SECTION] Setting and the bucket lookup

/// The readouts scan core's bucket function at every |key − query| up to this
/// (the defaults' 160 tokens and 4·max_distance = 512 entirely); farther they
/// check one witness per bucket range and every range edge.
constexpr long long kScanned = 4096;
/// T5's own max distance (Raffel et al. 2020; the parameter's default).
constexpr int kT5MaxDistance = 128;
/// Bucket lookups remembered (a setting and its causal twin, and a few more).
constexpr std::size_t kLookupMemoEntries = 6;

/// T5's buckets (lessons::t5_buckets) and the positions shown.
struct Setting : lessons::T5Buckets {
  long long positions;
};

Setting setting(const core::Params& p) { return {lessons::t5_buckets(p), p.integer("positions")}; }

/// key − query → its bucket range. The ranges are core::t5_bucket_ranges
/// (found by bisection on core::t5_relative_bucket, so exact, float32 edges
/// included); they partition the integers, so a binary search on `first`
/// finds the bucket of any relative position without re-running the float32
/// formula per pixel. test_t5_lesson checks it against core at random points.
class BucketLookup {
 public:
  explicit BucketLookup(const Setting& s)
      : ranges_(core::t5_bucket_ranges(s.bidirectional, s.buckets, s.max_distance)) {
    std::sort(ranges_.begin(), ranges_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  const core::T5BucketRange& range_of(long long rp) const {
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), rp,
                               [](long long v, const core::T5BucketRange& r) { return v < r.first; });
    return *(it == ranges_.begin() ? it : it - 1);
  }
  int bucket(long long rp) const { return range_of(rp).bucket; }
  const std::vector<core::T5BucketRange>& ranges() const { return ranges_; }
  /// The buckets of rps[c] into out[c] for ascending rps: one walk along the
  /// ranges instead of a search per value (a heatmap row).
  void buckets_ascending(std::span<const long long> rps, std::span<float> out) const {
    if (rps.empty()) return;
    auto it = ranges_.begin() + (&range_of(rps[0]) - ranges_.data());
    for (std::size_t c = 0; c < rps.size(); ++c) {
      while (it + 1 != ranges_.end() && (it + 1)->first <= rps[c]) ++it;
      out[c] = static_cast<float>(it->bucket);
    }
  }
  /// Distinct buckets of an N-token sequence: the ranges meeting
  /// [−(N − 1), N − 1] (core::t5_distinct_buckets, on ranges already at hand).
  int used(long long positions) const {
    const long long reach = positions - 1;
    return static_cast<int>(std::count_if(ranges_.begin(), ranges_.end(),
                                          [&](const auto& r) { return r.first <= reach && r.last >= -reach; }));
  }

 private:
  std::vector<core::T5BucketRange> ranges_;
};

/// The lookup of a setting, computed once (core's bisection over every
/// bucket) and shared by the figures and readouts that move with it: a memo
/// of a pure function, the most recently used few. Thread-safe.
std::shared_ptr<const BucketLookup> lookup_for(const Setting& s) {
  using Key = std::tuple<bool, int, int>;
  static lessons::Memo<Key, BucketLookup, kLookupMemoEntries> memo;
  return memo.get(Key{s.bidirectional, s.buckets, s.max_distance}, [&] { return std::make_shared<const BucketLookup>(s); });
}

/// The smallest |key − query| of the open-ended bucket on the side of
/// key <= query (T5-base: 91, although max_distance is 128: the formula
/// reaches the last bucket before max_distance and the clamp keeps it there).
long long last_bucket_from(const BucketLookup& look) {
  return -look.range_of(LLONG_MIN).last;
}

/// The relative positions of the `relative` list, sorted, without repeats
/// (a million of them in a few milliseconds: ranges come sorted).
std::vector<long long> relative_positions(const core::Params& p) {
  const std::vector<double> list = p.list("relative");
  std::vector<long long> u(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) u[i] = static_cast<long long>(list[i]);
  if (!std::is_sorted(u.begin(), u.end())) std::sort(u.begin(), u.end());
  u.erase(std::unique(u.begin(), u.end()), u.end());
  return u;
}

/// Up to this many relative positions a figure draws every one; beyond, the
/// two ends of each run of equal buckets (the same staircase, exactly, in
/// a few points per bucket: a long list is drawn from its runs, not point by
/// point).
constexpr std::size_t kDrawnPoints = 4096;

/// Calls emit(i, j) for each maximal run xs[i..j] on which f is constant, for
/// an f whose values never come back once they change along the sorted xs
/// (a monotone step function, or a pair of them moving the same way): the end
/// of each run by bisection, O(runs · log n) evaluations of f.
template <class F, class Emit>
void for_each_run(std::span<const long long> xs, F f, Emit emit) {
  for (std::size_t i = 0; i < xs.size();) {
    const auto v = f(xs[i]);
    std::size_t lo = i, hi = xs.size();  // f(xs[lo]) == v; f(xs[hi]) != v or hi = end
    while (hi - lo > 1) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (f(xs[mid]) == v) lo = mid;
      else hi = mid;
    }
    emit(i, lo);
    i = lo + 1;
  }
}

/// The positions of `xs` (sorted) a figure draws for a bucket function that
/// is monotone on each side of 0 (T5's, either form): all of them up to
/// kDrawnPoints, else the ends of each run.
template <class F>
std::vector<long long> drawn_positions(const std::vector<long long>& xs, F bucket_of) {
  if (xs.size() <= kDrawnPoints) return xs;
  std::vector<long long> out;
  const auto zero = static_cast<std::size_t>(std::lower_bound(xs.begin(), xs.end(), 0LL) - xs.begin());
  for (const std::span<const long long> side : {std::span<const long long>(xs).first(zero), std::span<const long long>(xs).subspan(zero)})
    for_each_run(side, bucket_of, [&](std::size_t i, std::size_t j) {
      out.push_back(side[i]);
      if (j != i) out.push_back(side[j]);
    });
  return out;
}

// [SECTION] The notes' variant (《position embedding 概述》 §2.4, T5RelativePositionBias)
//
//   n = max(−relative_position, 0)                      # no bidirectional branch
//   max_exact = num_buckets // 2
//   val_if_large = max_exact + (torch.log(n.float() / max_exact)
//                  / torch.log(torch.tensor(num_buckets / max_exact))   # not max_distance
//                  * (num_buckets − max_exact)).to(torch.long)
//   min(val_if_large, num_buckets − 1); where(n < max_exact, n, val_if_large)
//
// Two departures from the reference: it is the causal (decoder) form only, and
// it divides by log(num_buckets / max_exact) = log 2 instead of
// log(max_distance / max_exact), so it saturates at n ≈ num_buckets − 1 and
// max_distance plays no part. Float32 steps as torch runs them.
int notes_bucket(long long relative_position, int num_buckets) {
  const long long n = std::max(-relative_position, 0LL);
  const int max_exact = num_buckets / 2;
  if (n < max_exact) return static_cast<int>(n);
  const float ratio = static_cast<float>(n) / static_cast<float>(max_exact);
  const float denominator = std::log(static_cast<float>(static_cast<double>(num_buckets) / max_exact));
  const float large = std::log(ratio) / denominator * static_cast<float>(num_buckets - max_exact);
  return static_cast<int>(std::min<long long>(max_exact + static_cast<long long>(large), num_buckets - 1));
}

/// The smallest distance n the notes' code puts in its last bucket.
long long notes_last_bucket_from(int num_buckets) {
  long long n = 0;
  while (notes_bucket(-n, num_buckets) < num_buckets - 1) ++n;  // n <= num_buckets: log2(n/me)·me >= me − 1
  return n;
}

/// The causal (decoder) setting the notes' code is compared with: the same
/// buckets, max_distance raised to buckets/2 + 1 if needed (the causal exact
/// range is buckets/2, twice the bidirectional one).
Setting causal_setting(const Setting& s) {
  return {{s.buckets, std::max(s.max_distance, s.buckets / 2 + 1), false}, s.positions};
}

std::string mode_text(const Setting& s, const Translator& tr) {
  return s.bidirectional ? tr("t5.bidirectional") : tr("t5.causal");
}

/// The relative positions the buckets figure draws: those of `relative`, the
/// first distance of every bucket between the ends, and the ends themselves,
/// which reach at least 1.25·D on each side that has its own buckets (keys
/// before the query always; after it in the encoder).
std::vector<long long> shown_positions(const core::Params& p, const Setting& s, const BucketLookup& look) {
  const auto rel = relative_positions(p);
  const auto reach = static_cast<long long>(std::ceil(1.25 * static_cast<double>(s.max_distance)));
  const long long lo = std::min(rel.front(), -reach), hi = s.bidirectional ? std::max(rel.back(), reach) : rel.back();
  std::set<long long> out(rel.begin(), rel.end());
  out.insert(lo), out.insert(hi);
  for (const core::T5BucketRange& r : look.ranges()) {
    if (r.first != LLONG_MIN && r.first > lo && r.first < hi) out.insert(r.first);
    if (r.last != LLONG_MAX && r.last > lo && r.last < hi) out.insert(r.last);  // the open-ended ones span too
  }
  return {out.begin(), out.end()};
}

// [SECTION] Figures

/// Bucket of every distance r = m − n as a staircase, plotted against r (the
/// course's sign: keys before the query at r > 0), although T5's code buckets
/// key − query = −r: each point is the bucket of rp = −r, only the axis is
/// mirrored. Hover shows the exact range of distances sharing the bucket. The
/// open-ended buckets (everything beyond the last edge) are series of their own.
Figure buckets(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const std::shared_ptr<const BucketLookup> shared = lookup_for(s);
  const BucketLookup& look = *shared;
  Figure f;
  f.title = tr("t5.buckets.title");
  f.subtitle = tr.format("t5.buckets.subtitle", {{"nb", fig::num(s.buckets)}, {"maxd", fig::num(s.max_distance)},
                                                 {"mode", mode_text(s, tr)}});
  f.x = {.label = tr("t5.axis.relative"),
         .scale = ctx.params.boolean("log_x") ? fig::AxisScale::symlog : fig::AxisScale::linear,
         .format = fig::TickFormat::integer};
  f.y = {.label = tr("t5.axis.bucket"), .min = -0.5, .max = s.buckets + 1.5, .format = fig::TickFormat::integer};
  const long long from = last_bucket_from(look);
  fig::Series closed{.name = tr("t5.buckets.series"), .kind = fig::SeriesKind::step};
  // The open-ended buckets, one polyline per side so no step joins them:
  // keys before the query (r ≥ from; T5's key − query ≤ −from), and keys
  // after it (encoder: its last bucket; decoder: bucket 0 for every r ≤ 0).
  fig::Series open_before{.name = tr.format(s.bidirectional ? "t5.buckets.series_open" : "t5.buckets.series_open_causal",
                                            {{"n", fig::num(static_cast<double>(from))}}),
                          .kind = fig::SeriesKind::step};
  fig::Series open_after{.kind = fig::SeriesKind::step};
  // In the legend with open_before; its own name for the CSV.
  open_after.data_name = s.bidirectional ? tr.format("t5.buckets.series_after", {{"n", fig::num(static_cast<double>(from))}})
                                         : tr("t5.buckets.series_after_causal");
  open_before.color = open_after.color = fig::palette_color(3);
  std::vector<double> first, last, size, before_from, after_to;
  // The axis always reaches 1.25·D on each side that has buckets, so the
  // open-ended buckets stay on screen whatever D is; the staircase is drawn
  // exactly (a point at the first and last distance of every bucket in view)
  // and the positions of `relative` are points of it too (their hover
  // readouts); a long list is drawn as its bucket runs (drawn_positions).
  // Positions are T5's key − query, ascending; the figure walks them
  // backwards, so r = −(key − query) ascends as the post steps need.
  const std::vector<long long> all = shown_positions(ctx.params, s, look);
  const auto r_lo = -static_cast<double>(all.back()), r_hi = -static_cast<double>(all.front());
  const auto rel = drawn_positions(all, [&](long long rp) { return look.bucket(rp); });
  for (auto it = rel.rbegin(); it != rel.rend(); ++it) {
    const long long rp = *it;
    const auto r = -static_cast<double>(rp);
    const core::T5BucketRange& range = look.range_of(rp);
    if (range.first == LLONG_MIN) {
      open_before.x.push_back(r), open_before.y.push_back(range.bucket);
      before_from.push_back(-static_cast<double>(range.last));
    } else if (range.last == LLONG_MAX) {
      open_after.x.push_back(r), open_after.y.push_back(range.bucket);
      after_to.push_back(-static_cast<double>(range.first));
    } else {
      closed.x.push_back(r), closed.y.push_back(range.bucket);
      first.push_back(-static_cast<double>(range.last)), last.push_back(-static_cast<double>(range.first));
      size.push_back(static_cast<double>(range.last - range.first + 1));
    }
  }
  for (fig::Series* ser : {&closed, &open_before, &open_after}) {
    ser->x_name = tr("t5.readout.relative");
    ser->y_name = tr("t5.readout.bucket");
  }
  closed.extra = {{tr("t5.readout.first"), "", first}, {tr("t5.readout.last"), "", last},
                  {tr("t5.readout.size"), "", size}};
  open_before.extra = {{tr("t5.readout.open_before"), "", before_from}};
  open_after.extra = {{tr("t5.readout.open_after"), "", after_to}};
  if (open_before.x.empty()) std::swap(open_before.name, open_after.name);  // one legend entry, on a drawn series
  if (open_before.x.empty()) open_before.name.clear();
  f.series = {std::move(closed), std::move(open_before), std::move(open_after)};
  // Off the data and off the top, where the exact band's label goes: the
  // encoder's staircase leaves the bottom left empty (keys after the query,
  // r < 0, start at bucket B/2 + 1); the decoder's runs along the bottom on
  // the left (bucket 0 for r ≤ 0) and climbs to the top on the right,
  // leaving the bottom right.
  f.legend = s.bidirectional ? fig::LegendPlace::bottom_left : fig::LegendPlace::bottom_right;
  // Exact region: |r| < max_exact, one bucket per distance (decoder: r ≥ 0 only).
  const double me = s.max_exact();
  f.bands.push_back({.from = s.bidirectional ? -(me - 0.5) : -0.5, .to = me - 0.5,
                     .label = tr.format(s.bidirectional ? "t5.buckets.exact" : "t5.buckets.exact_causal", {{"n", fig::num(me)}}),
                     .label_top = true});  // the curve reaches bucket 0 at the bottom of the band
  // Max distance, labelled, where the distances shown reach it. The
  // true start of the last bucket needs no line: the open-ended series starts
  // there and its legend entry gives the number (a dotted line a few pixels
  // from D's crossed D's label on a log axis).
  const double maxd = s.max_distance;
  const auto reaches = [&](double v) { return r_lo <= v && v <= r_hi; };
  const auto add_edges = [&](double sign) {
    if (reaches(sign * maxd)) f.ref_lines.push_back({.value = sign * maxd, .label = tr.format("t5.ref.max", {{"n", fig::num(maxd)}})});
  };
  add_edges(1);
  if (s.bidirectional) {
    add_edges(-1);
    // A labelled dotted line, not a note by the curve: the renderer puts its
    // label where it covers no data (the curve crosses 16 only at r = 0).
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = static_cast<double>(s.side()),
                           .label = tr.format("t5.buckets.unused", {{"b", fig::num(s.side())}}),
                           .color = fig::palette_color(3), .style = fig::LineStyle::dotted});
  }
  return f;
}

/// The bucket of every (query i, key j) pair of an N-token sequence, sampled
/// at the pixels that show it: bucket(j − i), constant along diagonals.
Figure matrix(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const std::shared_ptr<const BucketLookup> look = lookup_for(s);
  Figure f;
  f.title = tr("t5.matrix.title");
  // The first step shows this figure before D is taught: T5's own D = 128
  // goes unnamed, any other is given. (The distinct-bucket count is a
  // readout and the usage figure, where it is explained.)
  f.subtitle = tr.format("t5.matrix.subtitle", {{"n", fig::num(static_cast<double>(s.positions))},
                                                {"nb", fig::num(s.buckets)}, {"mode", mode_text(s, tr)}});
  if (s.max_distance != kT5MaxDistance)
    f.subtitle = fig::join_dot({f.subtitle, tr.format("t5.matrix.subtitle_maxd", {{"maxd", fig::num(s.max_distance)}})});
  lessons::matrix_axes(f, tr("t5.axis.key"), tr("t5.axis.query"));
  // Cells fill the plot area (no equal aspect): a square matrix would leave empty margins.
  fig::Heatmap h;
  const auto n = static_cast<double>(s.positions);
  h.x0 = 0, h.x1 = n, h.y0 = 0, h.y1 = n;
  h.cols = h.rows = static_cast<int>(s.positions);
  h.x_cells = h.y_cells = true;
  h.vmin = 0, h.vmax = s.buckets - 1;
  h.value_name = tr("t5.readout.bucket");
  h.x_name = tr("t5.readout.key");
  h.y_name = tr("t5.readout.query");
  h.sampler = [look, last = s.positions - 1](std::span<const double> xs, std::span<const double> ys, std::span<float> out) {
    std::vector<long long> keys(xs.size());
    for (std::size_t c = 0; c < xs.size(); ++c) keys[c] = std::clamp(static_cast<long long>(std::floor(xs[c])), 0LL, last);
    const bool ascending = std::is_sorted(keys.begin(), keys.end());
    std::vector<long long> rps(xs.size());
    for (std::size_t r = 0; r < ys.size(); ++r) {
      const long long i = std::clamp(static_cast<long long>(std::floor(ys[r])), 0LL, last);
      const std::span<float> row = out.subspan(r * xs.size(), xs.size());
      for (std::size_t c = 0; c < xs.size(); ++c) rps[c] = keys[c] - i;
      if (ascending) {
        look->buckets_ascending(rps, row);
      } else {
        for (std::size_t c = 0; c < xs.size(); ++c) row[c] = static_cast<float>(look->bucket(rps[c]));
      }
    }
  };
  f.heatmaps.push_back(std::move(h));
  return f;
}

/// Distinct buckets a sequence of N tokens uses, against N (log axis): a
/// staircase that climbs with every bucket edge and stops below the number of
/// buckets (bidirectional: bucket buckets/2 is never reached).
Figure usage(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const std::shared_ptr<const BucketLookup> shared = lookup_for(s);
  const BucketLookup& look = *shared;
  // A bucket enters when N − 1 reaches its nearest |key − query|: the count at
  // N is the number of core's ranges with nearest + 1 <= N (what
  // core::t5_distinct_buckets counts, from the ranges computed once here
  // instead of once per step).
  std::vector<long long> enters{1};
  for (const auto& r : look.ranges()) enters.push_back((r.last < 0 ? -r.last : (r.first > 0 ? r.first : 0)) + 1);
  std::sort(enters.begin(), enters.end());
  const std::set<long long> steps(enters.begin(), enters.end());
  // The curve ends at the N shown: where it levels off is the question of a
  // step ("how many buckets does a 10,000-token sequence use?"), answered by
  // moving N, not drawn in advance.
  const long long x_end = std::max(s.positions, 16LL);
  Figure f;
  f.title = tr("t5.usage.title");
  f.subtitle = tr.format("t5.usage.subtitle", {{"nb", fig::num(s.buckets)}, {"maxd", fig::num(s.max_distance)},
                                               {"mode", mode_text(s, tr)}});
  f.x = {.label = tr("t5.usage.axis.x"), .unit = tr("unit.tokens"), .scale = fig::AxisScale::log,
         .format = fig::TickFormat::integer};
  f.y = {.label = tr("t5.usage.axis.y"), .min = 0.0, .max = s.buckets * 1.15 + 1, .format = fig::TickFormat::integer};
  fig::Series st{.name = tr("t5.usage.series"), .kind = fig::SeriesKind::step};
  for (long long n : steps) {
    if (n > x_end) break;
    st.x.push_back(static_cast<double>(n));
    // enters holds a sentinel 1 that is no range
    st.y.push_back(static_cast<double>(std::upper_bound(enters.begin(), enters.end(), n) - enters.begin() - 1));
  }
  st.x.push_back(static_cast<double>(x_end));
  st.y.push_back(st.y.back());
  st.x_name = "N";
  st.y_name = tr("t5.readout.used");
  f.series.push_back(std::move(st));
  f.legend = fig::LegendPlace::bottom_right;
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = static_cast<double>(s.buckets),
                         .label = tr.format("t5.usage.total", {{"nb", fig::num(s.buckets)}})});
  const int used = look.used(s.positions);
  f.ref_lines.push_back({.value = static_cast<double>(s.positions),
                         .label = tr.format("t5.usage.now", {{"n", fig::num(static_cast<double>(s.positions))},
                                                             {"used", fig::num(used)}}),
                         .color = fig::palette_color(3)});
  return f;
}

/// The reference's causal (decoder) buckets against the notes' code, versus
/// the distance n = query − key: the notes' code ignores max_distance.
Figure notes(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const Setting causal = causal_setting(s);
  // |rp| of the sorted list: the negatives reversed, merged with the rest (O(N)).
  const std::vector<long long> rel = relative_positions(ctx.params);
  const auto zero = std::lower_bound(rel.begin(), rel.end(), 0LL);
  std::vector<long long> below;
  for (auto it = std::make_reverse_iterator(zero); it != rel.rend(); ++it) below.push_back(-*it);
  std::vector<long long> mags{0};
  mags.reserve(rel.size() + 1);
  std::merge(below.begin(), below.end(), zero, rel.end(), std::back_inserter(mags));
  mags.erase(std::unique(mags.begin(), mags.end()), mags.end());
  const std::shared_ptr<const BucketLookup> shared = lookup_for(causal);
  const BucketLookup& look = *shared;
  // Both curves are monotone in n: a long list is drawn from the ends of
  // the runs of either (each point still exact for both).
  if (mags.size() > kDrawnPoints) {
    std::vector<long long> ends = drawn_positions(mags, [&](long long n) { return look.bucket(-n); });
    const std::vector<long long> notes_ends = drawn_positions(mags, [&](long long n) { return notes_bucket(-n, causal.buckets); });
    ends.insert(ends.end(), notes_ends.begin(), notes_ends.end());
    std::sort(ends.begin(), ends.end());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    mags = std::move(ends);
  }
  Figure f;
  f.title = tr("t5.notes.title");
  f.subtitle = tr.format("t5.notes.subtitle", {{"nb", fig::num(causal.buckets)}, {"maxd", fig::num(causal.max_distance)}});
  f.x = {.label = tr("t5.notes.axis.x"), .unit = tr("unit.tokens"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("t5.axis.bucket"), .min = -0.5, .max = causal.buckets + 1.5, .format = fig::TickFormat::integer};
  fig::Series ref{.name = tr("t5.notes.series_reference"), .kind = fig::SeriesKind::step};
  fig::Series ours{.name = tr("t5.notes.series_notes"), .kind = fig::SeriesKind::step};
  ours.style = fig::LineStyle::dashed;
  ours.color = fig::palette_color(3);
  for (long long n : mags) {
    ref.x.push_back(static_cast<double>(n)), ref.y.push_back(look.bucket(-n));
    ours.x.push_back(static_cast<double>(n)), ours.y.push_back(notes_bucket(-n, causal.buckets));
  }
  ref.x_name = ours.x_name = tr("t5.readout.distance");
  ref.y_name = ours.y_name = tr("t5.readout.bucket");
  f.series = {std::move(ref), std::move(ours)};
  f.legend = fig::LegendPlace::bottom_right;
  const double ref_from = static_cast<double>(last_bucket_from(look));
  const double notes_from = static_cast<double>(notes_last_bucket_from(causal.buckets));
  const auto farthest = static_cast<double>(mags.back());
  if (ref_from <= farthest)
    f.ref_lines.push_back({.value = ref_from, .label = tr.format("t5.notes.ref_last", {{"n", fig::num(ref_from)}}),
                           .color = fig::palette_color(0), .style = fig::LineStyle::dotted});
  if (notes_from <= farthest)
    f.ref_lines.push_back({.value = notes_from, .label = tr.format("t5.notes.notes_last", {{"n", fig::num(notes_from)}}),
                           .color = fig::palette_color(3), .style = fig::LineStyle::dotted});
  return f;
}

// [SECTION] Readouts

std::vector<Readout> readouts(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = setting(ctx.params);
  const std::shared_ptr<const BucketLookup> shared = lookup_for(s);
  const BucketLookup& look = *shared;
  auto bucket = [&](long long rp) { return core::t5_relative_bucket(rp, s.bidirectional, s.buckets, s.max_distance); };
  std::vector<Readout> out;

  // Distinct buckets of an N-token sequence: core's count (from the ranges)
  // against a direct scan of core's bucket function over every key − query in
  // [−(N−1), N−1] (|key − query| <= kScanned one by one; farther, one witness
  // per bucket range inside the interval, and the value says so).
  const long long reach = s.positions - 1;
  const int used = core::t5_distinct_buckets(s.positions, s.bidirectional, s.buckets, s.max_distance);
  std::vector<char> seen(static_cast<std::size_t>(s.buckets), 0);
  const long long scan = std::min(reach, kScanned);
  for (long long rp = -scan; rp <= scan; ++rp) seen[static_cast<std::size_t>(bucket(rp))] = 1;
  for (const auto& r : look.ranges()) {
    const long long witness = std::clamp(r.first, -reach, reach);
    if (witness <= r.last && bucket(witness) == r.bucket) seen[static_cast<std::size_t>(r.bucket)] = 1;
  }
  const auto counted = std::count(seen.begin(), seen.end(), 1);
  const std::vector<std::pair<std::string, std::string>> used_args{
      {"used", fig::num(used)}, {"nb", fig::num(s.buckets)}, {"s", fig::num(static_cast<double>(scan))}};
  out.push_back({tr.format("t5.readout.used_label", {{"n", fig::num(static_cast<double>(s.positions))}}),
                 tr.format(reach > scan ? "t5.readout.used_value_scanned" : "t5.readout.used_value", used_args),
                 static_cast<double>(used), counted == used});

  // Exact range: each |key − query| < max_exact has a bucket of its own.
  bool exact = true;
  for (long long n = 0; n < s.max_exact(); ++n) {
    exact = exact && bucket(-n) == n;
    if (s.bidirectional && n > 0) exact = exact && bucket(n) == s.side() + n;
  }
  out.push_back({tr("t5.readout.exact_label"), tr.format("t5.readout.exact_value", {{"last", fig::num(s.max_exact() - 1)}, {"n", fig::num(s.max_exact())}}),
                 static_cast<double>(s.max_exact()), exact});

  // The last bucket begins before max_distance.
  const long long from = last_bucket_from(look);
  const bool edge = bucket(-from) == s.side() - 1 && (from == 0 || bucket(-(from - 1)) < s.side() - 1);
  out.push_back({tr("t5.readout.last_label"),
                 tr.format("t5.readout.last_value", {{"n", fig::num(static_cast<double>(from))},
                                                     {"maxd", fig::num(s.max_distance)}}),
                 static_cast<double>(from), edge});

  // Monotone: farther never means a smaller bucket (each side). Every
  // distance up to kScanned; beyond, up to 4·max_distance, across every edge
  // of core's ranges (the only places the bucket changes), and the value says so.
  const long long span = std::min<long long>(4LL * s.max_distance, 1 << 17);
  const long long dense = std::min(span, kScanned);
  auto step_ok = [&](long long n) {  // distance n − 1 → n on both sides
    bool ok = bucket(-n) >= bucket(-(n - 1));
    if (s.bidirectional && n > 1) ok = ok && bucket(n) >= bucket(n - 1);
    return ok;
  };
  bool monotone = true;
  for (long long n = 1; n <= dense && monotone; ++n) monotone = step_ok(n);
  // The outermost ranges reach LLONG_MIN / LLONG_MAX: step past an edge without overflowing.
  auto past = [](long long n, long long by) { return (by < 0 && n == LLONG_MIN) || (by > 0 && n == LLONG_MAX) ? n : n + by; };
  for (const auto& r : look.ranges())
    for (long long n : {r.first, r.last, past(r.first, -1), past(r.last, 1)}) {
      const long long distance = n == LLONG_MIN || n == LLONG_MAX ? 0 : (n < 0 ? -n : n);
      if (distance > dense && distance <= span) monotone = monotone && step_ok(distance) && step_ok(distance + 1);
    }
  const std::vector<std::pair<std::string, std::string>> monotone_args{
      {"n", fig::num(static_cast<double>(span))}, {"s", fig::num(static_cast<double>(dense))}};
  out.push_back({tr("t5.readout.monotone_label"),
                 tr.format(span > dense ? "t5.readout.monotone_value_edges" : "t5.readout.monotone_value", monotone_args),
                 static_cast<double>(span), monotone});

  if (s.bidirectional) {
    bool unused = true;
    for (const auto& r : look.ranges()) unused = unused && r.bucket != s.side();
    out.push_back({tr.format("t5.readout.unused_label", {{"b", fig::num(s.side())}}), tr("t5.readout.unused_value"),
                   static_cast<double>(s.side()), unused});
  }

  // The notes' code against the causal reference, over the relative list.
  const std::shared_ptr<const BucketLookup> shared_causal = lookup_for(causal_setting(s));
  const BucketLookup& causal = *shared_causal;
  const auto rel = relative_positions(ctx.params);
  // Both are non-increasing in key − query (n = max(−rp, 0) grows as rp
  // falls), so the pair of buckets changes in runs that never come back:
  // counted run by run, exactly, however long the list.
  long long differ = 0;
  for_each_run(
      rel, [&](long long rp) { return std::pair<int, int>(notes_bucket(rp, s.buckets), causal.bucket(rp)); },
      [&](std::size_t i, std::size_t j) {
        if (notes_bucket(rel[i], s.buckets) != causal.bucket(rel[i])) differ += static_cast<long long>(j - i + 1);
      });
  out.push_back({tr("t5.readout.notes_label"),
                 tr.format("t5.readout.notes_value", {{"k", fig::num(static_cast<double>(differ))},
                                                      {"m", fig::num(static_cast<double>(rel.size()))},
                                                      {"n", fig::num(static_cast<double>(notes_last_bucket_from(s.buckets)))}}),
                 static_cast<double>(differ), std::nullopt, /*notes=*/true});
  return out;
}

}  // namespace

// [SECTION] The view

ViewDef t5_view() {
  return {.id = "t5",
          .group = "relative",
          .keys = {"buckets", "bucket_max_distance", "bidirectional", "positions", "relative", "log_x"},
          .defaults = {{"positions", "160"}},
          .figures = {{"buckets", buckets}, {"matrix", matrix}, {"usage", usage}, {"notes", notes}},
          .tables = {"t5-buckets", "t5-bucket-ranges"},
          .readouts = readouts};
}

}  // namespace poslab::app
