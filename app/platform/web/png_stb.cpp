// PNG in memory for the browser build, through stb_image and
// stb_image_write (Debian's libstb-dev headers): the same contract as the
// desktop's cairo version (export/png.hpp) — premultiplied 0xAARRGGBB in,
// premultiplied 0xAARRGGBB out.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "app/common/atomic_file.hpp"
#include "app/export/png.hpp"

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Weverything"
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#pragma clang diagnostic pop

namespace poslab::app {

namespace {

void append(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
}

}  // namespace

std::string encode_png(const Image& img) {
  if (img.empty() || img.pixels.size() < static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height))
    throw IoError("cannot encode an empty image");
  std::vector<unsigned char> rgba(img.pixels.size() * 4);
  for (std::size_t i = 0; i < img.pixels.size(); ++i) {
    const std::uint32_t p = img.pixels[i];
    const unsigned a = p >> 24;
    // premultiplied → straight alpha, as PNG stores it
    auto un = [a](unsigned c) { return static_cast<unsigned char>(a ? std::min(255u, (c * 255u + a / 2) / a) : 0u); };
    rgba[4 * i + 0] = un((p >> 16) & 0xff);
    rgba[4 * i + 1] = un((p >> 8) & 0xff);
    rgba[4 * i + 2] = un(p & 0xff);
    rgba[4 * i + 3] = static_cast<unsigned char>(a);
  }
  std::string out;
  if (!stbi_write_png_to_func(append, &out, img.width, img.height, 4, rgba.data(), img.width * 4) || out.empty())
    throw IoError("cannot encode a " + std::to_string(img.width) + "×" + std::to_string(img.height) + " image");
  return out;
}

Image decode_png(const std::string& bytes) {
  int w = 0, h = 0, channels = 0;
  if (bytes.size() > static_cast<std::size_t>(INT32_MAX)) throw IoError("not a readable PNG");
  unsigned char* data = stbi_load_from_memory(reinterpret_cast<const unsigned char*>(bytes.data()),
                                              static_cast<int>(bytes.size()), &w, &h, &channels, 4);
  if (!data) throw IoError("not a readable PNG");
  Image img;
  img.width = w, img.height = h;
  img.pixels.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  for (std::size_t i = 0; i < img.pixels.size(); ++i) {
    const unsigned a = data[4 * i + 3];
    auto pm = [a](unsigned c) { return (c * a + 127u) / 255u; };
    img.pixels[i] = (a << 24) | (pm(data[4 * i]) << 16) | (pm(data[4 * i + 1]) << 8) | pm(data[4 * i + 2]);
  }
  stbi_image_free(data);
  return img;
}

}  // namespace poslab::app
