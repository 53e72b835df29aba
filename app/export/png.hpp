#pragma once
// PNG in memory (written with libpng, read through cairo): the exported PNGs, the heatmap images inside
// SVG files, the GUI's captures (ui/image.hpp) and the tests' checks of what
// was written. No files here: write_file_atomically() writes the bytes.

#include <cairo.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace poslab::app {

/// Pixels, row 0 at the top, each 0xAARRGGBB with premultiplied alpha (cairo's
/// ARGB32 in memory).
struct Image {
  int width = 0, height = 0;
  std::vector<std::uint32_t> pixels;
  bool empty() const { return width <= 0 || height <= 0; }
};

/// A cairo surface owned by its holder (destroyed with it).
struct SurfaceDeleter {
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
using OwnedSurface = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;

/// The PNG bytes of a cairo image surface. Raises IoError.
std::string encode_png(cairo_surface_t* surface);

/// The image as PNG bytes. Raises IoError (also for an empty image).
std::string encode_png(const Image& image);

/// Decodes PNG bytes of any colour type into ARGB32 pixels. Raises IoError
/// ("not a readable PNG").
Image decode_png(const std::string& bytes);

}  // namespace poslab::app
