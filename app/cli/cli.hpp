#pragma once
// The command line of docs/CONTRACT.md §1. Exit codes: 0 success; 2 bad usage
// or invalid input (one line on stderr naming what is wrong and what is
// allowed); 1 any other failure (I/O, GL).

#include <optional>
#include <string>
#include <vector>

namespace poslab::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

/// What `poslab gui` and `poslab screenshot` were asked for. The GUI library
/// fills in the rest; the headless CLI only parses.
struct WindowRequest {
  std::string view;                  ///< empty: the last lesson (or the first)
  std::string preset;
  std::string session;               ///< a session file to open
  std::string model;                 ///< a Hugging Face config.json to open (after the preset)
  std::vector<std::string> sets;     ///< KEY=VALUE, applied after preset and session
  std::string lang;                  ///< "", "en", "zh"
  std::string theme;                 ///< "", "light", "dark", "projector"
  std::string screenshot_out;        ///< non-empty: render, write this PNG, exit
  int width = 0, height = 0;         ///< screenshot size (0 = default)
  int step = 0;                      ///< guided step of the lesson, 1-based (0 = the whole lesson page)
  bool reveal = false;               ///< with `step`: that step's answer shown, as → shows it after the question
  std::string deck;                  ///< a deck file to present (docs/DECKS.md), at its first scene
  bool lecture = false;              ///< start in lecture mode (screenshot: render it)
  bool presenter = false;            ///< the presenter view too (screenshot: <out>-presenter.png beside it)
  /// screenshot: key presses replayed before the shot, X11 keysym names as
  /// xdotool writes them ("Next Next Down 5 Return"), in order.
  std::vector<std::string> keys;
  bool fresh = false;                ///< gui: start from the defaults, not the autosave
};

/// Entry points the GUI library provides (nullptr when built without it).
struct GuiEntryPoints {
  int (*run_window)(const WindowRequest& request) = nullptr;
  /// Adds the GUI's measurements to a `poslab bench` report: "frame_ms"
  /// (per view, defaults and maxima, p50/p95) and "startup_ms". Returns an
  /// exit code (non-zero: the report is still printed, with what was measured).
  int (*bench_frames)(void* ordered_json_report) = nullptr;
};

int run_cli(int argc, char** argv, const GuiEntryPoints& gui = {});

/// `--size WxH` of `poslab screenshot` into `request` (each side 200..8192).
/// Raises core::InvalidParameter("size", …).
void parse_window_size(const std::string& text, WindowRequest& request);

}  // namespace poslab::app
