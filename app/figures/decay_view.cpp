// Lesson "decay": long-term decay of attention with distance (RoFormer §3.4.3).
// Figures: the relative upper bound, the all-ones score and the mean |score| of
// random q, k versus distance.

#include <cmath>

#include "app/figures/figure_text.hpp"
#include "app/figures/views.hpp"
#include "poslab/core/decay.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::app {

namespace {

using fig::Figure;

/// Every curve divided by its value at distance 0, so they share one axis.
Figure curves(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const int d = static_cast<int>(p.integer("d"));
  const double base = p.real("base");
  const auto distance = p.list("distance");
  const bool log_x = p.boolean("log_x");
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
  const std::span<const double> th(theta.data(), static_cast<std::size_t>(theta.size()));

  std::vector<double> bound(distance.size()), random(distance.size());
  core::rope_decay_bound_curve(distance, th, bound);
  core::rope_random_mean_abs_score_curve(distance, d, base, static_cast<std::uint64_t>(p.integer("seed")),
                                         static_cast<int>(p.integer("samples")), random);
  const double bound0 = core::rope_decay_bound(0, th);
  const double ones0 = core::rope_ones_score(0, th);
  const double random0 = core::rope_random_mean_abs_score(0, d, base, static_cast<std::uint64_t>(p.integer("seed")),
                                                          static_cast<int>(p.integer("samples")));
  Figure f;
  f.title = tr("decay.curves.title");
  f.subtitle = fig::join_dot({"d = " + fig::num(d), "base = " + fig::num(base), tr("decay.curves.normalised")});
  f.x = {.label = tr("decay.axis.distance"), .unit = tr("unit.tokens"),
         .scale = log_x ? fig::AxisScale::log : fig::AxisScale::linear};
  f.y = {.label = tr("decay.axis.relative")};
  fig::Series sb{.name = tr("decay.series.bound")}, so{.name = tr("decay.series.ones")},
      sr{.name = tr("decay.series.random")};
  std::vector<double> raw_bound, raw_ones, raw_random;
  for (std::size_t i = 0; i < distance.size(); ++i) {
    const double r = distance[i];
    const double ones = core::rope_ones_score(r, th);
    sb.x.push_back(r), sb.y.push_back(bound[i] / bound0), raw_bound.push_back(bound[i]);
    so.x.push_back(r), so.y.push_back(ones / ones0), raw_ones.push_back(ones);
    sr.x.push_back(r), sr.y.push_back(random0 > 0 ? random[i] / random0 : 0.0), raw_random.push_back(random[i]);
  }
  for (fig::Series* s : {&sb, &so, &sr}) s->x_name = tr("decay.readout.distance");
  sb.y_name = so.y_name = sr.y_name = tr("decay.readout.relative");
  sb.extra = {{tr("decay.readout.bound"), "", raw_bound}};
  so.extra = {{tr("decay.readout.score"), "", raw_ones}};
  sr.extra = {{tr("decay.readout.mean_abs"), "", raw_random}};
  so.width = 1.2f;
  f.series = {std::move(so), std::move(sr), std::move(sb)};
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0, .style = fig::LineStyle::solid});
  return f;
}

}  // namespace

ViewDef decay_view() {
  return {.id = "decay",
          .group = "rotary",
          .keys = {"d", "base", "distance", "log_x", "seed", "samples"},
          .defaults = {},
          .figures = {{"curves", curves}},
          .tables = {"rope-decay"}};
}

}  // namespace poslab::app
