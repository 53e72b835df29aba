#pragma once
// The GUI's measurements for `poslab bench` (GuiEntryPoints::bench_frames):
// frame CPU time per view and key while that key changes every frame, at the
// view's defaults and at the largest sizes, and the time to the first frame.

namespace poslab::app::ui {

/// Adds "startup_ms", "frame_ms" and "deck_scene_ms" to the
/// nlohmann::ordered_json pointed to:
///   frame_ms: {VIEW: {"default"|"max": the worst key's case {"p50", "p95",
///   "max_frame", "frames", "swept", "figures_rebuilt_per_frame"}, "worst_key",
///   "max_over_default", "slowest_frame", "max_settings": ["d=8192", …],
///   "keys": {KEY: {"default"|"max": case, or {"skipped": why}}}}}
/// Returns 0, or 1 when a case could not be measured (its entry then has "error").
int bench_frames(void* ordered_json_report);

}  // namespace poslab::app::ui
