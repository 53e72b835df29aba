#pragma once
// How a parameter's slider maps to its value (ParamSpec::scale): linear, log,
// or powers of two; and how a swept value snaps to what the parameter allows
// (whole numbers, even numbers, exclusive bounds). Shared by the parameter
// panel, the animation and the recorded sweeps (GUI and `poslab export
// --sweep`); no ImGui here.

#include <optional>
#include <string_view>
#include <utility>

#include "poslab/core/params.hpp"

namespace poslab::app {

/// True for the parameters a slider (and an animation) can move: integer and real.
bool is_numeric(const core::ParamSpec& spec);

/// The value at position t in [0, 1] between lo and hi, geometric for log
/// and pow2 scales (when lo > 0), linear otherwise. Not snapped.
double interpolate(const core::ParamSpec& spec, double lo, double hi, double t);

/// Inverse of interpolate, clamped to [0, 1].
double position_of(const core::ParamSpec& spec, double lo, double hi, double value);

/// The nearest value the parameter allows: rounded for integers, to an even
/// number for even ones, to a power of two for pow2 sliders when `pow2_steps`,
/// and inside min..max (a hair inside an exclusive bound).
double snap(const core::ParamSpec& spec, double value, bool pow2_steps);

/// The slider's ends for `spec` under `params`: ui_min..ui_max, the upper
/// end lowered to the value of spec.ui_max_key when that is set and lower
/// (head's slider runs 1..heads), and for an index into a count (row into
/// grid_h, col into grid_w) to the count − 1; never below ui_min; the lower
/// end raised to the lesson_floor when there is one and the upper end to
/// the lesson_ceiling.
std::pair<double, double> slider_range(const core::ParamSpec& spec, const core::Params& params);

/// The range a slider shows for `value`: slider_range, widened to a value
/// past it (typed, or from a link, preset or deck: relative's d = 8,192 on a
/// slider of 2 … 1,024 would pin the handle at an end labelled 1,024) —
/// except an index past its count, which the lesson takes as the last, and a
/// value below the lesson_floor, which the lesson takes as the floor — and
/// to `held`, the range shown when a drag began, so that it does not move
/// under the mouse.
std::pair<double, double> shown_slider_range(const core::ParamSpec& spec, const core::Params& params, double value,
                                             std::optional<std::pair<double, double>> held = std::nullopt);

/// The count an index parameter runs below (row: grid_h, col: grid_w), or
/// empty. Its slider ends at the count − 1; a larger value is taken as the
/// last index by the lesson, and the panel shows it so (“9 → 7”).
std::string_view index_bound_key(std::string_view key);

/// The lowest value a lesson takes for `key` under `params`, when that
/// follows other parameters, or empty: rope-2d's shift s ≥ −min(m, n) (no
/// token moves before position 0; the lesson clamps a lower s to it, as
/// rope_2d::shift_min says). Its slider starts there, is never widened below
/// it, and the panel shows a lower value as the one taken (“−20 → −2”).
std::optional<double> lesson_floor(std::string_view key, const core::Params& params);

/// The value a lesson takes for `key` when it is 0, when 0 stands for
/// another parameter's value, or empty: head_dim 0 is a head d wide (every
/// dim rotates; rope::head_split). The panel shows it so (“0 → 128”), not a
/// bare head width of 0 beside d = 128.
std::optional<double> zero_taken_as(std::string_view key, const core::Params& params);

/// The end a lesson's slider for `key` reaches at least, from the slider's
/// start `lo`, when that follows other parameters, or empty: rope-2d's shift
/// runs one period 2π/θ of the key-only cosine past its start (score-shift's
/// x-axis is the slider's range, so the two never disagree), below the shift
/// where a position would pass 10¹² (rope_2d::shift_max).
std::optional<double> lesson_ceiling(std::string_view key, const core::Params& params, double lo);

/// For pow2 sliders: the exponents k with 2^k inside ui_min..ui_max.
int pow2_min_exponent(const core::ParamSpec& spec);
int pow2_max_exponent(const core::ParamSpec& spec);

}  // namespace poslab::app
