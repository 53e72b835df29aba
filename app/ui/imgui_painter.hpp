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
#include <string>
#include <vector>

#include "app/plot/render.hpp"
#include "app/ui/font_atlas.hpp"
#include "app/ui/heatmap_sink.hpp"

namespace poslab::app::ui {

struct FigureRecording {
  enum class Kind : std::uint8_t { rect, polyline, polygon, triangles, circle, text, heatmap, push_clip, pop_clip };
  struct Op {
    Kind kind = Kind::rect;
    ImU32 color = 0;
    float width = 1;         ///< line width; circle radius; text size
    std::uint32_t first = 0, count = 0;  ///< into points (or text bytes)
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

class ImGuiPainter final : public fig::Painter {
 public:
  /// Records into `out`. Heatmap k of this recording uploads into `slots[k]`
  /// (grown as needed), so the same textures are reused on every re-record.
  ImGuiPainter(FigureRecording& out, const UiFonts& fonts, HeatmapSink& sink, std::vector<std::uint32_t>& slots,
               double density);

  void fill_rect(const fig::Rect& r, fig::Color c) override;
  void stroke_polyline(std::span<const fig::Point> pts, fig::Color c, double width, fig::LineStyle style) override;
  void fill_polygon(std::span<const fig::Point> pts, fig::Color c) override;
  void fill_circle(fig::Point center, double radius, fig::Color c) override;
  void text(fig::Point at, std::string_view utf8, const fig::TextStyle& style, fig::Anchor h, fig::VAnchor v,
            bool rotated) override;
  fig::Size measure(std::string_view utf8, const fig::TextStyle& style) override;
  void heatmap(const fig::Rect& dst, const fig::ScalarRaster& raster) override;
  void push_clip(const fig::Rect& r) override;
  void pop_clip() override;
  double pixel_density() const override { return density_; }

 private:
  void add_polyline(std::span<const fig::Point> pts, ImU32 color, float width);
  FigureRecording& out_;
  const UiFonts& fonts_;
  HeatmapSink& sink_;
  std::vector<std::uint32_t>& slots_;
  double density_;
  int heatmap_index_ = 0;
};

/// Draws a recording onto `list` with its origin at `origin` (screen coordinates).
void replay(const FigureRecording& recording, ImDrawList* list, ImVec2 origin, HeatmapSink& sink);

ImU32 to_imgui(fig::Color c);

}  // namespace poslab::app::ui
