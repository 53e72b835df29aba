#pragma once
// [SECTION] Drawing a Figure: one renderer, several painters.
//
// render_figure() lays a Figure out (title, axes, nice ticks, legend,
// colorbar), decimates long curves per pixel column, samples heatmaps at the
// output resolution, and issues drawing calls on a Painter (plot/painter.hpp).
// Painters:
//   export/cairo_painter  — PNG and PDF through cairo
//   export/svg_painter    — SVG with real <text> elements
//   ui/imgui_painter      — the screen: ImDrawList, heatmaps via GL textures + shaders
// so every surface shows the same layout from the same code.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/plot/figure.hpp"
#include "app/plot/painter.hpp"

namespace poslab::app::fig {

/// Colours and sizes of a theme (docs: light for print, dark for screens,
/// projector = high contrast light for lecture halls).
struct Theme {
  Color background, plot_background, text, muted, grid, axis, masked;
  bool transparent = false;  ///< exports: no background fill (the page, the plot area, the legend box)
  /// Data lines, markers, arrows and reference lines are this many times
  /// thicker (the projector's 2: a 1.5 pt line is lost on a washed-out screen).
  double line_scale = 1.0;
  /// Every data colour (series, reference lines, arrows, notes) is darkened
  /// or lightened as little as needed for this contrast ratio against the
  /// plot background (WCAG 2; 0 = as the figure says).
  double min_contrast = 0.0;
  /// Tick labels' size relative to the base font.
  double tick_scale = 0.86;
  /// `c` as this theme draws data in it (with_contrast when min_contrast is set).
  Color ink(Color c) const;
  static Theme light();
  static Theme dark();
  static Theme projector();
  static Theme by_name(std::string_view name);  ///< light | dark | projector; raises InvalidParameter("theme", …)
};

/// WCAG 2 relative luminance of an sRGB colour (0 black … 1 white).
double relative_luminance(Color c);
/// WCAG 2 contrast ratio of two colours (1 … 21), alpha ignored.
double contrast_ratio(Color a, Color b);
/// `c` mixed towards black (on a light background) or white (on a dark one)
/// just enough for `ratio` against `background`; `c` itself when it has it.
Color with_contrast(Color c, Color background, double ratio);

/// The visible data range (zoom and pan in the widget; data_range otherwise).
struct ViewRange {
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
  bool operator==(const ViewRange&) const = default;
};

/// The smallest range holding both `a` and `b` (a reversed y stays reversed).
ViewRange union_view(const ViewRange& a, const ViewRange& b);

struct RenderStyle {
  Theme theme = Theme::light();
  double font_size = 14;       ///< base font size in painter units
  bool show_title = true;      ///< the GUI shows titles in its own chrome
  bool show_legend = true;
  /// An automatic legend that would cover data in every corner goes beside
  /// the plot instead (when it takes at most a third of the width).
  bool legend_outside_data = true;
  /// A series shown in full, every other one faded (-1: none): a click on a
  /// legend entry in the plot widget.
  int highlight = -1;
  /// No text is drawn smaller than this (painter units; 0: the sizes the font
  /// size gives). Lecture mode: 3.5 % of the screen's height (issue 29).
  double min_text = 0;
  /// The range shown when no view is given, instead of the figure's own: an
  /// animation's over its whole sweep, so that its axes stay put.
  std::optional<ViewRange> hold;
};


/// Where things ended up, for hover readouts and mouse interaction.
struct PlotLayout {
  Rect outer;           ///< the whole figure
  Rect plot;            ///< the data area
  ViewRange range;
  AxisScale x_scale = AxisScale::linear, y_scale = AxisScale::linear;
  /// Where each legend entry was drawn (its series' index, its row).
  std::vector<std::pair<int, Rect>> legend;
  /// Where the labels of reference lines, bands and text notes were drawn
  /// (reference-line and band labels avoid the data where the plot has room).
  std::vector<Rect> labels;
  double to_px_x(double x) const;
  double to_px_y(double y) const;
  double from_px_x(double px) const;
  double from_px_y(double py) const;
};

/// The view range used when none is given: the figure's data range with a
/// little padding on non-tight axes (and the aspect fixed for equal_aspect
/// figures once the plot rectangle is known).
ViewRange default_view(const Figure& figure);

/// Draws `figure` into `bounds` on `painter`. `view` overrides the default
/// view range (zoom/pan). Returns the layout used.
PlotLayout render_figure(const Figure& figure, Painter& painter, const Rect& bounds, const RenderStyle& style,
                         const std::optional<ViewRange>& view = std::nullopt);

// ---- pieces exposed for the widget and for tests

struct Tick {
  double value;
  std::string label;  ///< empty for minor ticks
};

/// "Nice" ticks (1, 2, 5 × 10^k steps) covering [lo, hi], about `target`
/// many, labelled per `format`; for log axes: decades (and 2, 5 when few).
std::vector<Tick> make_ticks(double lo, double hi, AxisScale scale, TickFormat format, int target);

/// A number as a hover readout shows it: up to `significant` digits,
/// thousands separators for large integers ("19,600"), 3.2e-4 for small.
std::string format_readout(double value, int significant = 4);

/// Per-pixel-column min/max decimation of a polyline already in pixel
/// coordinates with x non-decreasing: keeps first, min, max and last of each
/// column, so the drawn shape is unchanged at that resolution.
std::vector<Point> decimate_columns(std::span<const Point> pts);

/// A subsequence of the polyline `pts` (pixel coordinates) with the same
/// first and last points whose segments pass within `tol` pixels, measured
/// vertically, of every point left out (one pass, a "sleeve" of slopes from
/// each kept point): a smooth curve of 4,096 points drawn 900 pixels wide
/// keeps a few hundred, a straight run two. A step back or straight down in
/// x ends a run (the point is kept).
std::vector<Point> simplify_polyline(std::span<const Point> pts, double tol);

/// The hover readout for the point under the cursor at `px` (nearest series
/// point within `radius` pixels, else the heatmap value), e.g.
/// "pair 37 · θ = 3.2e-4 · λ = 19,600 tokens". Empty when nothing is near.
/// Formulas in names and labels are written out (fig::plain_text): it is one
/// line of text for a tooltip.
/// `words`: the language's "{name}: {readout}" (zh "{name}：{readout}") and
/// the word for a heatmap value without a name (ui.plot.readout_named, _value).
struct ReadoutWords {
  std::string named = "{name}: {readout}";
  std::string value = "value";
};
std::string hover_readout(const Figure& figure, const PlotLayout& layout, Point px, double radius = 12,
                          const ReadoutWords& words = {});

}  // namespace poslab::app::fig
