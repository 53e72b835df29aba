// The "learned" lesson: its readouts hold (defaults and random settings), its
// figures show core's learned table (and stop at L), the comparison table has
// honest, computed cells.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "lesson_test_support.hpp"
#include "poslab/core/learned.hpp"
#include "poslab/core/sinusoidal.hpp"

using namespace poslab;
using test::params;
namespace fig = poslab::app::fig;

namespace {

const test::Lesson lesson{"learned"};
constexpr int kClaims = 3;  // last row exists, no row past L, init stddev

}  // namespace

TEST_CASE("learned lesson: readouts at the defaults") {
  const auto r = lesson.readouts(core::Params{});
  CHECK(lesson.check_readouts(core::Params{}) == kClaims);
  CHECK(r[0].number == 512.0 * 128.0);    // parameters L·d
  CHECK(r[1].number == 1.0);              // row 511 exists
  CHECK(r[2].number == 0.0);              // row 512 does not
  CHECK(r[3].number == 768.0 - 512.0);    // positions shown without a row
  CHECK(r[4].number == doctest::Approx(0.02).epsilon(0.01));
  // Neighbouring rows: unrelated for the random table, strongly alike for sinusoidal.
  CHECK(r[5].number < 0.2);
  CHECK(r[6].number > 0.5);
}

TEST_CASE("learned lesson: readouts hold over random settings") {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 120; ++trial) {
    core::Params p;
    p.set("d", 2.0 * std::floor(1 + u(rng) * 511));
    p.set("max_length", std::floor(1 + std::pow(u(rng), 3) * 8191));
    p.set("positions", std::floor(1 + u(rng) * 10000));
    p.set("seed", std::floor(u(rng) * 1e6));
    p.set("m", std::floor(u(rng) * 64));
    CAPTURE(p.integer("d"));
    CAPTURE(p.integer("max_length"));
    CAPTURE(p.integer("seed"));
    CHECK(lesson.check_readouts(p) == kClaims);
  }
  CHECK(lesson.check_readouts(params({{"max_length", "1"}, {"d", "2"}})) == kClaims);
  CHECK(lesson.check_readouts(params({{"max_length", "1048576"}, {"d", "8192"}, {"positions", "1048576"}})) == kClaims);
}

TEST_CASE("learned lesson: readouts at d = 1024 read 64 rows and say so") {
  const auto r = lesson.readouts(params({{"d", "1024"}, {"positions", "1048576"}}));
  CHECK(lesson.check_readouts(params({{"d", "1024"}, {"positions", "1048576"}})) == kClaims);
  REQUIRE(r.size() == 7);
  CHECK(r[4].label.find("rows 0 to 63") != std::string::npos);  // 2^16 entries
  CHECK(r[5].label.find("rows 0 to 64") != std::string::npos);  // 64 neighbouring pairs
  // The standard deviation of exactly those 65,536 entries.
  double sum2 = 0;
  for (long long pos = 0; pos < 64; ++pos) sum2 += core::learned_row(pos, 512, 1024, 0)->squaredNorm();
  CHECK(r[4].number == doctest::Approx(std::sqrt(sum2 / 65536)).epsilon(1e-14));
  // At the defaults every row is read: no sample named.
  for (const app::Readout& x : lesson.readouts(core::Params{}))
    CHECK(x.label.find("rows 0 to") == std::string::npos);
}

TEST_CASE("learned lesson: figures") {
  const core::Params p = params({{"max_length", "512"}, {"d", "64"}, {"positions", "768"}, {"seed", "3"}, {"m", "5"}});
  SUBCASE("the table shows core's entries and ends at L") {
    const fig::Figure f = lesson.figure("table", p);
    const fig::Heatmap& h = f.heatmaps.at(0);
    CHECK(h.y1 == 512.0);
    for (long long pos : {0LL, 100LL, 511LL})
      for (int dim : {0, 31, 63}) {
        const auto v = h.value_at(dim + 0.5, static_cast<double>(pos) + 0.5);
        REQUIRE(v.has_value());
        CHECK(*v == doctest::Approx(*core::learned_value(pos, dim, 512, 64, 3)).epsilon(1e-6));
      }
    REQUIRE(f.bands.size() == 1);
    CHECK(f.bands[0].from == 512.0);
    CHECK(f.bands[0].to == 768.0);
    CHECK(*f.y.max == 768.0);
  }
  SUBCASE("the sinusoidal table goes on past L") {
    const fig::Figure f = lesson.figure("sinusoidal", p);
    const auto v = f.heatmaps.at(0).value_at(2.5, 700.5);
    REQUIRE(v.has_value());
    CHECK(*v == doctest::Approx(core::sinusoidal_value(700, 2, 64, 1e4)).epsilon(1e-6));
  }
  SUBCASE("similarity: 1 at the anchor, learned stops at L − 1, sinusoidal goes on") {
    const fig::Figure f = lesson.figure("similarity", p);
    const fig::Series& learned = f.series.at(0);
    const fig::Series& sinus = f.series.at(1);
    CHECK(learned.x.back() == 511.0);
    CHECK(sinus.x.back() == 767.0);
    CHECK(learned.y[5] == doctest::Approx(1.0));
    CHECK(sinus.y[5] == doctest::Approx(1.0));
    const Eigen::VectorXd a = *core::learned_row(5, 512, 64, 3), b = *core::learned_row(200, 512, 64, 3);
    CHECK(learned.y[200] == doctest::Approx(a.dot(b) / (a.norm() * b.norm())).epsilon(1e-12));
  }
  SUBCASE("similarity at d = 1024: a bounded sample of learned rows, said in the subtitle") {
    const fig::Figure f = lesson.figure("similarity", params({{"d", "1024"}, {"positions", "1048576"}, {"m", "37"}, {"seed", "9"}}));
    const fig::Series& learned = f.series.at(0);
    const fig::Series& sinus = f.series.at(1);
    // 2^16 entries of the table: 64 rows of 1024 (every 8th of 512), the anchor and the last row.
    CHECK(learned.x.size() <= 64 + 2);
    CHECK(learned.x.size() >= 64);
    CHECK(learned.x.back() == 511.0);
    CHECK(f.subtitle.find("one row in every 8") != std::string::npos);
    const Eigen::VectorXd a = *core::learned_row(37, 512, 1024, 9);
    bool anchor_seen = false;
    for (std::size_t i = 0; i < learned.x.size(); ++i) {
      const auto pos = static_cast<long long>(learned.x[i]);
      const Eigen::VectorXd b = *core::learned_row(pos, 512, 1024, 9);
      CHECK(learned.y[i] == doctest::Approx(a.dot(b) / (a.norm() * b.norm())).epsilon(1e-12));
      anchor_seen = anchor_seen || pos == 37;
    }
    CHECK(anchor_seen);
    // Sinusoidal: 2048 positions shown, about 2 per pixel column (every 2nd), the
    // anchor and the last position; cos∠ of core's rows.
    CHECK(sinus.x.size() == 1024 + 2);
    CHECK(sinus.x[1] == 2.0);
    CHECK(sinus.x.back() == 2047.0);
    const Eigen::VectorXd pa = core::sinusoidal_row<double>(37, 1024, 1e4);
    for (std::size_t i = 0; i < sinus.x.size(); i += 31) {
      const Eigen::VectorXd pb = core::sinusoidal_row<double>(sinus.x[i], 1024, 1e4);
      CHECK(sinus.y[i] == doctest::Approx(pa.dot(pb) / (pa.norm() * pb.norm())).epsilon(1e-12));
    }
    const auto at_anchor = std::find(sinus.x.begin(), sinus.x.end(), 37.0);
    REQUIRE(at_anchor != sinus.x.end());
    CHECK(sinus.y[static_cast<std::size_t>(at_anchor - sinus.x.begin())] == doctest::Approx(1.0).epsilon(1e-15));
  }
  SUBCASE("similarity names its anchor m and the other rows n, as the slider and attention do") {
    const fig::Figure f = lesson.figure("similarity", p);
    CHECK(f.subtitle.find("m = 5 ") != std::string::npos);
    CHECK(f.x.label == "position n");
    for (const std::string& text : {f.title, f.subtitle, f.series.at(1).name}) CHECK(text.find("p₀") == std::string::npos);
    CHECK(f.subtitle.find("whole positions") == std::string::npos);
    // a fractional m: the row used is said, and it is the row the curves start from
    const fig::Figure g = lesson.figure("similarity", params({{"positions", "768"}, {"seed", "3"}, {"d", "64"}, {"m", "40.5"}}));
    CHECK(g.subtitle.find("m = 40.5 ") != std::string::npos);
    CHECK(g.subtitle.find("row 40 stands for m") != std::string::npos);
    const fig::Series& learned = g.series.at(0);
    const auto at = std::find(learned.x.begin(), learned.x.end(), 40.0);
    REQUIRE(at != learned.x.end());
    CHECK(learned.y[static_cast<std::size_t>(at - learned.x.begin())] == doctest::Approx(1.0));
  }
  SUBCASE("similarity marks the neighbour m + 1 on both curves, its values in the legend") {
    const fig::Figure f = lesson.figure("similarity", p);
    REQUIRE(f.series.size() == 3);
    const fig::Series& marks = f.series[2];
    REQUIRE(marks.x == std::vector<double>{6, 6});
    const Eigen::VectorXd a = *core::learned_row(5, 512, 64, 3), b = *core::learned_row(6, 512, 64, 3);
    const double learned = a.dot(b) / (a.norm() * b.norm());
    double sinusoidal = 0;  // cos∠(PE(5), PE(6)) = Σᵢ cos(θᵢ) / (d/2), θᵢ = 10⁴^(−2i/64)
    for (int i = 0; i < 32; ++i) sinusoidal += std::cos(std::pow(1e4, -2.0 * i / 64));
    sinusoidal /= 32;
    CHECK(marks.y[0] == doctest::Approx(learned).epsilon(1e-12));
    CHECK(marks.y[1] == doctest::Approx(sinusoidal).epsilon(1e-12));
    char text[64];
    std::snprintf(text, sizeof text, "sinusoidal %.2f", sinusoidal);
    CHECK(marks.name.find(text) != std::string::npos);
    CHECK(marks.name.find("row 6,") != std::string::npos);
  }
  SUBCASE("L sits on the axis as a labelled tick, never as a label over the table") {
    for (const char* id : {"table", "sinusoidal"}) {
      CAPTURE(id);
      const fig::Figure f = lesson.figure(id, p);
      const auto at = std::find_if(f.y.ticks.begin(), f.y.ticks.end(), [](const auto& t) { return t.first == 512.0; });
      REQUIRE(at != f.y.ticks.end());
      CHECK(at->second == "L = 512");
      CHECK(std::is_sorted(f.y.ticks.begin(), f.y.ticks.end()));
      for (const auto& t : f.y.ticks)  // round ticks keep clear of it
        if (t.first != 512.0) CHECK(std::abs(t.first - 512.0) > 0.07 * 768);
      for (const fig::RefLine& l : f.ref_lines) CHECK(l.label.empty());
    }
    // N = L: the table ends at the bottom edge, L is the last tick, no line
    const fig::Figure f = lesson.figure("table", params({{"positions", "512"}}));
    REQUIRE(!f.y.ticks.empty());
    CHECK(f.y.ticks.back() == std::pair<double, std::string>{512.0, "L = 512"});
    CHECK(f.ref_lines.empty());
  }
  SUBCASE("an anchor past the table has nothing to compare") {
    const fig::Figure f = lesson.figure("similarity", params({{"max_length", "4"}, {"m", "10"}}));
    CHECK(f.series.at(0).x.empty());
    CHECK(!f.notes.empty());
  }
}

TEST_CASE("learned lesson tables") {
  SUBCASE("learned-rows: positions past L have no row") {
    const app::Table t = test::table("learned-rows", params({{"d", "4"}}));
    // pos 0, 1, 510, 511 have rows (4 entries each); 512 and 513 do not.
    CHECK(t.rows.size() == 16);
    bool counted = false;
    for (const auto& [k, v] : t.meta)
      if (k == "positions_without_row") counted = std::get<long long>(v) == 2;
    CHECK(counted);
    CHECK(std::get<double>(t.rows[0][2]) == *core::learned_value(0, 0, 512, 4, 0));
  }
  SUBCASE("encoding-comparison: counts computed at the settings, BERT-base for learned") {
    const app::Table t = test::table("encoding-comparison", params({{"d", "768"}, {"max_length", "512"}, {"clip", "16"},
                                                                    {"buckets", "32"}, {"heads", "12"}}));
    REQUIRE(t.rows.size() == 6);
    CHECK(std::get<std::string>(test::cell(t, 0, "method")) == "sinusoidal");
    CHECK(std::get<double>(test::cell(t, 0, "parameters_at_settings")) == 0);
    CHECK(std::get<double>(test::cell(t, 1, "parameters_at_settings")) == 393216);  // 512 × 768
    CHECK(std::get<bool>(test::cell(t, 1, "row_past_max_length")) == false);
    CHECK(std::get<double>(test::cell(t, 2, "parameters_at_settings")) == 2 * 33 * 768);  // w^K, w^V: 2k + 1 each
    CHECK(std::get<double>(test::cell(t, 3, "parameters_at_settings")) == 32 * 12);       // T5-base bias table
    CHECK(std::get<double>(test::cell(t, 4, "parameters_at_settings")) == 0);
    CHECK(std::get<double>(test::cell(t, 5, "parameters_at_settings")) == 0);
    // The notes' cells sit next to ours: absolute encodings "O(d)" against 0 and L·d.
    CHECK(std::get<std::string>(test::cell(t, 0, "notes_parameters")) == "O(d)");
    CHECK(std::get<std::string>(test::cell(t, 0, "parameters")) == "0");
    // Every category id is explained in the lesson's translations.
    for (const char* column : {"injected_into", "parameters_scope", "relative_position", "extra_cost_scope",
                               "extrapolation", "notes_row", "notes_extrapolation", "notes_relative"})
      for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const std::string id = std::get<std::string>(test::cell(t, r, column));
        if (id.empty()) continue;
        CAPTURE(id);
        CHECK(test::english().has("learned.cell." + id));
      }
  }
}

TEST_CASE("learned lesson: the tables read from the top; comparison cells in the notation") {
  for (const char* id : {"table", "sinusoidal"}) {
    CAPTURE(id);
    test::check_matrix_orientation(lesson.figure(id, {}));
  }
  const app::Table t = test::table("encoding-comparison");
  const std::size_t col = test::column(t, "parameters");
  std::vector<std::string> cells;
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (const auto* s = std::get_if<std::string>(&t.rows[r][col])) cells.push_back(*s);
  CHECK(std::find(cells.begin(), cells.end(), "2·(2c+1)·d") != cells.end());
  CHECK(std::find(cells.begin(), cells.end(), "B·H") != cells.end());
}
