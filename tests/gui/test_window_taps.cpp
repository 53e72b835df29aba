// A presenter's clicker on the real window (under Xvfb): key taps of 5 ms
// down and 5 ms up sent through the X server (XTest) while a deck is
// presented in lecture mode and an animation plays. ImGui 1.86 polls key
// state once a frame, so a tap between two frames was never seen; the
// window's GLFW key callback queues every press (app/ui/key_events.hpp).
// Every tap must land: the deck ends on the scene the taps count to, and a
// burst of Esc taps closes the Export window, then leaves lecture mode.

#include <doctest/doctest.h>

#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "app/platform/desktop/window.hpp"
#include "gui_test_support.hpp"

using namespace poslab;
namespace ui = poslab::app::ui;
namespace fs = std::filesystem;

namespace {

/// Sends `count` taps of `keysym` (5 ms down, 5 ms up) on its own X connection.
void taps(Display* dpy, KeySym keysym, int count) {
  const KeyCode code = XKeysymToKeycode(dpy, keysym);
  for (int i = 0; i < count; ++i) {
    // XSync, not XFlush: the server has stamped each event with its time
    // before the next is sent. On a loaded machine a starved Xvfb could
    // otherwise stamp two presses in the same millisecond, and GLFW drops a
    // press whose time equals the previous one (its input-method filter) —
    // something a real clicker, stamped by the server as it arrives, never sends.
    XTestFakeKeyEvent(dpy, code, True, CurrentTime);
    XSync(dpy, False);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    XTestFakeKeyEvent(dpy, code, False, CurrentTime);
    XSync(dpy, False);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

TEST_CASE("a clicker's 5 ms taps on the real window while an animation plays: every tap lands") {
  if (!std::getenv("DISPLAY") || !*std::getenv("DISPLAY")) {
    MESSAGE("no display: skipped (ctest runs this under xvfb-run)");
    return;
  }
  Display* dpy = XOpenDisplay(nullptr);
  REQUIRE(dpy);
  int event = 0, error_base = 0, major = 0, minor = 0;
  if (!XTestQueryExtension(dpy, &event, &error_base, &major, &minor)) {
    XCloseDisplay(dpy);
    MESSAGE("the X server has no XTest: skipped");
    return;
  }
  std::string error;
  std::unique_ptr<ui::Window> window = ui::Window::create(1280, 720, false, error);
  CAPTURE(error);
  REQUIRE(window);
  const fs::path dir = fs::temp_directory_path() / ("poslab-taps-" + std::to_string(::getpid()));
  ui::AppOptions o;
  o.assets = app::assets_dir();
  o.lang = "en";
  o.persist = false;
  ui::App a(*window, o);
  window->attach(a);
  struct Detach {
    ui::Window& w;
    ~Detach() { w.detach(); }
  } detach{*window};
  ui::Settings placed = a.settings();
  placed.x = 0, placed.y = 0, placed.has_position = true, placed.width = 1280, placed.height = 720;
  window->show(placed, o.assets / "icons" / "poslab-256.png");

  // 41 scenes, each with a playing animation.
  app::Deck deck;
  for (int i = 0; i <= 40; ++i) {
    app::Scene sc;
    sc.lesson = i % 2 ? "rope-2d" : "alibi";
    sc.params = {{i % 2 ? "m" : "heads", std::to_string(i % 2 ? i : 1 + i % 16)}};
    sc.animation = app::SessionAnimation{i % 2 ? "shift" : "head", 0, 1, 4, app::PlayMode::bounce, true};
    if (!(i % 2)) sc.animation->from = 1, sc.animation->to = static_cast<double>(1 + i % 16);
    deck.scenes.push_back(sc);
  }
  REQUIRE(a.state().open_deck(deck).empty());
  a.set_lecture(true);
  // The keyboard goes where the pointer is (no window manager under Xvfb).
  XTestFakeMotionEvent(dpy, -1, 640, 360, CurrentTime);
  XFlush(dpy);
  for (int i = 0; i < 20; ++i) window->run_frame(a, 1.0 / 60);
  REQUIRE(a.state().animation().playing());

  // 30 taps of Page Down and 10 of Right, while frames run as fast as they can.
  std::atomic<bool> sent{false};
  std::thread clicker([&] {
    Display* d2 = XOpenDisplay(nullptr);
    taps(d2, XK_Next, 30);
    taps(d2, XK_Right, 10);
    XCloseDisplay(d2);
    sent = true;
  });
  int frames = 0;
  while (!sent) {
    window->run_frame(a, 1.0 / 60);
    ++frames;
  }
  clicker.join();
  // Every event is in the server by now (XSync); the window reads what is
  // still queued within a few frames. A lost tap never arrives: the check
  // below fails whatever the wait.
  for (int i = 0; i < 10 || (i < 300 && a.state().scene() != 40); ++i) window->run_frame(a, 1.0 / 60);
  MESSAGE(frames << " frames while 40 taps were sent");
  CHECK(a.state().scene() == 40);
  CHECK(a.state().animation().playing());

  // Esc, three quick taps: the Export window first, then lecture mode; the third finds nothing.
  a.run(ui::Action::export_dialog);
  for (int i = 0; i < 3; ++i) window->run_frame(a, 1.0 / 60);
  REQUIRE(a.export_ui().open);
  std::thread esc([&] {
    Display* d2 = XOpenDisplay(nullptr);
    taps(d2, XK_Escape, 1);
    XCloseDisplay(d2);
  });
  esc.join();
  for (int i = 0; i < 5; ++i) window->run_frame(a, 1.0 / 60);
  CHECK_FALSE(a.export_ui().open);
  CHECK(a.lecture());
  std::thread esc2([&] {
    Display* d2 = XOpenDisplay(nullptr);
    taps(d2, XK_Escape, 1);
    XCloseDisplay(d2);
  });
  esc2.join();
  for (int i = 0; i < 5; ++i) window->run_frame(a, 1.0 / 60);
  CHECK_FALSE(a.lecture());
  XCloseDisplay(dpy);
}
