#include "app/export/cairo_painter.hpp"

#include <cairo-pdf.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "app/common/atomic_file.hpp"
#include "app/common/fonts.hpp"

namespace poslab::app {

namespace {
void set_color(cairo_t* cr, fig::Color c) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a); }

cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}
}  // namespace

cairo_surface_t* pdf_stream_surface(std::string& out, double w, double h) {
  return cairo_pdf_surface_create_for_stream(append_bytes, &out, w, h);
}

void finish_pdf(cairo_t* cr, cairo_surface_t* surface) {
  const cairo_status_t st = cairo_status(cr);
  cairo_destroy(cr);
  cairo_surface_finish(surface);
  const cairo_status_t st2 = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  if (st != CAIRO_STATUS_SUCCESS || st2 != CAIRO_STATUS_SUCCESS)
    throw IoError(std::string("cannot render PDF: ") + cairo_status_to_string(st != CAIRO_STATUS_SUCCESS ? st : st2));
}

double text_advance(cairo_t* cr, std::string_view utf8, const std::string& family, const std::string& cjk_family,
                    const fig::TextStyle& style) {
  const cairo_font_weight_t weight = style.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL;
  double advance = 0;
  const auto runs = cjk_family.empty() ? std::vector<TextRun>{{utf8, false}} : split_cjk_runs(utf8);
  for (const TextRun& run : runs) {
    cairo_select_font_face(cr, (run.cjk ? cjk_family : family).c_str(), CAIRO_FONT_SLANT_NORMAL, weight);
    cairo_set_font_size(cr, style.size);
    const std::string s(run.text);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, s.c_str(), &ext);
    advance += ext.x_advance;
  }
  if (!cjk_family.empty()) {  // leave the Latin face selected: its metrics place every line
    cairo_select_font_face(cr, family.c_str(), CAIRO_FONT_SLANT_NORMAL, weight);
    cairo_set_font_size(cr, style.size);
  }
  return advance;
}

// The painter itself: fig::Painter on a cairo context, behind the CairoPainter handle.

class CairoPainter::Impl final : public fig::Painter {
 public:
  Impl(cairo_t* cr, double density, std::string font_family)
      : cr_(cr), density_(density), family_(std::move(font_family)) {
    const auto families = split_font_families(family_);
    if (families.size() > 1) {  // "Latin, CJK": text is drawn in runs, see fonts.hpp
      family_ = families.front();
      cjk_family_ = families.back();
    }
  }

  void fill_rect(const fig::Rect& r, fig::Color c) override {
    set_color(cr_, c);
    cairo_rectangle(cr_, r.x, r.y, r.w, r.h);
    cairo_fill(cr_);
  }

  void stroke_polyline(std::span<const fig::Point> pts, fig::Color c, double width, fig::LineStyle style) override {
    if (pts.size() < 2) return;
    set_color(cr_, c);
    cairo_set_line_width(cr_, width);
    cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr_, style == fig::LineStyle::dotted ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
    if (style == fig::LineStyle::dashed) {
      const double dash[] = {width * 4, width * 3};
      cairo_set_dash(cr_, dash, 2, 0);
    } else if (style == fig::LineStyle::dotted) {
      const double dash[] = {0.01, width * 2.5};
      cairo_set_dash(cr_, dash, 2, 0);
    } else {
      cairo_set_dash(cr_, nullptr, 0, 0);
    }
    // cairo's stroker costs far more than linear in the crossings of one
    // path: a line zigzagging across the plot thousands of times (8192
    // dimensions of PE(m) at m = 1e12, more points than pixel columns) took
    // 1.6 s. An opaque solid line is the same picture stroked in short
    // pieces that share their end points (round caps join them seamlessly);
    // a translucent or dashed one is stroked whole (pieces would overlap
    // twice at their joints, or restart their dashes).
    constexpr std::size_t kPiece = 64;
    const bool pieces = pts.size() > 4 * kPiece && style == fig::LineStyle::solid && c.a >= 1.0f;
    if (pieces) cairo_set_line_cap(cr_, CAIRO_LINE_CAP_ROUND);
    for (std::size_t start = 0; start + 1 < pts.size(); start += pieces ? kPiece : pts.size()) {
      const std::size_t end = pieces ? std::min(start + kPiece, pts.size() - 1) : pts.size() - 1;
      cairo_move_to(cr_, pts[start].x, pts[start].y);
      for (std::size_t i = start + 1; i <= end; ++i) cairo_line_to(cr_, pts[i].x, pts[i].y);
      cairo_stroke(cr_);
    }
    cairo_set_dash(cr_, nullptr, 0, 0);
  }

  void fill_polygon(std::span<const fig::Point> pts, fig::Color c) override {
    if (pts.size() < 3) return;
    set_color(cr_, c);
    cairo_move_to(cr_, pts[0].x, pts[0].y);
    for (std::size_t i = 1; i < pts.size(); ++i) cairo_line_to(cr_, pts[i].x, pts[i].y);
    cairo_close_path(cr_);
    cairo_fill(cr_);
  }

  void fill_circle(fig::Point center, double radius, fig::Color c) override {
    set_color(cr_, c);
    cairo_new_sub_path(cr_);
    cairo_arc(cr_, center.x, center.y, radius, 0, 2 * std::numbers::pi);
    cairo_fill(cr_);
  }

  fig::Size measure(std::string_view utf8, const fig::TextStyle& style) override {
    if (utf8.empty()) return {0, style.size};
    return {text_advance(cr_, utf8, family_, cjk_family_, style), style.size};
  }

  fig::FontExtents font_extents(const fig::TextStyle& style) override {
    set_font(style, false);  // the Latin face: its metrics place every line
    cairo_font_extents_t fe;
    cairo_font_extents(cr_, &fe);
    return {fe.ascent, fe.descent};
  }

  void text(fig::Point at, std::string_view utf8, const fig::TextStyle& style, fig::Anchor h, fig::VAnchor v,
            bool rotated) override {
    if (utf8.empty()) return;
    const double advance = text_advance(cr_, utf8, family_, cjk_family_, style);  // leaves the Latin face set
    cairo_font_extents_t fe;
    cairo_font_extents(cr_, &fe);
    double dx = 0;
    if (h == fig::Anchor::center) dx = -advance / 2;
    if (h == fig::Anchor::right) dx = -advance;
    double dy = 0;  // from the baseline
    switch (v) {
      case fig::VAnchor::top: dy = fe.ascent; break;
      case fig::VAnchor::middle: dy = (fe.ascent - fe.descent) / 2; break;
      case fig::VAnchor::baseline: dy = 0; break;
      case fig::VAnchor::bottom: dy = -fe.descent; break;
    }
    cairo_save(cr_);
    set_color(cr_, style.color);
    cairo_translate(cr_, at.x, at.y);
    if (rotated) cairo_rotate(cr_, -std::numbers::pi / 2);
    cairo_move_to(cr_, dx, dy);
    if (cjk_family_.empty()) {
      const std::string s(utf8);
      cairo_show_text(cr_, s.c_str());
    } else {
      for (const TextRun& run : split_cjk_runs(utf8)) {  // each run moves the current point on
        set_font(style, run.cjk);
        const std::string s(run.text);
        cairo_show_text(cr_, s.c_str());
      }
    }
    cairo_restore(cr_);
  }

  void heatmap(const fig::Rect& dst, const fig::ScalarRaster& raster) override {
    if (raster.w <= 0 || raster.h <= 0) return;
    const auto px = raster_to_argb(raster);
    const int stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, raster.w);
    std::vector<unsigned char> data(static_cast<std::size_t>(stride) * static_cast<std::size_t>(raster.h));
    for (int r = 0; r < raster.h; ++r)
      std::copy_n(px.data() + static_cast<std::size_t>(r) * static_cast<std::size_t>(raster.w), raster.w,
                  reinterpret_cast<std::uint32_t*>(data.data() + static_cast<std::size_t>(r) * static_cast<std::size_t>(stride)));
    cairo_surface_t* img =
        cairo_image_surface_create_for_data(data.data(), CAIRO_FORMAT_ARGB32, raster.w, raster.h, stride);
    cairo_save(cr_);
    cairo_rectangle(cr_, dst.x, dst.y, dst.w, dst.h);
    cairo_clip(cr_);
    cairo_translate(cr_, dst.x, dst.y);
    cairo_scale(cr_, dst.w / raster.w, dst.h / raster.h);
    cairo_set_source_surface(cr_, img, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr_), CAIRO_FILTER_NEAREST);
    cairo_paint(cr_);
    cairo_restore(cr_);
    cairo_surface_destroy(img);
  }

  void push_clip(const fig::Rect& r) override {
    cairo_save(cr_);
    cairo_rectangle(cr_, r.x, r.y, r.w, r.h);
    cairo_clip(cr_);
  }

  void pop_clip() override { cairo_restore(cr_); }

  double pixel_density() const override { return density_; }

 private:
  void set_font(const fig::TextStyle& style, bool cjk) {
    cairo_select_font_face(cr_, (cjk ? cjk_family_ : family_).c_str(), CAIRO_FONT_SLANT_NORMAL,
                           style.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr_, style.size);
  }

  cairo_t* cr_;
  double density_;
  std::string family_;
  std::string cjk_family_;  ///< empty: one face for everything
};

CairoPainter::CairoPainter(cairo_t* cr, double density, std::string font_family)
    : impl_(std::make_unique<Impl>(cr, density, std::move(font_family))) {}

CairoPainter::~CairoPainter() = default;

CairoPainter::operator fig::Painter&() { return *impl_; }

}  // namespace poslab::app
