// Text metrics for the SVG writer in the browser build: stb_truetype
// (Debian's libstb-dev header) on the very fonts the page carries
// (fonts_web.cpp), at the em size cairo would use, so an SVG written in the
// browser lays out as the desktop's does.

#include <map>
#include <memory>
#include <vector>

#include "app/common/assets.hpp"
#include "app/common/fonts.hpp"
#include "app/export/text_metrics.hpp"

#define STBTT_STATIC
#define STB_TRUETYPE_IMPLEMENTATION
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Weverything"
#include <stb/stb_truetype.h>
#pragma clang diagnostic pop

namespace poslab::app {

namespace {

/// One font file, read once and kept for the page's life.
struct Face {
  std::string bytes;
  stbtt_fontinfo info{};
  bool ok = false;
};

const Face& face(const std::filesystem::path& file) {
  static std::map<std::string, std::unique_ptr<Face>> faces;
  auto& slot = faces[file.string()];
  if (!slot) {
    slot = std::make_unique<Face>();
    try {
      slot->bytes = read_text_file(file);
      const auto* data = reinterpret_cast<const unsigned char*>(slot->bytes.data());
      slot->ok = stbtt_InitFont(&slot->info, data, stbtt_GetFontOffsetForIndex(data, 0)) != 0;
    } catch (const std::exception&) {
      slot->ok = false;  // measured as nothing: the layout still happens
    }
  }
  return *slot;
}

double run_advance(const Face& f, std::string_view utf8, double size) {
  if (!f.ok) return 0.5 * size * static_cast<double>(utf8.size());
  const double scale = stbtt_ScaleForMappingEmToPixels(&f.info, static_cast<float>(size));
  double advance = 0;
  int previous = 0;
  for (std::size_t i = 0; i < utf8.size();) {
    const auto b = static_cast<unsigned char>(utf8[i]);
    const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
    char32_t c = n == 1 ? b : b & (0x7F >> n);
    for (std::size_t k = 1; k < n && i + k < utf8.size(); ++k)
      c = (c << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    i += n;
    const int glyph = stbtt_FindGlyphIndex(&f.info, static_cast<int>(c));
    int adv = 0, lsb = 0;
    stbtt_GetGlyphHMetrics(&f.info, glyph, &adv, &lsb);
    if (previous) advance += scale * stbtt_GetGlyphKernAdvance(&f.info, previous, glyph);
    advance += scale * adv;
    previous = glyph;
  }
  return advance;
}

}  // namespace

class TextMetrics::Impl {
 public:
  FontChoice latin, cjk;
  bool has_cjk = false;
};

TextMetrics::TextMetrics(std::string, std::string cjk) : impl_(std::make_unique<Impl>()) {
  // The page carries one Latin and one CJK family (fonts_web.cpp): the
  // families named are theirs.
  try {
    impl_->latin = find_font("en");
    if (!cjk.empty()) impl_->cjk = find_font("zh"), impl_->has_cjk = true;
  } catch (const std::exception&) {
    // no font file: advances fall back to half an em per byte
  }
}

TextMetrics::~TextMetrics() = default;

double TextMetrics::advance(std::string_view utf8, const fig::TextStyle& style) {
  const Face& latin = face(style.bold ? impl_->latin.bold_file : impl_->latin.file);
  if (!impl_->has_cjk) return run_advance(latin, utf8, style.size);
  double total = 0;
  for (const TextRun& run : split_cjk_runs(utf8))
    total += run_advance(run.cjk ? face(impl_->cjk.file) : latin, run.text, style.size);
  return total;
}

TextMetrics::Extents TextMetrics::extents(const fig::TextStyle& style) {
  const Face& f = face(style.bold ? impl_->latin.bold_file : impl_->latin.file);
  if (!f.ok) return {0.8 * style.size, 0.2 * style.size};
  int ascent = 0, descent = 0, gap = 0;
  stbtt_GetFontVMetrics(&f.info, &ascent, &descent, &gap);
  const double scale = stbtt_ScaleForMappingEmToPixels(&f.info, static_cast<float>(style.size));
  return {scale * ascent, -scale * descent};
}

}  // namespace poslab::app
