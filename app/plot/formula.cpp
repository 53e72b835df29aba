// [SECTION] Index
// - UTF-8 and the classes of characters (ink, spacing)
// - Finding formulas in a text
// - Parsing
// - Writing a formula back as plain text
// - Layout
// - Drawing
// - A line of words and formulas

#include "app/plot/formula.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>
#include <utility>

#include "app/common/fonts.hpp"
#include "app/common/utf8.hpp"

namespace poslab::app::fig {

// [SECTION] UTF-8 and the classes of characters

namespace {

using utf8::decode;

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

bool in(std::u32string_view set, char32_t c) { return set.find(c) != std::u32string_view::npos; }

// The ink of a character, in em above and below the baseline: DejaVu Sans's
// glyph extents (cairo_text_extents) grouped and rounded up — x-height letters
// reach 0.561, operators 0.627, ascenders, capitals, digits and brackets 0.768,
// descenders go 0.208 below, brackets 0.132, ideographs (Noto Sans CJK) 0.85
// and 0.08. A character not listed counts as tall with a descender: an
// estimate errs towards more room, never towards touching.
constexpr std::u32string_view kLow = U"acemnorsuvwxz.,;:…⋯=·∼~≈→←↔⇒↦∘≡∝∞αγεϵηικμνοπρσςτυφχψω";
constexpr std::u32string_view kOperator = U"+−-±∓×÷<>≤≥≠∗";
constexpr std::u32string_view kDescender = U"gjpqyQJ,;()[]{}|/\\_⌊⌋⌈⌉⟨⟩‖∥∫∏∑βγζημξρςφϕχψ$@";

double ink_top(char32_t c) {
  if (c == U' ') return 0;
  if (in(kLow, c)) return 0.57;
  if (in(kOperator, c)) return 0.64;
  if (is_cjk(c)) return 0.88;
  if (c < 0x80 || (c >= 0x370 && c <= 0x3FF) || in(U"ℓ∂∇∈′″", c)) return 0.78;
  return 0.84;  // √, arrows, letters of other scripts: more than any Latin glyph
}

double ink_bottom(char32_t c) {
  if (c == U' ') return 0;
  if (in(kDescender, c)) return 0.24;
  if (is_cjk(c)) return 0.10;
  if (c < 0x80 || (c >= 0x370 && c <= 0x3FF) || in(kLow, c) || in(kOperator, c) || in(U"ℓ∂∇∈′″", c)) return 0.02;
  return 0.24;
}

/// How an atom spaces itself from its neighbours (TeX's classes).
enum class Atom { ord, op, bin, rel, open, close, punct, inner, none };

Atom class_of_char(char32_t c) {
  if (in(U"=<>≤≥≈≠→←↔⇒⇐⇔↦∈∉⊂⊆≪≫∝≡∼≃∣:≔", c)) return Atom::rel;
  if (in(U"+−±∓×·∗÷∘∙∩∪⊕⊗⊙∖∧∨", c)) return Atom::bin;
  if (in(U",;", c)) return Atom::punct;
  if (in(U"([{⌊⌈⟨", c)) return Atom::open;
  if (in(U")]}⌋⌉⟩", c)) return Atom::close;
  if (in(U"∑∏∫", c)) return Atom::op;
  return Atom::ord;
}

/// The space TeX puts between atoms of classes a and b, in eighteenths of an
/// em (3 thin, 4 medium, 5 thick); negative: only in text style, none in scripts.
int space_between(Atom a, Atom b) {
  using A = Atom;
  if (a == A::none || b == A::none) return 0;
  // rows: left atom; columns: ord op bin rel open close punct inner
  static constexpr int table[8][8] = {
      {0, 3, -4, -5, 0, 0, 0, -3},      // ord
      {3, 3, 0, -5, 0, 0, 0, -3},       // op
      {-4, -4, 0, 0, -4, 0, 0, -4},     // bin
      {-5, -5, 0, 0, -5, 0, 0, -5},     // rel
      {0, 0, 0, 0, 0, 0, 0, 0},         // open
      {0, 3, -4, -5, 0, 0, 0, -3},      // close
      {-3, -3, 0, -3, -3, -3, -3, -3},  // punct
      {-3, 3, -4, -5, -3, 0, -3, -3},   // inner
  };
  return table[static_cast<int>(a)][static_cast<int>(b)];
}

}  // namespace

double ink_ascent_em(std::string_view utf8) {
  double top = 0;
  for (std::size_t i = 0, n = 1; i < utf8.size(); i += n) top = std::max(top, ink_top(decode(utf8, i, n)));
  return top;
}

double ink_descent_em(std::string_view utf8) {
  double bottom = 0;
  for (std::size_t i = 0, n = 1; i < utf8.size(); i += n) bottom = std::max(bottom, ink_bottom(decode(utf8, i, n)));
  return bottom;
}

// [SECTION] Finding formulas in a text

namespace {
bool escaped(std::string_view text, std::size_t at) { return at > 0 && text[at - 1] == '\\'; }
}  // namespace

std::size_t math_span_end(std::string_view text, std::size_t at) {
  if (at >= text.size() || text[at] != '$' || escaped(text, at)) return std::string_view::npos;
  if (at + 1 >= text.size() || text[at + 1] == ' ' || text[at + 1] == '$' || text[at + 1] == '\n')
    return std::string_view::npos;
  for (std::size_t j = at + 2; j < text.size() && text[j] != '\n'; ++j) {
    if (text[j] != '$' || escaped(text, j)) continue;
    if (text[j - 1] == ' ') continue;
    if (j + 1 < text.size() && text[j + 1] >= '0' && text[j + 1] <= '9') continue;
    return j + 1;
  }
  return std::string_view::npos;
}

bool has_markup(std::string_view text) {
  for (std::size_t at = text.find('$'); at != std::string_view::npos; at = text.find('$', at + 1))
    if (escaped(text, at) || math_span_end(text, at) != std::string_view::npos) return true;
  return false;
}

std::vector<RichPiece> rich_pieces(std::string_view text) {
  std::vector<RichPiece> out;
  std::string words;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '$') {
      words += '$';
      i += 2;
      continue;
    }
    const std::size_t end = text[i] == '$' ? math_span_end(text, i) : std::string_view::npos;
    if (end == std::string_view::npos) {
      words += text[i++];
      continue;
    }
    if (!words.empty()) out.push_back({std::move(words), false});
    words.clear();
    out.push_back({std::string(text.substr(i + 1, end - i - 2)), true});
    i = end;
  }
  if (!words.empty()) out.push_back({std::move(words), false});
  return out;
}

// [SECTION] Parsing

namespace {

struct Symbol {
  std::string_view name, text;
  Atom atom;
};

// The commands that stand for one character (or a function's name).
constexpr Symbol kSymbols[] = {
    // Greek
    {"alpha", "α", Atom::ord}, {"beta", "β", Atom::ord}, {"gamma", "γ", Atom::ord}, {"delta", "δ", Atom::ord},
    {"epsilon", "ϵ", Atom::ord}, {"varepsilon", "ε", Atom::ord}, {"zeta", "ζ", Atom::ord}, {"eta", "η", Atom::ord},
    {"theta", "θ", Atom::ord}, {"vartheta", "ϑ", Atom::ord}, {"iota", "ι", Atom::ord}, {"kappa", "κ", Atom::ord},
    {"lambda", "λ", Atom::ord}, {"mu", "μ", Atom::ord}, {"nu", "ν", Atom::ord}, {"xi", "ξ", Atom::ord},
    {"pi", "π", Atom::ord}, {"varpi", "ϖ", Atom::ord}, {"rho", "ρ", Atom::ord}, {"varrho", "ϱ", Atom::ord},
    {"sigma", "σ", Atom::ord}, {"varsigma", "ς", Atom::ord}, {"tau", "τ", Atom::ord}, {"upsilon", "υ", Atom::ord},
    {"phi", "ϕ", Atom::ord}, {"varphi", "φ", Atom::ord}, {"chi", "χ", Atom::ord}, {"psi", "ψ", Atom::ord},
    {"omega", "ω", Atom::ord}, {"Gamma", "Γ", Atom::ord}, {"Delta", "Δ", Atom::ord}, {"Theta", "Θ", Atom::ord},
    {"Lambda", "Λ", Atom::ord}, {"Xi", "Ξ", Atom::ord}, {"Pi", "Π", Atom::ord}, {"Sigma", "Σ", Atom::ord},
    {"Upsilon", "Υ", Atom::ord}, {"Phi", "Φ", Atom::ord}, {"Psi", "Ψ", Atom::ord}, {"Omega", "Ω", Atom::ord},
    // letters and signs
    {"infty", "∞", Atom::ord}, {"ell", "ℓ", Atom::ord}, {"partial", "∂", Atom::ord}, {"nabla", "∇", Atom::ord},
    {"prime", "′", Atom::ord}, {"ldots", "…", Atom::ord}, {"dots", "…", Atom::ord}, {"cdots", "⋯", Atom::ord},
    {"forall", "∀", Atom::ord}, {"exists", "∃", Atom::ord}, {"emptyset", "∅", Atom::ord}, {"neg", "¬", Atom::ord},
    {"angle", "∠", Atom::ord}, {"degree", "°", Atom::ord}, {"hbar", "ℏ", Atom::ord}, {"top", "⊤", Atom::ord},
    {"star", "⋆", Atom::ord}, {"dagger", "†", Atom::ord}, {"|", "‖", Atom::ord}, {"lVert", "‖", Atom::ord},
    {"rVert", "‖", Atom::ord}, {"Vert", "‖", Atom::ord}, {"vert", "|", Atom::ord}, {"lvert", "|", Atom::ord},
    {"rvert", "|", Atom::ord}, {"#", "#", Atom::ord}, {"%", "%", Atom::ord}, {"&", "&", Atom::ord},
    {"$", "$", Atom::ord}, {"_", "_", Atom::ord},
    // delimiters
    {"{", "{", Atom::open}, {"}", "}", Atom::close}, {"lbrace", "{", Atom::open}, {"rbrace", "}", Atom::close},
    {"lfloor", "⌊", Atom::open}, {"rfloor", "⌋", Atom::close}, {"lceil", "⌈", Atom::open}, {"rceil", "⌉", Atom::close},
    {"langle", "⟨", Atom::open}, {"rangle", "⟩", Atom::close},
    // binary operators
    {"pm", "±", Atom::bin}, {"mp", "∓", Atom::bin}, {"times", "×", Atom::bin}, {"cdot", "·", Atom::bin},
    {"div", "÷", Atom::bin}, {"ast", "∗", Atom::bin}, {"circ", "∘", Atom::bin}, {"bullet", "∙", Atom::bin},
    {"cap", "∩", Atom::bin}, {"cup", "∪", Atom::bin}, {"oplus", "⊕", Atom::bin}, {"otimes", "⊗", Atom::bin},
    {"odot", "⊙", Atom::bin}, {"setminus", "∖", Atom::bin}, {"wedge", "∧", Atom::bin}, {"vee", "∨", Atom::bin},
    // relations
    {"le", "≤", Atom::rel}, {"leq", "≤", Atom::rel}, {"ge", "≥", Atom::rel}, {"geq", "≥", Atom::rel},
    {"ne", "≠", Atom::rel}, {"neq", "≠", Atom::rel}, {"approx", "≈", Atom::rel}, {"sim", "∼", Atom::rel},
    {"simeq", "≃", Atom::rel}, {"equiv", "≡", Atom::rel}, {"propto", "∝", Atom::rel}, {"to", "→", Atom::rel},
    {"rightarrow", "→", Atom::rel}, {"leftarrow", "←", Atom::rel}, {"gets", "←", Atom::rel},
    {"leftrightarrow", "↔", Atom::rel}, {"Rightarrow", "⇒", Atom::rel}, {"Leftarrow", "⇐", Atom::rel},
    {"iff", "⇔", Atom::rel}, {"mapsto", "↦", Atom::rel}, {"in", "∈", Atom::rel}, {"notin", "∉", Atom::rel},
    {"subset", "⊂", Atom::rel}, {"subseteq", "⊆", Atom::rel}, {"ll", "≪", Atom::rel}, {"gg", "≫", Atom::rel},
    {"perp", "⊥", Atom::rel}, {"parallel", "∥", Atom::rel}, {"mid", "∣", Atom::rel}, {"coloneqq", "≔", Atom::rel},
    {"colon", ":", Atom::punct},
    // big operators and functions
    {"sum", "∑", Atom::op}, {"prod", "∏", Atom::op}, {"int", "∫", Atom::op},
    {"ln", "ln", Atom::op}, {"log", "log", Atom::op}, {"exp", "exp", Atom::op}, {"sin", "sin", Atom::op},
    {"cos", "cos", Atom::op}, {"tan", "tan", Atom::op}, {"sinh", "sinh", Atom::op}, {"cosh", "cosh", Atom::op},
    {"tanh", "tanh", Atom::op}, {"arcsin", "arcsin", Atom::op}, {"arccos", "arccos", Atom::op},
    {"arctan", "arctan", Atom::op}, {"max", "max", Atom::op}, {"min", "min", Atom::op}, {"arg", "arg", Atom::op},
    {"lim", "lim", Atom::op}, {"det", "det", Atom::op}, {"dim", "dim", Atom::op}, {"sup", "sup", Atom::op},
    {"inf", "inf", Atom::op}, {"gcd", "gcd", Atom::op}, {"deg", "deg", Atom::op}, {"Pr", "Pr", Atom::op},
};

struct Spacing {
  std::string_view name;
  double em;
};
constexpr Spacing kSpaces[] = {{",", 3.0 / 18}, {"thinspace", 3.0 / 18}, {":", 4.0 / 18}, {">", 4.0 / 18},
                               {";", 5.0 / 18}, {"!", -3.0 / 18}, {"quad", 1.0}, {"qquad", 2.0}};

/// Delimiters \left and \right take.
constexpr Symbol kDelimiters[] = {{"(", "(", Atom::open},     {")", ")", Atom::close},     {"[", "[", Atom::open},
                                  {"]", "]", Atom::close},     {"|", "|", Atom::ord},       {".", "", Atom::ord},
                                  {"\\|", "‖", Atom::ord},     {"\\{", "{", Atom::open},    {"\\}", "}", Atom::close},
                                  {"\\lvert", "|", Atom::ord}, {"\\rvert", "|", Atom::ord}, {"\\lVert", "‖", Atom::ord},
                                  {"\\rVert", "‖", Atom::ord}, {"\\vert", "|", Atom::ord},  {"\\lfloor", "⌊", Atom::open},
                                  {"\\rfloor", "⌋", Atom::close}, {"\\lceil", "⌈", Atom::open}, {"\\rceil", "⌉", Atom::close},
                                  {"\\langle", "⟨", Atom::open},  {"\\rangle", "⟩", Atom::close}};

/// A node's class (stored in MathNode::em for glyph atoms would be a hack:
/// the parser keeps it beside each node instead).
struct Parsed {
  MathNode node;
  Atom atom = Atom::ord;
};

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  ParsedFormula run() {
    ParsedFormula out;
    try {
      out.root = row(Stop::end, 0);
    } catch (const Failure& f) {
      out.error = FormulaError{f.offset, f.message};
      out.root = MathNode{};
    }
    return out;
  }

 private:
  enum class Stop { end, brace, right, bracket };
  struct Failure {
    std::size_t offset;
    std::string message;
  };
  [[noreturn]] void fail(std::size_t at, std::string message) { throw Failure{at, std::move(message)}; }

  bool at_command(std::string_view name) const {
    return s_.substr(pos_).starts_with(name) &&
           (pos_ + name.size() >= s_.size() || !std::isalpha(static_cast<unsigned char>(s_[pos_ + name.size()])));
  }

  /// Spaces in a formula are ignored, as in LaTeX: ASCII ones and the
  /// no-break and thin spaces a plain-text formula was written with.
  void skip_spaces() {
    while (pos_ < s_.size()) {
      std::size_t n = 1;
      const char32_t c = decode(s_, pos_, n);
      if (!in(U" \t\n\u00A0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F", c)) return;
      pos_ += n;
    }
  }

  /// Items up to the end, a '}', a \right or a ']' (per `stop`), as a row
  /// whose kids carry their classes in `classes_` order.
  MathNode row(Stop stop, std::size_t opened_at) {
    if (++depth_ > 64) fail(pos_, "nested too deeply");
    std::vector<Parsed> items;
    for (;;) {
      skip_spaces();
      if (pos_ >= s_.size()) {
        if (stop == Stop::brace) fail(opened_at, "a { without its }");
        if (stop == Stop::right) fail(opened_at, "\\left without \\right");
        if (stop == Stop::bracket) fail(opened_at, "a [ without its ]");
        break;
      }
      const char ch = s_[pos_];
      if (ch == '}') {
        if (stop == Stop::brace) break;
        fail(pos_, "a } without its {");
      }
      if (ch == ']' && stop == Stop::bracket) break;
      if (at_command("\\right")) {
        if (stop == Stop::right) break;
        fail(pos_, "\\right without \\left");
      }
      if (ch == '^' || ch == '_') {
        script(items, ch == '^');
        continue;
      }
      if (ch == '\'') {
        ++pos_;
        std::string primes = "′";
        if (pos_ < s_.size() && s_[pos_] == '\'') primes = "″", ++pos_;
        items.push_back({glyph(primes), Atom::ord});
        continue;
      }
      atom(items);
    }
    --depth_;
    return finish_row(std::move(items));
  }

  static MathNode glyph(std::string text) {
    MathNode n;
    n.kind = MathNode::Kind::glyphs;
    n.text = std::move(text);
    return n;
  }

  static MathNode space(double em) {
    MathNode n;
    n.kind = MathNode::Kind::space;
    n.em = em;
    return n;
  }

  /// Classes decided (a binary operator with nothing to bind becomes an
  /// ordinary atom: the minus of "−2i/d"), runs of ordinary characters joined
  /// (measured as one, with the font's kerning), and the spaces between
  /// atoms inserted — TeX's rules.
  MathNode finish_row(std::vector<Parsed> items) {
    std::vector<std::size_t> atoms;  // indices of the items that are not spaces
    for (std::size_t i = 0; i < items.size(); ++i)
      if (items[i].atom != Atom::none) atoms.push_back(i);
    for (std::size_t k = 0; k < atoms.size(); ++k) {
      Parsed& p = items[atoms[k]];
      if (p.atom != Atom::bin) continue;
      const Atom before = k == 0 ? Atom::none : items[atoms[k - 1]].atom;
      const Atom after = k + 1 < atoms.size() ? items[atoms[k + 1]].atom : Atom::none;
      if (before == Atom::none || before == Atom::bin || before == Atom::op || before == Atom::rel ||
          before == Atom::open || before == Atom::punct || after == Atom::none || after == Atom::rel ||
          after == Atom::close || after == Atom::punct)
        p.atom = Atom::ord;
    }
    MathNode r;
    Atom prev = Atom::none;
    for (Parsed& p : items) {
      if (p.atom == Atom::none) {  // an explicit space
        r.kids.push_back(std::move(p.node));
        continue;
      }
      const int sp = space_between(prev, p.atom);
      if (sp != 0) {
        MathNode gap = space(std::abs(sp) / 18.0);
        gap.text_style_only = sp < 0;
        r.kids.push_back(std::move(gap));
      }
      const bool joins = p.atom == Atom::ord && p.node.kind == MathNode::Kind::glyphs && !r.kids.empty() &&
                         prev == Atom::ord && r.kids.back().kind == MathNode::Kind::glyphs &&
                         r.kids.back().bold == p.node.bold;
      if (joins) r.kids.back().text += p.node.text;
      else r.kids.push_back(std::move(p.node));
      prev = p.atom;
    }
    return r;
  }

  /// A superscript or subscript on the last atom of `items`.
  void script(std::vector<Parsed>& items, bool sup) {
    const std::size_t at = pos_++;
    skip_spaces();
    if (pos_ >= s_.size() || s_[pos_] == '}' || s_[pos_] == '^' || s_[pos_] == '_')
      fail(at, std::string(sup ? "^" : "_") + " without what it raises or lowers");
    MathNode arg = argument();
    if (items.empty() || items.back().atom == Atom::none) items.push_back({MathNode{}, Atom::ord});  // "^2" alone
    Parsed& last = items.back();
    if (last.node.kind != MathNode::Kind::scripts) {
      MathNode s;
      s.kind = MathNode::Kind::scripts;
      s.kids = {std::move(last.node), MathNode{}, MathNode{}};
      last.node = std::move(s);
    }
    MathNode& slot = last.node.kids[sup ? 1 : 2];
    if (!slot.kids.empty() || slot.kind != MathNode::Kind::row)
      fail(at, sup ? "a second superscript (write x^{ab}, or {x^a}^b)" : "a second subscript");
    slot = std::move(arg);
    if (slot.kids.empty()) slot.kids.push_back(space(0));  // x^{} is there, empty
  }

  /// A command's or a script's argument: a {group}, a command, or one character.
  MathNode argument() {
    skip_spaces();
    if (pos_ >= s_.size() || s_[pos_] == '}' || s_[pos_] == '^' || s_[pos_] == '_')
      fail(pos_, "an argument is missing");
    if (s_[pos_] == '{') {
      const std::size_t open = pos_++;
      MathNode g = row(Stop::brace, open);
      ++pos_;  // '}'
      return g;
    }
    std::vector<Parsed> one;
    atom(one);
    if (one.size() != 1) fail(pos_, "an argument is missing");
    return finish_row(std::move(one));
  }

  /// One atom (a character, a command, a group) appended to `items`.
  void atom(std::vector<Parsed>& items) {
    const char ch = s_[pos_];
    if (ch == '{') {
      const std::size_t open = pos_++;
      MathNode g = row(Stop::brace, open);
      ++pos_;
      items.push_back({std::move(g), Atom::ord});
      return;
    }
    if (ch == '\\') {
      command(items);
      return;
    }
    if (ch == '&' || ch == '#') fail(pos_, std::string("a ") + ch + " means nothing in a formula (write \\" + ch + ")");
    if (ch == '~') {
      ++pos_;
      MathNode sp = space(0);
      sp.text = " ";
      items.push_back({std::move(sp), Atom::none});
      return;
    }
    std::size_t n = 1;
    char32_t c = decode(s_, pos_, n);
    const std::size_t at = pos_;
    pos_ += n;
    if (c == U'-') c = U'−';
    if (c == U'*') c = U'∗';
    Atom a = class_of_char(c);
    // A comma between digits is part of the number: "32,768", not "32, 768".
    if (c == U',' && at > 0 && std::isdigit(static_cast<unsigned char>(s_[at - 1])) && pos_ < s_.size() &&
        std::isdigit(static_cast<unsigned char>(s_[pos_])))
      a = Atom::ord;
    std::string text;
    append_utf8(text, c);
    items.push_back({glyph(std::move(text)), a});
  }

  /// The name after a backslash: letters, or one other character.
  std::string_view command_name() {
    const std::size_t start = ++pos_;
    if (pos_ >= s_.size()) fail(start - 1, "a \\ with no command after it");
    if (!std::isalpha(static_cast<unsigned char>(s_[pos_]))) {
      std::size_t n = 1;
      decode(s_, pos_, n);
      pos_ += n;
      return s_.substr(start, n);
    }
    while (pos_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    return s_.substr(start, pos_ - start);
  }

  void command(std::vector<Parsed>& items) {
    const std::size_t at = pos_;
    const std::string_view name = command_name();
    for (const Symbol& s : kSymbols)
      if (s.name == name) {
        items.push_back({glyph(std::string(s.text)), s.atom});
        return;
      }
    for (const Spacing& s : kSpaces)
      if (s.name == name) {
        items.push_back({space(s.em), Atom::none});
        return;
      }
    if (name == " ") {
      MathNode sp = space(0);
      sp.text = " ";
      items.push_back({std::move(sp), Atom::none});
      return;
    }
    if (name == "frac" || name == "dfrac" || name == "tfrac") {
      MathNode f;
      f.kind = MathNode::Kind::frac;
      f.frac_size = name == "dfrac" ? MathNode::FracSize::display
                    : name == "tfrac" ? MathNode::FracSize::script
                                      : MathNode::FracSize::text;
      f.kids.push_back(argument());
      f.kids.push_back(argument());
      items.push_back({std::move(f), Atom::inner});
      return;
    }
    if (name == "sqrt") {
      MathNode r;
      r.kind = MathNode::Kind::sqrt;
      skip_spaces();
      MathNode index;
      bool has_index = false;
      if (pos_ < s_.size() && s_[pos_] == '[') {
        const std::size_t open = pos_++;
        index = row(Stop::bracket, open);
        ++pos_;  // ']'
        has_index = true;
      }
      r.kids.push_back(argument());
      if (has_index) r.kids.push_back(std::move(index));
      items.push_back({std::move(r), Atom::ord});
      return;
    }
    if (name == "left") {
      MathNode f;
      f.kind = MathNode::Kind::fenced;
      f.open = delimiter(at);
      f.kids.push_back(row(Stop::right, at));
      command_name();  // \right
      f.close = delimiter(at);
      items.push_back({std::move(f), Atom::inner});
      return;
    }
    if (name == "text" || name == "textrm" || name == "operatorname") {
      skip_spaces();
      if (pos_ >= s_.size() || s_[pos_] != '{') fail(at, "\\" + std::string(name) + " needs {…}");
      const std::size_t open = pos_++;
      std::string words;
      while (pos_ < s_.size() && s_[pos_] != '}') {
        if (s_[pos_] == '{') fail(pos_, "braces inside \\" + std::string(name) + "{…}");
        if (s_[pos_] == '\\' && pos_ + 1 < s_.size() && in(U"{}$%_&#\\", static_cast<unsigned char>(s_[pos_ + 1]))) ++pos_;
        words += s_[pos_++];
      }
      if (pos_ >= s_.size()) fail(open, "a { without its }");
      ++pos_;
      items.push_back({glyph(std::move(words)), name == "operatorname" ? Atom::op : Atom::ord});
      return;
    }
    if (name == "mathrm" || name == "mathbf" || name == "boldsymbol" || name == "mathit" || name == "mathsf") {
      MathNode g = argument();
      if (name == "mathbf" || name == "boldsymbol") set_bold(g);
      items.push_back({std::move(g), Atom::ord});
      return;
    }
    if (name == "right") fail(at, "\\right without \\left");
    if (name == "\\") fail(at, "a formula is one line (\\\\ breaks none)");
    fail(at, "unknown command \\" + std::string(name));
  }

  static void set_bold(MathNode& n) {
    n.bold = true;
    for (MathNode& k : n.kids) set_bold(k);
  }

  /// The delimiter after \left or \right.
  std::string delimiter(std::size_t command_at) {
    skip_spaces();
    for (const Symbol& d : kDelimiters) {
      if (!s_.substr(pos_).starts_with(d.name)) continue;
      if (d.name.size() > 2 && pos_ + d.name.size() < s_.size() &&
          std::isalpha(static_cast<unsigned char>(s_[pos_ + d.name.size()])))
        continue;
      pos_ += d.name.size();
      return std::string(d.text);
    }
    fail(command_at, "\\left and \\right take ( ) [ ] | \\| \\{ \\} or .");
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

ParsedFormula parse_formula(std::string_view source) { return Parser(source).run(); }

std::vector<std::string_view> formula_symbol_commands() {
  std::vector<std::string_view> out;
  for (const Symbol& s : kSymbols) out.push_back(s.name);
  return out;
}

// [SECTION] Writing a formula back as plain text

namespace {

/// The Unicode superscript (sup) or subscript form of c, or 0. Only forms the
/// GUI's font atlas bakes (Latin-1, U+1D62–1D6A, U+2070–209F).
char32_t script_form(char32_t c, bool sup) {
  if (sup) {
    switch (c) {
      case U'0': return U'⁰';
      case U'1': return U'¹';
      case U'2': return U'²';
      case U'3': return U'³';
      case U'+': return U'⁺';
      case U'−': return U'⁻';
      case U'=': return U'⁼';
      case U'(': return U'⁽';
      case U')': return U'⁾';
      case U'n': return U'ⁿ';
      case U'i': return U'ⁱ';
      default: return c >= U'4' && c <= U'9' ? U'⁴' + (c - U'4') : 0;
    }
  }
  if (c >= U'0' && c <= U'9') return U'₀' + (c - U'0');
  static constexpr std::pair<char32_t, char32_t> subs[] = {
      {U'+', U'₊'}, {U'−', U'₋'}, {U'=', U'₌'}, {U'(', U'₍'}, {U')', U'₎'}, {U'a', U'ₐ'}, {U'e', U'ₑ'},
      {U'o', U'ₒ'}, {U'x', U'ₓ'}, {U'h', U'ₕ'}, {U'k', U'ₖ'}, {U'l', U'ₗ'}, {U'm', U'ₘ'}, {U'n', U'ₙ'},
      {U'p', U'ₚ'}, {U's', U'ₛ'}, {U't', U'ₜ'}, {U'i', U'ᵢ'}, {U'r', U'ᵣ'}, {U'u', U'ᵤ'}, {U'v', U'ᵥ'},
      {U'β', U'ᵦ'}, {U'γ', U'ᵧ'}, {U'ρ', U'ᵨ'}, {U'φ', U'ᵩ'}, {U'χ', U'ᵪ'}};
  for (const auto& [from, to] : subs)
    if (from == c) return to;
  return 0;
}

/// `plain` in script forms, or "" when a character has none.
std::string in_script_forms(std::string_view plain, bool sup) {
  std::string out;
  for (std::size_t i = 0, n = 1; i < plain.size(); i += n) {
    const char32_t f = script_form(decode(plain, i, n), sup);
    if (f == 0) return {};
    append_utf8(out, f);
  }
  return out;
}

/// True when `plain` reads as one word: no spaces, no slash, no operator
/// after its first character ("−2", "f(x)", "θᵢ").
bool one_word(std::string_view plain) {
  for (std::size_t i = 0, n = 1; i < plain.size(); i += n) {
    const char32_t c = decode(plain, i, n);
    const Atom a = class_of_char(c);
    if (c == U' ' || c == U'/' || (i > 0 && a != Atom::ord && a != Atom::close && a != Atom::open))
      return false;
  }
  return true;
}

bool single_character(std::string_view plain) {
  std::size_t n = 1;
  return !plain.empty() && (decode(plain, 0, n), n == plain.size());
}

std::string grouped(const std::string& plain) { return one_word(plain) ? plain : "(" + plain + ")"; }

void write_plain(const MathNode& n, std::string& out, bool script) {
  using K = MathNode::Kind;
  switch (n.kind) {
    case K::row:
      for (const MathNode& k : n.kids) write_plain(k, out, script);
      return;
    case K::glyphs: out += n.text; return;
    case K::space:
      if (script && n.text_style_only) return;  // scripts set no medium or thick spaces
      // A thin space after "/" or "(" (before a function's name) reads as none.
      if ((n.em > 0.16 || !n.text.empty()) && !out.empty() && out.back() != ' ' && out.back() != '/' && out.back() != '(')
        out += ' ';
      return;
    case K::scripts: {
      write_plain(n.kids[0], out, script);
      for (int k : {2, 1}) {  // TeX's order: a subscript, then a superscript
        const MathNode& s = n.kids[static_cast<std::size_t>(k)];
        if (s.kids.empty()) continue;
        std::string inner;
        write_plain(s, inner, true);
        const std::string forms = in_script_forms(inner, k == 1);
        if (!forms.empty()) out += forms;
        // A word as a subscript reads as a name (β_fast, f_low), as in code: no
        // parentheses; anything else is grouped (b^(−2i/d), x_(i+1)).
        else if (k == 2 && std::all_of(inner.begin(), inner.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; }))
          out += "_" + inner;
        else out += (k == 1 ? "^" : "_") + (single_character(inner) ? inner : "(" + inner + ")");
      }
      return;
    }
    case K::frac: {
      std::string num, den;
      write_plain(n.kids[0], num, true);
      write_plain(n.kids[1], den, true);
      out += grouped(num) + "/" + grouped(den);
      return;
    }
    case K::sqrt: {
      std::string body;
      write_plain(n.kids[0], body, script);
      if (n.kids.size() > 1) {
        std::string index;
        write_plain(n.kids[1], index, true);
        out += index == "3" ? "∛" : index == "4" ? "∜" : index + "√";
        if (index == "3" || index == "4") {
          out += grouped(body);
          return;
        }
      } else {
        out += "√";
      }
      out += grouped(body);
      return;
    }
    case K::fenced:
      out += n.open;
      write_plain(n.kids[0], out, script);
      out += n.close;
      return;
  }
}

}  // namespace

std::string formula_plain(const MathNode& node) {
  std::string out;
  write_plain(node, out, false);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string plain_text(std::string_view text) {
  if (!has_markup(text)) return std::string(text);
  std::string out;
  for (const RichPiece& p : rich_pieces(text)) {
    if (!p.math) {
      out += p.text;
      continue;
    }
    const ParsedFormula f = parse_formula(p.text);
    out += f.error ? "$" + p.text + "$" : formula_plain(f.root);
  }
  return out;
}

// [SECTION] Layout

namespace {

// Sizes, as shares of the text's size: a script, a script's script (the
// floor: nothing is set smaller), a fraction's parts in running text.
constexpr double kScript = 0.7, kScriptScript = 0.55, kFractionPart = 0.86;

struct Ctx {
  Painter* painter;
  double base;      ///< the text's size
  double size;      ///< this node's size
  int level = 0;    ///< 0 text, 1 script, 2 script of a script (spacing, the next script's size)
  bool cramped = false;  ///< under a bar or in a subscript: superscripts sit lower
  bool bold = false;
};

Ctx scripted(const Ctx& c, bool cramped) {
  Ctx s = c;
  s.size = std::max(c.base * kScriptScript, c.size * kScript);
  s.level = std::min(2, c.level + 1);
  s.cramped = cramped;
  return s;
}

void append(FormulaBox& into, FormulaBox&& part, double dx, double dy) {
  for (FormulaItem& it : part.items) {
    it.at.x += dx;
    it.at.y += dy;
    for (Point& p : it.points) p.x += dx, p.y += dy;
    into.items.push_back(std::move(it));
  }
}

FormulaBox lay(const MathNode& n, const Ctx& c);

FormulaBox lay_glyphs(const MathNode& n, const Ctx& c) {
  FormulaBox b;
  const bool bold = c.bold || n.bold;
  b.advance = c.painter->measure(n.text, TextStyle{c.size, bold, {}}).w;
  b.ascent = ink_ascent_em(n.text) * c.size;
  b.descent = ink_descent_em(n.text) * c.size;
  FormulaItem it;
  it.kind = FormulaItem::Kind::text;
  it.text = n.text;
  it.size = c.size;
  it.bold = bold;
  b.items.push_back(std::move(it));
  return b;
}

FormulaBox lay_row(const MathNode& n, const Ctx& c) {
  // In a script, the medium and thick spaces go (TeX sets them in text
  // only), and the runs they separated become one ("d−2" of s^{d-2}).
  const MathNode* kids = &n;
  MathNode joined;
  if (c.level > 0) {
    for (const MathNode& k : n.kids) {
      if (k.kind == MathNode::Kind::space && k.text_style_only) continue;
      const bool joins = k.kind == MathNode::Kind::glyphs && !joined.kids.empty() &&
                         joined.kids.back().kind == MathNode::Kind::glyphs && joined.kids.back().bold == k.bold;
      if (joins) joined.kids.back().text += k.text;
      else joined.kids.push_back(k);
    }
    kids = &joined;
  }
  FormulaBox b;
  for (const MathNode& k : kids->kids) {
    if (k.kind == MathNode::Kind::space) {
      if (k.text_style_only && c.level > 0) continue;
      b.advance += k.text == " " ? c.painter->measure(" ", TextStyle{c.size, c.bold, {}}).w : k.em * c.size;
      continue;
    }
    FormulaBox part = lay(k, c);
    b.ascent = std::max(b.ascent, part.ascent);
    b.descent = std::max(b.descent, part.descent);
    const double x = b.advance;
    b.advance += part.advance;
    append(b, std::move(part), x, 0);
  }
  return b;
}

/// True for a base TeX treats as a character: its scripts sit at fixed heights.
bool char_like(const MathNode& n) {
  if (n.kind == MathNode::Kind::glyphs) return true;
  return n.kind == MathNode::Kind::row && n.kids.size() == 1 && n.kids[0].kind == MathNode::Kind::glyphs;
}

FormulaBox lay_scripts(const MathNode& n, const Ctx& c) {
  const double x = c.size;  // the base's em
  FormulaBox b = lay(n.kids[0], c);
  const bool has_sup = !n.kids[1].kids.empty(), has_sub = !n.kids[2].kids.empty();
  FormulaBox sup, sub;
  if (has_sup) sup = lay(n.kids[1], scripted(c, c.cramped));
  if (has_sub) sub = lay(n.kids[2], scripted(c, true));
  const double script_size = std::max(c.base * kScriptScript, c.size * kScript);
  const bool simple = char_like(n.kids[0]);
  // Superscript: raised 0.42 em (0.33 when cramped), or to just under the
  // top of a tall base; its bottom stays a quarter x-height above the baseline.
  double u = simple ? 0 : b.ascent - 0.386 * script_size;
  double v = simple ? 0 : b.descent + 0.05 * script_size;
  if (has_sup) u = std::max({u, (c.cramped ? 0.33 : 0.42) * x, sup.descent + 0.14 * x});
  if (has_sub) v = std::max({v, (has_sup ? 0.24 : 0.18) * x, sub.ascent - 0.8 * 0.55 * x});
  if (has_sup && has_sub) {
    const double gap = (u - sup.descent) - (sub.ascent - v);
    if (gap < 0.16 * x) v += 0.16 * x - gap;
  }
  const double at = b.advance + 0.02 * x;
  double width = 0;
  if (has_sup) {
    b.ascent = std::max(b.ascent, u + sup.ascent);
    b.descent = std::max(b.descent, sup.descent - u);
    width = std::max(width, sup.advance);
    append(b, std::move(sup), at, -u);
  }
  if (has_sub) {
    b.ascent = std::max(b.ascent, sub.ascent - v);
    b.descent = std::max(b.descent, v + sub.descent);
    width = std::max(width, sub.advance);
    append(b, std::move(sub), at, v);
  }
  b.advance = at + width + 0.05 * x;
  return b;
}

FormulaItem rule(double x, double y, double w, double h) {
  FormulaItem it;
  it.kind = FormulaItem::Kind::rule;
  it.at = {x, y};
  it.w = w;
  it.h = h;
  return it;
}

FormulaItem stroke(std::vector<Point> points, double width) {
  FormulaItem it;
  it.kind = FormulaItem::Kind::stroke;
  it.points = std::move(points);
  it.width = width;
  return it;
}

double rule_thickness(const Ctx& c) { return kRuleEm * c.size * (c.bold ? 1.5 : 1.0); }

FormulaBox lay_frac(const MathNode& n, const Ctx& c) {
  const double x = c.size, t = rule_thickness(c), axis = kMathAxisEm * x;
  Ctx part = c;
  switch (n.frac_size) {
    case MathNode::FracSize::display: break;
    case MathNode::FracSize::script: part = scripted(c, false); break;
    case MathNode::FracSize::text:
      if (c.level == 0) {
        part.size = c.size * kFractionPart;
        part.level = 1;
      } else {
        part = scripted(c, false);
        part.level = 2;
      }
      break;
  }
  Ctx den_ctx = part;
  den_ctx.cramped = true;
  FormulaBox num = lay(n.kids[0], part), den = lay(n.kids[1], den_ctx);
  const double clear = 0.1 * x;
  const double u = axis + t / 2 + clear + num.descent;  // numerator's baseline above ours
  const double v = den.ascent - axis + t / 2 + clear;   // denominator's baseline below ours
  const double pad = 0.12 * x, over = 0.06 * x;
  const double w = std::max(num.advance, den.advance) + 2 * over;
  FormulaBox b;
  b.advance = w + 2 * pad;
  b.ascent = u + num.ascent;
  b.descent = v + den.descent;
  const double num_x = pad + (w - num.advance) / 2, den_x = pad + (w - den.advance) / 2;
  append(b, std::move(num), num_x, -u);
  append(b, std::move(den), den_x, v);
  b.items.push_back(rule(pad, -axis - t / 2, w, t));
  return b;
}

FormulaBox lay_sqrt(const MathNode& n, const Ctx& c) {
  const double x = c.size, t = rule_thickness(c) * 1.15;
  Ctx inner = c;
  inner.cramped = true;
  FormulaBox body = lay(n.kids[0], inner);
  body.ascent = std::max(body.ascent, 0.57 * x);  // a root of "x" is as tall as one of "1"
  const double gap = 0.13 * x;
  const double top = -(body.ascent + gap + t / 2);        // the bar's centre line, y down
  const double bottom = std::max(body.descent, 0.0) + 0.04 * x;  // the sign's lowest point
  const double h = bottom - top;
  const double ws = std::min(0.42 * x + 0.12 * h, 0.9 * x);  // the sign's width
  double shift = t / 2;  // the stroke's half width: its ink starts at the box's left edge
  FormulaBox index;
  const bool has_index = n.kids.size() > 1;
  if (has_index) {
    Ctx ic = c;
    ic.size = std::max(c.base * kScriptScript, c.size * kScriptScript);
    ic.level = 2;
    index = lay(n.kids[1], ic);
    shift = std::max(t / 2, index.advance - 0.5 * ws);
  }
  const double body_x = shift + ws + 0.08 * x;
  const double bar_end = body_x + body.advance + 0.06 * x;
  FormulaBox b;
  b.advance = bar_end + 0.06 * x;
  b.ascent = -top + t / 2;
  b.descent = bottom + t / 2;
  b.items.push_back(stroke({{shift, bottom - 0.42 * h},
                            {shift + 0.2 * ws, bottom - 0.5 * h},
                            {shift + 0.5 * ws, bottom},
                            {shift + ws, top},
                            {bar_end, top}},
                           t));
  if (has_index) {
    const double index_bottom = bottom - 0.55 * h;  // y down: above the tick
    b.ascent = std::max(b.ascent, -(index_bottom - index.descent) + index.ascent);
    append(b, std::move(index), shift + 0.5 * ws - index.advance, index_bottom - index.descent);
  }
  append(b, std::move(body), body_x, 0);
  return b;
}

/// A delimiter `d` around a box reaching `up` above and `down` below the
/// baseline: the font's glyph when that is tall enough, else drawn.
/// `left`: the opening side. Appends it at x and returns its width.
double delimiter(FormulaBox& b, const std::string& d, bool left, double up, double down, double x0, const Ctx& c) {
  const double x = c.size, axis = kMathAxisEm * x;
  if (d.empty()) return 0.12 * x;  // \left. : the null delimiter's space
  const double e = std::max(up - axis, down + axis);  // half the height needed, about the axis
  if (e <= 0.47 * x) {
    MathNode g;
    g.kind = MathNode::Kind::glyphs;
    g.text = d;
    FormulaBox gb = lay_glyphs(g, c);
    const double w = gb.advance;
    b.ascent = std::max(b.ascent, gb.ascent);
    b.descent = std::max(b.descent, gb.descent);
    append(b, std::move(gb), x0, 0);
    return w;
  }
  const double half = e + 0.06 * x;
  const double top = -axis - half, bot = -axis + half, mid = -axis;
  const double w = std::min(0.32 * x + 0.06 * half, 0.7 * x);
  const double lw = 0.08 * x * (c.bold ? 1.4 : 1.0);
  b.ascent = std::max(b.ascent, -top + lw);
  b.descent = std::max(b.descent, bot + lw);
  // Shapes drawn for the opening side, mirrored for the closing one.
  std::vector<Point> pts;
  if (d == "(" || d == ")") {
    // A quadratic Bézier from the top right, bulging left, to the bottom right.
    const Point p0{0.78 * w, top}, p1{-0.1 * w, mid}, p2{0.78 * w, bot};
    for (int i = 0; i <= 24; ++i) {
      const double s = i / 24.0, a = (1 - s) * (1 - s), m = 2 * (1 - s) * s, z = s * s;
      pts.push_back({a * p0.x + m * p1.x + z * p2.x, a * p0.y + m * p1.y + z * p2.y});
    }
  } else if (d == "[" || d == "]" || d == "⌊" || d == "⌋" || d == "⌈" || d == "⌉") {
    const bool top_arm = d != "⌊" && d != "⌋", bottom_arm = d != "⌈" && d != "⌉";
    if (top_arm) pts.push_back({0.75 * w, top});
    pts.push_back({0.3 * w, top});
    pts.push_back({0.3 * w, bot});
    if (bottom_arm) pts.push_back({0.75 * w, bot});
  } else if (d == "{" || d == "}") {
    pts = {{0.8 * w, top}, {0.55 * w, top + 0.04 * half}, {0.5 * w, top + 0.15 * half}, {0.5 * w, mid - 0.2 * half},
           {0.42 * w, mid - 0.06 * half}, {0.15 * w, mid}, {0.42 * w, mid + 0.06 * half}, {0.5 * w, mid + 0.2 * half},
           {0.5 * w, bot - 0.15 * half}, {0.55 * w, bot - 0.04 * half}, {0.8 * w, bot}};
  } else if (d == "⟨" || d == "⟩") {
    pts = {{0.75 * w, top}, {0.2 * w, mid}, {0.75 * w, bot}};
  } else if (d == "|") {
    pts = {{0.5 * w, top}, {0.5 * w, bot}};
  } else {  // ‖
    b.items.push_back(stroke({{x0 + 0.35 * w, top}, {x0 + 0.35 * w, bot}}, lw));
    pts = {{0.65 * w, top}, {0.65 * w, bot}};
  }
  const bool mirror = !left && d != "|" && d != "‖";
  for (Point& p : pts) p.x = x0 + (mirror ? w - p.x : p.x);
  b.items.push_back(stroke(std::move(pts), lw));
  return w;
}

FormulaBox lay_fenced(const MathNode& n, const Ctx& c) {
  FormulaBox body = lay(n.kids[0], c);
  FormulaBox b;
  const double up = body.ascent, down = body.descent, body_w = body.advance;
  b.ascent = up;
  b.descent = down;
  const double lw = delimiter(b, n.open, true, up, down, 0, c);
  append(b, std::move(body), lw, 0);
  const double rw = delimiter(b, n.close, false, up, down, lw + body_w, c);
  b.advance = lw + body_w + rw;
  return b;
}

FormulaBox lay(const MathNode& n, const Ctx& c) {
  Ctx here = c;
  here.bold = c.bold || n.bold;
  switch (n.kind) {
    case MathNode::Kind::row: return lay_row(n, here);
    case MathNode::Kind::glyphs: return lay_glyphs(n, here);
    case MathNode::Kind::space: {
      FormulaBox b;
      b.advance = n.text == " " ? here.painter->measure(" ", TextStyle{here.size, here.bold, {}}).w : n.em * here.size;
      return b;
    }
    case MathNode::Kind::scripts: return lay_scripts(n, here);
    case MathNode::Kind::frac: return lay_frac(n, here);
    case MathNode::Kind::sqrt: return lay_sqrt(n, here);
    case MathNode::Kind::fenced: return lay_fenced(n, here);
  }
  return {};
}

}  // namespace

FormulaBox layout_formula(const MathNode& node, Painter& painter, const TextStyle& style) {
  return lay(node, Ctx{&painter, style.size, style.size, 0, false, style.bold});
}

// [SECTION] Drawing

void draw_formula(Painter& painter, const FormulaBox& box, Point origin, Color color, bool rotated) {
  // Reading bottom to top, the formula's x runs up the page and its y to the right.
  auto place = [&](Point p) { return rotated ? Point{origin.x + p.y, origin.y - p.x} : Point{origin.x + p.x, origin.y + p.y}; };
  for (const FormulaItem& it : box.items) {
    switch (it.kind) {
      case FormulaItem::Kind::text:
        painter.text(place(it.at), it.text, TextStyle{it.size, it.bold, color}, Anchor::left, VAnchor::baseline, rotated);
        break;
      case FormulaItem::Kind::rule:
        if (!rotated) {
          painter.fill_rect({origin.x + it.at.x, origin.y + it.at.y, it.w, it.h}, color);
        } else {
          const Point corners[] = {place(it.at), place({it.at.x + it.w, it.at.y}), place({it.at.x + it.w, it.at.y + it.h}),
                                   place({it.at.x, it.at.y + it.h})};
          painter.fill_polygon(corners, color);
        }
        break;
      case FormulaItem::Kind::stroke: {
        std::vector<Point> pts;
        pts.reserve(it.points.size());
        for (const Point& p : it.points) pts.push_back(place(p));
        painter.stroke_polyline(pts, color, it.width, LineStyle::solid);
        break;
      }
    }
  }
}

// [SECTION] A line of words and formulas

RichLine layout_rich(Painter& painter, std::string_view text, const TextStyle& style) {
  RichLine line;
  const FontExtents fe = painter.font_extents(style);
  line.font_ascent = fe.ascent;
  line.font_descent = fe.descent;
  line.box.ascent = fe.ascent;
  line.box.descent = fe.descent;
  for (const RichPiece& p : rich_pieces(text)) {
    FormulaBox part;
    const ParsedFormula f = p.math ? parse_formula(p.text) : ParsedFormula{};
    if (p.math && !f.error) {
      part = layout_formula(f.root, painter, style);
    } else {
      // Words, or a formula that does not parse: shown as it is written.
      FormulaItem it;
      it.text = p.math ? "$" + p.text + "$" : p.text;
      it.size = style.size;
      it.bold = style.bold;
      part.advance = painter.measure(it.text, style).w;
      part.items.push_back(std::move(it));
    }
    line.box.ascent = std::max(line.box.ascent, part.ascent);
    line.box.descent = std::max(line.box.descent, part.descent);
    const double x = line.box.advance;
    line.box.advance += part.advance;
    append(line.box, std::move(part), x, 0);
  }
  return line;
}

void draw_rich(Painter& painter, Point at, const RichLine& line, const TextStyle& style, Anchor h, VAnchor v,
               bool rotated) {
  double dx = 0;
  if (h == Anchor::center) dx = -line.box.advance / 2;
  if (h == Anchor::right) dx = -line.box.advance;
  double dy = 0;  // from `at` down to the baseline
  switch (v) {
    case VAnchor::top: dy = line.font_ascent; break;
    case VAnchor::middle: dy = (line.font_ascent - line.font_descent) / 2; break;
    case VAnchor::baseline: dy = 0; break;
    case VAnchor::bottom: dy = -line.font_descent; break;
  }
  const Point origin = rotated ? Point{at.x + dy, at.y - dx} : Point{at.x + dx, at.y + dy};
  draw_formula(painter, line.box, origin, style.color, rotated);
}

void rich_text(Painter& painter, Point at, std::string_view text, const TextStyle& style, Anchor h, VAnchor v,
               bool rotated) {
  if (!has_markup(text)) {
    painter.text(at, text, style, h, v, rotated);
    return;
  }
  draw_rich(painter, at, layout_rich(painter, text, style), style, h, v, rotated);
}

Size rich_measure(Painter& painter, std::string_view text, const TextStyle& style) {
  if (!has_markup(text)) return painter.measure(text, style);
  return {layout_rich(painter, text, style).box.advance, style.size};
}

}  // namespace poslab::app::fig
