#include "app/lessons/sinusoidal/setting.hpp"

#include <cmath>

#include "poslab/core/sinusoidal.hpp"

namespace poslab::app::sinusoidal {

Encoding encoding(const core::Params& p) { return {static_cast<int>(p.integer("d")), p.real("base")}; }

Eigen::VectorXd pe_row(double pos, int d, double base) {
  Eigen::VectorXd row(d);
  if (std::abs(pos) <= kMaxCorePosition) {
    row = core::sinusoidal_row<double>(std::abs(pos), d, base);
  } else {
    const Eigen::VectorXd omega = core::sinusoidal_frequencies(d, base);
    for (int i = 0; i < d / 2; ++i)
      row[2 * i] = std::sin(std::abs(pos) * omega[i]), row[2 * i + 1] = std::cos(std::abs(pos) * omega[i]);
  }
  if (pos < 0)
    for (int i = 0; i < d; i += 2) row[i] = -row[i];
  return row;
}

Eigen::VectorXd apply_shift(double k, const Eigen::VectorXd& v, int d, double base) {
  if (d <= kMaxCoreShiftSide) return core::sinusoidal_shift_matrix(k, d, base) * v;
  const Eigen::VectorXd omega = core::sinusoidal_frequencies(d, base);
  Eigen::VectorXd out(d);
  for (int i = 0; i < d / 2; ++i) {
    const double c = std::cos(omega[i] * k), s = std::sin(omega[i] * k);
    out[2 * i] = c * v[2 * i] + s * v[2 * i + 1];
    out[2 * i + 1] = -s * v[2 * i] + c * v[2 * i + 1];
  }
  return out;
}

ShiftRows shift_rows(const core::Params& p) {
  ShiftRows s{encoding(p), p.real("m"), p.real("offset"), {}, {}, {}};
  s.from = pe_row(s.m, s.e.d, s.e.base);
  s.target = pe_row(s.m + s.k, s.e.d, s.e.base);
  s.rotated = apply_shift(s.k, s.from, s.e.d, s.e.base);
  return s;
}

}  // namespace poslab::app::sinusoidal
