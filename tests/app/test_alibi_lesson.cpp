// The "alibi" lesson: its readouts hold (defaults, BLOOM's 112 heads, random
// settings), its figures show core's slopes with get_slopes' two sources, the
// bias is core's, and the closed-form attention of the heatmap equals core's
// softmax of core's bias matrix.
//
// Reference values: the ALiBi authors' get_slopes (github.com/ofirpress/
// attention_with_linear_biases) transcribed to Python and run at development
// time: get_slopes(112)[0] = 0.9170040432046712, [63] = 0.0039062499999999952,
// [64] = 0.9576032806985737 (= 2^(−1/16)), [65] = 0.8781260801866498,
// [111] = 0.016316777850428427; softmax of −0.5·(4 − j), j = 0..4:
// 0.058012217397997876, …, 0.42865552877716695.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "lesson_test_support.hpp"
#include "poslab/core/alibi.hpp"

using namespace poslab;
using test::params;

namespace {

const test::Lesson lesson{"alibi"};

/// The lesson's parameters: `heads` heads, head `head` shown, causal or not, n positions.
core::Params setting(int heads, int head, bool causal, long long n) {
  core::Params p;
  p.set("heads", static_cast<double>(heads));
  p.set("head", static_cast<double>(head));
  p.set("causal", causal);
  p.set("positions", static_cast<double>(n));
  return p;
}

}  // namespace

TEST_CASE("alibi readouts hold: defaults, BLOOM, symmetric, random settings") {
  CHECK(lesson.check_readouts(core::Params{}) == 6);  // slope, geometric, distinct, sum, closed form, BLOOM's form
  CHECK(lesson.check_readouts(params({{"heads", "112"}, {"head", "70"}})) == 6);  // interleaving instead of geometric
  CHECK(lesson.check_readouts(params({{"causal", "false"}})) == 5);
  std::mt19937_64 rng(112);
  for (int trial = 0; trial < 60; ++trial) {
    const int heads = std::uniform_int_distribution<int>(1, 256)(rng);
    const int head = std::uniform_int_distribution<int>(1, heads)(rng);
    core::Params p;
    p.set("heads", static_cast<double>(heads));
    p.set("head", static_cast<double>(head));
    p.set("causal", trial % 2 == 0);
    p.set("positions", static_cast<double>(std::uniform_int_distribution<int>(1, 3000)(rng)));
    CAPTURE(heads);
    CAPTURE(head);
    lesson.check_readouts(p);
  }
}

TEST_CASE("alibi slopes figure: the axis leaves room beyond every slope, so no marker meets the frame") {
  for (const char* h : {"1", "2", "8", "12", "16", "112", "256"}) {
    CAPTURE(h);
    const auto f = lesson.figure("slopes", params({{"heads", h}, {"head", "1"}}));
    REQUIRE(f.y.min.has_value());
    REQUIRE(f.y.max.has_value());
    const std::vector<double> slopes = core::alibi_slopes(std::stoi(h));
    // Not a structured binding: clang < 16 cannot capture one in doctest's lambdas.
    const double lo = *std::min_element(slopes.begin(), slopes.end());
    const double hi = *std::max_element(slopes.begin(), slopes.end());
    // A quarter of a power of two at least on the log axis, each end.
    CHECK(std::log2(*f.y.max / hi) >= 0.25);
    CHECK(std::log2(lo / *f.y.min) >= 0.25);
    for (const auto& ser : f.series)
      for (double y : ser.y) CHECK((y > *f.y.min && y < *f.y.max));
  }
}

TEST_CASE("alibi slopes figure: core's slopes, split by get_slopes' source (BLOOM: 64 + 48)") {
  const auto f = lesson.figure("slopes", params({{"heads", "112"}, {"head", "65"}}));
  REQUIRE(f.series.size() == 3);
  CHECK(f.series[0].x.size() == 64);
  CHECK(f.series[1].x.size() == 48);
  CHECK(f.series[0].y[0] == doctest::Approx(0.9170040432046712).epsilon(1e-15));
  CHECK(f.series[0].y[63] == doctest::Approx(0.0039062499999999952).epsilon(1e-15));
  CHECK(f.series[1].y[0] == doctest::Approx(0.9576032806985737).epsilon(1e-15));
  CHECK(f.series[1].y[1] == doctest::Approx(0.8781260801866498).epsilon(1e-15));
  CHECK(f.series[1].y[47] == doctest::Approx(0.016316777850428427).epsilon(1e-15));
  CHECK(f.series[2].y[0] == f.series[1].y[0]);  // the chosen head, 65
  // 8 heads: one source, 1/2 … 1/256.
  const auto g = lesson.figure("slopes", core::Params{});
  REQUIRE(g.series.size() == 2);
  for (std::size_t k = 0; k < 8; ++k) CHECK(g.series[0].y[k] == std::ldexp(1.0, -static_cast<int>(k) - 1));
}

TEST_CASE("alibi bias figure is core's bias with the causal future masked") {
  for (const char* causal : {"true", "false"}) {
    const auto f = lesson.figure("bias", params({{"heads", "12"}, {"head", "10"}, {"positions", "40"}, {"causal", causal}}));
    const auto& h = f.heatmaps.at(0);
    REQUIRE(h.cols == 40);
    const double m = core::alibi_slopes(12)[9];
    const bool is_causal = std::string_view(causal) == "true";
    for (int i = 0; i < 40; ++i)
      for (int j = 0; j < 40; ++j) {
        const std::size_t k = static_cast<std::size_t>(i) * 40 + static_cast<std::size_t>(j);
        if (is_causal && j > i) {
          CHECK(h.mask[k] == 1);
        } else {
          CHECK(h.values[k] == static_cast<float>(core::alibi_bias(m, i, j, is_causal)));
        }
      }
  }
  // Blocks of positions (a million positions, one cell per block): the drawn
  // cell and the exported double are core's bias at the block's first position.
  for (const bool causal : {true, false}) {
    const auto f = lesson.figure("bias", setting(256, 200, causal, 1048576));
    const auto& h = f.heatmaps.at(0);
    REQUIRE(h.cols > 1);
    REQUIRE(h.rows == h.cols);
    REQUIRE(h.x_index.size() == static_cast<std::size_t>(h.cols));
    const double m = core::alibi_slopes(256)[199];
    const double cell = 1048576.0 / h.cols;
    std::vector<double> centres;
    for (int c = 0; c < h.cols; c += 37) centres.push_back((c + 0.5) * cell);
    std::vector<double> exported(centres.size() * centres.size());
    h.exact(centres, centres, exported);
    for (std::size_t r = 0; r < centres.size(); ++r)
      for (std::size_t c = 0; c < centres.size(); ++c) {
        const std::size_t row = static_cast<std::size_t>(centres[r] / cell), col = static_cast<std::size_t>(centres[c] / cell);
        const auto i = static_cast<long long>(h.y_index[row]), j = static_cast<long long>(h.x_index[col]);
        CHECK(i == static_cast<long long>(std::floor(static_cast<double>(row) * cell)));
        const double bias = core::alibi_bias(m, i, j, causal);
        CHECK(exported[r * centres.size() + c] == bias);
        const std::size_t k = row * static_cast<std::size_t>(h.cols) + col;
        if (std::isfinite(bias)) CHECK(h.values[k] == static_cast<float>(bias));
        else CHECK((h.mask.at(k) == 1 && h.values[k] == 0.0f));
      }
  }
}

TEST_CASE("alibi attention heatmap (closed form) equals core's softmax of core's bias matrix") {
  for (int heads : {8, 112, 256})
    for (const bool causal : {true, false})
      for (int n : {1, 7, 150}) {
        for (int head : {1, heads / 2 + 1, heads}) {
          const auto f = lesson.figure("attention", setting(heads, head, causal, n));
          const auto& h = f.heatmaps.at(0);
          const double m = core::alibi_slopes(heads)[static_cast<std::size_t>(head - 1)];
          const Eigen::MatrixXd w = core::softmax_rows(core::alibi_bias_matrix(m, n, causal));
          std::vector<double> xs, ys;
          for (int k = 0; k < n; ++k) xs.push_back(k + 0.5), ys.push_back(k + 0.5);
          std::vector<float> out(xs.size() * ys.size());
          h.sampler(xs, ys, out);
          for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
              CHECK(out[static_cast<std::size_t>(i * n + j)] == doctest::Approx(w(i, j)).epsilon(1e-6));
        }
      }
}

TEST_CASE("alibi attention at a million positions: drawn floats are the exact doubles rounded, and those the closed form") {
  // The sampler skips the exp of a weight that underflows (in float past
  // m·|i − j| ≈ 104, in double past ≈ 745): no drawn or exported value may
  // change by it. Cells near the diagonal, across both cut-offs, and far.
  std::mt19937_64 rng(31);
  constexpr long long n = 1048576;
  for (int heads : {8, 256})
    for (const bool causal : {true, false})
      for (int head : {1, heads}) {
        const auto f = lesson.figure("attention", setting(heads, head, causal, n));
        const auto& h = f.heatmaps.at(0);
        const double m = core::alibi_slopes(heads)[static_cast<std::size_t>(head - 1)];
        std::uniform_int_distribution<long long> pos(0, n - 1);
        std::vector<double> ys, xs;
        for (int k = 0; k < 24; ++k) ys.push_back(static_cast<double>(pos(rng)) + 0.5);
        for (const double y : ys)  // keys at distances around both cut-offs, and anywhere
          for (const double reach : {0.0, 1.0, 100.0, 103.9, 104.6, 110.0, 744.0, 746.5, 800.0})
            for (const double sign : {-1.0, 1.0}) {
              const double x = std::floor(y) + sign * std::round(reach / m);
              if (x >= 0 && x < n) xs.push_back(x + 0.5);
            }
        for (int k = 0; k < 64; ++k) xs.push_back(static_cast<double>(pos(rng)) + 0.5);
        std::vector<float> drawn(xs.size() * ys.size());
        std::vector<double> exact(xs.size() * ys.size());
        h.sampler(xs, ys, drawn);
        h.exact(xs, ys, exact);
        int nonzero = 0;
        for (std::size_t r = 0; r < ys.size(); ++r)
          for (std::size_t c = 0; c < xs.size(); ++c) {
            const auto i = static_cast<long long>(ys[r]), j = static_cast<long long>(xs[c]);
            const std::size_t k = r * xs.size() + c;
            // The closed form written out on its own (no cut-off; glibc's exp gives 0 past ~745).
            double w = 0;
            if (causal) {
              if (j <= i) w = std::exp(-m * static_cast<double>(i - j)) * -std::expm1(-m) / -std::expm1(-m * static_cast<double>(i + 1));
            } else {
              const double q = -std::expm1(-m);
              const double z = (-std::expm1(-m * static_cast<double>(i + 1)) - std::expm1(-m * static_cast<double>(n - i))) / q - 1;
              w = std::exp(-m * static_cast<double>(std::llabs(i - j))) / z;
            }
            CHECK(std::abs(exact[k] - w) <= 1e-14 * std::abs(w));
            CHECK(drawn[k] == static_cast<float>(exact[k]));
            nonzero += drawn[k] > 0;
          }
        CHECK(nonzero > 0);
      }
}

TEST_CASE("alibi weights figure: one query's softmax row, log y, straight lines of slope −m") {
  const auto f = lesson.figure("weights", params({{"positions", "5"}}));
  REQUIRE(!f.series.empty());
  const double expected[] = {0.058012217397997876, 0.09564597678455912, 0.1576935563815933, 0.2599927206586828,
                             0.42865552877716695};
  const auto& head1 = f.series[0];  // m = 1/2, query 4
  REQUIRE(head1.y.size() == 5);
  for (std::size_t j = 0; j < 5; ++j) CHECK(head1.y[j] == doctest::Approx(expected[j]).epsilon(1e-14));
  // log w(j+1) − log w(j) = m for every head shown
  for (std::size_t s = 0; s < f.series.size(); ++s) {
    const auto& ser = f.series[s];
    for (std::size_t j = 1; j < ser.y.size(); ++j) CHECK(std::log(ser.y[j] / ser.y[j - 1]) > 0);
  }
}

TEST_CASE("alibi weights figure: the subtitle gives the chosen head's weights at r = 0 and r = 2") {
  // Python: causal, 64 keys, query 63, w(r) = e^(−μr)·(1 − e^(−μ))/(1 − e^(−64μ));
  // symmetric, 9 keys, query 4: w(r) = e^(−μ|r|)/Σ_j e^(−μ|4 − j|).
  const auto sub = [](std::initializer_list<std::pair<const char*, const char*>> kv) {
    return lesson.figure("weights", params(kv)).subtitle;
  };
  const std::string h1 = sub({{"heads", "8"}, {"head", "1"}, {"positions", "64"}});  // μ = 1/2: 0.393469, 0.144749
  CHECK(h1.find("head 1: weight 0.3935 at r = 0, 0.1447 at r = 2") != std::string::npos);
  const std::string h2 = sub({{"heads", "8"}, {"head", "2"}, {"positions", "64"}});  // μ = 1/4: 0.221199, 0.134164
  CHECK(h2.find("head 2: weight 0.2212 at r = 0, 0.1342 at r = 2") != std::string::npos);
  const std::string sym = sub({{"heads", "8"}, {"head", "2"}, {"positions", "9"}, {"causal", "false"}});  // 0.183447, 0.111266
  CHECK(sym.find("head 2: weight 0.1834 at r = 0, 0.1113 at r = 2") != std::string::npos);
  CHECK(sub({{"positions", "2"}}).find("r = 2") == std::string::npos);  // no key 2 back: nothing claimed
}

TEST_CASE("alibi attention figure: the subtitle says what the brightest colour means, and it is the colour bar's top") {
  // Python: causal, 64 keys, μ = 1/2: the last query's weight on itself is
  // (1 − e^(−1/2))/(1 − e^(−32)) = 0.393469; every weight at or above it gets the top colour.
  const auto f = lesson.figure("attention", params({{"heads", "8"}, {"head", "1"}, {"positions", "64"}}));
  CHECK(f.subtitle.find("brightest colour: weight ≥ 0.393") != std::string::npos);
  REQUIRE(f.heatmaps.size() == 1);
  CHECK(f.heatmaps[0].vmax == doctest::Approx(0.39346934028737157).epsilon(1e-12));
  CHECK(f.subtitle.find("colours stop") == std::string::npos);
}

TEST_CASE("alibi tables: heads with their source, one query's attention") {
  const app::Table heads = test::table("alibi-heads", params({{"heads", "12"}}));
  REQUIRE(heads.rows.size() == 12);
  // Head 10 is entry 3 of get_slopes(16): 2^(−1.5) = 0.35355339059327384.
  CHECK(std::get<double>(heads.rows[9][1]) == doctest::Approx(0.35355339059327384).epsilon(1e-15));
  CHECK(std::get<double>(heads.rows[9][2]) == doctest::Approx(-1.5).epsilon(1e-14));
  CHECK(std::get<long long>(heads.rows[9][3]) == 16);
  CHECK(std::get<long long>(heads.rows[9][4]) == 3);
  const app::Table att = test::table("alibi-attention", params({{"positions", "5"}}));
  REQUIRE(att.rows.size() == 5);
  double sum = 0;
  for (const auto& row : att.rows) sum += std::get<double>(row[3]);
  CHECK(sum == doctest::Approx(1).epsilon(1e-15));
  CHECK(std::get<double>(att.rows[4][3]) == doctest::Approx(0.42865552877716695).epsilon(1e-14));
}

TEST_CASE("alibi: matrices read from the top, slopes named μₕ") {
  for (const char* id : {"bias", "attention"}) {
    CAPTURE(id);
    test::check_matrix_orientation(lesson.figure(id, {}));
  }
  for (const char* id : {"slopes", "interleave"}) {
    const app::fig::Figure f = lesson.figure(id, {});
    for (const app::fig::Series& s : f.series) {
      CHECK(s.x_name != "m");
      CHECK(s.y_name != "m");
      for (const app::fig::ExtraColumn& e : s.extra) CHECK(e.name.find(" m") == std::string::npos);
    }
  }
  CHECK(lesson.figure("slopes", {}).series.front().y_name == "μₕ");
}
