// xPos (Sun et al. 2022, "A Length-Extrapolatable Transformer", §3.2): RoPE
// whose pair i is also scaled by ζ_i^(n/B) on the query at position n and by
// ζ_i^(−m/B) on the key at position m, so the pair's part of the score decays
// as ζ_i^((n − m)/B) with the distance.
//
// Reference code: microsoft/torchscale, torchscale/component/xpos_relative_position.py
// (queries with downscale=False, keys with downscale=True, multihead_attention.py):
//   self.scale = (torch.arange(0, head_dim, 2) + 0.4 * head_dim) / (1.4 * head_dim)
//   scale = self.scale ** (torch.arange(min_pos, max_pos, 1) / self.scale_base)[:, None]
//   inv_freq = 1.0 / (10000 ** (torch.arange(0, dim) / dim))   # dim = head_dim / 2
// i.e. ζ_i = (2i + 0.4·d) / (1.4·d), generalised here with γ = xpos_gamma:
//   ζ_i = (2i + γ·d) / ((1 + γ)·d),  θ_i = base^(−2i/d),  B = xpos_scale_base (512).
// θ_i is computed here (not taken from rope.cpp) as std::pow(base, −2i/d).

#include "poslab/core/xpos.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"

namespace poslab::core {

namespace {

void check_pair(int pair, int d) {
  if (pair < 0 || pair >= d / 2)
    throw InvalidParameter("pair", std::to_string(pair),
                           "must be a pair index in 0..d/2-1 = 0.." + std::to_string(d / 2 - 1));
}

double zeta(int pair, int d, double gamma) {
  return (2.0 * pair + gamma * d) / ((1.0 + gamma) * d);
}

}  // namespace

/// ζ_i = (2i + γd) / ((1 + γ)d), in (γ/(1+γ), 1): the lowest pairs (fastest
/// rotation) decay most.
double xpos_zeta(int pair, int d, double gamma) {
  check_integer("d", d);
  check_real("xpos_gamma", gamma);
  check_pair(pair, d);
  return zeta(pair, d, gamma);
}

/// ζ_i^(r/B) for r = n − m >= 0 (checked against `distance`, 0..1e12). In
/// (0, 1]; it underflows to 0 only for absurd r/B, never to NaN.
double xpos_decay(int pair, double distance, int d, double gamma, double scale_base) {
  check_integer("d", d);
  check_real("xpos_gamma", gamma);
  check_real("xpos_scale_base", scale_base);
  check_real("distance", distance);
  check_pair(pair, d);
  return std::pow(zeta(pair, d, gamma), distance / scale_base);
}

/// Σ_{i=0}^{d/2−1} 2·cos(r θ_i)·ζ_i^(r/B): the score of q = k = (1, …, 1) at
/// distance r under xPos (RoPE's rope_ones_score times the per-pair decay).
double xpos_ones_score(double distance, int d, double base, double gamma, double scale_base) {
  double out = 0;
  xpos_ones_score_curve(std::span<const double>(&distance, 1), d, base, gamma, scale_base, std::span<double>(&out, 1));
  return out;
}

/// The same sum for every distance; θ_i and ζ_i are computed once, each term
/// as in the one-distance form, so the values are bit-identical to it.
void xpos_ones_score_curve(std::span<const double> distances, int d, double base, double gamma, double scale_base,
                           std::span<double> out) {
  check_integer("d", d);
  check_real("base", base);
  check_real("xpos_gamma", gamma);
  check_real("xpos_scale_base", scale_base);
  const ParamSpec& distance_spec = param_spec("distance");
  for (double r : distances) check_real(distance_spec, r);
  if (out.size() != distances.size())
    throw InvalidParameter("distance", std::to_string(distances.size()) + " items",
                           "the output must hold one value per distance (" + std::to_string(out.size()) + ")");
  const auto half = static_cast<std::size_t>(d / 2);
  std::vector<double> theta(half), z(half);
  for (std::size_t i = 0; i < half; ++i) {
    theta[i] = std::pow(base, -2.0 * static_cast<double>(i) / d);
    z[i] = zeta(static_cast<int>(i), d, gamma);
  }
  for (std::size_t j = 0; j < distances.size(); ++j) {
    const double r = distances[j];
    double sum = 0;
    for (std::size_t i = 0; i < half; ++i) sum += 2.0 * std::cos(r * theta[i]) * std::pow(z[i], r / scale_base);
    out[j] = sum;
  }
}

}  // namespace poslab::core
