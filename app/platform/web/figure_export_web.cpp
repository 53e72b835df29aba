// The raster and print formats in the browser build, which has no cairo.
//
// PNG: the page rasterizes. render_png returns the figure's SVG document with
// the PNG's pixel size as its width and height (the viewBox keeps the layout
// size, so the browser scales it crisply); when such a .png file is handed to
// the user (web/poslab.js, downloads), the page draws it on a canvas of that
// size with the same fonts the page carries and saves the canvas as PNG.
// PDF: a desktop feature; the message says so and nothing is written.

#include <cmath>
#include <string>

#include "app/common/atomic_file.hpp"
#include "app/export/figure_export.hpp"

namespace poslab::app {

std::string render_png(const fig::Figure& figure, const ExportOptions& o) {
  o.check();
  std::string svg = render_svg(figure, o);
  const long pw = std::lround(o.width * o.scale), ph = std::lround(o.height * o.scale);
  // The first width/height are the <svg> element's (SvgPainter::finish writes them first).
  const std::string from = " width=\"" + std::to_string(o.width) + "\" height=\"" + std::to_string(o.height) + "\"";
  const std::size_t at = svg.find(from);
  if (at == std::string::npos) throw IoError("cannot size the PNG: the SVG header is not as expected");
  svg.replace(at, from.size(), " width=\"" + std::to_string(pw) + "\" height=\"" + std::to_string(ph) + "\"");
  return svg;
}

std::string render_pdf(const fig::Figure&, const ExportOptions& o) {
  o.check();
  throw IoError("PDF is a desktop feature of poslab: in the browser, export PNG or SVG (an SVG prints as a PDF)");
}

}  // namespace poslab::app
