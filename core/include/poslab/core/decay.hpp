#pragma once
// Long-term decay of RoPE scores with distance (RoFormer §3.4.3).
// With h_i = q_[2i:2i+1] k*_[2i:2i+1] and S_j = Σ_{k=0}^{j−1} e^{i r θ_k},
// Abel summation gives |score(r)| ≤ (max_i |h_{i+1} − h_i|) · Σ_{j=1}^{d/2} |S_j|,
// and the paper plots the relative upper bound (1/(d/2)) Σ_{j=1}^{d/2} |S_j|.

#include <cstdint>
#include <span>

namespace poslab::core {

/// (1/(d/2)) Σ_{j=1}^{d/2} |S_j(r)|, S_j(r) = Σ_{k<j} e^{i r θ_k}, θ_k = base^(−2k/d).
double rope_decay_bound(double distance, int d, double base);
/// The same for arbitrary frequencies (e.g. after context-extension scaling).
double rope_decay_bound(double distance, std::span<const double> thetas);

/// E|S_j| when the j phases r·θ_k are independent and uniform: the mean
/// distance from the start of a planar walk of j unit steps in random
/// directions, ∫₀^∞ (1 − J₀(t)^j)/t² dt (1 for j = 1, 4/π for j = 2,
/// 1.5745972… for j = 3). Exact to 1e-10 (j = 3; 1e-11 and better beyond): quadrature for j < 32,
/// beyond it the asymptotic series √(πj)/2·(1 + 1/(16j) + 19/(1536j²) + …),
/// whose error there is below 0.403^j (J₀'s largest lobe). 0 for j = 0.
double random_walk_mean_distance(int j);
/// The level RoFormer's relative bound settles at once the phases are
/// effectively random (distances far beyond the longest wavelength):
/// (1/(d/2))·Σ_{j=1}^{d/2} E|S_j| divided by the bound at r = 0, (d/2 + 1)/2.
/// d = 128: 0.1474648… Checks d (even, in the key's range).
double rope_decay_bound_random_level(int d);

/// Score of q = k = (1, …, 1) at distance r: Σ_{i=0}^{d/2−1} 2 cos(r θ_i).
double rope_ones_score(double distance, int d, double base);
double rope_ones_score(double distance, std::span<const double> thetas);

/// Mean |⟨R_m q, R_{m+r} k⟩| over `samples` seeded pairs q, k ~ N(0, I_d)
/// (the same q, k for every r, so the curve is smooth in r). Sample s uses
/// q_j = random_normal(seed, 2s, j), k_j = random_normal(seed, 2s + 1, j),
/// interleaved pairs. Checks distance, d, base, seed, samples.
double rope_random_mean_abs_score(double distance, int d, double base, std::uint64_t seed, int samples);
/// The same for every distance into `out` (q, k drawn once).
void rope_random_mean_abs_score_curve(std::span<const double> distances, int d, double base, std::uint64_t seed,
                                      int samples, std::span<double> out);

/// Benchmark kernel: rope_decay_bound for every distance into `out`
/// (out.size() == distances.size()). Runs of distances that form arithmetic
/// progressions (0:65535, or a sampled axis made of such runs) use one
/// sin/cos per pair per 64 distances plus a small table per step; each term
/// is within 75u + u·(|r_0 θ| + |bΔθ|) of e^{i r θ} (u = 2^−53, see
/// decay.cpp), so the result agrees with rope_decay_bound to ~1e-12 relative
/// (d = 128, 65,536 distances: ~6 ms).
void rope_decay_bound_curve(std::span<const double> distances, std::span<const double> thetas,
                            std::span<double> out);
/// The same, and rope_ones_score at every distance into `ones` (same size):
/// the last running sum S_{d/2}(r) = Σ_k e^{i r θ_k} of the bound holds it,
/// ones(r) = 2·Re S_{d/2}(r), so it costs nothing more. Each term carries the
/// error above, so ones agrees with rope_ones_score to within
/// d·(75u + u·max|rθ|) absolute.
void rope_decay_bound_curve(std::span<const double> distances, std::span<const double> thetas,
                            std::span<double> out, std::span<double> ones);

}  // namespace poslab::core
