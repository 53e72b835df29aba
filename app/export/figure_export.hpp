#pragma once
// Figure → file: PNG and PDF through cairo (figure_export_cairo.cpp; in the
// browser build platform/web/figure_export_web.cpp), SVG through SvgPainter
// (text as text), CSV of the plotted data. Every file is written atomically.

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "app/export/png.hpp"
#include "app/plot/figure.hpp"
#include "app/plot/render.hpp"

namespace poslab::app {

enum class ExportFormat { png, svg, pdf, csv };

/// "png" | "svg" | "pdf" | "csv"; raises core::InvalidParameter("format", …).
ExportFormat parse_export_format(std::string_view word);
const char* export_extension(ExportFormat format);

/// Pixels one exported image may have (width × height × scale²): 2^24, a
/// 4096 × 4096 PNG, rendered and encoded within about a second; and all
/// the images of one `poslab export` together (a lesson's six figures at
/// 1600 × 1000, scale 2, are 38.4 million).
inline constexpr double kImagePixelBudget = 16'777'216;
inline constexpr double kExportPixelBudget = 40'000'000;
/// Pixels of all the distinct frames of one sweep (frames × width × height ×
/// scale²): 2^27, 83 frames at 1600 × 1000 (the default 60 fit), some 10 s
/// of rendering; a 600-frame 1600 × 1000 GIF took 70 s before it was counted.
inline constexpr double kSweepPixelBudget = 134'217'728;

struct ExportOptions {
  int width = 1600;          ///< layout width (PNG pixels at scale 1; PDF/SVG points)
  int height = 1000;
  double scale = 1.0;        ///< PNG pixel density: a 1600×1000 figure at scale 2 is 3200×2000 px
  /// Nothing filled: no page, no plot area, no legend box (PNG alpha, SVG
  /// and PDF without a background), for a slide's own background; pick the
  /// theme whose text reads on it (light: dark text, dark: light text).
  bool transparent = false;
  std::string theme = "light";
  std::string font_family = "DejaVu Sans";
  /// Text size relative to what the size gives (export_font_size): 0.5..3.
  double font_scale = 1.0;
  /// Line, marker and arrow widths relative to the theme's: 0.5..4.
  double line_scale = 1.0;
  /// PDF page: "" = the figure's size in points; "slide" = 13.333 × 7.5 in
  /// (16:9), "a4", "letter" (landscape when the figure is wider than tall):
  /// the figure fills the page, its aspect kept.
  std::string page;
  /// Checks sizes and scale (width/height 200..8192, scale 0.5..4, at most
  /// kImagePixelBudget pixels), font and line scale, the page. Raises
  /// core::InvalidParameter naming the option (the pixels: the product of
  /// the three).
  void check() const;
};

/// The base font size for a figure of this layout size (readable on slides).
double export_font_size(int width, int height);

/// The PDF page for `options` in points (width, height).
std::pair<double, double> pdf_page_size(const ExportOptions& options);

/// Writes `figure` to `path` in `format`. Raises IoError (nothing written, an
/// existing file left intact) or core::InvalidParameter.
void export_figure(const fig::Figure& figure, ExportFormat format, const std::filesystem::path& path,
                   const ExportOptions& options);

/// The plotted data as CSV: a header `series,<x>,<y>[,extras][,value]`, one
/// row per series point and per heatmap cell (sampled heatmaps at their
/// natural lattice, at most 1,048,576 cells).
std::string figure_csv(const fig::Figure& figure);

/// Renders `figure` to PNG bytes in memory (used by tests and the GUI's
/// thumbnails). Raises IoError. (In the browser build: an SVG document of the
/// PNG's pixel size, which the page rasterizes when it hands the file over —
/// see platform/web/figure_export_web.cpp.)
std::string render_png(const fig::Figure& figure, const ExportOptions& options);

/// The figure as an SVG document (text as text, heatmaps as embedded PNGs).
std::string render_svg(const fig::Figure& figure, const ExportOptions& options);

/// The figure as a one-page PDF. Raises IoError (in the browser build always:
/// PDF is a desktop feature there).
std::string render_pdf(const fig::Figure& figure, const ExportOptions& options);

/// The style a figure of these options is drawn with: the theme (transparent
/// or not, its line scale times options.line_scale) and the font size (times
/// font_scale).
fig::RenderStyle export_render_style(const ExportOptions& options);

/// `figure` drawn into width·scale × height·scale pixels, as the PNG is. Raises
/// IoError (in the browser build always: image frames are a desktop feature there).
Image render_image(const fig::Figure& figure, const ExportOptions& options);

}  // namespace poslab::app
