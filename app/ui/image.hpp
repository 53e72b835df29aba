#pragma once
// A captured image (the window, a figure frame of a sweep) and its files:
// PNG through cairo, written atomically. No GL here (gl/capture.* fills it).
// The image and its PNG encoding are export/png.hpp's, shared with the
// exporters and the tests; this adds the file.

#include <filesystem>

#include "app/export/png.hpp"

namespace poslab::app::ui {

/// Opaque pixels, row 0 at the top, each 0xAARRGGBB (cairo's ARGB32 in memory).
using app::Image;
/// The image as PNG bytes. Raises IoError.
using app::encode_png;
/// Decodes PNG bytes (for tests and GIF frames). Raises IoError.
using app::decode_png;

/// Writes the image as a PNG, atomically. Raises IoError.
void write_png(const std::filesystem::path& path, const Image& image);

}  // namespace poslab::app::ui
