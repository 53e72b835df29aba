// The raster and print formats, drawn by cairo (the desktop build; the
// browser build has platform/web/figure_export_web.cpp instead).

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "app/common/atomic_file.hpp"
#include "app/export/cairo_painter.hpp"
#include "app/export/figure_export.hpp"

namespace poslab::app {

namespace {

OwnedSurface render_surface(const fig::Figure& figure, const ExportOptions& o) {
  o.check();
  const int pw = static_cast<int>(std::lround(o.width * o.scale));
  const int ph = static_cast<int>(std::lround(o.height * o.scale));
  OwnedSurface surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph));
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
    throw IoError("cannot allocate a " + std::to_string(pw) + "×" + std::to_string(ph) + " image");
  cairo_t* cr = cairo_create(surface.get());
  cairo_scale(cr, o.scale, o.scale);
  {
    CairoPainter painter(cr, o.scale, o.font_family);
    fig::render_figure(figure, painter, {0, 0, static_cast<double>(o.width), static_cast<double>(o.height)},
                       export_render_style(o));
  }
  cairo_destroy(cr);
  cairo_surface_flush(surface.get());
  return surface;
}

}  // namespace

std::string render_png(const fig::Figure& figure, const ExportOptions& o) {
  const OwnedSurface surface = render_surface(figure, o);
  return encode_png(surface.get());
}

Image render_image(const fig::Figure& figure, const ExportOptions& o) {
  const OwnedSurface surface = render_surface(figure, o);
  Image img;
  img.width = cairo_image_surface_get_width(surface.get());
  img.height = cairo_image_surface_get_height(surface.get());
  img.pixels.resize(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height));
  const int stride = cairo_image_surface_get_stride(surface.get());
  const unsigned char* data = cairo_image_surface_get_data(surface.get());
  for (int y = 0; y < img.height; ++y)
    std::memcpy(img.pixels.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width),
                data + static_cast<std::ptrdiff_t>(y) * stride, static_cast<std::size_t>(img.width) * 4);
  return img;
}

std::string render_pdf(const fig::Figure& figure, const ExportOptions& o) {
  o.check();
  std::string pdf;
  // The figure is laid out at width × height and scaled onto the page,
  // centred, its aspect kept.
  const auto [page_w, page_h] = pdf_page_size(o);
  cairo_surface_t* surface = pdf_stream_surface(pdf, page_w, page_h);
  cairo_t* cr = cairo_create(surface);
  const double k = std::min(page_w / o.width, page_h / o.height);
  cairo_translate(cr, (page_w - o.width * k) / 2, (page_h - o.height * k) / 2);
  cairo_scale(cr, k, k);
  {
    CairoPainter painter(cr, std::max(2.0, 2.0 * k), o.font_family);  // heatmap rasters at ≥ 2 px per point
    fig::render_figure(figure, painter, {0, 0, static_cast<double>(o.width), static_cast<double>(o.height)},
                       export_render_style(o));
  }
  cairo_show_page(cr);
  finish_pdf(cr, surface);
  return pdf;
}

}  // namespace poslab::app
