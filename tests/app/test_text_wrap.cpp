// Wrapping (app/common/text_wrap.hpp): a line breaks only at a space (not one
// beside a relation such as =) or next to a CJK character, so no number,
// equation or Latin word is ever split —
// checked on every translated text, every guided step and every readout the
// lessons compute, in English and Chinese, at many widths; a matrix in a
// formula may break between its rows (breakable_matrix_rows).

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/common/assets.hpp"
#include "app/common/fonts.hpp"
#include "app/common/i18n.hpp"
#include "app/common/text_wrap.hpp"
#include "app/decks/deck.hpp"
#include "app/lessons/lesson.hpp"
#include "app/plot/formula.hpp"

using namespace poslab;

namespace {

/// Code points of `s` (CJK ones count double, as they are about twice as wide).
float measure(std::string_view s) {
  float w = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : 4;
    char32_t c = n == 1 ? b : b & (0x7F >> n);
    for (std::size_t k = 1; k < n && i + k < s.size(); ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    w += app::is_cjk(c) ? 2.0f : 1.0f;
    i += n;
  }
  return w;
}

/// The code point ending just before byte `at`, and the one starting at `at`.
char32_t before(std::string_view s, std::size_t at) {
  std::size_t i = at;
  while (i > 0 && (static_cast<unsigned char>(s[i - 1]) & 0xC0) == 0x80) --i;
  if (i > 0) --i;
  const std::string_view rest = s.substr(i, at - i);
  char32_t c = 0;
  const auto b = static_cast<unsigned char>(rest[0]);
  const std::size_t n = rest.size();
  c = n == 1 ? b : b & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(rest[k]) & 0x3F);
  return c;
}
char32_t after(std::string_view s, std::size_t at) {
  const auto b = static_cast<unsigned char>(s[at]);
  const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : 4;
  char32_t c = n == 1 ? b : b & (0x7F >> n);
  for (std::size_t k = 1; k < n && at + k < s.size(); ++k) c = (c << 6) | (static_cast<unsigned char>(s[at + k]) & 0x3F);
  return c;
}

/// Every break of `text` at every width is at a space or next to CJK.
void check_breaks(const std::string& text) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view line = std::string_view(text).substr(start, end - start);
    for (float width : {4.0f, 7.0f, 11.0f, 18.0f, 29.0f, 47.0f, 76.0f}) {
      const auto lines = app::wrap_line(line, width, measure);
      REQUIRE(!lines.empty());
      CHECK(lines.front().first == 0);
      CHECK(lines.back().second == line.size());
      for (std::size_t k = 0; k + 1 < lines.size(); ++k) {
        const std::size_t cut = lines[k].second, next = lines[k + 1].first;
        if (next == cut + 1) {
          CHECK(line[cut] == ' ');  // a space dropped, never one beside a relation ("L⏎= 4,096")
          const std::u32string_view relations = U"=≈≠≡≤≥<>→−+±×";
          // The word before the space, back to the previous space or CJK character.
          std::size_t head = cut;
          while (head > 0 && line[head - 1] != ' ' && !app::is_cjk(before(line, head))) {
            --head;
            while (head > 0 && (static_cast<unsigned char>(line[head]) & 0xC0) == 0x80) --head;
          }
          const bool beside = relations.find(before(line, cut)) != std::u32string_view::npos ||
                              (next < line.size() && relations.find(after(line, next)) != std::u32string_view::npos) ||
                              (next < line.size() && std::u32string_view(U"%‰°").find(after(line, next)) !=
                                                         std::u32string_view::npos) ||  // "5⏎%"
                              std::u32string_view(U"Σ∑∏").find(after(line, head)) != std::u32string_view::npos;
          CHECK_MESSAGE(!beside, "broken beside a relation at width " << width << ": «"
                                     << std::string(line.substr(0, cut)) << "⏎" << std::string(line.substr(next)) << "»");
          continue;
        }
        REQUIRE(next == cut);
        const char32_t a = before(line, cut), b = after(line, cut);
        const bool ok = app::is_cjk(a) || app::is_cjk(b);
        CHECK_MESSAGE(ok, "broken inside a word at width " << width << ": «" << std::string(line.substr(0, cut))
                                                           << "⏎" << std::string(line.substr(cut)) << "»");
      }
    }
    start = end + 1;
  }
}

}  // namespace

TEST_CASE("wrap: the example from the Chinese review never splits its numbers") {
  const std::string s = "|k′| = 0.894427，时针的波长变长；0.125^0.8 = 0.18946，1.0296 → 1.0295，在 L = 4,096 个键上，分数是 Σᵢ 2·cos(r·θᵢ)（灰色）";
  check_breaks(s);
  // English: break at spaces only, never after '.' or ',' inside a word.
  check_breaks("with b = 500,000 and θ′ᵢ = θᵢ/s the ratio is 0.0099191 exactly");
  // An operator binds like a relation: T5's answer broke "n⏎− m = 0" at 1280×720.
  check_breaks("and bucket 16 is never used: n − m = 0 counts as not after, and x + PE(p) is one unit");
  // A percent sign stays with its number ("5⏎%" at the end of a line read as two things).
  const std::string percent = "the loss falls by 5 % within the first 100 steps, 1 ‰ after";
  check_breaks(percent);
  for (float width = 4; width <= 60; width += 1)
    for (const auto& [from, to] : app::wrap_line(percent, width, measure)) CHECK(percent[from] != '%');
}

TEST_CASE("wrap: every translated text, step and readout breaks only at spaces or next to CJK") {
  for (const char* lang : {"en", "zh"}) {
    CAPTURE(lang);
    for (const auto& entry : app::Translator::read_language(app::assets_dir(), lang)) check_breaks(entry.second);
    const app::Translator tr = app::Translator::load(app::assets_dir(), lang);
    for (const app::ViewDef& v : app::view_defs()) {
      CAPTURE(v.id);
      if (const app::Deck* steps = app::lesson_steps(v.id))
        for (const app::Scene& s : steps->scenes)
          for (const app::LocalText* t : {&s.caption, &s.question, &s.answer}) check_breaks(t->in(lang));
      for (const app::Readout& r : app::view_readouts(v, core::Params{}, tr)) {
        check_breaks(r.label);
        check_breaks(r.value);
      }
    }
  }
}

TEST_CASE("wrap: a function's argument stays whole (cos(φ − r·θ)), a parenthesis in prose may break") {
  const std::string formula = "分数等于 cos(φ − r·θ) 乘以 |q|·|k|";
  const std::size_t open = formula.find("cos("), close = formula.find(')', open);
  for (float width = 6; width <= 40; width += 1) {
    CAPTURE(width);
    for (const auto& [from, to] : app::wrap_line(formula, width, measure)) {
      // no line ends strictly inside cos( … )
      const bool inside = to > open + 4 && to < close;
      CHECK_FALSE(inside);
      (void)from;
    }
  }
  // Prose in parentheses after a space still wraps: the line would not fit otherwise.
  const std::string prose = "a note (with many words in it that go on and on) ends here";
  const auto lines = app::wrap_line(prose, 12, measure);
  CHECK(lines.size() > 3);
}

TEST_CASE("wrap: a short tuple (1, …, 1) stays whole when it fits; prose in parentheses and long lists still break") {
  // The lecture words column broke "q = k = (1,⏎…, 1)" (decay, step 2).
  const std::string text = "For q = k = (1, …, 1) the score at distance r is drawn, and (0, 1, 2) and (x, y) too";
  const std::vector<std::string> tuples = {"(1, …, 1)", "(0, 1, 2)", "(x, y)"};
  for (float width = 9; width <= 60; width += 1) {
    CAPTURE(width);
    const auto lines = app::wrap_line(text, width, measure);
    for (std::size_t k = 0; k + 1 < lines.size(); ++k) {
      const std::size_t cut = lines[k].second;
      for (const std::string& t : tuples) {
        const std::size_t open = text.find(t);
        CHECK_FALSE((cut > open && cut < open + t.size()));  // never a break inside a tuple that fits
      }
    }
    // "q = k = (1, …, 1)" is one unit (relations bind): from its width on, every line fits
    if (width >= 17)
      for (const auto& [from, to] : lines) CHECK(measure(std::string_view(text).substr(from, to - from)) <= width);
  }
  // Narrower than the tuple: it may break after its commas rather than overflow.
  const auto narrow = app::wrap_line("(1, …, 1)", 5, measure);
  CHECK(narrow.size() > 1);
  // The rule is narrow: words in parentheses are prose ("(its formula is in the text)"),
  // and a list longer than 40 bytes is no short tuple.
  CHECK(app::wrap_line("end (its formula is in the text) here", 12, measure).size() > 2);
  CHECK(app::wrap_line("v = (10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110)", 20, measure).size() > 1);
  // Chinese around a tuple: the tuple stays whole, the CJK text still breaks.
  const std::string zh = "对 q = k = (1, …, 1)，距离 r 处的分数逐渐变小";
  for (float width = 12; width <= 30; width += 1) {
    for (const auto& [from, to] : app::wrap_line(zh, width, measure)) {
      const std::size_t open = zh.find("(1,"), close = zh.find(')');
      CHECK_FALSE((to > open && to < close));
      (void)from;
    }
  }
}

TEST_CASE("wrap: a no-break space holds a number to its measure word and a formula together; a short quotation stays whole") {
  // The Chinese review: "第 8 ⏎ 个头", "σ₁ 个 ⏎ token", "[[cos Δθᵢ, sin ⏎ Δθᵢ], …]", "“代 ⏎ 码”".
  const std::string nbsp = "\u00A0";
  const std::string text = "所以第 1 个头大约往回看 2" + nbsp + "个 token，第 8" + nbsp + "个头大约 256" + nbsp +
                           "个，形如 [[cos" + nbsp + "Δθᵢ," + nbsp + "sin" + nbsp + "Δθᵢ]," + nbsp + "[−sin" + nbsp +
                           "Δθᵢ," + nbsp + "cos" + nbsp + "Δθᵢ]]，图中标为“代码”的线";
  const std::vector<std::string> units = {"8" + nbsp + "个", "256" + nbsp + "个", "2" + nbsp + "个",
                                          "[[cos" + nbsp + "Δθᵢ," + nbsp + "sin" + nbsp + "Δθᵢ]," + nbsp + "[−sin" + nbsp +
                                              "Δθᵢ," + nbsp + "cos" + nbsp + "Δθᵢ]]",
                                          "“代码”"};
  int lines_seen = 0;
  for (float width = 8; width <= 80; width += 1) {
    CAPTURE(width);
    const auto lines = app::wrap_line(text, width, measure);
    lines_seen += static_cast<int>(lines.size());
    for (std::size_t k = 0; k + 1 < lines.size(); ++k) {
      const std::size_t cut = lines[k].second;
      for (const std::string& u : units) {
        const std::size_t at = text.find(u);
        REQUIRE(at != std::string::npos);
        CHECK_FALSE((cut > at && cut < at + u.size()));
      }
    }
  }
  CHECK(lines_seen > 80);  // the text did wrap, at every width
  // A long quotation is prose: it may break inside.
  CHECK(app::wrap_line("他说“这是一句很长很长很长的话”", 8, measure).size() > 2);
}

TEST_CASE("wrap: a matrix in a formula may break between its rows, and only there; the glyphs stay the same") {
  // Rope's "one block $R(m·θ_i) = [[\cos(mθ_i), −\sin(mθ_i)], [\sin(mθ_i), \cos(mθ_i)]]$ per pair" was one
  // unbreakable word, drawn at 60 % in lecture mode at 1024×768.
  const std::string matrix = "$R(m·θ_i) = [[\\cos(mθ_i), −\\sin(mθ_i)], [\\sin(mθ_i), \\cos(mθ_i)]]$";
  const std::string text = "one block " + matrix + " per pair";
  std::string storage;
  const std::string_view split = app::breakable_matrix_rows(text, storage);
  CHECK(split == "one block $R(m·θ_i) = [[\\cos(mθ_i), −\\sin(mθ_i)],$ $[\\sin(mθ_i), \\cos(mθ_i)]]$ per pair");
  // Two formulas now, each a whole one; written out they are the one formula's text plus a space.
  const std::vector<app::fig::RichPiece> pieces = app::fig::rich_pieces(split);
  int formulas = 0;
  std::string joined;
  for (const auto& p : pieces) formulas += p.math, joined += p.math ? p.text : "";
  CHECK(formulas == 2);
  CHECK(joined == "R(m·θ_i) = [[\\cos(mθ_i), −\\sin(mθ_i)],[\\sin(mθ_i), \\cos(mθ_i)]]");
  // The wrap now has a place between the rows: at a width of the first row, the matrix takes two lines.
  const auto lines = app::wrap_line(split, 36, measure);
  REQUIRE(lines.size() >= 3);
  for (const auto& [a, b] : lines) {
    const std::string_view piece = split.substr(a, b - a);
    CAPTURE(piece);
    CHECK(std::count(piece.begin(), piece.end(), '$') % 2 == 0);  // no formula cut open
  }
  // Nothing else changes: no matrix, a "], [" outside a formula or inside braces, an escaped dollar.
  for (const std::string& same : {std::string("plain [a], [b] text"), std::string("$x_{[1], [2]}$ and $y$"),
                                 std::string("costs \\$5], [6"), std::string("$[[1, 0], [0, 1]"), std::string("")}) {
    CAPTURE(same);
    std::string s2;
    CHECK(app::breakable_matrix_rows(same, s2) == same);
  }
  // Every matrix of every translated text splits into whole formulas only.
  int matrices = 0;
  for (const char* lang : {"en", "zh"}) {
    for (const auto& entry : app::Translator::read_language(app::assets_dir(), lang)) {
      const std::string& key = entry.first;
      const std::string& value = entry.second;
      std::string s3;
      const std::string_view out = app::breakable_matrix_rows(value, s3);
      if (out.data() == value.data()) continue;
      ++matrices;
      CAPTURE(key);
      std::size_t dollars = 0;
      for (std::size_t i = 0; i < out.size(); ++i) dollars += out[i] == '$' && (i == 0 || out[i - 1] != '\\');
      CHECK(dollars % 2 == 0);
      for (const auto& p : app::fig::rich_pieces(out)) CHECK_FALSE(p.text.empty());
    }
  }
  CHECK(matrices >= 4);
}
