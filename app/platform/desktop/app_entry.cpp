#include "app/platform/desktop/app_entry.hpp"

#include <algorithm>

#include <iostream>

#include "app/cli/commands.hpp"
#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/messages.hpp"
#include "app/common/presets.hpp"
#include "app/ui/app.hpp"
#include "app/ui/bench_frames.hpp"
#include "app/ui/request.hpp"
#include "app/ui/stop_signals.hpp"
#include "app/platform/desktop/window.hpp"

namespace poslab::app {

GuiEntryPoints gui_entry_points() {
  GuiEntryPoints e;
  e.run_window = &ui::run_window;
  e.bench_frames = &ui::bench_frames;
  return e;
}

namespace ui {

namespace {

constexpr int kDefaultShotWidth = 1600, kDefaultShotHeight = 1000;

std::string choose_lang(const WindowRequest& r, bool persist) {
  if (!r.lang.empty()) return r.lang;
  if (const std::filesystem::path dir = config_dir(); persist && !dir.empty()) {
    const Settings s = load_settings(dir / "settings.json");
    if (!s.lang.empty()) return s.lang;
  }
  return system_language();
}

}  // namespace

int run_window(const WindowRequest& request) {
  const bool screenshot = !request.screenshot_out.empty();
  const bool persist = !screenshot;
  std::filesystem::path assets;
  std::string lang;
  std::string deck_refusal;  // gui --deck with a bad deck: why, shown in the window
  Translator tr = english_translator();  // until the language is known
  try {
    assets = assets_dir();
    lang = choose_lang(request, persist);
    if (lang != "en" && lang != "zh") return cli::fail(kExitUsage, "lang = " + lang + ": must be en or zh");
    tr = Translator::load(assets, lang);
    // Check the request before opening any window: bad input is exit code 2
    // with one line, display or not.
    AppState probe(load_presets(assets));
    probe.set_translator(&tr);
    bool io_failure = false;
    if (std::string why = apply_window_request(probe, request, &io_failure); !why.empty()) {
      // A deck that cannot be opened is shown in the window, not only on
      // stderr (issue 29, point 5): started from a launcher, a lecturer saw
      // nothing happen. The line still goes to stderr for a terminal. A
      // screenshot, no display, or anything else wrong stays exit 2 with
      // that line.
      AppState without(load_presets(assets));
      without.set_translator(&tr);
      if (screenshot || request.deck.empty() || !apply_window_request(without, without_deck(request)).empty())
        return cli::fail(io_failure ? kExitFailure : kExitUsage, why);
      deck_refusal = why;
    }
    for (const std::string& name : request.keys)
      if (!key_from_name(name))
        return cli::fail(kExitUsage, tr.format("cli.unknown_key", {{"key", name}, {"keys", key_names()}}));
  } catch (const core::InvalidParameter& e) {
    return cli::fail(kExitUsage, error_text(tr, e));
  } catch (const std::exception& e) {
    return cli::fail(kExitFailure, error_text(tr, e));
  }

  const int width = request.width > 0 ? request.width : kDefaultShotWidth;
  const int height = request.height > 0 ? request.height : kDefaultShotHeight;
  std::string error;
  // The window's first size; show() then applies the remembered one, fitted to
  // the screen. A screenshot renders into a framebuffer of its own size
  // (Window::screenshot): its hidden window stays small, so a 4096 × 4096
  // shot does not also hold a 64 MB back buffer the driver never shows.
  const Settings defaults;
  std::unique_ptr<Window> window = Window::create(screenshot ? std::min(width, 640) : defaults.width,
                                                  screenshot ? std::min(height, 400) : defaults.height, screenshot, error);
  if (!window) {
    if (!deck_refusal.empty()) return cli::fail(kExitUsage, deck_refusal);  // no window to show it in: as before
    return cli::fail(kExitFailure, tr.format("cli.needs_display", {{"error", error}}));
  }
  if (!deck_refusal.empty()) (void)cli::fail(kExitOk, deck_refusal);  // for a terminal; the window shows it too
  try {
    AppOptions options;
    options.assets = assets;
    options.lang = lang;
    options.persist = persist;
    options.restore_autosave = !request.fresh;
    options.background_figures = !screenshot;
    App app(*window, options);
    // `gui --presenter`: the presenter's window needs the main one attached
    // and shown (placed on a screen) — asked for before, it was refused and
    // only lecture mode came up. A screenshot renders it offscreen at once.
    WindowRequest applied = deck_refusal.empty() ? request : without_deck(request);
    const bool presenter_later = applied.presenter && !screenshot;
    if (presenter_later) applied.presenter = false, applied.lecture = true;
    if (std::string why = app.apply_request(applied); !why.empty())
      return cli::fail(kExitUsage, why);
    if (!deck_refusal.empty()) app.show_deck_refusal(request.deck, deck_refusal);
    window->attach(app);
    struct Detach {
      Window& w;
      ~Detach() { w.detach(); }
    } detach{*window};  // backends off before the App's ImGui context goes
    if (screenshot) {
      std::vector<KeyEvent> keys;
      for (const std::string& name : request.keys) keys.push_back(*key_from_name(name));
      std::filesystem::path presenter_out;
      if (request.presenter) {
        const std::filesystem::path out(request.screenshot_out);
        presenter_out = out.parent_path() / (out.stem().string() + "-presenter" + out.extension().string());
      }
      if (std::string why = window->screenshot(app, request.screenshot_out, width, height, keys, presenter_out);
          !why.empty())
        return cli::fail(kExitFailure, why);
      return kExitOk;
    }
    window->show(app.settings(), assets / "icons" / "poslab-256.png");
    if (presenter_later) app.set_presenter_view(true);
    // SIGTERM/SIGINT/SIGHUP close the window like its close button, so the
    // autosave below still runs (a second signal ends the process at once).
    const StopSignals stop([w = window.get()](int) { w->close_from_any_thread(); });
    window->run(app, app.settings());
    app.save_on_exit();
  } catch (const core::InvalidParameter& e) {
    return cli::fail(kExitUsage, error_text(tr, e));
  } catch (const std::exception& e) {
    return cli::fail(kExitFailure, error_text(tr, e));
  }
  return kExitOk;
}

}  // namespace ui

}  // namespace poslab::app
