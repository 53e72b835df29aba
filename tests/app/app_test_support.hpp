#pragma once
// Shared by the app test suites: the assets folder, a translator, PNG decoding.

#include <cairo.h>

#include <cstdint>
#include <string>

#include "app/common/assets.hpp"
#include "app/common/i18n.hpp"

namespace poslab::test {

inline const app::Translator& english() {
  static const app::Translator tr = app::Translator::load(app::assets_dir(), "en");
  return tr;
}

struct DecodedPng {
  int width = 0, height = 0;
  int distinct_colours = 0;  ///< among a sample of pixels (a blank image has 1)
  bool ok = false;
};

/// Decodes PNG bytes with cairo and samples its pixels.
inline DecodedPng decode_png(const std::string& bytes) {
  struct Reader {
    const std::string* data;
    std::size_t pos = 0;
  } reader{&bytes};
  auto read = [](void* closure, unsigned char* out, unsigned int length) -> cairo_status_t {
    auto* r = static_cast<Reader*>(closure);
    if (r->pos + length > r->data->size()) return CAIRO_STATUS_READ_ERROR;
    std::copy_n(r->data->data() + r->pos, length, out);
    r->pos += length;
    return CAIRO_STATUS_SUCCESS;
  };
  cairo_surface_t* s = cairo_image_surface_create_from_png_stream(read, &reader);
  DecodedPng d;
  if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
    d.ok = true;
    d.width = cairo_image_surface_get_width(s);
    d.height = cairo_image_surface_get_height(s);
    const unsigned char* px = cairo_image_surface_get_data(s);
    const int stride = cairo_image_surface_get_stride(s);
    std::uint32_t seen[64];
    int n = 0;
    for (int y = 0; y < d.height; y += std::max(1, d.height / 97))
      for (int x = 0; x < d.width; x += std::max(1, d.width / 89)) {
        const std::uint32_t v = *reinterpret_cast<const std::uint32_t*>(px + static_cast<std::ptrdiff_t>(y) * stride + x * 4);
        bool found = false;
        for (int i = 0; i < n; ++i) found = found || seen[i] == v;
        if (!found && n < 64) seen[n++] = v;
      }
    d.distinct_colours = n;
  }
  cairo_surface_destroy(s);
  return d;
}

}  // namespace poslab::test
