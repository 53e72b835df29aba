#pragma once
// Fonts found through fontconfig: a clear sans with Greek and math symbols
// (DejaVu Sans) for every language, and a face with CJK glyphs for Chinese.
//
// Mixed text ("θᵢ = base^(−2i/d) 的波长") is drawn in runs: CJK characters
// (is_cjk) from the CJK face, everything else from the Latin face — in the
// GUI (ImGui merges the CJK glyphs into the Latin font), in PNG/PDF (cairo,
// one run per face) and in SVG (font-family lists both, measured the same
// way). The common CJK faces lack subscripts and several math symbols
// (ᵢ ₀ ⁻ ✗), so drawing Chinese text in the CJK face alone would lose them.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace poslab::app {

struct FontChoice {
  std::string family;           ///< for cairo and SVG, e.g. "DejaVu Sans"
  std::filesystem::path file;   ///< for ImGui's atlas
  int index = 0;                ///< face index in a collection (.ttc), e.g. Noto Sans CJK SC
  std::filesystem::path bold_file;
  int bold_index = 0;
};

/// The font for `lang` ("en" or "zh"). Raises IoError when fontconfig finds no
/// font that covers the language's sample text (θ λ γ σ ≤ · ² for English;
/// also 位置编码 for Chinese).
FontChoice find_font(const std::string& lang);

/// A face's em as a share of the height ImGui's stb_truetype sizes it by:
/// unitsPerEm / (hhea ascender − hhea descender), read from the font file
/// (face `index` of a collection). 0.86 for DejaVu Sans and WenQuanYi Micro
/// Hei, 0.69 for Noto Sans CJK — so at one "pixel height" an ideograph of Noto
/// is a fifth smaller than one of WenQuanYi. The atlas merges each CJK face at
/// the pixel height that gives it the Latin face's em, as cairo does (it sizes
/// fonts by em). 0 when the file is not a font it can read.
double em_share_of_height(const std::filesystem::path& file, int index);

/// The font families figures are exported with, as a comma-separated list in
/// drawing order: "DejaVu Sans" for English; "DejaVu Sans, <CJK family>" for
/// Chinese (CJK characters from the second). Raises IoError like find_font.
std::string export_font_families(const std::string& lang);

/// The families of such a list, trimmed.
std::vector<std::string> split_font_families(std::string_view families);

/// Characters drawn from the CJK face: CJK radicals to unified ideographs
/// (U+2E80–9FFF, with CJK punctuation, kana, bopomofo), compatibility
/// ideographs and full-width forms (，：（）).
bool is_cjk(char32_t c);

/// `utf8` cut into maximal runs of CJK and of other characters, in order
/// (invalid bytes stay in the run they are in).
struct TextRun {
  std::string_view text;
  bool cjk;
};
std::vector<TextRun> split_cjk_runs(std::string_view utf8);

/// Releases cairo's and fontconfig's process-wide caches. Called once before
/// exit so LeakSanitizer sees only poslab's own allocations; nothing may use
/// cairo or fontconfig afterwards.
void release_font_caches();

}  // namespace poslab::app
