#version 300 es
// WebGL 2 (GLSL ES 3.00) variant of shaders/heatmap_colormap.frag.glsl, for the browser
// build; the same program line for line, with the precision ES requires.
precision highp float;
precision highp sampler2D;
// Colours a scalar raster (an R32F texture sampled nearest: a texel per
// device pixel, or a heatmap's cells) through a colormap lookup table, exactly as the exporters do
// on the CPU (export/cairo_painter.cpp raster_to_argb): index = round(t·255)
// with t = (v − vmin) / (vmax − vmin), clamped; masked cells (stored as a
// value >= 1e30) get the theme's masked colour.
uniform sampler2D u_values;  // R32F, w × h
uniform sampler2D u_lut;     // 256 × 1 RGBA8: fig::colormap_lut
uniform float u_vmin;
uniform float u_vmax;
uniform vec4 u_masked;
in vec2 v_uv;
out vec4 frag_color;

void main() {
  float v = texture(u_values, v_uv).r;
  if (v >= 1e30) {
    frag_color = u_masked;
    return;
  }
  float span = u_vmax - u_vmin;
  float t = span > 0.0 ? clamp((v - u_vmin) / span, 0.0, 1.0) : 0.5;
  float index = floor(t * 255.0 + 0.5);
  frag_color = texture(u_lut, vec2((index + 0.5) / 256.0, 0.5));
}
