#pragma once
// A Painter on a cairo context: PNG (image surface) and PDF (vector, text as
// real text with embedded fonts). Fonts come from fontconfig: DejaVu Sans for
// Latin, Greek and math symbols; a CJK face for Chinese.

#include <cairo.h>

#include <memory>
#include <string>
#include <vector>

#include "app/export/png.hpp"
#include "app/export/raster_argb.hpp"
#include "app/plot/painter.hpp"

namespace poslab::app {

/// A cairo surface owned by its holder (destroyed with it).
struct SurfaceDeleter {
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
using OwnedSurface = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;

/// The PNG bytes of a cairo image surface. Raises IoError.
std::string encode_png(cairo_surface_t* surface);

/// A PDF surface (pages of w × h points) that appends its bytes to `out`.
cairo_surface_t* pdf_stream_surface(std::string& out, double w, double h);
/// Ends a PDF drawn through `cr` on `surface` and destroys both; raises
/// IoError when cairo failed on either.
void finish_pdf(cairo_t* cr, cairo_surface_t* surface);

/// A handle on the cairo painter. Its drawing calls are fig::Painter's,
/// declared once in plot/painter.hpp; the class that implements them lives in
/// cairo_painter.cpp alone. The handle converts to fig::Painter&, so callers
/// write render_figure(figure, painter, …) as with any painter.
class CairoPainter {
 public:
  /// Draws on `cr` (not owned). `density`: device pixels per unit (PNG scale).
  /// `font_family`: one family, or "Latin, CJK" (export_font_families): then
  /// CJK characters are drawn from the second, the rest from the first.
  CairoPainter(cairo_t* cr, double density, std::string font_family);
  ~CairoPainter();
  CairoPainter(const CairoPainter&) = delete;
  CairoPainter& operator=(const CairoPainter&) = delete;

  operator fig::Painter&();  ///< implicit on purpose: the handle stands for its painter

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

/// The advance of `utf8` drawn as CairoPainter draws it (runs of `family` and
/// `cjk_family`; one run when cjk_family is empty). Leaves `family` selected at
/// the style's size. Shared with the SVG painter so both lay out alike.
double text_advance(cairo_t* cr, std::string_view utf8, const std::string& family, const std::string& cjk_family,
                    const fig::TextStyle& style);


}  // namespace poslab::app
