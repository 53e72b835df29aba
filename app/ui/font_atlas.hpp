#pragma once
// The ImGui font atlas: DejaVu Sans (app/common/fonts.hpp finds it through
// fontconfig) baked at the UI's pixel size — never a scaled bitmap — in four
// faces: regular (UI and plot labels), small (tick labels, captions), bold
// (headings) and title (lesson titles); and three for formulas
// (plot/formula.hpp): script (0.7: exponents, subscripts), bold small and
// bold script (a fraction's parts and scripts in a bold question). Baked glyphs: Latin, Greek, general
// punctuation, super- and subscripts, arrows, mathematical operators,
// geometric shapes and ✓ ✗ — plus every character that occurs in the active
// translation files (ImFontGlyphRangesBuilder), so a Chinese translation
// bakes exactly the CJK glyphs it uses, merged from the language's own font:
// its regular face into regular and small, its bold face (Noto Sans CJK SC
// Bold) into bold and title, at the Latin face's em. Text the user types or
// loads (a deck's own captions, a model's name, a file name) can need any
// other character: ask() collects those, and the next build bakes them too
// (from the CJK face for CJK, whatever the UI's language), so a lecturer's
// own Chinese shows in an English UI as in a Chinese one (issue 29).

#include <imgui.h>

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>

namespace poslab::app::ui {

struct UiFonts {
  ImFont* regular = nullptr;
  ImFont* small = nullptr;  ///< 0.86 × regular
  ImFont* bold = nullptr;
  ImFont* title = nullptr;  ///< bold, 1.3 × regular
  ImFont* script = nullptr;       ///< 0.7 × regular: a formula's scripts
  ImFont* bold_small = nullptr;   ///< bold, 0.86 × regular: a fraction's parts in bold text
  ImFont* bold_script = nullptr;  ///< bold, 0.7 × regular
  float size = 15;          ///< regular size in pixels
  /// Bumps on every rebuild: text measured with an older atlas is stale.
  std::uint64_t generation = 0;

  /// The baked face closest to `pixels` (and weight): what the plot painter
  /// draws and measures with, so layout and drawing agree exactly.
  ImFont* closest(float pixels, bool want_bold) const;
  /// closest(), but never a formula face (script, bold small, bold script)
  /// for a text with CJK characters: those faces carry none.
  ImFont* closest_for(float pixels, bool want_bold, std::string_view utf8) const;
};

inline constexpr float kBaseFontPixels = 15.0f;

/// The fonts wrapped_text (ui_context.hpp) draws formulas with, bound to the
/// current ImGui context by the App whenever it bakes them (nullptr: none).
void bind_ui_fonts(const UiFonts* fonts);
const UiFonts* bound_ui_fonts();
/// Counts bind_ui_fonts calls (each new bake): what text measured before is
/// measured anew after (wrapped_text keeps its line breaks until then).
std::uint64_t ui_fonts_generation();

class FontAtlasBuilder {
 public:
  /// Clears `atlas` and bakes the faces at `pixels` for language `lang`,
  /// adding the characters of every string in <assets>/i18n/<lang>. When a
  /// font is missing, falls back to ImGui's built-in font and says why in
  /// `warning` (the app still runs).
  UiFonts build(ImFontAtlas& atlas, const std::filesystem::path& assets, const std::string& lang, float pixels,
                std::string* warning);

  /// Number of glyph ranges of the last build (for tests).
  int range_count() const { return ranges_.Size / 2; }

  /// Asks for every character of `text` (UTF-8) to be baked. True when one
  /// of them is not yet: the caller rebuilds the atlas before the next frame.
  /// Each character is asked for once, so one no font has never loops.
  bool ask(std::string_view text);
  /// Characters asked for beyond the translations' (tests).
  std::size_t asked() const { return asked_.size(); }

 private:
  std::set<ImWchar> asked_;     // every character ask() saw (beyond ASCII)
  std::set<ImWchar> wanted_;    // of those, the ones no build had baked: baked from now on
  const ImFont* baked_ = nullptr;  // the last build's regular face (what is baked)
  ImVector<ImWchar> ranges_;      // must outlive the atlas build
  ImVector<ImWchar> cjk_ranges_;
  std::uint64_t generation_ = 0;
};

}  // namespace poslab::app::ui
