#pragma once
// Every keyboard shortcut, in one table: what handles the keys and what the
// "?" overlay lists are the same data.

#include <span>
#include <vector>

#include "app/common/i18n.hpp"

namespace poslab::app::ui {

enum class Action {
  open_session, save_session, copy_state, paste_state, copy_link, export_dialog, screenshot,
  lecture, fullscreen, scale_up, scale_down, scale_reset, play, step_back, step_forward,
  prev_lesson, next_lesson, prev_step, next_step, reset_step, notation, lesson_n, help, exit_lecture, quit,
};

struct Shortcut {
  Action action;
  int key;              ///< GLFW key code
  bool ctrl = false, shift = false;
  const char* keys;     ///< as shown in the overlay, e.g. "Ctrl+S"
  const char* label;    ///< translation key of what it does
  int arg = 0;          ///< lesson_n: the lesson index
  bool while_typing = false;  ///< also when a text field has the keyboard
};

std::span<const Shortcut> shortcuts();

struct Pressed {
  Action action;
  int arg;
};

/// The shortcuts pressed this frame (ImGui's key state), skipping plain keys
/// while a text field is being edited; "?" typed opens help.
std::vector<Pressed> pressed_shortcuts();

/// The "?" overlay: a modal table of every shortcut.
void draw_shortcut_overlay(bool* open, const Translator& tr, float scale);

}  // namespace poslab::app::ui
