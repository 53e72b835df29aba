// The keys of lecture mode and of the guided steps (a clicker's keys, the
// figures in front, the sliders' strip, the presenter's tools): part of the
// one shortcut table (shortcuts.hpp), listed in the "?" overlay after the
// app's own keys. In lecture mode no key leaves the deck (issue 29): ↑ ↓ go
// through the scenes as ← → do, digits then Enter jump to a scene (as in
// PowerPoint and Keynote), B / . and W / , blank the screen (a clicker's
// "blank" button sends .), < > step the animation, G shows every scene and
// V opens the presenter view; outside lecture mode the same keys keep their
// own meaning (shortcuts.cpp: KeyMode::normal).

#include "app/ui/shortcuts.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace poslab::app::ui {

std::span<const Shortcut> lecture_shortcuts() {
  // action, key, ctrl, shift, shown, label, arg, while typing, repeats, any shift
  constexpr KeyMode L = KeyMode::lecture;
  // "0 … 9, Enter" is one row; each digit (and the keypad's) is an alias of it.
  constexpr const char* kTyped = "0 … 9, Enter";
  static const Shortcut table[] = {
      {Action::next_step, GLFW_KEY_RIGHT, false, false, "→ / PgDn", "ui.keys.next_step"},
      {Action::next_step, GLFW_KEY_PAGE_DOWN, false, false, "PgDn", nullptr},
      {Action::prev_step, GLFW_KEY_LEFT, false, false, "← / PgUp / Shift+Space", "ui.keys.prev_step"},
      {Action::prev_step, GLFW_KEY_PAGE_UP, false, false, "PgUp", nullptr},
      {Action::space, GLFW_KEY_SPACE, false, false, "Space", "ui.keys.space"},
      {Action::prev_step, GLFW_KEY_SPACE, false, true, "Shift+Space", nullptr},
      {Action::first_step, GLFW_KEY_HOME, false, false, "Home / End", "ui.keys.first_last"},
      {Action::last_step, GLFW_KEY_END, false, false, "End", nullptr},
      {Action::reset_step, GLFW_KEY_R, false, false, "R", "ui.keys.reset_step"},
      {Action::prev_figure, GLFW_KEY_LEFT_BRACKET, false, false, "[ / ]", "ui.keys.figures"},
      {Action::next_figure, GLFW_KEY_RIGHT_BRACKET, false, false, "]", nullptr},
      {Action::toggle_sliders, GLFW_KEY_S, false, false, "S", "ui.keys.sliders"},
      {Action::laser, GLFW_KEY_L, false, false, "L", "ui.keys.laser"},
      {Action::spotlight, GLFW_KEY_H, false, false, "H", "ui.keys.spotlight"},
      {Action::pen, GLFW_KEY_D, false, false, "D", "ui.keys.pen"},
      {Action::clear_pen, GLFW_KEY_C, false, false, "C", "ui.keys.clear_pen"},
      {Action::next_step, GLFW_KEY_DOWN, false, false, "↓ / ↑", "ui.keys.up_down", 1, false, false, false, L},
      {Action::prev_step, GLFW_KEY_UP, false, false, "↑", nullptr, 1, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_0, false, false, kTyped, "ui.keys.go_to_scene", 0, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_1, false, false, kTyped, nullptr, 1, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_2, false, false, kTyped, nullptr, 2, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_3, false, false, kTyped, nullptr, 3, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_4, false, false, kTyped, nullptr, 4, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_5, false, false, kTyped, nullptr, 5, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_6, false, false, kTyped, nullptr, 6, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_7, false, false, kTyped, nullptr, 7, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_8, false, false, kTyped, nullptr, 8, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_9, false, false, kTyped, nullptr, 9, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_KP_0, false, false, kTyped, nullptr, 0, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_KP_1, false, false, kTyped, nullptr, 1, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_KP_2, false, false, kTyped, nullptr, 2, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_KP_3, false, false, kTyped, nullptr, 3, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_KP_4, false, false, kTyped, nullptr, 4, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_KP_5, false, false, kTyped, nullptr, 5, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_KP_6, false, false, kTyped, nullptr, 6, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_KP_7, false, false, kTyped, nullptr, 7, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_KP_8, false, false, kTyped, nullptr, 8, false, false, false, L},
      {Action::scene_digit, GLFW_KEY_KP_9, false, false, kTyped, nullptr, 9, false, false, false, L},
      {Action::go_to_typed, GLFW_KEY_ENTER, false, false, kTyped, nullptr, 0, false, false, false, L},
      {Action::go_to_typed, GLFW_KEY_KP_ENTER, false, false, kTyped, nullptr, 0, false, false, false, L},
      {Action::scene_grid, GLFW_KEY_G, false, false, "G", "ui.keys.scene_grid", 0, false, false, false, L},
      {Action::blank_black, GLFW_KEY_B, false, false, "B / .", "ui.keys.blank_black", 0, false, false, false, L},
      {Action::blank_black, GLFW_KEY_PERIOD, false, false, ".", nullptr, 0, false, false, false, L},
      {Action::blank_white, GLFW_KEY_W, false, false, "W / ,", "ui.keys.blank_white", 0, false, false, false, L},
      {Action::blank_white, GLFW_KEY_COMMA, false, false, ",", nullptr, 0, false, false, false, L},
      {Action::step_back, GLFW_KEY_COMMA, false, true, "< / >", "ui.keys.animation_steps", 0, false, true, false, L},
      {Action::step_forward, GLFW_KEY_PERIOD, false, true, ">", nullptr, 0, false, true, false, L},
      {Action::presenter_view, GLFW_KEY_V, false, false, "V", "ui.keys.presenter_view", 0, false, false, false, L},
  };
  return table;
}

}  // namespace poslab::app::ui
