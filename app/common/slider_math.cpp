#include "app/common/slider_math.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace poslab::app {

using core::ParamSpec;
using core::ParamType;
using core::SliderScale;

bool is_numeric(const ParamSpec& spec) { return spec.type == ParamType::integer || spec.type == ParamType::real; }

namespace {
bool geometric(const ParamSpec& spec, double lo, double hi) {
  return spec.scale != SliderScale::linear && lo > 0 && hi > 0;
}
}  // namespace

double interpolate(const ParamSpec& spec, double lo, double hi, double t) {
  t = std::clamp(t, 0.0, 1.0);
  if (geometric(spec, lo, hi)) return lo * std::pow(hi / lo, t);
  return lo + (hi - lo) * t;
}

double position_of(const ParamSpec& spec, double lo, double hi, double value) {
  if (hi == lo) return 0;
  double t = 0;
  if (geometric(spec, lo, hi)) t = value > 0 ? std::log(value / lo) / std::log(hi / lo) : 0;
  else t = (value - lo) / (hi - lo);
  return std::isfinite(t) ? std::clamp(t, 0.0, 1.0) : 0.0;
}

std::string_view index_bound_key(std::string_view key) {
  // The multimodal query patch: rows 0 … grid_h − 1, columns 0 … grid_w − 1.
  // Not a relation core refuses (a row past a smaller grid is taken as its
  // last, docs/CONTRACT.md), so not ParamSpec::ui_max_key.
  if (key == "row") return "grid_h";
  if (key == "col") return "grid_w";
  return {};
}

std::optional<double> lesson_floor(std::string_view key, const core::Params& params) {
  // rope-2d: both shifted positions m + s and n + s stay ≥ 0 (tests check
  // this agrees with the lesson's own clamp, rope_2d::shift_min).
  if (key == "shift") return 0.0 - std::min(params.real("m"), params.real("n"));  // (+0, not −0, at m = 0)
  return std::nullopt;
}

std::optional<double> zero_taken_as(std::string_view key, const core::Params& params) {
  if (key == "head_dim") return params.real("d");  // rope::head_split: 0 = d
  if (key == "target_context") return params.real("factor") * params.real("original_context");  // scaling: 0 = s·L
  return std::nullopt;
}

std::optional<double> lesson_ceiling(std::string_view key, const core::Params& params, double lo) {
  // rope-2d: the key-only curve of score-shift is a cosine of period 2π/θ in
  // the shift; the slider (and the figure drawn over it) reaches at least
  // one period past its start, so at a small θ (period 39.3 tokens at θ = 0.16)
  // the slider's end is the axis's end, not 20 against an axis to 36.
  if (key == "shift") {
    const double theta = params.real("theta"), reach = std::ceil(lo + 2 * std::numbers::pi / theta);  // a whole token: −2 … 38, not … 37.2699
    const double last = 1e12 - std::max(params.real("m"), params.real("n"));  // rope_2d::shift_max
    if (std::isfinite(reach)) return std::min(reach, last);
    return last;
  }
  return std::nullopt;
}

std::pair<double, double> slider_range(const ParamSpec& spec, const core::Params& params) {
  double hi = spec.ui_max;
  if (!spec.ui_max_key.empty()) {
    const ParamSpec* other = core::find_param(spec.ui_max_key);
    if (other && is_numeric(*other)) hi = std::min(hi, params.real(spec.ui_max_key));
  }
  if (const std::string_view count = index_bound_key(spec.key); !count.empty()) hi = std::min(hi, params.real(count) - 1);
  double lo = spec.ui_min;
  if (const std::optional<double> floor = lesson_floor(spec.key, params); floor && std::isfinite(*floor))
    lo = std::clamp(*floor, spec.ui_min, std::max(spec.ui_min, hi));
  if (const std::optional<double> ceiling = lesson_ceiling(spec.key, params, lo); ceiling && std::isfinite(*ceiling))
    hi = std::max(hi, *ceiling);
  return {lo, std::max(lo, hi)};
}

std::pair<double, double> shown_slider_range(const ParamSpec& spec, const core::Params& params, double value,
                                             std::optional<std::pair<double, double>> held) {
  auto [lo, hi] = slider_range(spec, params);
  if (index_bound_key(spec.key).empty() && std::isfinite(value)) {
    const std::optional<double> floor = lesson_floor(spec.key, params);
    lo = std::min(lo, floor ? std::max(value, *floor) : value);  // never below what the lesson takes
    hi = std::max(hi, value);
  }
  if (held) lo = std::min(lo, held->first), hi = std::max(hi, held->second);
  return {lo, hi};
}

int pow2_min_exponent(const ParamSpec& spec) {
  return static_cast<int>(std::ceil(std::log2(std::max(1.0, spec.ui_min)) - 1e-9));
}
int pow2_max_exponent(const ParamSpec& spec) {
  return std::max(pow2_min_exponent(spec), static_cast<int>(std::floor(std::log2(std::max(1.0, spec.ui_max)) + 1e-9)));
}

double snap(const ParamSpec& spec, double v, bool pow2_steps) {
  if (!std::isfinite(v)) v = spec.ui_min;
  if (spec.type == ParamType::integer) {
    if (pow2_steps && spec.scale == SliderScale::pow2 && v > 0) v = std::exp2(std::round(std::log2(v)));
    v = std::round(v);
    if (spec.even && std::fmod(v, 2.0) != 0) v += (v + 1 <= spec.max) ? 1 : -1;
  }
  const double step = spec.type == ParamType::integer ? (spec.even ? 2.0 : 1.0) : 0.0;
  if (std::isfinite(spec.min)) {
    const double lo = spec.min_exclusive ? (step > 0 ? spec.min + step : std::nextafter(spec.min, spec.max) +
                                                                             std::abs(spec.min) * 1e-12 + 1e-12)
                                         : spec.min;
    v = std::max(v, lo);
  }
  if (std::isfinite(spec.max)) {
    const double hi = spec.max_exclusive ? (step > 0 ? spec.max - step : std::nextafter(spec.max, spec.min)) : spec.max;
    v = std::min(v, hi);
  }
  return v;
}

}  // namespace poslab::app
