#version 300 es
// WebGL 2 (GLSL ES 3.00) variant of shaders/heatmap.vert.glsl, for the browser
// build; the same program line for line, with the precision ES requires.
precision highp float;
precision highp int;
// A screen-aligned quad for one heatmap, from gl_VertexID (no vertex buffer):
// 4 vertices drawn as a triangle strip. u_rect = (left, top, right, bottom)
// in normalised device coordinates; v_uv = (0, 0) at the top-left corner,
// where row 0 of the value texture is.
uniform vec4 u_rect;
out vec2 v_uv;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  v_uv = corner;
  gl_Position = vec4(mix(u_rect.x, u_rect.z, corner.x), mix(u_rect.y, u_rect.w, corner.y), 0.0, 1.0);
}
