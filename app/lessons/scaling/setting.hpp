#pragma once
// The "scaling" lesson's parameters as core reads them, written once for its
// figures, readouts and tables: the keys of a context extension become a
// core::ScalingConfig here and nowhere else.

#include "poslab/core/params.hpp"
#include "poslab/core/scaling.hpp"

namespace poslab::app::scaling {

/// The method the lesson shows (`method`).
core::ScalingMethod selected_method(const core::Params& p);

/// L, the context the model was trained on (`original_context`).
double trained_context(const core::Params& p);

/// L′, the context the extension targets: `target_context`, or s·L when it is
/// 0 (s = `factor`).
double target_context(const core::Params& p);

/// `method` at the lesson's parameters: d, base, factor, original_context,
/// seq_len, beta_fast, beta_slow, mscale, mscale_all_dim, low_freq_factor,
/// high_freq_factor, temperature, truncate, attention_factor, short_factor and
/// long_factor (the last two only when set).
core::ScalingConfig scaling_config(const core::Params& p, core::ScalingMethod method);

/// The extension the lesson shows: `method`, taking a model trained on L
/// tokens to L′ = s·L.
struct Extension {
  core::ScalingMethod method;  ///< selected_method
  double s;                    ///< `factor`
  double L;                    ///< trained_context
  double L_target;             ///< target_context: L′ (0 there: s·L)
};
Extension extension(const core::Params& p);

/// The notes' position maps (seed 002 §4.2): m ↦ m/s (PI) and m ↦ m·(1/s)^γ,
/// for a model trained on L tokens that must read L′.
struct PositionMaps {
  double s;         ///< `factor`
  double gamma;     ///< `gamma`
  double L;         ///< trained_context
  double L_target;  ///< target_context: L′ (0 there: s·L)
};
PositionMaps position_maps(const core::Params& p);

}  // namespace poslab::app::scaling
