// Formulas as a textbook sets them (app/plot/formula.hpp): the markup is read
// as documented (docs/DECKS.md), errors are named where they are, the layout
// raises scripts, stacks fractions and bars roots without any two pieces
// touching — measured with the real faces (cairo, DejaVu Sans and the CJK
// face) at every size from a small tick label to a projector's title — and
// every formula in every text the app ships parses.

#include <doctest/doctest.h>

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "app/common/fonts.hpp"
#include "app/common/notation.hpp"
#include "app/common/text_wrap.hpp"
#include "app/decks/deck.hpp"
#include "app/export/cairo_painter.hpp"
#include "app/lessons/lesson.hpp"
#include "app/plot/formula.hpp"
#include "app_test_support.hpp"

using namespace poslab;
using namespace poslab::app;
using fig::FormulaBox;
using fig::FormulaItem;
using fig::MathNode;

namespace {

std::size_t code_points(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; }));
}

/// Every call, recorded; text 0.6 em wide per character.
class Recorder final : public fig::Painter {
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
  std::vector<fig::Rect> rects;
  std::vector<std::vector<fig::Point>> strokes, polygons;

  void fill_rect(const fig::Rect& r, fig::Color) override { rects.push_back(r); }
  void stroke_polyline(std::span<const fig::Point> p, fig::Color, double, fig::LineStyle) override {
    strokes.emplace_back(p.begin(), p.end());
  }
  void fill_polygon(std::span<const fig::Point> p, fig::Color) override { polygons.emplace_back(p.begin(), p.end()); }
  void fill_circle(fig::Point, double, fig::Color) override {}
  void text(fig::Point at, std::string_view s, const fig::TextStyle& st, fig::Anchor h, fig::VAnchor v, bool r) override {
    texts.push_back({at, std::string(s), st, h, v, r});
  }
  fig::Size measure(std::string_view s, const fig::TextStyle& st) override {
    return {0.6 * st.size * static_cast<double>(code_points(s)), st.size};
  }
  void heatmap(const fig::Rect&, const fig::ScalarRaster&) override {}
  void push_clip(const fig::Rect&) override {}
  void pop_clip() override {}
};

MathNode parsed(std::string_view src) {
  const fig::ParsedFormula f = fig::parse_formula(src);
  CAPTURE(src);
  if (f.error) FAIL_CHECK("does not parse: " << f.error->message << " at " << f.error->offset);
  return f.root;
}

FormulaBox laid(std::string_view src, double size = 20, bool bold = false) {
  Recorder r;
  return fig::layout_formula(parsed(src), r, fig::TextStyle{size, bold, {}});
}

const FormulaItem* text_item(const FormulaBox& b, std::string_view s) {
  for (const FormulaItem& it : b.items)
    if (it.kind == FormulaItem::Kind::text && it.text == s) return &it;
  return nullptr;
}

}  // namespace

// [SECTION] Finding formulas in a text

TEST_CASE("formula markup: a formula is $…$ as pandoc reads it; \\$ is a dollar; other dollars stay words") {
  using fig::math_span_end;
  constexpr auto npos = std::string_view::npos;
  CHECK(math_span_end("$x^2$", 0) == 5);
  CHECK(math_span_end("a $b$ c", 2) == 5);
  CHECK(math_span_end("costs $5 or $10", 6) == npos);   // the closing one may not follow a space
  CHECK(math_span_end("$x$5", 0) == npos);               // nor stand before a digit
  CHECK(math_span_end("$ x$", 0) == npos);               // the opening one may not precede a space
  CHECK(math_span_end("$$x$$", 0) == npos);              // display math is not markup here
  CHECK(math_span_end("\\$x$", 1) == npos);              // escaped
  CHECK(math_span_end("$a\\$b$", 0) == 6);               // an escaped dollar inside
  CHECK(math_span_end("$x\ny$", 0) == npos);             // one line only
  CHECK_FALSE(fig::has_markup("θᵢ = b^(−2i/d) costs $5"));
  CHECK(fig::has_markup("price \\$5"));
  CHECK(fig::has_markup("pair $i$"));

  const auto pieces = fig::rich_pieces("pair $i$ turns by $m·θ_i$, \\$5.");
  REQUIRE(pieces.size() == 5);
  CHECK(pieces[0].text == "pair ");
  CHECK(pieces[1].math);
  CHECK(pieces[1].text == "i");
  CHECK(pieces[3].text == "m·θ_i");
  CHECK(pieces[4].text == ", $5.");
  CHECK_FALSE(pieces[4].math);
}

// [SECTION] Parsing

TEST_CASE("formula parser: every form of the markup parses, and writes back as Unicode text") {
  struct Case {
    const char* src;
    const char* plain;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"θ_i = b^{-2i/d}", "θᵢ = b^(−2i/d)"},
           {"\\theta'_i = \\theta_i/s", "θ′ᵢ = θᵢ/s"},
           {"b' = b \\cdot s^{d/(d-2)}", "b′ = b · s^(d/(d−2))"},
           {"a = \\sqrt{1 + \\ln s / \\ln L}", "a = √(1 + ln s/ln L)"},
           {"\\frac{d}{d-2}", "d/(d−2)"},
           {"\\frac{\\ln s}{\\ln L}", "(ln s)/(ln L)"},
           {"x^2 + y_{32}", "x² + y₃₂"},
           {"10^{-5}", "10⁻⁵"},
           {"e^{-\\sqrt{d}}", "e^(−√d)"},
           {"\\sqrt[3]{x}", "∛x"},
           {"\\left( \\frac{1}{s} \\right)^\\eta", "(1/s)^η"},
           {"L' = 32,768", "L′ = 32,768"},
           {"f(a, b)", "f(a, b)"},
           {"\\text{short\\_factor}[i]", "short_factor[i]"},
           {"\\operatorname{rotate\\_half}(q)", "rotate_half(q)"},
           {"\\|q\\| \\le 1", "‖q‖ ≤ 1"},
           {"\\lfloor x \\rfloor", "⌊x⌋"},
           {"i \\in [0, d/2)", "i ∈ [0, d/2)"},
           {"\\mathbf{q}_m", "qₘ"},
           {"p \\mapsto p \\cdot (1/s)^\\eta", "p ↦ p · (1/s)^η"},
           {"\\alpha\\beta\\gamma\\Omega", "αβγΩ"},
           {"\\sum_i 2\\cos(r\\theta_i)", "∑ᵢ 2 cos(rθᵢ)"},
           {"x_i^2", "xᵢ²"},
           {"\\beta_{fast} > \\beta_{slow}", "β_fast > β_slow"},  // a word as a subscript: a name, no parentheses
           {"x_{q·k}", "x_(q·k)"},
           {"{x^a}^b", "x^a^b"},  // no superscript a in the fonts' baked forms
           {"\\text{长度} > 4", "长度 > 4"},
           {"-x", "−x"},
           {"a \\, b \\quad c", "a b c"},
           {"5\\%", "5%"},
           {"a\u00A0=\u202Fb\u2009+ c", "a = b + c"},  // no-break and thin spaces are spaces: ignored
       }) {
    CAPTURE(c.src);
    const fig::ParsedFormula f = fig::parse_formula(c.src);
    REQUIRE_FALSE(f.error);
    CHECK(fig::formula_plain(f.root) == c.plain);
  }
  // In a text: formulas written back, the rest untouched, byte for byte.
  CHECK(fig::plain_text("pair $i$: $θ_i = b^{-2i/d}$ (costs $5)") == "pair i: θᵢ = b^(−2i/d) (costs $5)");
  CHECK(fig::plain_text("no markup: b^(−2i/d), 10,000 $") == "no markup: b^(−2i/d), 10,000 $");
  CHECK(fig::plain_text("\\$5 and $\\$6$") == "$5 and $6");
  CHECK(fig::plain_text("a $\\hat{x}$ stays as written") == "a $\\hat{x}$ stays as written");
}

TEST_CASE("formula parser: a mistake is named, with where it is, and nothing is drawn from it") {
  struct Case {
    const char* src;
    std::size_t offset;
    const char* says;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"x^{2", 2, "without its }"},
           {"x}", 1, "without its {"},
           {"\\hat{x}", 0, "unknown command \\hat"},
           {"x^2^3", 3, "second superscript"},
           {"x_1_2", 3, "second subscript"},
           {"\\frac{a}", 8, "argument is missing"},
           {"\\left( x", 0, "\\left without \\right"},
           {"x \\right)", 2, "\\right without \\left"},
           {"\\left< x \\right>", 0, "\\left and \\right take"},
           {"a & b", 2, "means nothing"},
           {"x^", 1, "without what it raises"},
           {"\\", 0, "no command after it"},
           {"a \\\\ b", 2, "one line"},
           {"\\sqrt[3{x}", 5, "a [ without its ]"},
       }) {
    CAPTURE(c.src);
    const fig::ParsedFormula f = fig::parse_formula(c.src);
    REQUIRE(f.error);
    CHECK(f.error->offset == c.offset);
    CHECK(f.error->message.find(c.says) != std::string::npos);
    CHECK(f.root.kids.empty());
  }
  // Drawn in a text, a formula that does not parse shows its source, dollars and all.
  Recorder r;
  fig::rich_text(r, {0, 0}, "see $\\hat{x}$ here", fig::TextStyle{}, fig::Anchor::left, fig::VAnchor::top);
  std::string shown;
  for (const auto& t : r.texts) shown += t.s;
  CHECK(shown == "see $\\hat{x}$ here");
}

TEST_CASE("formula parser: random input never crashes, and what parses lays out finitely") {
  const std::string alphabet = "x2{}^_\\ -+=()[]|.,'$~&#";
  const char* words[] = {"\\frac", "\\sqrt", "\\left(", "\\right)", "\\theta", "\\text{a b}", "\\ln", "\\cdot", "θ", "长"};
  std::mt19937 rng(30);
  int parsed_ok = 0;
  for (int i = 0; i < 4000; ++i) {
    std::string s;
    const int n = std::uniform_int_distribution<int>(0, 14)(rng);
    for (int k = 0; k < n; ++k) {
      if (rng() % 4 == 0) s += words[rng() % std::size(words)];
      else s += alphabet[rng() % alphabet.size()];
    }
    CAPTURE(s);
    const fig::ParsedFormula f = fig::parse_formula(s);
    if (f.error) {
      CHECK(f.error->offset <= s.size());
      CHECK_FALSE(f.error->message.empty());
      continue;
    }
    ++parsed_ok;
    Recorder r;
    const FormulaBox b = fig::layout_formula(f.root, r, fig::TextStyle{16, false, {}});
    CHECK(std::isfinite(b.advance));
    CHECK(b.ascent >= 0);
    CHECK(b.descent >= 0);
    for (const FormulaItem& it : b.items) CHECK((std::isfinite(it.at.x) && std::isfinite(it.at.y)));
    (void)fig::formula_plain(f.root);
  }
  CHECK(parsed_ok > 400);  // the property is checked on many formulas that parse
}

// [SECTION] Layout

TEST_CASE("formula layout: a superscript is smaller and raised, a subscript smaller and lowered") {
  const FormulaBox b = laid("b^{2} + θ_i", 20);
  const FormulaItem* base = text_item(b, "b");
  const FormulaItem* sup = text_item(b, "2");
  const FormulaItem* theta = text_item(b, "θ");
  const FormulaItem* sub = text_item(b, "i");
  REQUIRE((base && sup && theta && sub));
  CHECK(sup->size == doctest::Approx(14));  // 0.7 of 20
  CHECK(sub->size == doctest::Approx(14));
  CHECK(sup->at.y == doctest::Approx(-0.42 * 20));  // raised 0.42 em (y down)
  CHECK(sub->at.y > 0);                             // lowered
  CHECK(sup->at.x >= base->at.x + 0.6 * 20);        // after the base's advance
  CHECK(sub->at.x >= theta->at.x + 0.6 * 20);
  // A script of a script is smaller again, down to 0.55 of the text and no smaller.
  const FormulaBox nested = laid("e^{x^{y^{z}}}", 20);
  CHECK(text_item(nested, "x")->size == doctest::Approx(14));
  CHECK(text_item(nested, "y")->size == doctest::Approx(11));
  CHECK(text_item(nested, "z")->size == doctest::Approx(11));
  CHECK(text_item(nested, "y")->at.y < text_item(nested, "x")->at.y);
  // Both scripts on one base: stacked at the same x, apart.
  const FormulaBox both = laid("x_i^2", 20);
  const FormulaItem* two = text_item(both, "2");
  const FormulaItem* i = text_item(both, "i");
  CHECK(two->at.x == doctest::Approx(i->at.x));
  const double sup_bottom = two->at.y + fig::ink_descent_em("2") * two->size;
  const double sub_top = i->at.y - fig::ink_ascent_em("i") * i->size;
  CHECK(sub_top - sup_bottom >= 0.16 * 20 - 1e-9);
}

TEST_CASE("formula layout: a fraction stacks its parts on a bar at the math axis, centred, apart") {
  const double S = 20;
  const FormulaBox b = laid("\\frac{d}{d-2}", S);
  REQUIRE(b.items.back().kind == FormulaItem::Kind::rule);
  const FormulaItem& bar = b.items.back();
  CHECK(bar.at.y + bar.h / 2 == doctest::Approx(-fig::kMathAxisEm * S));
  CHECK(bar.h == doctest::Approx(fig::kRuleEm * S));
  // The parts: what lies above the bar and what lies below, each a box of ink.
  struct Part {
    double x0 = 1e9, x1 = -1e9, top = 1e9, bottom = -1e9;
    int runs = 0;
  } num, den;
  for (const FormulaItem& it : b.items) {
    if (it.kind != FormulaItem::Kind::text) continue;
    CHECK(it.size == doctest::Approx(0.86 * S));
    Part& p = it.at.y < bar.at.y ? num : den;
    p.x0 = std::min(p.x0, it.at.x);
    p.x1 = std::max(p.x1, it.at.x + 0.6 * it.size * static_cast<double>(code_points(it.text)));
    p.top = std::min(p.top, it.at.y - fig::ink_ascent_em(it.text) * it.size);
    p.bottom = std::max(p.bottom, it.at.y + fig::ink_descent_em(it.text) * it.size);
    ++p.runs;
  }
  CHECK(num.runs == 1);
  CHECK(den.runs == 1);  // "d−2": no spaces around the minus in a fraction's part, one run
  CHECK(den.x1 - den.x0 == doctest::Approx(0.6 * 0.86 * S * 3));
  // Numerator above the bar, denominator below, neither touching it.
  CHECK(num.bottom < bar.at.y);
  CHECK(den.top > bar.at.y + bar.h);
  // Both centred on the bar, which is as wide as the wider part and a little more.
  CHECK(bar.w > den.x1 - den.x0);
  CHECK((den.x0 + den.x1) / 2 == doctest::Approx(bar.at.x + bar.w / 2));
  CHECK((num.x0 + num.x1) / 2 == doctest::Approx(bar.at.x + bar.w / 2));
  CHECK(b.advance > bar.w);
  // The box holds both parts.
  CHECK(b.ascent >= -num.top - 1e-9);
  CHECK(b.descent >= den.bottom - 1e-9);
  // In a script, a fraction's parts are a script's script.
  const FormulaBox up = laid("s^{\\frac{a}{b}}", S);
  CHECK(text_item(up, "a")->size == doctest::Approx(0.55 * S));
  // \dfrac keeps the size, \tfrac takes a script's.
  CHECK(text_item(laid("\\dfrac{a}{b}", S), "a")->size == doctest::Approx(S));
  CHECK(text_item(laid("\\tfrac{a}{b}", S), "a")->size == doctest::Approx(0.7 * S));
}

TEST_CASE("formula layout: a root draws its sign and a bar over the whole radicand") {
  const double S = 20;
  const FormulaBox b = laid("\\sqrt{1 + \\ln s}", S);
  REQUIRE(b.items.front().kind == FormulaItem::Kind::stroke);
  const auto& sign = b.items.front().points;
  REQUIRE(sign.size() == 5);
  const fig::Point bar_start = sign[3], bar_end = sign[4];
  CHECK(bar_start.y == doctest::Approx(bar_end.y));  // the bar is level
  double body_left = 1e9, body_right = -1e9, body_top = 1e9;
  for (const FormulaItem& it : b.items) {
    if (it.kind != FormulaItem::Kind::text) continue;
    body_left = std::min(body_left, it.at.x);
    body_right = std::max(body_right, it.at.x + 0.6 * it.size * static_cast<double>(code_points(it.text)));
    body_top = std::min(body_top, it.at.y - fig::ink_ascent_em(it.text) * it.size);
  }
  CHECK(bar_start.x <= body_left);
  CHECK(bar_end.x >= body_right);
  CHECK(bar_start.y + b.items.front().width / 2 < body_top);  // the bar clears the radicand
  CHECK(sign[2].y > 0);                                        // the sign dips to the baseline
  CHECK(b.ascent >= -bar_start.y);
  // A taller radicand, a taller sign.
  const FormulaBox tall = laid("\\sqrt{\\frac{a}{b}}", S);
  CHECK(tall.ascent > b.ascent);
  CHECK(tall.descent > b.descent);
}

TEST_CASE("formula layout: \\left( \\right) grow with what they hold; short ones are the font's glyphs") {
  const double S = 20;
  const FormulaBox plain = laid("\\left( x \\right)", S);
  CHECK(text_item(plain, "(") != nullptr);
  CHECK(text_item(plain, ")") != nullptr);
  const FormulaBox tall = laid("\\left( \\frac{1}{s} \\right)^\\eta", S);
  CHECK(text_item(tall, "(") == nullptr);
  int strokes = 0;
  double top = 0, bottom = 0;
  for (const FormulaItem& it : tall.items)
    if (it.kind == FormulaItem::Kind::stroke) {
      ++strokes;
      for (const fig::Point& p : it.points) top = std::min(top, p.y), bottom = std::max(bottom, p.y);
    }
  CHECK(strokes == 2);
  const FormulaItem* one = text_item(tall, "1");
  const FormulaItem* s = text_item(tall, "s");
  CHECK(top <= one->at.y - fig::ink_ascent_em("1") * one->size);
  CHECK(bottom >= s->at.y + fig::ink_descent_em("s") * s->size);
  // The exponent rides high on the tall group.
  CHECK(text_item(tall, "η")->at.y < text_item(laid("(x)^\\eta", S), "η")->at.y);
  for (const char* d : {"[", "\\{", "|", "\\|", ".", "\\lfloor", "\\langle"}) {
    const std::string open = std::string("\\left") + d;
    const char* close = std::string(d) == "[" ? "]" : std::string(d) == "\\{" ? "\\}" : std::string(d) == "\\lfloor" ? "\\rfloor" : std::string(d) == "\\langle" ? "\\rangle" : d;
    CAPTURE(d);
    const FormulaBox f = laid(open + " \\frac{a}{b} \\right" + close, S);
    CHECK(f.advance > 0);
  }
}

TEST_CASE("formula layout: TeX's spacing — relations and binary operators spaced, a leading minus not, scripts tight") {
  auto gap_before = [](const FormulaBox& b, std::string_view s) {
    const FormulaItem* it = text_item(b, s);
    REQUIRE(it != nullptr);
    double prev_end = 0;
    for (const FormulaItem& o : b.items)
      if (o.kind == FormulaItem::Kind::text && o.at.x < it->at.x - 1e-9 && o.size == it->size)
        prev_end = std::max(prev_end, o.at.x + 0.6 * o.size * static_cast<double>(code_points(o.text)));
    return it->at.x - prev_end;
  };
  const double S = 18;
  const FormulaBox rel = laid("a=b", S);
  CHECK(gap_before(rel, "=") == doctest::Approx(5.0));  // thick: 5/18 em
  CHECK(gap_before(rel, "b") == doctest::Approx(5.0));
  const FormulaBox bin = laid("a+b", S);
  CHECK(gap_before(bin, "+") == doctest::Approx(4.0));  // medium
  CHECK(text_item(laid("-x", S), "−x") != nullptr);      // unary: one run, no space
  CHECK(text_item(laid("a=-x", S), "−x") != nullptr);
  const FormulaBox fn = laid("\\ln s", S);
  CHECK(gap_before(fn, "s") == doctest::Approx(3.0));  // thin after a function's name
  CHECK(gap_before(laid("\\ln(s)", S), "(") == doctest::Approx(0));
  // Spaces written in the source change nothing, as in LaTeX.
  CHECK(laid("a = b", S).advance == doctest::Approx(rel.advance));
  // In a script, no medium or thick spaces.
  CHECK(text_item(laid("s^{d-2}", S), "d−2") != nullptr);
}

TEST_CASE("formula layout: every size is the same layout scaled (at every font scale)") {
  const char* formulas[] = {"θ'_i = θ_i / s^{2i/(d-2)}", "a = \\sqrt{1 + \\frac{\\ln s}{\\ln L}}",
                            "\\left( \\frac{1}{s} \\right)^\\eta", "x_i^2 + \\sqrt[3]{y}"};
  for (const char* src : formulas) {
    CAPTURE(src);
    const FormulaBox ref = laid(src, 10);
    for (double size : {7.0, 13.0, 15.0, 19.5, 30.0, 64.0}) {
      CAPTURE(size);
      const double k = size / 10;
      const FormulaBox b = laid(src, size);
      CHECK(b.advance == doctest::Approx(ref.advance * k));
      CHECK(b.ascent == doctest::Approx(ref.ascent * k));
      CHECK(b.descent == doctest::Approx(ref.descent * k));
      REQUIRE(b.items.size() == ref.items.size());
      for (std::size_t i = 0; i < b.items.size(); ++i) {
        CHECK(b.items[i].at.x == doctest::Approx(ref.items[i].at.x * k));
        CHECK(b.items[i].at.y == doctest::Approx(ref.items[i].at.y * k));
      }
    }
  }
}

TEST_CASE("formula layout: bold text sets its formulas bold, rules thicker") {
  const FormulaBox b = laid("\\frac{a}{b}", 20, true);
  CHECK(text_item(b, "a")->bold);
  CHECK(b.items.back().h == doctest::Approx(1.5 * fig::kRuleEm * 20));
  CHECK(text_item(laid("\\mathbf{q} \\cdot k", 20), "q")->bold);
  CHECK_FALSE(text_item(laid("\\mathbf{q} \\cdot k", 20), "k")->bold);
}

// [SECTION] Ink: the layout's estimates hold the real glyphs, and no two pieces touch

namespace {

/// A painter on a 1×1 cairo surface, measuring as the PNG/PDF painter does,
/// that records what it is asked to draw.
struct CairoMeasure {
  OwnedSurface surface{cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)};
  cairo_t* cr = cairo_create(surface.get());
  std::string latin, cjk;
  explicit CairoMeasure(const std::string& families) {
    // The glyphs' outlines, unhinted: their true extents, not rounded to pixels.
    cairo_font_options_t* o = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(o, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(o, CAIRO_HINT_STYLE_NONE);
    cairo_set_font_options(cr, o);
    cairo_font_options_destroy(o);
    const auto f = split_font_families(families);
    latin = f.front();
    cjk = f.size() > 1 ? f.back() : "";
  }
  ~CairoMeasure() { cairo_destroy(cr); }
  CairoMeasure(const CairoMeasure&) = delete;
  CairoMeasure& operator=(const CairoMeasure&) = delete;

  /// The ink of `s` at `size` drawn from its baseline at (x, y): x0, y0, x1, y1.
  std::array<double, 4> ink(std::string_view s, double size, bool bold, double x, double y) {
    double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18, pen = x;
    for (const TextRun& run : cjk.empty() ? std::vector<TextRun>{{s, false}} : split_cjk_runs(s)) {
      cairo_select_font_face(cr, (run.cjk ? cjk : latin).c_str(), CAIRO_FONT_SLANT_NORMAL,
                             bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
      cairo_set_font_size(cr, size);
      const std::string t(run.text);
      cairo_text_extents_t e;
      cairo_text_extents(cr, t.c_str(), &e);
      if (e.width > 0) {
        x0 = std::min(x0, pen + e.x_bearing), x1 = std::max(x1, pen + e.x_bearing + e.width);
        y0 = std::min(y0, y + e.y_bearing), y1 = std::max(y1, y + e.y_bearing + e.height);
      }
      pen += e.x_advance;
    }
    return {x0, y0, x1, y1};
  }
};

class CairoRecorder final : public fig::Painter {
 public:
  explicit CairoRecorder(CairoMeasure& m) : m_(m) {}
  fig::Size measure(std::string_view s, const fig::TextStyle& st) override {
    return {text_advance(m_.cr, s, m_.latin, m_.cjk, st), st.size};
  }
  void fill_rect(const fig::Rect&, fig::Color) override {}
  void stroke_polyline(std::span<const fig::Point>, fig::Color, double, fig::LineStyle) override {}
  void fill_polygon(std::span<const fig::Point>, fig::Color) override {}
  void fill_circle(fig::Point, double, fig::Color) override {}
  void text(fig::Point, std::string_view, const fig::TextStyle&, fig::Anchor, fig::VAnchor, bool) override {}
  void heatmap(const fig::Rect&, const fig::ScalarRaster&) override {}
  void push_clip(const fig::Rect&) override {}
  void pop_clip() override {}

 private:
  CairoMeasure& m_;
};

struct Ink {
  std::array<double, 4> box;  // x0, y0, x1, y1
  std::string what;
  std::optional<double> baseline;  ///< a run of text: its baseline and size
  double size = 0;
};

/// The ink of every piece of `b`: glyph runs from the face, rules as they
/// are, each segment of a stroke as its box grown by half the line width.
std::vector<Ink> inks(const FormulaBox& b, CairoMeasure& m) {
  std::vector<Ink> out;
  for (const FormulaItem& it : b.items) {
    switch (it.kind) {
      case FormulaItem::Kind::text: {
        const auto box = m.ink(it.text, it.size, it.bold, it.at.x, it.at.y);
        if (box[2] > box[0]) out.push_back({box, "“" + it.text + "”", it.at.y, it.size});
        break;
      }
      case FormulaItem::Kind::rule: out.push_back({{it.at.x, it.at.y, it.at.x + it.w, it.at.y + it.h}, "a bar"}); break;
      case FormulaItem::Kind::stroke:
        for (std::size_t i = 1; i < it.points.size(); ++i) {
          const fig::Point a = it.points[i - 1], c = it.points[i];
          const double r = it.width / 2;
          out.push_back({{std::min(a.x, c.x) - r, std::min(a.y, c.y) - r, std::max(a.x, c.x) + r, std::max(a.y, c.y) + r},
                         "a stroke"});
        }
        break;
    }
  }
  return out;
}

/// Formulas of the shapes the texts use, and harder ones.
const std::vector<std::string>& sample_formulas() {
  static const std::vector<std::string> f = {
      "θ_i = b^{-2i/d}",
      "b' = b \\cdot s^{d/(d-2)}",
      "θ'_i = θ_i / s^{2i/(d-2)}",
      "a = \\sqrt{1 + \\frac{\\ln s}{\\ln L}}",
      "a = 0.1 \\ln s + 1",
      "\\frac{d}{d-2}",
      "e^{-\\sqrt{d}}",
      "\\sqrt{2d/\\pi}",
      "\\left( \\frac{1}{s} \\right)^\\eta",
      "w_i = \\frac{ρ_i - β_{slow}}{β_{fast} - β_{slow}}",
      "\\lambda_i = 2\\pi / θ_i",
      "\\|q'\\| / \\|q\\| = 1",
      "x_i^2 + y_{j}^{2k}",
      "\\sum_i 2 \\cos(r θ_i)",
      "\\frac{\\frac{a}{b}}{\\frac{c}{d}}",
      "\\sqrt{\\frac{\\sum_j q_j^2}{d}}",
      "\\left[ \\frac{p}{q} \\right] \\left\\{ \\frac{x^2}{y_1} \\right\\} \\left| \\frac{a}{b} \\right|",
      "N(0, 0.02^2)",
      "\\text{长度} = s \\cdot L",
  };
  return f;
}

}  // namespace

TEST_CASE("formula layout: with the real faces, the box holds all ink and no two pieces touch, at every size") {
  for (const std::string& families : {std::string("DejaVu Sans"), export_font_families("zh")}) {
    CairoMeasure m(families);
    CairoRecorder painter(m);
    for (const std::string& src : sample_formulas()) {
      const fig::ParsedFormula f = fig::parse_formula(src);
      REQUIRE_FALSE(f.error);
      if (src.find("长") != std::string::npos && m.cjk.empty()) continue;  // Chinese is drawn with a CJK face
      for (double size : {8.0, 11.0, 13.0, 15.0, 19.5, 27.0, 40.0}) {
        for (bool bold : {false, true}) {
          CAPTURE(families);
          CAPTURE(src);
          CAPTURE(size);
          CAPTURE(bold);
          const FormulaBox b = fig::layout_formula(f.root, painter, fig::TextStyle{size, bold, {}});
          const auto ink = inks(b, m);
          const double tol = 0.02 * size;
          for (const Ink& a : ink) {
            CAPTURE(a.what);
            CHECK(a.box[1] >= -b.ascent - tol);  // the box holds the ink
            CHECK(a.box[3] <= b.descent + tol);
            CHECK(a.box[0] >= -tol);
            CHECK(a.box[2] <= b.advance + tol);
          }
          for (std::size_t i = 0; i < ink.size(); ++i)
            for (std::size_t j = i + 1; j < ink.size(); ++j) {
              const auto& p = ink[i].box;
              const auto& q = ink[j].box;
              const bool same_stroke = ink[i].what == "a stroke" && ink[j].what == "a stroke";
              if (same_stroke) continue;  // segments of one sign meet at their joints
              // Neighbours on one baseline at one size are spaced by the font's
              // own advances (and kerning): "/" leans over "s" as it does in any text.
              if (ink[i].baseline && ink[i].baseline == ink[j].baseline && ink[i].size == ink[j].size) continue;
              const double ox = std::min(p[2], q[2]) - std::max(p[0], q[0]);
              const double oy = std::min(p[3], q[3]) - std::max(p[1], q[1]);
              CAPTURE(ink[i].what);
              CAPTURE(ink[j].what);
              CHECK_FALSE((ox > tol && oy > tol));
            }
        }
      }
    }
  }
}

TEST_CASE("formula ink classes: every character the texts use is estimated at or above its real extent") {
  // The characters of every formula the assets hold, measured in both faces.
  std::string all = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789()[]{}|/+−=<>≤≥≈→·×′∞ℓ∂∇∑√αβγδεζηθικλμνξπρστυφχψω"
                    "长度位置编码波训练对转";
  CairoMeasure m(export_font_families("zh"));
  for (std::size_t i = 0, n = 1; i < all.size(); i += n) {
    const auto b = static_cast<unsigned char>(all[i]);
    n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : 4;
    const std::string c = all.substr(i, n);
    CAPTURE(c);
    const auto ink = m.ink(c, 100, false, 0, 0);
    CHECK(-ink[1] <= fig::ink_ascent_em(c) * 100 + 1);
    CHECK(ink[3] <= fig::ink_descent_em(c) * 100 + 1);
  }
}

// [SECTION] A line of words and formulas

TEST_CASE("rich text: a text without markup is the painter's own call, unchanged") {
  for (const char* s : {"θᵢ = b^(−2i/d)", "costs $5 or $10", "", "位置编码 PE(p)"}) {
    Recorder a, b;
    const fig::TextStyle st{13, true, fig::Color::rgb(0x123456)};
    a.text({3, 4}, s, st, fig::Anchor::center, fig::VAnchor::middle, true);
    fig::rich_text(b, {3, 4}, s, st, fig::Anchor::center, fig::VAnchor::middle, true);
    REQUIRE(b.texts.size() == a.texts.size());
    for (std::size_t i = 0; i < a.texts.size(); ++i) {
      CHECK(b.texts[i].s == a.texts[i].s);
      CHECK(b.texts[i].at.x == a.texts[i].at.x);
      CHECK(b.texts[i].at.y == a.texts[i].at.y);
      CHECK(b.texts[i].h == a.texts[i].h);
      CHECK(b.texts[i].v == a.texts[i].v);
      CHECK(b.texts[i].rotated == a.texts[i].rotated);
    }
    CHECK(fig::rich_measure(b, s, st).w == a.measure(s, st).w);
  }
}

TEST_CASE("rich text: words and formulas on one baseline, anchored as Painter::text anchors") {
  Recorder r;
  const fig::TextStyle st{20, false, {}};
  const std::string text = "so $θ_i = b^{-2i/d}$ here";
  const fig::RichLine line = fig::layout_rich(r, text, st);
  const double words = 0.6 * 20 * 3;  // "so " and " here" measure 3 and 5 characters
  CHECK(line.box.advance > words);
  CHECK(line.font_ascent == doctest::Approx(0.929 * 20));
  CHECK(line.box.ascent >= line.font_ascent);
  for (fig::Anchor h : {fig::Anchor::left, fig::Anchor::center, fig::Anchor::right}) {
    Recorder out;
    fig::rich_text(out, {100, 50}, text, st, h, fig::VAnchor::top);
    REQUIRE(out.texts.size() >= 4);
    const double left = out.texts.front().at.x;
    CHECK(left == doctest::Approx(h == fig::Anchor::left ? 100 : h == fig::Anchor::center ? 100 - line.box.advance / 2 : 100 - line.box.advance));
    CHECK(out.texts.front().s == "so ");
    CHECK(out.texts.front().at.y == doctest::Approx(50 + 0.929 * 20));  // top: one font ascent down to the baseline
    CHECK(out.texts.back().s == " here");
    CHECK(out.texts.back().at.y == doctest::Approx(out.texts.front().at.y));
    for (const auto& t : out.texts) CHECK(t.v == fig::VAnchor::baseline);
  }
  // Rotated (a y-axis title): the same pieces, turned a quarter about the anchor.
  Recorder up;
  fig::rich_text(up, {10, 200}, text, st, fig::Anchor::center, fig::VAnchor::top, true);
  Recorder flat;
  fig::rich_text(flat, {10, 200}, text, st, fig::Anchor::center, fig::VAnchor::top, false);
  REQUIRE(up.texts.size() == flat.texts.size());
  for (std::size_t i = 0; i < up.texts.size(); ++i) {
    CHECK(up.texts[i].rotated);
    CHECK(up.texts[i].at.x - 10 == doctest::Approx(flat.texts[i].at.y - 200));
    CHECK(200 - up.texts[i].at.y == doctest::Approx(flat.texts[i].at.x - 10));
  }
}

TEST_CASE("wrap: a formula is one word, never broken inside, measured whole") {
  // One unit per character, a formula as wide as its source without dollars.
  auto measure = [](std::string_view s) {
    Recorder r;
    return static_cast<float>(fig::rich_measure(r, s, fig::TextStyle{1 / 0.6, false, {}}).w);
  };
  const std::string line = "the frequency $θ_i = b^{-2i/d}$ of pair $i$ falls";
  for (float width = 4; width < 60; width += 1) {
    CAPTURE(width);
    for (const auto& [a, b] : wrap_line(line, width, measure)) {
      const std::string_view piece = std::string_view(line).substr(a, b - a);
      CAPTURE(piece);
      // Every dollar of a piece is paired: no formula is cut.
      CHECK(std::count(piece.begin(), piece.end(), '$') % 2 == 0);
    }
  }
  // Next to Chinese, a formula may start or end a line as a word does.
  const std::string zh = "波长$λ_i$比训练长度长";
  bool broke_after = false;
  for (const auto& [a, b] : wrap_line(zh, 4, measure)) broke_after = broke_after || zh.substr(a, b - a).ends_with("$");
  CHECK(broke_after);
}

// [SECTION] Every formula in every text parses

namespace {

/// Every text a user reads from the assets: translations (both languages),
/// the lessons' guided steps, the built-in decks, the notation card.
std::vector<std::pair<std::string, std::string>> every_text() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* lang : {"en", "zh"})
    for (const auto& [key, text] : Translator::read_language(assets_dir(), lang)) out.emplace_back(std::string(lang) + " " + key, text);
  auto add_deck = [&](const std::string& where, const Deck& d) {
    out.emplace_back(where + " title", d.title.en + "\n" + d.title.zh);
    for (std::size_t k = 0; k < d.scenes.size(); ++k) {
      const Scene& s = d.scenes[k];
      const std::string at = where + " " + std::to_string(k + 1) + " ";
      for (const auto& [name, t] : {std::pair{"caption", &s.caption}, {"question", &s.question}, {"answer", &s.answer}}) {
        out.emplace_back(at + name + " en", t->en);
        out.emplace_back(at + name + " zh", t->zh);
      }
    }
  };
  for (const ViewDef& v : view_defs())
    if (const Deck* steps = lesson_steps(v.id)) add_deck("steps " + std::string(v.id), *steps);
  for (const auto& [name, deck] : builtin_decks()) add_deck("deck " + name, deck);
  for (const NotationEntry& e : load_notation(assets_dir())) out.emplace_back("notation " + e.symbol, e.symbol + "\n" + e.en + "\n" + e.zh);
  return out;
}

}  // namespace

TEST_CASE("formulas in the texts: every formula in every text parses, and no dollar is left dangling") {
  const auto all = every_text();
  CHECK(all.size() > 1000);
  std::size_t formulas = 0;
  for (const auto& entry : all) {
    const std::string& where = entry.first;
    const std::string& text = entry.second;
    CAPTURE(where);
    CAPTURE(text);
    for (const fig::RichPiece& p : fig::rich_pieces(text)) {
      if (!p.math) {
        // A '$' that opens no formula is a price, written "\$" — or a mistake.
        CHECK((p.text.find('$') == std::string::npos || text.find("\\$") != std::string::npos));
        continue;
      }
      ++formulas;
      const fig::ParsedFormula f = fig::parse_formula(p.text);
      CAPTURE(p.text);
      if (f.error) FAIL_CHECK(f.error->message << " at byte " << f.error->offset);
    }
  }
  MESSAGE("formulas parsed in the texts: " << formulas);
}
