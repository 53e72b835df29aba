// A figure drawn by cairo into pixels: the frames of a recorded sweep
// (export_service.hpp). Desktop only; the browser build has none (the page
// says recording is a desktop feature).

#include <cairo.h>

#include <cstring>

#include "app/common/atomic_file.hpp"
#include "app/export/cairo_painter.hpp"
#include "app/ui/export_service.hpp"

namespace poslab::app::ui {

Image render_figure_image(const fig::Figure& figure, int width, int height, const std::string& theme,
                          const std::string& font_family) {
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(surface);
    throw IoError("cannot allocate a " + std::to_string(width) + "×" + std::to_string(height) + " image");
  }
  cairo_t* cr = cairo_create(surface);
  {
    CairoPainter painter(cr, 1.0, font_family);
    fig::RenderStyle style;
    style.theme = fig::Theme::by_name(theme);
    style.font_size = export_font_size(width, height);
    fig::render_figure(figure, painter, fig::Rect{0, 0, static_cast<double>(width), static_cast<double>(height)}, style);
  }
  cairo_destroy(cr);
  cairo_surface_flush(surface);
  Image img;
  img.width = width, img.height = height;
  img.pixels.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height));
  const int stride = cairo_image_surface_get_stride(surface);
  const unsigned char* data = cairo_image_surface_get_data(surface);
  for (int y = 0; y < height; ++y)
    std::memcpy(img.pixels.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width),
                data + static_cast<std::ptrdiff_t>(y) * stride, static_cast<std::size_t>(width) * 4);
  cairo_surface_destroy(surface);
  for (std::uint32_t& p : img.pixels) p |= 0xff000000u;
  return img;
}

}  // namespace poslab::app::ui
