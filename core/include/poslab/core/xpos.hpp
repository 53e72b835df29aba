#pragma once
// xPos (Sun et al. 2022, "A Length-Extrapolatable Transformer"): RoPE with a
// per-pair exponential decay. torchscale's XPOS:
//   ζ_i = (2i + γ·d) / ((1 + γ)·d) = (2i/d + γ)/(1 + γ),  i = 0 .. d/2 − 1
//   q at position n is scaled by ζ^(n/B), k at position m by ζ^(−m/B), so the
//   pair-i part of the score carries ζ_i^((n − m)/B), B = scale_base.

#include <span>

namespace poslab::core {

/// ζ_i for pair i. Checks d and xpos_gamma.
double xpos_zeta(int pair, int d, double gamma);

/// The score factor of pair i at relative distance r = n − m ≥ 0: ζ_i^(r/B).
double xpos_decay(int pair, double distance, int d, double gamma, double scale_base);

/// The all-ones score with xPos: Σ_i 2·cos(r θ_i)·ζ_i^(r/B), θ_i = base^(−2i/d).
double xpos_ones_score(double distance, int d, double base, double gamma, double scale_base);
/// The same at every distance into `out` (one value each; θ_i and ζ_i computed
/// once, the values bit-identical to xpos_ones_score's).
void xpos_ones_score_curve(std::span<const double> distances, int d, double base, double gamma, double scale_base,
                           std::span<double> out);

}  // namespace poslab::core
