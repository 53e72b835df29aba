#include "app/ui/key_events.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cctype>
#include <utility>

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

namespace {

/// X11 keysym names (as xdotool writes them) of the keys poslab's shortcuts use.
const std::pair<const char*, int> kKeysyms[] = {
    {"Right", GLFW_KEY_RIGHT}, {"Left", GLFW_KEY_LEFT}, {"Up", GLFW_KEY_UP}, {"Down", GLFW_KEY_DOWN},
    {"Next", GLFW_KEY_PAGE_DOWN}, {"Page_Down", GLFW_KEY_PAGE_DOWN}, {"Prior", GLFW_KEY_PAGE_UP},
    {"Page_Up", GLFW_KEY_PAGE_UP}, {"Home", GLFW_KEY_HOME}, {"End", GLFW_KEY_END}, {"Return", GLFW_KEY_ENTER},
    {"KP_Enter", GLFW_KEY_KP_ENTER}, {"Escape", GLFW_KEY_ESCAPE}, {"space", GLFW_KEY_SPACE},
    {"period", GLFW_KEY_PERIOD}, {"comma", GLFW_KEY_COMMA}, {"minus", GLFW_KEY_MINUS}, {"equal", GLFW_KEY_EQUAL},
    {"plus", GLFW_KEY_KP_ADD}, {"bracketleft", GLFW_KEY_LEFT_BRACKET}, {"bracketright", GLFW_KEY_RIGHT_BRACKET},
    {"question", GLFW_KEY_SLASH}, {"slash", GLFW_KEY_SLASH}, {"Tab", GLFW_KEY_TAB}, {"BackSpace", GLFW_KEY_BACKSPACE},
    {"Delete", GLFW_KEY_DELETE},
};

}  // namespace

std::optional<KeyEvent> key_from_name(std::string_view name) {
  KeyEvent e;
  // Modifiers first: "ctrl+equal", "shift+space" (xdotool's spelling, any case).
  for (std::size_t plus = name.find('+'); plus != std::string_view::npos && plus + 1 < name.size(); plus = name.find('+')) {
    std::string mod(name.substr(0, plus));
    std::transform(mod.begin(), mod.end(), mod.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (mod == "ctrl" || mod == "control") e.mods |= kModControl;
    else if (mod == "shift") e.mods |= kModShift;
    else if (mod == "alt") e.mods |= kModAlt;
    else if (mod == "super") e.mods |= kModSuper;
    else return std::nullopt;
    name.remove_prefix(plus + 1);
  }
  if (name.size() == 1) {
    const char c = name[0];
    if (c >= 'a' && c <= 'z') e.key = GLFW_KEY_A + (c - 'a');
    else if (c >= 'A' && c <= 'Z') e.key = GLFW_KEY_A + (c - 'A'), e.mods |= kModShift;
    else if (c >= '0' && c <= '9') e.key = GLFW_KEY_0 + (c - '0');
    else return std::nullopt;
    return e;
  }
  if (name.size() >= 2 && name.size() <= 3 && name[0] == 'F' && std::isdigit(static_cast<unsigned char>(name[1]))) {
    const int n = std::stoi(std::string(name.substr(1)));
    if (n < 1 || n > 12) return std::nullopt;
    e.key = GLFW_KEY_F1 + n - 1;
    return e;
  }
  if (name.size() == 4 && name.starts_with("KP_") && std::isdigit(static_cast<unsigned char>(name[3]))) {
    e.key = GLFW_KEY_KP_0 + (name[3] - '0');
    return e;
  }
  for (const auto& [keysym, key] : kKeysyms)
    if (name == keysym) {
      e.key = key;
      if (name == "question") e.mods |= kModShift;
      return e;
    }
  return std::nullopt;
}

std::string key_names() {
  std::string out;
  for (const auto& [keysym, key] : kKeysyms) out += std::string(out.empty() ? "" : ", ") + keysym;
  return out + ", a … z, 0 … 9, KP_0 … KP_9, F1 … F12, with ctrl+ / shift+ / alt+ before a key";
}

bool KeyQueue::has_press(int key, int mods) const {
  for (const KeyEvent& e : events_)
    if (e.key == key && e.action == kKeyPress && (e.mods & mods) == mods) return true;
  return false;
}

std::vector<Pressed> shortcuts_for(std::span<const KeyEvent> events, bool typing, bool lecture) {
  std::vector<Pressed> out;
  for (const KeyEvent& e : events) {
    if (e.action != kKeyPress && e.action != kKeyRepeat) continue;
    const bool ctrl = (e.mods & kModControl) != 0, shift = (e.mods & kModShift) != 0;
    for (const Shortcut& s : shortcuts()) {
      if (s.key != e.key || s.ctrl != ctrl || (s.shift != shift && !s.any_shift) || !s.in(lecture)) continue;
      if (typing && !s.while_typing) continue;
      if (e.action == kKeyRepeat && !s.repeats) continue;
      out.push_back({s.action, s.arg});
      break;  // one action per key press
    }
  }
  return out;
}

}  // namespace poslab::app::ui
