#pragma once
// The sliders' mapping, from app/common/slider_math.hpp (the headless sweeps
// share it), under the names the panels use.

#include "app/common/slider_math.hpp"

namespace poslab::app::ui {

using app::interpolate;
using app::is_numeric;
using app::position_of;
using app::pow2_max_exponent;
using app::pow2_min_exponent;
using app::snap;

}  // namespace poslab::app::ui
