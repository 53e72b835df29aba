#pragma once
// Where the plot widget's heatmaps go. On screen: gl::HeatmapRenderer (an
// R32F texture per heatmap, coloured by the colormap shader inside an
// ImDrawList callback). In blind mode (tests without a window): nothing is
// uploaded, the widget still lays figures out and answers hover readouts.

#include <imgui.h>

#include <cstdint>

#include "app/plot/render.hpp"

namespace poslab::app::ui {

class HeatmapSink {
 public:
  virtual ~HeatmapSink() = default;
  /// Stores `raster` in slot `slot` (0 = a new slot) and returns the slot.
  /// Slots keep their GPU memory until release(); re-uploading the same size
  /// reuses it, so a zoom or a slider drag allocates nothing.
  virtual std::uint32_t upload(std::uint32_t slot, const fig::ScalarRaster& raster) = 0;
  /// Frees a slot at the start of the next frame (a draw of this frame may still use it).
  virtual void release(std::uint32_t slot) = 0;
  /// Queues drawing slot `slot` into [min, max] (screen coordinates) on `list`:
  /// the part [uv0, uv1] of its texture (fractions; (0, 0)–(1, 1): the whole),
  /// each pixel the value nearest its centre.
  virtual void draw(ImDrawList* list, std::uint32_t slot, ImVec2 min, ImVec2 max, ImVec2 uv0, ImVec2 uv1) = 0;
  /// Called once per frame before any panel draws.
  virtual void begin_frame() {}
};

/// Blind mode: remembers nothing, draws nothing; counts uploads for tests.
class NullHeatmapSink final : public HeatmapSink {
 public:
  std::uint32_t upload(std::uint32_t slot, const fig::ScalarRaster&) override {
    ++uploads;
    return slot ? slot : ++next_;
  }
  void release(std::uint32_t) override {}
  void draw(ImDrawList*, std::uint32_t, ImVec2, ImVec2, ImVec2, ImVec2) override { ++draws; }
  int uploads = 0, draws = 0;

 private:
  std::uint32_t next_ = 0;
};

}  // namespace poslab::app::ui
