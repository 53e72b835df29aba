#include "app/ui/key_events.hpp"

namespace poslab::app::ui {

void KeyQueue::push(KeyEvent e) {
  if (events_.size() >= kCapacity) events_.pop_front();
  events_.push_back(e);
}

std::vector<KeyEvent> KeyQueue::take() {
  std::vector<KeyEvent> out(events_.begin(), events_.end());
  events_.clear();
  return out;
}

std::vector<Pressed> shortcuts_for(std::span<const KeyEvent> events, bool typing) {
  std::vector<Pressed> out;
  for (const KeyEvent& e : events) {
    if (e.action != kKeyPress && e.action != kKeyRepeat) continue;
    const bool ctrl = (e.mods & kModControl) != 0, shift = (e.mods & kModShift) != 0;
    for (const Shortcut& s : shortcuts()) {
      if (s.key != e.key || s.ctrl != ctrl || (s.shift != shift && !s.any_shift)) continue;
      if (typing && !s.while_typing) continue;
      if (e.action == kKeyRepeat && !s.repeats) continue;
      out.push_back({s.action, s.arg});
      break;  // one action per key press
    }
  }
  return out;
}

}  // namespace poslab::app::ui
