#include "app/ui/sweep_recorder.hpp"

#include <cmath>
#include <cstdio>

#include "app/common/atomic_file.hpp"
#include "app/common/messages.hpp"
#include "app/ui/animation.hpp"
#include "app/ui/export_service.hpp"
#include "app/ui/slider_math.hpp"

namespace poslab::app::ui {

namespace fs = std::filesystem;

std::string SweepRecorder::start(SweepRequest request, const Translator& tr) {
  cancel();
  error_.clear();
  written_ = 0;
  next_ = 0;
  if (!request.view || !request.figure) return "no figure chosen";
  const core::ParamSpec* spec = core::find_param(request.animation.key);
  if (!spec || !is_numeric(*spec)) return "choose a numeric parameter to animate first";
  if (request.steps < 1 || request.steps > 600) return "steps must be in 1..600";
  if (request.width < 200 || request.height < 200 || request.width > 4096 || request.height > 4096)
    return "frame size must be within 200..4096";
  std::error_code ec;
  if (!fs::is_directory(request.dir, ec)) {
    fs::create_directories(request.dir, ec);
    if (ec) return "cannot create folder " + request.dir.string() + ": " + ec.message();
  }
  const std::string stem = std::string(request.view->id) + "-" + std::string(request.figure->id) + "-" +
                           request.animation.key;
  try {
    if (request.format == SweepFormat::gif) {
      output_ = request.dir / (stem + ".gif");
      gif_ = std::make_unique<GifWriter>(output_);
    } else {
      output_ = request.dir;
    }
  } catch (const IoError& e) {
    return error_text(tr, e);
  }
  req_ = std::move(request);
  tr_ = &tr;
  active_ = true;
  return {};
}

float SweepRecorder::progress() const {
  return active_ ? static_cast<float>(next_) / static_cast<float>(req_.steps + 1) : 0.0f;
}

void SweepRecorder::cancel() {
  gif_.reset();  // removes the temporary file
  active_ = false;
}

void SweepRecorder::finish() {
  active_ = false;
  if (gif_) {
    try {
      gif_->commit();
    } catch (const IoError& e) {
      error_ = error_text(*tr_, e);
    }
    gif_.reset();
  }
}

bool SweepRecorder::step() {
  if (!active_) return false;
  const core::ParamSpec& spec = core::param_spec(req_.animation.key);
  const double t = static_cast<double>(next_) / req_.steps;
  const double value = snap(spec, interpolate(spec, req_.animation.from, req_.animation.to, t), false);
  const int index = next_++;
  try {
    core::Params p = req_.params;
    p.set(spec.key, value);
    const fig::Figure figure = build_figure(*req_.view, *req_.figure, p, *tr_, req_.width, req_.height);
    const Image img = render_figure_image(figure, req_.width, req_.height, req_.theme, req_.font_family);
    if (gif_) {
      const double seconds = kSweepSeconds / std::max(0.05, req_.animation.speed) / (req_.steps + 1);
      gif_->add_frame(img, std::max(2, static_cast<int>(std::lround(seconds * 100))));
    } else {
      char name[32];
      std::snprintf(name, sizeof name, "-%04d.png", index + 1);
      write_png(req_.dir / (std::string(req_.view->id) + "-" + std::string(req_.figure->id) + "-" +
                            req_.animation.key + name),
                img);
    }
    ++written_;
  } catch (const core::InvalidParameter&) {
    // A value the lesson refuses (e.g. a rule between parameters): skip the frame.
  } catch (const std::exception& e) {
    error_ = error_text(*tr_, e);
    cancel();
    return false;
  }
  if (next_ > req_.steps) {
    if (written_ == 0) {
      error_ = "no frame could be drawn: every value of the sweep was refused";
      cancel();
      return false;
    }
    finish();
    return false;
  }
  return true;
}

}  // namespace poslab::app::ui
