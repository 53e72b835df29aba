#pragma once
// The "rope" lesson's parameters as core reads them, written once for its
// figures, readouts, tables and screen: the head's frequencies (d, base), the
// trained context, and the vector the lesson rotates (vector, base, layout).

#include <vector>

#include <Eigen/Dense>

#include "poslab/core/params.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::app::rope {

/// Dials drawn (figure and screen); more pairs are sampled evenly.
inline constexpr int kMaxDials = 64;

/// θ_i = base^(−2i/d), i = 0 .. d/2 − 1, at `d` and `base`.
struct Frequencies {
  int d;
  double base;
  Eigen::VectorXd theta;
};
Frequencies frequencies(const core::Params& p);

/// Partial rotary (GPT-NeoX rotary_pct, phi partial_rotary_factor, HF's
/// rotary_dim): a head of `head` dims of which only the first `rotary` = d
/// rotate, with θ_i = base^(−2i/d) over the rotating dims (HF builds inv_freq
/// over dim = head_dim·partial_rotary_factor); the rest pass through.
struct HeadSplit {
  int head;    ///< `head_dim`, or d when it is 0
  int rotary;  ///< d
};
HeadSplit head_split(const core::Params& p);

/// x (head dims) with its first `rotary` dims rotated to position m by RoPE in
/// `layout` (core::rope_rotate) and the others unchanged.
Eigen::VectorXd rotate_partial(const Eigen::VectorXd& x, int rotary, double m, double base, core::PairLayout layout);

/// L (`original_context`): a pair turns at least once within it when λ_i < L.
double trained_context(const core::Params& p);

/// The pairs the dials show: all when d/2 <= kMaxDials, else kMaxDials evenly
/// spaced ones including the first and the last.
std::vector<int> dial_pairs(int half);

/// The vector x the lesson rotates (`vector`), with `base` and `layout`.
struct Rotation {
  Eigen::VectorXd x;
  double base;
  core::PairLayout layout;
};
Rotation rotation(const core::Params& p);

/// ⟨f(x, m), f(x, n)⟩ with f = proper RoPE in the layout, or (`mixed`) the
/// notes' mixed-layout code (core::rope_rotate_mixed).
double self_score(const Rotation& r, double m, double n, bool mixed);

}  // namespace poslab::app::rope
