#include "app/lessons/common/figures.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "app/plot/figure_text.hpp"
#include "poslab/core/sinusoidal.hpp"

namespace poslab::app::lessons {

std::string text_number(double v, int significant) {
  const std::string s = fig::num(v, significant);
  const std::size_t e = s.find('e');
  if (e == std::string::npos) return s;
  static const char* const kSuperscript[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string out = s.substr(0, e) + "×10";
  for (std::size_t i = e + 1; i < s.size(); ++i) {
    if (s[i] == '-') out += "⁻";
    else if (s[i] >= '0' && s[i] <= '9') out += kSuperscript[s[i] - '0'];
  }
  return out;
}

fig::Figure hidden_figure(const fig::Figure& f, const std::string& note) {
  const fig::DataRange r = fig::data_range(f);
  fig::Figure out;
  out.id = f.id, out.title = f.title, out.subtitle = f.subtitle;
  out.x = f.x, out.y = f.y;
  out.equal_aspect = f.equal_aspect;
  out.legend = fig::LegendPlace::none;
  const bool x_ok = std::isfinite(r.x_min) && std::isfinite(r.x_max) && r.x_max > r.x_min;
  const bool y_ok = std::isfinite(r.y_min) && std::isfinite(r.y_max) && r.y_max > r.y_min;
  if (x_ok) out.x.min = r.x_min, out.x.max = r.x_max;
  if (y_ok) out.y.min = r.y_min, out.y.max = r.y_max;
  // The middle of the plot in each axis's scale.
  auto middle = [](double lo, double hi, fig::AxisScale scale) {
    return scale == fig::AxisScale::log && lo > 0 ? std::sqrt(lo * hi) : (lo + hi) / 2;
  };
  if (x_ok && y_ok)
    out.notes.push_back({.x = middle(r.x_min, r.x_max, out.x.scale), .y = middle(r.y_min, r.y_max, out.y.scale),
                         .text = note, .anchor = fig::Anchor::center});
  return out;
}

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
  h.exact = [copy = std::make_shared<const Eigen::MatrixXd>(m)](std::span<const double> xs, std::span<const double> ys,
                                                               std::span<double> out) {
    for (std::size_t r = 0; r < ys.size(); ++r)
      for (std::size_t c = 0; c < xs.size(); ++c)
        out[r * xs.size() + c] = (*copy)(std::clamp<Eigen::Index>(static_cast<Eigen::Index>(std::floor(ys[r])), 0, copy->rows() - 1),
                                         std::clamp<Eigen::Index>(static_cast<Eigen::Index>(std::floor(xs[c])), 0, copy->cols() - 1));
  };
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
  h.exact = [d, base](std::span<const double> xs, std::span<const double> ys, std::span<double> out) {
    for (std::size_t r = 0; r < ys.size(); ++r)
      for (std::size_t c = 0; c < xs.size(); ++c)
        out[r * xs.size() + c] = core::sinusoidal_value(std::max(0.0, std::floor(ys[r])),
                                                        std::clamp(static_cast<int>(std::floor(xs[c])), 0, d - 1), d, base);
  };
  return h;
}

}  // namespace poslab::app::lessons
