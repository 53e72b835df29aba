#pragma once
// The screen's Painter. render_figure() runs only when something changed
// (figure, size, zoom, theme, fonts); its drawing calls are recorded here in
// coordinates relative to the plot's top-left corner, and the recording is
// replayed onto an ImDrawList every frame at wherever the plot is — no layout,
// sampling or allocation per idle frame.
//
// Lines, shapes and text go to ImDrawList; text is measured with exactly the
// baked face it is drawn with (UiFonts::closest), so the layout is tight.
// Heatmaps go to a HeatmapSink (GL textures + colormap shader on screen).

#include <imgui.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/plot/painter.hpp"
#include "app/ui/font_atlas.hpp"
#include "app/ui/heatmap_sink.hpp"

namespace poslab::app::ui {

struct FigureRecording {
  enum class Kind : std::uint8_t { rect, polyline, polygon, triangles, circle, text, heatmap, push_clip, pop_clip };
  struct Op {
    Kind kind = Kind::rect;
    ImU32 color = 0;
    float width = 1;         ///< line width; circle radius; text size
    std::uint32_t first = 0, count = 0;  ///< into points (or text bytes; a heatmap: its texture coordinates)
    ImVec2 a, b;             ///< rect / clip min–max; text: top-left, pivot; circle: centre
    ImFont* font = nullptr;
    bool rotated = false;
    std::uint32_t slot = 0;  ///< heatmap slot
  };
  std::vector<Op> ops;
  std::vector<ImVec2> points;
  std::string text;
  int heatmaps = 0;  ///< heatmap calls recorded (tests)

  void clear() {  // keeps capacity: re-recording allocates nothing once warm
    ops.clear();
    points.clear();
    text.clear();
    heatmaps = 0;
  }
};

/// A handle on the screen's painter: its drawing calls are fig::Painter's
/// (declared once, in plot/painter.hpp), implemented in imgui_painter.cpp
/// alone; the handle converts to fig::Painter& for render_figure(figure, painter, …).
class ImGuiPainter {
 public:
  /// Records into `out`. Heatmap k of this recording uploads into `slots[k]`
  /// (grown as needed), so the same textures are reused on every re-record.
  ImGuiPainter(FigureRecording& out, const UiFonts& fonts, HeatmapSink& sink, std::vector<std::uint32_t>& slots,
               double density);
  ~ImGuiPainter();
  ImGuiPainter(const ImGuiPainter&) = delete;
  ImGuiPainter& operator=(const ImGuiPainter&) = delete;

  operator fig::Painter&();  ///< implicit on purpose: the handle stands for its painter

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

/// Draws a recording onto `list` with its origin at `origin` (screen coordinates).
void replay(const FigureRecording& recording, ImDrawList* list, ImVec2 origin, HeatmapSink& sink);

ImU32 to_imgui(fig::Color c);

}  // namespace poslab::app::ui
