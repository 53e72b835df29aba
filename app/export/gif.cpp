// [SECTION] Index
// - The shared palette: exact colours, then median cut
// - Colours to palette indices
// - LZW (GIF89a, variable code size 9..12 bits)
// - The file
//
// GIF89a as specified by CompuServe (1990): a logical screen with one global
// colour table, the NETSCAPE2.0 application extension for looping, a graphic
// control extension (delay) before each image, LZW data in sub-blocks of at
// most 255 bytes.

#include "app/export/gif.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>
#include <random>

#include "app/common/atomic_file.hpp"

namespace poslab::app {

namespace {

constexpr std::size_t kMaxExactColours = 64;
constexpr std::size_t kMaxTrackedColours = 1u << 16;

int red(std::uint32_t c) { return static_cast<int>((c >> 16) & 0xff); }
int green(std::uint32_t c) { return static_cast<int>((c >> 8) & 0xff); }
int blue(std::uint32_t c) { return static_cast<int>(c & 0xff); }

/// An opaque pixel's colour, 0xRRGGBB (premultiplied alpha undone).
std::uint32_t rgb_of(std::uint32_t p) {
  const std::uint32_t a = p >> 24;
  if (a == 255 || a == 0) return p & 0xffffffu;
  auto un = [a](std::uint32_t c) { return std::min(255u, c * 255u / a); };
  return (un((p >> 16) & 0xff) << 16) | (un((p >> 8) & 0xff) << 8) | un(p & 0xff);
}

std::uint32_t bin_of(std::uint32_t c) {
  return (static_cast<std::uint32_t>(red(c) >> 3) << 10) | (static_cast<std::uint32_t>(green(c) >> 3) << 5) |
         static_cast<std::uint32_t>(blue(c) >> 3);
}

}  // namespace

// [SECTION] The shared palette

void GifPalette::learn(const Image& image) {
  for (const std::uint32_t p : image.pixels) {
    const std::uint32_t c = rgb_of(p);
    Bin& b = bins_[bin_of(c)];
    ++b.count;
    b.r += static_cast<std::uint64_t>(red(c));
    b.g += static_cast<std::uint64_t>(green(c));
    b.b += static_cast<std::uint64_t>(blue(c));
    if (auto it = exact_.find(c); it != exact_.end()) ++it->second;
    else if (exact_.size() < kMaxTrackedColours) exact_.emplace(c, 1);
  }
  pixels_ += image.pixels.size();
}

std::vector<std::uint32_t> GifPalette::build() const {
  std::vector<std::uint32_t> palette;
  // The most frequent exact colours: backgrounds, text, the series' colours.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> frequent;
  for (const auto& [c, n] : exact_)
    if (n * 1000 >= pixels_) frequent.emplace_back(n, c);
  std::sort(frequent.begin(), frequent.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;  // deterministic
  });
  for (std::size_t i = 0; i < frequent.size() && i < kMaxExactColours; ++i) palette.push_back(frequent[i].second);

  // Median cut over the 5-bit bins for the rest (antialiasing, heatmaps).
  struct Box {
    std::vector<std::uint32_t> bins;
    std::uint64_t count = 0;
  };
  auto channel = [](std::uint32_t bin, int ch) { return static_cast<int>((bin >> (10 - 5 * ch)) & 31); };
  std::vector<Box> boxes(1);
  for (std::uint32_t i = 0; i < bins_.size(); ++i)
    if (bins_[i].count) boxes[0].bins.push_back(i), boxes[0].count += bins_[i].count;
  if (boxes[0].bins.empty()) return palette.empty() ? std::vector<std::uint32_t>{0} : palette;
  const std::size_t room = 256 - palette.size();
  while (boxes.size() < room) {
    // Split the box with the most pixels times its widest side.
    std::size_t best = boxes.size();
    double best_score = 0;
    int best_ch = 0;
    for (std::size_t k = 0; k < boxes.size(); ++k) {
      if (boxes[k].bins.size() < 2) continue;
      for (int ch = 0; ch < 3; ++ch) {
        int lo = 31, hi = 0;
        for (std::uint32_t bin : boxes[k].bins) lo = std::min(lo, channel(bin, ch)), hi = std::max(hi, channel(bin, ch));
        const double score = static_cast<double>(boxes[k].count) * (hi - lo);
        if (score > best_score) best_score = score, best = k, best_ch = ch;
      }
    }
    if (best == boxes.size()) break;
    Box& b = boxes[best];
    std::sort(b.bins.begin(), b.bins.end(), [&](std::uint32_t x, std::uint32_t y) {
      return channel(x, best_ch) != channel(y, best_ch) ? channel(x, best_ch) < channel(y, best_ch) : x < y;
    });
    std::uint64_t half = 0;
    std::size_t cut = 0;
    while (cut + 1 < b.bins.size() && half + bins_[b.bins[cut]].count <= b.count / 2) half += bins_[b.bins[cut++]].count;
    cut = std::max<std::size_t>(cut, 1);
    Box upper;
    upper.bins.assign(b.bins.begin() + static_cast<std::ptrdiff_t>(cut), b.bins.end());
    b.bins.resize(cut);
    b.count = 0;
    for (std::uint32_t bin : b.bins) b.count += bins_[bin].count;
    for (std::uint32_t bin : upper.bins) upper.count += bins_[bin].count;
    boxes.push_back(std::move(upper));
  }
  for (const Box& b : boxes) {
    std::uint64_t n = 0, r = 0, g = 0, bl = 0;
    for (std::uint32_t bin : b.bins) n += bins_[bin].count, r += bins_[bin].r, g += bins_[bin].g, bl += bins_[bin].b;
    if (!n) continue;
    palette.push_back(static_cast<std::uint32_t>(((r + n / 2) / n) << 16 | ((g + n / 2) / n) << 8 | ((bl + n / 2) / n)));
  }
  return palette;
}

// [SECTION] Colours to palette indices

GifColourMap::GifColourMap(std::vector<std::uint32_t> palette) : palette_(std::move(palette)) {
  if (palette_.empty()) palette_.push_back(0);
  if (palette_.size() > 256) palette_.resize(256);
  for (std::size_t i = palette_.size(); i-- > 0;) exact_[palette_[i]] = static_cast<std::uint8_t>(i);  // first wins
  near_.assign(1u << 18, -1);
}

std::uint8_t GifColourMap::index(std::uint32_t c) {
  if (auto it = exact_.find(c); it != exact_.end()) return it->second;
  const std::uint32_t key = (static_cast<std::uint32_t>(red(c) >> 2) << 12) |
                            (static_cast<std::uint32_t>(green(c) >> 2) << 6) | static_cast<std::uint32_t>(blue(c) >> 2);
  std::int16_t& slot = near_[key];
  if (slot < 0) {
    // Nearest to the centre of the 6-bit cell (within 2 levels of the colour).
    const int r = ((red(c) >> 2) << 2) + 2, g = ((green(c) >> 2) << 2) + 2, b = ((blue(c) >> 2) << 2) + 2;
    int best = 0, best_d = INT_MAX;
    for (std::size_t i = 0; i < palette_.size(); ++i) {
      const int dr = red(palette_[i]) - r, dg = green(palette_[i]) - g, db = blue(palette_[i]) - b;
      const int d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;  // green weighs most, as the eye does
      if (d < best_d) best_d = d, best = static_cast<int>(i);
    }
    slot = static_cast<std::int16_t>(best);
  }
  return static_cast<std::uint8_t>(slot);
}

// [SECTION] LZW

namespace {

class BitWriter {
 public:
  void put(unsigned code, int bits) {
    acc_ |= static_cast<std::uint32_t>(code) << n_;
    n_ += bits;
    while (n_ >= 8) {
      bytes_.push_back(static_cast<char>(acc_ & 0xff));
      acc_ >>= 8;
      n_ -= 8;
    }
  }
  std::string finish() {
    if (n_ > 0) bytes_.push_back(static_cast<char>(acc_ & 0xff));
    acc_ = 0, n_ = 0;
    return std::move(bytes_);
  }

 private:
  std::uint32_t acc_ = 0;
  int n_ = 0;
  std::string bytes_;
};

}  // namespace

std::string gif_lzw(std::span<const std::uint8_t> indices) {
  constexpr unsigned kClear = 256, kEnd = 257, kMaxCode = 4095;
  BitWriter out;
  int bits = 9;
  unsigned next = kEnd + 1, limit = 1u << bits;
  std::unordered_map<std::uint32_t, unsigned> dict;
  dict.reserve(8192);
  // A code is written with the current width; the width grows once the next
  // free code no longer fits (the decoder, one code behind, grows with it).
  auto emit = [&](unsigned code) {
    out.put(code, bits);
    if (next >= limit && code <= kMaxCode && bits < 12) limit = 1u << ++bits;
  };
  emit(kClear);
  if (!indices.empty()) {
    unsigned prefix = indices[0];
    for (std::size_t i = 1; i < indices.size(); ++i) {
      const std::uint8_t p = indices[i];
      const std::uint32_t key = (prefix << 8) | p;
      if (auto it = dict.find(key); it != dict.end()) {
        prefix = it->second;
        continue;
      }
      emit(prefix);
      prefix = p;
      if (next >= kMaxCode) {  // the table is full: start again
        emit(kClear);
        dict.clear();
        next = kEnd + 1;
        bits = 9;
        limit = 1u << bits;
      } else {
        dict.emplace(key, next++);
      }
    }
    emit(prefix);
  }
  emit(kEnd);
  const std::string data = out.finish();
  std::string blocks(1, static_cast<char>(8));  // the minimum code size
  for (std::size_t at = 0; at < data.size(); at += 255) {
    const std::size_t n = std::min<std::size_t>(255, data.size() - at);
    blocks.push_back(static_cast<char>(n));
    blocks.append(data, at, n);
  }
  blocks.push_back('\0');
  return blocks;
}

// [SECTION] The file

namespace {

void put16(std::string& s, int v) {
  s.push_back(static_cast<char>(v & 0xff));
  s.push_back(static_cast<char>((v >> 8) & 0xff));
}

}  // namespace

GifWriter::GifWriter(std::filesystem::path destination) : destination_(std::move(destination)) {
  // Fail now, not after minutes of rendering: the folder must take a new file.
  std::filesystem::path dir = destination_.parent_path();
  if (dir.empty()) dir = ".";
  std::random_device rd;
  const std::filesystem::path probe = dir / (".poslab-probe-" + std::to_string(rd()) + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw IoError("cannot write " + destination_.string() + ": " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

void GifWriter::learn(const Image& image) {
  learned_.learn(image);
  learned_any_ = true;
}

int GifWriter::add_frame(const Image& image, int delay_cs) {
  if (image.empty()) throw IoError("cannot write " + destination_.string() + ": empty frame");
  if (!map_) {
    if (!learned_any_) learned_.learn(image);
    map_ = std::make_unique<GifColourMap>(learned_.build());
    width_ = image.width, height_ = image.height;
  } else if (image.width != width_ || image.height != height_) {
    throw IoError("cannot write " + destination_.string() + ": frames differ in size");
  }
  std::vector<std::uint8_t> indices(image.pixels.size());
  for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = map_->index(rgb_of(image.pixels[i]));
  encoded_.push_back(gif_lzw(indices));
  const int frame = static_cast<int>(encoded_.size()) - 1;
  order_.emplace_back(frame, delay_cs);
  return frame;
}

void GifWriter::repeat_frame(int frame, int delay_cs) {
  if (frame < 0 || frame >= static_cast<int>(encoded_.size()))
    throw IoError("cannot write " + destination_.string() + ": no frame " + std::to_string(frame));
  order_.emplace_back(frame, delay_cs);
}

std::string GifWriter::bytes() const {
  if (!map_ || order_.empty()) throw IoError("cannot write " + destination_.string() + ": no frames");
  std::string g = "GIF89a";
  put16(g, width_);
  put16(g, height_);
  g.push_back(static_cast<char>(0xF7));  // a global table of 256 colours, 8 bits each
  g.push_back('\0');                     // background: colour 0
  g.push_back('\0');                     // square pixels
  const auto& pal = map_->palette();
  for (std::size_t i = 0; i < 256; ++i) {
    const std::uint32_t c = i < pal.size() ? pal[i] : 0;
    g.push_back(static_cast<char>(red(c)));
    g.push_back(static_cast<char>(green(c)));
    g.push_back(static_cast<char>(blue(c)));
  }
  // NETSCAPE2.0: loop forever.
  g += std::string("\x21\xFF\x0B", 3) + "NETSCAPE2.0" + std::string("\x03\x01\x00\x00\x00", 5);
  for (const auto& [frame, delay] : order_) {
    g += std::string("\x21\xF9\x04", 3);
    g.push_back(static_cast<char>(0x04));  // disposal: leave the frame in place
    put16(g, std::clamp(delay, 0, 65535));
    g.push_back('\0');  // no transparent colour
    g.push_back('\0');
    g.push_back(static_cast<char>(0x2C));  // the image, covering the screen, no local table
    put16(g, 0);
    put16(g, 0);
    put16(g, width_);
    put16(g, height_);
    g.push_back('\0');
    g += encoded_[static_cast<std::size_t>(frame)];
  }
  g.push_back(static_cast<char>(0x3B));
  return g;
}

void GifWriter::commit() { write_file_atomically(destination_, bytes()); }

}  // namespace poslab::app
