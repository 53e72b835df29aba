// The keys of lecture mode and of the guided steps (a clicker's keys, the
// figures in front, the sliders' strip, the presenter's tools): part of the
// one shortcut table (shortcuts.hpp), listed in the "?" overlay after the
// app's own keys.

#include "app/ui/shortcuts.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace poslab::app::ui {

std::span<const Shortcut> lecture_shortcuts() {
  // action, key, ctrl, shift, shown, label, arg, while typing, repeats, any shift
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
  };
  return table;
}

}  // namespace poslab::app::ui
