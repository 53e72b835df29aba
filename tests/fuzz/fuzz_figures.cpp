// Fuzz target: every figure of every view with fuzzed parameters.
// Invariants: invalid input raises InvalidParameter only; a built figure
// holds no NaN/Inf, its heatmaps sample to finite values, and it renders.

#include <cmath>
#include <cstdlib>

#include "app/common/assets.hpp"
#include "app/export/figure_export.hpp"
#include "app/lessons/lesson.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const poslab::app::Translator tr = poslab::app::Translator::load(poslab::app::assets_dir(), "en");
  if (size > 2048) return 0;
  poslab::fuzz::Input in(data, size);
  const auto views = poslab::app::view_defs();
  if (views.empty()) return 0;
  const auto& view = views[in.byte() % views.size()];
  const auto& figure = view.figures[in.byte() % view.figures.size()];
  const bool render = in.byte() % 8 == 0;  // rendering is slow: one run in eight
  const poslab::core::Params params = poslab::fuzz::fuzzed_params(in, view.keys, 4096);
  poslab::app::fig::Figure f;
  try {
    f = poslab::app::build_figure(view, figure, params, tr, 320, 200);
  } catch (const poslab::core::InvalidParameter&) {
    return 0;
  }
  const std::string where = std::string(view.id) + "/" + std::string(figure.id);
  if (!poslab::app::fig::all_finite(f)) poslab::fuzz::fail("a NaN or infinity", where, params);
  for (const auto& h : f.heatmaps) {
    if (h.is_matrix()) continue;
    std::vector<double> xs, ys;
    for (int i = 0; i < 9; ++i) xs.push_back(h.x0 + (h.x1 - h.x0) * (i + 0.5) / 9);
    for (int i = 0; i < 7; ++i) ys.push_back(h.y0 + (h.y1 - h.y0) * (i + 0.5) / 7);
    std::vector<float> out(xs.size() * ys.size());
    h.sampler(xs, ys, out);
    for (float v : out)
      if (!std::isfinite(v)) poslab::fuzz::fail("a non-finite heatmap sample", where, params);
  }
  for (const auto& r : poslab::app::view_readouts(view, params, tr))
    if (!std::isfinite(r.number) || (r.holds && !*r.holds)) poslab::fuzz::fail("a failing readout: " + r.label, where, params);
  if (render) {
    poslab::app::ExportOptions o;
    o.width = 320;
    o.height = 200;
    if (poslab::app::render_png(f, o).empty()) std::abort();
  }
  return 0;
}
