#pragma once
// The trend of RoFormer's bound B(r) the "decay" lesson draws and reads out:
// its local mean over a window of relative width 1.1 around r, taken over
// EVERY integer distance in the window,
//   mean(r) = (1/(hi − lo + 1))·Σ_{r′=lo}^{hi} B(r′),  lo = ⌈r/1.1⌉, hi = ⌊1.1·r⌋,
// from prefix sums of B over the integers 0 … ⌊1.1·r_max⌋ (computed once per
// (d, base) and remembered). Beyond the caller's bound on work (pair-steps:
// distances × d/2), the prefix sums step over every k-th integer (k the
// smallest that fits) and the mean is over those integers in the window;
// `stride` says which. The prefix sums hold at most work/(d/2) + 2 numbers.

#include <span>
#include <vector>

namespace poslab::app::decay {

/// The window's relative width: [r/kWindow, r·kWindow], cut at kMaxDistance.
inline constexpr double kWindow = 1.1;
/// The largest distance core takes (docs/CONTRACT.md §2: distance ≤ 1e12).
inline constexpr double kMaxDistance = 1e12;

struct WindowMeans {
  std::vector<double> mean;  ///< one per r; B(r) itself where the window holds no integer
  long long stride = 1;      ///< 1: every integer distance in each window
};

/// mean(r) for every r (r ≥ 0), the bound at dimension d and base `base`,
/// from prefix sums that cost at most `work` pair-steps.
WindowMeans window_means(std::span<const double> r, int d, double base, double work);

}  // namespace poslab::app::decay
