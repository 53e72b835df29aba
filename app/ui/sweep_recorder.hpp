#pragma once
// Saving a played sweep from the GUI: the animation's parameter goes from
// `from` to `to` (and back, when asked), and each value's figure — rebuilt at
// that value at the export size and look, drawn by cairo as the exports are
// — becomes a frame of an animated GIF with one shared palette or a numbered
// PNG (<view>-<figure>-<key>-0001.png …). The work is app::SweepWriter's, the
// same as `poslab export --sweep`; here one unit of it per app frame, so the
// window stays responsive and shows progress. The live parameters are never
// touched.

#include <filesystem>
#include <memory>
#include <string>

#include "app/common/i18n.hpp"
#include "app/common/session.hpp"
#include "app/export/sweep.hpp"
#include "app/lessons/lesson.hpp"

namespace poslab::app::ui {

using app::SweepFormat;

struct SweepRequest {
  const ViewDef* view = nullptr;
  const FigureDef* figure = nullptr;
  core::Params params;         ///< the session's parameters at the start
  SessionAnimation animation;  ///< key, from, to, speed (one pass lasts kSweepSeconds / speed)
  int steps = 60;              ///< frames = steps + 1
  bool bounce = false;         ///< forward, then back
  SweepFormat format = SweepFormat::gif;
  std::filesystem::path dir;
  ExportOptions options;       ///< size, scale, theme, font and line scale (transparency: PNGs only)
};

class SweepRecorder {
 public:
  /// Checks the request and opens the output. Returns "" or why it cannot start.
  std::string start(SweepRequest request, const Translator& tr);
  bool active() const { return writer_ != nullptr; }
  /// Does the next unit of work. Returns false when the recording is over
  /// (finished or failed: see error() / output()).
  bool step();
  void cancel();
  float progress() const;
  const std::string& error() const { return error_; }
  /// The GIF, or the folder of the PNG sequence.
  const std::filesystem::path& output() const { return output_; }
  int frames_written() const { return written_; }

 private:
  std::unique_ptr<SweepWriter> writer_;
  const Translator* tr_ = nullptr;
  std::filesystem::path output_;
  std::string error_;
  int written_ = 0;
};

}  // namespace poslab::app::ui
