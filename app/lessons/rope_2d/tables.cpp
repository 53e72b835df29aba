// The tables the "rope-2d" lesson shows beyond docs/CONTRACT.md §3.
//
// rope-2d-shift: q and k rotated to m + s and n + s for every shift s in
// `pos` (RoFormer eq. 13: q′ = R((m + s)θ)q, k′ = R((n + s)θ)k). The score
// column is the same in every row: q′·k′ = qᵀR((n − m)θ)k (eq. 16).

#include "app/lessons/rope_2d/setting.hpp"
#include "app/lessons/table.hpp"
#include "poslab/core/errors.hpp"

namespace poslab::app::tables {

namespace {

Table rope_2d_shift(const core::Params& p) {
  const rope_2d::Vectors v = rope_2d::vectors(p);
  Table t;
  t.columns = {"shift", "query_pos", "key_pos", "q_rot_x", "q_rot_y", "k_rot_x", "k_rot_y", "angle_between", "score"};
  for (double s : p.list("pos")) {
    if (v.m + s > 1e12 || v.n + s > 1e12)
      throw core::InvalidParameter("pos", core::format_number(s), "m + s and n + s must stay <= 1e12",
                                   core::Reason{"shift_max", {}, {}});
    const Eigen::VectorXd qr = rope_2d::rotate(v.q, v.m + s, v.theta);
    const Eigen::VectorXd kr = rope_2d::rotate(v.k, v.n + s, v.theta);
    // Angle from q′ to k′, wrapped into (−π, π].
    const double between = rope_2d::wrap(rope_2d::angle_of(kr) - rope_2d::angle_of(qr));
    t.add_row({s, v.m + s, v.n + s, qr[0], qr[1], kr[0], kr[1], between, qr.dot(kr)});
  }
  return t;
}

/// Two 2-D rotations per shift.
TableCost rope_2d_shift_cost(const core::Params&) { return rows_of("pos", 9, 2, "2"); }

}  // namespace

std::vector<TableDef> rope_2d_lesson_tables() {
  return {
      {"rope-2d-shift", "2-D q and k rotated to m + s and n + s for each shift s in pos; the score stays fixed",
           {"q", "k", "m", "n", "theta", "pos"}, {{"pos", "0:8"}}, rope_2d_shift, rope_2d_shift_cost}};
}

}  // namespace poslab::app::tables
