#include "app/export/png.hpp"

#include <cstring>

#include "app/export/cairo_painter.hpp"

#include "app/common/atomic_file.hpp"

namespace poslab::app {

namespace {

cairo_status_t append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

/// Copies rows between tightly packed pixels and a surface's strided rows.
void copy_rows(unsigned char* dst, int dst_stride, const unsigned char* src, int src_stride, int width, int height) {
  for (int y = 0; y < height; ++y)
    std::memcpy(dst + static_cast<std::ptrdiff_t>(y) * dst_stride, src + static_cast<std::ptrdiff_t>(y) * src_stride,
                static_cast<std::size_t>(width) * 4);
}

}  // namespace

std::string encode_png(cairo_surface_t* surface) {
  std::string out;
  const cairo_status_t st = cairo_surface_write_to_png_stream(surface, append, &out);
  if (st != CAIRO_STATUS_SUCCESS) throw IoError(std::string("cannot encode PNG: ") + cairo_status_to_string(st));
  return out;
}

std::string encode_png(const Image& img) {
  if (img.empty() || img.pixels.size() < static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height))
    throw IoError("cannot encode an empty image");
  const OwnedSurface s(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, img.width, img.height));
  if (cairo_surface_status(s.get()) != CAIRO_STATUS_SUCCESS)
    throw IoError("cannot encode a " + std::to_string(img.width) + "×" + std::to_string(img.height) + " image");
  cairo_surface_flush(s.get());
  copy_rows(cairo_image_surface_get_data(s.get()), cairo_image_surface_get_stride(s.get()),
            reinterpret_cast<const unsigned char*>(img.pixels.data()), img.width * 4, img.width, img.height);
  cairo_surface_mark_dirty(s.get());
  return encode_png(s.get());
}

Image decode_png(const std::string& bytes) {
  struct Reader {
    const std::string* data;
    std::size_t pos = 0;
  } reader{&bytes};
  auto read = [](void* closure, unsigned char* out, unsigned int length) -> cairo_status_t {
    auto* r = static_cast<Reader*>(closure);
    if (r->pos + length > r->data->size()) return CAIRO_STATUS_READ_ERROR;
    std::memcpy(out, r->data->data() + r->pos, length);
    r->pos += length;
    return CAIRO_STATUS_SUCCESS;
  };
  cairo_surface_t* s = cairo_image_surface_create_from_png_stream(read, &reader);
  if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(s);
    throw IoError("not a readable PNG");
  }
  cairo_surface_t* argb = s;
  if (cairo_image_surface_get_format(s) != CAIRO_FORMAT_ARGB32) {
    argb = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, cairo_image_surface_get_width(s),
                                      cairo_image_surface_get_height(s));
    cairo_t* cr = cairo_create(argb);
    cairo_set_source_surface(cr, s, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
  }
  cairo_surface_flush(argb);
  Image img;
  img.width = cairo_image_surface_get_width(argb);
  img.height = cairo_image_surface_get_height(argb);
  img.pixels.resize(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height));
  copy_rows(reinterpret_cast<unsigned char*>(img.pixels.data()), img.width * 4, cairo_image_surface_get_data(argb),
            cairo_image_surface_get_stride(argb), img.width, img.height);
  cairo_surface_destroy(argb);
  return img;
}

}  // namespace poslab::app
