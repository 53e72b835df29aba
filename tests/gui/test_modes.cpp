// Animation, lecture mode, themes, UI scale, keyboard shortcuts, and "idle is
// idle", driven through the App's API (and ImGui's key state for shortcuts).

#include <doctest/doctest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "app/common/text_wrap.hpp"
#include "app/ui/slider_math.hpp"
#include "app/ui/ui_context.hpp"
#include "gui_test_support.hpp"

using namespace poslab;
namespace ui = poslab::app::ui;

namespace {

/// Presses `key` (with Ctrl when asked) for one frame, then releases it.
void press(test::BlindApp& b, int key, bool ctrl = false) {
  ImGuiIO& io = ImGui::GetIO();
  io.KeyCtrl = ctrl;
  io.KeysDown[key] = true;
  b.frames(1);
  io.KeysDown[key] = false;
  io.KeyCtrl = false;
  b.frames(1);
}

}  // namespace

TEST_CASE("an animation plays, pauses with Space, steps, loops, bounces and stops") {
  test::BlindApp b;
  const auto [view, key] = test::lesson_with_numeric("m");
  REQUIRE(!view.empty());
  auto& st = b.state();
  REQUIRE(st.select_view(view));
  ui::Animation& a = st.animation();
  a.choose(key);
  a.set_speed(2);
  a.play();
  b.frames(20, 1.0 / 30);
  CHECK(a.playing());
  CHECK(a.phase() > 0.1);
  CHECK(st.params().is_set(key));
  CHECK(b.app->wants_redraw());  // a playing animation keeps the window awake

  b.app->run(ui::Action::play);  // Space
  CHECK_FALSE(a.playing());
  const double phase = a.phase();
  b.frames(10, 1.0 / 30);
  CHECK(a.phase() == phase);

  const double before = st.params().real(key);
  b.app->run(ui::Action::step_forward);
  CHECK(a.phase() > phase);
  CHECK(st.params().real(key) != before);
  b.app->run(ui::Action::step_back);
  CHECK(a.phase() == doctest::Approx(phase));

  a.set_mode(app::PlayMode::once);
  a.set_phase(0.9);
  a.play();
  b.frames(30, 0.1);
  CHECK_FALSE(a.playing());
  CHECK(a.phase() == 1.0);
  CHECK(st.params().real(key) == doctest::Approx(a.config().to));

  a.set_mode(app::PlayMode::bounce);
  a.set_phase(0.95);
  a.play();
  b.frames(4, 0.1);
  CHECK(a.phase() < 1.0);  // turned around
  a.set_mode(app::PlayMode::loop);
  a.set_phase(0.99);
  b.frames(3, 0.1);
  CHECK(a.phase() < 0.5);  // wrapped
  a.pause();
}

TEST_CASE("Space plays the lesson's first numeric parameter when nothing was chosen") {
  test::BlindApp b;
  const auto [view, key] = test::lesson_with_numeric();
  REQUIRE(b.state().select_view(view));
  b.state().animation().clear();
  press(b, GLFW_KEY_SPACE);
  CHECK(b.state().animation().active());
  CHECK(b.state().animation().playing());
  press(b, GLFW_KEY_SPACE);
  CHECK_FALSE(b.state().animation().playing());
}

TEST_CASE("lecture mode: projector theme, large scale, fullscreen, lessons as slides, back again") {
  test::BlindApp b;
  auto& st = b.state();
  b.app->set_theme("dark");
  b.app->set_ui_scale(1.0f);
  b.frames(2);
  const float normal_font = b.app->fonts().size;
  REQUIRE(st.views().size() >= 2);
  st.select_view_index(0);

  press(b, GLFW_KEY_F5);
  CHECK(b.app->lecture());
  CHECK(st.theme() == "projector");
  CHECK(b.platform.fullscreen());
  // Text in proportion to the screen's height: the blind display is 1000 px
  // high, so 3.6 % of it is 36 px (issue 29: readable from the back row).
  CHECK(b.app->fonts().size ==
        doctest::Approx(std::round(normal_font * std::round(1000 / ui::kLectureHeightPerScale * 20) / 20)).epsilon(0.04));
  CHECK(b.app->fonts().size >= 0.035f * 1000);
  CHECK(ImGui::GetStyle().Colors[ImGuiCol_WindowBg].x > 0.99f);  // white

  press(b, GLFW_KEY_RIGHT);
  CHECK(st.view_index() == 1);
  press(b, GLFW_KEY_LEFT);
  CHECK(st.view_index() == 0);
  // ↓ ↑ go as → ← do; a digit alone opens no lesson (it types a step's number).
  press(b, GLFW_KEY_DOWN);
  CHECK(st.view_index() == 1);
  press(b, GLFW_KEY_UP);
  CHECK(st.view_index() == 0);
  press(b, GLFW_KEY_2);
  CHECK(st.view_index() == 0);
  press(b, GLFW_KEY_ESCAPE);  // forgets the "2"
  CHECK(b.app->lecture());
  const float lecture_scale = b.app->ui_scale();
  b.app->run(ui::Action::scale_up);
  b.frames(1);
  CHECK(b.app->ui_scale() > lecture_scale);

  press(b, GLFW_KEY_ESCAPE);
  CHECK_FALSE(b.app->lecture());
  CHECK(st.theme() == "dark");
  CHECK_FALSE(b.platform.fullscreen());
  CHECK(b.app->fonts().size == normal_font);
}

TEST_CASE("every theme, at any time") {
  test::BlindApp b;
  for (const char* t : {"light", "projector", "dark", "light"}) {
    b.app->set_theme(t);
    b.frames(1);
    CHECK(b.app->theme() == t);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    if (std::string(t) == "dark") CHECK(bg.x < 0.3f);
    else CHECK(bg.x > 0.9f);
  }
  b.app->set_theme("neon");  // ignored
  CHECK(b.app->theme() == "light");
}

TEST_CASE("UI scale 75–300 % with Ctrl+= / Ctrl+-: fonts are re-baked at the new size") {
  test::BlindApp b;
  b.app->set_ui_scale(1.0f);
  b.frames(1);
  const int uploads = b.platform.font_uploads;
  CHECK(b.app->fonts().size == doctest::Approx(15));
  press(b, GLFW_KEY_EQUAL, true);
  CHECK(b.app->ui_scale() == doctest::Approx(1.25));
  CHECK(b.app->fonts().size == doctest::Approx(std::round(15 * 1.25)));
  CHECK(b.platform.font_uploads > uploads);
  CHECK(ImGui::GetIO().Fonts->TexHeight > 0);
  press(b, GLFW_KEY_MINUS, true);
  press(b, GLFW_KEY_MINUS, true);
  CHECK(b.app->ui_scale() == doctest::Approx(0.75));
  press(b, GLFW_KEY_MINUS, true);
  CHECK(b.app->ui_scale() == doctest::Approx(0.75));  // the floor
  b.app->set_ui_scale(9);
  b.frames(1);
  CHECK(b.app->ui_scale() == doctest::Approx(3.0));
  CHECK(b.app->fonts().size == doctest::Approx(45));
  press(b, GLFW_KEY_0, true);
  CHECK(b.app->ui_scale() == doctest::Approx(1.0));
}

TEST_CASE("wrapped text: the line breaks it remembers are those of the fonts baked now") {
  test::BlindApp b;
  const std::string text =
      "A Transformer sees a set of tokens: without position information, shuffling the words of a sentence changes "
      "nothing it computes. Each lesson adds position back a different way, and the figures show what that does.";
  // The breaks measured afresh (app/common/text_wrap.hpp) in the current font.
  auto fresh_lines = [&](float width) {
    auto measure = [](std::string_view piece) {
      return ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, 0.0f, piece.data(), piece.data() + piece.size()).x;
    };
    return app::wrap_line(text, width, measure).size();
  };
  auto height_of = [&](std::size_t lines) {
    return static_cast<float>(lines) * ImGui::GetTextLineHeight() +
           static_cast<float>(lines - 1) * ImGui::GetStyle().ItemSpacing.y;
  };
  std::vector<float> heights;
  for (const float scale : {1.0f, 2.0f, 1.0f}) {
    CAPTURE(scale);
    b.app->set_ui_scale(scale);
    b.frames(1);  // the fonts are baked anew for the scale
    REQUIRE(app::ui::bound_ui_fonts() != nullptr);
    const float width = 40 * ImGui::GetFontSize();
    const std::size_t lines = fresh_lines(width);
    REQUIRE(lines >= 2);
    for (int again = 0; again < 2; ++again)  // the second from memory
      CHECK(app::ui::wrapped_height(nullptr, text, width) == doctest::Approx(height_of(lines)));
    // The same width in pixels at another size: other breaks, never the remembered ones.
    CHECK(app::ui::wrapped_height(nullptr, text, 600) == doctest::Approx(height_of(fresh_lines(600))));
    heights.push_back(app::ui::wrapped_height(nullptr, text, 600));
  }
  CHECK(heights[1] > heights[0]);
  CHECK(heights[2] == doctest::Approx(heights[0]));
}

TEST_CASE("the atlas bakes Greek, math symbols, sub/superscripts, arrows, checks and crosses") {
  test::BlindApp b;
  const ImFont* f = b.app->fonts().regular;
  REQUIRE(f);
  for (unsigned c : {0x03B8u /*θ*/, 0x03BBu /*λ*/, 0x03B3u /*γ*/, 0x03C3u /*σ*/, 0x03B1u, 0x03B2u, 0x2264u /*≤*/,
                     0x2265u, 0x00B7u /*·*/, 0x00B2u /*²*/, 0x207Bu /*⁻*/, 0x00B9u /*¹*/, 0x2212u /*−*/, 0x03C0u /*π*/,
                     0x03A3u /*Σ*/, 0x2192u /*→*/, 0x21BAu /*↺*/, 0x2713u /*✓*/, 0x2717u /*✗*/, 0x25B6u /*▶*/, 0x2026u /*…*/}) {
    CAPTURE(c);
    const ImFontGlyph* g = f->FindGlyphNoFallback(static_cast<ImWchar>(c));
    CHECK(g != nullptr);
  }
}

TEST_CASE("shortcuts: the ? overlay, lessons 1–9, F11, Ctrl+E, F12") {
  test::BlindApp b;
  ImGuiIO& io = ImGui::GetIO();
  io.AddInputCharacter('?');
  b.frames(1);
  CHECK(b.app->help_open());
  press(b, GLFW_KEY_ESCAPE);
  CHECK_FALSE(b.app->help_open());
  press(b, GLFW_KEY_1);
  CHECK(b.state().view_index() == 0);
  if (b.state().views().size() >= 3) {
    press(b, GLFW_KEY_3);
    CHECK(b.state().view_index() == 2);
  }
  if (b.state().views().size() >= 10) {
    press(b, GLFW_KEY_0);  // the tenth lesson (Ctrl+0 is the scale reset)
    CHECK(b.state().view_index() == 9);
  }
  press(b, GLFW_KEY_F11);
  CHECK(b.platform.fullscreen());
  press(b, GLFW_KEY_F11);
  CHECK_FALSE(b.platform.fullscreen());
  press(b, GLFW_KEY_E, true);
  CHECK(b.app->export_ui().open);
  b.app->export_ui().open = false;
  press(b, GLFW_KEY_F12);  // no window to capture in blind mode: a clear message
  CHECK(b.app->toasts().last() == b.app->tr()("ui.screenshot.no_window"));
}

TEST_CASE("idle is idle: nothing is rebuilt or re-laid out while nothing changes") {
  test::BlindApp b;
  // Not a structured binding: clang 14 (the sanitizer build) cannot capture one in a lambda.
  const auto lesson = test::lesson_with_numeric();
  const auto& view = lesson.first;
  const auto& key = lesson.second;
  REQUIRE(b.state().select_view(view));
  b.frames(5);
  const int builds = b.app->figures().builds();
  int layouts = 0;
  for (const app::FigureDef& f : b.state().view().figures)
    if (auto* e = b.app->figures().find(view, f.id)) layouts += e->widget.layouts();
  b.frames(30);
  CHECK(b.app->figures().builds() == builds);
  int layouts_after = 0;
  for (const app::FigureDef& f : b.state().view().figures)
    if (auto* e = b.app->figures().find(view, f.id)) layouts_after += e->widget.layouts();
  CHECK(layouts_after == layouts);
  CHECK_FALSE(b.app->wants_redraw());
  CHECK(std::isinf(b.app->seconds_until_wake()));
  // A parameter change rebuilds, once, exactly the figures whose builder read
  // that key (FigureCache keeps the keys each build read); the rest stay.
  auto readers_of = [&](const std::string& k) {
    int n = 0;
    for (const app::FigureDef& f : b.state().view().figures)
      if (auto* e = b.app->figures().find(view, f.id))
        n += std::binary_search(e->reads.begin(), e->reads.end(), k) ? 1 : 0;
    return n;
  };
  const int readers = readers_of(key);
  CHECK(readers > 0);
  const core::ParamSpec& spec = core::param_spec(key);
  REQUIRE(b.state().set_param(key, ui::snap(spec, ui::interpolate(spec, spec.ui_min, spec.ui_max, 0.7), true)).empty());
  b.frames(3);
  CHECK(b.app->figures().builds() == builds + readers);
  // A key every figure reads (here d or base) rebuilds each figure once.
  for (const std::string k : {"d", "base"})
    if (readers_of(k) == static_cast<int>(b.state().view().figures.size())) {
      const int before = b.app->figures().builds();
      const core::ParamSpec& s2 = core::param_spec(k);
      REQUIRE(b.state().set_param(k, ui::snap(s2, ui::interpolate(s2, s2.ui_min, s2.ui_max, 0.3), true)).empty());
      b.frames(3);
      CHECK(b.app->figures().builds() == before + static_cast<int>(b.state().view().figures.size()));
      break;
    }
}

TEST_CASE("toasts wake the window until they expire, on the wall clock") {
  test::BlindApp b;
  b.app->toasts().push("hello");
  CHECK(b.app->wants_redraw());
  b.frames(1);
  CHECK(b.app->seconds_until_wake() == doctest::Approx(ui::kToastSeconds).epsilon(0.05));
  // The window slept: its next frame advances animations by 1/60 s only, but
  // the toast aged by the seconds that passed.
  b.clock += ui::kToastSeconds + 0.1;
  CHECK(b.app->seconds_until_wake() == 0);
  b.frames(1, 1.0 / 60, false);
  CHECK(b.app->toasts().empty());
  CHECK(std::isinf(b.app->seconds_until_wake()));
}

TEST_CASE("the head animation sweeps 1..heads, the range its slider shows, so every frame moves it") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.select_view("alibi"));
  REQUIRE(st.set_param("heads", 8.0).empty());
  ui::Animation& a = st.animation();
  a.choose("head", st.params());
  CHECK(a.config().from == 1);
  CHECK(a.config().to == 8);
  a.set_speed(2);  // one sweep: 2.5 s, 75 frames at 30 Hz
  a.play();
  std::vector<bool> seen(9, false);
  for (int i = 0; i < 80; ++i) {
    b.frames(1, 1.0 / 30);
    const double h = st.params().real("head");
    REQUIRE(h >= 1);
    REQUIRE(h <= 8);
    seen[static_cast<std::size_t>(h)] = true;
  }
  // Every head is shown in one sweep (over 1..256 only heads 1, 4 and 8
  // would be, the rest of the sweep refused as head > heads).
  for (int h = 1; h <= 8; ++h) CHECK(seen[static_cast<std::size_t>(h)]);
}
