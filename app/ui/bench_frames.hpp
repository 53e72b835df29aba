#pragma once
// The GUI's measurements for `poslab bench` (GuiEntryPoints::bench_frames):
// frame CPU time per view and key while that key changes every frame, at the
// view's defaults and at the largest sizes, and the time to the first frame.

#include <memory>

namespace poslab::app::ui {

class App;
class RemoteBuilds;

/// Adds "startup_ms", "frame_ms" and "deck_scene_ms" to the
/// nlohmann::ordered_json pointed to:
///   frame_ms: {VIEW: {"default"|"max": the worst key's case {"p50", "p95",
///   "max_frame", "frames", "swept", "figures_rebuilt_per_frame"}, "worst_key",
///   "max_over_default", "slowest_frame", "max_settings": ["d=8192", …],
///   "keys": {KEY: {"default"|"max": case, or {"skipped": why}}}}}
/// Returns 0, or 1 when a case could not be measured (its entry then has "error").
int bench_frames(void* ordered_json_report);

/// What the bench waits for before its next frame.
struct BenchPause {
  double until_ms = 0;   ///< a time on std::chrono::steady_clock, in ms (0: none)
  bool figures = false;  ///< until the figures being built elsewhere have landed
};

/// bench_frames one frame at a time, for a caller that must return to its
/// event loop between frames (the page: its worker's figures land only
/// then). `remote`: the page's worker, which builds the App's slow figures.
///
///   BenchRun run(&report, &worker);
///   while (run.next()) wait for run.pause() (then call next() again)
///   exit code: run.exit_code(); the report is filled when next() returns false
class BenchRun {
 public:
  explicit BenchRun(void* ordered_json_report, RemoteBuilds* remote = nullptr);
  ~BenchRun();
  BenchRun(const BenchRun&) = delete;
  BenchRun& operator=(const BenchRun&) = delete;
  /// Runs to the next pause: false when the bench is over.
  bool next();
  const BenchPause& pause() const;
  int exit_code() const;
  /// The App being measured (null before it starts and after it ends).
  App* app() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace poslab::app::ui
