#pragma once
// A scalar raster coloured through its colormap's lookup table, as every
// surface shows it: the PNG/PDF painter, the SVG writer's embedded images,
// the GPU fallback without shaders. No cairo here (the browser build has none).

#include <cstdint>
#include <vector>

#include "app/plot/render.hpp"

namespace poslab::app {

/// Turns a scalar raster into premultiplied ARGB32 pixels (0xAARRGGBB)
/// through the colormap's lookup table; masked cells get `raster.masked`.
std::vector<std::uint32_t> raster_to_argb(const fig::ScalarRaster& raster);

}  // namespace poslab::app
