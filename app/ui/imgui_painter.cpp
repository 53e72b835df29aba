// [SECTION] Index
// - Helpers (colours, dashes, polygon triangulation)
// - Recording (the Painter interface)
// - Replay

#include "app/ui/imgui_painter.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace poslab::app::ui {

// [SECTION] Helpers

ImU32 to_imgui(fig::Color c) {
  auto byte = [](float v) { return static_cast<int>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
  return IM_COL32(byte(c.r), byte(c.g), byte(c.b), byte(c.a));
}

namespace {

ImVec2 im(fig::Point p) { return {static_cast<float>(p.x), static_cast<float>(p.y)}; }

double cross(ImVec2 o, ImVec2 a, ImVec2 b) {
  return static_cast<double>(a.x - o.x) * (b.y - o.y) - static_cast<double>(a.y - o.y) * (b.x - o.x);
}

bool is_convex(std::span<const ImVec2> p) {
  const std::size_t n = p.size();
  int sign = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double c = cross(p[i], p[(i + 1) % n], p[(i + 2) % n]);
    if (std::abs(c) < 1e-12) continue;
    const int s = c > 0 ? 1 : -1;
    if (sign == 0) sign = s;
    else if (s != sign) return false;
  }
  return true;
}

bool inside_triangle(ImVec2 p, ImVec2 a, ImVec2 b, ImVec2 c) {
  const double d1 = cross(a, b, p), d2 = cross(b, c, p), d3 = cross(c, a, p);
  const bool neg = d1 < 0 || d2 < 0 || d3 < 0, pos = d1 > 0 || d2 > 0 || d3 > 0;
  return !(neg && pos);
}

/// Ear clipping of a simple polygon into triangles appended to `out`.
void triangulate(std::span<const ImVec2> poly, std::vector<ImVec2>& out) {
  std::vector<std::size_t> idx(poly.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  double area = 0;
  for (std::size_t i = 0; i < poly.size(); ++i) area += cross({0, 0}, poly[i], poly[(i + 1) % poly.size()]);
  const double orient = area > 0 ? 1 : -1;
  std::size_t guard = 0;
  while (idx.size() > 3 && guard++ < poly.size() * poly.size()) {
    bool clipped = false;
    for (std::size_t i = 0; i < idx.size(); ++i) {
      const ImVec2 a = poly[idx[(i + idx.size() - 1) % idx.size()]], b = poly[idx[i]], c = poly[idx[(i + 1) % idx.size()]];
      if (cross(a, b, c) * orient <= 0) continue;  // reflex corner
      bool ear = true;
      for (std::size_t j : idx)
        if (poly[j].x != a.x && poly[j].x != b.x && poly[j].x != c.x && inside_triangle(poly[j], a, b, c)) ear = false;
      if (!ear) continue;
      out.insert(out.end(), {a, b, c});
      idx.erase(idx.begin() + static_cast<std::ptrdiff_t>(i));
      clipped = true;
      break;
    }
    if (!clipped) break;  // degenerate: draw what we have
  }
  if (idx.size() == 3) out.insert(out.end(), {poly[idx[0]], poly[idx[1]], poly[idx[2]]});
}

}  // namespace

// [SECTION] Recording

class ImGuiPainter::Impl final : public fig::Painter {
 public:
  Impl(FigureRecording& out, const UiFonts& fonts, HeatmapSink& sink, std::vector<std::uint32_t>& slots,
       double density)
      : out_(out), fonts_(fonts), sink_(sink), slots_(slots), density_(density) {}

  void fill_rect(const fig::Rect& r, fig::Color c) override {
    if (c.a <= 0) return;
    FigureRecording::Op op{.kind = FigureRecording::Kind::rect, .color = to_imgui(c)};
    op.a = {static_cast<float>(r.x), static_cast<float>(r.y)};
    op.b = {static_cast<float>(r.right()), static_cast<float>(r.bottom())};
    out_.ops.push_back(op);
  }

  void stroke_polyline(std::span<const fig::Point> pts, fig::Color c, double width, fig::LineStyle style) override {
    if (pts.size() < 2 || c.a <= 0) return;
    const ImU32 color = to_imgui(c);
    const auto w = static_cast<float>(width);
    if (style == fig::LineStyle::solid) {
      add_polyline(pts, color, w);
      return;
    }
    // Dashes and dots as the exporters draw them (cairo dash arrays: dashes
    // 4w on, 3w off; dots every 2.5w).
    auto lerp = [](fig::Point a, fig::Point b, double f) { return fig::Point{a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f}; };
    if (style == fig::LineStyle::dotted) {
      const double period = std::max(2.0, width * 2.5);
      const auto radius = static_cast<float>(std::max(0.6, width * 0.6));
      double next = 0;  // distance to the next dot
      for (std::size_t i = 1; i < pts.size(); ++i) {
        const double len = std::hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
        double t = 0;
        while (len > 0 && next <= len - t) {
          t += next;
          out_.ops.push_back({.kind = FigureRecording::Kind::circle, .color = color, .width = radius,
                              .a = im(lerp(pts[i - 1], pts[i], t / len))});
          next = period;
        }
        next -= len - t;
      }
      return;
    }
    const double on = width * 4, off = width * 3;
    bool drawing = true;
    double remaining = on;
    std::vector<fig::Point> dash;
    for (std::size_t i = 1; i < pts.size(); ++i) {
      const fig::Point a = pts[i - 1], b = pts[i];
      const double len = std::hypot(b.x - a.x, b.y - a.y);
      double t = 0;
      while (len - t > 1e-9) {
        const double step = std::min(len - t, remaining);
        if (drawing) {
          if (dash.empty()) dash.push_back(lerp(a, b, t / len));
          dash.push_back(lerp(a, b, (t + step) / len));
        }
        t += step;
        remaining -= step;
        if (remaining <= 1e-9) {
          if (drawing) add_polyline(dash, color, w), dash.clear();
          drawing = !drawing;
          remaining = drawing ? on : off;
        }
      }
    }
    add_polyline(dash, color, w);
  }

  void fill_polygon(std::span<const fig::Point> pts, fig::Color c) override {
    if (pts.size() < 3 || c.a <= 0) return;
    const auto first = static_cast<std::uint32_t>(out_.points.size());
    for (const fig::Point& p : pts) out_.points.push_back(im(p));
    const std::span<const ImVec2> poly(out_.points.data() + first, pts.size());
    if (is_convex(poly)) {
      out_.ops.push_back({.kind = FigureRecording::Kind::polygon, .color = to_imgui(c), .first = first,
                          .count = static_cast<std::uint32_t>(pts.size())});
      return;
    }
    std::vector<ImVec2> tris;
    triangulate(std::vector<ImVec2>(poly.begin(), poly.end()), tris);
    out_.points.resize(first);
    for (const ImVec2& p : tris) out_.points.push_back(p);
    out_.ops.push_back({.kind = FigureRecording::Kind::triangles, .color = to_imgui(c), .first = first,
                        .count = static_cast<std::uint32_t>(tris.size())});
  }

  void fill_circle(fig::Point center, double radius, fig::Color c) override {
    if (c.a <= 0 || !(radius > 0)) return;
    out_.ops.push_back({.kind = FigureRecording::Kind::circle, .color = to_imgui(c),
                        .width = static_cast<float>(radius), .a = im(center)});
  }

  fig::Size measure(std::string_view utf8, const fig::TextStyle& style) override {
    const auto size = static_cast<float>(style.size);
    if (utf8.empty()) return {0, style.size};
    const ImFont* font = fonts_.closest_for(size, style.bold, utf8);
    const ImVec2 s = font->CalcTextSizeA(size, FLT_MAX, 0, utf8.data(), utf8.data() + utf8.size());
    return {s.x, style.size};
  }

  fig::FontExtents font_extents(const fig::TextStyle& style) override {
    const auto size = static_cast<float>(style.size);
    const ImFont* font = fonts_.closest(size, style.bold);
    const float scale = size / font->FontSize;
    return {font->Ascent * scale, -font->Descent * scale};
  }

  void text(fig::Point at, std::string_view utf8, const fig::TextStyle& style, fig::Anchor h, fig::VAnchor v,
            bool rotated) override {
    if (utf8.empty()) return;
    const auto size = static_cast<float>(style.size);
    ImFont* font = fonts_.closest_for(size, style.bold, utf8);
    const float scale = size / font->FontSize;
    const float ascent = font->Ascent * scale, descent = -font->Descent * scale;
    const float w = font->CalcTextSizeA(size, FLT_MAX, 0, utf8.data(), utf8.data() + utf8.size()).x;
    float dx = 0, top = 0;  // offsets of the text's top-left from `at`, before rotation
    if (h == fig::Anchor::center) dx = -w / 2;
    if (h == fig::Anchor::right) dx = -w;
    switch (v) {
      case fig::VAnchor::top: top = 0; break;
      case fig::VAnchor::middle: top = -(ascent + descent) / 2; break;
      case fig::VAnchor::baseline: top = -ascent; break;
      case fig::VAnchor::bottom: top = -(ascent + descent); break;
    }
    const auto first = static_cast<std::uint32_t>(out_.text.size());
    out_.text.append(utf8);
    FigureRecording::Op op{.kind = FigureRecording::Kind::text, .color = to_imgui(style.color), .width = size,
                           .first = first, .count = static_cast<std::uint32_t>(utf8.size()), .font = font,
                           .rotated = rotated};
    op.b = im(at);
    op.a = {op.b.x + dx, op.b.y + top};
    out_.ops.push_back(op);
  }

  void heatmap(const fig::Rect& dst, const fig::ScalarRaster& raster) override {
    const auto k = static_cast<std::size_t>(heatmap_index_++);
    if (slots_.size() <= k) slots_.resize(k + 1, 0);
    slots_[k] = sink_.upload(slots_[k], raster);
    // The texture coordinates of dst's corners, kept with the points.
    const auto first = static_cast<std::uint32_t>(out_.points.size());
    out_.points.push_back({static_cast<float>(raster.u0), static_cast<float>(raster.v0)});
    out_.points.push_back({static_cast<float>(raster.u1), static_cast<float>(raster.v1)});
    FigureRecording::Op op{.kind = FigureRecording::Kind::heatmap, .first = first, .count = 2, .slot = slots_[k]};
    op.a = {static_cast<float>(dst.x), static_cast<float>(dst.y)};
    op.b = {static_cast<float>(dst.right()), static_cast<float>(dst.bottom())};
    out_.ops.push_back(op);
    ++out_.heatmaps;
  }

  void push_clip(const fig::Rect& r) override {
    FigureRecording::Op op{.kind = FigureRecording::Kind::push_clip};
    op.a = {static_cast<float>(r.x), static_cast<float>(r.y)};
    op.b = {static_cast<float>(r.right()), static_cast<float>(r.bottom())};
    out_.ops.push_back(op);
  }

  void pop_clip() override { out_.ops.push_back({.kind = FigureRecording::Kind::pop_clip}); }

  double pixel_density() const override { return density_; }
  bool samples_rasters() const override { return true; }  // the GPU, nearest texel

 private:
  /// ImGui joins a thick polyline's segments with a miter of no limit: where
  /// it turns back sharply (multimodal's sawtooth of w ids, 7 → 2 → 3) the
  /// join is a spike several widths long that reads as data and reaches under
  /// a legend. The exporters join round (cairo_painter.cpp); so here a thick
  /// line is cut at a turn sharper than 120° (a miter over twice the width)
  /// and the cut gets a round cap.
  void add_polyline(std::span<const fig::Point> pts, ImU32 color, float width) {
    if (pts.size() < 2) return;
    std::size_t from = 0;
    auto emit = [&](std::size_t to) {  // points from … to, inclusive
      const auto first = static_cast<std::uint32_t>(out_.points.size());
      for (std::size_t i = from; i <= to; ++i) out_.points.push_back(im(pts[i]));
      out_.ops.push_back({.kind = FigureRecording::Kind::polyline, .color = color, .width = width, .first = first,
                          .count = static_cast<std::uint32_t>(to - from + 1)});
    };
    if (width >= 2.0f)
      for (std::size_t i = 1; i + 1 < pts.size(); ++i) {
        const double ux = pts[i].x - pts[i - 1].x, uy = pts[i].y - pts[i - 1].y;
        const double vx = pts[i + 1].x - pts[i].x, vy = pts[i + 1].y - pts[i].y;
        const double nu = std::hypot(ux, uy), nv = std::hypot(vx, vy);
        if (!(nu > 0 && nv > 0) || (ux * vx + uy * vy) / (nu * nv) >= -0.5) continue;
        emit(i);
        out_.ops.push_back({.kind = FigureRecording::Kind::circle, .color = color, .width = width / 2, .a = im(pts[i])});
        from = i;
      }
    emit(pts.size() - 1);
  }

  FigureRecording& out_;
  const UiFonts& fonts_;
  HeatmapSink& sink_;
  std::vector<std::uint32_t>& slots_;
  double density_;
  int heatmap_index_ = 0;
};

ImGuiPainter::ImGuiPainter(FigureRecording& out, const UiFonts& fonts, HeatmapSink& sink,
                           std::vector<std::uint32_t>& slots, double density)
    : impl_(std::make_unique<Impl>(out, fonts, sink, slots, density)) {}

ImGuiPainter::~ImGuiPainter() = default;

ImGuiPainter::operator fig::Painter&() { return *impl_; }

// [SECTION] Replay

void replay(const FigureRecording& rec, ImDrawList* list, ImVec2 o, HeatmapSink& sink) {
  using K = FigureRecording::Kind;
  auto at = [&](ImVec2 p) { return ImVec2(p.x + o.x, p.y + o.y); };
  // Polylines are offset into this scratch buffer (kept between frames).
  static thread_local ImVector<ImVec2> moved;
  for (const FigureRecording::Op& op : rec.ops) {
    switch (op.kind) {
      case K::rect:
        list->AddRectFilled(at(op.a), at(op.b), op.color);
        break;
      case K::polyline:
      case K::polygon: {
        moved.resize(static_cast<int>(op.count));
        for (std::uint32_t i = 0; i < op.count; ++i) moved[static_cast<int>(i)] = at(rec.points[op.first + i]);
        if (op.kind == K::polyline) list->AddPolyline(moved.Data, moved.Size, op.color, ImDrawFlags_None, op.width);
        else list->AddConvexPolyFilled(moved.Data, moved.Size, op.color);
        break;
      }
      case K::triangles:
        for (std::uint32_t i = 0; i + 2 < op.count; i += 3)
          list->AddTriangleFilled(at(rec.points[op.first + i]), at(rec.points[op.first + i + 1]),
                                  at(rec.points[op.first + i + 2]), op.color);
        break;
      case K::circle:
        list->AddCircleFilled(at(op.a), op.width, op.color, 0);
        break;
      case K::text: {
        const char* begin = rec.text.data() + op.first;
        const int v0 = list->VtxBuffer.Size;
        if (!op.rotated) {
          list->AddText(op.font, op.width, at(op.a), op.color, begin, begin + op.count);
        } else {
          // Laid out horizontally first, it must not be culled against a clip
          // rectangle it only fits once rotated: add it unclipped, then give
          // its draw command the real clip rectangle back.
          const ImVec4 clip = list->_ClipRectStack.back();
          list->PushClipRect({-1e6f, -1e6f}, {1e6f, 1e6f}, false);  // not "full screen": that starts at 0, 0
          list->AddText(op.font, op.width, at(op.a), op.color, begin, begin + op.count);
          list->CmdBuffer.back().ClipRect = clip;
          list->PopClipRect();
          // Read bottom-to-top: rotate the glyph quads by −90° around the anchor.
          const ImVec2 c = at(op.b);
          for (int i = v0; i < list->VtxBuffer.Size; ++i) {
            ImVec2& p = list->VtxBuffer[i].pos;
            const float x = p.x - c.x, y = p.y - c.y;
            p = {c.x + y, c.y - x};
          }
        }
        break;
      }
      case K::heatmap:
        sink.draw(list, op.slot, at(op.a), at(op.b), rec.points[op.first], rec.points[op.first + 1]);
        break;
      case K::push_clip:
        list->PushClipRect(at(op.a), at(op.b), true);
        break;
      case K::pop_clip:
        list->PopClipRect();
        break;
    }
  }
}

}  // namespace poslab::app::ui
