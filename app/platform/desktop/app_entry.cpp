#include "app/platform/desktop/app_entry.hpp"

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

int run_window(const WindowRequest& given) {
  const bool screenshot = !given.screenshot_out.empty();
  // `gui --deck FILE`: a deck that cannot be opened (a typo in the file, a
  // file not there) does not stop the app — from a launcher nothing would
  // happen. The window opens with what it had and says why, with a button
  // to read the file again (issue 29). A screenshot still exits 2 (or 1).
  WindowRequest request = given;
  std::string deck_error;
  if (!screenshot) request.deck.clear();
  const bool persist = !screenshot;
  std::filesystem::path assets;
  std::string lang;
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
    if (std::string why = apply_window_request(probe, request, &io_failure); !why.empty())
      return cli::fail(io_failure ? kExitFailure : kExitUsage, why);
    if (!screenshot && !given.deck.empty()) {
      WindowRequest deck_only;
      deck_only.deck = given.deck;
      deck_error = apply_window_request(probe, deck_only);
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
  // The window's first size; show() then applies the remembered one, fitted to the screen.
  const Settings defaults;
  std::unique_ptr<Window> window =
      Window::create(screenshot ? width : defaults.width, screenshot ? height : defaults.height, screenshot, error);
  if (!window)
    return cli::fail(kExitFailure, tr.format("cli.needs_display", {{"error", error}}));
  try {
    AppOptions options;
    options.assets = assets;
    options.lang = lang;
    options.persist = persist;
    options.restore_autosave = !request.fresh;
    options.background_figures = !screenshot;
    App app(*window, options);
    if (!given.deck.empty() && deck_error.empty()) request.deck = given.deck;  // it opens: as asked
    if (!deck_error.empty()) request.lecture = request.presenter = false;       // the message first, in the window
    if (std::string why = app.apply_request(request); !why.empty()) return cli::fail(kExitUsage, why);
    if (!deck_error.empty()) app.deck_ui().show_error(deck_error, given.deck, given.lecture, given.presenter);
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
