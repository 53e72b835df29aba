#include "app/ui/font_atlas.hpp"

#include <imgui_internal.h>

#include <cmath>

#include "app/common/assets.hpp"
#include "app/common/fonts.hpp"
#include "app/common/i18n.hpp"

namespace poslab::app::ui {

namespace {

// Ranges baked for every language (pairs, inclusive, 0-terminated).
constexpr ImWchar kBaseRanges[] = {
    0x0020, 0x00FF,  // Basic Latin, Latin-1 (· ² ³ ¹ ×)
    0x0100, 0x017F,  // Latin Extended-A (names)
    0x0370, 0x03FF,  // Greek (θ λ γ σ α β π Σ)
    0x1D62, 0x1D6A,  // subscript letters (ᵢ ⱼ-like)
    0x2000, 0x206F,  // general punctuation (— … ‖ thin spaces)
    0x2070, 0x209F,  // super- and subscripts (⁻¹ ₀ ₁)
    0x2100, 0x214F,  // letterlike (ℓ ℝ)
    0x2190, 0x21FF,  // arrows (→ ↺ ⇒)
    0x2200, 0x22FF,  // mathematical operators (− ≤ ≥ ≈ ∑ √ ∞)
    0x2300, 0x23FF,  // technical (⌘ ⏵ ⏸)
    0x25A0, 0x25FF,  // geometric shapes (▶ ◀ ■ ●)
    0x2713, 0x2718,  // ✓ ✔ ✕ ✖ ✗ ✘
    0x27E8, 0x27E9,  // ⟨ ⟩ (formulas' \langle \rangle)
    0,
};

bool is_cjk(unsigned c) { return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF) || (c >= 0x3000 && c <= 0x303F); }

}  // namespace

ImFont* UiFonts::closest(float pixels, bool want_bold) const {
  if (want_bold) {
    if (pixels > size * 1.15f && title) return title;
    if (pixels < size * 0.78f && bold_script) return bold_script;
    if (pixels < size * 0.93f && bold_small) return bold_small;
    return bold ? bold : regular;
  }
  if (pixels < size * 0.78f && script) return script;
  return (pixels < size * 0.93f && small) ? small : regular;
}

ImFont* UiFonts::closest_for(float pixels, bool want_bold, std::string_view utf8) const {
  ImFont* f = closest(pixels, want_bold);
  if (f != script && f != bold_small && f != bold_script) return f;
  for (const char* p = utf8.data(), *end = utf8.data() + utf8.size(); p < end;) {
    unsigned int c = 0;
    const int n = ImTextCharFromUtf8(&c, p, end);
    if (n <= 0) break;
    p += n;
    if (is_cjk(c)) return want_bold ? (bold ? bold : regular) : (small ? small : regular);
  }
  return f;
}

// The binding lives in the ImGui context's user data: one per context, as
// the atlas it points into.
namespace {
std::uint64_t g_fonts_generation = 0;
}  // namespace

void bind_ui_fonts(const UiFonts* fonts) {
  ImGui::GetIO().UserData = const_cast<UiFonts*>(fonts);
  ++g_fonts_generation;
}
std::uint64_t ui_fonts_generation() { return g_fonts_generation; }
const UiFonts* bound_ui_fonts() { return static_cast<const UiFonts*>(ImGui::GetIO().UserData); }

bool FontAtlasBuilder::ask(std::string_view text) {
  bool more = false;
  for (const char* p = text.data(), *end = text.data() + text.size(); p < end;) {
    if (static_cast<unsigned char>(*p) < 0x80) {  // ASCII is always baked
      ++p;
      continue;
    }
    unsigned int c = 0;
    const int n = ImTextCharFromUtf8(&c, p, end);
    if (n <= 0) break;
    p += n;
    if (c > 0xFFFF || c == 0xFFFD || !asked_.insert(static_cast<ImWchar>(c)).second) continue;
    if (baked_ && baked_->FindGlyphNoFallback(static_cast<ImWchar>(c))) continue;
    wanted_.insert(static_cast<ImWchar>(c));
    more = true;
  }
  return more;
}

UiFonts FontAtlasBuilder::build(ImFontAtlas& atlas, const std::filesystem::path& assets, const std::string& lang,
                                float pixels, std::string* warning) {
  atlas.Clear();
  UiFonts fonts;
  fonts.size = std::round(pixels);
  fonts.generation = ++generation_;

  // Every character of the active translations (English underneath).
  ImFontGlyphRangesBuilder glyphs;
  glyphs.AddRanges(kBaseRanges);
  ImFontGlyphRangesBuilder cjk;
  bool has_cjk = false;
  auto add_text = [&](const std::string& text, bool with_cjk) {
    for (const char* p = text.c_str(); *p;) {
      unsigned int c = 0;
      const int n = ImTextCharFromUtf8(&c, p, nullptr);
      if (n <= 0) break;
      p += n;
      if (c > 0xFFFF) continue;
      if (!is_cjk(c)) glyphs.AddChar(static_cast<ImWchar>(c));
      else if (with_cjk) cjk.AddChar(static_cast<ImWchar>(c)), has_cjk = true;
    }
  };
  // What users typed and loaded (ask()): every script, CJK from the CJK face.
  for (ImWchar c : wanted_) {
    if (!is_cjk(c)) glyphs.AddChar(c);
    else cjk.AddChar(c), has_cjk = true;
  }
  try {
    for (const std::string& l : {std::string("en"), lang}) {
      if (l != "en" && l != "zh") continue;
      for (const auto& [key, text] : Translator::read_language(assets, l)) add_text(text, true);
    }
    // Texts that live outside the translations — guided steps, built-in decks,
    // the notation card, presets — carry both languages in one file: their
    // symbols always, their Chinese when Chinese is shown.
    std::error_code ec;
    for (const char* dir : {"steps", "decks", "presets"})
      for (const auto& entry : std::filesystem::directory_iterator(assets / dir, ec))
        if (entry.path().extension() == ".json") add_text(read_text_file(entry.path()), lang == "zh");
    if (std::filesystem::exists(assets / "notation.json", ec))
      add_text(read_text_file(assets / "notation.json"), lang == "zh");
  } catch (const std::exception& e) {
    if (warning) *warning = e.what();
  }
  // In Chinese the quotes “ ” ‘ ’ come from the CJK face: DejaVu's are narrow
  // Latin quotes, cramped against the ideographs beside them (the zh review).
  if (lang == "zh" && has_cjk)
    for (const ImWchar q : {ImWchar{0x2018}, ImWchar{0x2019}, ImWchar{0x201C}, ImWchar{0x201D}}) {
      glyphs.UsedChars[q >> 5] &= ~(ImU32{1} << (q & 31));
      cjk.AddChar(q);
    }
  ranges_.clear();
  glyphs.BuildRanges(&ranges_);
  cjk_ranges_.clear();
  if (has_cjk) cjk.BuildRanges(&cjk_ranges_);

  FontChoice latin;
  FontChoice cjk_font;
  try {
    latin = find_font("en");
    if (has_cjk) cjk_font = find_font("zh");
  } catch (const std::exception& e) {
    if (warning) *warning = e.what();
  }

  // The CJK face merged into each face has the same weight: a bold title is
  // bold in both scripts ("正弦位置编码 PE[pos, i]"). FontNo picks the face of a
  // collection (.ttc): Noto Sans CJK holds JP, KR, SC, TC and HK, whose
  // glyphs for one ideograph differ; face 0 would draw Chinese in Japanese forms.
  // The CJK face gets the Latin face's em (em_share_of_height), as in exports.
  auto add = [&](const std::filesystem::path& file, int index, float px, bool bold, bool with_cjk = true) -> ImFont* {
    ImFontConfig cfg;
    cfg.OversampleH = 2;
    cfg.OversampleV = 1;
    cfg.PixelSnapH = false;
    cfg.FontNo = index;
    ImFont* font = nullptr;
    if (!file.empty()) font = atlas.AddFontFromFileTTF(file.c_str(), px, &cfg, ranges_.Data);
    if (!font) {
      ImFontConfig def;
      def.SizePixels = px;
      font = atlas.AddFontDefault(&def);
    }
    const bool cjk_bold = bold && !cjk_font.bold_file.empty();
    const std::filesystem::path& cjk_file = cjk_bold ? cjk_font.bold_file : cjk_font.file;
    if (with_cjk && !cjk_file.empty() && !cjk_ranges_.empty()) {
      ImFontConfig merge;
      merge.MergeMode = true;
      merge.OversampleH = 1;
      merge.FontNo = cjk_bold ? cjk_font.bold_index : cjk_font.index;
      const double latin_em = file.empty() ? 0 : em_share_of_height(file, index);
      const double cjk_em = em_share_of_height(cjk_file, merge.FontNo);
      const float cjk_px = latin_em > 0 && cjk_em > 0 ? px * static_cast<float>(latin_em / cjk_em) : px;
      atlas.AddFontFromFileTTF(cjk_file.c_str(), cjk_px, &merge, cjk_ranges_.Data);
    }
    return font;
  };
  const bool latin_bold = !latin.bold_file.empty();
  const std::filesystem::path& bold_file = latin_bold ? latin.bold_file : latin.file;
  const int bold_index = latin_bold ? latin.bold_index : latin.index;
  fonts.regular = add(latin.file, latin.index, fonts.size, false);
  fonts.small = add(latin.file, latin.index, std::round(fonts.size * 0.86f), false);
  fonts.bold = add(bold_file, bold_index, fonts.size, true);
  fonts.title = add(bold_file, bold_index, std::round(fonts.size * 1.3f), true);
  // The formula faces carry no CJK (the atlas stays small): a formula's
  // Chinese words are drawn from the faces above (UiFonts::closest_for).
  fonts.script = add(latin.file, latin.index, std::round(fonts.size * 0.7f), false, false);
  fonts.bold_small = add(bold_file, bold_index, std::round(fonts.size * 0.86f), true, false);
  fonts.bold_script = add(bold_file, bold_index, std::round(fonts.size * 0.7f), true, false);
  atlas.Flags |= ImFontAtlasFlags_NoPowerOfTwoHeight;
  baked_ = nullptr;
  if (!atlas.Build()) {
    // A font file that stb_truetype cannot read: ImGui's own font still works.
    if (warning) *warning = "cannot bake " + latin.file.string() + "; using ImGui's built-in font";
    atlas.Clear();
    ImFontConfig def;
    def.SizePixels = fonts.size;
    fonts.regular = fonts.small = fonts.bold = fonts.title = atlas.AddFontDefault(&def);
    fonts.script = fonts.bold_small = fonts.bold_script = fonts.regular;
    atlas.Build();
  }
  baked_ = fonts.regular;
  return fonts;
}

}  // namespace poslab::app::ui
