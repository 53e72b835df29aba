#pragma once
// Key presses as events, in the order they happened. Dear ImGui 1.86 keeps
// only the state of each key (io.KeysDown), polled once a frame: a key
// pressed and released between two frames — a presenter clicker's tap, a
// quick Esc while an animation plays — is never seen down. The window
// system's key callback (GLFW's, app/platform/desktop) pushes every press
// here instead, and the App turns each into its shortcut, however many land
// in one frame. A platform that does not push events (Platform::queues_keys
// false) keeps the polled shortcuts.

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <span>
#include <vector>

#include "app/ui/shortcuts.hpp"

namespace poslab::app::ui {

/// GLFW's key codes, actions and modifier bits (GLFW_PRESS = 1, GLFW_REPEAT = 2,
/// GLFW_MOD_SHIFT = 1, GLFW_MOD_CONTROL = 2), so no window header is needed here.
struct KeyEvent {
  int key = 0;
  int action = 1;  ///< 0 release, 1 press, 2 repeat (held down)
  int mods = 0;
  bool operator==(const KeyEvent&) const = default;
};

inline constexpr int kKeyRelease = 0, kKeyPress = 1, kKeyRepeat = 2;
inline constexpr int kModShift = 1, kModControl = 2, kModAlt = 4, kModSuper = 8;

/// Events pushed by the window system's callback, taken by the App once a
/// frame. Bounded: a stuck auto-repeat or a flood keeps the newest events.
class KeyQueue {
 public:
  void push(KeyEvent e);
  /// Every event since the last take, oldest first.
  std::vector<KeyEvent> take();
  bool empty() const { return events_.empty(); }
  /// True when a press of `key` with the modifiers `mods` is waiting.
  bool has_press(int key, int mods) const;

  static constexpr std::size_t kCapacity = 1024;

 private:
  std::deque<KeyEvent> events_;
};

/// A key named as X11 names its keysym and xdotool writes it ("Next",
/// "Prior", "Right", "Return", "Escape", "space", "period", "comma", "a",
/// "5", "F5", "bracketleft"…), optionally after modifiers ("ctrl+equal",
/// "shift+space"): the key and modifiers, or nullopt for a name poslab does
/// not know (key_names() lists them).
std::optional<KeyEvent> key_from_name(std::string_view name);
/// Every keysym name key_from_name knows, for messages.
std::string key_names();

/// The shortcuts `events` press, in order: every press, and the repeats of
/// the keys that repeat (scale, animation steps, scene steps). With `typing`
/// (a text field has the keyboard, a slider is being dragged) only the
/// shortcuts that work while typing. `lecture`: lecture mode's keys (KeyMode).
std::vector<Pressed> shortcuts_for(std::span<const KeyEvent> events, bool typing, bool lecture = false);

}  // namespace poslab::app::ui
