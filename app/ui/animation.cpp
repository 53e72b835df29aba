#include "app/ui/animation.hpp"

#include <algorithm>
#include <cmath>

#include "app/ui/slider_math.hpp"

namespace poslab::app::ui {

void Animation::choose(std::string_view key) {
  const core::ParamSpec& spec = core::param_spec(key);
  choose(key, spec.ui_min, spec.ui_max);
}

void Animation::choose(std::string_view key, const core::Params& params) {
  const auto range = slider_range(core::param_spec(key), params);
  choose(key, range.first, range.second);
}

void Animation::choose(std::string_view key, double from, double to) {
  const core::ParamSpec& spec = core::param_spec(key);
  if (!is_numeric(spec))
    throw core::InvalidParameter(std::string(key), "?", "only numbers can be animated", core::Reason{"not_numeric", {}, {}});
  spec_ = &spec;
  const bool same = config_.key == key;
  config_.key = std::string(key);
  set_range(from, to);
  if (!same) {
    config_.playing = false;
    phase_ = 0;
    direction_ = 1;
  }
  last_.reset();
}

void Animation::clear() {
  config_ = {};
  spec_ = nullptr;
  phase_ = 0;
  direction_ = 1;
  last_.reset();
}

void Animation::restore(const SessionAnimation& c) {
  choose(c.key, c.from, c.to);
  set_speed(c.speed);
  config_.mode = c.mode;
  config_.playing = c.playing;
}

void Animation::set_range(double from, double to) {
  if (!spec_) return;
  config_.from = snap(*spec_, from, false);
  config_.to = snap(*spec_, to, false);
  last_.reset();
}

void Animation::set_speed(double speed) { config_.speed = std::isfinite(speed) ? std::clamp(speed, 0.05, 20.0) : 1.0; }

void Animation::play() {
  if (!active()) return;
  if (config_.mode == PlayMode::once && phase_ >= 1.0) phase_ = 0;  // play again from the start
  config_.playing = true;
}

void Animation::set_phase(double phase) {
  phase_ = std::isfinite(phase) ? std::clamp(phase, 0.0, 1.0) : 0.0;
  last_.reset();
}

double Animation::value() const {
  if (!spec_) return 0;
  return snap(*spec_, interpolate(*spec_, config_.from, config_.to, phase_), false);
}

int Animation::steps_per_sweep() const {
  if (!spec_) return 1;
  if (spec_->type == core::ParamType::integer && spec_->scale == core::SliderScale::linear) {
    const double span = std::abs(config_.to - config_.from) / (spec_->even ? 2.0 : 1.0);
    return std::clamp(static_cast<int>(std::round(span)), 1, 100);
  }
  return 100;
}

std::optional<double> Animation::advance(double dt) {
  if (!active() || !config_.playing || !(dt > 0)) return std::nullopt;
  dt = std::min(dt, 0.25);  // a stalled frame never jumps half a sweep
  if (config_.mode != PlayMode::bounce) direction_ = 1;  // only back-and-forth travels backwards
  double p = phase_ + direction_ * dt * config_.speed / kSweepSeconds;
  switch (config_.mode) {
    case PlayMode::loop:
      if (p > 1) p -= std::floor(p);
      break;
    case PlayMode::bounce:
      if (p > 1) p = 2 - p, direction_ = -1;
      if (p < 0) p = -p, direction_ = 1;
      break;
    case PlayMode::once:
      if (p >= 1) p = 1, config_.playing = false;
      break;
  }
  phase_ = std::clamp(p, 0.0, 1.0);
  const double v = value();
  if (last_ && *last_ == v) return std::nullopt;
  last_ = v;
  return v;
}

double Animation::step(int direction) {
  if (!active()) return 0;
  const double dp = (direction >= 0 ? 1.0 : -1.0) / steps_per_sweep();
  double p = phase_ + dp;
  if (config_.mode == PlayMode::loop) {
    if (p > 1 + 1e-9) p = 0;
    if (p < -1e-9) p = 1;
  }
  phase_ = std::clamp(p, 0.0, 1.0);
  last_ = value();
  return *last_;
}

}  // namespace poslab::app::ui
