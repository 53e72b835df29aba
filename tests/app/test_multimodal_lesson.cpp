// The "multimodal" lesson: positions in images and video.
//
// Reference values:
// - the M-RoPE position ids of tests/fixtures/mrope/cases.json, written by
//   tests/fixtures/mrope/get_rope_index.py: HF transformers' get_rope_index
//   (v4, Qwen2-VL and Qwen2.5-VL) transcribed step for step and run in torch on
//   the input_ids a Qwen2-VL processor builds (vision-start tokens, grids in
//   vision-tower patches, spatial_merge_size 1 or 2) — 15 chosen layouts and 40
//   seeded random ones of text, images and videos;
// - axial 2-D RoPE and M-RoPE scores written out here with std::cos over the
//   frequencies b^(−2i/d) (independent of core's kernels);
// - the 1-D lesson's own table `rope-rotate` (layout half) for the text tokens.

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "core/core_test_support.hpp"
#include "lesson_test_support.hpp"
#include "poslab/core/mrope.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/rope.hpp"

using namespace poslab;

namespace {

const test::Lesson lesson{"multimodal"};
constexpr double kPi = std::numbers::pi;

nlohmann::json fixture_cases() {
  std::ifstream in(std::string(POSLAB_SOURCE_DIR) + "/tests/fixtures/mrope/cases.json");
  REQUIRE(in.good());
  return nlohmann::json::parse(in)["cases"];
}

core::TokenKind kind_of(const std::string& word) {
  return word == "text" ? core::TokenKind::text : word == "image" ? core::TokenKind::image : core::TokenKind::video;
}

/// The fixture's layout as core's segments (videos take their seconds per patch in order).
std::vector<core::MropeSegment> segments_of(const nlohmann::json& c) {
  std::vector<core::MropeSegment> out;
  std::size_t video = 0;
  for (const auto& seg : c["layout"]) {
    const core::TokenKind kind = kind_of(seg[0].get<std::string>());
    if (kind == core::TokenKind::text) {
      out.push_back({kind, seg[1].get<long long>()});
      continue;
    }
    core::MropeSegment s{kind, 0, seg[1].get<long long>(), seg[2].get<long long>(), seg[3].get<long long>()};
    if (kind == core::TokenKind::video && !c["second_per_grid"].is_null()) s.second_per_grid = c["second_per_grid"][video++].get<double>();
    out.push_back(s);
  }
  return out;
}

core::MropeTiming timing_of(const nlohmann::json& c) {
  if (c["model"] == "qwen2.5-vl") return {core::VideoTime::absolute, c["tokens_per_second"].get<long long>()};
  return {core::VideoTime::index, 2};
}

/// A meta entry of `t`, whatever its number type.
double meta_number(const app::Table& t, std::string_view key) {
  for (const auto& [k, v] : t.meta)
    if (k == key) return test::number(v);
  FAIL("no meta " << key);
  return 0;
}

/// θᵢ = b^(−2i/d) by hand.
double theta(int i, int d, double base) { return std::pow(base, -2.0 * i / d); }

/// The axial 2-D score over |q||k| for q = k = ones, by hand: pairs i < d/4 see
/// Δrow, the others Δcol, each at θᵢ = b^(−2i/(d/2)).
double axial_by_hand(int d, int drow, int dcol) {
  double s = 0;
  for (int i = 0; i < d / 4; ++i) s += 2 * std::cos(drow * theta(i, d / 2, 10000)) + 2 * std::cos(dcol * theta(i, d / 2, 10000));
  return s / d;
}

}  // namespace

TEST_CASE("multimodal: M-RoPE ids are transformers' get_rope_index, on every fixture (core and table)") {
  const nlohmann::json cases = fixture_cases();
  REQUIRE(cases.size() >= 50);
  int tables = 0;
  for (const auto& c : cases) {
    CAPTURE(c["layout"].dump());
    CAPTURE(c["model"].get<std::string>());
    const std::vector<core::MropeSegment> segs = segments_of(c);
    const std::vector<core::MropePosition> ids = core::mrope_position_ids(segs, timing_of(c));
    REQUIRE(ids.size() == c["t"].size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
      CAPTURE(i);
      CHECK(core::token_kind_name(ids[i].kind) == c["kind"][i].get<std::string>());
      CHECK(ids[i].t == c["t"][i].get<long long>());
      CHECK(ids[i].h == c["h"][i].get<long long>());
      CHECK(ids[i].w == c["w"][i].get<long long>());
    }
    // Layouts of text, one grid, text are what the table lists.
    const auto& layout = c["layout"];
    if (layout.size() < 2 || layout.size() > 3 || layout[0][0] != "text" || layout[1][0] == "text") continue;
    if (layout.size() == 3 && layout[2][0] != "text") continue;
    if ((layout[1][0] == "image") != (layout[1][1] == 1)) continue;  // the table calls a one-frame grid an image
    core::Params p;
    p.set("text_before", layout[0][1].get<double>());
    p.set("grid_t", layout[1][1].get<double>()), p.set("grid_h", layout[1][2].get<double>()), p.set("grid_w", layout[1][3].get<double>());
    p.set("text_after", layout.size() == 3 ? layout[2][1].get<double>() : 0.0);
    if (c["model"] == "qwen2.5-vl") {
      p.set_text("video_time", "absolute");
      p.set("tokens_per_second", c["tokens_per_second"].get<double>());
      if (!c["second_per_grid"].is_null() && !c["second_per_grid"].empty()) p.set("second_per_grid", c["second_per_grid"][0].get<double>());
    }
    const app::Table t = test::table("mrope-positions", p);
    REQUIRE(t.rows.size() == ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
      CHECK(std::get<std::string>(t.rows[i][1]) == c["kind"][i].get<std::string>());
      CHECK(test::number(t.rows[i][2]) == c["t"][i].get<double>());
      CHECK(test::number(t.rows[i][3]) == c["h"][i].get<double>());
      CHECK(test::number(t.rows[i][4]) == c["w"][i].get<double>());
    }
    ++tables;
  }
  CHECK(tables >= 8);
}

TEST_CASE("multimodal: text only and a 1 × w image are the 1-D lesson's positions and rotations") {
  // A 1 × 6 image between 3 and 4 text tokens: w ids and every text id are 0, 1, 2, … as in 1-D.
  const app::Table t = test::table("mrope-positions", test::params({{"text_before", "3"}, {"grid_h", "1"}, {"grid_w", "6"},
                                                                     {"text_after", "4"}}));
  REQUIRE(t.rows.size() == 13);
  for (std::size_t i = 0; i < t.rows.size(); ++i) CHECK(test::number(t.rows[i][4]) == static_cast<double>(i));
  // A text token at id p is turned by M-RoPE exactly as the rope lesson's table
  // `rope-rotate` (half layout, base 1e6) turns it, for any sections.
  std::vector<double> x(128);
  for (int j = 0; j < 128; ++j) x[static_cast<std::size_t>(j)] = std::sin(0.37 * j + 0.1);
  core::Params p;
  p.set("vector", x), p.set_text("layout", "half"), p.set_text("base", "1e6"), p.set_text("pos", "0,9,12,1000");
  const app::Table rope = test::table("rope-rotate", p);
  const Eigen::Map<const Eigen::VectorXd> xv(x.data(), 128);
  for (bool interleaved : {false, true})
    for (const core::MropeSections& s : {core::MropeSections{16, 24, 24}, core::MropeSections{24, 20, 20}}) {
      std::map<double, Eigen::VectorXd> turned;
      for (double pos : {0.0, 9.0, 12.0, 1000.0}) turned[pos] = core::mrope_rotate<double>(xv, pos, pos, pos, 1e6, s, interleaved);
      for (const auto& row : rope.rows) {
        const double pos = test::number(row[0]);
        const auto j = static_cast<Eigen::Index>(test::number(row[1]));
        CHECK(turned[pos][j] == doctest::Approx(test::number(row[3])).epsilon(1e-12).scale(1));
      }
    }
}

TEST_CASE("multimodal: the grid figure and axial-scores carry the axial 2-D score, a function of (Δrow, Δcol) only") {
  // Small grid: every cell through core; large grid: row part + column part. Both against the hand formula.
  for (const auto& [h, w] : {std::pair{5, 7}, std::pair{300, 400}}) {
    const core::Params p = test::params({{"grid_h", std::to_string(h).c_str()}, {"grid_w", std::to_string(w).c_str()},
                                         {"row", "3"}, {"col", "4"}, {"d", "64"}});
    const auto f = lesson.figure("grid-score", p);
    REQUIRE(f.heatmaps.size() == 1);
    const auto& hm = f.heatmaps[0];
    REQUIRE(hm.rows == h);
    REQUIRE(hm.cols == w);
    for (int r : {0, 2, 3, h - 1})
      for (int c : {0, 1, 4, w - 1})
        CHECK(hm.values[static_cast<std::size_t>(r * w + c)] == doctest::Approx(axial_by_hand(64, 3 - r, 4 - c)).epsilon(1e-6));
  }
  test::check_matrix_orientation(lesson.figure("grid-score", core::Params{}));
  // axial-scores: the score repeats wherever (d_row, d_col) repeats, for any query.
  std::mt19937_64 rng(28);
  for (int trial = 0; trial < 20; ++trial) {
    const int h = std::uniform_int_distribution<int>(1, 12)(rng), w = std::uniform_int_distribution<int>(1, 12)(rng);
    const int row = std::uniform_int_distribution<int>(0, 20)(rng), col = std::uniform_int_distribution<int>(0, 20)(rng);
    const int d = 4 * std::uniform_int_distribution<int>(1, 32)(rng);
    core::Params p;
    p.set("grid_h", double(h)), p.set("grid_w", double(w)), p.set("row", double(row)), p.set("col", double(col)), p.set("d", double(d));
    const app::Table t = test::table("axial-scores", p);
    REQUIRE(t.rows.size() == static_cast<std::size_t>(h * w));
    std::map<std::pair<double, double>, double> by_offset;
    for (const auto& r : t.rows) {
      const double dr = test::number(r[2]), dc = test::number(r[3]), s = test::number(r[4]);
      CHECK(s == doctest::Approx(axial_by_hand(d, static_cast<int>(dr), static_cast<int>(dc))).epsilon(1e-12).scale(1));
      const auto [it, fresh] = by_offset.emplace(std::pair{dr, dc}, s);
      if (!fresh) CHECK(s == doctest::Approx(it->second).epsilon(1e-13).scale(1));
    }
    // The query itself scores 1 (clamped into the grid when past it).
    CHECK(meta_number(t, "query_row") == std::min(row, h - 1));
  }
  // Moving the query moves the picture: cell (r, c) with query (2, 2) is cell (r + 1, c + 3) with query (3, 5).
  const auto a = lesson.figure("grid-score", test::params({{"grid_h", "8"}, {"grid_w", "8"}, {"row", "2"}, {"col", "2"}}));
  const auto b = lesson.figure("grid-score", test::params({{"grid_h", "8"}, {"grid_w", "8"}, {"row", "3"}, {"col", "5"}}));
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 5; ++c)
      CHECK(a.heatmaps[0].values[static_cast<std::size_t>(r * 8 + c)] ==
            doctest::Approx(b.heatmaps[0].values[static_cast<std::size_t>((r + 1) * 8 + c + 3)]).epsilon(1e-6));
}

TEST_CASE("multimodal: sections — contiguous w gets the slowest pairs, interleaved spreads them; the reach curves by hand") {
  const auto f = lesson.figure("sections", core::Params{});
  // Series 1..3 are t, h, w (series 0 is the grey λ line of every pair).
  REQUIRE(f.series.size() == 4);
  const auto& w = f.series[3];
  REQUIRE(w.x.size() == 24);
  for (std::size_t k = 0; k < w.x.size(); ++k) {
    CHECK(w.x[k] == 40 + static_cast<double>(k));
    CHECK(w.y[k] == doctest::Approx(2 * kPi / theta(40 + static_cast<int>(k), 128, 1e6)).epsilon(1e-13));
  }
  const auto g = lesson.figure("sections", test::params({{"mrope_section", "24,20,20"}, {"mrope_interleaved", "true"}}));
  CHECK(g.series[3].x.front() == 2);
  CHECK(g.series[3].x.back() == 59);
  CHECK(g.series[1].x.size() == 24);
  const app::Table t = test::table("mrope-frequencies", test::params({{"mrope_section", "24,20,20"}, {"mrope_interleaved", "true"}}));
  REQUIRE(t.rows.size() == 64);
  CHECK(meta_number(t, "pairs_t") + meta_number(t, "pairs_h") + meta_number(t, "pairs_w") == 64);  // the sections sum to the pairs
  for (std::size_t i = 0; i < 64; ++i) {
    const std::string want = i >= 60 || i % 3 == 0 ? "t" : i % 3 == 1 ? "h" : "w";
    CHECK(std::get<std::string>(t.rows[i][3]) == want);
    CHECK(test::number(t.rows[i][1]) == doctest::Approx(theta(static_cast<int>(i), 128, 1e6)).epsilon(1e-13));
  }
  // Reach: the mean of cos(Δ·θᵢ) over each axis's pairs, by hand, at Δ = 64 (the last sample is Δ = 128).
  const auto r = lesson.figure("reach", core::Params{});
  REQUIRE(r.series.size() == 3);
  const int ranges[3][2] = {{0, 16}, {16, 40}, {40, 64}};
  for (int a = 0; a < 3; ++a) {
    const auto& s = r.series[static_cast<std::size_t>(a)];
    for (std::size_t k = 0; k < s.x.size(); k += s.x.size() / 7) {
      double mean = 0;
      for (int i = ranges[a][0]; i < ranges[a][1]; ++i) mean += std::cos(s.x[k] * theta(i, 128, 1e6));
      mean /= ranges[a][1] - ranges[a][0];
      CHECK(s.y[k] == doctest::Approx(mean).epsilon(1e-10).scale(1));
    }
  }
  // Contiguous: the w pairs barely move across 64 columns (the step's claim, 0.99999).
  double mean64 = 0;
  for (int i = 40; i < 64; ++i) mean64 += std::cos(64 * theta(i, 128, 1e6)) / 24;
  CHECK(mean64 > 0.99999);
  CHECK(mean64 < 0.999993);
}

TEST_CASE("multimodal: readouts hold at the defaults and over random settings") {
  CHECK(lesson.check_readouts(core::Params{}) >= 6);
  const app::ViewDef& v = lesson.view();
  std::mt19937_64 rng(2409);
  for (int trial = 0; trial < 120; ++trial) {
    core::Params p;
    std::uniform_int_distribution<int> small(0, 12), grid(1, 9), sec(0, 30);
    p.set("text_before", double(small(rng))), p.set("text_after", double(small(rng)));
    p.set("grid_t", double(grid(rng))), p.set("grid_h", double(grid(rng))), p.set("grid_w", double(grid(rng)));
    p.set("row", double(small(rng))), p.set("col", double(small(rng)));
    p.set("d", double(4 * std::uniform_int_distribution<int>(1, 64)(rng)));
    p.set_text("video_time", trial % 2 ? "absolute" : "index");
    p.set("tokens_per_second", double(std::uniform_int_distribution<int>(1, 25)(rng)));
    p.set("second_per_grid", std::uniform_int_distribution<int>(0, 8)(rng) / 2.0);
    std::vector<double> s = {static_cast<double>(sec(rng)), static_cast<double>(sec(rng)), static_cast<double>(sec(rng))};
    if (s[0] + s[1] + s[2] == 0) s[0] = 1;
    p.set("mrope_section", s);
    p.set("mrope_interleaved", trial % 3 == 0);
    p.set("base", std::pow(10.0, std::uniform_real_distribution<double>(2, 7)(rng)));
    CAPTURE(trial);
    test::check_readouts(app::view_readouts(v, p, test::english()));
  }
}

TEST_CASE("multimodal: bad settings are refused naming the key") {
  const app::ViewDef& v = lesson.view();
  test::rejects([&] { (void)app::resolve_view_params(v, test::params({{"d", "66"}})); }, "d");
  test::rejects([&] { (void)app::resolve_view_params(v, test::params({{"mrope_section", "0,0,0"}})); }, "mrope_section");
  test::rejects([] { (void)test::params({{"mrope_section", "16,24"}}); }, "mrope_section");
  test::rejects([] { (void)test::params({{"grid_t", "0"}}); }, "grid_t");
  test::rejects([] { (void)test::table("mrope-positions", test::params({{"grid_t", "1024"}, {"grid_h", "1024"}, {"grid_w", "1024"}})); },
                "grid_t");
  test::rejects([] { (void)test::table("axial-scores", test::params({{"grid_h", "1024"}, {"grid_w", "1024"}})); }, "grid_h");
}
