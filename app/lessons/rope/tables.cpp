// The tables the "rope" lesson shows beyond docs/CONTRACT.md §3: the notes'
// worked examples step by step, the layout permutation, and an audit of the
// numbers the notes print.
//
// Sources: RoFormer §3.2 (eq. 13–15) for the rotation; notes seed 003 §3.4
// (q = [1,2,3,4], m = 2, d = 4) and seed 001 §3 (five vectors at positions
// 0..4, d = 4, base 10000; pairs = groups (x0, x1) and (x2, x3)).

#include <array>
#include <cmath>
#include <string>
#include <numbers>

#include "app/lessons/rope/setting.hpp"
#include "app/lessons/table.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::app::tables {

namespace {

using core::Params;

/// seed 001's five vectors, one per position 0..4.
constexpr std::array<std::array<double, 4>, 5> kFiveVectors = {{
    {1, 0, 1, 0}, {0, 1, 0, 1}, {1, 1, 1, 1}, {1, -1, 1, -1}, {0.5, 0.5, 0.5, 0.5}}};

/// rope-steps: f(x, m) pair by pair — indices, θ_i, angle m·θ_i, cos, sin,
/// inputs and outputs (x_a cos − x_b sin, x_a sin + x_b cos).
Table rope_steps(const core::Params& p) {
  const auto [x, base, layout] = rope::rotation(p);
  const int d = static_cast<int>(x.size());
  const double m = p.real("m");
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
  const Eigen::VectorXd y = core::rope_rotate<double>(x, m, base, layout);
  Table t;
  t.columns = {"pair", "index_a", "index_b", "theta", "angle", "cos", "sin", "x_a", "x_b", "y_a", "y_b"};
  for (int i = 0; i < d / 2; ++i) {
    const auto [a, b] = core::rope_pair_indices(i, d, layout);
    const double angle = m * theta[i];
    t.add_row({static_cast<long long>(i), static_cast<long long>(a), static_cast<long long>(b), theta[i], angle,
               std::cos(angle), std::sin(angle), x[a], x[b], y[a], y[b]});
  }
  t.meta.emplace_back("norm_in", x.norm());
  t.meta.emplace_back("norm_out", y.norm());
  return t;
}

/// rope-five-vectors: seed 001's table. Row j rotates vector j mod 5 to
/// position pos[j] (default 0:4, the notes' positions).
Table rope_five_vectors(const core::Params& p) {
  const double base = p.real("base");
  const core::PairLayout layout = core::parse_pair_layout(p.choice("layout"));
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(4, base);
  const auto pos = p.list("pos");
  Table t;
  t.columns = {"pos", "x0", "x1", "x2", "x3", "angle0", "angle1", "y0", "y1", "y2", "y3"};
  for (std::size_t j = 0; j < pos.size(); ++j) {
    const auto& v = kFiveVectors[j % kFiveVectors.size()];
    const Eigen::Vector4d x(v[0], v[1], v[2], v[3]);
    const Eigen::VectorXd y = core::rope_rotate<double>(Eigen::VectorXd(x), pos[j], base, layout);
    t.add_row({pos[j], x[0], x[1], x[2], x[3], pos[j] * theta[0], pos[j] * theta[1], y[0], y[1], y[2], y[3]});
  }
  return t;
}

/// rope-notes-check: every number the notes print for their two worked
/// examples next to the reference (base 10000, d = 4, interleaved pairs, as the
/// notes compute), and whether the printed digits are the reference rounded to
/// as many decimals.
Table rope_notes_check(const core::Params&) {
  struct Printed {
    const char* example;
    double pos;
    std::array<double, 4> input;
    std::array<const char*, 4> printed;
  };
  // seed 003 §3.4 Step 4; seed 001's table "旋转后组1 / 旋转后组2".
  const std::array<Printed, 6> rows = {{
      {"notes_about_pe_q_1234_m2", 2, {1, 2, 3, 4}, {"-2.234", "0.077", "2.92", "4.06"}},
      {"notes_rope_row0", 0, {1, 0, 1, 0}, {"1", "0", "1", "0"}},
      {"notes_rope_row1", 1, {0, 1, 0, 1}, {"-0.8415", "0.5403", "-0.0100", "0.9999"}},
      {"notes_rope_row2", 2, {1, 1, 1, 1}, {"-1.3254", "0.4932", "0.9798", "1.0198"}},
      {"notes_rope_row3", 3, {1, -1, 1, -1}, {"-0.8489", "1.1311", "1.0296", "-0.9696"}},
      {"notes_rope_row4", 4, {0.5, 0.5, 0.5, 0.5}, {"0.0516", "-0.7052", "0.4796", "0.5196"}},
  }};
  Table t;
  t.columns = {"example", "pos", "index", "notes_printed", "reference", "reference_rounded", "agrees"};
  long long disagreements = 0;
  for (const Printed& r : rows) {
    const Eigen::Vector4d x(r.input[0], r.input[1], r.input[2], r.input[3]);
    const Eigen::VectorXd y = core::rope_rotate<double>(Eigen::VectorXd(x), r.pos, 10000.0, core::PairLayout::interleaved);
    for (int i = 0; i < 4; ++i) {
      const std::string printed = r.printed[static_cast<std::size_t>(i)];
      const auto dot = printed.find('.');
      const int decimals = dot == std::string::npos ? 0 : static_cast<int>(printed.size() - dot - 1);
      const double scale = std::pow(10.0, decimals);
      const double rounded = std::round(y[i] * scale) / scale;
      const bool agrees = std::abs(rounded - std::stod(printed)) < 0.5 / scale;
      disagreements += agrees ? 0 : 1;
      t.add_row({std::string(r.example), r.pos, static_cast<long long>(i), std::stod(printed), y[i], rounded, agrees});
    }
  }
  t.meta.emplace_back("disagreements", disagreements);
  return t;
}

/// rope-layouts: where interleaved slot j goes in the half layout (the
/// permutation HF applies to Meta's q/k weights), with its pair and member.
Table rope_layouts(const core::Params& p) {
  const int d = static_cast<int>(p.integer("d"));
  const std::vector<int> perm = core::rope_layout_permutation(d);
  Table t;
  t.columns = {"interleaved_index", "half_index", "pair", "member"};
  for (int j = 0; j < d; ++j)
    t.add_row({static_cast<long long>(j), static_cast<long long>(perm[static_cast<std::size_t>(j)]),
               static_cast<long long>(j / 2), static_cast<long long>(j % 2)});
  return t;
}

/// rope-mixed-layouts: ⟨f(x, m + s), f(x, n + s)⟩ for s in `pos`, proper
/// RoPE in `layout` against the notes' mixed code (core::rope_rotate_mixed).
Table rope_mixed_layouts(const core::Params& p) {
  const rope::Rotation r = rope::rotation(p);
  const double m = p.real("m"), n = p.real("n");
  Table t;
  t.columns = {"shift", "query_pos", "key_pos", "score", "score_mixed"};
  for (double s : p.list("pos")) {
    if (m + s > 1e12 || n + s > 1e12)
      throw core::InvalidParameter("pos", core::format_number(s), "m + s and n + s must stay <= 1e12",
                                   core::Reason{"shift_max", {}, {}});
    t.add_row({s, m + s, n + s, rope::self_score(r, m + s, n + s, false), rope::self_score(r, m + s, n + s, true)});
  }
  return t;
}

// docs/CONTRACT.md §3
Table rope_frequencies(const Params& p) {
  const Eigen::VectorXd theta = rope::frequencies(p).theta;
  Table t;
  t.columns = {"pair", "theta", "wavelength"};
  for (Eigen::Index i = 0; i < theta.size(); ++i)
    t.add_row({static_cast<long long>(i), theta[i], 2 * std::numbers::pi / theta[i]});
  return t;
}

Table rope_rotate(const Params& p) {
  const auto [x, base, layout] = rope::rotation(p);
  const auto pos = p.list("pos");
  Table t;
  t.columns = {"pos", "index", "input", "output"};
  for (double m : pos) {
    const Eigen::VectorXd y = core::rope_rotate<double>(x, m, base, layout);
    for (Eigen::Index i = 0; i < x.size(); ++i) t.add_row({m, static_cast<long long>(i), x[i], y[i]});
  }
  return t;
}

// Their costs (docs/CONTRACT.md §3 "Budgets"): one unit per RoPE pair rotated.
double vector_size(const Params& p) { return static_cast<double>(p.list("vector").size()); }
TableCost rope_frequencies_cost(const Params& p) { return fixed_rows(static_cast<double>(p.integer("d") / 2), 3); }
/// |vector| rows per position, half a rotation of a pair each.
TableCost rope_rotate_cost(const Params& p) { return rows_of("pos", 4, 1, "1", vector_size(p)); }
TableCost rope_steps_cost(const Params& p) { return fixed_rows(vector_size(p) / 2, 11, 2, "2"); }
TableCost rope_five_vectors_cost(const Params&) { return rows_of("pos", 11, 2, "2"); }
TableCost rope_notes_check_cost(const Params&) { return fixed_rows(24, 7, 2, "2"); }
TableCost rope_layouts_cost(const Params& p) { return fixed_rows(static_cast<double>(p.integer("d")), 4); }
/// Per shift: x rotated to m + s and n + s, properly and as the notes' code
/// does (the mixed code computes every angle twice): 8·|vector| units, as measured.
TableCost rope_mixed_layouts_cost(const Params& p) { return rows_of("pos", 5, 8 * vector_size(p), "8·|vector|"); }

}  // namespace

std::vector<TableDef> rope_lesson_tables() {
  return {
      {"rope-frequencies", "RoPE frequency theta_i and wavelength per pair", {"d", "base"}, {},
       rope_frequencies, rope_frequencies_cost},
      {"rope-rotate", "a vector rotated by RoPE at each position", {"vector", "base", "pos", "layout"},
       {{"pos", "0:4"}}, rope_rotate, rope_rotate_cost},
      {"rope-steps", "RoPE of one vector at position m, pair by pair (angle, cos, sin, inputs, outputs)",
       {"vector", "base", "m", "layout"}, {}, rope_steps, rope_steps_cost},
      {"rope-five-vectors", "the notes' five 4-d vectors, vector j mod 5 rotated to position pos[j]",
       {"base", "pos", "layout"}, {{"pos", "0:4"}}, rope_five_vectors, rope_five_vectors_cost},
      {"rope-notes-check", "every number the notes print for their RoPE examples against the reference", {}, {},
       rope_notes_check, rope_notes_check_cost},
      {"rope-layouts", "interleaved index to half index: the permutation between the two pair layouts", {"d"}, {},
       rope_layouts, rope_layouts_cost},
      {"rope-mixed-layouts", "<f(x, m+s), f(x, n+s)> for s in pos: proper RoPE against the notes' mixed-layout code",
       {"vector", "base", "m", "n", "layout", "pos"}, {{"pos", "0:16"}}, rope_mixed_layouts, rope_mixed_layouts_cost},
  };
}

}  // namespace poslab::app::tables
