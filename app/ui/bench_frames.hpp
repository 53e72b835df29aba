#pragma once
// The GUI's measurements for `poslab bench` (GuiEntryPoints::bench_frames):
// frame CPU time per view while a parameter changes every frame, at the
// view's defaults and at the largest sizes, and the time to the first frame.

namespace poslab::app::ui {

/// Adds "startup_ms" and "frame_ms" to the nlohmann::ordered_json pointed to:
///   {VIEW: {"default"|"max": {"p50", "p95", "frames", "swept", "figures_rebuilt_per_frame"}}}
/// Returns 0, or 1 when a case could not be measured (its entry then has "error").
int bench_frames(void* ordered_json_report);

}  // namespace poslab::app::ui
