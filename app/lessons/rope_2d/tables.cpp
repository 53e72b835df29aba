// The tables the "rope-2d" lesson shows beyond docs/CONTRACT.md §3.
//
// rope-2d-shift: q and k rotated to m + s and n + s for every shift s in
// `pos` (RoFormer eq. 13: q′ = R((m + s)θ)q, k′ = R((n + s)θ)k). The score
// column is the same in every row: q′·k′ = qᵀR((n − m)θ)k (eq. 16).

#include <cmath>
#include <numbers>

#include "app/lessons/table.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::app::tables {

namespace {

Table rope_2d_shift(const core::Params& p) {
  const auto qv = p.list("q"), kv = p.list("k");
  const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(qv.data(), 2);
  const Eigen::VectorXd k = Eigen::Map<const Eigen::VectorXd>(kv.data(), 2);
  const double m = p.real("m"), n = p.real("n"), theta = p.real("theta");
  const double thetas[] = {theta};
  Table t;
  t.columns = {"shift", "query_pos", "key_pos", "q_rot_x", "q_rot_y", "k_rot_x", "k_rot_y", "angle_between", "score"};
  for (double s : p.list("pos")) {
    if (m + s > 1e12 || n + s > 1e12)
      throw core::InvalidParameter("pos", core::format_number(s), "m + s and n + s must stay <= 1e12",
                                   core::Reason{"shift_max", {}, {}});
    const Eigen::VectorXd qr = core::rope_rotate<double>(q, m + s, thetas, core::PairLayout::interleaved);
    const Eigen::VectorXd kr = core::rope_rotate<double>(k, n + s, thetas, core::PairLayout::interleaved);
    // Angle from q′ to k′, wrapped into (−π, π].
    double between = std::remainder(std::atan2(kr[1], kr[0]) - std::atan2(qr[1], qr[0]), 2 * std::numbers::pi);
    if (between <= -std::numbers::pi) between += 2 * std::numbers::pi;
    t.add_row({s, m + s, n + s, qr[0], qr[1], kr[0], kr[1], between, qr.dot(kr)});
  }
  return t;
}

}  // namespace

std::vector<TableDef> rope_2d_lesson_tables() {
  return {
      {"rope-2d-shift", "2-D q and k rotated to m + s and n + s for each shift s in pos; the score stays fixed",
           {"q", "k", "m", "n", "theta", "pos"}, {{"pos", "0:8"}}, rope_2d_shift}};
}

}  // namespace poslab::app::tables
