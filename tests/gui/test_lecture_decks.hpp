#pragma once
// The ten-scene deck the lecture tests present (test_lecture.cpp in blind
// mode, test_window_taps.cpp on the real window under Xvfb), and the check
// that the screen shows one scene's own values and nothing carried over.

#include <doctest/doctest.h>

#include <string>

#include "app/decks/deck.hpp"
#include "app/common/session.hpp"
#include "app/ui/app_state.hpp"

namespace poslab::test {

/// A 10-scene deck across five lessons, each scene with values of its own
/// (the same shared key `d` differs between sinusoidal and rope), four
/// scenes with a playing animation, and a predict-then-reveal question in
/// scene 4 (its answer changes `m`).
inline const char* const kTenScenes = R"({"format": "poslab-deck", "version": 1, "title": "Ten scenes", "scenes": [
  {"lesson": "sinusoidal", "params": {"d": 500, "base": 10000}, "figure": "heatmap", "caption": "PE rows at d = 500",
   "animation": {"key": "offset", "from": 0, "to": 20, "speed": 2, "mode": "loop", "playing": true}},
  {"lesson": "sinusoidal", "params": {"d": 64, "offset": 7}, "figure": "shift"},
  {"lesson": "rope", "params": {"d": 4, "base": 500000, "layout": "half"}, "figure": "frequencies",
   "animation": {"key": "m", "from": 0, "to": 30, "speed": 3, "mode": "bounce", "playing": true}},
  {"lesson": "rope", "params": {"d": 8, "m": 5}, "figure": "worked",
   "question": "Which pairs turn most?", "answer": "The first ones.", "reveal": {"params": {"m": 6}}},
  {"lesson": "rope-2d", "params": {"m": 1, "n": 4, "theta": 0.5},
   "animation": {"key": "shift", "from": 0, "to": 10, "speed": 2, "mode": "loop", "playing": true}},
  {"lesson": "rope-2d", "params": {"m": 3, "n": 3}},
  {"lesson": "alibi", "params": {"heads": 16, "head": 3}},
  {"lesson": "alibi", "params": {"heads": 4, "causal": false},
   "animation": {"key": "head", "from": 1, "to": 4, "speed": 1, "mode": "loop", "playing": true}},
  {"lesson": "scaling", "params": {"method": "linear", "factor": 4}},
  {"lesson": "scaling", "params": {"method": "ntk", "factor": 16, "d": 64}, "caption": {"en": "NTK", "zh": "NTK"}}
]})";

inline app::Deck ten_scenes() { return app::parse_deck(kTenScenes, "ten.json"); }

/// The value of `key` as a session would write it ("(default)" when unset).
inline std::string typed(const app::ui::AppState& state, const std::string& key) {
  app::Session s;
  s.set_params(state.params());
  for (const auto& kv : s.params)
    if (kv.first == key) return kv.second;
  return "(default)";
}

/// The state shows `scene`: its lesson, its values, every other key of the
/// lesson at its default (nothing carried over from another scene).
inline void check_scene_shown(const app::ui::AppState& state, const app::Scene& scene, bool revealed = false) {
  CHECK(state.view().id == scene.lesson);
  const app::Session expected = scene.session(revealed);
  for (const auto& kv : expected.params) {
    CAPTURE(kv.first);
    CHECK(typed(state, kv.first) == kv.second);
  }
  for (std::string_view key : state.view().keys) {
    if (scene.animation && key == scene.animation->key) continue;  // the animation moves it
    bool set = false;
    for (const auto& kv : expected.params) set = set || kv.first == key;
    CAPTURE(key);
    if (!set) CHECK_FALSE(state.params().is_set(key));
  }
}

}  // namespace poslab::test
