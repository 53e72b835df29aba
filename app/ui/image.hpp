#pragma once
// A captured image (the window, a figure frame of a sweep) and its files:
// PNG through cairo, written atomically. No GL here (gl/capture.* fills it).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace poslab::app::ui {

/// Opaque pixels, row 0 at the top, each 0xAARRGGBB (cairo's ARGB32 in memory).
struct Image {
  int width = 0, height = 0;
  std::vector<std::uint32_t> pixels;
  bool empty() const { return width <= 0 || height <= 0; }
};

/// The image as PNG bytes. Raises IoError.
std::string encode_png(const Image& image);

/// Writes the image as a PNG, atomically. Raises IoError.
void write_png(const std::filesystem::path& path, const Image& image);

/// Decodes PNG bytes (for tests and GIF frames). Raises IoError.
Image decode_png(const std::string& bytes);

}  // namespace poslab::app::ui
