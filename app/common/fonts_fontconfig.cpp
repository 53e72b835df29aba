// The desktop's fonts, found through fontconfig (the browser build carries
// its own: platform/web/fonts_web.cpp).

#include <cairo.h>
#include <fontconfig/fontconfig.h>

#include "app/common/atomic_file.hpp"
#include "app/common/fonts.hpp"

namespace poslab::app {

namespace {

/// The best font file for `pattern_text` that covers every character of `sample`.
bool match(const char* pattern_text, const char* sample, bool bold, FontChoice& out) {
  FcPattern* pat = FcNameParse(reinterpret_cast<const FcChar8*>(pattern_text));
  if (!pat) return false;
  if (bold) FcPatternAddInteger(pat, FC_WEIGHT, FC_WEIGHT_BOLD);
  FcCharSet* cs = FcCharSetCreate();
  const auto* s = reinterpret_cast<const FcChar8*>(sample);
  int len = static_cast<int>(std::char_traits<char>::length(sample));
  while (len > 0) {
    FcChar32 ch = 0;
    const int n = FcUtf8ToUcs4(s, &ch, len);
    if (n <= 0) break;
    FcCharSetAddChar(cs, ch);
    s += n;
    len -= n;
  }
  FcPatternAddCharSet(pat, FC_CHARSET, cs);
  FcConfigSubstitute(nullptr, pat, FcMatchPattern);
  FcDefaultSubstitute(pat);
  FcResult result = FcResultNoMatch;
  FcPattern* font = FcFontMatch(nullptr, pat, &result);
  bool ok = false;
  if (font) {
    FcCharSet* have = nullptr;
    FcChar8* file = nullptr;
    FcChar8* family = nullptr;
    int index = 0;
    if (FcPatternGetCharSet(font, FC_CHARSET, 0, &have) == FcResultMatch && FcCharSetIsSubset(cs, have) &&
        FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch &&
        FcPatternGetString(font, FC_FAMILY, 0, &family) == FcResultMatch) {
      if (FcPatternGetInteger(font, FC_INDEX, 0, &index) != FcResultMatch) index = 0;
      (bold ? out.bold_file : out.file) = reinterpret_cast<const char*>(file);
      (bold ? out.bold_index : out.index) = index;
      if (!bold) out.family = reinterpret_cast<const char*>(family);
      ok = true;
    }
    FcPatternDestroy(font);
  }
  FcCharSetDestroy(cs);
  FcPatternDestroy(pat);
  return ok;
}

}  // namespace

FontChoice find_font(const std::string& lang) {
  FcInit();
  FontChoice f;
  const char* latin_sample = "Aa0θλγσαβ≤·²⁻¹−π";
  if (lang == "zh") {
    // CJK only: Latin, Greek and math come from the Latin face (see fonts.hpp).
    const char* sample = "位置编码旋转外推插值，：（）";
    for (const char* name : {"Noto Sans CJK SC", "WenQuanYi Micro Hei", "Source Han Sans SC", "sans-serif:lang=zh-cn"})
      if (match(name, sample, false, f)) {
        if (!match(name, sample, true, f)) f.bold_file = f.file, f.bold_index = f.index;
        return f;
      }
    throw IoError("no font with Chinese glyphs found (install fonts-wqy-microhei or fonts-noto-cjk)");
  }
  for (const char* name : {"DejaVu Sans", "sans-serif"})
    if (match(name, latin_sample, false, f)) {
      if (!match(name, latin_sample, true, f)) f.bold_file = f.file, f.bold_index = f.index;
      return f;
    }
  throw IoError("no sans font with Greek letters found (install fonts-dejavu-core)");
}

std::string export_font_families(const std::string& lang) {
  const std::string latin = find_font("en").family;
  if (lang != "zh") return latin;
  return latin + ", " + find_font("zh").family;
}

void release_font_caches() {
  cairo_debug_reset_static_data();
  FcFini();
}

}  // namespace poslab::app
