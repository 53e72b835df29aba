#pragma once
// Playing a numeric parameter: sweep it from `from` to `to` (on the slider's
// scale: geometric for log sliders), looping, going back and forth, or once.
// E.g. sweep m to rotate RoPE's vectors, or factor to bend YaRN's
// frequencies. Pure logic driven by a clock; the App sets the values through
// AppState so every value is checked like a slider move. No ImGui here.

#include <optional>
#include <string>

#include "app/common/session.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::ui {

/// One sweep lasts kSweepSeconds / speed.
inline constexpr double kSweepSeconds = 5.0;

class Animation {
 public:
  /// Animates `key` over its slider range (or [from, to] when given), paused.
  /// Raises core::InvalidParameter if `key` is not a numeric parameter.
  void choose(std::string_view key);
  void choose(std::string_view key, double from, double to);
  /// Over the slider's range under `params` (slider_range: head sweeps 1..heads).
  void choose(std::string_view key, const core::Params& params);
  bool active() const { return !config_.key.empty(); }
  void clear();

  const SessionAnimation& config() const { return config_; }
  /// Restores a saved configuration (checked by parse_session). Raises core::InvalidParameter.
  void restore(const SessionAnimation& config);

  void set_range(double from, double to);
  void set_speed(double speed);  ///< clamped to 0.05..20
  void set_mode(PlayMode mode) { config_.mode = mode; }
  void play();
  void pause() { config_.playing = false; }
  void toggle() { config_.playing ? pause() : play(); }
  bool playing() const { return config_.playing; }

  /// Position in the sweep, 0..1, and the direction of travel (bounce).
  double phase() const { return phase_; }
  void set_phase(double phase);

  /// Advances the clock by `dt` seconds while playing. Returns the new value
  /// when it differs from the last one returned (integers change in steps).
  std::optional<double> advance(double dt);
  /// Moves one step (1/100 of the sweep, or one whole number for short
  /// integer ranges) forward (+1) or back (−1); returns the value.
  double step(int direction);
  /// The value at the current phase, snapped to what the parameter allows.
  double value() const;
  /// Steps in one sweep (what step() uses; a recorded sweep has this many + 1 frames).
  int steps_per_sweep() const;

 private:
  SessionAnimation config_;
  const core::ParamSpec* spec_ = nullptr;
  double phase_ = 0;
  int direction_ = 1;
  std::optional<double> last_;
};

}  // namespace poslab::app::ui
