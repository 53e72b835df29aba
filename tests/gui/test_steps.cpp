// Guided steps through the app's state (AppState, no window): every step of
// every lesson applies its parameters on top of the lesson's defaults and can
// be shown; → reveals an answer before it moves on; ← undoes it; the ends
// flow into the neighbouring lessons; a step resets to what it set;
// `--step N --reveal` opens a step with its answer shown.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/decks/deck.hpp"
#include "app/lessons/lesson.hpp"
#include "app/ui/a11y_mirror.hpp"
#include "app/ui/app_state.hpp"
#include "app/ui/request.hpp"
#include "gui_test_support.hpp"

using namespace poslab;
using namespace poslab::app;

namespace {

/// The value of `key` in `state` as a session would write it.
std::string typed(const ui::AppState& state, const std::string& key) {
  Session s;
  s.set_params(state.params());
  for (const auto& [k, v] : s.params)
    if (k == key) return v;
  return "(default)";
}

void check_scene_shown(const ui::AppState& state, const Scene& scene, bool revealed) {
  CHECK(state.view().id == scene.lesson);
  REQUIRE(state.resolved() != nullptr);
  const Session expected = scene.session(revealed);
  for (const auto& kv : expected.params) {
    CAPTURE(kv.first);
    CHECK(typed(state, kv.first) == kv.second);
  }
  // Keys of the lesson the scene does not set are at their defaults.
  for (std::string_view key : state.view().keys) {
    bool set = false;
    for (const auto& kv : expected.params) set = set || kv.first == key;
    if (!set) CHECK_FALSE(state.params().is_set(key));
  }
}

}  // namespace

TEST_CASE("steps: every step of every lesson applies and shows its parameters") {
  ui::AppState state;
  int lessons_with_steps = 0;
  for (int i = 0; i < static_cast<int>(state.views().size()); ++i) {
    state.open_lesson(i);
    const Deck* steps = state.steps();
    CAPTURE(state.view().id);
    if (!steps) {
      CHECK(state.step() == -1);
      continue;
    }
    ++lessons_with_steps;
    CHECK(state.step() == 0);
    for (int s = 0; s < static_cast<int>(steps->scenes.size()); ++s) {
      CAPTURE(s);
      state.reset_view();
      REQUIRE(state.go_to_step(s).empty());
      CHECK(state.step() == s);
      CHECK_FALSE(state.step_revealed());
      check_scene_shown(state, steps->scenes[static_cast<std::size_t>(s)], false);
    }
  }
  CHECK(lessons_with_steps >= 1);
}

TEST_CASE("steps: next reveals an answer first, back hides it, R resets the step") {
  ui::AppState state;
  REQUIRE(state.select_view("rope-2d"));
  const Deck* steps = state.steps();
  REQUIRE(steps != nullptr);
  int q = -1;
  for (int s = 0; s < static_cast<int>(steps->scenes.size()); ++s)
    if (steps->scenes[static_cast<std::size_t>(s)].has_question()) q = s;
  REQUIRE(q >= 0);
  const Scene& scene = steps->scenes[static_cast<std::size_t>(q)];
  REQUIRE(state.go_to_step(q).empty());
  CHECK(state.next_step().empty());  // reveal, same step
  CHECK(state.step() == q);
  CHECK(state.step_revealed());
  check_scene_shown(state, scene, true);
  CHECK(state.prev_step().empty());  // hide again
  CHECK(state.step() == q);
  CHECK_FALSE(state.step_revealed());
  check_scene_shown(state, scene, false);
  // A slider moved within the step (the first of the step's parameters that
  // takes the value 1: a 2-D vector such as rope-2d's k does not); resetting
  // the step brings its values back.
  bool moved = false;
  for (const auto& kv : scene.params)
    if (state.set_param_text(kv.first, "1").empty()) {
      moved = true;
      break;
    }
  REQUIRE(moved);
  REQUIRE(state.go_to_step(state.step()).empty());
  check_scene_shown(state, scene, false);
}

TEST_CASE("steps: the ends flow into the neighbouring lessons") {
  ui::AppState state;
  REQUIRE(state.select_view("rope-2d"));
  const Deck* steps = state.steps();
  REQUIRE(steps != nullptr);
  const int last = static_cast<int>(steps->scenes.size()) - 1;
  REQUIRE(state.go_to_step(last).empty());
  if (steps->scenes.back().has_question()) CHECK(state.next_step().empty());  // reveal first
  const int index = state.view_index();
  CHECK(state.next_step().empty());
  CHECK(state.view_index() == index + 1);
  // Back from the next lesson's first step (or its whole page) returns to the last step here.
  if (state.step() > 0) REQUIRE(state.go_to_step(0).empty());
  CHECK(state.prev_step().empty());
  CHECK(state.view_index() == index);
  CHECK(state.step() == last);
  // The whole page changes no parameter and has no step.
  const core::Params before = state.params();
  REQUIRE(state.go_to_step(-1).empty());
  CHECK(state.step() == -1);
  CHECK(state.current_step() == nullptr);
  CHECK(state.params() == before);
}

TEST_CASE("steps: choosing another lesson by id (CLI, session) leaves the step") {
  ui::AppState state;
  REQUIRE(state.select_view("rope-2d"));
  REQUIRE(state.go_to_step(0).empty());
  REQUIRE(state.select_view("sinusoidal"));
  CHECK(state.step() == -1);
}

TEST_CASE("--step N --reveal: every step that asks opens with its answer and its reveal; others are refused") {
  int asked = 0;
  for (const app::ViewDef& v : app::view_defs()) {
    const Deck* steps = lesson_steps(v.id);
    if (!steps) continue;
    for (int s = 0; s < static_cast<int>(steps->scenes.size()); ++s) {
      const Scene& scene = steps->scenes[static_cast<std::size_t>(s)];
      CAPTURE(v.id);
      CAPTURE(s + 1);
      ui::AppState state;
      WindowRequest r;
      r.view = std::string(v.id);
      r.step = s + 1;
      r.reveal = true;
      const std::string why = ui::apply_window_request(state, r);
      if (scene.has_question()) {
        ++asked;
        CHECK(why.empty());
        CHECK(state.step() == s);
        CHECK(state.step_revealed());
        check_scene_shown(state, scene, true);  // the reveal's params over the step's
        if (!scene.reveal_figure.empty()) CHECK(state.front_figure() == scene.reveal_figure);
        // --set applies on top of the revealed step.
        if (!scene.reveal_params.empty()) {
          ui::AppState over;
          WindowRequest o = r;
          const std::string key = scene.reveal_params.front().first;
          o.sets = {key + "=" + typed(state, key)};
          CHECK(ui::apply_window_request(over, o).empty());
          CHECK(over.step_revealed());
        }
      } else {
        // A step that asks nothing has nothing to reveal: refused, naming the steps that ask.
        CHECK(why.find("--reveal") != std::string::npos);
        CHECK(why.find("step " + std::to_string(s + 1) + " of " + std::string(v.id)) != std::string::npos);
        std::string asking;
        for (std::size_t i = 0; i < steps->scenes.size(); ++i)
          if (steps->scenes[i].has_question()) asking += (asking.empty() ? "" : ", ") + std::to_string(i + 1);
        if (!asking.empty()) CHECK(why.find(asking) != std::string::npos);
      }
    }
  }
  CHECK(asked >= 5);
  // Without --reveal the same step shows its question, the answer still hidden.
  ui::AppState state;
  WindowRequest r;
  r.view = "decay";
  r.step = 1;
  REQUIRE(ui::apply_window_request(state, r).empty());
  CHECK_FALSE(state.step_revealed());
}

TEST_CASE("steps: a lesson's own controls show only on the page and on steps that show their key") {
  // why-position's Shuffle buttons set `perm`: not before the step that
  // teaches the shuffle (a student would press them a step early).
  test::BlindApp b;
  REQUIRE(b.state().select_view("why-position"));
  const app::Deck* steps = b.state().steps();
  REQUIRE(steps);
  (void)b.state().go_to_step(-1);
  b.frames(1);
  CHECK(b.state().step_shows("perm"));
  int with = 0, without = 0;
  for (int s = 0; s < static_cast<int>(steps->scenes.size()); ++s) {
    CAPTURE(s);
    REQUIRE(b.state().go_to_step(s).empty());
    b.frames(1);
    const auto& sliders = steps->scenes[static_cast<std::size_t>(s)].sliders;
    const bool listed = std::find(sliders.begin(), sliders.end(), "perm") != sliders.end();
    CHECK(b.state().step_shows("perm") == (listed || sliders.empty()));
    (listed ? with : without) += 1;
  }
  CHECK(with >= 1);     // the step that teaches the shuffle has its buttons
  CHECK(without >= 1);  // and the steps before it do not
  REQUIRE(b.state().go_to_step(0).empty());
  CHECK_FALSE(b.state().step_shows("perm"));
}

TEST_CASE("the page's mirror offers every control of every step, and the lab's Train with them") {
  test::BlindApp b;
  for (const ViewDef& view : view_defs()) {
    REQUIRE(b.state().select_view(view.id));
    b.frames(1);
    const std::vector<std::string_view> keys = link_keys(view);
    const int steps = b.state().steps() ? static_cast<int>(b.state().steps()->scenes.size()) : 0;
    for (int step = 0; step < std::max(1, steps); ++step) {
      if (steps > 0) REQUIRE(b.state().go_to_step(step).empty());
      const nlohmann::json mirror = nlohmann::json::parse(ui::a11y_state(*b.app));
      std::vector<std::string> in_step;
      for (const auto& c : mirror["controls"]) {
        const std::string key = c["key"];
        CAPTURE(key);
        CHECK(std::find(keys.begin(), keys.end(), key) != keys.end());
        if (c["step"].get<bool>()) in_step.push_back(key);
      }
      for (std::string_view key : view.keys)
        if (b.state().step_shows(key)) CHECK(std::find(in_step.begin(), in_step.end(), key) != in_step.end());
      for (std::string_view key : view.run_keys)  // a button on the canvas at every step: in the step's controls
        CHECK(std::find(in_step.begin(), in_step.end(), std::string(key)) != in_step.end());
    }
  }
  REQUIRE(b.state().select_view("lab"));
  CHECK(ui::a11y_set_text(*b.app, "lab_train", "false").empty());
  CHECK_FALSE(b.state().params().boolean("lab_train"));
}
