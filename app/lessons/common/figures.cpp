#include "app/lessons/common/figures.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "poslab/core/sinusoidal.hpp"

namespace poslab::app::lessons {

void encoding_axes(fig::Figure& f, const EncodingKeys& keys, const Translator& tr) {
  f.x = {.label = tr(keys.axis_dim), .format = fig::TickFormat::integer, .tight = true};
  f.y = {.label = tr(keys.axis_pos), .format = fig::TickFormat::integer, .tight = true};
}

fig::Heatmap encoding_heatmap(int d, long long rows, double range, const EncodingKeys& keys, const Translator& tr) {
  fig::Heatmap h;
  h.x0 = 0, h.x1 = d, h.y0 = 0, h.y1 = static_cast<double>(rows);
  h.cols = d, h.rows = static_cast<int>(rows);
  h.x_cells = h.y_cells = true;
  h.colormap = fig::Colormap::signed_;
  h.vmin = -range, h.vmax = range;
  h.value_name = tr(keys.value);
  h.x_name = tr(keys.dim);
  h.y_name = tr(keys.pos);
  return h;
}

fig::Heatmap sinusoidal_heatmap(int d, double base, long long positions, const EncodingKeys& keys,
                                const Translator& tr) {
  fig::Heatmap h = encoding_heatmap(d, positions, 1, keys, tr);
  h.sampler = [d, base](std::span<const double> xs, std::span<const double> ys, std::span<float> out) {
    std::vector<int> dims(xs.size());
    for (std::size_t c = 0; c < xs.size(); ++c) dims[c] = std::clamp(static_cast<int>(std::floor(xs[c])), 0, d - 1);
    std::vector<double> pos(ys.size());
    for (std::size_t r = 0; r < ys.size(); ++r) pos[r] = std::max(0.0, std::floor(ys[r]));
    core::sinusoidal_grid(pos, dims, d, base, out);
  };
  return h;
}

}  // namespace poslab::app::lessons
