// The language at runtime: View > Language switches every text (refusals,
// conflicts, figures) and re-bakes the fonts with the glyphs the translation
// uses; the choice is remembered, --lang and the locale are not; the GUI's own
// error reasons read in both languages (tests/app/test_i18n.cpp does the rest).

#include <doctest/doctest.h>
#include <imgui_internal.h>

#include <filesystem>
#include <fstream>

#include "app/common/fonts.hpp"
#include "app/common/messages.hpp"
#include "app/plot/formula.hpp"
#include "app/ui/export_service.hpp"
#include "core/core_test_support.hpp"
#include "gui_test_support.hpp"

namespace {

namespace fs = std::filesystem;
using namespace poslab;
namespace ui = app::ui;

bool has_chinese_font() {
  try {
    (void)app::find_font("zh");
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

TEST_CASE("View > Language: refusals, conflicts and figures follow the switch") {
  test::BlindApp t;
  REQUIRE(t.state().select_view("rope"));
  const std::string english = t.app->type_param("d", "7");
  CHECK(english.find("must be an even integer in 2..8192") != std::string::npos);

  REQUIRE(t.app->set_lang("zh").empty());
  t.frames(2);
  CHECK(t.app->lang() == "zh");
  const std::string chinese = t.app->type_param("d", "7");
  CAPTURE(chinese);
  CHECK(chinese.find("必须是偶数") != std::string::npos);
  CHECK(chinese.find("{") == std::string::npos);

  // A figure built after the switch carries the Chinese title.
  const app::ViewDef& v = t.state().view();
  const auto* entry = t.app->figures().find(v.id, v.figures.front().id);
  REQUIRE(entry != nullptr);
  const app::Translator zh = app::Translator::load(app::assets_dir(), "zh");
  const app::fig::Figure fresh = app::build_figure(v, v.figures.front(), t.state().params(), zh);
  CHECK(entry->figure.title == fresh.title);

  // A broken rule of the lesson is reported in Chinese too.
  REQUIRE(t.state().select_view("t5"));
  REQUIRE(t.state().set_param("bidirectional", false).empty());
  REQUIRE(t.state().set_param("buckets", 5.0).empty());
  const std::string refusal = t.state().set_param("bidirectional", true);  // odd buckets both ways
  CAPTURE(refusal);
  CHECK(refusal.find("bidirectional=true 时") != std::string::npos);

  REQUIRE(t.app->set_lang("en").empty());
  CHECK(t.state().set_param("bidirectional", true).find("must be even and >= 4") != std::string::npos);
}

TEST_CASE("the font atlas bakes the Chinese glyphs the translation uses, not the whole CJK block") {
  if (!has_chinese_font()) {
    MESSAGE("no Chinese font installed: skipped");
    return;
  }
  test::BlindApp t;
  const ImFont* latin = t.app->fonts().regular;
  REQUIRE(latin != nullptr);
  CHECK(latin->FindGlyphNoFallback(static_cast<ImWchar>(U'θ')) != nullptr);
  REQUIRE(t.app->set_lang("zh").empty());
  t.frames(2);
  const ImFont* font = t.app->fonts().regular;
  REQUIRE(font != nullptr);
  for (char32_t c : {U'位', U'置', U'编', U'码', U'，', U'θ', U'≤'}) {
    CAPTURE(static_cast<unsigned>(c));
    CHECK(font->FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr);
  }
  // 龘 (U+9F98) is in the CJK block but in no translation: not baked.
  CHECK(font->FindGlyphNoFallback(static_cast<ImWchar>(0x9F98)) == nullptr);
  CHECK(ImGui::GetIO().Fonts->TexHeight <= 4096);
}

TEST_CASE("every character a formula's command draws is baked, in every face a formula uses") {
  // "\\theta" in a text puts no θ in the translation files: the atlas bakes it
  // from its base ranges, which must hold every symbol the markup knows.
  test::BlindApp t;
  const ui::UiFonts& f = t.app->fonts();
  int checked = 0;
  for (std::string_view name : app::fig::formula_symbol_commands()) {
    const app::fig::ParsedFormula parsed = app::fig::parse_formula("\\" + std::string(name));
    REQUIRE_FALSE(parsed.error);
    const std::string drawn = app::fig::formula_plain(parsed.root);
    for (const char* p = drawn.c_str(); *p;) {
      unsigned int c = 0;
      p += ImTextCharFromUtf8(&c, p, nullptr);
      CAPTURE(name);
      for (const ImFont* face : {f.regular, f.small, f.bold, f.script, f.bold_small, f.bold_script}) {
        REQUIRE(face != nullptr);
        CHECK(face->FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr);
        ++checked;
      }
    }
  }
  CHECK(checked > 500);
}

/// The ink of glyph `c` of `font` in the baked atlas: the sum of its coverage.
double ink(const ImFont* font, char32_t c) {
  const ImFontGlyph* g = font->FindGlyphNoFallback(static_cast<ImWchar>(c));
  if (!g) return 0;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  double sum = 0;
  for (int y = static_cast<int>(g->V0 * h); y < static_cast<int>(g->V1 * h); ++y)
    for (int x = static_cast<int>(g->U0 * w); x < static_cast<int>(g->U1 * w); ++x) sum += pixels[4 * (y * w + x) + 3];
  return sum;
}

TEST_CASE("Chinese headings are bold in both scripts, and an ideograph is one Latin em wide") {
  if (!has_chinese_font()) {
    MESSAGE("no Chinese font installed: skipped");
    return;
  }
  const app::FontChoice cjk = app::find_font("zh");
  CHECK_MESSAGE((cjk.bold_file != cjk.file || cjk.bold_index != cjk.index),
                "no bold CJK face: Chinese headings are half bold (scripts/install-deps.sh installs fonts-noto-cjk)");
  test::BlindApp t;
  REQUIRE(t.app->set_lang("zh").empty());
  t.frames(2);
  const ui::UiFonts& fonts = t.app->fonts();
  // Same size, heavier strokes: more ink for the Latin P and for 位 alike.
  for (char32_t c : {U'P', U'位', U'码'}) {
    CAPTURE(static_cast<unsigned>(c));
    const double regular = ink(fonts.regular, c), bold = ink(fonts.bold, c);
    CHECK(regular > 0);
    if (cjk.bold_file != cjk.file || c == U'P') CHECK(bold > 1.2 * regular);
  }
  // An ideograph advances one em of the Latin face (cairo's size in exports),
  // whatever the CJK face's own vertical metrics (Noto's em is 0.69 of its height).
  const app::FontChoice latin = app::find_font("en");
  const double em = fonts.size * app::em_share_of_height(latin.file, latin.index);
  REQUIRE(em > 0);
  for (const ImFont* f : {fonts.regular, fonts.bold}) {
    const ImFontGlyph* g = f->FindGlyphNoFallback(static_cast<ImWchar>(U'位'));
    REQUIRE(g != nullptr);
    CHECK(g->AdvanceX == doctest::Approx(em).epsilon(0.02));
  }
}

TEST_CASE("em_share_of_height reads unitsPerEm and hhea from a font file or a collection") {
  // DejaVu Sans (fonts-dejavu-core): unitsPerEm 2048, ascender 1901, descender −483.
  const app::FontChoice latin = app::find_font("en");
  if (latin.family == "DejaVu Sans") CHECK(app::em_share_of_height(latin.file, 0) == doctest::Approx(2048.0 / 2384.0));
  CHECK(app::em_share_of_height(latin.file, latin.index) > 0.5);
  CHECK(app::em_share_of_height(latin.file, 7) == 0);  // a single font has face 0 only
  if (has_chinese_font()) {
    const app::FontChoice cjk = app::find_font("zh");
    const double share = app::em_share_of_height(cjk.file, cjk.index);
    CHECK(share > 0.5);
    CHECK(share <= 1.0);
    CHECK(app::em_share_of_height(cjk.file, 1000) == 0);
  }
  // Not a font, a truncated font, no file: 0, never a crash.
  const fs::path dir = fs::temp_directory_path() / ("poslab-em-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    std::ofstream(dir / "text.ttf") << "hello, not a font";
    std::ifstream in(latin.file, std::ios::binary);
    std::string head(300, '\0');
    in.read(head.data(), 300);
    std::ofstream(dir / "cut.ttf", std::ios::binary) << head;
    std::ofstream(dir / "ttc.ttc", std::ios::binary) << std::string("ttcf\0\1\0\0\0\0\0\x09", 12);
  }
  for (const char* name : {"text.ttf", "cut.ttf", "ttc.ttc", "missing.ttf"}) {
    CAPTURE(name);
    CHECK(app::em_share_of_height(dir / name, 0) == 0);
  }
  fs::remove_all(dir);
}

TEST_CASE("the language chosen in the menu is remembered; --lang and the locale are not written") {
  const fs::path config = fs::temp_directory_path() / ("poslab-lang-" + std::to_string(::getpid()));
  fs::remove_all(config);
  auto saved_lang = [&] {
    ui::BlindPlatform platform;
    ui::AppOptions o{.assets = app::assets_dir(), .lang = "en", .persist = true, .config_dir = config};
    ui::App probe(platform, o);
    return probe.settings().lang;
  };
  {
    // Started in English (--lang en or the locale) and left: nothing chosen.
    ui::BlindPlatform platform;
    ui::AppOptions o{.assets = app::assets_dir(), .lang = "en", .persist = true, .config_dir = config};
    ui::App app(platform, o);
    app.blind_frame();
    app.save_on_exit();
  }
  CHECK(saved_lang().empty());
  {
    ui::BlindPlatform platform;
    ui::AppOptions o{.assets = app::assets_dir(), .lang = "en", .persist = true, .config_dir = config};
    ui::App app(platform, o);
    REQUIRE(app.set_lang("zh").empty());
    app.blind_frame();
    app.save_on_exit();
  }
  CHECK(saved_lang() == "zh");
  {
    // A later run with --lang en shows English but keeps the remembered choice.
    ui::BlindPlatform platform;
    ui::AppOptions o{.assets = app::assets_dir(), .lang = "en", .persist = true, .config_dir = config};
    ui::App app(platform, o);
    app.blind_frame();
    CHECK(app.lang() == "en");
    app.save_on_exit();
  }
  CHECK(saved_lang() == "zh");
  fs::remove_all(config);
}

TEST_CASE("the GUI's own error reasons read in English as what() and in Chinese in full") {
  const app::Translator& en = app::english_translator();
  const app::Translator zh = app::Translator::load(app::assets_dir(), "zh");
  std::vector<core::InvalidParameter> errors;
  errors.push_back(test::raised_by([] { ui::Animation().choose("layout"); }));
  errors.push_back(test::raised_by([] {
    ui::ExportChoice choice;
    choice.png = choice.svg = choice.pdf = choice.csv = false;
    (void)ui::export_lesson_files(*app::find_view("rope"), core::Params(), app::english_translator(), choice);
  }));
  for (const core::InvalidParameter& e : errors) {
    CAPTURE(e.what());
    CHECK_FALSE(e.reason().id.empty());
    CHECK(app::error_text(en, e) == e.what());
    CHECK(app::error_text(zh, e).find('{') == std::string::npos);
    CHECK(app::error_text(zh, e) != e.what());
  }
  test::BlindApp t;
  CHECK(t.state().apply_preset("gpt-9") == "preset = gpt-9: unknown preset");
  REQUIRE(t.app->set_lang("zh").empty());
  CHECK(t.state().apply_preset("gpt-9") == "preset = gpt-9：未知预设");
}

}  // namespace
