#pragma once
// Heatmaps on screen: each ScalarRaster becomes an R32F texture — a texel per
// device pixel as render_figure samples it, or the heatmap's cells with the
// texture coordinates of the plot (ScalarRaster::u0…v1), each pixel taking its
// nearest texel — and is coloured on the GPU by
// shaders/heatmap_colormap.frag.glsl through the same 256-entry colormap
// lookup table the exporters use, so screen and files show the same colours.
// Drawing happens inside an ImDrawList callback followed by
// ImDrawCallback_ResetRenderState, so ImGui's own state is restored.
// If the shaders cannot be built, rasters are coloured on the CPU instead
// (RGBA8 textures drawn with ImDrawList::AddImage) and `fallback_reason()` says why.

#include "app/platform/desktop/gl/gl_api.hpp"

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/platform/desktop/gl/gl_program.hpp"
#include "app/ui/heatmap_sink.hpp"

namespace poslab::app::gl {

class HeatmapRenderer final : public ui::HeatmapSink {
 public:
  /// Needs a current GL 3.3 core context.
  HeatmapRenderer();
  ~HeatmapRenderer() override;
  HeatmapRenderer(const HeatmapRenderer&) = delete;
  HeatmapRenderer& operator=(const HeatmapRenderer&) = delete;

  std::uint32_t upload(std::uint32_t slot, const fig::ScalarRaster& raster) override;
  void release(std::uint32_t slot) override;
  void draw(ImDrawList* list, std::uint32_t slot, ImVec2 min, ImVec2 max, ImVec2 uv0, ImVec2 uv1) override;
  void begin_frame() override;

  /// Frees the staging buffer masked heatmaps are copied through (it keeps
  /// the size of the largest heatmap otherwise).
  void release_staging() { std::vector<float>().swap(values_); }

  bool uses_shader() const { return program_.valid(); }
  const std::string& fallback_reason() const { return fallback_reason_; }
  std::size_t slot_count() const { return slots_.size(); }

  /// One heatmap's texture and colouring (stable address: the draw callback's user data).
  struct Slot {
    GLuint texture = 0;
    int w = 0, h = 0;
    bool rgba = false;  ///< CPU-coloured fallback texture
    int colormap = 0;
    float vmin = 0, vmax = 1;
    float masked[4] = {0.8f, 0.8f, 0.8f, 1.f};
    ImVec2 min, max;  ///< where it is drawn this frame
    ImVec2 uv0{0, 0}, uv1{1, 1};  ///< the part of the texture drawn there
    HeatmapRenderer* owner = nullptr;
  };

 private:
  static void draw_callback(const ImDrawList* list, const ImDrawCmd* cmd);
  void render(const Slot& slot, const ImDrawCmd& cmd) const;

  Program program_;
  std::string fallback_reason_;
  GLuint vao_ = 0;
  std::array<GLuint, 2> luts_{};  // per fig::Colormap
  GLint u_rect_ = -1, u_uv_ = -1, u_values_ = -1, u_lut_ = -1, u_vmin_ = -1, u_vmax_ = -1, u_masked_ = -1;
  std::map<std::uint32_t, std::unique_ptr<Slot>> slots_;
  std::vector<std::uint32_t> to_release_;
  std::vector<float> values_;           // masked values, reused
  std::uint32_t next_slot_ = 1;
};

}  // namespace poslab::app::gl
