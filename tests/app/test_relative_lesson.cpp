// The "relative" lesson: Shaw's index figure equals core's matrix, the four
// term figures equal core's decomposition, and every readout that checks an
// invariant holds for every variant over random settings.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "lesson_test_support.hpp"
#include "poslab/core/relative.hpp"

using namespace poslab;
using test::params;
namespace fig = poslab::app::fig;

namespace {

const test::Lesson lesson{"relative"};

core::TermVariant variant(std::string_view v) {
  if (v == "transformer-xl") return core::TermVariant::transformer_xl;
  if (v == "t5") return core::TermVariant::t5;
  if (v == "deberta") return core::TermVariant::deberta;
  return core::TermVariant::all;
}

}  // namespace

TEST_CASE("relative lesson: Shaw's index figure is core's matrix") {
  for (const char* k : {"0", "1", "3", "40"}) {
    const fig::Figure f = lesson.figure("index", params({{"positions", "20"}, {"clip", k}}));
    const Eigen::MatrixXi ref = core::shaw_index_matrix(20, std::stoi(k));
    const fig::Heatmap& h = f.heatmaps.at(0);
    for (int i = 0; i < 20; ++i)
      for (int j = 0; j < 20; ++j) {
        const auto v = h.value_at(j + 0.5, i + 0.5);
        REQUIRE(v.has_value());
        CAPTURE(i);
        CAPTURE(j);
        CHECK(*v == static_cast<float>(-ref(i, j)));  // the cell shows r = m − n clipped; core numbers by n − m
      }
  }
  // A million tokens: sampled, never built; the far corner is clipped to k.
  const fig::Figure big = lesson.figure("index", params({{"positions", "1048576"}, {"clip", "4"}}));
  CHECK(*big.heatmaps[0].value_at(1048575.5, 0.5) == -4.0f);  // key far after the query: r = −1048575, clipped
  CHECK(*big.heatmaps[0].value_at(0.5, 1048575.5) == 4.0f);
}

TEST_CASE("relative lesson: the index figure names c and draws its edges only where keys share a vector") {
  // c >= N − 1: every distance of the sequence has a vector of its own.
  for (const char* k : {"15", "16", "32"}) {
    const fig::Figure f = lesson.figure("index", params({{"positions", "16"}, {"clip", k}}));
    CAPTURE(f.subtitle);
    CHECK(f.subtitle.find("c = ") == std::string::npos);
    CHECK(f.subtitle.find("31 distinct vectors") != std::string::npos);
    CHECK(f.series.empty());
    CHECK(f.heatmaps.at(0).value_name == "r = m − n");
  }
  // c < N − 1: the subtitle gives c and the count 2c + 1, the two edges are drawn.
  const fig::Figure f = lesson.figure("index", params({{"positions", "16"}, {"clip", "4"}}));
  CHECK(f.subtitle.find("c = 4 ") != std::string::npos);
  CHECK(f.subtitle.find("9 distinct vectors") != std::string::npos);
  CHECK(f.series.size() == 2);
  // Every cell is r = m − n clipped to [−c, c]: query 10, key 2 is r = 8 → 4; query 2, key 3 is −1.
  CHECK(*f.heatmaps[0].value_at(2.5, 10.5) == 4.0f);
  CHECK(*f.heatmaps[0].value_at(3.5, 2.5) == -1.0f);
}

TEST_CASE("relative lesson: term figures equal core's decomposition, every variant") {
  for (const char* v : {"all", "transformer-xl", "t5", "deberta"}) {
    CAPTURE(v);
    const core::Params p = params({{"positions", "12"}, {"d", "16"}, {"seed", "5"}, {"terms", v}});
    const core::ToyAttention toy = core::toy_attention(12, 16, 16, 1e4, 5);
    const core::FourTerms t = core::four_term_decomposition(toy, variant(v));
    const std::pair<const char*, Eigen::MatrixXd> expected[] = {
        {"content_content", t.content_content},     {"content_position", t.content_position},
        {"position_content", t.position_content},   {"position_position", t.position_position},
        {"score", t.sum()}};
    for (const auto& entry : expected) {
      // Not a structured binding: clang < 16 cannot capture one in CAPTURE's lambda.
      const char* const id = entry.first;
      const Eigen::MatrixXd& m = entry.second;
      CAPTURE(id);
      const fig::Figure f = lesson.figure(id, p);
      const fig::Heatmap& h = f.heatmaps.at(0);
      REQUIRE(h.cols == 12);
      for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j)
          CHECK(h.values[static_cast<std::size_t>(i * 12 + j)] == doctest::Approx(m(i, j)).epsilon(1e-6));
      CHECK(h.vmax == -h.vmin);
      CHECK(f.title.find("relative.") == std::string::npos);  // translated, not a raw key
    }
  }
  // Dropped terms say so.
  CHECK(!lesson.figure("content_position", params({{"terms", "t5"}})).notes.empty());
  CHECK(!lesson.figure("position_position", params({{"terms", "deberta"}})).notes.empty());
}

TEST_CASE("relative lesson: the shared toy follows every key it is built from") {
  // The five term figures and the readouts share one toy per setting; each
  // change of a key it reads must give core's numbers for the new setting.
  struct Setting {
    const char *positions, *d, *seed, *base, *terms;
  };
  const Setting settings[] = {{"12", "16", "5", "10000", "all"}, {"13", "16", "5", "10000", "all"},
                              {"13", "18", "5", "10000", "all"}, {"13", "18", "6", "10000", "all"},
                              {"13", "18", "6", "500", "all"},   {"13", "18", "6", "500", "deberta"},
                              {"12", "16", "5", "10000", "all"}};
  for (const Setting& x : settings) {
    CAPTURE(x.positions);
    CAPTURE(x.d);
    CAPTURE(x.seed);
    CAPTURE(x.base);
    CAPTURE(x.terms);
    const int n = std::stoi(x.positions);
    const core::ToyAttention toy = core::toy_attention(n, std::stoi(x.d), std::stoi(x.d), std::stod(x.base), std::stoull(x.seed));
    const Eigen::MatrixXd ref = core::four_term_decomposition(toy, variant(x.terms)).sum();
    const fig::Heatmap h =
        lesson.figure("score", params({{"positions", x.positions}, {"d", x.d}, {"seed", x.seed}, {"base", x.base}, {"terms", x.terms}}))
            .heatmaps.at(0);
    REQUIRE(h.cols == n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        CHECK(h.values[static_cast<std::size_t>(i * n + j)] == doctest::Approx(ref(i, j)).epsilon(1e-6));
  }
  // At a million positions and d = 1024 the toy is capped, and the subtitle says so.
  const fig::Figure big = lesson.figure("content_content", params({{"positions", "1048576"}, {"d", "1024"}}));
  CHECK(big.heatmaps.at(0).cols == 128);
  CHECK(big.subtitle.find("at most 128 tokens and 128-dimensional vectors") != std::string::npos);
}

TEST_CASE("relative lesson: readouts hold for every variant over random settings") {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0, 1);
  const char* variants[] = {"all", "transformer-xl", "t5", "deberta"};
  for (int trial = 0; trial < 80; ++trial) {
    core::Params p;
    p.set_text("terms", variants[trial % 4]);
    p.set("positions", std::floor(1 + u(rng) * (trial % 9 == 0 ? 400 : 40)));
    p.set("d", 2.0 * std::floor(1 + u(rng) * (trial % 5 == 0 ? 300 : 40)));
    p.set("clip", std::floor(u(rng) * 40));
    p.set("seed", std::floor(u(rng) * 1e9));
    p.set("base", std::pow(10.0, 0.1 + u(rng) * 6));
    CAPTURE(p.choice("terms"));
    CAPTURE(p.integer("positions"));
    CAPTURE(p.integer("d"));
    const int n = lesson.check_readouts(p);
    // Shaw count + sum (all) or variant checks: at least two claims are checked.
    CHECK(n >= 2);
  }
}

TEST_CASE("relative lesson: readout values") {
  const auto r = lesson.readouts(params({{"positions", "16"}, {"clip", "4"}}));
  CHECK(r.at(0).number == 9);  // w_{−4} … w_4
  // Absolute position–position is not a function of i − j: measured, not claimed.
  CHECK(!r.at(2).holds.has_value());
  CHECK(r.at(2).number > 1e-3);
  const auto t5 = lesson.readouts(params({{"terms", "t5"}}));
  CHECK(t5.at(1).number == 0);  // T5's bias depends only on j − i
}

TEST_CASE("relative lesson tables") {
  const app::Table shaw = test::table("shaw-clip", params({{"clip", "4"}}));
  REQUIRE(shaw.rows.size() == 25);  // −12 … 12
  CHECK(std::get<long long>(shaw.rows[0][1]) == -4);
  CHECK(std::get<long long>(shaw.rows[10][1]) == -2);
  CHECK(std::get<long long>(shaw.rows[24][1]) == 4);

  const app::Table terms = test::table("four-terms", params({{"terms", "all"}, {"d", "8"}}));
  REQUIRE(terms.rows.size() == 64);
  const core::ToyAttention toy = core::toy_attention(8, 8, 8, 1e4, 0);
  const Eigen::MatrixXd full = core::absolute_attention_scores(toy);
  for (const auto& row : terms.rows) {
    const auto i = std::get<long long>(row[0]), j = std::get<long long>(row[1]);
    double sum = 0;
    for (int c = 2; c <= 5; ++c) sum += std::get<double>(row[static_cast<std::size_t>(c)]);
    CHECK(std::get<double>(row[6]) == doctest::Approx(sum).epsilon(1e-12));
    CHECK(std::get<double>(row[6]) == doctest::Approx(full(i, j)).epsilon(1e-10));
  }
  CHECK_THROWS_AS(test::table("four-terms", params({{"positions", "1001"}})),
                  core::InvalidParameter);
}

TEST_CASE("relative lesson: matrices read from the top; a one-signed term gets its own colour range") {
  for (const char* id : {"index", "content_content", "position_position", "score"}) {
    CAPTURE(id);
    test::check_matrix_orientation(lesson.figure(id, params({{"terms", "transformer-xl"}})));
  }
  for (const char* variant : {"all", "transformer-xl", "t5", "deberta"}) {
    for (const char* id : {"content_content", "content_position", "position_content", "position_position", "score"}) {
      CAPTURE(variant);
      CAPTURE(id);
      const fig::Figure f = lesson.figure(id, params({{"terms", variant}}));
      const fig::Heatmap& h = f.heatmaps.front();
      const float lo = *std::min_element(h.values.begin(), h.values.end());
      const float hi = *std::max_element(h.values.begin(), h.values.end());
      if (lo < 0 && hi > 0) {  // straddles 0: symmetric, signed
        CHECK(h.colormap == fig::Colormap::signed_);
        CHECK(h.vmin == doctest::Approx(-h.vmax));
      } else if (lo < hi) {  // one sign: the data's own range
        CHECK(h.colormap == fig::Colormap::magnitude);
        CHECK(h.vmin == doctest::Approx(lo).epsilon(1e-6));
        CHECK(h.vmax == doctest::Approx(hi).epsilon(1e-6));
      }
    }
  }
  // Transformer-XL's position–position term at the default seed: all negative.
  const fig::Figure pp = lesson.figure("position_position", params({{"terms", "transformer-xl"}}));
  REQUIRE_FALSE(pp.heatmaps.empty());
  CHECK(pp.heatmaps.front().vmax < 0);
}
