// The tables the "alibi" lesson shows beyond docs/CONTRACT.md §3:
// - alibi-heads: every head's slope with where get_slopes takes it from
//   (get_slopes(p) or, for heads beyond the largest power of two p <= H, the
//   even-indexed entries of get_slopes(2p)), its exponent and 1/m;
// - alibi-attention: one query's bias and softmax weight on every key when all
//   content scores are equal (core::alibi_bias, core::softmax_rows).

#include <cmath>
#include <limits>

#include "app/lessons/alibi/setting.hpp"
#include "app/lessons/table.hpp"
#include "poslab/core/alibi.hpp"

namespace poslab::app::tables {

namespace {

using core::Params;

/// source_heads / source_index: head h <= p is entry h of get_slopes(p); head
/// h > p is entry 2(h − p) − 1 (1-based) of get_slopes(2p), i.e. its [0::2]
/// slice. log2_slope = −8·index/source_heads exactly (ALiBi §3).
Table alibi_heads(const core::Params& p) {
  const int heads = static_cast<int>(p.integer("heads"));
  const auto slopes = core::alibi_slopes(heads);
  const int power = alibi::largest_power_of_two(heads);
  Table t;
  t.columns = {"head", "slope", "log2_slope", "source_heads", "source_index", "e_fold_distance"};
  for (int h = 1; h <= heads; ++h) {
    const double m = slopes[static_cast<std::size_t>(h - 1)];
    const long long source = h <= power ? power : 2LL * power;
    const long long index = h <= power ? h : 2LL * (h - power) - 1;
    t.add_row({static_cast<long long>(h), m, std::log2(m), source, index, 1 / m});
  }
  t.meta.emplace_back("largest_power_of_two", static_cast<long long>(power));
  t.meta.emplace_back("interleaved_heads", static_cast<long long>(heads - power));
  return t;
}

/// The query shown is the last one (causal) or the middle one (symmetric);
/// masked future keys have bias -inf (json: null) and weight 0.
Table alibi_attention(const core::Params& p) {
  const alibi::Setting s = alibi::setting(p);
  const long long n = s.positions, q = s.query();
  const double m = s.slope();
  Eigen::MatrixXd row(1, n);
  for (long long j = 0; j < n; ++j) row(0, j) = core::alibi_bias(m, q, j, s.causal);
  const Eigen::MatrixXd w = core::softmax_rows(row);
  Table t;
  t.columns = {"key", "query_minus_key", "bias", "weight"};
  for (long long j = 0; j < n; ++j) t.add_row({j, q - j, row(0, j), w(0, j)});
  t.meta.emplace_back("query", q);
  t.meta.emplace_back("slope", m);
  return t;
}

// docs/CONTRACT.md §3
Table alibi_slopes(const Params& p) {
  const auto slopes = core::alibi_slopes(static_cast<int>(p.integer("heads")));
  Table t;
  t.columns = {"head", "slope"};
  for (std::size_t h = 0; h < slopes.size(); ++h) t.add_row({static_cast<long long>(h + 1), slopes[h]});
  return t;
}

TableCost alibi_slopes_cost(const Params& p) { return fixed_rows(static_cast<double>(p.integer("heads")), 2); }
TableCost alibi_heads_cost(const Params& p) { return fixed_rows(static_cast<double>(p.integer("heads")), 6); }
/// A bias, an exp of the softmax and the division per key.
TableCost alibi_attention_cost(const Params&) { return rows_of("positions", 4, 2, "2"); }

}  // namespace

std::vector<TableDef> alibi_lesson_tables() {
  return {
      {"alibi-slopes", "ALiBi slope of each head", {"heads"}, {}, alibi_slopes, alibi_slopes_cost},
      {"alibi-heads", "every ALiBi head's slope and where get_slopes takes it from", {"heads"}, {}, alibi_heads, alibi_heads_cost},
          {"alibi-attention", "one query's ALiBi bias and softmax weight on every key (equal content scores)",
           {"heads", "head", "causal", "positions"}, {{"positions", "64"}}, alibi_attention, alibi_attention_cost}};
}

}  // namespace poslab::app::tables
