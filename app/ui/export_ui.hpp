#pragma once
// The export dialog (Ctrl+E): a folder, formats (PNG/SVG/PDF/CSV), size,
// scale, theme, transparency, font and line scale, the PDF page; "export
// every figure of this lesson"; and recording the animation's sweep as an
// animated GIF (one shared palette) or a numbered PNG sequence at that size
// and look, forward or forward and back, one unit of work per app frame with
// a progress bar. Results are reported in a toast that
// says where the files went.

#include <filesystem>
#include <string>
#include <vector>

#include "app/ui/sweep_recorder.hpp"
#include "app/ui/ui_context.hpp"

namespace poslab::app::ui {

class ExportUi {
 public:
  bool open = false;

  void draw(UiContext& ctx, SweepRecorder& recorder);
  /// Exports every figure of the current lesson in the chosen formats into
  /// the chosen folder; toasts the result. Returns the files written.
  std::vector<std::filesystem::path> export_all(UiContext& ctx);
  /// Starts recording the animation's sweep of figure `figure` of the lesson.
  /// Returns "" or why it cannot start (also toasted).
  std::string start_sweep(UiContext& ctx, SweepRecorder& recorder, int figure, SweepFormat format, int steps);
  /// Advances a running recording by one frame; toasts when it ends.
  void tick(UiContext& ctx, SweepRecorder& recorder);

 private:
  std::string dir_text_;
  int figure_ = 0;
  int sweep_format_ = 0;  // 0 = GIF, 1 = PNG sequence
  int steps_ = 60;
  bool bounce_ = false;   // forward, then back
  int theme_ = 0;         // light, dark, projector
};

}  // namespace poslab::app::ui
