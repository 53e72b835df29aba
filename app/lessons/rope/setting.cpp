#include "app/lessons/rope/setting.hpp"

#include <cmath>

namespace poslab::app::rope {

Frequencies frequencies(const core::Params& p) {
  Frequencies f{static_cast<int>(p.integer("d")), p.real("base"), {}};
  f.theta = core::rope_inverse_frequencies(f.d, f.base);
  return f;
}

HeadSplit head_split(const core::Params& p) {
  const int d = static_cast<int>(p.integer("d"));
  const int head = static_cast<int>(p.integer("head_dim"));
  return {head == 0 ? d : head, d};
}

Eigen::VectorXd rotate_partial(const Eigen::VectorXd& x, int rotary, double m, double base, core::PairLayout layout) {
  Eigen::VectorXd y = x;
  y.head(rotary) = core::rope_rotate<double>(Eigen::VectorXd(x.head(rotary)), m, base, layout);
  return y;
}

double trained_context(const core::Params& p) { return static_cast<double>(p.integer("original_context")); }

std::vector<int> dial_pairs(int half) {
  std::vector<int> out;
  if (half <= kMaxDials) {
    for (int i = 0; i < half; ++i) out.push_back(i);
    return out;
  }
  for (int k = 0; k < kMaxDials; ++k)
    out.push_back(static_cast<int>(std::lround(static_cast<double>(k) * (half - 1) / (kMaxDials - 1))));
  return out;
}

Rotation rotation(const core::Params& p) {
  const auto v = p.list("vector");
  return {Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size())), p.real("base"),
          core::parse_pair_layout(p.choice("layout"))};
}

double self_score(const Rotation& r, double m, double n, bool mixed) {
  if (mixed) return core::rope_rotate_mixed(r.x, m, r.base).dot(core::rope_rotate_mixed(r.x, n, r.base));
  return core::rope_score(r.x, r.x, m, n, r.base, r.layout);
}

}  // namespace poslab::app::rope
