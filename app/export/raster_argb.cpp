#include "app/export/raster_argb.hpp"

#include <algorithm>
#include <cmath>

namespace poslab::app {

std::vector<std::uint32_t> raster_to_argb(const fig::ScalarRaster& r) {
  const fig::Color masked = r.masked;
  const auto lut = fig::colormap_lut(r.colormap);
  std::vector<std::uint32_t> px(static_cast<std::size_t>(r.w) * static_cast<std::size_t>(r.h));
  const double span = r.vmax - r.vmin;
  auto to_byte = [](float u) { return static_cast<std::uint32_t>(std::lround(std::clamp(u, 0.0f, 1.0f) * 255.0f)); };
  const std::uint32_t masked_px =
      (0xffu << 24) | (to_byte(masked.r) << 16) | (to_byte(masked.g) << 8) | to_byte(masked.b);
  for (std::size_t i = 0; i < px.size(); ++i) {
    if (!r.mask.empty() && r.mask[i]) {
      px[i] = masked_px;
      continue;
    }
    const double t = span > 0 ? (r.values[i] - r.vmin) / span : 0.5;
    const auto k = static_cast<std::size_t>(std::clamp(static_cast<int>(std::lround(t * 255.0)), 0, 255));
    const std::uint32_t rgba = lut[k];  // r | g<<8 | b<<16 | a<<24
    px[i] = (0xffu << 24) | ((rgba & 0xff) << 16) | (((rgba >> 8) & 0xff) << 8) | ((rgba >> 16) & 0xff);
  }
  return px;
}

}  // namespace poslab::app
