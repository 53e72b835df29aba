// The raster and print formats, drawn by cairo (the desktop build; the
// browser build has platform/web/figure_export_web.cpp instead).

#include <cairo-pdf.h>
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "app/common/atomic_file.hpp"
#include "app/export/cairo_painter.hpp"
#include "app/export/figure_export.hpp"
#include "app/common/utf8.hpp"
#include "app/plot/formula.hpp"

namespace poslab::app {

namespace {

OwnedSurface render_surface(const fig::Figure& figure, const ExportOptions& o) {
  o.check();
  const int pw = static_cast<int>(std::lround(o.width * o.scale));
  const int ph = static_cast<int>(std::lround(o.height * o.scale));
  OwnedSurface surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph));
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
    throw IoError("cannot allocate a " + std::to_string(pw) + "×" + std::to_string(ph) + " image");
  cairo_t* cr = cairo_create(surface.get());
  cairo_scale(cr, o.scale, o.scale);
  {
    CairoPainter painter(cr, o.scale, o.font_family);
    fig::render_figure(figure, painter, {0, 0, static_cast<double>(o.width), static_cast<double>(o.height)},
                       export_render_style(o));
  }
  cairo_destroy(cr);
  cairo_surface_flush(surface.get());
  return surface;
}

/// Inserts `text` right after the first `anchor` in the PDF `pdf` (before
/// its cross-reference table) and moves the table's offsets behind it, and
/// startxref, by its length. False (nothing changed) when the anchor or a
/// classic table as cairo writes it is not there.
bool pdf_insert_after(std::string& pdf, std::string_view anchor, const std::string& text) {
  const std::size_t xref = pdf.rfind("\nxref\n");
  const std::size_t start = pdf.rfind("startxref\n");
  const std::size_t at_anchor = pdf.find(anchor);
  if (xref == std::string::npos || start == std::string::npos || at_anchor == std::string::npos || at_anchor > xref)
    return false;
  const std::size_t at = at_anchor + anchor.size();
  // "xref\n0 N\n" then N entries of 20 bytes: "oooooooooo ggggg n \n".
  std::size_t p = xref + 6;
  const std::size_t line_end = pdf.find('\n', p);
  unsigned first = 0, count = 0;
  if (line_end == std::string::npos || std::sscanf(pdf.c_str() + p, "%u %u", &first, &count) != 2) return false;
  p = line_end + 1;
  if (p + static_cast<std::size_t>(count) * 20 > start) return false;
  std::string fixed = pdf.substr(0, at) + text;
  std::string table = pdf.substr(at, p - at);  // up to the entries (the objects after the insertion)
  for (unsigned k = 0; k < count; ++k, p += 20) {
    std::string entry = pdf.substr(p, 20);
    if (entry.size() == 20 && entry[17] == 'n') {
      const unsigned long offset = std::strtoul(entry.c_str(), nullptr, 10);
      if (offset >= at) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%010lu", offset + text.size());
        entry.replace(0, 10, buf);
      }
    }
    table += entry;
  }
  // The rest: trailer, startxref and its number, %%EOF.
  std::string rest = pdf.substr(p);
  const std::size_t s = rest.find("startxref\n");
  if (s == std::string::npos) return false;
  const std::size_t num_at = s + 10, num_end = rest.find('\n', num_at);
  const unsigned long old_start = std::strtoul(rest.c_str() + num_at, nullptr, 10);
  rest.replace(num_at, num_end == std::string::npos ? std::string::npos : num_end - num_at,
               std::to_string(old_start + text.size()));
  pdf = fixed + table + rest;
  return true;
}

}  // namespace

std::string render_png(const fig::Figure& figure, const ExportOptions& o) {
  const OwnedSurface surface = render_surface(figure, o);
  return encode_png(surface.get());
}

Image render_image(const fig::Figure& figure, const ExportOptions& o) {
  const OwnedSurface surface = render_surface(figure, o);
  Image img;
  img.width = cairo_image_surface_get_width(surface.get());
  img.height = cairo_image_surface_get_height(surface.get());
  img.pixels.resize(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height));
  const int stride = cairo_image_surface_get_stride(surface.get());
  const unsigned char* data = cairo_image_surface_get_data(surface.get());
  for (int y = 0; y < img.height; ++y)
    std::memcpy(img.pixels.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width),
                data + static_cast<std::ptrdiff_t>(y) * stride, static_cast<std::size_t>(img.width) * 4);
  return img;
}

std::string render_pdf(const fig::Figure& figure, const ExportOptions& o) {
  o.check();
  std::string pdf;
  // The figure is laid out at width × height and scaled onto the page,
  // centred, its aspect kept.
  const auto [page_w, page_h] = pdf_page_size(o);
  cairo_surface_t* surface = pdf_stream_surface(pdf, page_w, page_h);
  // The text alternative: the title and the description as the document's
  // Title and Subject (a reader's "Description"). Not a tagged PDF's /Figure
  // with /Alt: cairo 1.16 writes no structure attributes, and with a
  // cairo_tag_begin(cr, "Figure") around the drawing its show_page fails
  // with CAIRO_STATUS_TAG_ERROR on every figure (a bare rectangle or text is
  // fine) — the catalog gets the language alone.
  const std::string title = fig::plain_text(figure.title);
  if (!title.empty()) cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title.c_str());
  if (!figure.description.empty())
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, figure.description.c_str());
  cairo_t* cr = cairo_create(surface);
  const double k = std::min(page_w / o.width, page_h / o.height);
  cairo_translate(cr, (page_w - o.width * k) / 2, (page_h - o.height * k) / 2);
  cairo_scale(cr, k, k);
  {
    CairoPainter painter(cr, std::max(2.0, 2.0 * k), o.font_family);  // heatmap rasters at ≥ 2 px per point
    fig::render_figure(figure, painter, {0, 0, static_cast<double>(o.width), static_cast<double>(o.height)},
                       export_render_style(o));
  }
  cairo_show_page(cr);
  finish_pdf(cr, surface);
  // The document's language (cairo 1.16 has no call for it), so a reader
  // speaks the Subject and Title in it.
  bool cjk = false;
  for (std::size_t i = 0; i < figure.description.size() && !cjk;) {
    std::size_t n = 1;
    const char32_t c = utf8::decode(figure.description, i, n);
    cjk = c >= 0x3400 && c <= 0x9FFF;
    i += n;
  }
  if (!figure.description.empty())
    pdf_insert_after(pdf, "/Type /Catalog", std::string("\n   /Lang (") + (cjk ? "zh-CN" : "en") + ")");
  return pdf;
}

}  // namespace poslab::app
