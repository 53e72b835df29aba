// The narrow layout (issue 33): a phone upright (390×844, 320×568), a
// tablet upright (768×1024) and a phone on its side (844×390) get one
// column — every lesson, every step, both languages: each slider's hit box
// at least 44 px tall, no laid-out text outside the window or over another,
// the step's figure wholly on the first screen; the lesson list behind its
// button with every title's words whole. A wide window, lecture mode and
// an embed keep their own layouts.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/link.hpp"
#include "app/decks/deck.hpp"
#include "gui_test_support.hpp"

using namespace poslab;

namespace {

float overlap(const ImVec4& a, const ImVec4& b) {
  const float w = std::min(a.z, b.z) - std::max(a.x, b.x), h = std::min(a.w, b.w) - std::max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/// What is wrong with the laid-out boxes in a window of `display` ("" when nothing).
std::string check_boxes(const std::vector<app::ui::LaidOutBox>& boxes, ImVec2 display, bool first_screen_figure) {
  int sliders = 0;
  for (const auto& b : boxes) {
    const std::string at = b.kind + " " + b.id;
    if (b.rect.x < -0.5f || b.rect.z > display.x + 0.5f) return at + " outside the window's width";
    if (b.rect.z - b.rect.x < 1 || b.rect.w - b.rect.y < 1) return at + " empty";
    if (b.kind == "slider") {
      ++sliders;
      if (b.rect.w - b.rect.y < 44 - 0.01f) return at + " under 44 px tall: " + std::to_string(b.rect.w - b.rect.y);
    }
    if (b.kind == "figure" && first_screen_figure && (b.rect.y < 0 || b.rect.w > display.y + 0.5f))
      return at + " not on the first screen (" + std::to_string(b.rect.y) + " to " + std::to_string(b.rect.w) + ")";
  }
  for (std::size_t i = 0; i < boxes.size(); ++i)
    for (std::size_t j = i + 1; j < boxes.size(); ++j) {
      const auto &a = boxes[i], &b = boxes[j];
      if (a.kind == "figure" || b.kind == "figure") continue;  // a figure's own header is inside its block
      if (overlap(a.rect, b.rect) > 1.0f) return a.kind + " " + a.id + " overlaps " + b.kind + " " + b.id;
    }
  (void)sliders;
  return "";
}

/// Opens the lesson `id`.
void open_view(app::ui::AppState& st, std::string_view id) {
  for (int i = 0; i < static_cast<int>(st.views().size()); ++i)
    if (st.views()[static_cast<std::size_t>(i)].id == id) st.open_lesson(i);
  REQUIRE(st.view().id == id);
}

/// The figure laid out last frame (an empty box when none).
app::ui::LaidOutBox figure_box(test::BlindApp& b) {
  for (const auto& box : b.app->laid_out())
    if (box.kind == "figure") return box;
  return {};
}

/// A finger's tap at `at`: down for a frame, then up.
void tap(test::BlindApp& b, ImVec2 at) {
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = at;
  b.frames(1);
  io.MouseDown[0] = true;
  b.frames(1);
  io.MouseDown[0] = false;
  b.frames(3);
}

}  // namespace

TEST_CASE("narrow layout: phones and a tablet, every lesson and step — sliders ≥ 44 px, no text clipped or overlapping, the figure on the first screen") {
  test::BlindApp b;
  auto& st = b.state();
  int shown = 0, sliders = 0;
  for (const ImVec2 display : {ImVec2{390, 844}, ImVec2{320, 568}, ImVec2{768, 1024}, ImVec2{844, 390}}) {
    b.display = display;
    for (const std::string lang : {"en", "zh"}) {
      REQUIRE(b.app->set_lang(lang).empty());
      CAPTURE(lang);
      CAPTURE(display.x);
      CAPTURE(display.y);
      for (int i = 0; i < static_cast<int>(st.views().size()); ++i) {
        st.open_lesson(i);
        (void)st.go_to_step(-1);
        b.frames(3);
        CAPTURE(st.view().id);
        REQUIRE(b.app->narrow());
        // The lesson without steps: its figure (tabs) first, then its sliders.
        CHECK(check_boxes(b.app->laid_out(), display, false) == "");
        const int steps = st.steps() ? static_cast<int>(st.steps()->scenes.size()) : 0;
        for (int s = 0; s < steps; ++s) {
          REQUIRE(st.go_to_step(s).empty());
          for (int k = 0; k < 2; ++k) {  // the question, then its answer
            b.frames(3);
            CAPTURE(s + 1);
            CAPTURE(st.step_revealed());
            const auto& boxes = b.app->laid_out();
            // A phone on its side has room for the figure and the bar above it only.
            CHECK(check_boxes(boxes, display, true) == "");
            const bool has_figure = std::any_of(boxes.begin(), boxes.end(), [](const auto& x) { return x.kind == "figure"; });
            CHECK(has_figure);
            sliders += static_cast<int>(std::count_if(boxes.begin(), boxes.end(), [](const auto& x) { return x.kind == "slider"; }));
            ++shown;
            const app::Scene* step = st.current_step();
            if (!step || !step->has_question() || st.step_revealed()) break;
            REQUIRE(st.next_step().empty());
          }
        }
      }
      // The lesson list in its drawer: every title whole, none over another; a tap opens the lesson and closes it.
      b.app->set_drawer(1);
      b.frames(3);
      int lessons = 0;
      for (const auto& box : b.app->laid_out()) lessons += box.kind == "lesson";
      CHECK(lessons == static_cast<int>(st.views().size()));
      CHECK(check_boxes(b.app->laid_out(), display, false) == "");
      b.app->set_drawer(2);  // all the parameters
      b.frames(3);
      CHECK(check_boxes(b.app->laid_out(), display, false) == "");
      b.app->set_drawer(0);
    }
  }
  CHECK(shown >= 300);
  CHECK(sliders >= shown);  // most steps show a slider or more
  MESSAGE("narrow layout: " << shown << " steps laid out, " << sliders << " sliders checked");
}

TEST_CASE("narrow layout: every lesson title's words fit the drawer whole at 320 px (no word broken inside itself)") {
  test::BlindApp b;
  b.display = {320, 568};
  for (const std::string lang : {"en", "zh"}) {
    REQUIRE(b.app->set_lang(lang).empty());
    b.app->set_drawer(1);
    b.frames(3);
    for (const auto& box : b.app->laid_out()) {
      if (box.kind != "lesson") continue;
      const std::string title = app::ui::lesson_title(b.app->tr(), box.id);
      CAPTURE(title);
      // Each word narrower than the title's column: a run of Latin letters,
      // digits and signs without a space (Chinese breaks between any two characters).
      std::size_t start = 0;
      while (start < title.size()) {
        std::size_t end = start;
        while (end < title.size() && title[end] != ' ' && static_cast<unsigned char>(title[end]) < 0x80) ++end;
        const std::string word = title.substr(start, end - start);
        CAPTURE(word);
        if (!word.empty()) CHECK(ImGui::CalcTextSize(word.c_str()).x <= box.rect.z - box.rect.x);
        start = end + 1;
      }
    }
  }
}

TEST_CASE("narrow layout only where it belongs: a wide window, lecture mode and an embed keep their layouts") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.select_view("rope"));
  b.display = {1280, 720};
  b.frames(3);
  CHECK_FALSE(b.app->narrow());
  CHECK(b.app->laid_out().empty());
  b.display = {799, 900};
  b.frames(3);
  CHECK(b.app->narrow());
  b.display = {390, 844};
  b.app->set_lecture(true);
  b.frames(3);
  CHECK_FALSE(b.app->narrow());
  b.app->set_lecture(false);
  b.frames(3);
  CHECK(b.app->narrow());
  app::EmbedOptions e;
  e.figure = "frequencies";
  e.sliders = {"d", "base"};
  REQUIRE(b.app->set_embed(e).empty());
  b.frames(3);
  CHECK_FALSE(b.app->narrow());
}

// [SECTION] The real window (under Xvfb)

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "app/platform/desktop/window.hpp"
#include "app/ui/image.hpp"

TEST_CASE("the real window: narrowed to 390×844 it gets the narrow layout, widened it gets the three panels back") {
  if (!std::getenv("DISPLAY") || !*std::getenv("DISPLAY")) {
    MESSAGE("no display: skipped (ctest runs this under xvfb-run)");
    return;
  }
  std::string error;
  std::unique_ptr<app::ui::Window> window = app::ui::Window::create(1280, 800, false, error);
  CAPTURE(error);
  REQUIRE(window);
  app::ui::AppOptions o;
  o.assets = app::assets_dir();
  o.lang = "en";
  o.persist = false;
  app::ui::App a(*window, o);
  window->attach(a);
  struct Detach {
    app::ui::Window& w;
    ~Detach() { w.detach(); }
  } detach{*window};
  window->show(a.settings(), o.assets / "icons" / "poslab-256.png");
  auto frames = [&](int n) {
    for (int i = 0; i < n; ++i) window->run_frame(a, 1.0 / 60);
  };
  REQUIRE(a.state().select_view("rope"));
  frames(6);
  CHECK_FALSE(a.narrow());
  window->set_size(390, 844);
  frames(6);
  CHECK(a.narrow());
  int sliders = 0;
  for (const auto& box : a.laid_out()) sliders += box.kind == "slider";
  CHECK(sliders > 0);
  window->set_size(1280, 800);
  frames(6);
  CHECK_FALSE(a.narrow());
}

TEST_CASE("poslab screenshot --size 390x844 draws the narrow layout: the Lessons button where the layout puts it") {
  if (!std::getenv("DISPLAY") || !*std::getenv("DISPLAY")) {
    MESSAGE("no display: skipped (ctest runs this under xvfb-run)");
    return;
  }
  namespace fs = std::filesystem;
  const fs::path png = fs::temp_directory_path() / ("poslab-narrow-" + std::to_string(::getpid()) + ".png");
  const test::Run r =
      test::run_poslab("screenshot --view rope --step 2 --lang en --theme dark --size 390x844 --out " + png.string());
  REQUIRE_MESSAGE(r.code == 0, "exit " << r.code << ", stderr:\n" << r.err);
  std::ifstream in(png, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  fs::remove(png);
  const app::ui::Image img = app::ui::decode_png(bytes);
  REQUIRE(img.width == 390);
  REQUIRE(img.height == 844);
  // The same layout in blind mode: where the Lessons and All parameters buttons are.
  test::BlindApp b;
  b.display = {390, 844};
  REQUIRE(b.state().select_view("rope"));
  REQUIRE(b.state().go_to_step(1).empty());
  b.frames(3);
  REQUIRE(b.app->narrow());
  int found = 0;
  for (const auto& box : b.app->laid_out()) {
    if (box.kind != "button" || (box.id != "lessons" && box.id != "params")) continue;
    ++found;
    CAPTURE(box.id);
    // Inside the button (4 px in from its edges, clear of its label's middle
    // third): the button's fill, not the window's background beside it.
    const int y = static_cast<int>((box.rect.y + box.rect.w) / 2);
    const int bg_x = box.id == "lessons" ? 2 : img.width - 3;
    const std::uint32_t bg = img.pixels[static_cast<std::size_t>(y) * img.width + bg_x];
    int fill = 0, total = 0;
    for (int yy = static_cast<int>(box.rect.y) + 4; yy < static_cast<int>(box.rect.w) - 4; ++yy)
      for (int xx = static_cast<int>(box.rect.x) + 4; xx < static_cast<int>(box.rect.x) + 10; ++xx) {
        ++total;
        fill += img.pixels[static_cast<std::size_t>(yy) * img.width + xx] != bg;
      }
    CHECK(total > 50);
    CHECK(fill > 0.9 * total);
  }
  CHECK(found == 2);
}

TEST_CASE("narrow layout: a step's lesson keeps its other figures behind tabs — a tap shows another, the next step opens on its own") {
  test::BlindApp b;
  b.display = {768, 1024};
  auto& st = b.state();
  open_view(st, "sinusoidal");
  REQUIRE(st.go_to_step(1).empty());  // step 2: the sinusoids, the lesson's second figure of seven
  b.frames(3);
  REQUIRE(b.app->narrow());
  const auto first = figure_box(b);
  CHECK(first.id == "sinusoids");
  // A tap on the tab bar's first tab, just above the figure.
  tap(b, {first.rect.x + 12, first.rect.y - 20});
  const auto tapped = figure_box(b);
  CHECK(tapped.id != "sinusoids");
  CHECK(app::find_figure(st.view(), tapped.id) != nullptr);
  CHECK(st.step() == 1);  // still the same step
  // The next step opens on its own figure.
  REQUIRE(st.next_step().empty());
  b.frames(3);
  CHECK(figure_box(b).id == "wavelengths");
}

TEST_CASE("narrow layout: under a lesson's own step controls (why-position's Shuffle row) the other figures are behind tabs too, on a 320 × 568 phone") {
  test::BlindApp b;
  b.display = {320, 568};
  auto& st = b.state();
  open_view(st, "why-position");
  REQUIRE(st.steps() != nullptr);
  int tapped_steps = 0;
  for (int s = 0; s < static_cast<int>(st.steps()->scenes.size()); ++s) {
    REQUIRE(st.go_to_step(s).empty());
    b.frames(3);
    REQUIRE(b.app->narrow());
    const auto first = figure_box(b);
    CAPTURE(s + 1);
    REQUIRE(!first.id.empty());
    CHECK(first.rect.w <= 568.5f);  // the whole figure on the first screen
    // A tap on the tab bar's first tab, just above the figure: another figure, the same step.
    tap(b, {first.rect.x + 12, first.rect.y - 20});
    const auto tapped = figure_box(b);
    CHECK(st.step() == s);
    // (the bar scrolls to the step's own tab, so the leftmost one is another figure
    // once the step's figure is not the first)
    if (first.id != st.view().figures.front().id) {
      CHECK(tapped.id != first.id);
      CHECK(app::find_figure(st.view(), tapped.id) != nullptr);
      ++tapped_steps;
    }
  }
  CHECK(tapped_steps >= 3);
}
