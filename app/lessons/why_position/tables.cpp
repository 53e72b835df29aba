// The table the "why-position" lesson shows beyond docs/CONTRACT.md §3:
// why-position-shuffle: each word of "the dog bit the old man", where the
// shuffle `perm` puts it, and the largest change of its attention output
// y = Σₙ A(m, n)·vₙ when the sentence is shuffled and the output put back:
// without positions (0 up to rounding: Y(P·X) = P·Y(X)) and with
// x + pe_scale·PE(p) added after the shuffle (core::shuffle_test).

#include "app/lessons/table.hpp"
#include "app/lessons/why_position/setting.hpp"

namespace poslab::app::tables {

namespace {

using why_position::kTokens;
using why_position::Setting;

Table why_position_shuffle(const core::Params& p) {
  const Setting s = why_position::setting(p);
  const core::ShuffleTest<double> none = s.test(0.0), with = s.test(s.pe_scale);
  Table t;
  t.columns = {"position", "word", "new_position", "change_without_positions", "change_with_positions"};
  for (int i = 0; i < kTokens; ++i) {
    long long at = 0;
    while (s.perm[static_cast<std::size_t>(at)] != i) ++at;
    t.add_row({static_cast<long long>(i), std::string(Setting::word(i)), at,
               (none.shuffled_back.row(i) - none.original.output.row(i)).cwiseAbs().maxCoeff(),
               (with.shuffled_back.row(i) - with.original.output.row(i)).cwiseAbs().maxCoeff()});
  }
  t.meta.emplace_back("shuffled_sentence", s.shuffled_sentence());
  t.meta.emplace_back("gap_without_positions", none.gap);
  t.meta.emplace_back("gap_with_positions", with.gap);
  return t;
}

TableCost why_position_shuffle_cost(const core::Params&) { return fixed_rows(kTokens, 5, 2 * kTokens * kTokens); }

}  // namespace

std::vector<TableDef> why_position_lesson_tables() {
  return {{"why-position-shuffle",
           "each word's new place under the shuffle perm and how much its attention output changes, without and with positions",
           {"perm", "pe_scale", "seed"}, {}, why_position_shuffle, why_position_shuffle_cost}};
}

}  // namespace poslab::app::tables
