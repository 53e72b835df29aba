// The tables of the "multimodal" lesson (docs/CONTRACT.md §3).
//
// mrope-positions: every token of text_before text tokens, one grid of
//   grid_t × grid_h × grid_w image or video tokens and text_after text tokens,
//   with its M-RoPE ids (t, h, w) as transformers' get_rope_index assigns them
//   for Qwen2-VL (video_time=index) and Qwen2.5-VL (video_time=absolute);
//   checked against a transcription of it run in torch,
//   tests/fixtures/mrope/cases.json.
// mrope-frequencies: every pair of a head split by mrope_section, with its θ,
//   λ and the axis that drives it, contiguous or interleaved.
// axial-scores: the axial 2-D score of the query patch against every patch.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "app/lessons/multimodal/setting.hpp"
#include "app/lessons/table.hpp"
#include "poslab/core/mrope.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::app::tables {

namespace {

Table mrope_positions(const core::Params& p) {
  const core::MropeLayout seq = multimodal::sequence(p);
  Table t;
  t.columns = {"index", "kind", "t", "h", "w"};
  t.rows.reserve(static_cast<std::size_t>(seq.tokens()));
  for (long long i = 0; i < seq.tokens(); ++i) {
    const core::MropePosition pos = seq.position(i);
    t.add_row({i, std::string(core::token_kind_name(pos.kind)), pos.t, pos.h, pos.w});
  }
  t.meta.emplace_back("tokens", seq.tokens());
  // What text after this sequence would start at (transformers: rope_deltas = next_id − tokens).
  t.meta.emplace_back("next_id", seq.next_id());
  t.meta.emplace_back("rope_deltas", seq.next_id() - seq.tokens());
  return t;
}

/// Rows: text_before + grid_t·grid_h·grid_w + text_after, one unit each. The
/// key blamed is the one that sets most of them.
TableCost mrope_positions_cost(const core::Params& p) {
  const multimodal::SequenceShape s = multimodal::shape(p);
  const double grid = static_cast<double>(s.t) * static_cast<double>(s.h) * static_cast<double>(s.w);
  const double before = static_cast<double>(s.before), after = static_cast<double>(s.after);
  if (grid >= before && grid >= after) {
    const double frame = static_cast<double>(s.h) * static_cast<double>(s.w);
    return {"grid_t", 5, [=](double t) { return before + t * frame + after; }, 1, "1"};
  }
  if (before >= after) return {"text_before", 5, [=](double n) { return n + grid + after; }, 1, "1"};
  return {"text_after", 5, [=](double n) { return before + grid + n; }, 1, "1"};
}

Table mrope_frequencies(const core::Params& p) {
  const multimodal::Sections sec = multimodal::sections(p);
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(sec.d(), sec.base);
  const std::vector<core::MropeAxis> axes = core::mrope_pair_axes(sec.s, sec.interleaved);
  Table t;
  t.columns = {"pair", "theta", "wavelength", "axis"};
  long long counts[3] = {0, 0, 0};
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const double th = theta[static_cast<Eigen::Index>(i)];
    t.add_row({static_cast<long long>(i), th, 2 * std::numbers::pi / th, std::string(core::mrope_axis_name(axes[i]))});
    ++counts[static_cast<int>(axes[i])];
  }
  t.meta.emplace_back("d", static_cast<long long>(sec.d()));
  t.meta.emplace_back("pairs_t", counts[0]);
  t.meta.emplace_back("pairs_h", counts[1]);
  t.meta.emplace_back("pairs_w", counts[2]);
  return t;
}

TableCost mrope_frequencies_cost(const core::Params& p) {
  return fixed_rows(multimodal::sections(p).pairs(), 4);
}

Table axial_scores(const core::Params& p) {
  const multimodal::Grid g = multimodal::grid(p);
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(g.d);
  const Eigen::VectorXd q = core::axial_rope_rotate<double>(ones, g.row, g.col, g.base);
  Table t;
  t.columns = {"row", "col", "d_row", "d_col", "score"};
  for (int r = 0; r < g.h; ++r)
    for (int c = 0; c < g.w; ++c)
      t.add_row({static_cast<long long>(r), static_cast<long long>(c), static_cast<long long>(g.row - r),
                 static_cast<long long>(g.col - c), q.dot(core::axial_rope_rotate<double>(ones, r, c, g.base)) / g.d});
  t.meta.emplace_back("query_row", static_cast<long long>(g.row));
  t.meta.emplace_back("query_col", static_cast<long long>(g.col));
  t.meta.emplace_back("base", g.base);
  return t;
}

/// grid_h·grid_w rows, each one key turned (d/2 pairs).
TableCost axial_scores_cost(const core::Params& p) {
  return rows_of("grid_h", 5, static_cast<double>(p.integer("d")) / 2, "d/2", static_cast<double>(p.integer("grid_w")));
}

}  // namespace

std::vector<TableDef> multimodal_lesson_tables() {
  return {
      {"mrope-positions",
       "every token of text, one image or video grid, text: its M-RoPE ids (t, h, w) as Qwen2-VL/2.5-VL assign them",
       {"text_before", "grid_t", "grid_h", "grid_w", "text_after", "video_time", "tokens_per_second", "second_per_grid"},
       {},
       mrope_positions,
       mrope_positions_cost},
      {"mrope-frequencies", "every pair of an M-RoPE head: theta, wavelength and the axis (t, h, w) that drives it",
       {"mrope_section", "mrope_interleaved", "base"},
       {{"base", "1000000"}},
       mrope_frequencies,
       mrope_frequencies_cost},
      {"axial-scores", "axial 2-D RoPE: the score of the query patch (row, col) against every patch of the grid",
       {"d", "grid_h", "grid_w", "row", "col"},
       {{"d", "64"}},
       axial_scores,
       axial_scores_cost},
  };
}

}  // namespace poslab::app::tables
