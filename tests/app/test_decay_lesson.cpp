// The "decay" lesson: its readouts hold (defaults and random settings), its
// curves are core's (bound, ones score, random q, k; xPos, ALiBi, Gaussian
// kernel, T5 on the comparison axis), and spot values agree with independent
// Python transcriptions run at development time:
//   RoFormer bound, d = 128, base 1e4: r = 1 → 31.53816614265808,
//     r = 100 → 10.227329948505133; base 5e5, r = 1000 → 10.200187756099268
//     (running complex sum of e^{i r θ_k}, θ_k = base^(−2k/d), mean of |S_j|);
//   torchscale XPOS all-ones score / d, d = 128, γ = 0.4, B = 512:
//     r = 100 → 0.45402308543590447, r = 1000 → 0.16270242946438715;
//   K(5)/K(0) for α = 0.7, 0.3, σ = 5, 20: 0.7153414321417466;
//   xPos half-distances B·ln ½ / ln ζ: pair 0 → 283.28691490053745,
//     last pair → 31620.487934281693.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "app/plot/figure_text.hpp"
#include "lesson_test_support.hpp"
#include "poslab/core/decay.hpp"
#include "poslab/core/rope.hpp"
#include "poslab/core/t5.hpp"
#include "poslab/core/xpos.hpp"

using namespace poslab;
using test::params;

namespace {

const test::Lesson lesson{"decay"};

/// The y of `s` at x (exact match), or NaN.
double y_at(const app::fig::Series& s, double x) {
  for (std::size_t i = 0; i < s.x.size(); ++i)
    if (s.x[i] == x) return s.y[i];
  return std::nan("");
}

/// Every `every`-th point of `trend` (relative to the bound at 0) is the
/// direct mean of core's one-distance bound over every integer distance of
/// [r/1.1, 1.1·r] (points whose window holds no integer are skipped).
void check_trend_is_direct_mean(const app::fig::Series& trend, int d, double base, std::size_t every = 1) {
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
  const double bound0 = (d / 2 + 1) / 2.0;
  for (std::size_t i = 0; i < trend.x.size(); i += every) {
    const double r = trend.x[i];
    double sum = 0;
    int n = 0;
    for (double u = std::ceil(r / 1.1); u <= std::floor(r * 1.1); ++u)
      sum += core::rope_decay_bound(u, {theta.data(), static_cast<std::size_t>(theta.size())}), ++n;
    if (n == 0) continue;
    CAPTURE(r);
    CHECK(trend.y[i] * bound0 == doctest::Approx(sum / n).epsilon(1e-9));
  }
}

}  // namespace

TEST_CASE("decay readouts hold at the defaults and over random settings") {
  CHECK(lesson.check_readouts(core::Params{}) == 3);  // bound(0), ones(0), RoFormer's inequality
  const auto rs = lesson.readouts(core::Params{});
  CHECK(rs[0].number == doctest::Approx(32.5).epsilon(1e-14));  // (d/2 + 1)/2
  CHECK(rs[1].number == doctest::Approx(128).epsilon(1e-14));
  CHECK(rs[2].number > 0.01);  // the inequality is not vacuous: some ratio is sizeable
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 30; ++trial) {
    core::Params p;
    p.set("d", std::ldexp(1.0, std::uniform_int_distribution<int>(1, 8)(rng)));
    p.set("base", std::pow(10.0, std::uniform_real_distribution<double>(0.5, 7)(rng)));
    p.set("seed", static_cast<double>(trial));
    p.set("samples", static_cast<double>(std::uniform_int_distribution<int>(1, 64)(rng)));
    p.set("log_x", trial % 2 == 0);
    p.set_text("distance", trial % 3 == 0 ? "0:300" : "0,1,5,17,1000:1100,65536");
    CAPTURE(p.integer("d"));
    CHECK(lesson.check_readouts(p) == 3);
  }
}

TEST_CASE("decay curves figures: core's bound, ones score and random q, k at the distances drawn") {
  const auto shown = params({{"distance", "0:2000"}, {"log_x", "false"}});
  const auto f = lesson.figure("curves", shown);
  REQUIRE(f.series.size() == 5);  // ones, bound, trend, lowest, random-phase level
  const auto& ones = f.series[0];
  const auto& bound = f.series[1];
  CHECK(bound.x.size() == 2001);
  CHECK(bound.y[1] * 32.5 == doctest::Approx(31.53816614265808).epsilon(1e-12));
  CHECK(y_at(bound, 100) * 32.5 == doctest::Approx(10.227329948505133).epsilon(1e-12));
  for (std::size_t i = 0; i < ones.x.size(); i += 97)
    CHECK(ones.y[i] * 128 == doctest::Approx(core::rope_ones_score(ones.x[i], 128, 1e4)).epsilon(1e-12));
  CHECK(f.series[4].y[0] == doctest::Approx(0.14746477119095278).epsilon(1e-10));  // E|S_j| exactly (tests/core: test_decay)
  // The steps bring the curves in one at a time: the ones score alone, then
  // with the bound (the same numbers), and apart the random q, k beside it.
  const auto alone = lesson.figure("ones", shown);
  REQUIRE(alone.series.size() == 1);
  CHECK(alone.series[0].y == ones.y);
  const auto with_bound = lesson.figure("bound", shown);
  REQUIRE(with_bound.series.size() == 2);
  CHECK(with_bound.series[1].y == bound.y);
  const auto random_figure = lesson.figure("random", shown);
  REQUIRE(random_figure.series.size() == 2);
  CHECK(random_figure.series[0].y == ones.y);
  const auto& random = random_figure.series[1];
  REQUIRE(random.x.size() > 8);
  for (std::size_t i = 0; i < random.x.size(); i += 7)
    CHECK(random.y[i] * std::sqrt(256 / std::numbers::pi) ==
          doctest::Approx(core::rope_random_mean_abs_score(random.x[i], 128, 1e4, 0, 64)).epsilon(1e-12));
  // Mean |score| of random q, k is flat: no decay (the step's answer).
  double lo = 1e9, hi = 0;
  for (double y : random.y) lo = std::min(lo, y), hi = std::max(hi, y);
  CHECK(lo > 0.6);
  CHECK(hi < 1.5);
}

TEST_CASE("decay ones figure: pair 0's first turn is marked, with its value, only where the axis shows it apart from 0") {
  // Python: Σᵢ 2cos(6·10000^(−2i/128))/128 = 0.7354164709768394 (θ₀ = 1, one turn at 2π ≈ 6.28).
  const auto near = lesson.figure("ones", params({{"distance", "0:64"}, {"log_x", "false"}}));
  REQUIRE(near.series.size() == 2);
  const auto& mark = near.series[1];
  REQUIRE(mark.x.size() == 1);
  CHECK(mark.kind == app::fig::SeriesKind::scatter);
  CHECK(mark.x[0] == 6);
  CHECK(mark.y[0] == doctest::Approx(0.7354164709768394).epsilon(1e-12));
  CHECK(mark.y[0] == y_at(near.series[0], 6));
  CHECK(mark.name == test::english().format("decay.ones.turn", {{"r", "6"}, {"v", "0.74"}}));
  // Step 1 asks its question on 0:1024: there the marker (and its value) would give the answer away.
  CHECK(lesson.figure("ones", params({{"distance", "0:1024"}, {"log_x", "false"}})).series.size() == 1);
  CHECK(lesson.figure("ones", params({{"distance", "0:64"}, {"log_x", "true"}})).series.size() == 1);
  // No drawn distance within a token of 2π: nothing to mark.
  CHECK(lesson.figure("ones", params({{"distance", "0,20:40"}, {"log_x", "false"}})).series.size() == 1);
}

TEST_CASE("decay bases figure: every base relative to (d/2 + 1)/2") {
  const auto f = lesson.figure("bases", params({{"bases", "500000"}, {"distance", "0:2000"}, {"log_x", "false"}}));
  // raw 10000, raw 500000, trend 10000, trend 500000, minima, level
  REQUIRE(f.series.size() == 6);
  CHECK(y_at(f.series[1], 1000) * 32.5 == doctest::Approx(10.200187756099268).epsilon(1e-12));
  CHECK(f.series[4].x.size() == 2);
  // Each base's legend names where its local mean is lowest: the marker's r.
  for (std::size_t b = 0; b < 2; ++b) {
    CAPTURE(f.series[2 + b].name);
    CHECK(f.series[2 + b].name.find("lowest at r = " + app::fig::num(f.series[4].x[b])) != std::string::npos);
  }
}

TEST_CASE("decay trend: the mean of the bound over every integer distance of [r/1.1, 1.1·r]") {
  // Against a direct sum of core's one-distance bound at every plotted r, for
  // several d and bases (the bases figure draws each base's trend).
  const std::vector<std::pair<int, double>> cases{{32, 100}, {128, 1e4}, {64, 5e5}};
  for (const auto& c : cases) {
    const int d = c.first;
    const double base = c.second;
    CAPTURE(d);
    CAPTURE(base);
    core::Params p;
    p.set("d", static_cast<double>(d)), p.set("base", base), p.set_text("bases", core::format_number(base));
    p.set_text("distance", "0:6000"), p.set("log_x", true);
    const auto f = lesson.figure("bases", p);
    const auto& trend = f.series[1];  // raw, trend, minima, level
    REQUIRE(trend.x.size() > 100);
    check_trend_is_direct_mean(trend, d, base);
  }
  // Defaults (d = 128, base 10,000, 0:65,536 on a log axis): the lowest local
  // mean. Sampled every 128–256 tokens the window mean put it at 22,144
  // (0.1429); over every integer it is 0.139024 at r = 11,538 (a direct C++
  // loop over r = 1 … 65,536 at development time), with a flat floor: 0.13916
  // at 7,492. The trend's points are about 2% apart there.
  const auto rs = lesson.readouts(core::Params{});
  const double lowest = test::readout_containing(rs, "is lowest, over the distances shown").number;
  CHECK(lowest > 7000);
  CHECK(lowest < 12500);
  const auto curves = lesson.figure("curves", core::Params{});
  CHECK(curves.series[3].x[0] == lowest);
  CHECK(curves.series[3].y[0] == doctest::Approx(0.139024).epsilon(5e-3));
}

TEST_CASE("decay trend: remembered by its setting, each toggle of log_x drawing its own sampling") {
  // The trends are remembered (a key toggled back finds them again): every
  // trend drawn, first computed or remembered, is the direct mean of core's
  // bound at its own points, whichever setting came before. More settings
  // than are remembered (24 curves), visited forwards then backwards.
  auto check_trend = [](const core::Params& p) {
    const auto f = lesson.figure("curves", p);
    const auto& trend = f.series.at(2);  // ones, bound, trend, lowest, level
    REQUIRE(trend.x.size() > 10);
    check_trend_is_direct_mean(trend, static_cast<int>(p.integer("d")), p.real("base"), 5);
    return trend.x;
  };
  std::vector<core::Params> settings;
  for (int k = 0; k < 16; ++k) {
    core::Params p;
    p.set("d", k % 2 == 0 ? 32.0 : 16.0);
    p.set("base", k < 8 ? 1e4 : 500.0);
    p.set_text("bases", k % 4 < 2 ? "100" : "100,500000");
    p.set_text("distance", "0:3000");
    p.set("log_x", k % 2 == 0);
    settings.push_back(p);
  }
  std::vector<std::vector<double>> xs;
  for (const auto& p : settings) xs.push_back(check_trend(p));
  for (std::size_t k = settings.size(); k-- > 0;) CHECK(check_trend(settings[k]) == xs[k]);
  core::Params p = settings[0];
  const auto log_points = check_trend(p);
  p.set("log_x", false);
  const auto linear_points = check_trend(p);
  CHECK(log_points != linear_points);  // the two samplings differ: neither is the other's remembered trend
  p.set("log_x", true);
  CHECK(check_trend(p) == log_points);
}

TEST_CASE("decay compare figure: every method as the softmax weight of a key at r over the key at 0") {
  const auto f = lesson.figure("compare", params({{"distance", "0:400"}, {"log_x", "false"}}));
  REQUIRE(f.series.size() == 4);  // rope, xpos, alibi, gaussian; T5 is not on this quantity
  const double root_d = std::sqrt(128.0);
  const auto& rope = f.series[0];
  const auto& xpos = f.series[1];
  for (std::size_t i = 0; i < xpos.x.size(); i += 37) {
    const double r = xpos.x[i];
    CHECK(xpos.y[i] == doctest::Approx(std::exp((core::xpos_ones_score(r, 128, 1e4, 0.4, 512) - 128) / root_d)).epsilon(1e-12));
    CHECK(rope.y[i] == doctest::Approx(std::exp((core::rope_ones_score(r, 128, 1e4) - 128) / root_d)).epsilon(1e-12));
  }
  // torchscale XPOS all-ones score / d at r = 100 (header): the weight follows.
  CHECK(y_at(xpos, 100) == doctest::Approx(std::exp((0.45402308543590447 - 1) * root_d)).epsilon(1e-10));
  CHECK(y_at(f.series[2], 7) == doctest::Approx(std::exp(-3.5)).epsilon(1e-14));  // ALiBi head 1 of 8: μ = 1/2
  // Gaussian-kernel RoPE, relative form: K(r)·score(r) with K(0) = 1.
  CHECK(y_at(f.series[3], 5) ==
        doctest::Approx(std::exp((0.7153414321417466 * core::rope_ones_score(5, 128, 1e4) - 128) / root_d)).epsilon(1e-12));
  for (const auto& s : f.series) CHECK(s.y[0] == doctest::Approx(1));  // r = 0
}

TEST_CASE("decay readouts: RoPE's rows are remembered by their setting, never shown for another") {
  // Rows as text and number, to compare whole readouts.
  auto rows = [](const core::Params& p) {
    std::vector<std::string> out;
    for (const auto& r : lesson.readouts(p)) out.push_back(r.label + " = " + r.value + " (" + app::fig::num(r.number, 17) + ")");
    return out;
  };
  std::mt19937_64 rng(31);
  std::vector<core::Params> settings;
  std::vector<std::vector<std::string>> first;
  for (int trial = 0; trial < 12; ++trial) {  // more settings than are remembered (8)
    core::Params p;
    p.set("d", std::ldexp(1.0, std::uniform_int_distribution<int>(2, 7)(rng)));
    p.set("base", std::pow(10.0, std::uniform_real_distribution<double>(1, 6)(rng)));
    p.set("seed", static_cast<double>(trial % 3));
    p.set("samples", static_cast<double>(std::uniform_int_distribution<int>(1, 16)(rng)));
    p.set("log_x", trial % 2 == 0);
    p.set_text("distance", trial % 3 == 0 ? "0:300" : "0,1,5,17,1000:1100");
    settings.push_back(p);
    first.push_back(rows(p));
  }
  for (std::size_t i = settings.size(); i-- > 0;) {  // again, newest first: remembered, then forgotten and computed anew
    CAPTURE(i);
    CHECK(rows(settings[i]) == first[i]);
  }
  // Another method's key changes that method's row alone; the base changes RoPE's.
  core::Params p = settings[0];
  const std::vector<std::string> before = rows(p);
  p.set("alpha1", 0.9);
  p.set("head", 2.0);
  std::vector<std::string> after = rows(p);
  REQUIRE(after.size() == before.size());
  CHECK(std::equal(before.begin(), before.begin() + 3, after.begin()));
  CHECK(after != before);
  p.set("base", p.real("base") * 1.5);
  after = rows(p);
  CHECK(after[0] == before[0]);  // (d/2 + 1)/2 whatever the base
  CHECK(after != before);
  CHECK(lesson.check_readouts(p) == 3);
}

TEST_CASE("decay readouts: xPos half-distances, ALiBi halving, T5 and Gaussian cut-offs") {
  const auto rs = lesson.readouts(core::Params{});
  CHECK(test::readout_containing(rs, "xPos").number == doctest::Approx(283.28691490053745).epsilon(1e-12));
  CHECK(test::readout_containing(rs, "ALiBi").number == doctest::Approx(2 * std::numbers::ln2).epsilon(1e-14));
  CHECK(test::readout_containing(rs, "T5").number == 91);
}

TEST_CASE("decay tables: the comparison and the bases, with their default distances") {
  const app::Table t = test::table("decay-compare");
  REQUIRE(t.rows.size() == 29);  // 0..16, then 32 … 65,536
  CHECK(std::get<double>(t.rows[0][1]) == doctest::Approx(1).epsilon(1e-15));
  CHECK(std::get<double>(t.rows[1][1]) * 32.5 == doctest::Approx(31.53816614265808).epsilon(1e-12));
  CHECK(std::get<double>(t.rows[0][2]) == doctest::Approx(1).epsilon(1e-15));
  CHECK(std::get<double>(t.rows[7][4]) == doctest::Approx(std::exp(-3.5)).epsilon(1e-14));  // alibi_weight
  CHECK(std::get<long long>(t.rows[16][6]) == core::t5_relative_bucket(-16, true, 32, 128));
  const app::Table b = test::table("decay-bases");
  CHECK(b.rows.size() == 2 * 29);  // base 10,000 and the default bases' 500,000
}

namespace {

/// Lays figures out without drawing; text is 0.55 em per byte (generous for UTF-8).
class BoxPainter final : public app::fig::Painter {
 public:
  void fill_rect(const app::fig::Rect&, app::fig::Color) override {}
  void stroke_polyline(std::span<const app::fig::Point>, app::fig::Color, double, app::fig::LineStyle) override {}
  void fill_polygon(std::span<const app::fig::Point>, app::fig::Color) override {}
  void fill_circle(app::fig::Point, double, app::fig::Color) override {}
  void text(app::fig::Point, std::string_view, const app::fig::TextStyle&, app::fig::Anchor, app::fig::VAnchor,
            bool) override {}
  app::fig::Size measure(std::string_view s, const app::fig::TextStyle& st) override {
    return {static_cast<double>(s.size()) * st.size * 0.55, st.size};
  }
  void heatmap(const app::fig::Rect&, const app::fig::ScalarRaster&) override {}
  void push_clip(const app::fig::Rect&) override {}
  void pop_clip() override {}
};

}  // namespace

TEST_CASE("decay: the legend sits above the curves, clear of every point, at step sizes and export sizes") {
  // make_legend_room leaves the top of the plot to the legend, as many rows as
  // it has entries, for the figure's height: a fixed share left a five-entry
  // legend on the curves in a 400-pixel step view.
  const std::pair<double, double> sizes[] = {{645, 300}, {645, 330}, {640, 360}, {900, 400}, {900, 560}, {1280, 720}, {1600, 1000}};
  const char* figures[] = {"ones", "bound", "curves", "random", "bases"};
  for (const core::Params& p : {params({}), params({{"distance", "0:65536"}, {"log_x", "true"}}), params({{"distance", "0:1024"}, {"log_x", "false"}})})
    for (const char* id : figures)
      for (const auto& size : sizes) {
        const double w = size.first, h = size.second;  // (not a structured binding: clang 14's CAPTURE refuses one)
        CAPTURE(id);
        CAPTURE(w);
        CAPTURE(h);
        const app::fig::Figure f = lesson.figure(id, p, w, h);
        BoxPainter painter;
        app::fig::RenderStyle st;
        st.show_title = false;  // as the plot widget: title and subtitle above it
        const app::fig::PlotLayout L = app::fig::render_figure(f, painter, {0, 0, w, h}, st);
        REQUIRE_FALSE(L.legend.empty());
        double top = 1e300, bottom = -1e300, left = 1e300, right = -1e300;
        for (const auto& entry : L.legend) {
          top = std::min(top, entry.second.y), bottom = std::max(bottom, entry.second.bottom());
          left = std::min(left, entry.second.x), right = std::max(right, entry.second.right());
        }
        int inside = 0;
        for (const app::fig::Series& s : f.series)
          for (std::size_t i = 0; i < s.x.size(); ++i) {
            const double x = L.to_px_x(s.x[i]), y = L.to_px_y(s.y[i]);
            inside += std::isfinite(x) && std::isfinite(y) && x >= left && x <= right && y >= top && y <= bottom;
          }
        CHECK(inside == 0);
      }
}

TEST_CASE("decay-compare at fractional distances: ALiBi at the real r, T5 at the nearest whole one, said (audit)") {
  // distance=0.5,2.7 gave alibi_weight 1 and 0.36788 (r floored); ALiBi's
  // penalty is the line −μₕ·r through every distance: head 1 of 8 (μ = 1/2)
  // gives e^(−0.25) = 0.7788007830714049 and e^(−1.35) = 0.2592402606458915.
  const app::Table t = test::table("decay-compare", params({{"distance", "0.5,2.7,3"}}));
  REQUIRE(t.rows.size() == 3);
  CHECK(test::number(t, 0, "alibi_weight") == doctest::Approx(0.7788007830714049).epsilon(1e-14));
  CHECK(test::number(t, 1, "alibi_weight") == doctest::Approx(0.2592402606458915).epsilon(1e-14));
  CHECK(test::number(t, 2, "alibi_weight") == doctest::Approx(std::exp(-1.5)).epsilon(1e-14));
  // T5 reads whole tokens: the bucket of the nearest whole distance, and the table says which
  CHECK(test::number(t, 0, "t5_distance") == 1);
  CHECK(test::number(t, 1, "t5_distance") == 3);
  CHECK(test::number(t, 0, "t5_bucket") == core::t5_relative_bucket(-1, true, 32, 128));
  CHECK(test::number(t, 1, "t5_bucket") == core::t5_relative_bucket(-3, true, 32, 128));
  // the comparison figure draws ALiBi at the real r as well
  const auto f = lesson.figure("compare", params({{"distance", "0:3"}, {"log_x", "true"}}));
  const app::fig::Series& alibi = f.series[2];
  for (std::size_t i = 0; i < alibi.x.size(); ++i) CHECK(alibi.y[i] == doctest::Approx(std::exp(-0.5 * alibi.x[i])).epsilon(1e-13));
}
