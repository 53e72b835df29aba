#include "app/common/text_wrap.hpp"

#include <string>

#include "app/common/fonts.hpp"
#include "app/common/utf8.hpp"
#include "app/plot/formula.hpp"

namespace poslab::app {

namespace {

using utf8::decode;

bool closing(char32_t c) {
  return std::u32string_view(U"，。、；：？！）」』”’》】,.;:?!)").find(c) != std::u32string_view::npos;
}
bool opening(char32_t c) { return std::u32string_view(U"（「『“‘《【(").find(c) != std::u32string_view::npos; }
/// A relation or an arithmetic operator binds the words on both sides: "L = 4,096",
/// "100 → 18.95", "n − m = 0" stay on one line (the "·" between a subtitle's parts does not).
bool relation(char32_t c) { return std::u32string_view(U"=≈≠≡≤≥<>→−+±×").find(c) != std::u32string_view::npos; }
/// A big operator binds the word after it: "Σᵢ 2·cos(r·θᵢ)" stays on one line.
bool big_operator(char32_t c) { return std::u32string_view(U"Σ∑∏").find(c) != std::u32string_view::npos; }

/// A sign that belongs to the number before it: "5 %" and "90 °" stay on one line.
bool unit_sign(char32_t c) { return c == U'%' || c == U'‰' || c == U'°'; }

/// U+00A0 and U+202F: no break at them, nor beside them next to CJK ("8 个",
/// "σ₁ 个 token" and formulas written with them stay whole).
bool no_break_space(char32_t c) { return c == 0xA0 || c == 0x202F; }

/// A short quotation opening at line[open] with “: at most 8 code points up
/// to its ”, no space inside. Returns the index of its ” (npos when it is not
/// one): “代码” and “打乱” never break inside.
std::size_t quotation_end(std::string_view line, std::size_t open) {
  constexpr int kMaxInside = 8;
  std::size_t j = open;
  std::size_t n = 1;
  (void)decode(line, j, n);
  j += n;
  for (int count = 0; j < line.size() && count <= kMaxInside; ++count) {
    const char32_t c = decode(line, j, n);
    if (c == U'”') return j;
    if (c == U' ' || c == U'“') return std::string_view::npos;
    j += n;
  }
  return std::string_view::npos;
}

/// A short tuple opening at line[open] — "(1, …, 1)", "(0, 1, 2)", "(x, y)":
/// one-word items separated by ", " in parentheses, at most 40 bytes, no
/// nested parentheses. Returns the index of its ')' (npos when it is not one).
std::size_t tuple_end(std::string_view line, std::size_t open) {
  constexpr std::size_t kMaxBytes = 40;
  bool comma = false;
  for (std::size_t j = open + 1; j < line.size() && j - open <= kMaxBytes; ++j) {
    const char ch = line[j];
    if (ch == ')') return comma && line[j - 1] != ' ' ? j : std::string_view::npos;
    if (ch == '(') return std::string_view::npos;
    if (ch == ',') comma = true;
    if (ch == ' ' && line[j - 1] != ',') return std::string_view::npos;  // prose, not a list of words
  }
  return std::string_view::npos;
}

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> wrap_line(std::string_view line, float width,
                                                           const std::function<float(std::string_view)>& measure) {
  std::vector<std::pair<std::size_t, std::size_t>> lines;
  std::size_t start = 0, cut = std::string_view::npos, resume = 0;
  float w = 0;
  char32_t prev = 0, word_head = 0;  // word_head: the first character of the word c belongs to
  int formula = 0;  // depth of parentheses opened right after a symbol: "cos(φ − r·θ)"
  std::size_t tuple_open = 0, tuple_close = 0;  // a short tuple "(1, …, 1)" that fits: no break inside
  for (std::size_t i = 0; i < line.size();) {
    std::size_t n = 1;
    char32_t c = decode(line, i, n);
    // A formula "$…$" is one unbreakable word (U+FFFC stands for it); "\$" is a dollar.
    if (c == U'$' || (c == U'\\' && i + 1 < line.size() && line[i + 1] == '$')) {
      const std::size_t end = c == U'$' ? fig::math_span_end(line, i) : i + 2;
      if (end != std::string_view::npos) n = end - i, c = c == U'$' ? U'\uFFFC' : U'$';
    }
    if (c == U'(' && prev != 0 && prev != U' ' && !is_cjk(prev)) ++formula;
    else if (c == U')' && formula > 0) --formula;
    if (c == U'(' && i >= tuple_close) {
      const std::size_t close = tuple_end(line, i);
      if (close != std::string_view::npos && measure(line.substr(i, close + 1 - i)) <= width) tuple_open = i, tuple_close = close;
    }
    if (c == U'“' && i >= tuple_close) {
      const std::size_t close = quotation_end(line, i);
      if (close != std::string_view::npos) tuple_open = i, tuple_close = close;
    }
    const bool in_tuple = i > tuple_open && i < tuple_close;
    // A break may come before c: at a space (dropped) not next to a relation,
    // or between characters when either side is CJK, unless c closes or prev opens.
    if (i > start) {
      std::size_t next_n = 1;
      const char32_t next = i + 1 < line.size() ? decode(line, i + 1, next_n) : 0;
      if (c == U' ') {
        // not inside a function's argument: "cos(φ −⏎r·θ)" splits the formula
        if (!relation(prev) && !relation(next) && !unit_sign(next) && !big_operator(word_head) && formula == 0 &&
            !in_tuple)
          cut = i, resume = i + 1;
      } else if ((is_cjk(c) || is_cjk(prev)) && prev != U' ' && !no_break_space(prev) && !no_break_space(c) &&
                 !closing(c) && !opening(prev) && !in_tuple) {
        cut = i, resume = i;
      }
    }
    const float cw = measure(line.substr(i, n));
    if (w + cw > width && cut != std::string_view::npos && cut > start) {
      lines.emplace_back(start, cut);
      start = resume;
      cut = std::string_view::npos;
      w = start < i ? measure(line.substr(start, i - start)) : 0;
    }
    w += cw;
    if (c != U' ' && (prev == U' ' || prev == 0 || is_cjk(prev) || is_cjk(c))) word_head = c;
    prev = c;
    i += n;
  }
  lines.emplace_back(start, line.size());
  return lines;
}

std::string_view breakable_matrix_rows(std::string_view line, std::string& storage) {
  if (line.find("], [") == std::string_view::npos) return line;
  storage.clear();
  bool split = false;
  for (std::size_t i = 0; i < line.size();) {
    const std::size_t end = line[i] == '$' ? fig::math_span_end(line, i) : std::string_view::npos;
    if (end == std::string_view::npos) {
      storage += line[i++];
      continue;
    }
    int braces = 0;
    for (std::size_t j = i; j < end; ++j) {
      const char c = line[j];
      braces += c == '{' ? 1 : c == '}' ? -1 : 0;
      if (braces == 0 && j > i && j + 4 < end && line.compare(j, 4, "], [") == 0) {
        storage += "],$ $[";
        j += 3;
        split = true;
        continue;
      }
      storage += c;
    }
    i = end;
  }
  return split ? std::string_view(storage) : line;
}

}  // namespace poslab::app
