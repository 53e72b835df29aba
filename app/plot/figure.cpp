#include "app/plot/figure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace poslab::app::fig {

namespace {

// CIE L*C*h (D65) → sRGB, clamped to the gamut.
Color lch_to_srgb(double L, double C, double h_degrees) {
  const double h = h_degrees * std::numbers::pi / 180.0;
  const double a = C * std::cos(h), b = C * std::sin(h);
  const double fy = (L + 16.0) / 116.0, fx = fy + a / 500.0, fz = fy - b / 200.0;
  auto finv = [](double t) { return t > 6.0 / 29.0 ? t * t * t : 3.0 * (6.0 / 29.0) * (6.0 / 29.0) * (t - 4.0 / 29.0); };
  const double X = 0.95047 * finv(fx), Y = 1.0 * finv(fy), Z = 1.08883 * finv(fz);
  const double rl = 3.2404542 * X - 1.5371385 * Y - 0.4985314 * Z;
  const double gl = -0.9692660 * X + 1.8760108 * Y + 0.0415560 * Z;
  const double bl = 0.0556434 * X - 0.2040259 * Y + 1.0572252 * Z;
  auto gamma = [](double u) {
    u = std::clamp(u, 0.0, 1.0);
    return static_cast<float>(u <= 0.0031308 ? 12.92 * u : 1.055 * std::pow(u, 1.0 / 2.4) - 0.055);
  };
  return {gamma(rl), gamma(gl), gamma(bl), 1.0f};
}

double lerp(double a, double b, double t) { return a + (b - a) * t; }

}  // namespace

Color colormap_color(Colormap map, double t) {
  t = std::isfinite(t) ? std::clamp(t, 0.0, 1.0) : 0.0;
  if (map == Colormap::magnitude) {
    // Lightness 16 → 91 linear; hue violet (316°) → teal (177°) → yellow (97°).
    const double L = lerp(16.0, 91.0, t);
    const double C = t < 0.5 ? lerp(49.0, 38.0, t / 0.5) : lerp(38.0, 86.0, (t - 0.5) / 0.5);
    const double h = t < 0.5 ? lerp(316.0, 177.0, t / 0.5) : lerp(177.0, 97.0, (t - 0.5) / 0.5);
    return lch_to_srgb(L, C, h);
  }
  // Signed: lightness 22 → 62 (zero, neutral) → 92; blue below zero, orange above.
  const double L = lerp(22.0, 92.0, t);
  const double s = std::abs(2.0 * t - 1.0);  // 0 at zero, 1 at the ends
  const double C = (t < 0.5 ? 52.0 : 62.0) * std::sqrt(s);
  const double h = t < 0.5 ? 268.0 : 68.0;
  return lch_to_srgb(L, C, h);
}

std::array<std::uint32_t, 256> colormap_lut(Colormap map) {
  std::array<std::uint32_t, 256> lut{};
  for (int i = 0; i < 256; ++i) {
    const Color c = colormap_color(map, i / 255.0);
    auto byte = [](float u) { return static_cast<std::uint32_t>(std::lround(std::clamp(u, 0.0f, 1.0f) * 255.0f)); };
    // RGBA8 in memory order r, g, b, a (little-endian uint32: a<<24 | b<<16 | g<<8 | r)
    lut[static_cast<std::size_t>(i)] = byte(c.r) | (byte(c.g) << 8) | (byte(c.b) << 16) | (0xffu << 24);
  }
  return lut;
}

Color palette_color(int index) {
  // Okabe & Ito (2008), "Color Universal Design"; their black replaced by a
  // mid grey that reads on light and dark themes; yellow last (weak on white).
  static constexpr std::uint32_t kPalette[] = {0x0072B2, 0xE69F00, 0x009E73, 0xD55E00,
                                               0xCC79A7, 0x56B4E9, 0x8C8C8C, 0xF0E442};
  constexpr int n = static_cast<int>(std::size(kPalette));
  return Color::rgb(kPalette[((index % n) + n) % n]);
}

std::optional<float> Heatmap::value_at(double x, double y) const {
  if (!(x >= std::min(x0, x1) && x <= std::max(x0, x1) && y >= std::min(y0, y1) && y <= std::max(y0, y1)))
    return std::nullopt;
  if (is_matrix()) {
    if (cols <= 0 || rows <= 0) return std::nullopt;
    const int c = std::clamp(static_cast<int>((x - x0) / (x1 - x0) * cols), 0, cols - 1);
    const int r = std::clamp(static_cast<int>((y - y0) / (y1 - y0) * rows), 0, rows - 1);
    const std::size_t i = static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c);
    if (!mask.empty() && mask[i]) return std::nullopt;
    return values[i];
  }
  if (!sampler) return std::nullopt;
  auto snap = [](double v, double lo, double hi, int n) {
    if (n <= 0) return v;
    const double w = (hi - lo) / n;
    return lo + (std::floor((v - lo) / w) + 0.5) * w;
  };
  const double xs[] = {x_cells ? snap(x, x0, x1, cols) : x};
  const double ys[] = {y_cells ? snap(y, y0, y1, rows) : y};
  float out[1] = {0};
  sampler(xs, ys, out);
  return out[0];
}

double axis_forward(double v, AxisScale s) {
  switch (s) {
    case AxisScale::log: return v > 0 ? std::log10(v) : std::numeric_limits<double>::quiet_NaN();
    case AxisScale::symlog: return std::copysign(std::log10(1.0 + std::abs(v)), v);
    case AxisScale::linear: break;
  }
  return v;
}

double axis_inverse(double u, AxisScale s) {
  switch (s) {
    case AxisScale::log: return std::pow(10.0, u);
    case AxisScale::symlog: return std::copysign(std::pow(10.0, std::abs(u)) - 1.0, u);
    case AxisScale::linear: break;
  }
  return u;
}

DataRange data_range(const Figure& f) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  DataRange r{inf, -inf, inf, -inf};
  const bool xlog = f.x.scale == AxisScale::log, ylog = f.y.scale == AxisScale::log;
  auto add_x = [&](double v) {
    if (std::isfinite(v) && (!xlog || v > 0)) r.x_min = std::min(r.x_min, v), r.x_max = std::max(r.x_max, v);
  };
  auto add_y = [&](double v) {
    if (std::isfinite(v) && (!ylog || v > 0)) r.y_min = std::min(r.y_min, v), r.y_max = std::max(r.y_max, v);
  };
  for (const Series& s : f.series) {
    // A long line's ScreenPoints keep its first, last, lowest and highest points: the same range.
    for (double v : s.screen ? s.screen->x : s.x) add_x(v);
    for (double v : s.screen ? s.screen->y : s.y) add_y(v);
    if (s.kind == SeriesKind::bars || s.kind == SeriesKind::stems) add_y(ylog ? r.y_min : 0.0);
    if (s.kind == SeriesKind::bars && !xlog) {
      // Half a bar's spacing beyond the first and last bar, so the frame never
      // clips a bar (bars are drawn 0.8 of the closest spacing wide).
      std::vector<double> xs;
      for (double v : s.x)
        if (std::isfinite(v)) xs.push_back(v);
      std::sort(xs.begin(), xs.end());
      double spacing = inf;
      for (std::size_t i = 1; i < xs.size(); ++i)
        if (xs[i] > xs[i - 1]) spacing = std::min(spacing, xs[i] - xs[i - 1]);
      if (!xs.empty()) {
        const double half = s.bar_width ? *s.bar_width / 2 : std::isfinite(spacing) ? spacing / 2 : 0.5;
        add_x(xs.front() - half), add_x(xs.back() + half);
      }
    }
  }
  for (const Heatmap& h : f.heatmaps) {
    add_x(h.x0), add_x(h.x1);
    add_y(h.y0), add_y(h.y1);
  }
  for (const Band& b : f.bands) {
    if (b.orientation == Orientation::vertical) add_x(b.from), add_x(b.to);
    else add_y(b.from), add_y(b.to);
  }
  for (const RefLine& l : f.ref_lines) {
    if (l.orientation == Orientation::vertical) add_x(l.value);
    else add_y(l.value);
  }
  for (const Arrow& a : f.arrows) add_x(a.x0), add_x(a.x1), add_y(a.y0), add_y(a.y1);
  if (f.x.min) r.x_min = *f.x.min;
  if (f.x.max) r.x_max = *f.x.max;
  if (f.y.min) r.y_min = *f.y.min;
  if (f.y.max) r.y_max = *f.y.max;
  auto fallback = [](double& lo, double& hi, bool log) {
    if (!(lo <= hi)) lo = log ? 1.0 : 0.0, hi = log ? 10.0 : 1.0;
    if (lo == hi) {
      const double pad = log ? lo * 0.5 : std::max(std::abs(lo) * 0.1, 0.5);
      lo = log ? lo / 2.0 : lo - pad;
      hi = log ? hi * 2.0 : hi + pad;
    }
  };
  fallback(r.x_min, r.x_max, xlog);
  fallback(r.y_min, r.y_max, ylog);
  return r;
}

bool all_finite(const Figure& f) {
  auto finite = [](std::span<const double> v) { return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); }); };
  for (const Series& s : f.series) {
    if (!finite(s.x) || !finite(s.y)) return false;
    for (const ExtraColumn& e : s.extra)
      if (!finite(e.values)) return false;
  }
  for (const Heatmap& h : f.heatmaps) {
    if (!std::isfinite(h.x0) || !std::isfinite(h.x1) || !std::isfinite(h.y0) || !std::isfinite(h.y1) ||
        !std::isfinite(h.vmin) || !std::isfinite(h.vmax))
      return false;
    // Every value finite (a pass without branches), or else each one that
    // is not under the mask.
    bool all = true;
    for (const float v : h.values) all &= std::abs(v) <= std::numeric_limits<float>::max();
    if (!all)
      for (std::size_t i = 0; i < h.values.size(); ++i)
        if (!std::isfinite(h.values[i]) && (i >= h.mask.size() || !h.mask[i])) return false;
  }
  for (const RefLine& l : f.ref_lines)
    if (!std::isfinite(l.value)) return false;
  for (const Band& b : f.bands)
    if (!std::isfinite(b.from) || !std::isfinite(b.to)) return false;
  for (const TextNote& n : f.notes)
    if (!std::isfinite(n.x) || !std::isfinite(n.y)) return false;
  for (const Arrow& a : f.arrows)
    if (!std::isfinite(a.x0) || !std::isfinite(a.y0) || !std::isfinite(a.x1) || !std::isfinite(a.y1)) return false;
  const auto check_axis = [](const Axis& a) {
    return (!a.min || std::isfinite(*a.min)) && (!a.max || std::isfinite(*a.max));
  };
  return check_axis(f.x) && check_axis(f.y);
}

void prepare_for_screen(Figure& f, int width_px, int height_px, double density) {
  if (height_px > 0)
    for (Heatmap& h : f.heatmaps) {
      h.screen.reset();
      if (h.is_matrix() || !h.sampler) continue;
      constexpr int kMaxSide = 4096;  // as the renderer's rasters
      auto out = std::make_shared<ScreenRaster>();
      out->nx = std::clamp(static_cast<int>(std::ceil(width_px * density)), 1, kMaxSide);
      out->ny = std::clamp(static_cast<int>(std::ceil(height_px * density)), 1, kMaxSide);
      // A lattice of cells no finer than the pixels: one sample per cell.
      out->x_lattice = h.x_cells && h.cols > 0 && h.cols <= out->nx;
      out->y_lattice = h.y_cells && h.rows > 0 && h.rows <= out->ny;
      if (out->x_lattice) out->nx = h.cols;
      if (out->y_lattice) out->ny = h.rows;
      auto grid = [](double lo, double hi, AxisScale scale, int n, bool cells, int cell_count) {
        const bool lattice = cells && cell_count == n;  // the cells' centres, evenly in the data
        const double a = axis_forward(lo, scale), b = axis_forward(hi, scale);
        std::vector<double> v(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
          double x = lattice ? lo + (i + 0.5) * ((hi - lo) / n) : axis_inverse(a + (i + 0.5) * (b - a) / n, scale);
          if (cells && cell_count > 0 && !lattice) {
            const double cw = (hi - lo) / cell_count;
            x = lo + (std::clamp(std::floor((x - lo) / cw), 0.0, cell_count - 1.0) + 0.5) * cw;
          }
          v[static_cast<std::size_t>(i)] = x;
        }
        return v;
      };
      const std::vector<double> xs = grid(h.x0, h.x1, f.x.scale, out->nx, h.x_cells, out->x_lattice ? out->nx : h.cols);
      const std::vector<double> ys = grid(h.y0, h.y1, f.y.scale, out->ny, h.y_cells, out->y_lattice ? out->ny : h.rows);
      bool finite = true;
      for (double v : xs) finite = finite && std::isfinite(v);
      for (double v : ys) finite = finite && std::isfinite(v);
      if (!finite) continue;  // (e.g. a heatmap reaching 0 on a log axis: sampled when drawn)
      out->values.resize(static_cast<std::size_t>(out->nx) * static_cast<std::size_t>(out->ny));
      h.sampler(xs, ys, out->values);
      h.screen = std::move(out);
    }
  const int buckets = 8 * std::max(1, width_px);
  const std::size_t worth = 32 * static_cast<std::size_t>(std::max(1, width_px));
  for (Series& s : f.series) {
    s.screen.reset();
    if (s.kind != SeriesKind::line) continue;  // (a step's levels would move with its points)
    const std::size_t n = std::min(s.x.size(), s.y.size());
    if (n <= worth) continue;
    // Only a line drawn whole: sorted, every point finite and on the axis
    // (a gap or a point off a log axis breaks the line: drawn as it is).
    bool whole = true;
    std::vector<double> u(n);
    for (std::size_t i = 0; i < n && whole; ++i) {
      u[i] = axis_forward(s.x[i], f.x.scale);
      whole = std::isfinite(u[i]) && std::isfinite(s.y[i]) && (f.y.scale != AxisScale::log || s.y[i] > 0) &&
              (i == 0 || u[i] >= u[i - 1]);
    }
    if (!whole || !(u[n - 1] > u[0])) continue;
    auto out = std::make_shared<ScreenPoints>();
    out->u0 = u[0], out->u1 = u[n - 1], out->buckets = buckets;
    const double per = buckets / (out->u1 - out->u0);
    std::size_t i = 0;
    while (i < n) {
      const int b = std::min(buckets - 1, static_cast<int>((u[i] - out->u0) * per));
      std::size_t lo = i, hi = i, last = i;
      for (std::size_t j = i; j < n && std::min(buckets - 1, static_cast<int>((u[j] - out->u0) * per)) == b; ++j) {
        if (s.y[j] < s.y[lo]) lo = j;
        if (s.y[j] > s.y[hi]) hi = j;
        last = j;
      }
      std::size_t keep[] = {i, std::min(lo, hi), std::max(lo, hi), last};
      for (std::size_t k = 0; k < 4; ++k)
        if (k == 0 || keep[k] != keep[k - 1]) {
          out->x.push_back(s.x[keep[k]]);
          out->y.push_back(s.y[keep[k]]);
        }
      i = last + 1;
    }
    s.screen = std::move(out);
  }
}

}  // namespace poslab::app::fig
