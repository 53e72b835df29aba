#pragma once
// PNG in memory: the exported PNGs, the heatmap images inside SVG files, the
// GUI's captures (ui/image.hpp) and the tests' checks of what was written.
// Through cairo on the desktop (png.cpp), through stb_image in the browser
// (platform/web/png_stb.cpp). No files here: write_file_atomically() writes
// the bytes.

#include <cstdint>
#include <functional>
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

/// The image as PNG bytes. Raises IoError (also for an empty image).
std::string encode_png(const Image& image);

/// An image that is never whole in memory as PNG bytes: `row_at(y)` gives
/// row y (0 at the top, `width` pixels as Image's) when the encoder needs it,
/// in order (a screenshot read back from the GPU a strip at a time). Desktop
/// only (the browser's encoder takes whole images). Raises IoError.
std::string encode_png_rows(int width, int height, const std::function<const std::uint32_t*(int y)>& row_at);

/// Decodes PNG bytes of any colour type into ARGB32 pixels. Raises IoError
/// ("not a readable PNG").
Image decode_png(const std::string& bytes);

}  // namespace poslab::app
