#pragma once
// Animated GIFs for slides: one palette of at most 256 colours shared by
// every frame (a palette per frame made text and flat areas shimmer from
// frame to frame), the colours that cover the most pixels kept exact (white
// stays white, black stays black, the series keep their colours), the rest
// by median cut over every frame's pixels. Encoded here (GIF89a, LZW, looping
// forever) into memory and written atomically like any other export, so a
// failed or cancelled recording leaves no partial file and the file mode is
// an export's.
//
// Use: learn() every frame (the palette), then add_frame() each frame in the
// order shown (or repeat_frame() one already added: a bounce plays frames
// back without storing them twice), then commit().

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "app/export/png.hpp"

namespace poslab::app {

/// A palette shared by a whole animation.
class GifPalette {
 public:
  /// Counts the colours of `image` (opaque pixels; alpha is ignored).
  void learn(const Image& image);
  /// The palette (≤ 256 colours, 0xRRGGBB): the most frequent exact colours
  /// (each on at least 1/1000 of the pixels, up to 64), then median cut.
  std::vector<std::uint32_t> build() const;

 private:
  struct Bin {
    std::uint64_t count = 0, r = 0, g = 0, b = 0;
  };
  std::vector<Bin> bins_ = std::vector<Bin>(1u << 15);  ///< 5 bits per channel
  std::unordered_map<std::uint32_t, std::uint64_t> exact_;  ///< bounded: new colours stop being counted
  std::uint64_t pixels_ = 0;
};

/// Maps colours to the nearest palette entry (exact entries exactly).
class GifColourMap {
 public:
  explicit GifColourMap(std::vector<std::uint32_t> palette);
  std::uint8_t index(std::uint32_t rgb);
  const std::vector<std::uint32_t>& palette() const { return palette_; }

 private:
  std::vector<std::uint32_t> palette_;
  std::unordered_map<std::uint32_t, std::uint8_t> exact_;
  std::vector<std::int16_t> near_;  ///< by 6-bit-per-channel colour, −1 = not computed yet
};

/// The LZW-compressed image data of one frame (indices, 8-bit code size) as
/// a GIF writes it: code size byte, sub-blocks, terminator.
std::string gif_lzw(std::span<const std::uint8_t> indices);

class GifWriter {
 public:
  /// Raises IoError when the folder of `destination` cannot take a file.
  explicit GifWriter(std::filesystem::path destination);

  /// Adds `image` to what the shared palette is built from.
  void learn(const Image& image);
  /// Appends `image` (after every learn(); the first call builds the
  /// palette, from this frame alone if nothing was learned), shown for
  /// `delay_cs` hundredths of a second. Every frame has the first frame's
  /// size. Returns the frame's number, for repeat_frame. Raises IoError.
  int add_frame(const Image& image, int delay_cs);
  /// Appends frame `frame` (a number add_frame returned) again.
  void repeat_frame(int frame, int delay_cs);
  /// The whole GIF; writes it atomically. Raises IoError.
  void commit();
  int frames() const { return static_cast<int>(order_.size()); }
  /// The GIF's bytes as commit() writes them (tests).
  std::string bytes() const;

 private:
  std::filesystem::path destination_;
  GifPalette learned_;
  bool learned_any_ = false;
  std::unique_ptr<GifColourMap> map_;
  int width_ = 0, height_ = 0;
  std::vector<std::string> encoded_;               ///< one per distinct frame
  std::vector<std::pair<int, int>> order_;         ///< (frame, delay) as shown
};

}  // namespace poslab::app
