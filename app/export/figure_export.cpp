#include "app/export/figure_export.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "app/common/atomic_file.hpp"
#include "app/export/format_names.hpp"
#include "app/export/svg_painter.hpp"
#include "app/export/table_writer.hpp"
#include "app/plot/formula.hpp"
#include "poslab/core/float_text.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app {

namespace {

constexpr std::size_t kMaxCsvCells = 1'048'576;

constexpr std::array<FormatName<ExportFormat>, 4> kExportFormats{
    {{"png", ExportFormat::png}, {"svg", ExportFormat::svg}, {"pdf", ExportFormat::pdf}, {"csv", ExportFormat::csv}}};

/// A number as format_number writes it, but never "-0" (a negated zero is 0).
std::string n(double v) { return core::format_number(v == 0 ? 0.0 : v); }

/// A float in its own shortest round-trip form (0.84147096, not 0.8414709568023682).
std::string nf(float v) {
  if (v == 0) v = 0.0f;  // never "-0"
  char buf[32];
  auto [ptr, ec] = core::write_float(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, ptr) : n(v);
}

}  // namespace

ExportFormat parse_export_format(std::string_view word) { return parse_format(word, kExportFormats); }

const char* export_extension(ExportFormat f) { return format_word(f, kExportFormats); }

void ExportOptions::check() const {
  const core::Reason side{"integer_in", {{"min", "200"}, {"max", "8192"}}, {}};
  if (width < 200 || width > 8192) throw core::InvalidParameter("width", std::to_string(width), "must be an integer in 200..8192", side);
  if (height < 200 || height > 8192) throw core::InvalidParameter("height", std::to_string(height), "must be an integer in 200..8192", side);
  if (!(scale >= 0.5 && scale <= 4))
    throw core::InvalidParameter("scale", n(scale), "must be a number in 0.5..4",
                                 core::Reason{"number_in", {{"min", "0.5"}, {"max", "4"}}, {}});
  // The image's pixels (docs/CONTRACT.md §1, budgets): named by the product
  // the user's options make, not by one option they may not have given.
  const double pixels = static_cast<double>(width) * height * scale * scale;
  if (pixels > kImagePixelBudget) {
    const std::string amount = std::to_string(std::llround(pixels)), max = std::to_string(std::llround(kImagePixelBudget));
    throw core::InvalidParameter(
        "width × height × scale²", std::to_string(width) + " × " + std::to_string(height) + " × " + n(scale) + "²",
        amount + " pixels is over the budget of " + max +
            " pixels per image (docs/CONTRACT.md §1), e.g. 4096 × 4096 at scale 1 or 1600 × 1000 at scale 3.2",
        core::Reason{"image_budget", {{"amount", amount}, {"max", max}}, {}});
  }
  if (!(font_scale >= 0.5 && font_scale <= 3))
    throw core::InvalidParameter("font-scale", n(font_scale), "must be a number in 0.5..3",
                                 core::Reason{"number_in", {{"min", "0.5"}, {"max", "3"}}, {}});
  if (!(line_scale >= 0.5 && line_scale <= 4))
    throw core::InvalidParameter("line-scale", n(line_scale), "must be a number in 0.5..4",
                                 core::Reason{"number_in", {{"min", "0.5"}, {"max", "4"}}, {}});
  if (!page.empty() && page != "figure" && page != "slide" && page != "a4" && page != "letter")
    throw core::InvalidParameter("page", page, "must be one of figure, slide, a4, letter",
                                 core::Reason{"one_of", {{"choices", "figure, slide, a4, letter"}}, {}});
  fig::Theme::by_name(theme);
}

std::pair<double, double> pdf_page_size(const ExportOptions& o) {
  const bool landscape = o.width >= o.height;
  auto oriented = [landscape](double a, double b) {
    return landscape ? std::pair{std::max(a, b), std::min(a, b)} : std::pair{std::min(a, b), std::max(a, b)};
  };
  if (o.page == "slide") return {960.0, 540.0};  // 13.333 × 7.5 in, PowerPoint's and Keynote's 16:9
  if (o.page == "a4") return oriented(595.28, 841.89);
  if (o.page == "letter") return oriented(612.0, 792.0);
  return {static_cast<double>(o.width), static_cast<double>(o.height)};
}

double export_font_size(int width, int height) {
  return std::clamp(std::sqrt(static_cast<double>(width) * height) / 60.0, 11.0, 40.0);
}

fig::RenderStyle export_render_style(const ExportOptions& o) {
  fig::RenderStyle s;
  s.theme = fig::Theme::by_name(o.theme);
  s.theme.transparent = o.transparent;
  s.theme.line_scale *= o.line_scale;
  s.font_size = export_font_size(o.width, o.height) * o.font_scale;
  s.hold = o.hold;
  return s;
}

std::string render_svg(const fig::Figure& figure, const ExportOptions& o) {
  o.check();
  SvgPainter painter(o.width, o.height, o.font_family, std::max(1.0, o.scale) * 2.0);
  painter.describe(fig::plain_text(figure.title), figure.description);
  fig::render_figure(figure, painter, {0, 0, static_cast<double>(o.width), static_cast<double>(o.height)},
                     export_render_style(o));
  return painter.finish();
}

void export_figure(const fig::Figure& figure, ExportFormat format, const std::filesystem::path& path,
                   const ExportOptions& o) {
  o.check();
  switch (format) {
    case ExportFormat::png:
      write_file_atomically(path, render_png(figure, o));
      return;
    case ExportFormat::svg:
      write_file_atomically(path, render_svg(figure, o));
      return;
    case ExportFormat::pdf:
      write_file_atomically(path, render_pdf(figure, o));
      return;
    case ExportFormat::csv:
      write_file_atomically(path, figure_csv(figure));
      return;
  }
}

std::string figure_csv(const fig::Figure& f) {
  // Column names: the readout names when every series (or the heatmap)
  // shares them, else the axis labels; formulas in them written out as text.
  // Decorations (fig::Series::decoration) have no rows and no say in them.
  auto csv_field = [](const std::string& s) { return app::csv_field(fig::plain_text(s)); };
  const fig::Heatmap* hm = f.heatmaps.empty() ? nullptr : &f.heatmaps.front();
  auto shared = [&](auto member, const fig::Axis& axis, const std::string& heat) {
    std::string name;
    bool same = true;
    for (const fig::Series& s : f.series) {
      if (s.decoration) continue;
      const std::string& v = s.*member;
      if (name.empty() && !v.empty()) name = v;
      else if (v != name) same = false;
    }
    if (f.series.empty() && !heat.empty()) return heat;
    if (!same || name.empty()) name = axis.label;
    return name.empty() ? std::string("value") : name;
  };
  const std::string xname = shared(&fig::Series::x_name, f.x, hm ? hm->x_name : "");
  const std::string yname = shared(&fig::Series::y_name, f.y, hm ? hm->y_name : "");
  std::vector<std::string> extras;
  for (const fig::Series& s : f.series)
    if (!s.decoration)
      for (const fig::ExtraColumn& e : s.extra)
        if (std::find(extras.begin(), extras.end(), e.name) == extras.end()) extras.push_back(e.name);
  std::string out = "series," + csv_field(xname) + "," + csv_field(yname);
  for (const auto& e : extras) out += "," + csv_field(e);
  if (hm) out += "," + csv_field(hm->value_name.empty() ? "value" : hm->value_name);
  out += '\n';
  const std::string empty_extras(extras.size(), ',');
  for (std::size_t si = 0; si < f.series.size(); ++si) {
    const fig::Series& s = f.series[si];
    if (s.decoration) continue;  // a rim, a tick mark: no data of its own
    // The legend name, else the name the series has for the CSV; "series N"
    // only for a series a builder forgot to name (tests catch it).
    const std::string& own = s.name.empty() ? s.data_name : s.name;
    const std::string name = csv_field(own.empty() ? "series " + std::to_string(si + 1) : own);
    for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      out += name + "," + n(s.x[i]) + "," + n(s.y[i]);
      for (const auto& e : extras) {
        out += ',';
        for (const fig::ExtraColumn& col : s.extra)
          if (col.name == e && i < col.values.size()) out += n(col.values[i]);
      }
      if (hm) out += ',';
      out += '\n';
    }
  }
  // Heatmaps: one row per cell, at the coordinate the cell stands for — the
  // index of a cell of width 1 (its centre rounded down: cells [c, c + 1) and
  // [c − ½, c + ½) both give c), the centre of a wider cell, the lattice point
  // of a continuous sampler, or the heatmap's own x_index / y_index — and its
  // value in double precision when the heatmap gives it (exact), else the float drawn.
  for (const fig::Heatmap& h : f.heatmaps) {
    const std::string name = csv_field(h.value_name.empty() ? "heatmap" : h.value_name);
    int cols = h.cols, rows = h.rows;
    if (cols <= 0 || rows <= 0) continue;
    // Sampled heatmaps: their natural lattice, thinned evenly to at most kMaxCsvCells.
    int sx = 1, sy = 1;
    while (static_cast<std::size_t>((cols + sx - 1) / sx) * static_cast<std::size_t>((rows + sy - 1) / sy) > kMaxCsvCells)
      (cols / sx >= rows / sy ? sx : sy) *= 2;
    const double cw = (h.x1 - h.x0) / cols, ch = (h.y1 - h.y0) / rows;
    const bool x_cells = h.is_matrix() || h.x_cells, y_cells = h.is_matrix() || h.y_cells;
    // where each printed column (row) is sampled, and the coordinate printed for it
    auto lattice = [](int count, int step, double lo, double width, bool cells, const std::vector<double>& index,
                      std::vector<double>& at, std::vector<double>& shown) {
      for (int c = 0; c < count; c += step) {
        const double x = lo + width * (c + (cells ? 0.5 : 0.0));
        at.push_back(x);
        if (static_cast<std::size_t>(c) < index.size()) shown.push_back(index[static_cast<std::size_t>(c)]);
        else if (cells && std::abs(width - 1) < 1e-12) shown.push_back(std::floor(x + 1e-9));
        else shown.push_back(x);
      }
    };
    std::vector<double> xs, ys, x_shown, y_shown;
    lattice(cols, sx, h.x0, cw, x_cells, h.x_index, xs, x_shown);
    lattice(rows, sy, h.y0, ch, y_cells, h.y_index, ys, y_shown);
    std::vector<double> exact;
    std::vector<float> values;
    if (h.exact) {
      exact.resize(xs.size() * ys.size());
      h.exact(xs, ys, exact);
    } else if (h.is_matrix()) {
      values.reserve(xs.size() * ys.size());
      for (int r = 0; r < rows; r += sy)
        for (int c = 0; c < cols; c += sx) values.push_back(h.values[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)]);
    } else if (h.sampler) {
      values.resize(xs.size() * ys.size());
      h.sampler(xs, ys, values);
    }
    std::size_t k = 0;
    for (int r = 0, ri = 0; r < rows; r += sy, ++ri)
      for (int c = 0, ci = 0; c < cols; c += sx, ++ci, ++k) {
        const std::size_t src = static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c);
        if (!h.mask.empty() && h.mask[src]) continue;  // masked cells have no value
        out += name + "," + n(x_shown[static_cast<std::size_t>(ci)]) + "," + n(y_shown[static_cast<std::size_t>(ri)]) + empty_extras +
               "," + (h.exact ? n(exact[k]) : k < values.size() ? nf(values[k]) : std::string()) + '\n';
      }
  }
  return out;
}

}  // namespace poslab::app
