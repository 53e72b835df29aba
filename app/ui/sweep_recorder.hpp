#pragma once
// Saving a played sweep: the animation's parameter goes from `from` to `to`
// once, and each step's figure (rebuilt at that value, drawn by cairo as the
// exports are) becomes a frame of an animated GIF or a numbered PNG
// (<view>-<figure>-0001.png …). One frame per step() so the window stays
// responsive and shows progress; the live parameters are never touched.

#include <filesystem>
#include <memory>
#include <string>

#include "app/common/i18n.hpp"
#include "app/common/session.hpp"
#include "app/lessons/lesson.hpp"
#include "app/ui/gif_writer.hpp"

namespace poslab::app::ui {

enum class SweepFormat { gif, png_sequence };

struct SweepRequest {
  const ViewDef* view = nullptr;
  const FigureDef* figure = nullptr;
  core::Params params;         ///< the session's parameters at the start
  SessionAnimation animation;  ///< key, from, to, speed (frame timing)
  int steps = 60;              ///< frames = steps + 1
  SweepFormat format = SweepFormat::gif;
  std::filesystem::path dir;
  int width = 960, height = 600;
  std::string theme = "light";
  std::string font_family = "DejaVu Sans";
};

class SweepRecorder {
 public:
  /// Checks the request and opens the output. Returns "" or why it cannot start.
  std::string start(SweepRequest request, const Translator& tr);
  bool active() const { return active_; }
  /// Renders and writes the next frame. Returns false when the recording is
  /// over (finished or failed: see error() / output()).
  bool step();
  void cancel();
  float progress() const;
  const std::string& error() const { return error_; }
  /// The GIF, or the folder of the PNG sequence.
  const std::filesystem::path& output() const { return output_; }
  int frames_written() const { return written_; }

 private:
  void finish();
  SweepRequest req_;
  const Translator* tr_ = nullptr;
  std::unique_ptr<GifWriter> gif_;
  std::filesystem::path output_;
  std::string error_;
  int next_ = 0, written_ = 0;
  bool active_ = false;
};

}  // namespace poslab::app::ui
