#pragma once
// The "layer-mix" lesson's parameters as core reads them, written once for its
// figures, readouts and tables: the why-position sentence through one head
// with no position encoding (NoPE), causal or bidirectional; the local
// (sliding-window) and global bases; the fraction of pairs p-RoPE keeps and
// partial rotary turns.

#include <algorithm>

#include <Eigen/Dense>

#include "app/common/presets.hpp"
#include "app/lessons/why_position/setting.hpp"  // the toy sentence and head the NoPE figures reuse
#include "poslab/core/attention.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::layer_mix {

/// The largest N of the marker count a figure computes (N² weights within a
/// figure's budget); the table goes to core's 4096.
inline constexpr int kMaxFigurePositions = 1448;

/// The sentence "the dog bit the old man" (why-position's toy embeddings and
/// head, its `seed`), no position encoding, through the head with the causal
/// mask or without it.
core::AttentionResult<double> sentence(const core::Params& p, bool causal);

/// Local layers: base `local_base` over a window of W = `sliding_window`
/// tokens; global layers: base `base` with linear scaling by s = `factor` over
/// the whole context ℓ = `seq_len` (Gemma 3: 10,000 / 1,024; 1,000,000 ×8 / 131,072).
struct Bases {
  int d = 128;
  double local_base = 1e4, global_base = 1e6, factor = 8;
  long long window = 1024, context = 131072;
  Eigen::VectorXd local_theta, global_unscaled, global_theta;  ///< d/2 each; global_theta = θ/s
  /// The farthest key a local (global) layer's query sees: min(W, ℓ − 1) (ℓ − 1).
  long long local_reach() const { return std::min(window, context - 1); }
  long long global_reach() const { return context - 1; }
};
Bases bases(const core::Params& p);

/// The pairs of `theta` that turn at least once within `distance` tokens (λ <= distance).
int pairs_turning_within(const Eigen::VectorXd& theta, double distance);

/// p-RoPE and partial rotary at the same d, base and p = `partial_rotary_factor`.
struct Fraction {
  int d = 128;
  double base = 1e6, p = 0.25;
  Eigen::VectorXd rope;      ///< d/2: RoPE's own θᵢ
  Eigen::VectorXd p_rope;    ///< d/2: θᵢ for i < k, 0 after
  Eigen::VectorXd partial;   ///< r/2: θᵢ = base^(−2i/r)
  int kept = 0;              ///< k = ⌊p·d/2⌋ = r/2
};
Fraction fraction(const core::Params& p);

/// The model preset `stack_model` names (assets/presets/<id>.json), read once
/// per process and kept: its `reading` is what `poslab model` gives for its
/// config, so the layer-stack figure is the one File → Open model config draws.
/// Raises IoError / InvalidParameter when the preset cannot be read.
const Preset& stack_preset(const core::Params& p);

}  // namespace poslab::app::layer_mix
