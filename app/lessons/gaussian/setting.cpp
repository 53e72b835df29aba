#include "app/lessons/gaussian/setting.hpp"

#include "poslab/core/rope.hpp"

namespace poslab::app::gaussian {

Setting setting(const core::Params& p) {
  return {lessons::gaussian_kernel(p), static_cast<int>(p.integer("d")), p.real("base"), p.real("m"), p.real("n")};
}

double score(const core::GaussianKernel& k, double m, double n, int d, double base, core::KernelMode mode) {
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(d);
  return core::gaussian_rope_score(ones, ones, m, n, base, core::PairLayout::interleaved, k, mode);
}

double mixed_rope(double m, double n, int d, double base) {
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(d);
  return core::rope_rotate_mixed(ones, m, base).dot(core::rope_rotate_mixed(ones, n, base));
}

double notes_code_score(const core::GaussianKernel& k, double m, double n, int d, double base) {
  return k(m) * k(n) * mixed_rope(m, n, d, base);
}

}  // namespace poslab::app::gaussian
