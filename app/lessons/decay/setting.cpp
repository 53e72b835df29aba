#include "app/lessons/decay/setting.hpp"

#include <algorithm>
#include <cmath>

#include "poslab/core/alibi.hpp"
#include "poslab/core/t5.hpp"

namespace poslab::app::decay {

std::vector<double> compared_bases(const core::Params& p) {
  std::vector<double> bases{p.real("base")};
  for (double b : p.list("bases"))
    if (std::find(bases.begin(), bases.end(), b) == bases.end()) bases.push_back(b);
  return bases;
}

Methods methods(const core::Params& p) {
  Methods m;
  m.xpos_gamma = p.real("xpos_gamma"), m.xpos_scale_base = p.real("xpos_scale_base");
  m.heads = static_cast<int>(p.integer("heads")), m.head = static_cast<int>(p.integer("head"));
  m.slope = core::alibi_slopes(m.heads)[static_cast<std::size_t>(m.head - 1)];
  m.kernel = lessons::gaussian_kernel(p);
  m.kernel0 = m.kernel(0);
  m.t5 = lessons::t5_buckets(p);
  return m;
}

double relative_weight(double delta) { return std::exp(std::min(delta, 700.0)); }

double gaussian_delta(const Methods& m, double kernel_r, double ones_r, int d) {
  return (kernel_r * ones_r - m.kernel0 * d) / std::sqrt(static_cast<double>(d));
}

double Methods::bias(double r) const { return -slope * r; }

long long Methods::t5_distance(double r) { return std::llround(r); }

int Methods::bucket(double r) const {
  return core::t5_relative_bucket(-t5_distance(r), t5.bidirectional, t5.buckets, t5.max_distance);
}

}  // namespace poslab::app::decay
