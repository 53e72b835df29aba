// The tables the "decay" lesson shows beyond docs/CONTRACT.md §3:
// - decay-compare: every method at each distance, as the comparison figure
//   normalises it (value at r over value at 0; ALiBi as the softmax factor
//   e^(−m·r) its bias −m·r puts on a weight; T5 as its raw bucket);
// - decay-bases: RoFormer's relative bound for several bases.

#include <cmath>
#include <string>

#include "app/lessons/decay/setting.hpp"
#include "app/lessons/table.hpp"
#include "poslab/core/decay.hpp"
#include "poslab/core/rope.hpp"
#include "poslab/core/xpos.hpp"

namespace poslab::app::tables {

namespace {

using core::Params;

/// Distances for these tables when `distance` is unset: a few exact ones,
/// then powers of two up to 65,536 (where the bound has long stopped falling).
constexpr std::string_view kDistances = "0:16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536";

std::span<const double> as_span(const Eigen::VectorXd& v) { return {v.data(), static_cast<std::size_t>(v.size())}; }

/// rope_bound_rel = bound(r)/bound(0); rope_ones_rel and xpos_ones_rel =
/// score(r)/d (q = k = 1); alibi_factor = e^(−m·r) for the chosen head;
/// gaussian_rel = K(r)/K(0) (K(r) itself when K(0) is not clearly positive); t5_bucket = the
/// bucket of key − query = −r.
Table decay_compare(const core::Params& p) {
  const int d = static_cast<int>(p.integer("d"));
  const double base = p.real("base");
  const auto distance = p.list("distance");
  check_table_rows("distance", static_cast<double>(distance.size()), RowsHint::distances);
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
  std::vector<double> bound(distance.size());
  core::rope_decay_bound_curve(distance, as_span(theta), bound);
  const double bound0 = core::rope_decay_bound(0, as_span(theta));
  const decay::Methods m = decay::methods(p);  // as the comparison figure shows them
  Table t;
  t.columns = {"distance", "rope_bound_rel", "rope_ones_rel", "xpos_ones_rel", "alibi_factor", "gaussian_rel", "t5_bucket"};
  for (std::size_t i = 0; i < distance.size(); ++i) {
    const double r = distance[i];
    t.add_row({r, bound[i] / bound0, core::rope_ones_score(r, as_span(theta)) / d,
               core::xpos_ones_score(r, d, base, m.xpos_gamma, m.xpos_scale_base) / d, std::exp(m.bias(r)),
               m.kernel_shown(m.kernel(r)), static_cast<long long>(m.bucket(r))});
  }
  t.meta.emplace_back("alibi_slope", m.slope);
  t.meta.emplace_back("gaussian_normalised", m.kernel_normalised);
  return t;
}

/// Long form: one row per (base, distance); bound_rel = bound/((d/2 + 1)/2).
Table decay_bases(const core::Params& p) {
  const int d = static_cast<int>(p.integer("d"));
  const std::vector<double> bases = decay::compared_bases(p);
  const auto distance = p.list("distance");
  check_table_rows("distance", static_cast<double>(distance.size() * bases.size()), RowsHint::distances);
  Table t;
  t.columns = {"base", "distance", "bound", "bound_rel"};
  const double bound0 = (d / 2 + 1) / 2.0;
  for (double base : bases) {
    const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
    std::vector<double> bound(distance.size());
    core::rope_decay_bound_curve(distance, as_span(theta), bound);
    for (std::size_t i = 0; i < distance.size(); ++i) t.add_row({base, distance[i], bound[i], bound[i] / bound0});
  }
  return t;
}

// docs/CONTRACT.md §3
Table rope_decay(const Params& p) {
  const int d = static_cast<int>(p.integer("d"));
  const double base = p.real("base");
  const auto distance = p.list("distance");
  check_table_rows("distance", static_cast<double>(distance.size()));
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
  const std::span<const double> th(theta.data(), static_cast<std::size_t>(theta.size()));
  std::vector<double> bound(distance.size());
  core::rope_decay_bound_curve(distance, th, bound);
  Table t;
  t.columns = {"distance", "bound", "ones_score"};
  for (std::size_t r = 0; r < distance.size(); ++r)
    t.add_row({distance[r], bound[r], core::rope_ones_score(distance[r], th)});
  return t;
}

}  // namespace

std::vector<TableDef> decay_lesson_tables() {
  return {
      {"rope-decay", "RoFormer's long-term decay bound and the all-ones score", {"d", "base", "distance"}, {},
       rope_decay},
      {"decay-compare", "RoPE, xPos, ALiBi, Gaussian kernel and T5 against distance, each relative to distance 0",
           {"d", "base", "distance", "heads", "head", "buckets", "bucket_max_distance", "bidirectional", "xpos_gamma",
            "xpos_scale_base", "alpha1", "alpha2", "sigma1", "sigma2"},
           {{"distance", kDistances}},
           decay_compare},
          {"decay-bases", "RoFormer's relative decay bound for several bases", {"d", "base", "bases", "distance"},
           {{"distance", kDistances}}, decay_bases}};
}

}  // namespace poslab::app::tables
