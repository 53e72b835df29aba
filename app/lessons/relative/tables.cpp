// The tables the "relative" lesson shows beyond docs/CONTRACT.md §3:
// - shaw-clip: Shaw et al. 2018 §3.2, the vector index clip(j − i, −k, k) of
//   every relative position j − i (key − query, as the paper writes it);
// - four-terms: the seeded toy's score split into its four terms for a
//   variant (core/relative.hpp), one row per (query, key).

#include <algorithm>
#include <string>

#include "app/lessons/table.hpp"
#include "poslab/core/relative.hpp"

namespace poslab::app::tables {

namespace {

using core::InvalidParameter;
using core::Params;

/// The toy's width cap, the same as the lesson's figures (relative_view.cpp).
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

core::TermVariant variant_of(const std::string& v) {
  if (v == "transformer-xl") return core::TermVariant::transformer_xl;
  if (v == "t5") return core::TermVariant::t5;
  if (v == "deberta") return core::TermVariant::deberta;
  return core::TermVariant::all;
}

Table four_terms(const Params& p) {
  const long long tokens = p.integer("positions");
  if (tokens * tokens > static_cast<long long>(kMaxTableRows))
    throw InvalidParameter("positions", std::to_string(tokens), "the table has positions² rows; at most 1000 positions",
                           core::Reason{"max_positions_squared", {{"max", "1000"}}, {}});
  const int width = static_cast<int>(std::min<long long>(p.integer("d"), kToyMaxWidth));
  const auto seed = static_cast<std::uint64_t>(p.integer("seed"));
  const core::ToyAttention toy = core::toy_attention(static_cast<int>(tokens), width, width, p.real("base"), seed);
  const core::FourTerms terms = core::four_term_decomposition(toy, variant_of(p.choice("terms")));
  const Eigen::MatrixXd sum = terms.sum();
  Table t;
  t.columns = {"query_i", "key_j", "content_content", "content_position", "position_content", "position_position",
               "score"};
  for (long long i = 0; i < tokens; ++i)
    for (long long j = 0; j < tokens; ++j)
      t.add_row({i, j, terms.content_content(i, j), terms.content_position(i, j), terms.position_content(i, j),
                 terms.position_position(i, j), sum(i, j)});
  t.meta.emplace_back("toy_width", static_cast<long long>(width));
  return t;
}

}  // namespace

std::vector<TableDef> relative_lesson_tables() {
  return {
      {"shaw-clip", "Shaw et al. relative vector index clip(j - i, -k, k) of each relative position",
       {"clip", "relative"}, {{"relative", "-12:12"}}, shaw_clip},
      {"four-terms", "the toy attention score split into content/position terms, for a variant",
       {"positions", "d", "base", "seed", "terms"}, {{"positions", "8"}}, four_terms},
  };
}

}  // namespace poslab::app::tables
