#include "app/lessons/common/figures.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "poslab/core/sinusoidal.hpp"

namespace poslab::app::lessons {

void matrix_axes(fig::Figure& f, std::string x_label, std::string y_label) {
  f.x = {.label = std::move(x_label), .format = fig::TickFormat::integer, .tight = true};
  f.y = {.label = std::move(y_label), .format = fig::TickFormat::integer, .tight = true, .reversed = true};
}

fig::Heatmap matrix_heatmap(const Eigen::MatrixXd& m) {
  fig::Heatmap h;
  h.cols = static_cast<int>(m.cols()), h.rows = static_cast<int>(m.rows());
  h.x0 = 0, h.x1 = h.cols, h.y0 = 0, h.y1 = h.rows;
  h.values.resize(static_cast<std::size_t>(m.size()));
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c)
      h.values[static_cast<std::size_t>(r * m.cols() + c)] = static_cast<float>(m(r, c));
  return h;
}

void encoding_axes(fig::Figure& f, const EncodingKeys& keys, const Translator& tr) {
  matrix_axes(f, tr(keys.axis_dim), tr(keys.axis_pos));
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
