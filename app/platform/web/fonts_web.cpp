// The browser build's fonts: the page carries its own (no fontconfig, no
// system fonts): DejaVu Sans and DejaVu Sans Bold, and WenQuanYi Micro Hei,
// each cut to the glyphs poslab's texts use (scripts/build-web.sh), packed
// with the assets at /assets/fonts. Same families as the desktop finds, so
// figures and SVG files name the same fonts.

#include <system_error>

#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/fonts.hpp"

namespace poslab::app {

namespace {

std::filesystem::path font_file(const char* name) {
  const std::filesystem::path file = assets_dir() / "fonts" / name;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) throw IoError("the page carries no font " + file.string());
  return file;
}

}  // namespace

FontChoice find_font(const std::string& lang) {
  FontChoice f;
  if (lang == "zh") {
    f.family = "WenQuanYi Micro Hei";
    f.file = f.bold_file = font_file("wqy-microhei-subset.ttf");
    return f;
  }
  f.family = "DejaVu Sans";
  f.file = font_file("DejaVuSans-subset.ttf");
  f.bold_file = font_file("DejaVuSans-Bold-subset.ttf");
  return f;
}

std::string export_font_families(const std::string& lang) {
  const std::string latin = find_font("en").family;
  if (lang != "zh") return latin;
  return latin + ", " + find_font("zh").family;
}

void release_font_caches() {}  // nothing is cached process-wide here

}  // namespace poslab::app
