#pragma once
// [SECTION] Formulas as a textbook sets them: inline math in texts.
//
// A text — a step, a lesson's reference text, a figure's title or label, a
// deck a teacher wrote — writes a formula between two dollar signs in a small
// subset of LaTeX: "$θ_i = b^{-2i/d}$", "$b' = b·s^{d/(d-2)}$",
// "$a = \sqrt{1 + \frac{\ln s}{\ln L}}$" (docs/DECKS.md lists the markup).
// This file
//   - finds those spans in a text (rich_pieces) and parses one (parse_formula),
//   - lays it out as boxes with an advance, an ascent and a descent
//     (layout_formula): scripts at 0.7 of the size, raised or lowered;
//     fractions stacked on a bar at the math axis; roots under a bar;
//     \left( … \right) delimiters as tall as what they hold,
//   - and draws the layout on any Painter with its ordinary calls: runs of
//     text at a baseline, filled rules, stroked radicals and tall delimiters
//     (draw_formula). The window (ImGui), PNG and PDF (cairo), SVG (text stays
//     text) and the browser all draw the one layout made here.
// A whole line of words and formulas is laid out and drawn by layout_rich /
// rich_text, drop-in replacements for Painter::measure / Painter::text: a text
// without a '$' goes to the painter unchanged. plain_text() writes formulas
// back as one line of Unicode ("θᵢ = b^(−2i/d)") for what cannot typeset:
// CSV headers, hover readouts, tab labels, the terminal.
//
// Heights come from the glyphs' ink (classes of characters measured on DejaVu
// Sans, the face every surface uses, rounded up), not from the font's line
// box, so a superscript or a fraction's parts sit as close as a textbook sets
// them and still never touch.
//
// Index
// - Finding formulas in a text
// - Parsing
// - Layout
// - Drawing
// - A line of words and formulas

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/plot/painter.hpp"

namespace poslab::app::fig {

// [SECTION] Finding formulas in a text

/// One past the closing '$' of the formula that opens at text[at], or npos
/// when text[at] opens none. A '$' opens a formula when it is not escaped
/// ("\$"), is followed by a character that is not a space or '$', and a later
/// '$' on the same line closes it: not escaped, not after a space, not before
/// a digit ("costs $5 or $10" has no formula), as pandoc reads TeX math.
std::size_t math_span_end(std::string_view text, std::size_t at);

/// True when `text` holds a formula or an escaped dollar ("\$"): the texts
/// that need rich_text rather than Painter::text.
bool has_markup(std::string_view text);

/// A text cut into words and formulas, in order: `math` pieces hold the
/// source between the dollars, the others the words with "\$" as "$".
struct RichPiece {
  std::string text;
  bool math = false;
};
std::vector<RichPiece> rich_pieces(std::string_view text);

// [SECTION] Parsing

/// A parsed formula: a tree of rows, runs of glyphs, spaces, scripts,
/// fractions, roots and fenced groups.
struct MathNode {
  enum class Kind {
    row,      ///< kids side by side
    glyphs,   ///< `text`: characters (Unicode already: "θ", "−", "′")
    space,    ///< `em` wide; a space written in the source is `text` = " " (the font's space)
    scripts,  ///< kids: base, superscript, subscript (rows; an empty row is absent)
    frac,     ///< kids: numerator, denominator
    sqrt,     ///< kids: radicand [, index]
    fenced,   ///< kids: body, between `open` and `close` ("(", ")", "[", "|", "‖", "{", "" for \left.)
  };
  enum class FracSize { text, display, script };  ///< \frac, \dfrac, \tfrac
  Kind kind = Kind::row;
  std::string text;
  double em = 0;              ///< space: its width in em of the size it is set at
  bool text_style_only = false;  ///< space: a medium or thick space between atoms, which scripts leave out (TeX)
  std::vector<MathNode> kids;
  std::string open, close;
  FracSize frac_size = FracSize::text;
  bool bold = false;  ///< \mathbf{…}: this run (and what it holds) in bold
};

struct FormulaError {
  std::size_t offset = 0;  ///< byte offset in the source
  std::string message;     ///< "unknown command \hat", "missing }", …
};

struct ParsedFormula {
  MathNode root;
  std::optional<FormulaError> error;  ///< set: root is empty and the source is drawn as it is written
};

/// Parses the source of one formula (without its dollars). The markup:
///   x^2  x^{-2i/d}  θ_i  x_{i,j}^2   scripts: one character or command, or a {group}
///   \frac{a}{b} \dfrac \tfrac        a fraction (parts at 0.86, 1 or 0.7 of the size)
///   \sqrt{x} \sqrt[3]{x}             a root with its bar
///   \left( … \right)  ( [ | \| \{ .  delimiters as tall as their contents
///   \alpha … \omega, \Gamma … \Omega Greek; Unicode letters are taken as they are
///   \cdot \times \pm \le \ge \ne \approx \to \infty \ell \sum \in \ldots …  symbols
///   \ln \log \exp \sin \cos \max \min …   function names, a thin space after
///   \text{…} \mathrm{…} \mathbf{…}    words (spaces kept), bold
///   \, \: \; \! \quad \qquad ~        spaces; '-' is a minus sign −, ' a prime ′
/// Spaces are kept as written (one space however many), unlike LaTeX; one
/// space after a command name ends the name and is dropped, as in LaTeX.
ParsedFormula parse_formula(std::string_view source);

/// The commands that stand for one character or a function's name
/// ("theta", "cdot", "ln", …, without the backslash): for the docs and for
/// the tests that every character they draw is in the fonts.
std::vector<std::string_view> formula_symbol_commands();

/// The formula written back as one line of Unicode: scripts as ²ᵢ⁻ when every
/// character has such a form, else "^(…)"/"_(…)"; a fraction as "a/b"
/// (parts in parentheses when they are more than one word); a root as "√x"
/// or "√(…)".
std::string formula_plain(const MathNode& node);

/// `text` with every formula written back by formula_plain (one that does
/// not parse: its source) and "\$" as "$". A text without markup comes back
/// unchanged.
std::string plain_text(std::string_view text);

// [SECTION] Layout

/// What a laid-out formula draws, relative to its origin on the baseline at
/// its left edge, y down (painter coordinates).
struct FormulaItem {
  enum class Kind { text, rule, stroke };
  Kind kind = Kind::text;
  Point at;            ///< text: the left end of its baseline; rule: top-left corner
  std::string text;    ///< text
  double size = 0;     ///< text: font size
  bool bold = false;   ///< text
  double w = 0, h = 0; ///< rule
  std::vector<Point> points;  ///< stroke (a radical sign with its bar, a tall delimiter)
  double width = 0;           ///< stroke
};

/// A laid-out formula: advance (width), ascent above and descent below the
/// baseline (both ≥ 0, from the ink), and what to draw.
struct FormulaBox {
  double advance = 0, ascent = 0, descent = 0;
  std::vector<FormulaItem> items;
};

/// Lays `node` out at `style.size` (bold when style.bold), measuring runs of
/// text with `painter`.
FormulaBox layout_formula(const MathNode& node, Painter& painter, const TextStyle& style);

/// The top and bottom of a run's ink, in em, as this layout estimates them
/// (tests compare them with the faces' own extents).
double ink_ascent_em(std::string_view utf8);
double ink_descent_em(std::string_view utf8);

/// The math axis (the height of a minus sign's middle, where fraction bars
/// sit) and the thickness of a fraction bar, in em.
inline constexpr double kMathAxisEm = 0.31;
inline constexpr double kRuleEm = 0.06;

// [SECTION] Drawing

/// Draws `box` with its origin (baseline, left edge) at `origin`, in `color`.
/// `rotated`: reading bottom to top, as Painter::text's (a y-axis title).
void draw_formula(Painter& painter, const FormulaBox& box, Point origin, Color color, bool rotated = false);

// [SECTION] A line of words and formulas

/// One line of text with formulas laid out at `style`: the words as runs of
/// text, the formulas typeset, in one box. `font_ascent`/`font_descent` are
/// the painter's font's (what Painter::text anchors by); the box's own
/// ascent and descent are at least those, more when a formula is taller.
struct RichLine {
  FormulaBox box;
  double font_ascent = 0, font_descent = 0;
};
RichLine layout_rich(Painter& painter, std::string_view text, const TextStyle& style);

/// Draws a laid-out line anchored at `at` as Painter::text anchors a text:
/// horizontally by its advance, vertically by the font's ascent and descent
/// (so a line with formulas sits where the same line without them would).
void draw_rich(Painter& painter, Point at, const RichLine& line, const TextStyle& style, Anchor h, VAnchor v,
               bool rotated = false);

/// Painter::text for a text that may hold formulas: the very same call when
/// it holds no markup.
void rich_text(Painter& painter, Point at, std::string_view text, const TextStyle& style, Anchor h, VAnchor v,
               bool rotated = false);

/// Painter::measure for a text that may hold formulas (the same call when it
/// holds no markup): its advance and the style's size.
Size rich_measure(Painter& painter, std::string_view text, const TextStyle& style);

}  // namespace poslab::app::fig
