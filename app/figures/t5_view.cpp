// Lesson "t5": T5 relative-position buckets (Raffel et al. 2020; HF
// T5Attention._relative_position_bucket). Figures: bucket versus relative position.

#include <climits>

#include "app/figures/figure_text.hpp"
#include "app/figures/views.hpp"
#include "poslab/core/t5.hpp"

namespace poslab::app {

namespace {

using fig::Figure;

/// Bucket of every relative position key − query as a staircase; hover shows
/// the exact range of relative positions sharing the bucket.
Figure buckets(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const int nb = static_cast<int>(p.integer("buckets"));
  const int maxd = static_cast<int>(p.integer("bucket_max_distance"));
  const bool bidir = p.boolean("bidirectional");
  const auto rel = p.list("relative");
  const auto ranges = core::t5_bucket_ranges(bidir, nb, maxd);
  Figure f;
  f.title = tr("t5.buckets.title");
  f.subtitle = fig::join_dot({tr.format("t5.buckets.count", {{"n", std::to_string(nb)}}),
                              tr.format("t5.buckets.max_distance", {{"n", std::to_string(maxd)}}),
                              bidir ? tr("t5.bidirectional") : tr("t5.causal")});
  f.x = {.label = tr("t5.axis.relative"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("t5.axis.bucket"), .format = fig::TickFormat::integer};
  fig::Series s{.name = "", .kind = fig::SeriesKind::step};
  std::vector<double> first, last;
  for (double r : rel) {
    const auto rp = static_cast<long long>(r);
    const int b = core::t5_relative_bucket(rp, bidir, nb, maxd);
    s.x.push_back(r), s.y.push_back(b);
    double lo = r, hi = r;
    for (const auto& range : ranges)
      if (range.bucket == b) {
        lo = range.first == LLONG_MIN ? -1e18 : static_cast<double>(range.first);
        hi = range.last == LLONG_MAX ? 1e18 : static_cast<double>(range.last);
      }
    first.push_back(lo), last.push_back(hi);
  }
  s.x_name = tr("t5.readout.relative");
  s.y_name = tr("t5.readout.bucket");
  s.extra = {{tr("t5.readout.first"), "", first}, {tr("t5.readout.last"), "", last}};
  f.series.push_back(std::move(s));
  for (double v : {-static_cast<double>(maxd), static_cast<double>(maxd)})
    if (bidir || v < 0)
      f.ref_lines.push_back({.value = v, .label = (v < 0 ? "−" : "+") + tr.format("t5.ref.max", {{"n", std::to_string(maxd)}})});
  return f;
}

}  // namespace

ViewDef t5_view() {
  return {.id = "t5",
          .group = "relative",
          .keys = {"buckets", "bucket_max_distance", "bidirectional", "relative", "positions"},
          .defaults = {},
          .figures = {{"buckets", buckets}},
          .tables = {"t5-buckets"}};
}

}  // namespace poslab::app
