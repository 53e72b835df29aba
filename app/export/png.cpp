#include "app/export/png.hpp"

#include <png.h>

#include <csetjmp>
#include <cstring>
#include <functional>

#include "app/export/cairo_painter.hpp"

#include "app/common/atomic_file.hpp"

namespace poslab::app {

namespace {

/// libpng's output callback: appends to the std::string behind the pointer
/// (no exception may cross libpng's C frames: a failure is png_error, which
/// returns through setjmp in write_png).
void append_bytes(png_structp png, png_bytep data, png_size_t length) {
  auto* out = static_cast<std::string*>(png_get_io_ptr(png));
  try {
    out->append(reinterpret_cast<const char*>(data), length);
  } catch (...) {
    png_error(png, "out of memory");
  }
}

/// ARGB32 rows (premultiplied, native-endian 0xAARRGGBB words) as RGBA or
/// RGB bytes, compressed fast: zlib level 3 on rows filtered by Sub — a few
/// times faster than cairo's writer (level 6, adaptive filters) for a file
/// some 10 % larger, so a large export stays within its time budget. Returns
/// false on any libpng error. No C++ object lives across the setjmp.
bool write_png(const std::function<const unsigned char*(int y)>& row_at, int width, int height, bool alpha,
               std::string* out, unsigned char* row) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  if (!png) return false;
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, info ? &info : nullptr);
    return false;
  }
  png_set_write_fn(png, out, append_bytes, nullptr);
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
               alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 1);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
  png_write_info(png, info);
  const int channels = alpha ? 4 : 3;
  for (int y = 0; y < height; ++y) {
    const auto* src = reinterpret_cast<const std::uint32_t*>(row_at(y));
    for (int x = 0; x < width; ++x) {
      const std::uint32_t p = src[x];
      const unsigned a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
      unsigned char* d = row + static_cast<std::ptrdiff_t>(x) * channels;
      if (!alpha || a == 255) {
        d[0] = static_cast<unsigned char>(r), d[1] = static_cast<unsigned char>(g), d[2] = static_cast<unsigned char>(b);
      } else if (a == 0) {
        d[0] = d[1] = d[2] = 0;
      } else {  // un-premultiply, rounding as cairo's own writer does
        d[0] = static_cast<unsigned char>((r * 255 + a / 2) / a);
        d[1] = static_cast<unsigned char>((g * 255 + a / 2) / a);
        d[2] = static_cast<unsigned char>((b * 255 + a / 2) / a);
      }
      if (alpha) d[3] = static_cast<unsigned char>(a);
    }
    png_write_row(png, row);
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

/// Copies rows between tightly packed pixels and a surface's strided rows.
void copy_rows(unsigned char* dst, int dst_stride, const unsigned char* src, int src_stride, int width, int height) {
  for (int y = 0; y < height; ++y)
    std::memcpy(dst + static_cast<std::ptrdiff_t>(y) * dst_stride, src + static_cast<std::ptrdiff_t>(y) * src_stride,
                static_cast<std::size_t>(width) * 4);
}

}  // namespace

std::string encode_png(cairo_surface_t* surface) {
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS)
    throw IoError(std::string("cannot encode PNG: ") + cairo_status_to_string(cairo_surface_status(surface)));
  cairo_surface_flush(surface);
  const cairo_format_t format = cairo_image_surface_get_format(surface);
  const int width = cairo_image_surface_get_width(surface), height = cairo_image_surface_get_height(surface);
  const unsigned char* data = cairo_image_surface_get_data(surface);
  if (!data || width <= 0 || height <= 0 || (format != CAIRO_FORMAT_ARGB32 && format != CAIRO_FORMAT_RGB24))
    throw IoError("cannot encode PNG: not an ARGB32 or RGB24 image surface");
  const bool alpha = format == CAIRO_FORMAT_ARGB32;
  std::string out;
  std::vector<unsigned char> row(static_cast<std::size_t>(width) * 4);
  const int stride = cairo_image_surface_get_stride(surface);
  if (!write_png([&](int y) { return data + static_cast<std::ptrdiff_t>(y) * stride; }, width, height, alpha, &out,
                 row.data()))
    throw IoError("cannot encode PNG: " + std::to_string(width) + "×" + std::to_string(height) + " image");
  return out;
}

std::string encode_png(const Image& img) {
  if (img.empty() || img.pixels.size() < static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height))
    throw IoError("cannot encode an empty image");
  // The pixels are already cairo's ARGB32 words: encoded where they are, not
  // copied into a surface first (a 4096 × 4096 screenshot held 64 MB twice).
  return encode_png_rows(img.width, img.height, [&](int y) {
    return img.pixels.data() + static_cast<std::ptrdiff_t>(y) * img.width;
  });
}

std::string encode_png_rows(int width, int height, const std::function<const std::uint32_t*(int y)>& row_at) {
  if (width <= 0 || height <= 0) throw IoError("cannot encode an empty image");
  std::string out;
  std::vector<unsigned char> row(static_cast<std::size_t>(width) * 4);
  if (!write_png([&](int y) { return reinterpret_cast<const unsigned char*>(row_at(y)); }, width, height, true, &out,
                 row.data()))
    throw IoError("cannot encode PNG: " + std::to_string(width) + "×" + std::to_string(height) + " image");
  return out;
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
