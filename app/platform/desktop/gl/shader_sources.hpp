#pragma once
// The GLSL sources of shaders/*.glsl, embedded into the binary at build time
// (shaders/embed_shaders.cmake), so nothing is read from disk at run time.

#include <string_view>

namespace poslab::app::gl {

/// The source of `name` ("heatmap.vert.glsl"), or empty if no such shader.
std::string_view shader_source(std::string_view name);

}  // namespace poslab::app::gl
