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
// "500,000", "θ′ᵢ = θᵢ/s") stays on one line.

#include <cstddef>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace poslab::app {

/// The lines of `line` (no '\n') broken greedily at `width`, as [begin, end)
/// byte ranges; `measure` gives the width of a piece. A piece wider than
/// `width` with no break inside stays whole (it overflows).
std::vector<std::pair<std::size_t, std::size_t>> wrap_line(std::string_view line, float width,
                                                           const std::function<float(std::string_view)>& measure);

}  // namespace poslab::app
