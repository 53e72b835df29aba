#pragma once
// The "rope-2d" lesson's parameters as core reads them, written once for its
// figures, readouts, table and screen: the 2-D q and k, their positions, θ
// and the shift, and the rotation R(pos·θ) through core::rope_rotate.

#include <Eigen/Dense>

#include "poslab/core/params.hpp"

namespace poslab::app::rope_2d {

inline constexpr double kMaxPosition = 1e12;  // core checks positions against the `m` spec (0..1e12)

/// q and k (2-D), their positions m and n, and θ (`q`, `k`, `m`, `n`, `theta`).
struct Vectors {
  Eigen::VectorXd q, k;
  double m = 0, n = 0, theta = 1;
};
Vectors vectors(const core::Params& p);

/// The lesson's inputs, with the shift clamped so both shifted positions stay
/// in core's position range 0..1e12 (a token has no negative position), and
/// q and k rotated there.
struct Setup : Vectors {
  double shift = 0;              ///< the shift actually applied
  bool shift_clamped = false;    ///< the requested shift would leave 0..1e12
  double mq = 0, nk = 0;         ///< the shifted positions m + s and n + s
  Eigen::VectorXd q_rot, k_rot;  ///< q′ = R((m + s)θ)·q and k′ = R((n + s)θ)·k
};
Setup setup(const core::Params& p);

/// The shifts s with m + s and n + s both in 0..1e12.
double shift_min(double m, double n);
double shift_max(double m, double n);

/// R(pos·θ)·x through core (interleaved pairs; for d = 2 there is one pair).
Eigen::VectorXd rotate(const Eigen::VectorXd& x, double pos, double theta);

/// The angle of v against the first axis, atan2(v₁, v₀).
double angle_of(const Eigen::VectorXd& v);

/// a wrapped into (−π, π].
double wrap(double a);

}  // namespace poslab::app::rope_2d
