// Lesson "sinusoidal": the sinusoidal absolute encoding (Vaswani et al. 2017 §3.5).
// Figures: the PE heatmap (positions × dims).

#include <cmath>

#include "app/figures/figure_text.hpp"
#include "app/figures/views.hpp"
#include "poslab/core/sinusoidal.hpp"

namespace poslab::app {

namespace {

using fig::Figure;

/// PE[pos, i] over positions × dims, sampled at the pixels that show it (a
/// 1,048,576 × 1024 table is never built).
Figure heatmap(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const int d = static_cast<int>(p.integer("d"));
  const double base = p.real("base");
  const auto positions = p.integer("positions");
  Figure f;
  f.title = tr("sinusoidal.heatmap.title");
  f.subtitle = fig::join_dot({"d = " + fig::num(d), "base = " + fig::num(base),
                              tr.format("sinusoidal.heatmap.positions", {{"n", fig::num(static_cast<double>(positions - 1))}})});
  f.x = {.label = tr("sinusoidal.axis.dim"), .format = fig::TickFormat::integer, .tight = true};
  f.y = {.label = tr("sinusoidal.axis.pos"), .format = fig::TickFormat::integer, .tight = true};
  fig::Heatmap h;
  h.x0 = 0, h.x1 = d, h.y0 = 0, h.y1 = static_cast<double>(positions);
  h.cols = d, h.rows = static_cast<int>(positions);
  h.x_cells = h.y_cells = true;
  h.colormap = fig::Colormap::signed_;
  h.vmin = -1, h.vmax = 1;
  h.value_name = "PE[pos, i]";
  h.x_name = "i";
  h.y_name = "pos";
  h.sampler = [d, base](std::span<const double> xs, std::span<const double> ys, std::span<float> out) {
    std::vector<int> dims(xs.size());
    for (std::size_t c = 0; c < xs.size(); ++c) dims[c] = std::clamp(static_cast<int>(std::floor(xs[c])), 0, d - 1);
    std::vector<double> pos(ys.size());
    for (std::size_t r = 0; r < ys.size(); ++r) pos[r] = std::max(0.0, std::floor(ys[r]));
    core::sinusoidal_grid(pos, dims, d, base, out);
  };
  f.heatmaps.push_back(std::move(h));
  return f;
}

}  // namespace

ViewDef sinusoidal_view() {
  return {.id = "sinusoidal",
          .group = "absolute",
          .keys = {"d", "base", "positions"},
          .defaults = {{"positions", "128"}},
          .figures = {{"heatmap", heatmap}},
          .tables = {"sinusoidal"}};
}

}  // namespace poslab::app
