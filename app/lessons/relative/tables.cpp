// The tables the "relative" lesson shows beyond docs/CONTRACT.md §3:
// - shaw-clip: Shaw et al. 2018 §3.2, the vector index clip(j − i, −k, k) of
//   every relative position j − i (key − query, as the paper writes it);
// - four-terms: the seeded toy's score split into its four terms for a
//   variant (core/relative.hpp), one row per (query, key).

#include <algorithm>
#include <string>

#include "app/lessons/relative/setting.hpp"
#include "app/lessons/table.hpp"
#include "poslab/core/relative.hpp"

namespace poslab::app::tables {

namespace {

using core::InvalidParameter;
using core::Params;

/// The toy's width cap in this table (the lesson's figures cap it at 128).
constexpr int kToyMaxWidth = 256;

Table shaw_clip(const Params& p) {
  const long long k = p.integer("clip");
  const auto rel = p.list("relative");
  Table t;
  t.columns = {"relative_position", "shaw_index"};
  for (double r : rel) {
    const auto rp = static_cast<long long>(r);
    // key j = query i + rp with both positions >= 0
    t.add_row({rp, core::shaw_relative_index(std::max(0LL, -rp), std::max(0LL, rp), k)});
  }
  t.meta.emplace_back("vectors", 2 * k + 1);
  return t;
}

Table four_terms(const Params& p) {
  const long long tokens = p.integer("positions");
  const relative::ToyKey key = relative::toy_key(p, tokens, kToyMaxWidth);
  const core::FourTerms terms = core::four_term_decomposition(relative::toy_attention(key), key.variant);
  const Eigen::MatrixXd sum = terms.sum();
  Table t;
  t.columns = {"query_i", "key_j", "content_content", "content_position", "position_content", "position_position",
               "score"};
  for (long long i = 0; i < tokens; ++i)
    for (long long j = 0; j < tokens; ++j)
      t.add_row({i, j, terms.content_content(i, j), terms.content_position(i, j), terms.position_content(i, j),
                 terms.position_position(i, j), sum(i, j)});
  t.meta.emplace_back("toy_width", static_cast<long long>(key.width));
  return t;
}

TableCost shaw_clip_cost(const Params&) { return rows_of("relative", 2); }
/// positions² rows (every query, key pair); the toy's scores take a dot
/// product of its width (min(d, 256)) per pair and term.
TableCost four_terms_cost(const Params& p) {
  const double width = static_cast<double>(std::min<long long>(p.integer("d"), kToyMaxWidth));
  return {"positions", 7, [](double n) { return n * n; }, 4 * width, "4·min(d, " + std::to_string(kToyMaxWidth) + ")"};
}

}  // namespace

std::vector<TableDef> relative_lesson_tables() {
  return {
      {"shaw-clip", "Shaw et al.'s relative vector index clip(n − m, −c, c) of each relative position",
       {"clip", "relative"}, {{"relative", "-12:12"}}, shaw_clip, shaw_clip_cost},
      {"four-terms", "the toy attention score of query m and key n split into content/position terms, for a variant",
       {"positions", "d", "base", "seed", "terms"}, {{"positions", "8"}}, four_terms, four_terms_cost},
  };
}

}  // namespace poslab::app::tables
