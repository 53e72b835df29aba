// A guided step in the normal window (not lecture mode) at 1280×720: however
// long its caption, question and revealed answer, the plot keeps at least
// 45 % of the window's height and stays inside the window (a review found
// 130 px of plot under scaling step 6's answer). Long words scroll in a box
// of their own above the figure instead.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <utility>

#include "app/decks/deck.hpp"
#include "gui_test_support.hpp"

using namespace poslab;

TEST_CASE("steps in the window at 1280×720: the plot keeps ≥ 45 % of the height, every step, question and answer") {
  test::BlindApp b;
  auto& st = b.state();
  b.display = {1280, 720};
  for (const std::string lang : {"en", "zh"}) {
    REQUIRE(b.app->set_lang(lang).empty());
    CAPTURE(lang);
    float worst = 1;
    int shown = 0;
    for (int i = 0; i < static_cast<int>(st.views().size()); ++i) {
      st.open_lesson(i);
      const int steps = st.steps() ? static_cast<int>(st.steps()->scenes.size()) : 0;
      for (int s = 0; s < steps; ++s) {
        REQUIRE(st.go_to_step(s).empty());
        for (int k = 0; k < 2; ++k) {  // the question, then its answer
          b.frames(3);
          const ImVec4 p = b.app->lesson_view().last_plot_rect();
          CAPTURE(st.view().id);
          CAPTURE(s + 1);
          CAPTURE(st.step_revealed());
          CAPTURE(st.front_figure());
          const float h = p.w - p.y;
          CHECK(h >= 0.45f * b.display.y);
          CHECK(p.y >= 0);
          CHECK(p.w <= b.display.y + 0.5f);  // on screen without scrolling the page
          worst = std::min(worst, h / b.display.y);
          ++shown;
          const app::Scene* step = st.current_step();
          if (!step || !step->has_question() || st.step_revealed()) break;
          REQUIRE(st.next_step().empty());
        }
      }
    }
    CHECK(shown >= 40);
    MESSAGE("steps (" << lang << ") at 1280×720: the smallest plot share of the height " << worst << " over " << shown);
  }
}
