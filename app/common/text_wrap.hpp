#pragma once
// Where a line of text may break, for every surface that wraps text itself
// (the GUI's paragraphs, readouts, captions): at a space (dropped) unless it
// stands next to a relation or an operator (= ≈ ≤ ≥ < > → − + ± ×: "L = 4,096" and
// "n − m" are one unit) or
// follows a word that opens with Σ ("Σᵢ 2·cos(r·θᵢ)") or stands inside a short
// tuple that fits on the line ("(1, …, 1)"), or next to
// a CJK character — never before closing punctuation （，。）” or after opening
// （“, nor inside a short quotation (“代码”), nor at or beside a no-break
// space (U+00A0, U+202F: "8 个", formulas written with it) — and nowhere
// else, so a run of digits, Latin letters and symbols ("0.894427",
// "500,000", "θ′ᵢ = θᵢ/s") stays on one line. A formula "$…$"
// (plot/formula.hpp) is one word: it never breaks inside.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace poslab::app {

/// The lines of `line` (no '\n') broken greedily at `width`, as [begin, end)
/// byte ranges; `measure` gives the width of a piece. A piece wider than
/// `width` with no break inside stays whole (it overflows). When `line` holds
/// markup (fig::has_markup), a piece may hold formulas: measure it as
/// fig::rich_measure does.
std::vector<std::pair<std::size_t, std::size_t>> wrap_line(std::string_view line, float width,
                                                           const std::function<float(std::string_view)>& measure);

/// `line` with every matrix written in a formula, "$[[a, b], [c, d]]$", made
/// breakable between its rows: "$[[a, b],$ $[c, d]]$", the same glyphs with a
/// space a line may break at ("], [" outside braces; a formula never breaks
/// inside). A formula too wide for its column had been drawn smaller, down
/// to 60 % (rope's R(m·θᵢ), sinusoidal's block i in lecture mode at
/// 1024×768). Returns `line` itself when it holds no such matrix, else a
/// view of `storage`.
std::string_view breakable_matrix_rows(std::string_view line, std::string& storage);

}  // namespace poslab::app
