// The "rope" lesson: worked examples, the notes' audit, layouts, the mixed-
// layout bug, and readouts that hold at the defaults and over random settings.
//
// Reference values were computed at development time in plain Python (math
// module only) from a transcription of RoFormer eq. 13 with interleaved pairs,
//   y[2i] = x[2i] cos(mθ_i) − x[2i+1] sin(mθ_i), y[2i+1] = x[2i] sin(mθ_i) + x[2i+1] cos(mθ_i),
//   θ_i = 1/10000**(2i/d),
// and of the notes' seed-000 code (emb = cat(freqs, freqs); rotate_half =
// stack(−x[1::2], x[0::2]).flatten(); y = x·cos(emb·m) + rotate_half(x)·sin(emb·m)).

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <optional>
#include <random>

#include "lesson_test_support.hpp"
#include "poslab/core/rope.hpp"

using namespace poslab;
namespace fig = poslab::app::fig;

namespace {

const test::Lesson lesson{"rope"};

}  // namespace

TEST_CASE("rope-steps: the notes' q = [1,2,3,4] at m = 2, d = 4 (seed 003)") {
  const app::Table t = test::table("rope-steps");  // defaults: vector 1,2,3,4, m = 2, base 1e4, interleaved
  REQUIRE(t.rows.size() == 2);
  // Python reference: [-2.234741690198506, 0.0770037537313969, 2.919405353226401, 4.05919602674631]
  CHECK(test::number(t.rows[0][9]) == doctest::Approx(-2.234741690198506).epsilon(1e-15));
  CHECK(test::number(t.rows[0][10]) == doctest::Approx(0.0770037537313969).epsilon(1e-14));
  CHECK(test::number(t.rows[1][9]) == doctest::Approx(2.919405353226401).epsilon(1e-15));
  CHECK(test::number(t.rows[1][10]) == doctest::Approx(4.05919602674631).epsilon(1e-15));
  CHECK(test::number(t.rows[1][3]) == doctest::Approx(0.01).epsilon(1e-15));  // θ_1 = 10000^(−2/4)
  CHECK(test::number(t.rows[1][4]) == doctest::Approx(0.02).epsilon(1e-15));  // angle m·θ_1
}

TEST_CASE("rope-five-vectors and the audit of the notes' printed numbers (seed 001)") {
  const app::Table t = test::table("rope-five-vectors");
  REQUIRE(t.rows.size() == 5);
  // Python reference for row 3 (pos 3, vector [1,−1,1,−1]) and row 1 (pos 1, [0,1,0,1]).
  CHECK(test::number(t.rows[3][9]) == doctest::Approx(1.0295455339514832).epsilon(1e-15));
  CHECK(test::number(t.rows[3][10]) == doctest::Approx(-0.9695545335464919).epsilon(1e-15));
  CHECK(test::number(t.rows[1][10]) == doctest::Approx(0.9999500004166653).epsilon(1e-15));
  CHECK(test::number(t.rows[4][7]) == doctest::Approx(0.05157943722215813).epsilon(1e-14));

  const app::Table audit = test::table("rope-notes-check");
  REQUIRE(audit.rows.size() == 24);
  std::vector<double> wrong;
  for (const auto& row : audit.rows)
    if (!std::get<bool>(row[6])) wrong.push_back(test::number(row[3]));
  // −2.234 (seed 003 rounds cos/sin first), 0.9999 (is 0.99995 → 1.0000), 1.0296 (is 1.029546 → 1.0295).
  REQUIRE(wrong.size() == 3);
  CHECK(wrong[0] == -2.234);
  CHECK(wrong[1] == 0.9999);
  CHECK(wrong[2] == 1.0296);
  const auto rs = lesson.readouts(core::Params{});  // kept alive: `notes` points into it
  const app::Readout* notes = test::find_readout(rs, "rope.readout.notes");
  REQUIRE(notes != nullptr);
  CHECK(notes->number == 3);
  CHECK(notes->notes);  // shown in the Notes check panel
  CHECK(!test::find_readout(rs, "rope.readout.norm")->notes);
  // Row ids name the notes, not the seed files they came from.
  CHECK(std::get<std::string>(audit.rows[0][0]) == "notes_about_pe_q_1234_m2");
  CHECK(std::get<std::string>(audit.rows[4][0]) == "notes_rope_row0");
}

TEST_CASE("rope-layouts: a permutation whose pairs match the two layouts") {
  for (int d : {2, 4, 16, 128}) {
    core::Params p;
    p.set("d", static_cast<double>(d));
    const app::Table t = test::table("rope-layouts", p);
    REQUIRE(t.rows.size() == static_cast<std::size_t>(d));
    std::vector<int> seen(static_cast<std::size_t>(d), 0);
    for (const auto& row : t.rows) {
      const auto j = static_cast<int>(test::number(row[0])), h = static_cast<int>(test::number(row[1]));
      ++seen[static_cast<std::size_t>(h)];
      // interleaved slot j belongs to pair j/2; half slot h to pair h mod d/2.
      CHECK(j / 2 == h % (d / 2));
      CHECK(core::rope_pair_indices(j / 2, d, core::PairLayout::half) ==
            std::pair{j / 2, j / 2 + d / 2});
    }
    for (int c : seen) CHECK(c == 1);
  }
}

TEST_CASE("rope-mixed-layouts: the notes' mixed code against proper RoPE") {
  const app::Table t = test::table("rope-mixed-layouts");  // x = [1,2,3,4], m = 2, n = 5, s = 0..16
  REQUIRE(t.rows.size() == 17);
  // Python transcription of the notes' code: −6.8570057325595855 at s = 0, 5.167418927099051 at s = 1.
  CHECK(test::number(t.rows[0][4]) == doctest::Approx(-6.8570057325595855).epsilon(1e-14));
  CHECK(test::number(t.rows[1][4]) == doctest::Approx(5.167418927099051).epsilon(1e-14));
  for (const auto& row : t.rows) CHECK(test::number(row[3]) == doctest::Approx(test::number(t.rows[0][3])).epsilon(1e-12));
}

TEST_CASE("rope readouts hold at the defaults and over random vectors, positions, layouts, bases") {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-5, 5), pos(0, 5000), lb(0.5, 7);
  std::uniform_int_distribution<int> half(1, 40);
  for (int trial = 0; trial < 150; ++trial) {
    core::Params p;
    std::vector<double> v(static_cast<std::size_t>(2 * half(rng)));
    for (double& x : v) x = u(rng);
    p.set("vector", v);
    p.set("m", pos(rng)), p.set("n", pos(rng));
    p.set("base", std::pow(10.0, lb(rng)));
    p.set_text("layout", trial % 2 ? "half" : "interleaved");
    const auto rs = lesson.readouts(p);
    CHECK(test::check_readouts(rs) >= 3);
    // The mixed layouts break the relative property for any d >= 4 generic vector.
    const app::Readout* mixed = test::find_readout(rs, "rope.readout.mixed");
    REQUIRE(mixed != nullptr);
    if (v.size() >= 4) CHECK(mixed->number > 1e-6 * (1 + std::abs(mixed->number)));
  }
}

TEST_CASE("rope readouts at the largest vectors the contract accepts: computed, not refused") {
  // A rotated ±1e12 vector has entries up to √2·1e12, past the bound on
  // typed vectors: the layout-permutation readout refused it (found by the
  // extreme seeds of the figures fuzzer, tests/fuzz/corpus/figures/extreme_rope_*).
  for (const char* layout : {"interleaved", "half"}) {
    CAPTURE(layout);
    core::Params p;
    std::vector<double> v;
    for (int i = 0; i < 64; ++i) v.push_back(i % 2 ? -1e12 : 1e12);
    p.set("vector", v);
    p.set_text("m", "1e12");
    p.set_text("n", "999999999999");
    p.set_text("layout", layout);
    std::vector<app::Readout> rs;
    REQUIRE_NOTHROW(rs = lesson.readouts(p));
    for (const app::Readout& r : rs) CHECK(std::isfinite(r.number));
    const app::Readout* perm = test::find_readout(rs, "rope.readout.permutation");
    REQUIRE(perm != nullptr);
    CHECK(perm->holds == std::optional<bool>(true));
  }
}

TEST_CASE("rope: with d = 2 the two layouts coincide and mixing them is harmless") {
  core::Params p;
  p.set_text("vector", "1.5,-0.5");
  const auto rs = lesson.readouts(p);
  const app::Readout* mixed = test::find_readout(rs, "rope.readout.mixed");
  REQUIRE(mixed != nullptr);
  CHECK(mixed->number < 1e-12);
}

TEST_CASE("rope figures carry core's numbers") {
  core::Params p;
  p.set_text("d", "4");
  const auto f = lesson.figure("rotation-matrix", p);
  REQUIRE(f.heatmaps.size() == 1);
  const auto& h = f.heatmaps[0];
  REQUIRE(h.cols == 4);
  // Row r at y = r on a reversed axis (row 0 at the top). R[0][1] = −sin(2·θ_0) = −sin 2; R[3][2] = sin(0.02).
  CHECK(f.y.reversed);
  auto at = [&](int r, int c) { return h.values[static_cast<std::size_t>(r) * 4 + static_cast<std::size_t>(c)]; };
  CHECK(at(0, 1) == doctest::Approx(-std::sin(2.0)).epsilon(1e-6));
  CHECK(at(3, 2) == doctest::Approx(std::sin(0.02)).epsilon(1e-6));
  CHECK(at(0, 2) == 0.0f);

  // d > 16: the block of pair 0 in the half layout sits at indices (0, d/2).
  p.set_text("d", "128"), p.set_text("layout", "half"), p.set_text("m", "3");
  const auto g = lesson.figure("rotation-matrix", p);
  const auto& hg = g.heatmaps[0];
  REQUIRE(hg.cols == 16);
  // Shown indices 0..7 and 64..71: index 64 is column 8; R[0][64] = −sin(3).
  CHECK(hg.values[static_cast<std::size_t>(0) * 16 + 8] == doctest::Approx(-std::sin(3.0)).epsilon(1e-6));

  // Dials: hand i at angle m·θ_i mod 2π (the tips' hover column).
  core::Params q;
  q.set_text("m", "100"), q.set_text("d", "8");
  const auto dials = lesson.figure("dials", q);
  bool found = false;
  for (const auto& s : dials.series)
    if (s.kind == fig::SeriesKind::scatter && s.extra.size() >= 3) {
      found = true;
      REQUIRE(s.x.size() == 4);
      for (int i = 0; i < 4; ++i)
        CHECK(s.extra[2].values[static_cast<std::size_t>(i)] ==
              doctest::Approx(std::fmod(100.0 / std::pow(10000.0, 2.0 * i / 8), 2 * std::numbers::pi)).epsilon(1e-12));
    }
  CHECK(found);
}

TEST_CASE("rope: partial rotary — which dims of the head turn, and the score still depends on m − n only") {
  // GPT-NeoX/Pythia: head 64, rotary_pct 0.25 → d = 16; half layout (rotate_half over the first 16 dims)
  const core::Params p = test::params({{"d", "16"}, {"head_dim", "64"}, {"layout", "half"}, {"m", "37"}, {"n", "5"}});
  const auto f = lesson.figure("partial-rotary", p);
  REQUIRE(f.series.size() == 1);
  const auto& s = f.series[0];
  REQUIRE(s.x.size() == 16);  // one point per rotating dim, none for the 48 that pass through
  // half layout: dim j belongs to pair j mod 8; λ = 2π·base^(2i/16), computed here independently
  for (int j = 0; j < 16; ++j) {
    CAPTURE(j);
    CHECK(s.x[static_cast<std::size_t>(j)] == j);
    CHECK(s.y[static_cast<std::size_t>(j)] == doctest::Approx(2 * std::numbers::pi * std::pow(1e4, 2.0 * (j % 8) / 16)).epsilon(1e-12));
  }
  REQUIRE(f.bands.size() == 1);
  CHECK(f.bands[0].from == 15.5);
  CHECK(f.bands[0].to == 63.5);
  CHECK(f.subtitle.find("16 of 64 dims rotate (25%)") != std::string::npos);
  // interleaved: dim j belongs to pair j/2
  const auto g = lesson.figure("partial-rotary", test::params({{"d", "16"}, {"head_dim", "64"}}));
  CHECK(g.series[0].y[3] == doctest::Approx(2 * std::numbers::pi * std::pow(1e4, 2.0 / 16)).epsilon(1e-12));
  // the readout claims the relative property for the whole head and holds
  const auto rs = lesson.readouts(p);
  const app::Readout* partial = test::find_readout(rs, "rope.readout.partial");
  REQUIRE(partial != nullptr);
  REQUIRE(partial->holds);
  CHECK(*partial->holds);
  test::check_readouts(rs);
  // without head_dim every dim turns: no band, no partial readout
  const auto all = lesson.figure("partial-rotary", test::params({{"d", "16"}}));
  CHECK(all.bands.empty());
  CHECK(all.series[0].x.size() == 16);
  CHECK(test::find_readout(lesson.readouts(test::params({{"d", "16"}})), "rope.readout.partial") == nullptr);
  // head_dim below d is refused by the lesson's rules
  CHECK_THROWS_AS(app::resolve_view_params(lesson.view(), test::params({{"d", "16"}, {"head_dim", "8"}})),
                  core::InvalidParameter);
}

TEST_CASE("rope: partial rotary readouts hold over random heads") {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int> pairs(1, 32), extra(0, 64);
  std::uniform_real_distribution<double> pos(0, 3000), lb(0.5, 6);
  for (int trial = 0; trial < 40; ++trial) {
    const int d = 2 * pairs(rng);
    core::Params p;
    p.set("d", static_cast<double>(d));
    p.set("head_dim", static_cast<double>(d + extra(rng)));
    p.set("m", pos(rng)), p.set("n", pos(rng));
    p.set("base", std::pow(10.0, lb(rng)));
    p.set_text("layout", trial % 2 ? "half" : "interleaved");
    CAPTURE(trial);
    test::check_readouts(lesson.readouts(p));
    CHECK(app::fig::all_finite(lesson.figure("partial-rotary", p)));
  }
}
