// The "gaussian" lesson: the notes' absolute kernel breaks shift invariance,
// the relative kernel keeps it, the 1 % cutoff, and the score maps carry core's
// numbers.
//
// Reference values were computed at development time in plain Python (math
// module only): K(x) = 0.7·exp(−x²/50) + 0.3·exp(−x²/800); the 1 % cutoff by
// bisection (52.16280193135454); ⟨R_m 1, R_n 1⟩ = Σ_i 2cos((n − m)θ_i),
// θ_i = 10000^(−2i/64); and the notes' seed-000 code transcribed (emb =
// cat(freqs, freqs), rotate_half = stack(−x[1::2], x[0::2]).flatten()):
//   (m, n) = (2, 5):   K(m)K(n)·mixed = 33.33512619357296, K(m)K(n)·rope = 34.58201814602765,
//                      K(m−n)·rope = 45.10138840202291
//   (m, n) = (12, 15): K(m)K(n)·mixed = 3.266062036022863, K(m)K(n)·rope = 3.474564249992481

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "app/export/figure_export.hpp"
#include "app/lessons/table.hpp"
#include "lesson_test_support.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/gaussian.hpp"

using namespace poslab;

namespace {

const test::Lesson lesson{"gaussian"};

}  // namespace

TEST_CASE("gaussian: the notes' defaults erase positions from x ≈ 52.16 and break shift invariance") {
  const auto rs = lesson.readouts(core::Params{});
  test::check_readouts(rs);
  const app::Readout* cut = test::find_readout(rs, "gaussian.readout.cutoff");
  REQUIRE(cut != nullptr);
  CHECK(cut->number == doctest::Approx(52.16280193135454).epsilon(1e-9));
  const app::Readout* scores = test::find_readout(rs, "gaussian.readout.scores");
  REQUIRE(scores != nullptr);
  CHECK(scores->number == doctest::Approx(34.58201814602765).epsilon(1e-12));  // K(2)K(5)·rope at d = 64
  // Absolute form: at s = 10 (m = 12, n = 15) the score has fallen from 34.58 to 3.47.
  const app::Readout* abs = test::find_readout(rs, "gaussian.readout.shift_absolute");
  REQUIRE(abs != nullptr);
  CHECK(abs->number > 34.58201814602765 - 3.474564249992481 - 1e-9);
  const app::Readout* rel = test::find_readout(rs, "gaussian.readout.shift_relative");
  REQUIRE(rel != nullptr);
  REQUIRE(rel->holds.has_value());
  CHECK(rel->number < 1e-10);
  const app::Readout* code = test::find_readout(rs, "gaussian.readout.code");
  REQUIRE(code != nullptr);
  CHECK(code->number > 0.5);  // the mixed layouts: no rotation, scores drift (49.33 → 48.10 at s = 10)
  CHECK(code->notes);  // both check the notes: shown in the Notes check panel
  CHECK(abs->notes);
  CHECK(!rel->notes);
}

TEST_CASE("gaussian readouts over random kernels, positions and dimensions") {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> alpha(-1, 2), lsig(-1, 3), pos(0, 300), lbase(0.5, 7);
  std::uniform_int_distribution<int> half(1, 64), win(1, 200);
  for (int trial = 0; trial < 80; ++trial) {
    core::Params p;
    p.set("alpha1", alpha(rng)), p.set("alpha2", alpha(rng));
    p.set("sigma1", std::pow(10.0, lsig(rng))), p.set("sigma2", std::pow(10.0, lsig(rng)));
    p.set("m", pos(rng)), p.set("n", pos(rng));
    p.set("d", 2.0 * half(rng)), p.set("window", static_cast<double>(win(rng)));
    p.set("base", std::pow(10.0, lbase(rng)));
    CHECK(lesson.check_readouts(p) >= 1);  // some invariant is claimed at every setting
  }
}

TEST_CASE("gaussian score maps: every sampled cell is core's score") {
  core::Params p;
  p.set_text("positions", "300");
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(64);
  const core::GaussianKernel k{};
  for (auto [id, mode] : {std::pair{"scores-absolute", core::KernelMode::absolute},
                          std::pair{"scores-relative", core::KernelMode::relative}}) {
    const auto f = lesson.figure(id, p);
    REQUIRE(f.heatmaps.size() == 1);
    const auto& h = f.heatmaps[0];
    CHECK(h.cols == 300);
    CHECK(h.vmin == -h.vmax);
    for (auto [m, n] : {std::pair{0, 0}, std::pair{2, 5}, std::pair{40, 7}, std::pair{299, 150}, std::pair{60, 61}}) {
      const std::vector<double> xs{n + 0.5}, ys{m + 0.5};
      std::vector<float> out(1);
      h.sampler(xs, ys, out);
      const double expected = core::gaussian_rope_score(ones, ones, m, n, 10000, core::PairLayout::interleaved, k, mode);
      CHECK(out[0] == doctest::Approx(expected).epsilon(1e-6).scale(1e-30));
    }
    // The colour range is the largest |score| of any cell (found in O(N) by
    // the builder; here by visiting all 300 × 300 through core).
    double brute = 0;
    for (int m = 0; m < 300; ++m)
      for (int n = 0; n < 300; ++n)
        brute = std::max(brute, std::abs(core::gaussian_rope_score(ones, ones, m, n, 10000, core::PairLayout::interleaved, k, mode)));
    CHECK(h.vmax == doctest::Approx(brute).epsilon(1e-9));
  }
  // The CSV export carries the same numbers: cell (m, n) = (0, 0) of the notes'
  // form is K(0)²·Σ 2cos(0) = 1·64, and (m, n) = (5, 2) is core's score.
  {
    const auto f = lesson.figure("scores-absolute", p);
    const std::string csv = app::figure_csv(f);
    auto cell = [&](int n, int m) {
      const std::string prefix = "\n" + test::english()("gaussian.scores.value") + "," + std::to_string(n) + "," +
                                 std::to_string(m) + ",";
      const auto at = csv.find(prefix);
      REQUIRE(at != std::string::npos);
      return std::stod(csv.substr(at + prefix.size(), csv.find('\n', at + 1) - at - prefix.size()));
    };
    CHECK(cell(0, 0) == doctest::Approx(64).epsilon(1e-6));
    CHECK(cell(2, 5) == doctest::Approx(core::gaussian_rope_score(ones, ones, 5, 2, 10000, core::PairLayout::interleaved, k,
                                                                  core::KernelMode::absolute)).epsilon(1e-6));
  }
  // Above 4096 positions the maps show the first 4096.
  p.set_text("positions", "100000");
  const auto big = lesson.figure("scores-relative", p);
  CHECK(big.heatmaps[0].cols == 4096);
}

TEST_CASE("gaussian-shift table: absolute form fades, relative stays, the notes' code as transcribed") {
  const app::TableDef* def = app::find_table("gaussian-shift");
  REQUIRE(def != nullptr);
  core::Params p;
  p.set_text("window", "10");
  const app::Table t = app::build_table(*def, p);  // m = 2, n = 5, d = 64
  REQUIRE(t.rows.size() == 11);
  CHECK(test::number(t.rows[0][6]) == doctest::Approx(34.58201814602765).epsilon(1e-12));
  CHECK(test::number(t.rows[10][6]) == doctest::Approx(3.474564249992481).epsilon(1e-12));
  CHECK(test::number(t.rows[0][8]) == doctest::Approx(33.33512619357296).epsilon(1e-12));
  CHECK(test::number(t.rows[10][8]) == doctest::Approx(3.266062036022863).epsilon(1e-12));
  for (const auto& row : t.rows) CHECK(test::number(row[7]) == doctest::Approx(45.10138840202291).epsilon(1e-12));
  p.set_text("window", "1000000"), p.set_text("d", "8192");
  CHECK_THROWS_AS(app::build_table(*def, p), core::InvalidParameter);
}

TEST_CASE("kernel_mode is retired: no view or table reads it, and a file that sets it still loads (audit)") {
  for (const app::ViewDef& v : app::view_defs())
    CHECK(std::find(v.keys.begin(), v.keys.end(), "kernel_mode") == v.keys.end());
  for (const app::TableDef& t : app::table_defs())
    CHECK(std::find(t.keys.begin(), t.keys.end(), "kernel_mode") == t.keys.end());
  core::Params p;
  p.set_text("kernel_mode", "relative");  // accepted, as old session files and commands set it
  CHECK(p.choice("kernel_mode") == "relative");
  CHECK_THROWS_AS(p.set_text("kernel_mode", "both"), core::InvalidParameter);
}
