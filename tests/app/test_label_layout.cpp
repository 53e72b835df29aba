// Where the layout puts text that used to be clipped, crossed or unreadable:
// - a y-axis title longer than the plot is tall wraps onto up to three lines
//   (at ≥ 80 % size when that is enough), never runs past the plot's height
//   or into the tick labels, keeps every word unless even three lines at
//   60 % cannot hold it, and is cut with "…" only then — over random titles
//   and figure sizes;
// - a reference line's label is never crossed by another reference line
//   when the plot leaves it a free place (T5's "B buckets exist" and the
//   marked N), over random positions of the crossing line;
// - labels of reference lines are readable (≥ 4.5:1) on the light and dark
//   themes, even for a line drawn dark to show on a heatmap (Gaussian);
// - a legend taller than the plot hangs from the plot's top: its first
//   entry is never above the frame;
// - the slider of `head` ends at `heads`, and every such slider bound is a
//   relation check_param_relations enforces;
// - scaling's ratio and attention figures draw only the methods a step has
//   introduced when it sets compare = pi-ntk-yarn, and the ratio figure
//   names ℓ only with dynamic NTK drawn; sinusoidal's r = 0 label is its
//   line's label (placed off the data), not a note on the peak;
// - a y title is fitted again when a legend below took some of the plot's
//   height; a vertical line's label crossed by a neighbour on every side runs
//   along its own line; a log x axis labels every decade it has room for.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "app/common/slider_math.hpp"
#include "app/lessons/rope/setting.hpp"
#include "app/lessons/scaling/setting.hpp"
#include "app/plot/figure_text.hpp"
#include "app/plot/render.hpp"
#include "lesson_test_support.hpp"
#include "poslab/core/errors.hpp"

using namespace poslab;
using test::params;
namespace fig = poslab::app::fig;

namespace {

/// Records texts (with their anchors) and polylines; text is 0.55 em per code point.
class LayoutPainter final : public fig::Painter {
 public:
  struct Text {
    fig::Point at;
    std::string s;
    fig::TextStyle st;
    fig::Anchor h;
    fig::VAnchor v;
    bool rotated;
  };
  std::vector<Text> texts;
  std::vector<std::vector<fig::Point>> lines;

  void fill_rect(const fig::Rect&, fig::Color) override {}
  void stroke_polyline(std::span<const fig::Point> pts, fig::Color, double, fig::LineStyle) override {
    lines.emplace_back(pts.begin(), pts.end());
  }
  void fill_polygon(std::span<const fig::Point>, fig::Color) override {}
  void fill_circle(fig::Point, double, fig::Color) override {}
  void text(fig::Point at, std::string_view s, const fig::TextStyle& st, fig::Anchor h, fig::VAnchor v, bool rotated) override {
    texts.push_back({at, std::string(s), st, h, v, rotated});
  }
  fig::Size measure(std::string_view s, const fig::TextStyle& st) override {
    const auto n = std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; });
    return {static_cast<double>(n) * st.size * 0.55, st.size};
  }
  void heatmap(const fig::Rect&, const fig::ScalarRaster&) override {}
  void push_clip(const fig::Rect&) override {}
  void pop_clip() override {}

  double width(const Text& t) { return measure(t.s, t.st).w; }
  /// The box of an unrotated text, as render.cpp anchors it (1.25 em tall).
  fig::Rect box(const Text& t) {
    const double w = width(t), h = t.st.size * 1.25;
    const double x = t.h == fig::Anchor::left ? t.at.x : t.h == fig::Anchor::center ? t.at.x - w / 2 : t.at.x - w;
    const double y = t.v == fig::VAnchor::top ? t.at.y : t.v == fig::VAnchor::bottom ? t.at.y - h : t.at.y - h / 2;
    return {x, y, w, h};
  }
  const Text* find(const std::string& s) const {
    for (const Text& t : texts)
      if (t.s == s) return &t;
    return nullptr;
  }
};

fig::Figure line_figure() {
  fig::Figure f;
  f.title = "title";
  f.x = {.label = "x"};
  fig::Series s{.name = ""};
  for (int i = 0; i <= 100; ++i) s.x.push_back(i), s.y.push_back(std::sin(i / 10.0));
  f.series.push_back(s);
  return f;
}

}  // namespace

TEST_CASE("y-axis titles longer than the plot wrap (or shrink, or are cut with …), never clipped") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> words(1, 18), letters(1, 12);
  std::uniform_real_distribution<double> w(260, 1400), h(160, 900), font(10, 20);
  int wrapped = 0, cut = 0;
  for (int trial = 0; trial < 400; ++trial) {
    CAPTURE(trial);
    std::string title;
    const int n = words(rng);
    for (int i = 0; i < n; ++i) {
      if (i) title += ' ';
      title += std::string(static_cast<std::size_t>(letters(rng)), static_cast<char>('a' + i % 26));
    }
    fig::Figure f = line_figure();
    f.y.label = title;
    LayoutPainter p;
    fig::RenderStyle style;
    style.font_size = font(rng);
    const fig::Rect bounds{0, 0, w(rng), h(rng)};
    const fig::PlotLayout L = fig::render_figure(f, p, bounds, style);
    std::vector<LayoutPainter::Text> rotated;
    for (const auto& t : p.texts)
      if (t.rotated) rotated.push_back(t);
    REQUIRE(!rotated.empty());
    REQUIRE(rotated.size() <= 3);
    const double size = rotated.front().st.size;
    // The y tick labels: right-aligned 0.6 em left of the plot.
    double ticks_left = L.plot.x;
    for (const auto& t : p.texts)
      if (!t.rotated && t.h == fig::Anchor::right && std::abs(t.at.x - (L.plot.x - style.font_size * 0.6)) < 1e-6)
        ticks_left = std::min(ticks_left, t.at.x - p.width(t));
    CHECK(size >= style.font_size * 0.6 - 1e-9);
    CHECK(size <= style.font_size + 1e-9);
    std::string joined;
    for (std::size_t i = 0; i < rotated.size(); ++i) {
      const auto& t = rotated[i];
      CHECK(t.st.size == doctest::Approx(size));
      CHECK(p.width(t) <= L.plot.h + 1e-6);  // along the plot's height, centred on it
      CHECK(t.at.y == doctest::Approx(L.plot.y + L.plot.h / 2));
      CHECK(t.at.x >= bounds.x);
      CHECK(t.at.x + t.st.size * 1.2 <= ticks_left + 1e-6);  // never into the tick labels
      if (i) CHECK(t.at.x > rotated[i - 1].at.x);  // later lines further right
      joined += (i ? " " : "") + t.s;
    }
    const double full = static_cast<double>(title.size()) * style.font_size * 0.55;
    if (full <= L.plot.h) {
      CHECK(rotated.size() == 1);
      CHECK(joined == title);
      CHECK(size == doctest::Approx(style.font_size));
    }
    if (rotated.size() > 1) ++wrapped;
    if (joined != title) {
      ++cut;
      // Cut only when three lines at 60 % could not hold it, and then with "…".
      CHECK(size == doctest::Approx(style.font_size * 0.6));
      CHECK(joined.find("…") != std::string::npos);
      CHECK(full * 0.6 > L.plot.h);
    }
  }
  CHECK(wrapped > 50);  // the trials exercise wrapping and cutting
  CHECK(cut > 5);
}

TEST_CASE("a reference line's label is not crossed by another reference line when a free place exists") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> where(1, 99);
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    fig::Figure f;
    f.x = {.label = "N"};
    f.y = {.label = "used", .min = 0.0, .max = 40.0};
    fig::Series s{.name = "", .kind = fig::SeriesKind::step};
    for (int i = 0; i <= 100; ++i) s.x.push_back(i), s.y.push_back(std::min(30.0, i * 0.5));
    f.series.push_back(s);
    const double at = where(rng);
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 32, .label = "B = 32 buckets exist"});
    f.ref_lines.push_back({.value = at, .label = "N marked"});
    LayoutPainter p;
    const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, 900, 420}, {});
    const auto* label = p.find("B = 32 buckets exist");
    REQUIRE(label);
    const fig::Rect b = p.box(*label);
    const double x = L.to_px_x(at);
    CHECK_FALSE((x > b.x && x < b.right()));
    // and it stays by its own line, inside the plot
    CHECK(std::abs((label->v == fig::VAnchor::bottom ? b.bottom() : b.y) - L.to_px_y(32)) < 14 * 0.5);
    CHECK(b.x >= L.plot.x - 0.5);
    CHECK(b.right() <= L.plot.right() + 0.5);
  }
}

TEST_CASE("a y title is fitted to the plot's final height: a legend put below it takes some, the title never runs past it") {
  // The title is fitted first, to the height before the legend; a legend
  // too wide for a corner goes below and the plot loses rows (scaling's
  // y title ran off the figure's top in lecture mode at 1024×768).
  std::mt19937 rng(19);
  std::uniform_int_distribution<int> entries(2, 6), words(3, 12), letters(2, 9);
  std::uniform_real_distribution<double> w(300, 900), h(260, 700), font(12, 26);
  int legend_below = 0, refitted = 0;
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    fig::Figure f = line_figure();
    std::string title;
    for (int i = 0, n = words(rng); i < n; ++i)
      title += (i ? " " : "") + std::string(static_cast<std::size_t>(letters(rng)), static_cast<char>('a' + i % 26));
    f.y.label = title;
    f.series.front().name = std::string(60, 'n');  // wider than any corner: below the plot
    for (int i = 1, n = entries(rng); i < n; ++i) {
      fig::Series extra = f.series.front();
      extra.name = "entry " + std::to_string(i);
      f.series.push_back(extra);
    }
    fig::RenderStyle style;
    style.font_size = font(rng);
    LayoutPainter p;
    const fig::Rect bounds{0, 0, w(rng), h(rng)};
    const fig::PlotLayout L = fig::render_figure(f, p, bounds, style);
    bool below = false;
    for (const auto& t : p.texts) below |= !t.rotated && t.s.starts_with("nnnn") && t.at.y > L.plot.bottom();
    legend_below += below;
    double along = 0;
    std::string joined;
    for (const auto& t : p.texts) {
      if (!t.rotated) continue;
      CHECK(p.width(t) <= L.plot.h + 1e-6);
      CHECK(t.at.y == doctest::Approx(L.plot.y + L.plot.h / 2));
      CHECK(t.at.y - p.width(t) / 2 >= bounds.y - 1e-6);  // never past the figure's top
      along = std::max(along, p.width(t));
      joined += t.s;
    }
    CHECK_FALSE(joined.empty());
    // (the title fitted to the taller plot would have been longer than this one)
    if (below && static_cast<double>(title.size()) * style.font_size * 0.55 > L.plot.h) ++refitted;
  }
  CHECK(legend_below > 100);
  CHECK(refitted > 20);
}

TEST_CASE("two vertical lines closer than a label is wide: the label runs along its line, crossing no other") {
  // Scaling's "L′ = 32,768" beside L = 4,096 in a narrow plot was printed
  // across the other line; with no place across free of it, the label is
  // drawn along its own line, read bottom-to-top.
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> first(50, 75), gap(2, 9), w(320, 520), font(12, 24);
  int upright = 0;
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    fig::Figure f;
    f.x = {.label = "r", .min = 0.0, .max = 100.0};
    f.y = {.label = "score", .min = 0.0, .max = 1.0};
    fig::Series s{.name = ""};
    for (int i = 0; i <= 100; ++i) s.x.push_back(i), s.y.push_back(0.05 + 0.1 * std::exp(-i / 30.0));
    f.series.push_back(s);
    const double a = first(rng), b = std::min(99.0, a + gap(rng));
    f.ref_lines.push_back({.value = a, .label = "L = 4,096"});
    f.ref_lines.push_back({.value = b, .label = "L′ = 32,768"});
    fig::RenderStyle style;
    style.font_size = font(rng);
    LayoutPainter p;
    const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, w(rng), 420}, style);
    const double xa = L.to_px_x(a), xb = L.to_px_x(b);
    struct Line {
      const char* text;
      double own, other;  ///< where its line runs, and the other one
    };
    for (const Line& line : {Line{"L = 4,096", xa, xb}, Line{"L′ = 32,768", xb, xa}}) {
      const std::string text = line.text;
      const double own = line.own, other = line.other;
      CAPTURE(text);
      const auto* t = p.find(text);
      REQUIRE(t);
      fig::Rect box = p.box(*t);
      if (t->rotated) {  // as render.cpp anchors a text read bottom-to-top
        ++upright;
        const double len = p.width(*t), thick = t->st.size * 1.25;
        const double x = t->v == fig::VAnchor::top ? t->at.x : t->v == fig::VAnchor::bottom ? t->at.x - thick : t->at.x - thick / 2;
        const double y = t->h == fig::Anchor::left ? t->at.y - len : t->h == fig::Anchor::center ? t->at.y - len / 2 : t->at.y;
        box = {x, y, thick, len};
      }
      CHECK_FALSE((other > box.x && other < box.right()));  // not crossed by the other line
      CHECK_FALSE((own > box.x && own < box.right()));      // nor by its own
      CHECK(std::min(std::abs(box.x - own), std::abs(box.right() - own)) <= style.font_size * 0.5);  // beside its line
      CHECK(box.x >= L.plot.x - 0.5);
      CHECK(box.right() <= L.plot.right() + 0.5);
      CHECK(box.y >= L.plot.y - 0.5);
      CHECK(box.bottom() <= L.plot.bottom() + 0.5);
    }
  }
  CHECK(upright > 50);  // the trials reach the case
}

TEST_CASE("a log x axis labels every decade its labels have room for, in a narrow plot at a large font too") {
  // The width rule for linear ticks (6.5 em a label) had left five decades
  // in a 370-pixel plot at a lecture's font with "10²" alone.
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> w(200, 1200), font(10, 28), top(2.2, 5.6);
  int all_decades = 0, thinned = 0;
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    fig::Figure f;
    const double hi = std::pow(10.0, top(rng));
    f.x = {.label = "r", .scale = fig::AxisScale::log, .min = 1.0, .max = hi};
    f.y = {.label = "y"};
    fig::Series s{.name = ""};
    for (int i = 0; i <= 200; ++i) s.x.push_back(std::pow(hi, i / 200.0)), s.y.push_back(std::sin(i / 20.0));
    f.series.push_back(s);
    fig::RenderStyle style;
    style.font_size = font(rng);
    LayoutPainter p;
    const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, w(rng), 400}, style);
    // The decade labels under the plot, left to right.
    std::vector<const LayoutPainter::Text*> labels;
    for (const auto& t : p.texts)
      if (!t.rotated && t.h == fig::Anchor::center && t.at.y > L.plot.bottom() && t.s.starts_with("10")) labels.push_back(&t);
    std::sort(labels.begin(), labels.end(), [](auto* x, auto* y) { return x->at.x < y->at.x; });
    REQUIRE(labels.size() >= 2);
    for (std::size_t i = 1; i < labels.size(); ++i)
      CHECK(labels[i]->at.x - p.width(*labels[i]) / 2 >= labels[i - 1]->at.x + p.width(*labels[i - 1]) / 2 + style.font_size * 0.5 - 1e-6);
    // Every decade in the range, when their labels would not touch at all.
    const int decades = static_cast<int>(std::floor(std::log10(L.range.x_max))) + 1;
    const double tick_size = labels.front()->st.size;
    bool room = true;
    for (int k = 1; k < decades; ++k) {
      const double gap = L.to_px_x(std::pow(10.0, k)) - L.to_px_x(std::pow(10.0, k - 1));
      room &= gap >= 3 * tick_size * 0.55 + style.font_size * 0.5;  // "10" and a superscript: 3 code points
    }
    if (room && L.range.x_min <= 1) {
      CHECK(labels.size() == static_cast<std::size_t>(decades));
      ++all_decades;
    } else {
      ++thinned;
    }
  }
  CHECK(all_decades > 50);
  CHECK(thinned > 10);
}

TEST_CASE("a narrow linear x axis shows three labels when a rounder step leaves room for them, never one alone") {
  // t5's buckets (−300 … 300) at a lecture's font in a 390-pixel plot showed "0" alone.
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> w(220, 700), font(10, 28), reach(50, 5000);
  int raised = 0;
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    fig::Figure f;
    const double r = reach(rng);
    f.x = {.label = "r", .min = -r, .max = r};
    f.y = {.label = "y"};
    fig::Series s{.name = ""};
    for (int i = -100; i <= 100; ++i) s.x.push_back(r * i / 100.0), s.y.push_back(i * i);
    f.series.push_back(s);
    fig::RenderStyle style;
    style.font_size = font(rng);
    LayoutPainter p;
    const fig::Rect bounds{0, 0, w(rng), 400};
    const fig::PlotLayout L = fig::render_figure(f, p, bounds, style);
    std::vector<const LayoutPainter::Text*> labels;  // the x tick labels, left to right
    for (const auto& t : p.texts)
      if (!t.rotated && t.h == fig::Anchor::center && t.v == fig::VAnchor::top && t.at.y > L.plot.bottom() &&
          t.at.y < L.plot.bottom() + style.font_size * 2)
        labels.push_back(&t);
    std::sort(labels.begin(), labels.end(), [](auto* a, auto* b) { return a->at.x < b->at.x; });
    for (std::size_t i = 1; i < labels.size(); ++i)
      CHECK(labels[i]->at.x - p.width(*labels[i]) / 2 >= labels[i - 1]->at.x + p.width(*labels[i - 1]) / 2 + style.font_size * 0.5 - 1e-6);
    for (const auto* t : labels) {  // none past the figure's edges (the lab's "1,500" was, once denser)
      CHECK(t->at.x - p.width(*t) / 2 >= bounds.x - 1e-6);
      CHECK(t->at.x + p.width(*t) / 2 <= bounds.right() + 1e-6);
    }
    // Three labels fit when a step of a third of the range, e.g. "−200 0 200",
    // has room: the widest label of that step and half an em between.
    const std::vector<fig::Tick> third = fig::make_ticks(-r, r, fig::AxisScale::linear, fig::TickFormat::automatic, 3);
    const double step = third.size() > 2 ? std::abs(third[1].value - third[0].value) : r;
    const double tick_size = labels.empty() ? style.font_size : labels.front()->st.size;
    const double widest = static_cast<double>(fig::num(-std::floor(r / step) * step).size()) * tick_size * 0.55;
    if (L.to_px_x(step) - L.to_px_x(0) >= widest + style.font_size * 0.5 && labels.size() < 5) ++raised;
    if (L.to_px_x(step) - L.to_px_x(0) >= widest + style.font_size * 0.5) CHECK(labels.size() >= 3);
  }
  CHECK(raised > 20);
}

TEST_CASE("a band's label wider than the plot is fitted inside it, and lies on no other label") {
  // t5's "a bucket per distance: |r| < E = 8" was wider than a lecture's
  // narrow plot and was printed over "D = 128".
  std::mt19937 rng(37);
  std::uniform_real_distribution<double> w(240, 520), font(12, 26);
  for (int trial = 0; trial < 120; ++trial) {
    CAPTURE(trial);
    fig::Figure f;
    f.x = {.label = "r", .min = -300.0, .max = 300.0};
    f.y = {.label = "bucket", .min = 0.0, .max = 32.0};
    fig::Series s{.name = ""};
    for (int i = -300; i <= 300; i += 5) s.x.push_back(i), s.y.push_back(16 + 15 * std::tanh(i / 40.0));
    f.series.push_back(s);
    f.ref_lines.push_back({.value = 128, .label = "D = 128"});
    f.ref_lines.push_back({.value = -128, .label = "D = 128"});
    f.bands.push_back({.from = -8, .to = 8, .label = "a bucket per distance: |r| < E = 8 and some more words", .label_top = true});
    fig::RenderStyle style;
    style.font_size = font(rng);
    LayoutPainter p;
    const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, w(rng), 420}, style);
    const LayoutPainter::Text* band = nullptr;
    std::vector<fig::Rect> others;
    for (const auto& t : p.texts) {
      if (t.s.starts_with("a bucket per")) band = &t;
      else if (t.s == "D = 128") others.push_back(p.box(t));
    }
    REQUIRE(band);
    const fig::Rect b = p.box(*band);
    CHECK(b.x >= L.plot.x - 0.5);
    CHECK(b.right() <= L.plot.right() + 0.5);
    for (const fig::Rect& o : others)
      CHECK_FALSE((b.x < o.right() && o.x < b.right() && b.y < o.bottom() && o.y < b.bottom()));
  }
}

TEST_CASE("a centred note alone and wider than the plot goes on up to three lines inside it, every word kept when they fit") {
  // A step's "Hidden until the answer: predict first, then press →" ran past
  // both edges of relative's narrow matrix in lecture mode at 1024×768.
  std::mt19937 rng(41);
  std::uniform_real_distribution<double> w(160, 700), font(10, 26);
  const std::string note = "Hidden until the answer: predict first, then press →";
  int wrapped = 0;
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    fig::Figure f;
    f.x = {.label = "key position n", .min = 0.0, .max = 16.0};
    f.y = {.label = "query position m", .min = 0.0, .max = 16.0, .reversed = true};
    f.equal_aspect = true;
    f.notes.push_back({.x = 8, .y = 8, .text = note, .anchor = fig::Anchor::center});
    fig::RenderStyle style;
    style.font_size = font(rng);
    LayoutPainter p;
    const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, w(rng), 420}, style);
    std::vector<const LayoutPainter::Text*> lines;
    for (const auto& t : p.texts)
      if (!t.rotated && t.v == fig::VAnchor::middle && t.h == fig::Anchor::center && L.plot.contains(t.at)) lines.push_back(&t);
    REQUIRE(!lines.empty());
    REQUIRE(lines.size() <= 3);
    std::string joined;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const fig::Rect b = p.box(*lines[i]);
      CHECK(b.x >= L.plot.x - 0.5);
      CHECK(b.right() <= L.plot.right() + 0.5);
      if (i) CHECK(lines[i]->at.y > lines[i - 1]->at.y + lines[i]->st.size);  // one under the other
      joined += (i ? " " : "") + lines[i]->s;
    }
    // Three lines at 60 % hold it when the widest word of the best split fits: then nothing is cut.
    const double room = L.plot.w - style.font_size * 0.9 * 0.6;
    if (static_cast<double>(std::string("predict first, then").size()) * style.font_size * 0.9 * 0.6 * 0.55 <= room)
      CHECK(joined == note);
    wrapped += lines.size() > 1;
  }
  CHECK(wrapped > 40);
}

/// rope-2d's two corner notes, the score (anchored left, at x_left) and the
/// turn (anchored right, at x_right), both at height y, rendered in a plot of
/// the given width and font size.
struct NotePair {
  LayoutPainter p;
  fig::PlotLayout L;
  static constexpr const char* kLeft = "q′·k′ = −0.75555";
  static constexpr const char* kRight = "turned by r·θ ≡ 1.5 rad";
};
NotePair render_note_pair(double x_left, double x_right, double y, double font_size, double width) {
  fig::Figure f;
  f.x = {.label = "real part", .min = -5.0, .max = 5.0};
  f.y = {.label = "imaginary part", .min = -2.0, .max = 1.5};
  f.notes.push_back({.x = x_left, .y = y, .text = NotePair::kLeft, .anchor = fig::Anchor::left});
  f.notes.push_back({.x = x_right, .y = y, .text = NotePair::kRight, .anchor = fig::Anchor::right});
  fig::RenderStyle style;
  style.font_size = font_size;
  NotePair out;
  out.L = fig::render_figure(f, out.p, {0, 0, width, 420}, style);
  return out;
}

TEST_CASE("a left- and a right-anchored note at one height never overlap: they move apart, or the right one a line lower") {
  // rope-2d's complex view puts the score and the turn in the top corners of
  // the circle's square; in a plot wider than that square they met and were
  // printed over each other.
  std::mt19937 rng(43);
  std::uniform_real_distribution<double> w(260, 1100), font(10, 26), half(0.2, 3);
  int moved_apart = 0, stacked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    const double a = half(rng), size = font(rng);
    NotePair pair = render_note_pair(-a, a, 1.2, size, w(rng));
    LayoutPainter& p = pair.p;
    const fig::PlotLayout& L = pair.L;
    const auto* left = p.find(NotePair::kLeft);
    const auto* right = p.find(NotePair::kRight);
    REQUIRE(left);
    REQUIRE(right);
    const fig::Rect bl = p.box(*left), br = p.box(*right);
    CHECK_FALSE((bl.x < br.right() && br.x < bl.right() && bl.y < br.bottom() && br.y < bl.bottom()));
    CHECK(bl.x >= L.plot.x - 0.5);
    CHECK(br.right() <= L.plot.right() + 0.5);
    const bool met = L.to_px_x(-a) + p.width(*left) + left->st.size * 0.6 > L.to_px_x(a) - p.width(*right);
    if (met && right->at.y == doctest::Approx(left->at.y)) ++moved_apart;
    if (right->at.y > left->at.y + 1) ++stacked;
    if (!met) {  // apart already: where the figure put them
      CHECK(left->at.x == doctest::Approx(L.to_px_x(-a)));
      CHECK(right->at.x == doctest::Approx(L.to_px_x(a)));
    }
  }
  CHECK(moved_apart > 30);
  CHECK(stacked > 5);
}

TEST_CASE("a left and a right note that meet at the plot's bottom: the right one goes a line higher, still drawn") {
  // Moved a line lower there, its anchor left the plot and it was not drawn.
  std::mt19937 rng(44);
  std::uniform_real_distribution<double> w(260, 700), font(10, 26), bottom(-1.99, -1.9);
  int raised = 0;
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    const double y = bottom(rng), size = font(rng);
    NotePair pair = render_note_pair(-0.3, 0.3, y, size, w(rng));
    LayoutPainter& p = pair.p;
    const fig::PlotLayout& L = pair.L;
    const auto* left = p.find(NotePair::kLeft);
    const auto* right = p.find(NotePair::kRight);
    REQUIRE(left);
    REQUIRE(right);  // drawn
    CHECK(L.plot.contains(right->at));
    const fig::Rect bl = p.box(*left), br = p.box(*right);
    const bool overlap = bl.x < br.right() && br.x < bl.right() && bl.y < br.bottom() && br.y < bl.bottom();
    CHECK_FALSE(overlap);
    raised += right->at.y < left->at.y - 1;
  }
  CHECK(raised > 20);
}

TEST_CASE("reference-line labels are readable on light and dark themes, whatever colour their line has") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(0, 1);
  for (const fig::Theme& theme : {fig::Theme::light(), fig::Theme::dark()}) {
    for (int trial = 0; trial < 100; ++trial) {
      fig::Figure f = line_figure();
      // A dark line over a heatmap (the Gaussian lesson's cut-off), or any colour.
      const fig::Color c = trial == 0 ? fig::Color::rgb(0x1d1d1f) : fig::Color{u(rng), u(rng), u(rng), 1};
      fig::Heatmap hm;
      hm.x0 = 0, hm.x1 = 100, hm.y0 = -1, hm.y1 = 1, hm.cols = hm.rows = 2;
      hm.values = {0, 0, 0, 0};
      if (trial % 2) f.heatmaps.push_back(hm);
      f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0.5, .label = "K(m) < 1% of K(0)", .color = c});
      LayoutPainter p;
      fig::RenderStyle style;
      style.theme = theme;
      fig::render_figure(f, p, {0, 0, 800, 400}, style);
      const auto* label = p.find("K(m) < 1% of K(0)");
      REQUIRE(label);
      CHECK(fig::contrast_ratio(label->st.color, theme.plot_background) >= 4.5 - 1e-6);
    }
  }
}

TEST_CASE("an automatic legend never covers a text note: a corner free of data but holding a note is not free") {
  // Data in three corners, a note alone in the top left: the legend must sit
  // neither on the note nor on the data (multimodal's position ids in lecture
  // mode: the one free corner held a note, and the legend went onto the data).
  for (const double width : {400.0, 560.0, 800.0}) {
    CAPTURE(width);
    fig::Figure f;
    f.title = "title";
    f.x = {.label = "x"};
    int k = 0;
    for (const auto& [x0, y0] : {std::pair{28.0, 7.0}, std::pair{0.0, 0.0}, std::pair{28.0, 0.0}}) {
      fig::Series s{.name = "corner series " + std::to_string(k++)};
      s.kind = fig::SeriesKind::scatter;
      for (int i = 0; i <= 12; ++i)
        for (int j = 0; j <= 6; ++j) s.x.push_back(x0 + i), s.y.push_back(y0 + 0.5 * j);
      f.series.push_back(s);
    }
    f.notes.push_back({.x = 1, .y = 9, .text = "a note the reader needs", .anchor = fig::Anchor::left});
    f.legend = fig::LegendPlace::automatic;
    LayoutPainter p;
    const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, width, 400}, {});
    const auto* note = p.find("a note the reader needs");
    REQUIRE(note);
    const fig::Rect note_box{note->at.x, note->at.y - note->st.size * 0.7, p.width(*note), note->st.size * 1.4};
    REQUIRE_FALSE(L.legend.empty());
    for (const auto& entry : L.legend) {
      const int series = entry.first;  // not a structured binding: clang 14 cannot capture one
      const fig::Rect& r = entry.second;
      CAPTURE(series);
      const bool overlaps = r.x < note_box.right() && note_box.x < r.right() && r.y < note_box.bottom() && note_box.y < r.bottom();
      CHECK_FALSE(overlaps);
      for (const fig::Series& se : f.series)
        for (std::size_t i = 0; i < se.x.size(); ++i) {
          const double x = L.to_px_x(se.x[i]), y = L.to_px_y(se.y[i]);
          CHECK_FALSE((x > r.x - 2 && x < r.right() + 2 && y > r.y - 2 && y < r.bottom() + 2));  // nor on the data
        }
    }
  }
}

TEST_CASE("a matrix's cell numbers shrink together to fit their cells, down to 60 % and never under the floor; below that none is drawn") {
  // Rope's pair layouts: 16 cells a row, numbers 0–15. In lecture mode at
  // 1280×720 the numbers did not fit at the notes' size and all were dropped,
  // under an axis titled "dimension j (the number in each cell)".
  const auto figure = [] {
    fig::Figure f;
    f.x = {.label = "dimension j (the number in each cell)"};
    f.x.label_without_cell_numbers = "dimension j";
    fig::Heatmap h;
    h.x0 = -0.5, h.x1 = 15.5, h.y0 = 0, h.y1 = 1, h.cols = 16, h.rows = 1;
    for (int j = 0; j < 16; ++j) h.values.push_back(static_cast<float>(j));
    f.heatmaps.push_back(h);
    for (int j = 0; j < 16; ++j) f.notes.push_back({.x = static_cast<double>(j), .y = 0.5, .text = std::to_string(j), .anchor = fig::Anchor::center});
    return f;
  }();
  int full = 0, smaller = 0, none = 0;
  for (double width = 160; width <= 1200; width += 20) {
    CAPTURE(width);
    for (const double min_text : {0.0, 18.0}) {
      CAPTURE(min_text);
      fig::RenderStyle style;
      style.font_size = 24;
      style.min_text = min_text;
      LayoutPainter p;
      const fig::PlotLayout L = fig::render_figure(figure, p, {0, 0, width, 300}, style);
      const double cell = (L.to_px_x(15.5) - L.to_px_x(-0.5)) / 16;
      std::vector<const LayoutPainter::Text*> cells;
      for (int j = 0; j < 16; ++j)
        for (const auto& t : p.texts)
          if (t.s == std::to_string(j) && std::abs(t.at.x - L.to_px_x(j)) < 1 && std::abs(t.at.y - L.to_px_y(0.5)) < 1) cells.push_back(&t);
      // All or none, never some.
      REQUIRE((cells.empty() || cells.size() == 16));
      const double note_size = std::max(24 * 0.9, min_text);
      const double least = std::max(note_size * 0.6, min_text);  // the smallest the numbers are drawn
      if (cells.empty()) {
        // None: even at the smallest size (and the 3 % the renderer keeps spare) "15" and a third of an
        // em would not fit its cell.
        const double floor = least / 0.97;
        CHECK(p.measure("15", {floor, false, {}}).w + floor / 3 > cell);
        CHECK(p.find("dimension j") != nullptr);  // the axis no longer speaks of numbers not drawn
        CHECK(p.find("dimension j (the number in each cell)") == nullptr);
        ++none;
        continue;
      }
      CHECK(p.find("dimension j (the number in each cell)") != nullptr);
      for (const auto* t : cells) {
        CHECK(t->st.size == doctest::Approx(cells.front()->st.size));  // one size for all
        CHECK(p.width(*t) + t->st.size / 3 <= cell + 1e-9);            // each within its cell, a third of an em spare
        CHECK(t->st.size >= least - 1e-9);
        CHECK(t->st.size <= note_size + 1e-9);
      }
      if (cells.front()->st.size < note_size - 1e-9) {
        ++smaller;
        CHECK(p.measure("15", {note_size, false, {}}).w + note_size / 3 > cell);  // smaller only when it had to be
      } else {
        ++full;
      }
    }
  }
  CHECK(full > 0);
  CHECK(smaller > 0);  // the case that lost every number before
  CHECK(none > 0);
}

TEST_CASE("a legend taller than the plot keeps its first entry below the plot's top") {
  for (fig::LegendPlace place : {fig::LegendPlace::bottom_left, fig::LegendPlace::bottom_right, fig::LegendPlace::top_left}) {
    fig::Figure f = line_figure();
    for (int i = 0; i < 12; ++i) {
      fig::Series s{.name = "method " + std::to_string(i)};
      s.x = {0, 100}, s.y = {0.1 * i, 0.1 * i};
      f.series.push_back(s);
    }
    f.legend = place;
    LayoutPainter p;
    const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, 700, 240}, {});
    const auto* first = p.find("method 0");
    REQUIRE(first);
    CHECK(first->at.y - first->st.size / 2 >= L.plot.y);
  }
}

TEST_CASE("the head slider ends at heads, and every slider bound by another key is a checked relation") {
  const core::ParamSpec& head = core::param_spec("head");
  for (long long heads : {1LL, 2LL, 8LL, 12LL, 112LL, 256LL}) {
    const std::string text = std::to_string(heads);
    const std::pair<double, double> range = app::slider_range(head, params({{"heads", text.c_str()}}));
    CHECK(range.first == 1);
    CHECK(range.second == static_cast<double>(heads));
  }
  int bound = 0;
  for (const core::ParamSpec& spec : core::param_specs()) {
    if (spec.ui_max_key.empty()) continue;
    ++bound;
    CAPTURE(spec.key);
    const core::ParamSpec* other = core::find_param(spec.ui_max_key);
    REQUIRE(other);
    const std::string key(spec.key), other_key(spec.ui_max_key);
    core::Params p;
    p.set_text(other_key, "4");
    p.set_text(key, "4");
    CHECK_NOTHROW(core::check_param_relations(p));
    p.set_text(key, "5");
    CHECK_THROWS_AS(core::check_param_relations(p), core::InvalidParameter);
    // Without the bounding key's value set, the slider still ends at its default.
    CHECK(app::slider_range(spec, {}).second == doctest::Approx(std::min(spec.ui_max, core::Params{}.real(other_key))));
  }
  CHECK(bound >= 1);
}

TEST_CASE("the query row and column sliders end at the grid's last row and column, not at 63") {
  const core::ParamSpec& row = core::param_spec("row");
  const core::ParamSpec& col = core::param_spec("col");
  for (int n : {1, 2, 8, 64, 1024}) {
    const std::string text = std::to_string(n);
    CAPTURE(n);
    // row runs 0 … grid_h − 1, col 0 … grid_w − 1; the spec's own 63 caps a larger grid.
    CHECK(app::slider_range(row, params({{"grid_h", text.c_str()}, {"grid_w", "5"}})) == std::pair<double, double>{0, std::min(n - 1, 63)});
    CHECK(app::slider_range(col, params({{"grid_w", text.c_str()}, {"grid_h", "5"}})) == std::pair<double, double>{0, std::min(n - 1, 63)});
  }
  // Without a grid set, the lesson's defaults (4 × 6): rows 0 … 3, columns 0 … 5.
  CHECK(app::slider_range(row, {}).second == 3);
  CHECK(app::slider_range(col, {}).second == 5);
  // Only these two are bounded by a count; head is bounded by heads through its spec.
  for (const core::ParamSpec& spec : core::param_specs()) {
    CAPTURE(spec.key);
    CHECK(app::index_bound_key(spec.key).empty() == (spec.key != "row" && spec.key != "col"));
  }
}

TEST_CASE("a 0 that stands for another value is shown as the one taken: head_dim 0 → d, target_context 0 → s·L") {
  for (int d = 2; d <= 1024; d += 2) {
    const std::string text = std::to_string(d);
    const core::Params p = params({{"d", text.c_str()}, {"head_dim", "0"}});
    CAPTURE(d);
    REQUIRE(app::zero_taken_as("head_dim", p).has_value());
    CHECK(*app::zero_taken_as("head_dim", p) == app::rope::head_split(p).head);
  }
  CHECK(*app::zero_taken_as("head_dim", {}) == app::rope::head_split({}).head);  // the defaults: d = 64
  // The scaling lesson's target_context 0 is factor × original_context, the L′ its figures mark.
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> context(1, 1 << 20);
  std::uniform_real_distribution<double> factor(1, 64);
  for (int trial = 0; trial < 200; ++trial) {
    const std::string L = std::to_string(context(rng)), s = std::to_string(factor(rng));
    const core::Params p = params({{"original_context", L.c_str()}, {"factor", s.c_str()}});
    CAPTURE(L);
    CAPTURE(s);
    REQUIRE(app::zero_taken_as("target_context", p).has_value());
    CHECK(*app::zero_taken_as("target_context", p) == doctest::Approx(app::scaling::target_context(p)).epsilon(1e-15));
  }
  // Only those two map their 0 to other parameters (attention_factor's 0 = computed is a formula, shown in its help).
  for (const core::ParamSpec& spec : core::param_specs()) {
    CAPTURE(spec.key);
    CHECK(app::zero_taken_as(spec.key, {}).has_value() == (spec.key == "head_dim" || spec.key == "target_context"));
  }
}

TEST_CASE("scaling: a step's compare = pi-ntk-yarn shows only the methods introduced, and ℓ only beside dynamic NTK") {
  const test::Lesson lesson{"scaling"};
  const auto& tr = test::english();
  auto names = [](const fig::Figure& f) {
    std::vector<std::string> out;
    for (const auto& s : f.series) out.push_back(s.name);
    return out;
  };
  auto name = [&](const char* m) { return tr(std::string("scaling.method.") + m); };
  const fig::Figure some = lesson.figure("ratio", params({{"method", "yarn-paper"}, {"compare", "pi-ntk-yarn"}}));
  CHECK(names(some) == std::vector<std::string>{name("none"), name("linear"), name("ntk"), name("yarn-paper")});
  CHECK(some.subtitle.find("ℓ") == std::string::npos);
  // The selected method is drawn even when it is not among the four.
  const fig::Figure l3 = lesson.figure("ratio", params({{"method", "llama3"}, {"compare", "pi-ntk-yarn"}}));
  CHECK(test::has_series(l3, name("llama3")));
  CHECK_FALSE(test::has_series(l3, name("longrope")));
  const fig::Figure all = lesson.figure("ratio", params({{"method", "yarn-paper"}}));
  CHECK(test::has_series(all, name("dynamic")));
  CHECK(test::has_series(all, name("longrope")));
  CHECK(all.subtitle.find("ℓ = ") != std::string::npos);
  CHECK(all.subtitle.find("tokens") != std::string::npos);  // ℓ said to be a sequence length
  // The attention figure: no LongRoPE curve before LongRoPE is taught.
  const fig::Figure att = lesson.figure("attention", params({{"method", "yarn"}, {"compare", "pi-ntk-yarn"}}));
  for (const auto& s : att.series) CHECK(s.name.find(name("longrope")) == std::string::npos);
  const fig::Figure att_all = lesson.figure("attention", params({{"method", "yarn"}}));
  bool longrope = false;
  for (const auto& s : att_all.series) longrope = longrope || s.name.find(name("longrope")) != std::string::npos;
  CHECK(longrope);
  // HF's temperature keys unset: the subtitle states the rule, not the key names.
  CHECK(att.subtitle.find("mscale") == std::string::npos);
  const fig::Figure keys = lesson.figure("attention", params({{"method", "yarn"}, {"mscale", "1"}, {"mscale_all_dim", "0.5"}}));
  CHECK(keys.subtitle.find("temperature") != std::string::npos);
}

TEST_CASE("sinusoidal dot: the r = 0 value labels its line (placed off the data), no note sits on the peak") {
  const test::Lesson lesson{"sinusoidal"};
  const fig::Figure f = lesson.figure("dot", {});
  const double half_d = static_cast<double>(core::Params{}.integer("d")) / 2;
  const std::string label = test::english().format("sinusoidal.dot.max", {{"v", fig::num(half_d)}});
  bool on_line = false;
  for (const auto& l : f.ref_lines) on_line = on_line || (l.label == label && l.value == half_d);
  CHECK(on_line);
  for (const auto& n : f.notes) CHECK(n.text != label);
  // Drawn where it covers no marker of the curve near its peak.
  LayoutPainter p;
  const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, 640, 300}, {});
  const auto* t = p.find(label);
  REQUIRE(t);
  const fig::Rect b = p.box(*t);
  const double peak_x = L.to_px_x(0);
  CHECK_FALSE((peak_x > b.x - 4 && peak_x < b.right() + 4));
}

TEST_CASE("a reference line's label keeps off a dense line (many points per pixel), on whichever side it lies") {
  // Dense lines are marked one box per cell column (render.cpp data_cells):
  // the label must still find the free half of its line.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> count(3000, 40000);
  for (int trial = 0; trial < 24; ++trial) {
    CAPTURE(trial);
    const bool dense_left = trial % 2 == 0;
    const int n = count(rng);
    fig::Figure f;
    f.x = {.label = "x"};
    f.y = {.label = "y", .min = -0.2, .max = 1.6};
    fig::Series s{.name = ""};
    for (int i = 0; i < n; ++i) {
      const double x = 100.0 * i / (n - 1);
      const bool busy = dense_left ? x < 50 : x > 50;
      s.x.push_back(x), s.y.push_back(busy ? 0.5 + 0.5 * std::sin(i * 0.9) : 0.0);
    }
    f.series.push_back(s);
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0.8, .label = "threshold"});
    LayoutPainter p;
    const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, 900, 420}, {});
    const auto* label = p.find("threshold");
    REQUIRE(label);
    const fig::Rect b = p.box(*label);
    int inside = 0;
    for (int i = 0; i < n; ++i) {
      const fig::Point q{L.to_px_x(s.x[static_cast<std::size_t>(i)]), L.to_px_y(s.y[static_cast<std::size_t>(i)])};
      inside += q.x >= b.x && q.x <= b.right() && q.y >= b.y && q.y <= b.bottom();
    }
    CHECK(inside == 0);
    CHECK((dense_left ? b.x >= L.to_px_x(50) : b.right() <= L.to_px_x(50)));
  }
}

TEST_CASE("centred notes side by side (block titles) never overlap: one size for the line, down to 60 %, then cut with …") {
  // why-position's "y: as given · y: shuffled, put back · difference" over
  // three matrices printed over each other at a lecture's Ctrl+= sizes
  // (issue 29). Over random spacings, texts and font sizes.
  std::mt19937 rng(29);
  std::uniform_int_distribution<int> count(2, 5), letters(1, 24);
  std::uniform_real_distribution<double> font(10, 40), width(200, 1200);
  int shrunk = 0, cut = 0;
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    fig::Figure f = line_figure();
    f.y.min = -2, f.y.max = 2;
    const int n = count(rng);
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i) {
      std::string s(static_cast<std::size_t>(letters(rng)), static_cast<char>('a' + i));
      names.push_back(s);
      f.notes.push_back({.x = 10.0 + 80.0 * i / n, .y = 1.5, .text = s, .anchor = fig::Anchor::center});
    }
    LayoutPainter p;
    fig::RenderStyle style;
    style.font_size = font(rng);
    fig::render_figure(f, p, {0, 0, width(rng), 500}, style);
    std::vector<LayoutPainter::Text> drawn;
    for (const auto& t : p.texts)
      if (t.h == fig::Anchor::center && t.v == fig::VAnchor::middle && !t.rotated &&
          std::any_of(names.begin(), names.end(), [&](const std::string& s) {
            return t.s == s || (t.s.ends_with("…") && s.starts_with(t.s.substr(0, t.s.size() - 3)));
          }))
        drawn.push_back(t);
    REQUIRE(drawn.size() == static_cast<std::size_t>(n));
    std::sort(drawn.begin(), drawn.end(), [](const auto& a, const auto& b) { return a.at.x < b.at.x; });
    for (std::size_t i = 0; i < drawn.size(); ++i) {
      CHECK(drawn[i].st.size == doctest::Approx(drawn.front().st.size));
      CHECK(drawn[i].st.size >= style.font_size * 0.9 * 0.6 - 1e-9);
      // Left to right, no overlap — where one letter and "…" at 60 % fit
      // between neighbours at all.
      if (i && drawn[i].at.x - drawn[i - 1].at.x >= style.font_size * 0.9 * 1.2) {
        const fig::Rect a = p.box(drawn[i - 1]), b = p.box(drawn[i]);
        CHECK(a.x + a.w <= b.x + 1e-6);
      }
      cut += drawn[i].s.ends_with("…");
    }
    shrunk += drawn.front().st.size < style.font_size * 0.9 - 1e-9;
  }
  CHECK(shrunk > 20);  // the sample reaches both regimes
  CHECK(cut > 20);
}

TEST_CASE("named y ticks (a matrix's words) are drawn smaller, not dropped, down to 40 % of the tick size") {
  // At Ctrl+= ×3 in lecture mode the shuffled sentence's matrix dropped
  // every other word, "man₁" among them (issue 29).
  std::mt19937 rng(4);
  std::uniform_int_distribution<int> rows(3, 12);
  std::uniform_real_distribution<double> font(12, 40), height(140, 600);
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    const int n = rows(rng);
    fig::Figure f;
    f.x = {.label = "dimension", .tight = true};
    f.y = {.label = "word", .min = -0.5, .max = n - 0.5, .tight = true, .reversed = true};
    fig::Heatmap h;
    h.x0 = -0.5, h.x1 = 7.5, h.y0 = -0.5, h.y1 = n - 0.5, h.cols = 8, h.rows = n;
    h.values.assign(static_cast<std::size_t>(8 * n), 0.5f);
    f.heatmaps.push_back(h);
    for (int j = 0; j < n; ++j) f.y.ticks.emplace_back(j, "w" + std::to_string(j));
    LayoutPainter p;
    fig::RenderStyle style;
    style.font_size = font(rng);
    const fig::PlotLayout L = fig::render_figure(f, p, {0, 0, 700, height(rng)}, style);
    const double row_px = L.plot.h / n, tick = style.font_size * style.theme.tick_scale;
    CAPTURE(row_px);
    CAPTURE(tick);
    int named = 0;
    for (const auto& t : p.texts) named += !t.rotated && t.h == fig::Anchor::right && t.s.starts_with("w");
    if (row_px / 1.25 >= tick * 0.4) CHECK(named == n);  // room at 40 %: every word
  }
}

TEST_CASE("a slider's shown range widens to a value past its usual ends, but not for an index past its count") {
  // relative's d = 8,192 (typed or from a link) sat at the end of a slider
  // labelled 2 … 1,024; an index past its count stays "9 → 7".
  const core::ParamSpec& d = core::param_spec("d");
  const core::Params none;
  CHECK(app::shown_slider_range(d, none, 128) == std::pair{d.ui_min, d.ui_max});
  CHECK(app::shown_slider_range(d, none, 8192) == std::pair{d.ui_min, 8192.0});
  const core::ParamSpec& base = core::param_spec("base");
  CHECK(app::shown_slider_range(base, none, 1.5).first == 1.5);  // below ui_min (2), above the hard min (1)
  // held while dragged: the range the drag began with stays
  CHECK(app::shown_slider_range(d, none, 512, std::pair{2.0, 8192.0}) == std::pair{2.0, 8192.0});
  // an index past its count is not widened
  const core::ParamSpec& row = core::param_spec("row");
  const core::Params grid = params({{"grid_h", "8"}, {"grid_w", "8"}});
  CHECK(app::shown_slider_range(row, grid, 9).second == 7);
  // over random values: the range always holds the value and the usual ends
  std::mt19937 rng(3);
  for (const core::ParamSpec& s : core::param_specs()) {
    if (!std::isfinite(s.ui_min) || !std::isfinite(s.ui_max) || !app::index_bound_key(s.key).empty()) continue;
    std::uniform_real_distribution<double> v(std::isfinite(s.min) ? s.min : s.ui_min - 100,
                                             std::isfinite(s.max) ? std::min(s.max, 1e15) : s.ui_max + 100);
    for (int i = 0; i < 20; ++i) {
      const double x = v(rng);
      CAPTURE(s.key);
      CAPTURE(x);
      const auto [lo, hi] = app::shown_slider_range(s, none, x);
      CHECK(lo <= std::max(x, app::lesson_floor(s.key, none).value_or(x)));  // the shift: not below −min(m, n)
      CHECK(hi >= x);
      CHECK(lo <= std::max(s.ui_min, app::lesson_floor(s.key, none).value_or(s.ui_min)));
    }
  }
}
