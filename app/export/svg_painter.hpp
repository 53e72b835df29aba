#pragma once
// A Painter that writes SVG by hand, so text stays text (<text> elements a
// reader can select, search and restyle) — cairo's SVG surface turns glyphs
// into outlines. Text is measured (export/text_metrics.hpp) on the same font
// the file names, so the layout matches the PNG and PDF.

#include <memory>
#include <string>

#include "app/plot/painter.hpp"

namespace poslab::app {

/// A handle on the SVG painter: its drawing calls are fig::Painter's (declared
/// once, in plot/painter.hpp), implemented in svg_painter.cpp alone; the
/// handle converts to fig::Painter& for render_figure(figure, painter, …).
class SvgPainter {
 public:
  SvgPainter(double width, double height, std::string font_family, double raster_density);
  ~SvgPainter();
  SvgPainter(const SvgPainter&) = delete;
  SvgPainter& operator=(const SvgPainter&) = delete;

  operator fig::Painter&();  ///< implicit on purpose: the handle stands for its painter

  /// The document's text alternative: <title> and <desc> as the <svg>'s
  /// first children, named by its aria-labelledby (role="img"), so a
  /// screen reader, a search engine or a browser's tooltip reads them.
  void describe(std::string title, std::string description);

  /// The finished document.
  std::string finish();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace poslab::app
