#pragma once
// The App in blind mode (no window, no GL) for the GUI tests, with its own
// temporary folder for exports and sessions.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "app/common/assets.hpp"
#include "app/ui/app.hpp"

namespace poslab::test {

struct BlindApp {
  app::ui::BlindPlatform platform;
  std::unique_ptr<app::ui::App> app;
  std::filesystem::path dir;
  double clock = 1000.0;  ///< the App's wall clock, in seconds
  ImVec2 display{1600, 1000};  ///< the blind window's size

  /// background: figures and readouts built as in the interactive window
  /// (AppOptions::background_figures).
  explicit BlindApp(bool background = false) {
    static int counter = 0;
    dir = std::filesystem::temp_directory_path() /
          ("poslab-gui-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    app::ui::AppOptions o;
    o.assets = app::assets_dir();
    o.lang = "en";
    o.persist = false;
    o.config_dir = dir / "config";
    o.clock = [this] { return clock; };  // wall-clock time the test moves (frames() moves it by dt)
    o.background_figures = background;
    app = std::make_unique<app::ui::App>(platform, o);
    app->export_choice().dir = dir / "exports";
    frames(3);
  }
  ~BlindApp() {
    app.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  BlindApp(const BlindApp&) = delete;
  BlindApp& operator=(const BlindApp&) = delete;

  /// `n` frames of `dt` seconds each; the wall clock moves with them unless `tick_clock` is false.
  void frames(int n, double dt = 1.0 / 60, bool tick_clock = true) {
    for (int i = 0; i < n; ++i) {
      if (tick_clock) clock += dt;
      app->blind_frame(dt, display);
    }
  }
  app::ui::AppState& state() { return app->state(); }
};

/// The first lesson that reads a numeric parameter, and that parameter
/// (preferring `preferred` when a lesson reads it).
inline std::pair<std::string, std::string> lesson_with_numeric(std::string_view preferred = "m") {
  std::pair<std::string, std::string> fallback;
  for (const app::ViewDef& v : app::view_defs())
    for (std::string_view k : v.keys) {
      const core::ParamSpec* s = core::find_param(k);
      if (!s || (s->type != core::ParamType::integer && s->type != core::ParamType::real)) continue;
      if (k == preferred) return {std::string(v.id), std::string(k)};
      if (fallback.first.empty()) fallback = {std::string(v.id), std::string(k)};
    }
  return fallback;
}

/// `poslab <args>` as a child process (the binary under test, POSLAB_BINARY),
/// `env` put before it (e.g. "env -u DISPLAY"): its exit code, -1 when it did
/// not exit (a signal, an abort), and everything it wrote to stderr. A check
/// of the code shows `err` when it fails, so a report the child gave — a
/// sanitizer's, a refusal — reaches the log instead of a bare status.
struct Run {
  int code = -1;
  std::string err;
};

/// True when a run failed because LeakSanitizer itself crashed at exit
/// ("Tracer caught signal 11 … LeakSanitizer has encountered a fatal
/// error"): its stop-the-world tracer, not a leak report, and not poslab
/// (google/sanitizers#1353, intermittent on loaded machines). The sanitizer
/// build's `poslab screenshot --view multimodal` child failed so once here,
/// and the same exit after a written PNG failed a CI run.
inline bool sanitizer_tracer_crashed(const Run& r) {
  return r.code != 0 && r.err.find("Tracer caught signal") != std::string::npos &&
         r.err.find("LeakSanitizer has encountered a fatal error") != std::string::npos &&
         r.err.find("ERROR: LeakSanitizer: detected memory leaks") == std::string::npos;
}

/// Runs the binary with `args` (and `env` before it), keeping its stderr. A
/// run that failed only because LeakSanitizer's tracer crashed is run again,
/// twice at most (a leak it reports, or any other failure, is returned as it
/// is; so is a third crash).
inline Run run_poslab(const std::string& args, const std::string& env = {}) {
  static int counter = 0;
  Run r;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const std::filesystem::path err = std::filesystem::temp_directory_path() /
                                      ("poslab-run-err-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    const std::string cmd = env + " " + POSLAB_BINARY + " " + args + " 2>" + err.string();
    const int status = std::system(cmd.c_str());
    r = {};
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(err);
    r.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    in.close();
    std::error_code ec;
    std::filesystem::remove(err, ec);
    if (!sanitizer_tracer_crashed(r)) break;
  }
  return r;
}

}  // namespace poslab::test
