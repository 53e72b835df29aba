// The raster and print formats, drawn by cairo (the desktop build; the
// browser build has platform/web/figure_export_web.cpp instead).

#include <cairo-pdf.h>
#include <cairo.h>

#include <cmath>

#include "app/common/atomic_file.hpp"
#include "app/export/cairo_painter.hpp"
#include "app/export/figure_export.hpp"

namespace poslab::app {

namespace {

cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

std::string render_png(const fig::Figure& figure, const ExportOptions& o) {
  o.check();
  const int pw = static_cast<int>(std::lround(o.width * o.scale));
  const int ph = static_cast<int>(std::lround(o.height * o.scale));
  const OwnedSurface surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph));
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
    throw IoError("cannot allocate a " + std::to_string(pw) + "×" + std::to_string(ph) + " image");
  cairo_t* cr = cairo_create(surface.get());
  cairo_scale(cr, o.scale, o.scale);
  CairoPainter painter(cr, o.scale, o.font_family);
  fig::render_figure(figure, painter, {0, 0, static_cast<double>(o.width), static_cast<double>(o.height)}, export_render_style(o));
  cairo_destroy(cr);
  return encode_png(surface.get());
}

std::string render_pdf(const fig::Figure& figure, const ExportOptions& o) {
  o.check();
  std::string pdf;
  cairo_surface_t* surface = cairo_pdf_surface_create_for_stream(append_bytes, &pdf, o.width, o.height);
  cairo_t* cr = cairo_create(surface);
  {
    CairoPainter painter(cr, 2.0, o.font_family);  // heatmap rasters at 2 px per point
    fig::render_figure(figure, painter, {0, 0, static_cast<double>(o.width), static_cast<double>(o.height)},
                       export_render_style(o));
  }
  cairo_show_page(cr);
  const cairo_status_t st = cairo_status(cr);
  cairo_destroy(cr);
  cairo_surface_finish(surface);
  const cairo_status_t st2 = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  if (st != CAIRO_STATUS_SUCCESS || st2 != CAIRO_STATUS_SUCCESS)
    throw IoError(std::string("cannot render PDF: ") + cairo_status_to_string(st != CAIRO_STATUS_SUCCESS ? st : st2));
  return pdf;
}

}  // namespace poslab::app
