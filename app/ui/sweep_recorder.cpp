#include "app/ui/sweep_recorder.hpp"

#include <algorithm>

#include "app/common/atomic_file.hpp"
#include "app/common/messages.hpp"
#include "app/ui/animation.hpp"

namespace poslab::app::ui {

namespace fs = std::filesystem;

std::string SweepRecorder::start(SweepRequest r, const Translator& tr) {
  cancel();
  error_.clear();
  written_ = 0;
  if (!r.view || !r.figure) return "no figure chosen";
  if (r.steps < 1 || r.steps > 599) return "steps must be in 1..599";
  SweepSpec spec;
  spec.key = r.animation.key;
  spec.from = r.animation.from;
  spec.to = r.animation.to;
  spec.frames = r.steps + 1;
  spec.bounce = r.bounce;
  spec.seconds = std::clamp(kSweepSeconds / std::max(0.05, r.animation.speed), 0.2, 120.0);
  const std::string stem = std::string(r.view->id) + "-" + std::string(r.figure->id) + "-" + spec.key;
  output_ = r.format == SweepFormat::gif ? r.dir / (stem + ".gif") : r.dir;
  try {
    std::error_code ec;
    if (!fs::is_directory(r.dir, ec) && !fs::create_directories(r.dir, ec))
      return "cannot create folder " + r.dir.string() + ": " + ec.message();
    writer_ = std::make_unique<SweepWriter>(*r.view, *r.figure, std::move(r.params), spec, r.format, r.options, tr, output_);
  } catch (const std::exception& e) {
    writer_.reset();
    return error_text(tr, e);
  }
  tr_ = &tr;
  return {};
}

float SweepRecorder::progress() const { return writer_ ? static_cast<float>(writer_->progress()) : 0.0f; }

void SweepRecorder::cancel() { writer_.reset(); }  // nothing was written for a GIF; the PNGs written stay whole

bool SweepRecorder::step() {
  if (!writer_) return false;
  try {
    if (writer_->step()) {
      written_ = writer_->frames_written();
      return true;
    }
    written_ = writer_->frames_written();
  } catch (const std::exception& e) {
    error_ = error_text(*tr_, e);
  }
  writer_.reset();
  return false;
}

}  // namespace poslab::app::ui
