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

  static constexpr std::size_t kCapacity = 1024;

 private:
  std::deque<KeyEvent> events_;
};

/// The shortcuts `events` press, in order: every press, and the repeats of
/// the keys that repeat (scale, animation steps, scene steps). With `typing`
/// (a text field has the keyboard, a slider is being dragged) only the
/// shortcuts that work while typing.
std::vector<Pressed> shortcuts_for(std::span<const KeyEvent> events, bool typing);

}  // namespace poslab::app::ui
