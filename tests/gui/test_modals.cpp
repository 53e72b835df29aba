// Modal windows open one at a time (issue 32, class 3): two shortcuts in one
// frame — Ctrl+O with Ctrl+D, Ctrl+S with F2, a prompt with the "?" overlay —
// aborted the app on a Dear ImGui assertion ("blocking_modal != NULL") and
// lost the session. Blind: the App's own frames, keys through its queue as
// the GLFW window sends them; a seeded storm of random key taps, several a
// frame, with a check after every frame that at most one modal is open and
// what is on screen is what the App says.

#include <doctest/doctest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <fstream>
#include <random>
#include <vector>

#include "app/common/presets.hpp"
#include "app/ui/key_events.hpp"
#include "app/ui/request.hpp"
#include "gui_test_support.hpp"

using namespace poslab;
namespace ui = poslab::app::ui;

namespace {

struct QueuedApp : test::BlindApp {
  QueuedApp() { platform.key_events = true; }
  void tap(int key, int mods = 0) {
    app->key_event(key, ui::kKeyPress, mods);
    app->key_event(key, ui::kKeyRelease, mods);
  }
};

/// Modal popups ImGui has open (the App's are the file prompt and the overlay).
int open_modals() {
  int n = 0;
  for (const ImGuiPopupData& p : GImGui->OpenPopupStack)
    if (p.Window && (p.Window->Flags & ImGuiWindowFlags_Modal)) ++n;
  return n;
}

}  // namespace

TEST_CASE("two shortcuts in one frame: the window opens, the prompt opens, nothing aborts") {
  struct Chord {
    int key1, mods1, key2, mods2;
  };
  const Chord chords[] = {{GLFW_KEY_O, ui::kModControl, GLFW_KEY_D, ui::kModControl},
                          {GLFW_KEY_S, ui::kModControl, GLFW_KEY_F2, 0},
                          {GLFW_KEY_D, ui::kModControl, GLFW_KEY_O, ui::kModControl},
                          {GLFW_KEY_F2, 0, GLFW_KEY_S, ui::kModControl},
                          {GLFW_KEY_E, ui::kModControl, GLFW_KEY_O, ui::kModControl}};
  for (const Chord& c : chords) {
    CAPTURE(c.key1);
    CAPTURE(c.key2);
    QueuedApp b;
    b.tap(c.key1, c.mods1);
    b.tap(c.key2, c.mods2);
    b.frames(3);  // aborted here before (imgui.cpp: Begin: blocking_modal != NULL)
    CHECK(b.app->session_ui().showing() != ui::SessionUi::Prompt::none);
    CHECK(open_modals() == 1);
    CHECK((b.app->deck_ui().open || b.app->notation().is_open() || b.app->export_ui().open));
    b.tap(GLFW_KEY_ESCAPE);
    b.frames(2);
    CHECK(b.app->session_ui().showing() == ui::SessionUi::Prompt::none);
    CHECK(open_modals() == 0);
  }
}

TEST_CASE("a modal asked for while another shows waits its turn; one asked twice opens once") {
  QueuedApp b;
  b.tap(GLFW_KEY_S, ui::kModControl);
  b.tap(GLFW_KEY_F1);
  b.tap(GLFW_KEY_S, ui::kModControl);
  b.frames(2);
  CHECK(b.app->session_ui().showing() == ui::SessionUi::Prompt::save);
  CHECK_FALSE(b.app->help_open());
  CHECK(b.app->modals().waiting() == 1);  // the overlay; the second Ctrl+S was the same request
  CHECK(open_modals() == 1);
  // The prompt closes by its own button (Cancel): the overlay comes next.
  b.app->session_ui().close();
  b.frames(2);
  CHECK(b.app->help_open());
  CHECK(open_modals() == 1);
  CHECK(b.app->modals().waiting() == 0);
  // Esc takes the one on screen and those waiting behind it.
  b.tap(GLFW_KEY_O, ui::kModControl);
  b.frames(1);
  CHECK(b.app->modals().waiting() == 1);
  b.tap(GLFW_KEY_ESCAPE);
  b.frames(3);
  CHECK_FALSE(b.app->help_open());
  CHECK(b.app->session_ui().showing() == ui::SessionUi::Prompt::none);
  CHECK(open_modals() == 0);
}

TEST_CASE("a storm of random key taps, several a frame: no abort, never two modals") {
  // Every key a shortcut uses (but quit and the screenshot, which end or
  // write), with and without Ctrl and Shift, and letters typed into prompts.
  std::vector<int> keys;
  for (const ui::Shortcut& s : ui::shortcuts())
    if (s.action != ui::Action::quit && s.action != ui::Action::screenshot) keys.push_back(s.key);
  for (int k = GLFW_KEY_A; k <= GLFW_KEY_Z; ++k) keys.push_back(k);
  keys.push_back(GLFW_KEY_ENTER);
  keys.push_back(GLFW_KEY_TAB);
  QueuedApp b;
  std::mt19937 rng(32);
  int modal_frames = 0;
  for (int frame = 0; frame < 1500; ++frame) {
    const int taps = static_cast<int>(rng() % 4);
    for (int t = 0; t < taps; ++t) {
      const int key = keys[rng() % keys.size()];
      int mods = 0;
      if (rng() % 3 == 0) mods |= ui::kModControl;
      if (rng() % 5 == 0) mods |= ui::kModShift;
      if (key == GLFW_KEY_Q && (mods & ui::kModControl)) continue;
      b.tap(key, mods);
    }
    if (rng() % 40 == 0) b.tap(GLFW_KEY_ESCAPE);
    b.frames(1);
    REQUIRE(open_modals() <= 1);
    if (open_modals() == 1) ++modal_frames;
    REQUIRE(b.state().session().lesson == std::string(b.state().view().id));
  }
  CHECK(modal_frames > 100);  // the storm did open modals
  CHECK(b.platform.close_requested == false);
}

TEST_CASE("gui --deck with a bad deck: the app opens, the Open deck prompt says where, and opens it once fixed") {
  // Issue 29, point 5: `gui --deck bad.json --lecture` exited 2 with a line on
  // stderr and no window (from a launcher: nothing happened). run_window now
  // opens the request without the deck and shows the deck's refusal so.
  test::BlindApp b;
  const std::filesystem::path path = b.dir / "bad.deck.json";
  const auto write = [&](const char* text) { std::ofstream(path) << text; };
  write(R"({"format": "poslab-deck", "version": 1,
  "scenes": [{"lesson": "rope", "captoin": "Watch the angle"}]})");
  app::WindowRequest request;
  request.deck = path.string();
  request.lecture = true;
  request.step = 1;
  app::ui::AppState probe(app::load_presets(app::assets_dir()));
  const std::string why = app::ui::apply_window_request(probe, request);
  REQUIRE_FALSE(why.empty());
  CHECK(why.find("did you mean \"caption\"") != std::string::npos);
  CHECK(why.find("line 2") != std::string::npos);
  const app::WindowRequest rest = app::ui::without_deck(request);
  CHECK(rest.deck.empty());
  CHECK(rest.step == 0);  // --step named a scene of the deck
  CHECK(rest.lecture);
  CHECK(b.app->apply_request(rest).empty());
  b.app->show_deck_refusal(path, why);
  b.frames(3);
  CHECK(b.app->session_ui().showing() == ui::SessionUi::Prompt::open_deck);
  CHECK(open_modals() == 1);
  CHECK(b.app->session_ui().error().find("captoin") != std::string::npos);
  CHECK(b.app->session_ui().error().find(b.dir.string()) == std::string::npos);  // no full path on the projector
  CHECK(b.app->session_ui().chosen_path() == path);
  CHECK(b.app->lecture());
  // The lecturer fixes the file; Open (the prompt's confirm) opens it.
  write(R"({"format": "poslab-deck", "version": 1, "scenes": [{"lesson": "rope", "caption": "Watch the angle"}]})");
  CHECK(b.app->open_deck(b.app->session_ui().chosen_path()).empty());
  REQUIRE(b.app->state().deck() != nullptr);
  CHECK(b.app->state().deck()->scenes.size() == 1);
}
