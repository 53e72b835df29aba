#include "app/lessons/decay/trend.hpp"

#include <algorithm>
#include <cmath>
#include <list>
#include <memory>
#include <mutex>

#include "poslab/core/decay.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::app::decay {

namespace {

/// prefix[t] = Σ_{u<t} B(u·stride), t = 0 … count (count = entries − 1).
struct Prefix {
  int d;
  double base;
  long long stride;
  long long upto;  ///< every multiple of stride up to this distance is covered
  std::vector<double> sums;
};

/// Prefix sums for (d, base, stride) covering distances up to `upto`:
/// remembered (the most recent, up to kMemoBytes in all: 16 bases at the
/// default 65,536 distances, one at 1,048,576), extended by recomputing when
/// a longer range is asked for. Thread-safe; pure (the same inputs give the
/// same numbers).
std::shared_ptr<const Prefix> prefix_sums(int d, double base, long long stride, long long upto) {
  static std::mutex mutex;
  static std::list<std::shared_ptr<const Prefix>> memo;
  constexpr std::size_t kMemoBytes = std::size_t{10} << 20;
  {
    const std::lock_guard lock(mutex);
    for (auto it = memo.begin(); it != memo.end(); ++it)
      if ((*it)->d == d && (*it)->base == base && (*it)->stride == stride && (*it)->upto >= upto) {
        memo.splice(memo.begin(), memo, it);
        return memo.front();
      }
  }
  auto p = std::make_shared<Prefix>();
  p->d = d, p->base = base, p->stride = stride;
  const long long count = upto / stride + 1;
  p->upto = upto;
  p->sums.assign(static_cast<std::size_t>(count) + 1, 0.0);
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
  const std::span<const double> th(theta.data(), static_cast<std::size_t>(theta.size()));
  // In chunks: core's blocked kernel takes each run of distances u·stride
  // as one arithmetic progression.
  constexpr long long kChunk = 1 << 16;
  std::vector<double> at, bound;
  double running = 0;
  for (long long t0 = 0; t0 < count; t0 += kChunk) {
    const long long n = std::min(kChunk, count - t0);
    at.resize(static_cast<std::size_t>(n));
    bound.resize(static_cast<std::size_t>(n));
    for (long long u = 0; u < n; ++u) at[static_cast<std::size_t>(u)] = static_cast<double>((t0 + u) * stride);
    core::rope_decay_bound_curve(at, th, bound);
    for (long long u = 0; u < n; ++u) {
      running += bound[static_cast<std::size_t>(u)];
      p->sums[static_cast<std::size_t>(t0 + u + 1)] = running;
    }
  }
  const std::lock_guard lock(mutex);
  memo.push_front(p);
  std::size_t bytes = 0;
  for (auto it = memo.begin(); it != memo.end(); ++it) {
    bytes += (*it)->sums.size() * sizeof(double);
    if (it != memo.begin() && bytes > kMemoBytes) {
      memo.erase(it, memo.end());
      break;
    }
  }
  return p;
}

}  // namespace

WindowMeans window_means(std::span<const double> r, int d, double base, double work_budget) {
  WindowMeans out;
  if (r.empty()) return out;
  const double r_max = *std::max_element(r.begin(), r.end());
  // Windows end at core's largest distance, 1e12 (r up to 1e12 is accepted).
  const auto upto = static_cast<long long>(std::floor(std::min(r_max * kWindow, kMaxDistance)));
  const double work = (static_cast<double>(upto) + 1) * (d / 2.0);
  out.stride = std::max(1LL, static_cast<long long>(std::ceil(work / std::max(work_budget, d / 2.0))));
  const auto p = prefix_sums(d, base, out.stride, upto);
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
  const std::span<const double> th(theta.data(), static_cast<std::size_t>(theta.size()));
  const double k = static_cast<double>(out.stride);
  out.mean.reserve(r.size());
  for (double x : r) {
    // Indices t with t·stride in [⌈x/1.1⌉, ⌊1.1·x⌋].
    const double lo = std::ceil(x / kWindow), hi = std::floor(std::min(x * kWindow, kMaxDistance));
    const auto first = static_cast<long long>(std::ceil(lo / k)), last = static_cast<long long>(std::floor(hi / k));
    if (last < first) {
      out.mean.push_back(core::rope_decay_bound(x, th));
      continue;
    }
    const double sum = p->sums[static_cast<std::size_t>(last + 1)] - p->sums[static_cast<std::size_t>(first)];
    out.mean.push_back(sum / static_cast<double>(last - first + 1));
  }
  return out;
}

}  // namespace poslab::app::decay
