// Text alternatives for every figure (issue 31, point 4): the generated
// description (app/plot/figure_describe.hpp) in both languages, its numbers
// against values computed here, SVG <title>/<desc>, the PDF's /Alt; and the
// series colours under colour-vision deficiency.

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/common/utf8.hpp"
#include "app/export/figure_export.hpp"
#include "app/lessons/lesson.hpp"
#include "app/plot/figure_describe.hpp"
#include "app/plot/figure_text.hpp"
#include "app/plot/formula.hpp"
#include "app_test_support.hpp"

using namespace poslab;
namespace fig = poslab::app::fig;

namespace {

const app::Translator& chinese() {
  static const app::Translator tr = app::Translator::load(app::assets_dir(), "zh");
  return tr;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool ideograph(char32_t c) { return c >= 0x3400 && c <= 0x9FFF; }
bool ascii_alnum(char32_t c) { return c < 0x80 && std::isalnum(static_cast<int>(c)); }

/// The first place an ideograph touches an ASCII letter or digit ("" when none).
std::string cjk_touching_latin(const std::string& s) {
  char32_t prev = 0;
  std::size_t prev_at = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = 1;
    const char32_t c = app::utf8::decode(s, i, n);
    if ((ideograph(prev) && ascii_alnum(c)) || (ascii_alnum(prev) && ideograph(c)))
      return s.substr(prev_at > 12 ? prev_at - 12 : 0, 30);
    prev = c, prev_at = i;
    i += n;
  }
  return {};
}

}  // namespace

TEST_CASE("every figure of every lesson has a description in English and in Chinese that names its axes") {
  int figures = 0;
  for (const app::ViewDef& v : app::view_defs())
    for (const app::FigureDef& fd : v.figures) {
      for (const app::Translator* tr : {&test::english(), &chinese()}) {
        CAPTURE(v.id);
        CAPTURE(fd.id);
        CAPTURE(tr->lang());
        const fig::Figure f = app::build_figure(v, fd, core::Params{}, *tr);
        CAPTURE(f.description);
        REQUIRE_FALSE(f.description.empty());
        // The axes by name: their labels (or the names their data is read by).
        const std::string x = fig::described_axis_name(f, false), y = fig::described_axis_name(f, true);
        CHECK_FALSE(x.empty());
        CHECK_FALSE(y.empty());
        CHECK(contains(f.description, x));
        CHECK(contains(f.description, y));
        // No formula markup or unfilled placeholder left for a screen reader to spell out.
        CHECK_FALSE(contains(f.description, "$"));
        CHECK_FALSE(contains(f.description, "{"));
        CHECK_FALSE(contains(f.description, "describe."));
        if (tr->lang() == "zh") {
          bool cjk = false;
          for (std::size_t i = 0; i < f.description.size();) {
            std::size_t n = 1;
            cjk = cjk || ideograph(app::utf8::decode(f.description, i, n));
            i += n;
          }
          CHECK(cjk);
          CHECK(cjk_touching_latin(f.description) == "");  // "第 0 对", as the Chinese texts write it
        }
        ++figures;
      }
    }
  CHECK(figures >= 2 * 40);
  CHECK(test::english().missing_keys().empty());
  CHECK(chinese().missing_keys().empty());
}

TEST_CASE("a description says what a figure holds: axes, scales, ranges, series, reference lines, notes") {
  fig::Figure f;
  f.x.label = "pair $i$";
  f.y.label = "wavelength λ";
  f.y.unit = "tokens";
  f.y.scale = fig::AxisScale::log;
  fig::Series s;
  s.name = "RoPE";
  s.x = {0, 1, 2, 3};
  s.y = {6.283, 50, 400, 3000};
  f.series.push_back(s);
  fig::Series t;
  t.name = "bumpy";
  t.style = fig::LineStyle::dashed;
  t.x = {0, 1, 2};
  t.y = {5, -1, 2};  // −1 cannot be drawn on the log axis: not counted
  f.series.push_back(t);
  f.ref_lines.push_back({fig::Orientation::horizontal, 100, "L = 100", std::nullopt, fig::LineStyle::dashed});
  f.notes.push_back({1, 1, "here", fig::Anchor::left, std::nullopt});
  f.key_numbers = "Two pairs turn within L.";
  const std::string d = fig::describe_figure(f, test::english());
  CHECK(d ==
        "wavelength λ (tokens, log scale) against pair i. pair i: 0 to 3. wavelength λ: 2 to 3,000 tokens. 2 series. "
        "RoPE (curve, 4 points): from 6.283 tokens at pair i = 0 to 3,000 tokens at pair i = 3. "
        "bumpy (curve, dashed, 2 points): from 5 tokens at pair i = 0 to 2 tokens at pair i = 2. "
        "Reference line “L = 100” at wavelength λ = 100 tokens: RoPE, 2 of 4 points below it; bumpy, 2 of 2 points "
        "below it. Written on the plot: here. Two pairs turn within L.");
  const std::string z = fig::describe_figure(f, chinese());
  CHECK(contains(z, "RoPE（曲线，4 个点）：从 pair i = 0 处的 6.283 tokens 到 pair i = 3 处的 3,000 tokens。"));
  CHECK(contains(z, "RoPE 的 4 个点中有 2 个在它下方"));

  // A peak inside the curve is named with where it is.
  fig::Figure g;
  g.x.label = "r";
  g.y.label = "score";
  g.series.push_back({});
  g.series[0].x = {0, 1, 2, 3, 4};
  g.series[0].y = {1, 3, 9, 2, 0.5};
  const std::string e = fig::describe_figure(g, test::english());
  CHECK(contains(e, "from 1 at r = 0 to 0.5 at r = 4; lowest 0.5 at r = 4, highest 9 at r = 2."));
  CHECK(contains(e, "series 1 (curve, 5 points)"));

  // A matrix heatmap: its cells, its value range, its masked cells, its colours.
  fig::Figure h;
  h.x.label = "key n";
  h.y.label = "query m";
  fig::Heatmap m;
  m.x0 = 0, m.x1 = 3, m.y0 = 0, m.y1 = 2, m.cols = 3, m.rows = 2;
  m.values = {1, -2, 0.5, 4, 7, 100};
  m.mask = {0, 0, 0, 0, 0, 1};
  m.value_name = "score";
  m.colormap = fig::Colormap::signed_;
  h.heatmaps.push_back(m);
  const std::string hd = fig::describe_figure(h, test::english());
  CHECK(hd ==
        "Heatmap of score over key n (horizontal) and query m (vertical). key n: 0 to 3. query m: 0 to 2. "
        "3 × 2 cells. score from −2 to 7. Masked cells (no value): 1. Blue below zero, orange above, neutral at zero.");

  // A series that says what it is (a frame around a cell is not a curve), and
  // more notes than are quoted: the count of the rest.
  fig::Series frame;
  frame.name = "query patch";
  frame.x = {0.5, 1.5, 1.5, 0.5, 0.5}, frame.y = {-0.5, -0.5, 0.5, 0.5, -0.5};
  frame.described = "A dark frame marks the query patch $q$.";
  h.series.push_back(frame);
  for (int i = 0; i < 9; ++i) h.notes.push_back({0.5 + i % 3, 0.5 + i / 3, std::to_string(i), fig::Anchor::center, std::nullopt});
  const std::string framed = fig::describe_figure(h, test::english());
  CHECK(contains(framed, "Heatmap of score over key n (horizontal) and query m (vertical). "));  // no "with curves"
  CHECK(contains(framed, "A dark frame marks the query patch q."));  // formula markup made plain
  CHECK_FALSE(contains(framed, "curve"));
  CHECK(contains(framed, "Written on the plot: 0; 1; 2; 3; 4; 5; and 3 more."));
  CHECK(contains(fig::describe_figure(h, chinese()), "图上标注：0；1；2；3；4；5；另有 3 处未列出。"));
  // A curve beside it brings "with curves drawn over it" back.
  h.series.push_back(s);
  CHECK(contains(fig::describe_figure(h, test::english()), "with curves drawn over it"));

  // Axial 2-D RoPE's query patch, described as the frame it is, in both languages.
  const app::ViewDef* mm = app::find_view("multimodal");
  REQUIRE(mm != nullptr);
  for (const app::Translator* tr : {&test::english(), &chinese()}) {
    core::Params at;
    at.set("row", 2.0);
    at.set("col", 3.0);
    const fig::Figure grid = app::build_figure(*mm, *app::find_figure(*mm, "grid-score"), at, *tr);
    const std::string& gd = grid.description;
    CAPTURE(gd);
    CHECK(contains(gd, tr->lang() == "zh" ? "深色方框标出查询图块（行号 2，列号 3）。" : "A dark frame marks the query patch, at row 2, column 3."));
    CHECK_FALSE(contains(gd, tr->lang() == "zh" ? "曲线" : "curve"));
  }
}

TEST_CASE("descriptions carry the figure's own numbers: RoPE's wavelengths and the pairs below the context") {
  // rope/frequencies at d = 128, b = 10,000: λ_i = 2π·b^(2i/d), computed here.
  const app::ViewDef* v = app::find_view("rope");
  REQUIRE(v);
  for (const auto& [d, base] : std::vector<std::pair<int, double>>{{128, 10000}, {64, 500000}, {256, 1e6}}) {
    core::Params p;
    p.set("d", static_cast<double>(d));
    p.set("base", base);
    const app::FigureDef* fd = nullptr;
    fig::Figure f;
    for (const app::FigureDef& cand : v->figures) {
      fig::Figure g = app::build_figure(*v, cand, p, test::english());
      for (const fig::Series& s : g.series)
        if (static_cast<int>(s.y.size()) == d / 2 && !s.y.empty() && std::abs(s.y[0] - 2 * M_PI) < 1e-9) fd = &cand, f = g;
      if (fd) break;
    }
    REQUIRE_MESSAGE(fd, "no figure of rope plots the wavelengths");
    CAPTURE(fd->id);
    CAPTURE(f.description);
    const double last = 2 * M_PI * std::pow(base, 2.0 * (d / 2 - 1) / d);
    CHECK(contains(f.description, "6.283"));
    CHECK(contains(f.description, fig::spoken_number(last)));
    if (d == 128 && base == 10000) CHECK(contains(f.description, "54,410"));  // as step 2 says it
    CHECK(contains(f.description, std::to_string(d / 2) + " points"));
    int lines = 0;
    for (const fig::RefLine& l : f.ref_lines) {
      if (l.orientation != fig::Orientation::horizontal) continue;
      int below = 0;
      for (int i = 0; i < d / 2; ++i) below += 2 * M_PI * std::pow(base, 2.0 * i / d) < l.value;
      const std::string k = std::to_string(below), n = std::to_string(d / 2);
      CHECK((contains(f.description, k + " of " + n + " points below it") ||
             contains(f.description, k + " of the " + n + " points below it")));
      // The step's own sentence on them (rope step 2: "46 pairs below the context L = 4,096").
      CHECK(contains(f.description, k + " of the " + n + " pairs turn at least once within the context L = " + fig::num(l.value)));
      CHECK(contains(f.description, "pair " + std::to_string(d / 2 - 1) + ", takes " + fig::spoken_number(last) + " tokens per turn"));
      ++lines;
    }
    CHECK(lines == 1);
  }
}

TEST_CASE("SVG carries the title and the description; the PDF its Title, Subject and Lang with a sound xref") {
  const app::ViewDef* v = app::find_view("sinusoidal");
  REQUIRE(v);
  REQUIRE_FALSE(v->figures.empty());
  fig::Figure f = app::build_figure(*v, v->figures.front(), core::Params{}, chinese());
  f.description += " <&> \"";  // escaped in the SVG
  app::ExportOptions o;
  o.width = 800, o.height = 500;
  const std::string svg = app::render_svg(f, o);
  CHECK(contains(svg, "role=\"img\" aria-labelledby=\"poslab-title poslab-desc\""));
  CHECK(contains(svg, "<title id=\"poslab-title\">" + fig::plain_text(f.title) + "</title>"));
  CHECK(contains(svg, "<desc id=\"poslab-desc\">"));
  CHECK(contains(svg, " &lt;&amp;&gt; &quot;</desc>"));
  CHECK(svg.find("<title") < svg.find("<rect"));  // the first children

  const std::string pdf = app::render_pdf(f, o);
  CHECK(contains(pdf, "/Lang (zh-CN)"));
  // The Subject is the description, as UTF-16BE (cairo writes non-ASCII metadata so).
  const std::size_t subject = pdf.find("/Subject <");
  REQUIRE(subject != std::string::npos);
  std::u16string units;
  for (std::size_t i = subject + 10; i + 4 <= pdf.size() && pdf[i] != '>'; i += 4)
    units += static_cast<char16_t>(std::strtoul(pdf.substr(i, 4).c_str(), nullptr, 16));
  std::string decoded;
  for (std::size_t i = units.empty() ? 0 : 1; i < units.size(); ++i) {  // after the byte-order mark
    char32_t c = units[i];
    if (c >= 0xD800 && c < 0xDC00 && i + 1 < units.size()) c = 0x10000 + ((c - 0xD800) << 10) + (units[++i] - 0xDC00);
    app::utf8::append(decoded, c);
  }
  CHECK(decoded == f.description);
  // Every object the cross-reference table lists starts where it says (after /Lang went in).
  const std::size_t xref = pdf.rfind("\nxref\n");
  REQUIRE(xref != std::string::npos);
  unsigned first = 0, count = 0;
  REQUIRE(std::sscanf(pdf.c_str() + xref + 6, "%u %u", &first, &count) == 2);
  std::size_t at = pdf.find('\n', xref + 6) + 1;
  int checked = 0;
  for (unsigned k = 0; k < count; ++k, at += 20) {
    const std::string entry = pdf.substr(at, 20);
    if (entry[17] != 'n') continue;
    const std::size_t offset = std::strtoul(entry.c_str(), nullptr, 10);
    CHECK(pdf.compare(offset, std::to_string(first + k).size() + 6, std::to_string(first + k) + " 0 obj") == 0);
    ++checked;
  }
  CHECK(checked >= 5);
  const std::size_t sx = pdf.rfind("startxref\n");
  CHECK(std::strtoul(pdf.c_str() + sx + 10, nullptr, 10) == xref + 1);
}

// [SECTION] Colour-vision deficiency

namespace {

using Rgb = std::array<double, 3>;

double to_linear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }
double to_srgb(double c) {
  c = std::clamp(c, 0.0, 1.0);
  return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055;
}

/// Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB.
constexpr double kProtan[3][3] = {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}};
constexpr double kDeutan[3][3] = {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}};

Rgb simulate(const double (*m)[3], const fig::Color& c) {
  const Rgb lin{to_linear(c.r), to_linear(c.g), to_linear(c.b)};
  Rgb out{};
  for (int i = 0; i < 3; ++i) out[i] = to_srgb(m[i][0] * lin[0] + m[i][1] * lin[1] + m[i][2] * lin[2]);
  return out;
}

std::array<double, 3> lab(const Rgb& srgb) {
  const double r = to_linear(srgb[0]), g = to_linear(srgb[1]), b = to_linear(srgb[2]);
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, y = 0.2126 * r + 0.7152 * g + 0.0722 * b,
               z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  auto f = [](double t) { return t > 216.0 / 24389 ? std::cbrt(t) : (24389.0 / 27 * t + 16) / 116; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

double delta_e(const Rgb& a, const Rgb& b) {
  const auto la = lab(a), lb = lab(b);
  return std::sqrt((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1]) + (la[2] - lb[2]) * (la[2] - lb[2]));
}

/// Two marks a reader tells apart without colour: another kind (line, step,
/// points, bars, stems), another dash, a line half as thick again, a marker
/// half as big again.
bool differ_in_shape(const fig::Series& a, const fig::Series& b) {
  auto apart = [](float u, float v) { return std::max(u, v) >= 1.5f * std::min(u, v); };
  const bool lines = a.kind == fig::SeriesKind::line || a.kind == fig::SeriesKind::step;
  return a.kind != b.kind || a.style != b.style || (lines ? apart(a.width, b.width) : apart(a.marker, b.marker));
}

}  // namespace

TEST_CASE("the simulation is Machado's: a pure red and green collapse for a deuteranope, blue and orange stay apart") {
  const fig::Color red{1, 0, 0, 1}, green{0, 0.6f, 0, 1};
  CHECK(delta_e(Rgb{1, 0, 0}, Rgb{0, 0.6, 0}) > 80);
  CHECK(delta_e(simulate(kDeutan, red), simulate(kDeutan, green)) < 30);
  CHECK(delta_e(simulate(kDeutan, fig::palette_color(0)), simulate(kDeutan, fig::palette_color(1))) > 40);
}

TEST_CASE("every pair of series in every figure stays apart for protanopes and deuteranopes, or differs in dash or mark") {
  // ΔE*ab ≥ 10 after Machado's simulation: two lines a reader tells apart at a glance.
  constexpr double kMinDeltaE = 10;
  int pairs = 0;
  for (const app::ViewDef& v : app::view_defs())
    for (const app::FigureDef& fd : v.figures) {
      const fig::Figure f = app::build_figure(v, fd, core::Params{}, test::english());
      for (std::size_t i = 0; i < f.series.size(); ++i)
        for (std::size_t j = i + 1; j < f.series.size(); ++j) {
          const fig::Series &a = f.series[i], &b = f.series[j];
          if (a.x.empty() || b.x.empty() || differ_in_shape(a, b)) continue;
          const fig::Color ca = a.color.value_or(fig::palette_color(static_cast<int>(i)));
          const fig::Color cb = b.color.value_or(fig::palette_color(static_cast<int>(j)));
          if (ca.r == cb.r && ca.g == cb.g && ca.b == cb.b) continue;  // one colour on purpose: a curve and its mean, a family
          for (const auto& deficiency : {std::pair{"protanopia", kProtan}, std::pair{"deuteranopia", kDeutan}}) {
            const char* name = deficiency.first;  // not a structured binding: CAPTURE's lambda captures it (clang 14)
            const auto& m = deficiency.second;
            CAPTURE(v.id);
            CAPTURE(fd.id);
            CAPTURE(a.name);
            CAPTURE(b.name);
            CAPTURE(name);
            CHECK(delta_e(simulate(m, ca), simulate(m, cb)) >= kMinDeltaE);
          }
          ++pairs;
        }
    }
  CHECK(pairs > 20);
}
