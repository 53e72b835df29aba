// Lesson "rope": RoPE in d dimensions (RoFormer §3.2–3.4).
// Figures: θ_i and wavelength λ_i per pair on a log axis.

#include <cmath>
#include <numbers>

#include "app/figures/figure_text.hpp"
#include "app/figures/views.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::app {

namespace {

using fig::Figure;

/// θ_i = base^(−2i/d) and λ_i = 2π/θ_i per pair, log y, with the trained
/// context L as a reference: pairs above it never complete a turn within L.
Figure frequencies(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const int d = static_cast<int>(p.integer("d"));
  const double base = p.real("base");
  const auto L = static_cast<double>(p.integer("original_context"));
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
  Figure f;
  f.title = tr("rope.frequencies.title");
  f.subtitle = fig::join_dot({"d = " + fig::num(d), "base = " + fig::num(base), "θ_i = base^(−2i/d)"});
  f.x = {.label = tr("rope.axis.pair"), .format = fig::TickFormat::integer};
  f.y = {.label = tr("rope.frequencies.axis.y"), .scale = fig::AxisScale::log};
  fig::Series lambda{.name = tr("rope.frequencies.wavelength"), .kind = fig::SeriesKind::line};
  fig::Series th{.name = tr("rope.frequencies.theta"), .kind = fig::SeriesKind::line};
  std::vector<double> lam_values, theta_values;
  for (Eigen::Index i = 0; i < theta.size(); ++i) {
    const double l = 2 * std::numbers::pi / theta[i];
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
  return f;
}

}  // namespace

ViewDef rope_view() {
  return {.id = "rope",
          .group = "rotary",
          .keys = {"d", "base", "original_context", "m", "layout", "vector"},
          .defaults = {},
          .figures = {{"frequencies", frequencies}},
          .tables = {"rope-frequencies", "rope-rotate"}};
}

}  // namespace poslab::app
