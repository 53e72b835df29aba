#pragma once
// Every keyboard shortcut, in one table: what handles the keys and what the
// "?" overlay lists are the same data.

#include <span>
#include <vector>

#include "app/common/i18n.hpp"

namespace poslab::app::ui {

enum class Action {
  open_session, save_session, copy_state, paste_state, copy_link, export_dialog, screenshot,
  copy_embed,  ///< File → Copy embed code (no key)
  lecture, fullscreen, scale_up, scale_down, scale_reset, play, step_back, step_forward,
  prev_lesson, next_lesson, prev_step, next_step, reset_step, notation, lesson_n, help,
  /// Esc: closes the topmost window or prompt; leaves lecture mode only when none is open.
  escape,
  quit,
  /// Space: the next step in lecture mode (a clicker's key), else play or pause.
  space,
  first_step, last_step,    ///< Home / End
  prev_figure, next_figure, ///< [ / ]
  toggle_sliders,           ///< S in lecture mode: the slider strip
  deck_panel,               ///< Ctrl+D: the deck editor
  /// Presenter tools in lecture mode: a laser dot while L is held, a
  /// spotlight (H), a pen (D to draw, C to clear).
  laser, spotlight, pen, clear_pen,
};

/// Kept for callers of the old name: Esc left lecture mode.
inline constexpr Action exit_lecture = Action::escape;

struct Shortcut {
  Action action;
  int key;              ///< GLFW key code
  bool ctrl = false, shift = false;
  const char* keys;     ///< as shown in the overlay, e.g. "Ctrl+S"
  const char* label;    ///< translation key of what it does (null: an alias, not listed)
  int arg = 0;          ///< lesson_n: the lesson index
  bool while_typing = false;  ///< also when a text field has the keyboard
  bool repeats = false;       ///< held down, the action repeats (auto-repeat)
  bool any_shift = false;     ///< Shift may be held or not
};

std::span<const Shortcut> shortcuts();
/// The lecture's part of that table (lecture/lecture_keys.cpp).
std::span<const Shortcut> lecture_shortcuts();

struct Pressed {
  Action action;
  int arg;
  bool operator==(const Pressed&) const = default;
};

/// The shortcuts pressed this frame from ImGui's key state (for a platform
/// that does not queue key events: key_events.hpp), skipping plain keys
/// while a text field is being edited.
std::vector<Pressed> pressed_shortcuts();

/// "?" typed this frame (a character, whatever the keyboard layout).
bool help_typed();

/// The "?" overlay: a modal table of every shortcut, in columns that fit the
/// screen. Closed by its button or by the App on Esc (open = false).
void draw_shortcut_overlay(bool* open, const Translator& tr, float scale);

}  // namespace poslab::app::ui
