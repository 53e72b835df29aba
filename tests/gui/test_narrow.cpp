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
      // Each word (a run without spaces) narrower than the title's column.
      std::size_t start = 0;
      while (start < title.size()) {
        std::size_t end = title.find(' ', start);
        if (end == std::string::npos) end = title.size();
        const std::string word = title.substr(start, end - start);
        CHECK(ImGui::CalcTextSize(word.c_str()).x <= box.rect.z - box.rect.x);
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
