#pragma once
// Shared by the app test suites: the assets folder, a translator, PNG decoding.

#include <algorithm>
#include <cstdint>
#include <exception>
#include <string>

#include "app/common/assets.hpp"
#include "app/common/i18n.hpp"
#include "app/export/png.hpp"

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

/// Decodes PNG bytes (app::decode_png, what the app itself reads) and samples its pixels.
inline DecodedPng decode_png(const std::string& bytes) {
  DecodedPng d;
  app::Image img;
  try {
    img = app::decode_png(bytes);
  } catch (const std::exception&) {
    return d;
  }
  d.ok = !img.empty();
  d.width = img.width;
  d.height = img.height;
  std::uint32_t seen[64];
  int n = 0;
  for (int y = 0; y < d.height; y += std::max(1, d.height / 97))
    for (int x = 0; x < d.width; x += std::max(1, d.width / 89)) {
      const std::uint32_t v = img.pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) + static_cast<std::size_t>(x)];
      bool found = false;
      for (int i = 0; i < n; ++i) found = found || seen[i] == v;
      if (!found && n < 64) seen[n++] = v;
    }
  d.distinct_colours = n;
  return d;
}

}  // namespace poslab::test
