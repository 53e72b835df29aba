#pragma once
// [SECTION] The plot widget: one fig::Figure on screen (ImPlot-style
// immediate-mode call, retained figure). Hover shows a crosshair and the
// exact readout of fig::hover_readout; the mouse wheel scrolls the page and
// zooms around the cursor with Ctrl held or once the plot was clicked
// (Shift: x only, Alt: y only), dragging pans, a double-click resets, a
// click on a legend entry highlights its curve and fades the rest;
// the right-click menu exports the figure, copies the readout, resets the view.
//
// The widget re-lays the figure out (render_figure) only when the figure, its
// size, the zoom, the theme or the fonts change; other frames replay the
// recording. The figure itself is built by the caller (FigureCache).

#include <imgui.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/common/i18n.hpp"
#include "app/plot/render.hpp"
#include "app/ui/font_atlas.hpp"
#include "app/ui/heatmap_sink.hpp"
#include "app/ui/imgui_painter.hpp"

namespace poslab::app::ui {

/// What every plot shares in a frame: fonts, theme, heatmap sink, texts.
/// Figure layouts of one frame, paced (the interactive app, whose figures
/// are built elsewhere and land between frames: at the maxima several land
/// together, and laying all of them out in one frame made it 20–60 ms in
/// the page). A plot whose only change is a newer figure keeps showing its
/// previous picture for a frame when this frame already spent `ms` on
/// layouts — at most kMaxDeferredFrames frames in a row; the first layout of
/// a frame always happens. Zoom, pan, a resize or a style change are laid
/// out at once. Reset at each frame's start.
struct LayoutPacing {
  double ms = 8;        ///< a frame's layouts past which the next one waits
  double spent_ms = 0;  ///< this frame's layouts so far
  int deferred = 0;     ///< layouts put off this frame
  static constexpr int kMaxDeferredFrames = 3;
  void begin_frame() { spent_ms = 0, deferred = 0; }
};

struct PlotEnv {
  const UiFonts* fonts = nullptr;
  HeatmapSink* sink = nullptr;
  const Translator* tr = nullptr;
  fig::Theme theme = fig::Theme::dark();
  /// Changes whenever fonts or theme change (the recording is then stale).
  std::uint64_t style_key = 0;
  /// The crosshair and readout follow the pointer (lecture mode: not once it is idle).
  bool hover = true;
  /// No figure text smaller than this (pixels): lecture mode's 3.5 % of the screen's height.
  double min_text = 0;
  /// Layouts paced over frames (null: every stale plot is laid out in this
  /// frame — screenshots, exports, tests see the figure asked for).
  LayoutPacing* pacing = nullptr;
};

/// Layouts timed for `poslab bench`: while `on`, every PlotWidget layout
/// appends its figure's title and the UI thread's milliseconds (the UI
/// thread only; the bench drains it after each case).
struct LayoutLog {
  bool on = false;
  /// Lay out plots scrolled out of view too (the window skips them): the
  /// bench times every figure of a lesson as if all were on screen at once.
  bool hidden_too = false;
  std::vector<std::pair<std::string, double>> entries;
};
LayoutLog& layout_log();

/// What the user chose in the widget's menu this frame.
enum class PlotAction { none, export_png, export_svg, export_pdf, export_csv };

class PlotWidget {
 public:
  PlotWidget() = default;
  ~PlotWidget();
  PlotWidget(const PlotWidget&) = delete;
  PlotWidget& operator=(const PlotWidget&) = delete;

  /// Draws `figure` at the cursor in a `size` box (points). `version` must
  /// change whenever the figure's content does. Returns the menu's choice.
  PlotAction draw(const char* id, const fig::Figure& figure, std::uint64_t version, ImVec2 size, const PlotEnv& env);

  /// The readout under the cursor this frame ("" when not hovering a point).
  const std::string& readout() const { return readout_; }
  const fig::PlotLayout& layout() const { return layout_; }
  bool zoomed() const { return view_.has_value(); }
  const std::optional<fig::ViewRange>& view() const { return view_; }
  void reset_view() { view_.reset(); }
  /// The range shown when not zoomed, instead of the figure's own (an
  /// animation's range over its sweep: its axes stay put); nullopt: the figure's.
  void set_hold(const std::optional<fig::ViewRange>& hold) { hold_ = hold; }
  const std::optional<fig::ViewRange>& hold() const { return hold_; }
  /// The series a click on its legend entry highlighted (-1: none).
  int highlight() const { return highlight_; }
  /// Zooms by `factor` (< 1 zooms in) around a point given relative to the
  /// widget's top-left corner; `x`/`y` choose the axes.
  void zoom_at(ImVec2 local, double factor, bool x = true, bool y = true);
  /// Pans by a mouse movement in pixels.
  void pan(ImVec2 delta);
  /// The readout at a point relative to the widget's top-left corner.
  std::string readout_at(const fig::Figure& figure, ImVec2 local, const Translator* tr = nullptr) const;
  /// How many times the figure was laid out and recorded (cache tests).
  int layouts() const { return layouts_; }
  const FigureRecording& recording() const { return recording_; }

  /// Lays `figure` out in a `size` box and replays it once onto a scratch
  /// draw list, as a figure landing on screen is, then forgets both (its
  /// heatmaps uploaded to env.sink and released): nothing is shown. The
  /// page's thread warming up its drawing code while the reader reads
  /// (app/platform/web/main_web.cpp, poslab_warm_land). Needs the ImGui
  /// context (its fonts); returns how many draw commands it replayed.
  static int warm(const fig::Figure& figure, ImVec2 size, const PlotEnv& env);

 private:
  void record(const fig::Figure& figure, ImVec2 size, const PlotEnv& env);
  void release_slots();

  FigureRecording recording_;
  std::vector<std::uint32_t> slots_;
  HeatmapSink* sink_ = nullptr;
  fig::PlotLayout layout_;
  std::optional<fig::ViewRange> view_;
  std::optional<fig::ViewRange> hold_, rec_hold_;
  // what the recording was made from
  std::uint64_t rec_version_ = 0, rec_style_ = 0;
  ImVec2 rec_size_{0, 0};
  std::optional<fig::ViewRange> rec_view_;
  bool recorded_ = false;
  int layouts_ = 0;
  double layout_ms_ = 0;     ///< the last layout's wall ms (what the next one is expected to take)
  int deferred_frames_ = 0;  ///< frames in a row this plot kept an older figure's picture (LayoutPacing)
  int highlight_ = -1, rec_highlight_ = -1;  ///< the series a legend click highlighted
  bool focused_ = false;  ///< clicked, and the pointer has not left it since: the wheel zooms
  // hover
  ImVec2 last_mouse_{-1e9f, -1e9f};
  std::string readout_, menu_readout_;
};

}  // namespace poslab::app::ui
