#pragma once
// A Painter on a cairo context: PNG (image surface) and PDF (vector, text as
// real text with embedded fonts). Fonts come from fontconfig: DejaVu Sans for
// Latin, Greek and math symbols; a CJK face for Chinese.

#include <cairo.h>

#include <string>
#include <vector>

#include "app/plot/render.hpp"

namespace poslab::app {

class CairoPainter final : public fig::Painter {
 public:
  /// Draws on `cr` (not owned). `density`: device pixels per unit (PNG scale).
  /// `font_family`: one family, or "Latin, CJK" (export_font_families): then
  /// CJK characters are drawn from the second, the rest from the first.
  CairoPainter(cairo_t* cr, double density, std::string font_family);

  void fill_rect(const fig::Rect& r, fig::Color c) override;
  void stroke_polyline(std::span<const fig::Point> pts, fig::Color c, double width, fig::LineStyle style) override;
  void fill_polygon(std::span<const fig::Point> pts, fig::Color c) override;
  void fill_circle(fig::Point center, double radius, fig::Color c) override;
  void text(fig::Point at, std::string_view utf8, const fig::TextStyle& style, fig::Anchor h, fig::VAnchor v,
            bool rotated) override;
  fig::Size measure(std::string_view utf8, const fig::TextStyle& style) override;
  void heatmap(const fig::Rect& dst, const fig::ScalarRaster& raster) override;
  void push_clip(const fig::Rect& r) override;
  void pop_clip() override;
  double pixel_density() const override { return density_; }

 private:
  void set_font(const fig::TextStyle& style, bool cjk = false);
  cairo_t* cr_;
  double density_;
  std::string family_;
  std::string cjk_family_;  ///< empty: one face for everything
};

/// The advance of `utf8` drawn as CairoPainter draws it (runs of `family` and
/// `cjk_family`; one run when cjk_family is empty). Leaves `family` selected at
/// the style's size. Shared with the SVG painter so both lay out alike.
double text_advance(cairo_t* cr, std::string_view utf8, const std::string& family, const std::string& cjk_family,
                    const fig::TextStyle& style);

/// Turns a scalar raster into premultiplied ARGB32 pixels through the
/// colormap's lookup table; masked cells get `raster.masked`. Shared with the SVG painter.
std::vector<std::uint32_t> raster_to_argb(const fig::ScalarRaster& raster);

}  // namespace poslab::app
