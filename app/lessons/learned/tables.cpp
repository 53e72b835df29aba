// The tables the "learned" lesson shows beyond docs/CONTRACT.md §3:
// - learned-rows: entries of the seeded learned table (core/learned.hpp);
// - encoding-comparison: six position methods side by side, with honest cells
//   and, next to them, what the notes' table (seed 002 §3.4) says.
//
// Cells of encoding-comparison are data: counts computed at the current
// parameters, formulas in the symbols of the lesson (N = sequence length,
// L = max_length, d = vector width, k = clip, h = heads), snake_case category
// ids (the lesson's translation file explains each id as
// "learned.cell.<id>"), and citations.

#include <cmath>
#include <string>

#include "app/lessons/learned/setting.hpp"
#include "app/lessons/table.hpp"
#include "poslab/core/learned.hpp"

namespace poslab::app::tables {

namespace {

using core::InvalidParameter;
using core::Params;

/// Rows of the table for every position in `pos` that has one; meta records
/// how many asked-for positions have none (pos >= max_length).
Table learned_rows(const Params& p) {
  const learned::Embedding e = learned::embedding(p);
  const int d = e.d;
  const auto pos = p.list("pos");
  Table t;
  t.columns = {"pos", "i", "value"};
  long long missing = 0;
  for (double m : pos) {
    if (m != std::floor(m))
      throw InvalidParameter("pos", core::format_number(m), "rows exist at whole positions only",
                             core::Reason{"whole_positions", {}, {}});
    const auto row = e.row(static_cast<long long>(m));
    if (!row) {
      ++missing;
      continue;
    }
    for (int i = 0; i < d; ++i) t.add_row({m, static_cast<long long>(i), (*row)[i]});
  }
  t.meta.emplace_back("init_stddev", core::kLearnedInitStddev);
  t.meta.emplace_back("positions_without_row", missing);
  t.meta.emplace_back("first_position_without_row", e.max_length);
  return t;
}

/// One row per method. Sources for the cells:
/// - sinusoidal: Vaswani et al. 2017 §3.5 (no parameters, a row at any position);
/// - learned: Devlin et al. 2019, HF BertEmbeddings (nn.Embedding(L, d): L·d
///   parameters, no row for p >= L);
/// - shaw: Shaw et al. 2018 §3.2–3.3 (w^K and w^V, 2k+1 vectors each, shared
///   across heads, per layer; an extra q·a^K term per (i, j) pair);
/// - t5: Raffel et al. 2020 §2.1, HF T5Attention (nn.Embedding(buckets, heads)
///   in the first layer of each stack, reused by the others);
/// - rope: Su et al. 2021 §3.2–3.4 (rotation of q and k, no parameters);
/// - alibi: Press et al. 2022 §3 (fixed slopes, no parameters).
/// Extrapolation: Press et al. 2022 Fig. 1 (sinusoidal, rotary and T5 degrade
/// past the training length; ALiBi trained on 1024 matches at 2048 a
/// sinusoidal model trained on 2048, abstract). Shaw is not in that figure.
Table encoding_comparison(const Params& p) {
  const double d = static_cast<double>(p.integer("d"));
  const double L = static_cast<double>(p.integer("max_length"));
  const double k = static_cast<double>(p.integer("clip"));
  const double buckets = static_cast<double>(p.integer("buckets"));
  const double heads = static_cast<double>(p.integer("heads"));
  Table t;
  t.columns = {"method",           "injected_into",   "parameters",          "parameters_scope",
               "parameters_at_settings", "row_past_max_length", "relative_position", "extra_cost",
               "extra_cost_scope", "extrapolation",   "notes_row",           "notes_parameters",
               "notes_complexity", "notes_extrapolation", "notes_relative",  "source"};
  using S = std::string;
  t.add_row({S("sinusoidal"), S("input_embeddings"), S("0"), S("none"), 0.0, true, S("implicit_must_be_learned"),
             S("O(N·d)"), S("once_at_input"), S("degrades_past_training_length"), S("absolute"), S("O(d)"), S("O(1)"),
             S("poor"), S("implicit"), S("Vaswani et al. 2017 §3.5; Press et al. 2022 Fig. 1")});
  t.add_row({S("learned"), S("input_embeddings"), S("L·d"), S("per_model"), L * d, false, S("none_built_in"),
             S("O(N·d)"), S("once_at_input"), S("impossible_no_row_past_L"), S("absolute"), S("O(d)"), S("O(1)"),
             S("poor"), S("implicit"), S("Devlin et al. 2019 §3; HF BertEmbeddings")});
  t.add_row({S("shaw"), S("keys_and_values"), S("2·(2c+1)·d"), S("per_layer"), 2 * (2 * k + 1) * d, true,
             S("exact_up_to_k_then_clipped"), S("O(N²·d)"), S("every_layer"), S("not_measured_in_cited_work"),
             S("relative"), S("O(L)"), S("O(L)"), S("medium"), S("explicit_bucketed"), S("Shaw et al. 2018 §3.2–3.3")});
  t.add_row({S("t5"), S("attention_logits"), S("B·H"), S("per_stack"), buckets * heads, true,
             S("bucketed_scalar_bias"), S("O(N²·H)"), S("every_layer"), S("degrades_past_training_length"),
             S("relative"), S("O(L)"), S("O(L)"), S("medium"), S("explicit_bucketed"),
             S("Raffel et al. 2020 §2.1; HF T5Attention; Press et al. 2022 Fig. 1")});
  t.add_row({S("rope"), S("queries_and_keys"), S("0"), S("none"), 0.0, true, S("exact_score_depends_on_m_minus_n"),
             S("O(N·d)"), S("every_layer"), S("degrades_past_training_length"), S("rotary"), S("0"), S("O(1)"),
             S("best"), S("explicit_continuous"), S("Su et al. 2021 §3.2–3.4; Press et al. 2022 Fig. 1")});
  t.add_row({S("alibi"), S("attention_logits"), S("0"), S("none"), 0.0, true, S("linear_distance_penalty"),
             S("O(N²·H)"), S("every_layer"), S("holds_at_2x_training_length"), S("not_in_notes"), S(""), S(""), S(""),
             S(""), S("Press et al. 2022 §3 and abstract")});
  t.meta.emplace_back("learned_parameters_bert_base", 512.0 * 768.0);
  return t;
}

/// d rows per position (at most: positions past max_length have none).
TableCost learned_rows_cost(const Params& p) {
  return rows_of("pos", 3, 1, "1", static_cast<double>(p.integer("d")));
}
TableCost encoding_comparison_cost(const Params&) { return fixed_rows(6, 16); }

}  // namespace

std::vector<TableDef> learned_lesson_tables() {
  return {
      {"learned-rows", "entries of the seeded learned table (positions without a row are counted in meta)",
       {"d", "max_length", "seed", "pos"}, {{"pos", "0:1,510:513"}}, learned_rows, learned_rows_cost},
      {"encoding-comparison", "sinusoidal, learned, Shaw, T5, RoPE and ALiBi compared, next to the notes' cells",
       {"d", "max_length", "clip", "buckets", "heads"}, {}, encoding_comparison, encoding_comparison_cost},
  };
}

}  // namespace poslab::app::tables
