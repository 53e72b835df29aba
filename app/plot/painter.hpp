#pragma once
// [SECTION] The painter interface: the drawing calls render_figure() makes.
//
// One interface, declared here once; each surface implements it privately in
// its own .cpp and hands out a small handle (export/cairo_painter.hpp,
// export/svg_painter.hpp, ui/imgui_painter.hpp), so the list of calls is
// written in one place and a new call cannot be forgotten by one painter.
// Coordinates are painter units, y down, origin at the top-left.

#include <cstdint>
#include <span>
#include <string_view>

#include "app/plot/figure.hpp"

namespace poslab::app::fig {

struct Point {
  double x = 0, y = 0;
};

struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
  double right() const { return x + w; }
  double bottom() const { return y + h; }
  bool contains(Point p) const { return p.x >= x && p.x <= x + w && p.y >= y && p.y <= y + h; }
};

struct Size {
  double w = 0, h = 0;
};

enum class VAnchor { top, middle, baseline, bottom };

/// A face's ascent and descent at a size (both positive): where Painter::text
/// puts a text's top and bottom for VAnchor::top and VAnchor::bottom.
struct FontExtents {
  double ascent = 0, descent = 0;
};

struct TextStyle {
  double size = 13;  ///< font size in painter units (pixels at scale 1)
  bool bold = false;
  Color color;
};

/// A heatmap sampled at the destination's pixel resolution: w × h values,
/// row 0 at the *top* of `dst`, with its colormap and range. Painters turn it
/// into pixels (a LUT on the CPU, or a GL texture + colormap shader).
struct ScalarRaster {
  int w = 0, h = 0;
  std::span<const float> values;        ///< w·h
  std::span<const std::uint8_t> mask;   ///< empty or w·h (1 = masked)
  Colormap colormap = Colormap::magnitude;
  double vmin = 0, vmax = 1;
  Color masked = Color::rgb(0xc8c8c8);  ///< the theme's colour for masked cells
  /// Where dst's left, top, right and bottom edges fall on the raster, as
  /// fractions of its width and height (texture coordinates; the whole raster
  /// by default). Only a painter that samples rasters itself
  /// (Painter::samples_rasters) gets anything else: a grid of cells, coarser
  /// or finer than dst's pixels, each pixel showing the cell under its centre.
  double u0 = 0, v0 = 0, u1 = 1, v1 = 1;
};

class Painter {
 public:
  virtual ~Painter() = default;
  virtual void fill_rect(const Rect& r, Color c) = 0;
  virtual void stroke_polyline(std::span<const Point> pts, Color c, double width, LineStyle style) = 0;
  virtual void fill_polygon(std::span<const Point> pts, Color c) = 0;
  virtual void fill_circle(Point center, double radius, Color c) = 0;
  /// Text anchored at `at`; `rotated` = read bottom-to-top (a y-axis label).
  virtual void text(Point at, std::string_view utf8, const TextStyle& style, Anchor h, VAnchor v,
                    bool rotated = false) = 0;
  virtual Size measure(std::string_view utf8, const TextStyle& style) = 0;
  /// The ascent and descent text() anchors `style` by (DejaVu Sans's when a
  /// painter does not say: 0.929 and 0.236 em).
  virtual FontExtents font_extents(const TextStyle& style) { return {0.929 * style.size, 0.236 * style.size}; }
  virtual void heatmap(const Rect& dst, const ScalarRaster& raster) = 0;
  virtual void push_clip(const Rect& r) = 0;
  virtual void pop_clip() = 0;
  /// Device pixels per painter unit (2 for a PNG at --scale 2, the framebuffer
  /// scale on screen); heatmaps are sampled at this density.
  virtual double pixel_density() const { return 1.0; }
  /// True if heatmap() samples its raster per pixel itself (the window's GPU,
  /// nearest texel): it may then get a heatmap's grid of cells with texture
  /// coordinates (ScalarRaster::u0…v1) instead of a raster at dst's pixels.
  virtual bool samples_rasters() const { return false; }
};

}  // namespace poslab::app::fig
