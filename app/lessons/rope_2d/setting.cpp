#include "app/lessons/rope_2d/setting.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "poslab/core/rope.hpp"

namespace poslab::app::rope_2d {

namespace {

Eigen::VectorXd vec2(const std::vector<double>& v) { return Eigen::Map<const Eigen::VectorXd>(v.data(), 2); }

}  // namespace

Vectors vectors(const core::Params& p) {
  Vectors v;
  v.q = vec2(p.list("q"));
  v.k = vec2(p.list("k"));
  v.m = p.real("m");
  v.n = p.real("n");
  v.theta = p.real("theta");
  return v;
}

Setup setup(const core::Params& p) {
  Setup s{vectors(p)};
  const double requested = p.real("shift");
  s.shift = std::clamp(requested, shift_min(s.m, s.n), shift_max(s.m, s.n));
  s.shift_clamped = s.shift != requested;
  s.mq = s.m + s.shift, s.nk = s.n + s.shift;
  s.q_rot = rotate(s.q, s.mq, s.theta);
  s.k_rot = rotate(s.k, s.nk, s.theta);
  return s;
}

double shift_min(double m, double n) { return -std::min(m, n); }
double shift_max(double m, double n) { return kMaxPosition - std::max(m, n); }

Eigen::VectorXd rotate(const Eigen::VectorXd& x, double pos, double theta) {
  const double thetas[] = {theta};
  return core::rope_rotate<double>(x, pos, thetas, core::PairLayout::interleaved);
}

double angle_of(const Eigen::VectorXd& v) { return std::atan2(v[1], v[0]); }

double wrap(double a) {
  constexpr double kPi = std::numbers::pi;
  double r = std::remainder(a, 2 * kPi);
  if (r <= -kPi) r += 2 * kPi;
  return r;
}

}  // namespace poslab::app::rope_2d
