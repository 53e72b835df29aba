// The tables the "gaussian" lesson shows beyond docs/CONTRACT.md §3.
//
// gaussian-shift: scores of q = k = (1, …, 1) at (m + s, n + s) for s =
// 0..window in the notes' absolute form K(m)K(n)·⟨R_m q, R_n k⟩, the
// relative form K(m − n)·⟨R_m q, R_n k⟩ (core/gaussian.hpp), and what the
// notes' sample code computes (the same absolute kernel on the mixed-layout
// rotation, core::rope_rotate_mixed). Notes seed 000.

#include <cmath>

#include "app/lessons/gaussian/setting.hpp"
#include "app/lessons/table.hpp"
#include "poslab/core/gaussian.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::app::tables {

namespace {

using core::Params;

Table gaussian_shift(const core::Params& p) {
  const auto [k, d, base, m, n] = gaussian::setting(p);
  const long long window = p.integer("window");
  if (m + static_cast<double>(window) > 1e12 || n + static_cast<double>(window) > 1e12)
    throw core::InvalidParameter("window", std::to_string(window), "m + window and n + window must stay <= 1e12",
                                 core::Reason{"window_max", {}, {}});
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(d);
  Table t;
  t.columns = {"shift", "query_pos", "key_pos", "kernel_absolute", "kernel_relative", "rope",
               "score_absolute", "score_relative", "score_notes_code"};
  for (long long s = 0; s <= window; ++s) {
    const double a = m + static_cast<double>(s), b = n + static_cast<double>(s);
    t.add_row({s, a, b, k(a) * k(b), k(a - b), core::rope_score(ones, ones, a, b, base, core::PairLayout::interleaved),
               gaussian::score(k, a, b, d, base, core::KernelMode::absolute),
               gaussian::score(k, a, b, d, base, core::KernelMode::relative),
               gaussian::notes_code_score(k, a, b, d, base)});
  }
  const double cutoff = core::gaussian_kernel_cutoff(k, 0.01);
  if (cutoff >= 0) t.meta.emplace_back("below_1_percent_from", cutoff);
  return t;
}

// docs/CONTRACT.md §3
Table gaussian_kernel(const Params& p) {
  const core::GaussianKernel k = lessons::gaussian_kernel(p);
  const auto pos = p.list("pos");
  Table t;
  t.columns = {"pos", "kernel"};
  for (double m : pos) t.add_row({m, k(m)});
  const double cutoff = core::gaussian_kernel_cutoff(k, 0.01);
  if (cutoff >= 0) t.meta.emplace_back("below_1_percent_from", cutoff);
  return t;
}

// Their costs (docs/CONTRACT.md §3 "Budgets").
TableCost gaussian_kernel_cost(const Params&) { return rows_of("pos", 2, 2, "2"); }
/// window + 1 rows (s = 0..window); per row RoPE's score, the two kernel
/// forms and the notes' code, each rotating two vectors of d (d/2 sin and
/// cos each, the frequencies computed anew, four vectors allocated):
/// 16·(d + 16) units, as measured (the + 16: what a row costs at d = 2).
TableCost gaussian_shift_cost(const Params& p) {
  const double d = static_cast<double>(p.integer("d"));
  return {"window", 9, [](double w) { return w + 1; }, 16 * (d + 16), "16·(d + 16)"};
}

}  // namespace

std::vector<TableDef> gaussian_lesson_tables() {
  return {
      {"gaussian-kernel", "the notes' multi-scale Gaussian kernel K(pos)",
       {"alpha1", "alpha2", "sigma1", "sigma2", "pos"}, {{"pos", "0:64"}}, gaussian_kernel, gaussian_kernel_cost},
      {"gaussian-shift",
           "scores of q = k = 1 at (m + s, n + s), s = 0..window: the notes' absolute kernel, the relative one, the "
           "notes' code",
           {"alpha1", "alpha2", "sigma1", "sigma2", "m", "n", "window", "d", "base"},
           {{"d", "64"}},
           gaussian_shift, gaussian_shift_cost}};
}

}  // namespace poslab::app::tables
