// The "sinusoidal" lesson: its readouts hold (defaults and many random
// settings, extremes included), its figures show core's numbers, its tables
// agree with independent reference values.
//
// Reference values were computed at development time in plain Python (math
// module only, no poslab code), e.g.
//   w = [1e4 ** (-2*i/4) for i in range(2)]; m, n = 2, 5
//   sum(sin(m*x)*sin(n*x) + cos(m*x)*cos(n*x) for x in w)  -> 0.009557537148542017
//   2*pi*b**(498/500) for b in (100, 1e3, 1e4, 1e5)        -> 616.85…, 6111.95…, 60559.16…, 600039.54…

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "app/common/presets.hpp"
#include "app/export/figure_export.hpp"
#include "lesson_test_support.hpp"
#include "poslab/core/sinusoidal.hpp"

using namespace poslab;
using test::params;
namespace fig = poslab::app::fig;

namespace {

const test::Lesson lesson{"sinusoidal"};

/// At least five readouts, four of them claims that hold.
void check_readouts(const core::Params& p) {
  const auto r = lesson.readouts(p);
  REQUIRE(r.size() >= 5);
  CHECK(test::check_readouts(r) == 4);  // shift, closed form, mirror, norm
}

}  // namespace

TEST_CASE("sinusoidal lesson: readouts hold at the defaults, with the notes' small example") {
  check_readouts(core::Params{});
  // d = 4, m = 2, n = 5: PE_m·PE_n = cos(3) + cos(0.03) (Python reference above).
  const auto r = lesson.readouts(params({{"d", "4"}, {"m", "2"}, {"n", "5"}}));
  CHECK(r[1].number == doctest::Approx(0.009557537148542017).epsilon(1e-13));
  CHECK(r[2].number == doctest::Approx(0.009557537148542128).epsilon(1e-13));
  CHECK(r[4].number == doctest::Approx(2.0).epsilon(1e-15));  // ‖PE‖² = d/2
}

TEST_CASE("sinusoidal lesson: readouts hold over random settings, extremes included") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 300; ++trial) {
    core::Params p;
    p.set("d", 2.0 * std::floor(1 + u(rng) * (trial % 10 == 0 ? 4095 : 511)));
    p.set("base", std::pow(10.0, 0.01 + u(rng) * 11.99));
    const double scale = std::pow(10.0, u(rng) * (trial % 7 == 0 ? 12 : 6));
    p.set("m", std::floor(u(rng) * scale));
    p.set("n", u(rng) * scale);
    p.set("offset", (u(rng) - 0.5) * std::min(2e9, 2 * scale));
    CAPTURE(core::format_param_value(core::param_spec("d"), p.value("d")));
    CAPTURE(p.real("base"));
    CAPTURE(p.real("m"));
    CAPTURE(p.real("n"));
    CAPTURE(p.real("offset"));
    check_readouts(p);
  }
  // The largest d (past core's 4096 shift-matrix limit) and the far end of positions.
  check_readouts(params({{"d", "8192"}, {"m", "1e12"}, {"offset", "1e9"}, {"n", "0"}}));
  check_readouts(params({{"d", "2"}, {"m", "0"}, {"offset", "-5"}}));
}

TEST_CASE("sinusoidal lesson: figures show core's numbers") {
  const core::Params p = params({{"d", "128"}, {"base", "10000"}, {"positions", "128"}});
  SUBCASE("heatmap sampler") {
    const fig::Figure f = lesson.figure("heatmap", p);
    for (double pos : {0.0, 7.0, 127.0})
      for (double dim : {0.0, 1.0, 64.0, 127.0}) {
        const auto v = f.heatmaps.at(0).value_at(dim + 0.5, pos + 0.5);
        REQUIRE(v.has_value());
        CHECK(*v == doctest::Approx(core::sinusoidal_value(pos, static_cast<int>(dim), 128, 1e4)).epsilon(1e-6));
      }
  }
  SUBCASE("sinusoids: rows at integer positions, legend wavelengths as in Python") {
    const fig::Figure f = lesson.figure("sinusoids", p);
    REQUIRE(f.series.size() == 4);  // dims 0, 16, 64, 120
    const double lambdas[] = {6.283185307179586, 19.869176531592203, 628.3185307179587, 35332.94752055899};
    const int dims[] = {0, 16, 64, 120};
    for (std::size_t k = 0; k < 4; ++k) {
      const fig::Series& s = f.series[k];
      REQUIRE(s.x.size() == 128);  // every position: 128 <= 4 · 900 columns
      REQUIRE(s.extra.size() == 2);
      CHECK(s.extra[1].values[0] == doctest::Approx(lambdas[k]).epsilon(1e-12));
      for (std::size_t i = 0; i < s.x.size(); i += 17) {
        CHECK(s.x[i] == static_cast<double>(i));
        CHECK(s.extra[0].values[i] == doctest::Approx(core::sinusoidal_value(s.x[i], dims[k], 128, 1e4)).epsilon(1e-6));
        CHECK(s.y[i] - s.extra[0].values[i] == doctest::Approx(-2.8 * static_cast<double>(k)));
      }
    }
  }
  SUBCASE("sinusoids at 1,048,576 positions: exact envelope, bounded size") {
    const fig::Figure f = lesson.figure("sinusoids", params({{"positions", "1048576"}}), 900);
    const int dims[] = {0, 16, 64, 120};
    for (std::size_t k = 0; k < f.series.size(); ++k) {
      const fig::Series& s = f.series[k];
      CHECK(s.x.size() <= 4 * 4 * 900);  // at most 4 points per pixel column
      CHECK(s.x.back() == 1048575.0);
      for (std::size_t i = 0; i < s.x.size(); i += 97) {
        CHECK(s.x[i] == std::floor(s.x[i]));
        CHECK(s.extra[0].values[i] == doctest::Approx(core::sinusoidal_value(s.x[i], dims[k], 128, 1e4)).epsilon(1e-6));
      }
    }
    // dim 0 turns every 2π tokens: each column's envelope reaches ±1.
    const auto& y0 = f.series[0].extra[0].values;
    CHECK(*std::max_element(y0.begin(), y0.end()) > 0.99999);
    CHECK(*std::min_element(y0.begin(), y0.end()) < -0.99999);
  }
  SUBCASE("sinusoids: each pixel column keeps the true lowest and highest integer position") {
    // Brute force over every position of sampled columns (⌈n / width⌉ positions each).
    struct Case {
      const char *positions, *d, *base, *dims;
      double width;
    };
    for (const Case& c : {Case{"1048576", "1024", "10000", "0,1,3,255,1023", 900},
                          Case{"99999", "128", "500000", "0,1,2,5,64,127", 333},
                          Case{"1048576", "8", "3", "0,1,2,3,4,5,6,7", 517}}) {
      CAPTURE(c.dims);
      const fig::Figure f = lesson.figure("sinusoids", params({{"positions", c.positions}, {"d", c.d}, {"base", c.base}, {"dims", c.dims}}), c.width);
      const long long n = std::stoll(c.positions);
      const auto per_column = static_cast<long long>(std::ceil(static_cast<double>(n) / c.width));
      const int d = std::stoi(c.d);
      const double base = std::stod(c.base);
      std::vector<int> dims;
      for (double x : params({{"dims", c.dims}}).list("dims")) dims.push_back(static_cast<int>(x));
      REQUIRE(f.series.size() == dims.size());
      for (std::size_t k = 0; k < dims.size(); ++k) {
        const fig::Series& s = f.series[k];
        CAPTURE(dims[k]);
        for (long long col : {0LL, 1LL, 7LL, 100LL, 101LL, 257LL, (n - 1) / per_column}) {
          const long long first = col * per_column, last = std::min(n, first + per_column) - 1;
          double lo = 2, hi = -2;
          for (long long pos = first; pos <= last; ++pos) {
            const double v = core::sinusoidal_value(static_cast<double>(pos), dims[k], d, base);
            lo = std::min(lo, v), hi = std::max(hi, v);
          }
          double kept_lo = 2, kept_hi = -2;
          int kept = 0;
          for (std::size_t i = 0; i < s.x.size(); ++i)
            if (s.x[i] >= static_cast<double>(first) && s.x[i] <= static_cast<double>(last)) {
              ++kept;
              CHECK(s.extra[0].values[i] == core::sinusoidal_value(s.x[i], dims[k], d, base));
              kept_lo = std::min(kept_lo, s.extra[0].values[i]), kept_hi = std::max(kept_hi, s.extra[0].values[i]);
            }
          CAPTURE(col);
          CHECK(kept <= 4);
          CHECK(kept_lo == doctest::Approx(lo).epsilon(1e-11));
          CHECK(kept_hi == doctest::Approx(hi).epsilon(1e-11));
        }
      }
    }
  }
  SUBCASE("wavelengths and the notes' d = 500 preset") {
    const auto presets = app::load_presets(app::assets_dir());
    core::Params q;
    app::find_preset(presets, "notes-sinusoidal-d500").apply(q);
    const fig::Figure f = lesson.figure("wavelengths", q);
    REQUIRE(f.series.size() == 4);  // base 10000 (the slider) + 100, 1000, 100000
    const double base[] = {10000, 100, 1000, 100000};
    const double longest[] = {60559.16359867378, 616.8504250936948, 6111.95106403516, 600039.5384955322};
    for (std::size_t b = 0; b < 4; ++b) {
      REQUIRE(f.series[b].y.size() == 500);
      CHECK(f.series[b].y.front() == doctest::Approx(2 * std::numbers::pi).epsilon(1e-14));
      CHECK(f.series[b].y.back() == doctest::Approx(longest[b]).epsilon(1e-12));
      CHECK(f.series[b].y[37] == doctest::Approx(2 * std::numbers::pi * std::pow(base[b], 36.0 / 500)).epsilon(1e-12));
    }
  }
  SUBCASE("wavelengths: what a larger base does is said only when several bases are drawn") {
    // Step 3 asks what raising b does: with one base on screen the figure must
    // not answer it ("for every b", "a larger b stretches the slow end").
    auto said = [](const fig::Figure& f) {
      int n = f.subtitle.find("stretches the slow end") != std::string::npos;
      for (const fig::RefLine& l : f.ref_lines) n += l.label.find("for every b") != std::string::npos;
      return n;
    };
    const fig::Figure one = lesson.figure("wavelengths", params({{"bases", "10000"}}));
    REQUIRE(one.series.size() == 1);
    CHECK(said(one) == 0);
    const fig::Figure two = lesson.figure("wavelengths", params({{"bases", "10000"}, {"base", "500000"}}));
    REQUIRE(two.series.size() == 2);
    CHECK(said(two) == 2);
    CHECK(two.series[0].y.front() == doctest::Approx(two.series[1].y.front()).epsilon(1e-14));  // the claim it makes
  }
  SUBCASE("dot: the closed form line, and real dot products on it") {
    const fig::Figure f = lesson.figure("dot", p);
    const fig::Series& line = f.series.at(0);
    REQUIRE(line.x.size() == 2 * 127 + 1);
    for (std::size_t i = 0; i < line.x.size(); i += 11)
      CHECK(line.y[i] == doctest::Approx(core::sinusoidal_dot_closed_form(line.x[i], 128, 1e4)).epsilon(1e-12));
    for (std::size_t a = 1; a <= 3; ++a)
      for (std::size_t i = 0; i < f.series[a].x.size(); ++i)
        CHECK(f.series[a].y[i] ==
              doctest::Approx(core::sinusoidal_dot_closed_form(f.series[a].x[i], 128, 1e4)).epsilon(1e-10).scale(64));
    // your (m, n) = (2, 5) only: its mirror is what step 6 asks about, not
    // drawn before the swap. Σᵢ cos(3·θᵢ) for d = 128, b = 10,000 is
    // 52.18622840719287 (numpy), printed in the subtitle to 4 digits.
    const fig::Series& now = f.series.at(4);
    REQUIRE(now.x.size() == 1);
    CHECK(now.x[0] == -3.0);
    CHECK(now.y[0] == doctest::Approx(52.18622840719287).epsilon(1e-12));
    CHECK(f.subtitle.find("m = 2, n = 5, r = −3: PE(m)·PE(n) = 52.19") != std::string::npos);
    CHECK(f.legend == fig::LegendPlace::none);  // the subtitle says what line and markers are
    // swapped: the marker moves to r = 3 at the same height
    core::Params swapped = p;
    swapped.set("m", 5.0);
    swapped.set("n", 2.0);
    const fig::Figure g = lesson.figure("dot", swapped);
    REQUIRE(g.series.at(4).x.size() == 1);
    CHECK(g.series.at(4).x[0] == 3.0);
    CHECK(g.series.at(4).y[0] == now.y[0]);
    CHECK(g.subtitle.find("m = 5, n = 2, r = 3: PE(m)·PE(n) = 52.19") != std::string::npos);
  }
  SUBCASE("dot at the largest sizes: offsets sampled per pixel column, on core's closed form") {
    const fig::Figure f = lesson.figure("dot", params({{"positions", "1048576"}, {"d", "1024"}}), 900);
    const fig::Series& line = f.series.at(0);
    CHECK(line.x.size() <= 2 * 900 + 1);
    CHECK(line.x.front() == -16384.0);
    CHECK(line.x.back() == 16384.0);
    CHECK(std::is_sorted(line.x.begin(), line.x.end()));
    auto has = [&](double k) { return std::find(line.x.begin(), line.x.end(), k) != line.x.end(); };
    const double stride = 19;  // ⌈16384 / 900⌉: two offsets per pixel column
    for (double k : {0.0, stride, 2 * stride, -stride, 862 * stride}) CHECK(has(k));
    CHECK(!has(stride + 1));
    CHECK(line.y[static_cast<std::size_t>(std::find(line.x.begin(), line.x.end(), 0.0) - line.x.begin())] == 512.0);
    // Between samples the line still passes through every marker: yours (m − n = −3) and the anchors'.
    for (std::size_t a = 1; a <= 4; ++a)
      for (double k : f.series[a].x) CHECK(has(k));
    for (std::size_t i = 0; i < line.x.size(); ++i) {
      CHECK(line.x[i] == std::floor(line.x[i]));
      // core's rotation kernel against the closed form: its documented bound.
      const double k = std::abs(line.x[i]);
      const double ulp = std::nextafter(k, INFINITY) - k;
      const double eps = std::numeric_limits<double>::epsilon() / 2;
      const double bound = 512 * (ulp + core::kSinusoidalDotReanchor * (stride + 4) * eps) + 2 * 512 * 512 * eps;
      CHECK(std::abs(line.y[i] - core::sinusoidal_dot_closed_form(line.x[i], 1024, 1e4)) <= bound);
    }
    for (std::size_t a = 1; a <= 3; ++a)
      for (std::size_t i = 0; i < f.series[a].x.size(); ++i)
        CHECK(f.series[a].y[i] ==
              doctest::Approx(core::sinusoidal_dot_closed_form(f.series[a].x[i], 1024, 1e4)).epsilon(1e-10).scale(512));
  }
  SUBCASE("shift matrix corner and the shift check") {
    const fig::Figure m = lesson.figure("shift_matrix", params({{"offset", "3"}}));
    const Eigen::MatrixXd ref = core::sinusoidal_shift_matrix(3, 128, 1e4);
    const fig::Heatmap& h = m.heatmaps.at(0);
    REQUIRE(h.cols == 16);
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c) CHECK(h.values[static_cast<std::size_t>(r * 16 + c)] == doctest::Approx(ref(r, c)).epsilon(1e-7));
    const fig::Figure s = lesson.figure("shift", params({{"m", "7"}, {"offset", "-11"}}));  // m + k < 0
    REQUIRE(s.series.size() == 3);
    for (std::size_t j = 0; j < 128; ++j) CHECK(s.series[2].y[j] == doctest::Approx(s.series[1].y[j]).epsilon(1e-12).scale(1));
    CHECK(s.series[1].y[0] == doctest::Approx(std::sin(-4.0)).epsilon(1e-15));
  }
  SUBCASE("the pair-by-pair shift (d > 512) equals core's matrix") {
    const fig::Figure s = lesson.figure("shift", params({{"d", "1024"}, {"m", "3.5"}, {"offset", "17"}}));
    const Eigen::VectorXd ref = core::sinusoidal_shift_matrix(17, 1024, 1e4) * core::sinusoidal_row<double>(3.5, 1024, 1e4);
    for (Eigen::Index j = 0; j < 1024; ++j) CHECK(s.series[2].y[static_cast<std::size_t>(j)] == doctest::Approx(ref[j]).epsilon(1e-14).scale(1));
    // 1024 dimensions leave no room for a marker each: lines, and the subtitle says so.
    for (const fig::Series& x : s.series) CHECK(x.kind == fig::SeriesKind::line);
    CHECK(s.subtitle.find("runs inside") != std::string::npos);
    const fig::Figure marked = lesson.figure("shift", params({{"d", "256"}}));
    CHECK(marked.series[2].kind == fig::SeriesKind::scatter);
    CHECK(marked.subtitle.find("markers") != std::string::npos);
    const fig::Figure m = lesson.figure("shift_matrix", params({{"d", "1024"}, {"offset", "17"}}));
    const Eigen::MatrixXd full = core::sinusoidal_shift_matrix(17, 1024, 1e4);
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c) CHECK(m.heatmaps[0].values[static_cast<std::size_t>(r * 16 + c)] == doctest::Approx(full(r, c)).epsilon(1e-7));
  }
  SUBCASE("d above core's 4096 shift-matrix limit") {
    const core::Params big = params({{"d", "8192"}, {"positions", "16"}});
    const fig::Figure m = lesson.figure("shift_matrix", big);
    const Eigen::MatrixXd small = core::sinusoidal_shift_matrix(3, 4096, 1e4);
    // Block 0 turns by ω_0·k = k for every d.
    CHECK(m.heatmaps[0].values[0] == doctest::Approx(small(0, 0)).epsilon(1e-7));
    CHECK(m.heatmaps[0].values[1] == doctest::Approx(small(0, 1)).epsilon(1e-7));
    CHECK(fig::all_finite(lesson.figure("shift", big)));
  }
}

TEST_CASE("sinusoidal lesson: CSV of the dot figure carries the closed form") {
  const std::string csv = app::figure_csv(lesson.figure("dot", params({{"positions", "4"}, {"d", "4"}})));
  // k = 0 gives d/2 = 2; k = 3 gives cos(3) + cos(0.03) = 0.009557537148542128.
  CHECK(csv.find(",0,2") != std::string::npos);
  CHECK(csv.find("0.00955753714854") != std::string::npos);
}

TEST_CASE("sinusoidal lesson tables") {
  SUBCASE("wavelengths: seed 003's d = 8 example, T_3 = 2π·1000") {
    core::Params p = params({{"d", "8"}});
    const app::Table t = test::table("sinusoidal-wavelengths", p);
    REQUIRE(t.rows.size() == 4);
    CHECK(test::number(t, 0, "wavelength") == doctest::Approx(6.283185307179586).epsilon(1e-15));
    CHECK(test::number(t, 3, "wavelength") == doctest::Approx(6283.185307179586).epsilon(1e-14));
    CHECK(test::number(t, 3, "omega") == doctest::Approx(1e-3).epsilon(1e-14));
    CHECK(test::number(t, 3, "dim_cos") == 7);
  }
  SUBCASE("dot: rows equal the closed form, whatever the anchor") {
    const app::Table t = test::table("sinusoidal-dot", params({{"n", "123456.5"}}));
    REQUIRE(t.rows.size() == 17);
    for (std::size_t r = 0; r < t.rows.size(); ++r) CHECK(std::abs(test::number(t, r, "difference")) < 1e-9);
    CHECK(test::number(t, 0, "dot_product") == doctest::Approx(64));
  }
  SUBCASE("shift: M(k)·PE(m) = PE(m + k)") {
    const app::Table t = test::table("sinusoidal-shift", params({{"m", "5"}, {"offset", "2.5"}}));
    REQUIRE(t.rows.size() == 128);
    CHECK(test::number(t, 0, "pe_m_plus_k") == doctest::Approx(std::sin(7.5)).epsilon(1e-15));
    for (std::size_t r = 0; r < t.rows.size(); ++r) CHECK(std::abs(test::number(t, r, "difference")) < 1e-14);
  }
  SUBCASE("dot refuses offsets past core's range, naming the key") {
    CHECK_THROWS_AS(test::table("sinusoidal-dot", params({{"distance", "2e9"}})),
                    core::InvalidParameter);
  }
}

TEST_CASE("sinusoidal lesson: matrices read from the top, hover names in the notation") {
  for (const char* id : {"heatmap", "shift_matrix"}) {
    CAPTURE(id);
    test::check_matrix_orientation(lesson.figure(id, {}));
  }
  const fig::Figure dot = lesson.figure("dot", {});
  for (const fig::Series& s : dot.series) {
    CAPTURE(s.name);
    CHECK(s.y_name.find("_{") == std::string::npos);
    CHECK(s.x_name.find('k') == std::string::npos);
  }
  CHECK(dot.series.front().y_name == "Σᵢ cos(θᵢ·r)");
  CHECK(dot.series.front().x_name == "r");  // a distance, not the shift Δ
  const fig::Figure shift = lesson.figure("shift", {});
  CHECK(shift.series.back().y_name == "M(Δ)·PE(m)");
  // turn: the same PE(m) and PE(m + Δ) without M(Δ), which its step has not introduced yet
  const fig::Figure turn = lesson.figure("turn", {});
  REQUIRE(turn.series.size() == 2);
  CHECK(turn.series[0].y == shift.series[0].y);
  CHECK(turn.series[1].y == shift.series[1].y);
  for (const std::string& text : {turn.title, turn.subtitle}) CHECK(text.find("M(") == std::string::npos);
}
