#pragma once
// The "sinusoidal" lesson's parameters as core reads them, and the two pieces
// of the encoding its figures, readouts and tables take beyond core's ranges,
// written once: PE rows at any position (negative, or past 1e12 as m + k),
// and the shift M(k) at any d (core builds the d × d matrix up to 512).

#include <Eigen/Dense>

#include "poslab/core/params.hpp"

namespace poslab::app::sinusoidal {

/// Up to this d, M(k) comes from core::sinusoidal_shift_matrix (a d × d
/// matrix, 2 MiB at 512); above, the same 2 × 2 blocks are applied pair by pair.
inline constexpr int kMaxCoreShiftSide = 512;
inline constexpr double kMaxCorePosition = 1e12;  // core checks positions against `pos` (0..1e12)
inline constexpr double kMaxCoreOffset = 1e9;     // and offsets against `offset` (−1e9..1e9)

/// The encoding every figure, readout and table of the lesson reads: d, base.
struct Encoding {
  int d;
  double base;
};
Encoding encoding(const core::Params& p);

/// PE(pos) for any finite pos, negative included: PE is defined by the same
/// formula there, and sin is odd, cos even, so PE(−x) flips the sin entries of
/// core's PE(x). Past core's position range (1e12, reachable as m + k) the
/// same formula with core's ω_i.
Eigen::VectorXd pe_row(double pos, int d, double base);

/// M(k)·v. For d <= 512 through core's d × d matrix; above, block by block
/// with core's ω_i (the same blocks, without building a d × d matrix).
Eigen::VectorXd apply_shift(double k, const Eigen::VectorXd& v, int d, double base);

/// PE(m + k) = M(k)·PE(m) at the lesson's d, base, m and offset k: both sides
/// and where they start from.
struct ShiftRows {
  Encoding e;
  double m, k;
  Eigen::VectorXd from;     ///< PE(m)
  Eigen::VectorXd target;   ///< PE(m + k)
  Eigen::VectorXd rotated;  ///< M(k)·PE(m)
};
ShiftRows shift_rows(const core::Params& p);

}  // namespace poslab::app::sinusoidal
