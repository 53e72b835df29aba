// The tables the "decay" lesson shows beyond docs/CONTRACT.md §3:
// - decay-compare: every method at each distance as the comparison figure
//   draws it, the softmax weight of a key at r over the key at 0 for equal
//   content (decay::relative_weight), with RoPE's relative bound and T5's raw
//   bucket (T5's learned bias per bucket has no value without weights);
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

/// rope_bound_rel = bound(r)/bound(0); *_weight = exp(s(r) − s(0)) with the
/// logit s = q′·k′/√d + bias, q = k = 1 (rope, xpos, alibi = e^(−μₕ·r),
/// gaussian = Gaussian-kernel RoPE, relative form), all at the distance as
/// given; t5_bucket = the bucket of key − query = −t5_distance, T5 reading
/// whole tokens: t5_distance is r rounded to the nearest whole distance.
Table decay_compare(const core::Params& p) {
  const int d = static_cast<int>(p.integer("d"));
  const double base = p.real("base");
  const auto distance = p.list("distance");
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
  std::vector<double> bound(distance.size()), ones(distance.size());
  core::rope_decay_bound_curve(distance, as_span(theta), bound, ones);
  const double bound0 = core::rope_decay_bound(0, as_span(theta));
  const decay::Methods m = decay::methods(p);  // as the comparison figure shows them
  Table t;
  t.columns = {"distance", "rope_bound_rel", "rope_weight", "xpos_weight", "alibi_weight", "gaussian_weight", "t5_bucket", "t5_distance"};
  const double root_d = std::sqrt(static_cast<double>(d));
  const double ones0 = core::rope_ones_score(0, as_span(theta));
  const double xpos0 = core::xpos_ones_score(0, d, base, m.xpos_gamma, m.xpos_scale_base);
  std::vector<double> xpos(distance.size());
  core::xpos_ones_score_curve(distance, d, base, m.xpos_gamma, m.xpos_scale_base, xpos);
  t.rows.reserve(distance.size());
  for (std::size_t i = 0; i < distance.size(); ++i) {
    const double r = distance[i];
    t.add_row({r, bound[i] / bound0, decay::relative_weight((ones[i] - ones0) / root_d),
               decay::relative_weight((xpos[i] - xpos0) / root_d), decay::relative_weight(m.bias(r)),
               decay::relative_weight(decay::gaussian_delta(m, m.kernel(r), ones[i], d)), static_cast<long long>(m.bucket(r)), decay::Methods::t5_distance(r)});
  }
  t.meta.emplace_back("alibi_slope", m.slope);
  return t;
}

/// Long form: one row per (base, distance); bound_rel = bound/((d/2 + 1)/2).
Table decay_bases(const core::Params& p) {
  const int d = static_cast<int>(p.integer("d"));
  const std::vector<double> bases = decay::compared_bases(p);
  const auto distance = p.list("distance");
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
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
  const std::span<const double> th(theta.data(), static_cast<std::size_t>(theta.size()));
  std::vector<double> bound(distance.size()), ones(distance.size());
  core::rope_decay_bound_curve(distance, th, bound, ones);
  Table t;
  t.columns = {"distance", "bound", "ones_score"};
  t.rows.reserve(distance.size());
  for (std::size_t r = 0; r < distance.size(); ++r) t.add_row({distance[r], bound[r], ones[r]});
  return t;
}

// Their costs (docs/CONTRACT.md §3 "Budgets"): one unit per RoPE pair at one
// distance (a complex step of the bound, which also gives the ones score).
double pairs(const Params& p) { return static_cast<double>(p.integer("d") / 2); }
TableCost rope_decay_cost(const Params& p) { return rows_of("distance", 3, pairs(p), "d/2"); }
/// The bound and RoPE's ones score (d/2), xPos's score (d/2 cosines and powers).
TableCost decay_compare_cost(const Params& p) { return rows_of("distance", 8, 3 * pairs(p), "3·d/2"); }
/// One row per (base, distance).
TableCost decay_bases_cost(const Params& p) {
  return rows_of("distance", 4, pairs(p), "d/2", static_cast<double>(decay::compared_bases(p).size()));
}

}  // namespace

std::vector<TableDef> decay_lesson_tables() {
  return {
      {"rope-decay", "RoFormer's long-term decay bound and the all-ones score", {"d", "base", "distance"}, {},
       rope_decay, rope_decay_cost},
      {"decay-compare", "RoPE, xPos, ALiBi and Gaussian-kernel RoPE as the softmax weight of a key at r over the key at 0 (equal content, q = k = 1); RoPE's bound; T5's bucket at the nearest whole distance",
           {"d", "base", "distance", "heads", "head", "buckets", "bucket_max_distance", "bidirectional", "xpos_gamma",
            "xpos_scale_base", "alpha1", "alpha2", "sigma1", "sigma2"},
           {{"distance", kDistances}},
           decay_compare, decay_compare_cost},
          {"decay-bases", "RoFormer's relative decay bound for several bases", {"d", "base", "bases", "distance"},
           {{"distance", kDistances}}, decay_bases, decay_bases_cost}};
}

}  // namespace poslab::app::tables
