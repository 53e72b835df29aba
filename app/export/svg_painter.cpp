#include "app/export/svg_painter.hpp"

#include "app/common/safe_text.hpp"

#include <cmath>
#include <cstdio>

#include "app/common/fonts.hpp"
#include "app/common/markup.hpp"
#include "app/export/png.hpp"
#include "app/export/raster_argb.hpp"
#include "app/export/text_metrics.hpp"

namespace poslab::app {

namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string color_attr(const char* name, fig::Color c) {
  char buf[96];
  std::snprintf(buf, sizeof buf, " %s=\"#%02x%02x%02x\"", name, static_cast<int>(std::lround(c.r * 255)),
                static_cast<int>(std::lround(c.g * 255)), static_cast<int>(std::lround(c.b * 255)));
  std::string out = buf;
  if (c.a < 1.0f) out += std::string(" ") + name + "-opacity=\"" + num(c.a) + "\"";
  return out;
}

std::string base64(const std::string& in) {
  static const char* tbl = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned n = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    out += tbl[(n >> 18) & 63], out += tbl[(n >> 12) & 63], out += tbl[(n >> 6) & 63], out += tbl[n & 63];
  }
  if (i + 1 == in.size()) {
    const unsigned n = static_cast<unsigned char>(in[i]) << 16;
    out += tbl[(n >> 18) & 63], out += tbl[(n >> 12) & 63], out += "==";
  } else if (i + 2 == in.size()) {
    const unsigned n = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
    out += tbl[(n >> 18) & 63], out += tbl[(n >> 12) & 63], out += tbl[(n >> 6) & 63], out += '=';
  }
  return out;
}

std::string dash_attr(fig::LineStyle style, double width) {
  if (style == fig::LineStyle::dashed) return " stroke-dasharray=\"" + num(width * 4) + " " + num(width * 3) + "\"";
  if (style == fig::LineStyle::dotted)
    return " stroke-dasharray=\"0.01 " + num(width * 2.5) + "\" stroke-linecap=\"round\"";
  return {};
}

}  // namespace

// The painter itself: fig::Painter writing SVG, behind the SvgPainter handle.

class SvgPainter::Impl final : public fig::Painter {
 public:
  Impl(double width, double height, std::string font_family, double raster_density)
      : width_(width), height_(height), family_(std::move(font_family)), density_(raster_density) {
    // A viewer picks each glyph from the first family that has it, as the PNG
    // and PDF draw it: Latin, Greek and math from the Latin face, CJK from the
    // CJK one — or, on a machine without it, from another common CJK face of
    // the same em-square widths (so the layout measured here still fits).
    const auto families = split_font_families(family_);
    font_family_attr_ = family_ + ", sans-serif";
    if (families.size() > 1) {
      family_ = families.front();
      cjk_family_ = families.back();
      font_family_attr_ = family_ + ", " + cjk_family_;
      for (const char* f : {"Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", "Microsoft YaHei",
                            "PingFang SC"})
        if (cjk_family_ != f) font_family_attr_ += std::string(", ") + f;
      font_family_attr_ += ", sans-serif";
    }
    metrics_ = std::make_unique<TextMetrics>(family_, cjk_family_);
  }

  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  void fill_rect(const fig::Rect& r, fig::Color c) override {
    body_ += "<rect x=\"" + num(r.x) + "\" y=\"" + num(r.y) + "\" width=\"" + num(r.w) + "\" height=\"" + num(r.h) +
             "\"" + color_attr("fill", c) + "/>\n";
  }

  void stroke_polyline(std::span<const fig::Point> pts, fig::Color c, double width, fig::LineStyle style) override {
    if (pts.size() < 2) return;
    std::string d;
    d.reserve(pts.size() * 14);
    for (const auto& p : pts) d += num(p.x) + "," + num(p.y) + " ";
    body_ += "<polyline fill=\"none\" points=\"" + d + "\"" + color_attr("stroke", c) + " stroke-width=\"" + num(width) +
             "\" stroke-linejoin=\"round\"" + dash_attr(style, width) + "/>\n";
  }

  void fill_polygon(std::span<const fig::Point> pts, fig::Color c) override {
    if (pts.size() < 3) return;
    std::string d;
    for (const auto& p : pts) d += num(p.x) + "," + num(p.y) + " ";
    body_ += "<polygon points=\"" + d + "\"" + color_attr("fill", c) + "/>\n";
  }

  void fill_circle(fig::Point center, double radius, fig::Color c) override {
    body_ += "<circle cx=\"" + num(center.x) + "\" cy=\"" + num(center.y) + "\" r=\"" + num(radius) + "\"" +
             color_attr("fill", c) + "/>\n";
  }

  fig::Size measure(std::string_view utf8, const fig::TextStyle& style) override {
    if (utf8.empty()) return {0, style.size};
    return {metrics_->advance(utf8, style), style.size};
  }

  fig::FontExtents font_extents(const fig::TextStyle& style) override {
    const TextMetrics::Extents fe = metrics_->extents(style);
    return {fe.ascent, fe.descent};
  }

  void text(fig::Point at, std::string_view utf8, const fig::TextStyle& style, fig::Anchor h, fig::VAnchor v,
            bool rotated) override {
    if (utf8.empty()) return;
    const TextMetrics::Extents fe = metrics_->extents(style);
    double dy = 0;
    switch (v) {
      case fig::VAnchor::top: dy = fe.ascent; break;
      case fig::VAnchor::middle: dy = (fe.ascent - fe.descent) / 2; break;
      case fig::VAnchor::baseline: dy = 0; break;
      case fig::VAnchor::bottom: dy = -fe.descent; break;
    }
    const char* anchor = h == fig::Anchor::left ? "start" : h == fig::Anchor::center ? "middle" : "end";
    // xml:space: a run's own spaces stay (" · s = 8" after a formula's last
    // glyph: SVG drops a leading space, and Chromium draws "1· s = 8").
    std::string tag = "<text xml:space=\"preserve\"";
    if (rotated)
      tag += " transform=\"translate(" + num(at.x) + "," + num(at.y) + ") rotate(-90)\" x=\"0\" y=\"" + num(dy) + "\"";
    else
      tag += " x=\"" + num(at.x) + "\" y=\"" + num(at.y + dy) + "\"";
    tag += " font-family=\"" + for_xml(font_family_attr_) + "\" font-size=\"" + num(style.size) + "\"";
    if (style.bold) tag += " font-weight=\"bold\"";
    tag += " text-anchor=\"" + std::string(anchor) + "\"" + color_attr("fill", style.color) + ">";
    body_ += tag + for_xml(utf8) + "</text>\n";
  }

  void heatmap(const fig::Rect& dst, const fig::ScalarRaster& raster) override {
    if (raster.w <= 0 || raster.h <= 0) return;
    const std::string png = encode_png(Image{raster.w, raster.h, raster_to_argb(raster)});
    body_ += "<image x=\"" + num(dst.x) + "\" y=\"" + num(dst.y) + "\" width=\"" + num(dst.w) + "\" height=\"" +
             num(dst.h) + "\" preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" href=\"data:image/png;base64," +
             base64(png) + "\"/>\n";
  }

  void push_clip(const fig::Rect& r) override {
    const std::string id = "clip" + std::to_string(++clip_id_);
    defs_ += "<clipPath id=\"" + id + "\"><rect x=\"" + num(r.x) + "\" y=\"" + num(r.y) + "\" width=\"" + num(r.w) +
             "\" height=\"" + num(r.h) + "\"/></clipPath>\n";
    body_ += "<g clip-path=\"url(#" + id + ")\">\n";
    ++open_groups_;
  }

  void pop_clip() override {
    if (open_groups_ == 0) return;
    body_ += "</g>\n";
    --open_groups_;
  }

  std::string finish() {
    while (open_groups_ > 0) pop_clip();
    // (width and height first: the browser build's render_png rewrites them.)
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                      num(width_) + "\" height=\"" + num(height_) + "\" viewBox=\"0 0 " + num(width_) + " " +
                      num(height_) + "\"";
    // Full-width punctuation keeps its em, as measured here and drawn in the
    // PNG and PDF: Chromium trims "）：" by default (CSS text-spacing-trim), so
    // "YaRN（代码）：" ended short of the formula placed after it, with a gap.
    out += " style=\"text-spacing-trim:space-all\"";
    if (title_.empty() && description_.empty()) {
      out += ">\n";
    } else {
      std::string ids;
      if (!title_.empty()) ids += "poslab-title";
      if (!description_.empty()) ids += ids.empty() ? "poslab-desc" : " poslab-desc";
      out += " role=\"img\" aria-labelledby=\"" + ids + "\">\n";
      if (!title_.empty()) out += "<title id=\"poslab-title\">" + for_xml(title_) + "</title>\n";
      if (!description_.empty()) out += "<desc id=\"poslab-desc\">" + for_xml(description_) + "</desc>\n";
    }
    if (!defs_.empty()) out += "<defs>\n" + defs_ + "</defs>\n";
    return out + body_ + "</svg>\n";
  }

  double pixel_density() const override { return density_; }

  std::string title_, description_;

 private:
  std::string body_;
  std::string defs_;
  double width_, height_;
  std::string family_;
  std::string cjk_family_;        ///< empty: one face for everything
  std::string font_family_attr_;  ///< the font-family every <text> names
  double density_;
  int clip_id_ = 0;
  int open_groups_ = 0;
  std::unique_ptr<TextMetrics> metrics_;  ///< text is measured, not drawn
};

SvgPainter::SvgPainter(double width, double height, std::string font_family, double raster_density)
    : impl_(std::make_unique<Impl>(width, height, std::move(font_family), raster_density)) {}

SvgPainter::~SvgPainter() = default;

SvgPainter::operator fig::Painter&() { return *impl_; }

void SvgPainter::describe(std::string title, std::string description) {
  impl_->title_ = std::move(title);
  impl_->description_ = std::move(description);
}

std::string SvgPainter::finish() { return impl_->finish(); }

}  // namespace poslab::app
