#version 300 es
// WebGL 2 (GLSL ES 3.00) variant of shaders/heatmap.vert.glsl, for the browser
// build; the same program line for line, with the precision ES requires.
precision highp float;
precision highp int;
// A screen-aligned quad for one heatmap, from gl_VertexID (no vertex buffer):
// 4 vertices drawn as a triangle strip. u_rect = (left, top, right, bottom)
// in normalised device coordinates; v_uv runs from u_uv.xy at the top-left
// corner to u_uv.zw at the bottom-right ((0, 0) to (1, 1): the whole texture,
// row 0 at the top; a part of a grid of cells when zoomed).
uniform vec4 u_rect;
uniform vec4 u_uv;
out vec2 v_uv;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  v_uv = mix(u_uv.xy, u_uv.zw, corner);
  gl_Position = vec4(mix(u_rect.x, u_rect.z, corner.x), mix(u_rect.y, u_rect.w, corner.y), 0.0, 1.0);
}
