#pragma once
// A Painter that writes SVG by hand, so text stays text (<text> elements a
// reader can select, search and restyle) — cairo's SVG surface turns glyphs
// into outlines. Text is measured with cairo + fontconfig on the same font
// the file names, so the layout matches the PNG and PDF.

#include <cairo.h>

#include <string>

#include "app/plot/render.hpp"

namespace poslab::app {

class SvgPainter final : public fig::Painter {
 public:
  SvgPainter(double width, double height, std::string font_family, double raster_density);
  ~SvgPainter() override;
  SvgPainter(const SvgPainter&) = delete;
  SvgPainter& operator=(const SvgPainter&) = delete;

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

  /// The finished document.
  std::string finish();

 private:
  std::string body_;
  std::string defs_;
  double width_, height_;
  std::string family_;
  std::string cjk_family_;        ///< empty: one face for everything
  std::string font_family_attr_;  ///< the font-family every <text> names
  double density_;
  int clip_id_ = 0;
  int open_groups_ = 0;
  cairo_surface_t* scratch_surface_ = nullptr;
  cairo_t* scratch_ = nullptr;  ///< for text metrics only
};

}  // namespace poslab::app
