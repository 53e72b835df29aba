#include "app/platform/desktop/gl/heatmap_renderer.hpp"

#include <algorithm>
#include <cstdint>

#include "app/export/raster_argb.hpp"

namespace poslab::app::gl {

namespace {

constexpr float kMaskedSentinel = 1e30f;  // heatmap_colormap.frag.glsl: v >= 1e30 is masked

void set_nearest_clamped() {
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

}  // namespace

HeatmapRenderer::HeatmapRenderer() {
  program_ = Program::from_embedded("heatmap.vert.glsl", "heatmap_colormap.frag.glsl", fallback_reason_);
  if (program_.valid()) {
    u_rect_ = program_.uniform("u_rect");
    u_uv_ = program_.uniform("u_uv");
    u_values_ = program_.uniform("u_values");
    u_lut_ = program_.uniform("u_lut");
    u_vmin_ = program_.uniform("u_vmin");
    u_vmax_ = program_.uniform("u_vmax");
    u_masked_ = program_.uniform("u_masked");
    glGenVertexArrays(1, &vao_);
    GLint previous = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
    glGenTextures(static_cast<GLsizei>(luts_.size()), luts_.data());
    for (std::size_t i = 0; i < luts_.size(); ++i) {
      const auto lut = fig::colormap_lut(static_cast<fig::Colormap>(i));  // r | g<<8 | b<<16 | a<<24
      glBindTexture(GL_TEXTURE_2D, luts_[i]);
      set_nearest_clamped();
      glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
      // r | g<<8 | b<<16 | a<<24 is the bytes r, g, b, a in memory (every target is little-endian)
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, lut.data());
    }
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
  }
}

HeatmapRenderer::~HeatmapRenderer() {
  for (auto& [id, slot] : slots_)
    if (slot->texture) glDeleteTextures(1, &slot->texture);
  if (luts_[0]) glDeleteTextures(static_cast<GLsizei>(luts_.size()), luts_.data());
  if (vao_) glDeleteVertexArrays(1, &vao_);
}

void HeatmapRenderer::begin_frame() {
  for (std::uint32_t id : to_release_) {
    auto it = slots_.find(id);
    if (it == slots_.end()) continue;
    if (it->second->texture) glDeleteTextures(1, &it->second->texture);
    slots_.erase(it);
  }
  to_release_.clear();
}

std::uint32_t HeatmapRenderer::upload(std::uint32_t id, const fig::ScalarRaster& r) {
  if (r.w <= 0 || r.h <= 0 || r.values.size() < static_cast<std::size_t>(r.w) * static_cast<std::size_t>(r.h))
    return id;
  auto it = slots_.find(id);
  if (id == 0 || it == slots_.end()) {
    id = next_slot_++;
    it = slots_.emplace(id, std::make_unique<Slot>()).first;
    it->second->owner = this;
  }
  Slot& s = *it->second;
  s.colormap = std::clamp(static_cast<int>(r.colormap), 0, static_cast<int>(luts_.size()) - 1);
  s.vmin = static_cast<float>(r.vmin);
  s.vmax = static_cast<float>(r.vmax);
  s.masked[0] = r.masked.r, s.masked[1] = r.masked.g, s.masked[2] = r.masked.b, s.masked[3] = r.masked.a;

  GLint previous = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
  const bool fresh = s.texture == 0 || s.w != r.w || s.h != r.h;
  if (s.texture == 0) {
    glGenTextures(1, &s.texture);
    glBindTexture(GL_TEXTURE_2D, s.texture);
    set_nearest_clamped();
  } else {
    glBindTexture(GL_TEXTURE_2D, s.texture);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  const auto n = static_cast<std::size_t>(r.w) * static_cast<std::size_t>(r.h);
  if (program_.valid()) {
    const float* data = r.values.data();
    if (!r.mask.empty()) {
      values_.assign(r.values.begin(), r.values.begin() + static_cast<std::ptrdiff_t>(n));
      for (std::size_t i = 0; i < n && i < r.mask.size(); ++i)
        if (r.mask[i]) values_[i] = kMaskedSentinel;
      data = values_.data();
    }
    if (fresh) glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, r.w, r.h, 0, GL_RED, GL_FLOAT, data);
    else glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, r.w, r.h, GL_RED, GL_FLOAT, data);
  } else {
    s.rgba = true;
    auto px = raster_to_argb(r);  // 0xAARRGGBB per pixel → the bytes r, g, b, a (GL ES has no BGRA)
    for (std::uint32_t& p : px) p = (p & 0xff00ff00u) | ((p >> 16) & 0xffu) | ((p & 0xffu) << 16);
    if (fresh) glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, r.w, r.h, 0, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    else glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, r.w, r.h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  }
  s.w = r.w, s.h = r.h;
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
  return id;
}

void HeatmapRenderer::release(std::uint32_t id) {
  if (id) to_release_.push_back(id);
}

void HeatmapRenderer::draw(ImDrawList* list, std::uint32_t id, ImVec2 min, ImVec2 max, ImVec2 uv0, ImVec2 uv1) {
  auto it = slots_.find(id);
  if (it == slots_.end() || !it->second->texture) return;
  Slot& s = *it->second;
  if (s.rgba) {
    list->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(s.texture)), min, max, uv0, uv1);
    return;
  }
  s.min = min, s.max = max, s.uv0 = uv0, s.uv1 = uv1;
  list->AddCallback(&HeatmapRenderer::draw_callback, &s);
  list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void HeatmapRenderer::draw_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const auto* slot = static_cast<const Slot*>(cmd->UserCallbackData);
  slot->owner->render(*slot, *cmd);
}

void HeatmapRenderer::render(const Slot& s, const ImDrawCmd& cmd) const {
  const ImDrawData* dd = ImGui::GetDrawData();
  if (!dd || dd->DisplaySize.x <= 0 || dd->DisplaySize.y <= 0) return;
  const ImVec2 pos = dd->DisplayPos, size = dd->DisplaySize, scale = dd->FramebufferScale;
  const float fb_w = size.x * scale.x, fb_h = size.y * scale.y;
  // The clip rectangle ImGui had when the callback was queued, in framebuffer pixels.
  const float cx0 = (cmd.ClipRect.x - pos.x) * scale.x, cy0 = (cmd.ClipRect.y - pos.y) * scale.y;
  const float cx1 = (cmd.ClipRect.z - pos.x) * scale.x, cy1 = (cmd.ClipRect.w - pos.y) * scale.y;
  if (cx0 >= fb_w || cy0 >= fb_h || cx1 <= 0 || cy1 <= 0 || cx1 <= cx0 || cy1 <= cy0) return;
  glEnable(GL_SCISSOR_TEST);
  glScissor(static_cast<GLint>(cx0), static_cast<GLint>(fb_h - cy1), static_cast<GLsizei>(cx1 - cx0),
            static_cast<GLsizei>(cy1 - cy0));
  auto ndc_x = [&](float x) { return (x - pos.x) / size.x * 2.0f - 1.0f; };
  auto ndc_y = [&](float y) { return 1.0f - (y - pos.y) / size.y * 2.0f; };
  glUseProgram(program_.id());
  glBindVertexArray(vao_);
  glUniform4f(u_rect_, ndc_x(s.min.x), ndc_y(s.min.y), ndc_x(s.max.x), ndc_y(s.max.y));
  glUniform4f(u_uv_, s.uv0.x, s.uv0.y, s.uv1.x, s.uv1.y);
  glUniform1i(u_values_, 0);
  glUniform1i(u_lut_, 1);
  glUniform1f(u_vmin_, s.vmin);
  glUniform1f(u_vmax_, s.vmax);
  glUniform4fv(u_masked_, 1, s.masked);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, luts_[static_cast<std::size_t>(s.colormap)]);
  glBindSampler(1, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, s.texture);
  glBindSampler(0, 0);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

}  // namespace poslab::app::gl
