// Exports for slides and the projector theme:
// - the projector theme draws every data colour at ≥ 4.5:1 on its background
//   (WCAG 2, computed here from the sRGB formula), data lines at least twice
//   as thick as the light theme's, no light-on-white series — checked on
//   every figure of every lesson through a painter that records every call;
// - with_contrast keeps colours that already contrast and reaches the ratio
//   with the least change, for random colours on light and dark backgrounds;
// - --font-scale and --line-scale scale the text and the lines;
// - --transparent leaves every pixel outside the ink transparent (the plot
//   area and the legend too);
// - --page slide|a4|letter gives the PDF page in points;
// - legends stay off the data when a corner would cover it: beside the plot,
//   or below it when too wide, at every font scale, for every figure;
// - the light and dark themes draw every data colour at ≥ 3:1 and every text
//   at ≥ 4.5:1 on their own background (computed from the theme's colours);
// - titles and subtitles wrap inside the figure; no text under the style's minimum.

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <regex>

#include "app/decks/deck.hpp"
#include "app/export/figure_export.hpp"
#include "app/export/sweep.hpp"
#include "app/lessons/lesson.hpp"
#include "app/plot/render.hpp"
#include "app_test_support.hpp"

using namespace poslab;
namespace fig = poslab::app::fig;

namespace {

/// WCAG 2.1 contrast, written out independently of render.cpp.
double luminance(fig::Color c) {
  auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}
double contrast(fig::Color a, fig::Color b) {
  const double x = luminance(a), y = luminance(b);
  return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

/// Records what render_figure draws.
class RecordingPainter final : public fig::Painter {
 public:
  struct Stroke {
    fig::Color color;
    double width;
  };
  struct Text {
    fig::Point at;
    fig::Color color;
    double size;
    std::string s;
  };
  std::vector<Stroke> strokes;
  std::vector<fig::Color> dots;
  std::vector<Text> texts;
  std::vector<fig::Rect> heatmaps;
  std::vector<std::pair<fig::Rect, fig::Color>> rects;

  void fill_rect(const fig::Rect& r, fig::Color c) override { rects.emplace_back(r, c); }
  void stroke_polyline(std::span<const fig::Point>, fig::Color c, double width, fig::LineStyle) override {
    strokes.push_back({c, width});
  }
  void fill_polygon(std::span<const fig::Point>, fig::Color) override {}
  void fill_circle(fig::Point, double, fig::Color c) override { dots.push_back(c); }
  void text(fig::Point at, std::string_view s, const fig::TextStyle& st, fig::Anchor, fig::VAnchor, bool) override {
    texts.push_back({at, st.color, st.size, std::string(s)});
  }
  /// Text as wide as its bytes (default) or as its code points (closer to a real font's width).
  bool code_points = false;
  fig::Size measure(std::string_view s, const fig::TextStyle& st) override {
    const auto n = code_points ? std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; })
                               : static_cast<std::ptrdiff_t>(s.size());
    return {static_cast<double>(n) * st.size * 0.55, st.size};
  }
  void heatmap(const fig::Rect& dst, const fig::ScalarRaster&) override { heatmaps.push_back(dst); }
  void push_clip(const fig::Rect&) override {}
  void pop_clip() override {}

  bool on_heatmap(fig::Point p) const {
    for (const fig::Rect& r : heatmaps)
      if (r.contains(p)) return true;
    return false;
  }
};

RecordingPainter draw(const fig::Figure& f, const fig::Theme& theme, double font = 14) {
  RecordingPainter p;
  fig::RenderStyle st;
  st.theme = theme;
  st.font_size = font;
  fig::render_figure(f, p, {0, 0, 1200, 700}, st);
  return p;
}

}  // namespace

TEST_CASE("contrast: the WCAG formula's known values, and with_contrast over random colours") {
  const fig::Color white = fig::Color::rgb(0xffffff), black = fig::Color::rgb(0x000000);
  CHECK(fig::contrast_ratio(white, black) == doctest::Approx(21.0));
  CHECK(fig::contrast_ratio(white, white) == doctest::Approx(1.0));
  CHECK(fig::contrast_ratio(fig::Color::rgb(0x767676), white) == doctest::Approx(4.54).epsilon(0.005));  // the famous grey
  // Okabe–Ito yellow and sky blue on white: why the projector theme changes them.
  CHECK(contrast(fig::palette_color(7), white) < 2);
  CHECK(contrast(fig::palette_color(5), white) < 2.5);

  std::mt19937 rng(12);
  std::uniform_real_distribution<float> u(0, 1);
  for (int i = 0; i < 2000; ++i) {
    const fig::Color c{u(rng), u(rng), u(rng), 1};
    const fig::Color bg = i % 2 ? white : fig::Color::rgb(0x1e1f22);
    const double want = 1.5 + 6.0 * u(rng);
    const fig::Color out = fig::with_contrast(c, bg, want);
    CAPTURE(i);
    if (contrast(c, bg) >= want) {
      CHECK(out == c);  // already enough: unchanged
    } else {
      CHECK(contrast(out, bg) >= want - 1e-6);
      // The least change: 2 % less of the mix would not reach it.
      const bool light = luminance(bg) > 0.18;
      // The mix t towards black (or white), read from the channel that moved most.
      const float hi = std::max({c.r, c.g, c.b}), lo = std::min({c.r, c.g, c.b});
      const float out_hi = std::max({out.r, out.g, out.b}), out_lo = std::min({out.r, out.g, out.b});
      const double t = light ? (hi > 0.05f ? 1 - out_hi / hi : 0) : (lo < 0.95f ? (out_lo - lo) / (1 - lo) : 0);
      if (t > 0.03) {
        const double k = t - 0.02;
        const float target = light ? 0.0f : 1.0f;
        const fig::Color less{c.r + (target - c.r) * static_cast<float>(k), c.g + (target - c.g) * static_cast<float>(k),
                              c.b + (target - c.b) * static_cast<float>(k), 1};
        CHECK(contrast(less, bg) < want);
      }
    }
  }
}

TEST_CASE("projector theme: every figure of every lesson draws its data at ≥ 4.5:1, lines at least twice as thick") {
  const fig::Theme projector = fig::Theme::projector(), light = fig::Theme::light();
  int figures = 0;
  for (const app::ViewDef& v : app::view_defs())
    for (const app::FigureDef& def : v.figures) {
      CAPTURE(v.id);
      CAPTURE(def.id);
      const fig::Figure f = app::build_figure(v, def, core::Params{}, test::english(), 1200, 700);
      const RecordingPainter p = draw(f, projector);
      const RecordingPainter l = draw(f, light);
      ++figures;
      double widest_p = 0, widest_l = 0;
      for (const auto& s : p.strokes) {
        widest_p = std::max(widest_p, s.width);
        // The grid and the frame are drawn at 1 unit; everything thicker is data.
        if (s.width > 1.01) CHECK(contrast(s.color, projector.plot_background) >= 4.5 - 1e-6);
      }
      for (const auto& s : l.strokes) widest_l = std::max(widest_l, s.width);
      if (widest_l > 1.01) CHECK(widest_p >= 2 * widest_l - 1e-9);  // there are data lines
      for (const fig::Color& c : p.dots) CHECK(contrast(c, projector.plot_background) >= 4.5 - 1e-6);
      for (const auto& t : p.texts) {
        if (p.on_heatmap(t.at)) continue;  // a cell's value: coloured for its cell
        CHECK(contrast(t.color, projector.background) >= 4.5 - 1e-6);
      }
      // Solid bars and markers: no light fill on white.
      for (const auto& [r, c] : p.rects)
        if (c.a > 0.99f && !(c == projector.background) && !(c == projector.plot_background) && r.w < 600)
          CHECK(contrast(c, projector.plot_background) >= 4.5 - 1e-6);
    }
  CHECK(figures >= 40);
}

TEST_CASE("font and line scale: text and data lines grow by the factor asked for") {
  app::ExportOptions o;
  o.width = 1200, o.height = 700;
  const fig::RenderStyle base = app::export_render_style(o);
  o.font_scale = 1.75;
  o.line_scale = 2.5;
  const fig::RenderStyle big = app::export_render_style(o);
  CHECK(big.font_size == doctest::Approx(base.font_size * 1.75));
  CHECK(big.theme.line_scale == doctest::Approx(2.5));
  const app::ViewDef* v = app::find_view("rope");
  REQUIRE(v);
  const fig::Figure f = app::build_figure(*v, *app::find_figure(*v, "frequencies"), core::Params{}, test::english());
  RecordingPainter a, b;
  fig::render_figure(f, a, {0, 0, 1200, 700}, base);
  fig::render_figure(f, b, {0, 0, 1200, 700}, big);
  double wa = 0, wb = 0, ta = 0, tb = 0;
  for (const auto& s : a.strokes) wa = std::max(wa, s.width);
  for (const auto& s : b.strokes) wb = std::max(wb, s.width);
  for (const auto& t : a.texts) ta = std::max(ta, t.size);
  for (const auto& t : b.texts) tb = std::max(tb, t.size);
  // Data lines are series width × font/14 × line scale.
  CHECK(wb == doctest::Approx(wa * 2.5 * 1.75));
  CHECK(tb == doctest::Approx(ta * 1.75));
  // Out of range: refused, naming the option.
  for (double bad : {0.1, 9.0, std::nan("")}) {
    app::ExportOptions x;
    x.font_scale = bad;
    CHECK_THROWS_AS(x.check(), core::InvalidParameter);
    app::ExportOptions y;
    y.line_scale = bad;
    CHECK_THROWS_AS(y.check(), core::InvalidParameter);
  }
}

TEST_CASE("--transparent: nothing is filled, the plot area and the legend box included") {
  const app::ViewDef* v = app::find_view("scaling");
  REQUIRE(v);
  const fig::Figure f = app::build_figure(*v, *app::find_figure(*v, "ratio"), core::Params{}, test::english(), 800, 500);
  app::ExportOptions o;
  o.width = 800, o.height = 500;
  for (const char* theme : {"light", "dark", "projector"}) {
    CAPTURE(theme);
    o.theme = theme;
    o.transparent = false;
    const app::Image filled = app::render_image(f, o);
    o.transparent = true;
    const app::Image clear = app::render_image(f, o);
    std::size_t transparent = 0, opaque_filled = 0;
    for (std::uint32_t p : clear.pixels) transparent += (p >> 24) == 0;
    for (std::uint32_t p : filled.pixels) opaque_filled += (p >> 24) == 255;
    CHECK(opaque_filled == filled.pixels.size());
    // Only ink remains: most of the figure (the plot area's inside too) is see-through.
    CHECK(transparent > clear.pixels.size() * 6 / 10);
    // Every pixel of the plot's background colour is gone: no fully opaque
    // pixel has the theme's plot background colour.
    const fig::Color bg = fig::Theme::by_name(theme).plot_background;
    const std::uint32_t bg_px = 0xff000000u | (static_cast<std::uint32_t>(std::lround(bg.r * 255)) << 16) |
                                (static_cast<std::uint32_t>(std::lround(bg.g * 255)) << 8) |
                                static_cast<std::uint32_t>(std::lround(bg.b * 255));
    std::size_t bg_left = 0;
    for (std::uint32_t p : clear.pixels) bg_left += p == bg_px;
    CHECK(bg_left < clear.pixels.size() / 100);
  }
}

TEST_CASE("--page: the PDF page in points, the figure's own size by default") {
  const app::ViewDef* v = app::find_view("rope");
  REQUIRE(v);
  const fig::Figure f = app::build_figure(*v, *app::find_figure(*v, "frequencies"), core::Params{}, test::english());
  const auto dir = std::filesystem::temp_directory_path() / ("poslab-page-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto media_box = [&](const app::ExportOptions& o) {
    const auto path = dir / "x.pdf";
    app::export_figure(f, app::ExportFormat::pdf, path, o);
    std::ifstream in(path, std::ios::binary);
    const std::string pdf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::smatch m;
    REQUIRE(std::regex_search(pdf, m, std::regex(R"(/MediaBox \[ *0 0 ([0-9.]+) ([0-9.]+) *\])")));
    return std::pair{std::stod(m[1]), std::stod(m[2])};
  };
  app::ExportOptions o;
  o.width = 1920, o.height = 1080;
  CHECK(media_box(o) == std::pair{1920.0, 1080.0});
  o.page = "slide";
  const auto slide = media_box(o);
  CHECK(slide.first / 72 == doctest::Approx(13.333).epsilon(0.001));
  CHECK(slide.second / 72 == doctest::Approx(7.5));
  o.page = "a4";
  const auto a4 = media_box(o);
  CHECK(a4.first == doctest::Approx(841.89).epsilon(0.001));  // landscape: the figure is wider than tall
  CHECK(a4.second == doctest::Approx(595.28).epsilon(0.001));
  o.width = 800, o.height = 1000;
  o.page = "letter";
  CHECK(media_box(o) == std::pair{612.0, 792.0});
  o.page = "tabloid";
  CHECK_THROWS_AS(o.check(), core::InvalidParameter);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a legend that would cover data in every corner goes beside the plot") {
  fig::Figure f;
  f.x = {.label = "x"};
  f.y = {.label = "y"};
  // Noise filling the whole plot: every corner covers points.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0, 1);
  for (int s = 0; s < 3; ++s) {
    fig::Series se{.name = "series " + std::to_string(s), .kind = fig::SeriesKind::scatter};
    for (int i = 0; i < 400; ++i) se.x.push_back(u(rng)), se.y.push_back(u(rng));
    f.series.push_back(se);
  }
  RecordingPainter p;
  fig::RenderStyle st;
  const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, 1200, 700}, st);
  // The legend's names are drawn right of the data area.
  int beside = 0;
  for (const auto& t : p.texts) beside += t.at.x > L.plot.right();
  CHECK(beside >= 3);
  // Without the option, they stay inside.
  st.legend_outside_data = false;
  RecordingPainter q;
  const fig::PlotLayout M = fig::render_figure(f, q, {0, 0, 1200, 700}, st);
  int inside = 0;
  for (const auto& t : q.texts) inside += t.at.x > M.plot.x && t.at.x < M.plot.right() && t.at.y > M.plot.y && t.at.y < M.plot.bottom();
  CHECK(inside >= 3);
  CHECK(M.plot.w > L.plot.w);
}

TEST_CASE("a highlighted series is drawn in full and last, the others faded; the legend says where its entries are") {
  fig::Figure f;
  for (int s = 0; s < 3; ++s) {
    fig::Series se{.name = "s" + std::to_string(s), .kind = fig::SeriesKind::line};
    se.color = fig::Color::rgb(0x102030u * static_cast<std::uint32_t>(s + 1));
    for (int i = 0; i < 50; ++i) se.x.push_back(i), se.y.push_back(s + std::sin(i * 0.3));
    f.series.push_back(se);
  }
  fig::RenderStyle st;
  RecordingPainter plain;
  const fig::PlotLayout L = fig::render_figure(f, plain, {0, 0, 900, 500}, st);
  REQUIRE(L.legend.size() == 3);
  for (int s = 0; s < 3; ++s) CHECK(L.legend[static_cast<std::size_t>(s)].first == s);
  st.highlight = 1;
  RecordingPainter hi;
  fig::render_figure(f, hi, {0, 0, 900, 500}, st);
  // Data strokes: width 2; the last one drawn is series 1, in full.
  std::vector<RecordingPainter::Stroke> data;
  for (const auto& s : hi.strokes)
    if (s.width > 1.5) data.push_back(s);
  REQUIRE(data.size() >= 3);
  CHECK(data[2].color.a == doctest::Approx(1.0));
  CHECK(data[2].color.r == doctest::Approx(f.series[1].color->r));
  CHECK(data[0].color.a < 0.5f);
  CHECK(data[1].color.a < 0.5f);
}

TEST_CASE("axis units: \"label (unit)\" in English, full-width parentheses with no space in Chinese") {
  auto titles = [](const std::string& label) {
    fig::Figure f;
    f.x = {.label = label, .unit = "token"};
    f.y = {.label = "y"};
    fig::Series se{.name = "s"};
    se.x = {0, 1}, se.y = {0, 1};
    f.series.push_back(se);
    std::vector<std::string> out;
    for (const auto& t : draw(f, fig::Theme{}).texts)
      if (t.s.find("token") != std::string::npos) out.push_back(t.s);
    return out;
  };
  CHECK(titles("wavelength λ") == std::vector<std::string>{"wavelength λ (token)"});
  CHECK(titles("波长 λ") == std::vector<std::string>{"波长 λ（token）"});
}

namespace {

/// True if the segment a–b meets the rectangle r (written out here, apart
/// from render.cpp's cells): an end inside, or a crossing of one of its edges.
bool segment_meets(fig::Point a, fig::Point b, const fig::Rect& r) {
  if (r.contains(a) || r.contains(b)) return true;
  auto cross = [](fig::Point p, fig::Point q, fig::Point u, fig::Point v) {
    auto side = [](fig::Point o, fig::Point s, fig::Point t) { return (s.x - o.x) * (t.y - o.y) - (s.y - o.y) * (t.x - o.x); };
    const double d1 = side(u, v, p), d2 = side(u, v, q), d3 = side(p, q, u), d4 = side(p, q, v);
    return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0));
  };
  const fig::Point c[] = {{r.x, r.y}, {r.right(), r.y}, {r.right(), r.bottom()}, {r.x, r.bottom()}};
  for (int k = 0; k < 4; ++k)
    if (cross(a, b, c[k], c[(k + 1) % 4])) return true;
  return false;
}

}  // namespace

TEST_CASE("labels of reference lines and bands sit clear of the curves in the guided steps a student saw them cover") {
  // (view, step): the steps whose labels sat on a curve before labels looked
  // for a free place; drawn at the size the default window gives a figure.
  const std::pair<const char*, int> steps[] = {{"sinusoidal", 3}, {"scaling", 1}, {"scaling", 3}, {"alibi", 4}, {"gaussian", 1}};
  for (const auto& step : steps) {
    const std::string id = step.first;
    const int n = step.second;
    CAPTURE(id);
    CAPTURE(n);
    const app::ViewDef* view = app::find_view(id);
    REQUIRE(view);
    const app::Deck* deck = app::lesson_steps(id);
    REQUIRE(deck);
    REQUIRE(static_cast<int>(deck->scenes.size()) >= n);
    const app::Scene& scene = deck->scenes[static_cast<std::size_t>(n - 1)];
    const app::FigureDef* fd = app::find_figure(*view, scene.figure);
    REQUIRE(fd);
    fig::Figure f = app::build_figure(*view, *fd, scene.session().to_params(), test::english(), 900, 420);
    f.notes.clear();  // notes sit at their data point on purpose
    RecordingPainter p;
    p.code_points = true;
    fig::RenderStyle st;
    st.theme = fig::Theme::dark();
    st.show_title = false;  // the window shows it above the plot
    st.font_size = 13;      // as in the window
    const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, 900, 420}, st);
    REQUIRE_FALSE(L.labels.empty());
    for (const fig::Rect& box : L.labels) {
      for (const fig::Series& s : f.series) {
        CAPTURE(s.name);
        const std::size_t count = std::min(s.x.size(), s.y.size());
        bool hit = false;
        for (std::size_t i = 0; i < count && !hit; ++i) {
          const fig::Point q{L.to_px_x(s.x[i]), L.to_px_y(s.y[i])};
          if (!std::isfinite(q.x) || !std::isfinite(q.y)) continue;
          if (s.kind == fig::SeriesKind::scatter || s.kind == fig::SeriesKind::stems) {
            hit = box.contains(q);
          } else if (i > 0) {
            const fig::Point o{L.to_px_x(s.x[i - 1]), L.to_px_y(s.y[i - 1])};
            if (std::isfinite(o.x) && std::isfinite(o.y)) hit = segment_meets(o, q, box);
          }
        }
        CAPTURE(box.x);
        CAPTURE(box.y);
        CAPTURE(box.w);
        CHECK_FALSE(hit);
      }
    }
  }
}

TEST_CASE("a legend keeps off stems whose tips are outside its box (the stem's line counts, not only its tip)") {
  // Stems falling from the left on a log axis (ALiBi's slopes). A note takes
  // the top right; the bottom left holds no tip, but the lines of the first
  // stems run through it: the legend must not go there.
  fig::Figure f;
  f.x = {.label = "head"};
  f.y = {.label = "slope", .scale = fig::AxisScale::log};
  fig::Series se{.name = "slopes of 8 heads", .kind = fig::SeriesKind::stems};
  for (int h = 1; h <= 8; ++h) se.x.push_back(h), se.y.push_back(std::ldexp(1.0, -h));
  f.series.push_back(se);
  f.notes.push_back({.x = 7.5, .y = 0.45, .text = "a note that fills the top right corner of the plot"});
  RecordingPainter p;
  fig::RenderStyle st;
  st.legend_outside_data = false;
  const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, 1200, 700}, st);
  REQUIRE(L.legend.size() == 1);
  const fig::Rect& box = L.legend[0].second;
  const bool bottom_left = box.x < L.plot.x + L.plot.w / 2 && box.y > L.plot.y + L.plot.h / 2;
  CHECK_FALSE(bottom_left);
}

TEST_CASE("a legend keeps off a reference line when another corner is free of it") {
  // A line rising from the bottom left to the top right leaves the top left
  // and the bottom right free; a vertical reference line near the left edge
  // runs through the top left (the first of the two in the order corners are
  // tried): the legend goes bottom right.
  fig::Figure f;
  f.x = {.label = "key", .min = 0.0, .max = 64.0};
  f.y = {.label = "weight", .min = 0.0, .max = 1.0};
  fig::Series se{.name = "one head"};
  for (int j = 0; j <= 64; ++j) se.x.push_back(j), se.y.push_back(j / 64.0);
  f.series.push_back(se);
  f.ref_lines.push_back({.value = 4.0});
  RecordingPainter p;
  fig::RenderStyle st;
  st.legend_outside_data = false;
  const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, 1200, 700}, st);
  REQUIRE(L.legend.size() == 1);
  const fig::Rect& box = L.legend[0].second;
  const double line_x = L.to_px_x(4.0);
  CHECK_FALSE((box.x <= line_x && line_x <= box.right()));
  CHECK(box.x > L.plot.x + L.plot.w / 2);  // bottom right: the only corner free of both
  CHECK(box.y > L.plot.y + L.plot.h / 2);
}

namespace {

/// A 4 × 4 heatmap over rows 0..512 of a 0..y_max position axis (a learned
/// table), with a horizontal line at `line` labelled `label`.
fig::Figure table_with_line(double y_max, double line, const char* label) {
  fig::Figure f;
  f.x = {.label = "dimension j", .min = 0.0, .max = 128.0, .tight = true};
  f.y = {.label = "position p", .min = 0.0, .max = y_max, .tight = true, .reversed = true};
  fig::Heatmap h;
  h.x0 = 0, h.x1 = 128, h.y0 = 0, h.y1 = 512, h.cols = 4, h.rows = 4;
  h.values.assign(16, 0.5f);
  f.heatmaps.push_back(h);
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = line, .label = label});
  return f;
}

}  // namespace

TEST_CASE("a reference line's label is not written on a heatmap when there is room beside it") {
  // A heatmap over rows 0..512 of a 0..768 axis (the learned table and the
  // rows it lacks); the line at 512 is labelled: the label goes below it.
  const fig::Figure f = table_with_line(768, 512, "L = 512: the last row is L - 1");
  const RecordingPainter p = draw(f, fig::Theme{});
  REQUIRE(!p.heatmaps.empty());  // the map (and its colour bar)
  int found = 0;
  for (const auto& t : p.texts)
    if (t.s.rfind("L = 512", 0) == 0) {
      ++found;
      CHECK_FALSE(p.on_heatmap(t.at));
    }
  CHECK(found == 1);
}

TEST_CASE("a label with no free place is backed so it can be read; a transparent export fills nothing") {
  // The heatmap fills the whole plot: the line's label must sit on it.
  const fig::Figure f = table_with_line(512, 500, "L = 512: the last row");
  auto label_backed = [&](const fig::Theme& theme) {
    const RecordingPainter p = draw(f, theme);
    for (const auto& t : p.texts)
      if (t.s.rfind("L = 512", 0) == 0)
        for (const auto& [r, c] : p.rects)
          if (r.contains(t.at) && c.a > 0.5f && c.a < 1.0f) return true;
    return false;
  };
  CHECK(label_backed(fig::Theme{}));
  fig::Theme clear;
  clear.transparent = true;
  CHECK_FALSE(label_backed(clear));
}

TEST_CASE("light and dark themes: every data colour at ≥ 3:1 on their background, every text at ≥ 4.5:1, every figure of every lesson") {
  for (const fig::Theme& theme : {fig::Theme::light(), fig::Theme::dark()}) {
    CAPTURE(theme.background.r);
    // The theme's own colours first: its text and its muted text.
    CHECK(contrast(theme.text, theme.background) >= 4.5);
    CHECK(contrast(theme.muted, theme.background) >= 4.5);
    CHECK(contrast(theme.text, theme.plot_background) >= 4.5);
    CHECK(contrast(theme.muted, theme.plot_background) >= 4.5);
    // Every palette colour as the theme inks it (#56B4E9 is 2.2:1 on white as it comes).
    for (int i = 0; i < 8; ++i) {
      CAPTURE(i);
      CHECK(contrast(theme.ink(fig::palette_color(i)), theme.plot_background) >= 3.0 - 1e-6);
      CHECK(contrast(theme.ink(fig::palette_color(i)), theme.background) >= 3.0 - 1e-6);
    }
    for (const app::ViewDef& v : app::view_defs())
      for (const app::FigureDef& def : v.figures) {
        CAPTURE(v.id);
        CAPTURE(def.id);
        const fig::Figure f = app::build_figure(v, def, core::Params{}, test::english(), 1200, 700);
        const RecordingPainter p = draw(f, theme);
        for (const auto& s : p.strokes)
          if (s.width > 1.01) CHECK(contrast(s.color, theme.plot_background) >= 3.0 - 1e-6);
        for (const fig::Color& c : p.dots) CHECK(contrast(c, theme.plot_background) >= 3.0 - 1e-6);
        for (const auto& t : p.texts) {
          if (p.on_heatmap(t.at)) continue;  // a cell's value: coloured for its cell
          CHECK(contrast(t.color, theme.background) >= 4.5 - 1e-6);
        }
      }
  }
}

TEST_CASE("every figure of every lesson, at font scales 1 to 2.5: its legend never lies on its data") {
  int below = 0, checked = 0;
  for (double scale : {1.0, 1.5, 2.0, 2.5})
    for (const app::ViewDef& v : app::view_defs())
      for (const app::FigureDef& def : v.figures) {
        CAPTURE(scale);
        CAPTURE(v.id);
        CAPTURE(def.id);
        const fig::Figure f = app::build_figure(v, def, core::Params{}, test::english(), 1200, 700);
        if (f.legend == fig::LegendPlace::none) continue;  // the author's corners too
        RecordingPainter p;
        p.code_points = true;
        fig::RenderStyle st;
        st.font_size = 14 * scale;
        const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, 1200, 700}, st);
        if (L.legend.empty()) continue;
        ++checked;
        fig::Rect box = L.legend.front().second;
        for (const auto& [series, r] : L.legend) {
          const double x0 = std::min(box.x, r.x), y0 = std::min(box.y, r.y);
          box = {x0, y0, std::max(box.right(), r.right()) - x0, std::max(box.bottom(), r.bottom()) - y0};
        }
        if (box.y >= L.plot.bottom()) ++below;
        // No heatmap under it, and no series point inside it.
        for (const fig::Rect& h : p.heatmaps)
          CHECK_FALSE((box.x < h.right() && h.x < box.right() && box.y < h.bottom() && h.y < box.bottom()));
        int inside = 0;
        for (const fig::Series& s : f.series)
          for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
            const fig::Point q{L.to_px_x(s.x[i]), L.to_px_y(s.y[i])};
            if (L.plot.contains(q) && box.contains(q)) ++inside;
          }
        CHECK(inside == 0);
      }
  CHECK(checked > 20);
  MESSAGE("legends checked: " << checked << ", of them below the plot: " << below);
}

TEST_CASE("a long subtitle wraps inside the figure at any font scale; no text under the style's minimum") {
  fig::Figure f;
  f.title = "How far apart the two tokens are, and what the score makes of it";
  f.subtitle = "d = 4096 · base = 500,000 · positions 0 … 131,072 · a subtitle long enough to run off a slide at any scale";
  f.x = {.label = "x"};
  f.y = {.label = "y"};
  fig::Series se{.name = "a"};
  se.x = {0, 1, 2};
  se.y = {0, 1, 4};
  f.series.push_back(se);
  for (double scale : {1.0, 1.5, 2.0, 3.0}) {
    CAPTURE(scale);
    RecordingPainter p;
    p.code_points = true;
    fig::RenderStyle st;
    st.font_size = 14 * scale;
    st.min_text = 14 * scale * 0.95;
    const double width = 960;
    const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, width, 540}, st);
    int lines = 0;
    for (const auto& t : p.texts) {
      CHECK(t.size >= st.min_text - 1e-9);
      // As the painter measures (code points: "·" and "…" are one character, not 2–3 bytes).
      const double w = static_cast<double>(std::count_if(t.s.begin(), t.s.end(), [](char c) {
                         return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
                       })) * t.size * 0.55;
      if (t.s.find("subtitle") != std::string::npos || t.s.find("d = 4096") != std::string::npos) {
        ++lines;
        CHECK(t.at.x + w <= width + 1e-6);
      }
    }
    CHECK(lines >= 1);
    CHECK(L.plot.y > 0);
  }
}

TEST_CASE("a sweep's frames hold the union of every frame's range: the axes never re-range mid-animation") {
  const app::ViewDef* v = app::find_view("rope");
  REQUIRE(v != nullptr);
  const app::FigureDef* def = app::find_figure(*v, "worked");
  REQUIRE(def != nullptr);
  app::SweepSpec spec;
  app::parse_sweep("m=0:60", spec);
  spec.frames = 12;
  const auto dir = std::filesystem::temp_directory_path() / ("poslab-sweep-hold-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  app::ExportOptions o;
  o.width = 400, o.height = 250;
  app::SweepWriter w(*v, *def, core::Params{}, spec, app::SweepFormat::png_sequence, o, test::english(), dir);
  w.run();
  REQUIRE(w.held_range().has_value());
  const fig::ViewRange held = *w.held_range();
  for (int i = 0; i < spec.frames; ++i) {
    core::Params p;
    p.set("m", app::sweep_value(spec, i));
    const fig::ViewRange r = fig::default_view(app::build_figure(*v, *def, p, test::english(), 400, 250));
    CAPTURE(i);
    CHECK(r.x_min >= held.x_min - 1e-9);
    CHECK(r.x_max <= held.x_max + 1e-9);
    CHECK(std::min(r.y_min, r.y_max) >= std::min(held.y_min, held.y_max) - 1e-9);
    CHECK(std::max(r.y_min, r.y_max) <= std::max(held.y_min, held.y_max) + 1e-9);
  }
  std::filesystem::remove_all(dir);
}
