#pragma once
// [SECTION] The figure model: what a plot shows, as plain data.
//
// A Figure is built from parameters by one builder per figure
// (figures/<view>_figures.cpp) and then drawn, unchanged, by the plot widget
// (ui/plot_widget.*) and by every exporter (export/*). No GL, no ImGui, no
// files here: the screen and the file show the same thing because they draw
// the same value.
//
// Index
// - Colours and colormaps
// - Axes
// - Series (line, step, scatter, bars, stems)
// - Heatmaps (a matrix, or a function sampled at the output resolution)
// - Annotations (text, arrows, reference lines, shaded bands)
// - Figure

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace poslab::app::fig {

// [SECTION] Colours and colormaps

struct Color {
  float r = 0, g = 0, b = 0, a = 1;
  static Color rgb(std::uint32_t hex, float alpha = 1.0f) {
    return {((hex >> 16) & 0xff) / 255.0f, ((hex >> 8) & 0xff) / 255.0f, (hex & 0xff) / 255.0f, alpha};
  }
  Color with_alpha(float alpha) const { return {r, g, b, alpha}; }
  bool operator==(const Color&) const = default;
};

/// Colormaps. Both are built in CIELAB so equal value steps look equal:
/// - magnitude: lightness rises monotonically (dark violet → teal → light yellow),
///   readable in grey and by colour-blind viewers (a viridis-like design);
/// - signed: diverging in hue around a neutral zero (blue for negative, orange
///   for positive) with lightness still monotone, so the sign survives greyscale
///   printing and the blue/orange pair survives red–green colour blindness.
enum class Colormap { magnitude, signed_ };

/// The colour of t in [0, 1] (clamped) on `map`.
Color colormap_color(Colormap map, double t);

/// A 256-entry RGBA8 lookup table of `map` (for textures and rasters).
std::array<std::uint32_t, 256> colormap_lut(Colormap map);

/// Series colours: the Okabe–Ito palette (colour-blind safe), by index.
Color palette_color(int index);

// [SECTION] Axes

/// linear; log (decades, positive values only); symlog: sign(v)·log10(1 + |v|),
/// linear near 0 and logarithmic far from it on both sides (T5's distances).
enum class AxisScale { linear, log, symlog };

/// The coordinate an axis of scale `s` is drawn in (linear for `linear`,
/// log10 for `log`, sign(v)·log10(1 + |v|) for `symlog`), and back.
double axis_forward(double v, AxisScale s);
double axis_inverse(double u, AxisScale s);

enum class TickFormat {
  automatic,   ///< plain decimals, switching to 1e-4 / 1e5 style when short
  integer,     ///< whole numbers with thin-space thousands: 19 600
  scientific,  ///< always 1.2e-4
  pi,          ///< multiples of π (angles)
};

struct Axis {
  std::string label;  ///< e.g. "wavelength λ"
  std::string unit;   ///< e.g. "tokens" (shown as "label (unit)")
  AxisScale scale = AxisScale::linear;
  std::optional<double> min, max;  ///< fixed range; unset = from the data
  TickFormat format = TickFormat::automatic;
  /// Explicit ticks (value, label) replace the automatic ones when non-empty.
  std::vector<std::pair<double, std::string>> ticks;
  /// When true, the range never pads past the data (heatmap axes, indices).
  bool tight = false;
  /// y only: values grow downward, so row 0 of a matrix sits at the top (the
  /// view range then holds the bottom value in y_min, the top one in y_max).
  bool reversed = false;
  /// The label drawn when the numbers written in a heatmap's cells are not
  /// (too small to fit, render.cpp): "dimension j", where the label says
  /// "dimension j (the number in each cell)". Empty: the label.
  std::string label_without_cell_numbers;
};

// [SECTION] Series

enum class SeriesKind {
  line,     ///< a polyline through (x, y); long curves are decimated per pixel column
  step,     ///< a staircase: y[i] holds from x[i] to x[i+1] ("post" steps)
  scatter,  ///< markers at (x, y)
  bars,     ///< bars from 0 (or the axis bottom on log y) to y, centred at x
  stems,    ///< vertical lines from 0 to y with a marker on top
};

enum class LineStyle { solid, dashed, dotted };

/// An extra column carried by a series: shown in the hover readout and written
/// to CSV (e.g. λ next to θ), one value per point.
struct ExtraColumn {
  std::string name;  ///< "λ"
  std::string unit;  ///< "tokens"
  std::vector<double> values;
};

/// A long line reduced for the screen (prepare_for_screen): of the points in
/// each of `buckets` equal parts of [u0, u1] (the x axis in its scale, as
/// axis_forward gives it) only the first, lowest, highest and last, in order.
/// Drawn at any view where a bucket is narrower than a pixel, it looks the
/// same as every point, and has the same data range.
struct ScreenPoints {
  std::vector<double> x, y;
  double u0 = 0, u1 = 1;
  int buckets = 1;
};

struct Series {
  std::string name;  ///< legend entry (empty = not in the legend)
  SeriesKind kind = SeriesKind::line;
  std::vector<double> x, y;
  std::optional<Color> color;  ///< default: palette_color(index in figure)
  float width = 2.0f;          ///< line width in points
  LineStyle style = LineStyle::solid;
  float marker = 4.0f;         ///< marker radius in points (scatter, stems)
  /// bars: the width of a bar in x data units (a layer is 1 wide in the layer
  /// stack); unset: 0.8 of the closest spacing between the series' bars.
  std::optional<double> bar_width;
  std::vector<ExtraColumn> extra;
  /// Hover readout names: "pair" for x, "θ" for y (default: the axis labels).
  std::string x_name, y_name;
  /// What the series is, when it has no legend entry (a marker, a guide
  /// line, rows labelled on an axis), translated: its name in the CSV's
  /// `series` column and in the text alternative (the legend name wins).
  std::string data_name;
  /// What the text alternative says of the series, in place of the sentence
  /// it would generate from the points ("query patch (curve, 5 points): from
  /// 0.5 …" for a frame drawn around a cell), translated; empty: generated.
  std::string described;
  /// A drawing aid that carries no data of its own (a dial's rim, the mark
  /// at angle 0, markers on a line's own points): left out of the CSV and the
  /// text alternative. Every other series has a name or a data_name (tests
  /// check every figure of every lesson).
  bool decoration = false;
  /// Set by prepare_for_screen for a long line: what the screen draws when
  /// not zoomed in (exports, CSV and hover use x and y).
  std::shared_ptr<const ScreenPoints> screen;
};

// [SECTION] Heatmaps

/// Fills out[r·xs.size() + c] with the value at (xs[c], ys[r]).
using HeatmapSampler =
    std::function<void(std::span<const double> xs, std::span<const double> ys, std::span<float> out)>;
/// The same in double precision, for exports (the drawing keeps floats).
using HeatmapExactSampler =
    std::function<void(std::span<const double> xs, std::span<const double> ys, std::span<double> out)>;

/// A heatmap over the rectangle [x0, x1] × [y0, y1] in data coordinates.
/// Either `values` (a cols × rows matrix, row-major from y0 to y1, each cell
/// covering an equal share of the rectangle) or `sampler` (evaluated by the
/// renderer at the pixel centres it draws; with `x_cells`/`y_cells` the
/// coordinates are snapped to cell centres so integer lattices such as
/// positions × dims stay crisp when zoomed in).
/// A sampler heatmap sampled ahead for the screen (prepare_for_screen): nx ×
/// ny values (row 0 at y0) at the centres of an even grid over the
/// heatmap in each axis's scale (as axis_forward gives it), snapped to cells
/// as the renderer would. The renderer takes each pixel's nearest value while
/// the grid is at least as fine as its pixels.
struct ScreenRaster {
  int nx = 0, ny = 0;
  /// The grid along x (y) is the heatmap's own lattice of cells (x_cells with
  /// at most one cell per pixel): one exact value per cell, at any zoom.
  bool x_lattice = false, y_lattice = false;
  std::vector<float> values;
};

struct Heatmap {
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  int cols = 0, rows = 0;      ///< matrix size, or the natural lattice of a sampler (for CSV)
  std::vector<float> values;   ///< rows × cols, row 0 at y0
  std::vector<std::uint8_t> mask;  ///< optional, 1 = masked (drawn neutral, hatched in exports)
  HeatmapSampler sampler;      ///< used when values is empty
  bool x_cells = false, y_cells = false;  ///< sampler: snap to cell centres of the lattice
  Colormap colormap = Colormap::magnitude;
  double vmin = 0, vmax = 1;   ///< colour range (signed maps: symmetric around 0)
  TickFormat value_format = TickFormat::automatic;  ///< the colour bar's ticks (integer: whole values only)
  std::string value_name;      ///< colorbar / hover label, e.g. "PE[pos, i]"
  std::string x_name, y_name;  ///< hover readout names, e.g. "dim", "pos"
  /// Exports (CSV): the values in double precision at the coordinates the
  /// CSV lists (cell centres for a matrix or a cell lattice); unset: the floats.
  HeatmapExactSampler exact;
  /// Exports (CSV): the index each column (row) stands for, when it is not
  /// the cell's own coordinate (a block drawn at an offset, cells that start
  /// at chosen positions); empty: the coordinate.
  std::vector<double> x_index, y_index;

  /// Set by prepare_for_screen for a sampler: what the screen draws when not
  /// zoomed in (hover and exports call the sampler).
  std::shared_ptr<const ScreenRaster> screen;

  bool is_matrix() const { return !values.empty(); }
  /// Value of the cell containing (x, y) (matrix) or the sampler at (x, y).
  std::optional<float> value_at(double x, double y) const;
};

// [SECTION] Annotations

enum class Orientation { vertical, horizontal };

/// A reference line across the plot at `value`, e.g. "L = 4096".
struct RefLine {
  Orientation orientation = Orientation::vertical;
  double value = 0;
  std::string label;
  std::optional<Color> color;
  LineStyle style = LineStyle::dashed;
};

/// A shaded band between two values, e.g. YaRN's ramp.
struct Band {
  Orientation orientation = Orientation::vertical;
  double from = 0, to = 0;
  std::string label;
  std::optional<Color> color;
  bool label_top = false;  ///< label inside the top of the plot (default: the bottom)
};

enum class Anchor { left, center, right };

/// Text at a data point.
struct TextNote {
  double x = 0, y = 0;
  std::string text;
  Anchor anchor = Anchor::left;
  std::optional<Color> color;
};

/// An arrow from (x0, y0) to (x1, y1) in data coordinates, with a label at its tail.
struct Arrow {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  std::string label;
  std::optional<Color> color;
};

// [SECTION] Figure

enum class LegendPlace { automatic, top_left, top_right, bottom_left, bottom_right, none };

struct Figure {
  std::string id;        ///< the figure id of its view, e.g. "heatmap"
  std::string title;
  std::string subtitle;  ///< one line under the title (parameters, a caption)
  Axis x, y;
  std::vector<Series> series;
  std::vector<Heatmap> heatmaps;  ///< usually at most one
  std::vector<RefLine> ref_lines;
  std::vector<Band> bands;
  std::vector<TextNote> notes;
  std::vector<Arrow> arrows;
  LegendPlace legend = LegendPlace::automatic;
  /// One data unit is as long on x as on y (2D rotations). With both axes
  /// tight (a matrix) the plot area shrinks to the data instead of padding it.
  bool equal_aspect = false;
  /// The builder's sentence on the numbers its lesson's step talks about
  /// (translated; empty: none), appended to the generated description.
  std::string key_numbers;
  /// The text alternative for readers who cannot see the figure (screen
  /// readers, SVG <title>/<desc>, the PDF's subject, the page's live region):
  /// what is plotted against what, the ranges, the series, then key_numbers.
  /// Generated from the figure itself (figure_describe.hpp) by build_figure,
  /// in the figure's language.
  std::string description;
};

/// The data range of a figure on each axis (series, heatmaps, annotations),
/// respecting fixed axis ranges and log scales (only positive values count).
struct DataRange {
  double x_min, x_max, y_min, y_max;
};
DataRange data_range(const Figure& figure);

/// True if no number in the figure is NaN or ±Inf (a property every builder
/// must keep; tests assert it for every figure of every view).
bool all_finite(const Figure& figure);

/// Gives every sorted line series of more than 32 points per pixel
/// of `width_px` its ScreenPoints (8 buckets per pixel), so drawing it costs
/// what the pixels need (the interactive window, on its build thread). A
/// column's extremes then come from within an eighth of a pixel of it. With
/// `height_px`, every sampler heatmap also gets its ScreenRaster at `density`
/// device pixels per unit over the whole width_px × height_px.
void prepare_for_screen(Figure& figure, int width_px, int height_px = 0, double density = 1);

}  // namespace poslab::app::fig
