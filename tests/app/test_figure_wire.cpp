// app/plot/figure_wire.hpp: a Figure as bytes and back — how a figure built
// in the page's Web Worker reaches the page (issue 31). Every figure of every
// lesson crosses unchanged (re-encoding the decoded figure gives the same
// bytes; every number bit for bit); a sampler heatmap crosses as the raster
// sampled for the screen, and the decoded heatmap answers from it; bytes that
// are not a whole figure are refused, never misread.

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "app/lessons/lesson.hpp"
#include "app/plot/figure_wire.hpp"
#include "app_test_support.hpp"

using namespace poslab;
namespace fig = poslab::app::fig;
namespace wire = poslab::app::fig::wire;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// A figure with every field away from its default, and edge values.
fig::Figure every_field() {
  fig::Figure f;
  f.id = "everything";
  f.title = "Wavelength λᵢ = 2π/θᵢ — 波长";
  f.subtitle = "d = 128 · b = 10,000";
  f.x = {"pair i", "", fig::AxisScale::symlog, -3.5, 1e300, fig::TickFormat::pi, {{0, "0"}, {3.14, "π"}}, true, false};
  f.y = {"λ", "tokens", fig::AxisScale::log, std::nullopt, 4096, fig::TickFormat::scientific, {}, false, true};
  f.x.label_without_cell_numbers = "pair";
  fig::Series s;
  s.name = "θ";
  s.kind = fig::SeriesKind::stems;
  s.x = {0, 1, 2, std::numeric_limits<double>::denorm_min()};
  s.y = {1, -0.0, 1e-308, std::numeric_limits<double>::max()};
  s.color = fig::Color{0.1f, 0.2f, 0.3f, 0.4f};
  s.width = 3.5f;
  s.style = fig::LineStyle::dotted;
  s.marker = 0;
  s.extra = {{"λ", "tokens", {6.28, 7, 8, 9}}, {"", "", {}}};
  s.x_name = "i";
  s.y_name = "θᵢ";
  s.data_name = "hand tips";
  s.described = "A frame around the hand's tip.";
  s.decoration = true;
  auto pts = std::make_shared<fig::ScreenPoints>();
  pts->x = {0, 2};
  pts->y = {1, 1e-308};
  pts->u0 = -1, pts->u1 = 2, pts->buckets = 16;
  s.screen = pts;
  f.series.push_back(s);
  f.series.push_back({});  // every default
  fig::Heatmap m;
  m.x0 = -0.5, m.x1 = 2.5, m.y0 = 0, m.y1 = 1;
  m.cols = 3, m.rows = 2;
  m.values = {1, 2, 3, 4, 5, std::numeric_limits<float>::infinity()};
  m.mask = {0, 0, 0, 0, 0, 1};
  m.colormap = fig::Colormap::signed_;
  m.vmin = -6, m.vmax = 6;
  m.value_name = "A(m, n)";
  m.x_name = "n";
  m.y_name = "m";
  f.heatmaps.push_back(m);
  f.ref_lines = {{fig::Orientation::horizontal, 4096, "L = 4,096", fig::Color{1, 0, 0, 1}, fig::LineStyle::solid}, {}};
  f.bands = {{fig::Orientation::vertical, 1, 2, "ramp", std::nullopt, true}};
  f.notes = {{1, 2, "note", fig::Anchor::right, fig::Color{0, 0, 0, 0.5f}}};
  f.arrows = {{0, 0, 1, 1, "shift", std::nullopt}};
  f.legend = fig::LegendPlace::none;
  f.equal_aspect = true;
  f.key_numbers = "46 pairs below L = 4,096";
  f.description = "Wavelength λ against pair i (描述)";
  return f;
}

/// The figure decoded from `bytes` encodes to the same bytes.
void check_round_trip(const std::string& bytes) {
  const fig::Figure back = wire::decode_figure(bytes);
  CHECK(wire::encode_figure(back) == bytes);
}

}  // namespace

TEST_CASE("figure wire: every field crosses, numbers bit for bit") {
  const fig::Figure f = every_field();
  const std::string bytes = wire::encode_figure(f);
  const fig::Figure g = wire::decode_figure(bytes);
  CHECK(wire::encode_figure(g) == bytes);
  CHECK(g.id == f.id);
  CHECK(g.title == f.title);
  CHECK(g.subtitle == f.subtitle);
  CHECK(g.x.scale == fig::AxisScale::symlog);
  CHECK(*g.x.min == -3.5);
  CHECK(g.x.format == fig::TickFormat::pi);
  CHECK(g.x.ticks == f.x.ticks);
  CHECK(g.x.label_without_cell_numbers == "pair");
  CHECK(g.x.tight);
  CHECK_FALSE(g.y.min.has_value());
  CHECK(g.y.reversed);
  REQUIRE(g.series.size() == 2);
  const fig::Series& s = g.series[0];
  REQUIRE(s.x.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(same_bits(s.x[i], f.series[0].x[i]));
    CHECK(same_bits(s.y[i], f.series[0].y[i]));  // -0.0 stays -0.0
  }
  CHECK(*s.color == *f.series[0].color);
  CHECK(s.kind == fig::SeriesKind::stems);
  CHECK(s.style == fig::LineStyle::dotted);
  CHECK(s.data_name == "hand tips");
  CHECK(s.described == "A frame around the hand's tip.");  // the CSV's name of a series without a legend entry
  CHECK(s.decoration);
  CHECK_FALSE(g.series[1].decoration);
  CHECK(s.extra.size() == 2);
  CHECK(s.extra[0].values == f.series[0].extra[0].values);
  REQUIRE(s.screen);
  CHECK(s.screen->x == f.series[0].screen->x);
  CHECK(s.screen->buckets == 16);
  CHECK_FALSE(g.series[1].color.has_value());
  CHECK_FALSE(g.series[1].screen);
  REQUIRE(g.heatmaps.size() == 1);
  const fig::Heatmap& h = g.heatmaps[0];
  CHECK(h.is_matrix());
  CHECK(h.mask == f.heatmaps[0].mask);
  CHECK(std::isinf(h.values[5]));
  CHECK(h.value_at(0, 0.25) == 1.0f);
  CHECK(h.value_at(2, 0.75) == std::nullopt);  // masked
  CHECK(g.ref_lines.size() == 2);
  CHECK(g.ref_lines[0].label == "L = 4,096");
  CHECK(g.bands[0].label_top);
  CHECK(g.notes[0].anchor == fig::Anchor::right);
  CHECK(g.arrows[0].label == "shift");
  CHECK(g.legend == fig::LegendPlace::none);
  CHECK(g.equal_aspect);
  CHECK(g.key_numbers == f.key_numbers);
  CHECK(g.description == f.description);
}

TEST_CASE("figure wire: every figure of every lesson crosses unchanged, sampled heatmaps as their raster") {
  const app::Translator& tr = test::english();
  int samplers = 0, figures = 0;
  for (const app::ViewDef& v : app::view_defs())
    for (const app::FigureDef& def : v.figures) {
      CAPTURE(v.id);
      CAPTURE(def.id);
      // As the worker sends it: built for a 700 × 420 plot on a 1.5× screen.
      fig::Figure f = app::build_figure(v, def, core::Params{}, tr, 700, 420);
      fig::prepare_for_screen(f, 700, 420, 1.5);
      const std::string bytes = wire::encode_figure(f);
      const fig::Figure g = wire::decode_figure(bytes);
      CHECK(wire::encode_figure(g) == bytes);
      ++figures;
      REQUIRE(g.series.size() == f.series.size());
      for (std::size_t i = 0; i < f.series.size(); ++i) {
        CHECK(g.series[i].x.size() == f.series[i].x.size());
        CHECK(g.series[i].y.size() == f.series[i].y.size());
        CHECK(g.series[i].name == f.series[i].name);  // what the page's CSV export names each row
        CHECK(g.series[i].data_name == f.series[i].data_name);
        CHECK(g.series[i].described == f.series[i].described);
        CHECK(g.series[i].decoration == f.series[i].decoration);
        if (!f.series[i].y.empty())  // (an empty vector's data() may be null: no memcmp on it)
          CHECK(std::memcmp(g.series[i].y.data(), f.series[i].y.data(), f.series[i].y.size() * sizeof(double)) == 0);
      }
      REQUIRE(g.heatmaps.size() == f.heatmaps.size());
      for (std::size_t k = 0; k < f.heatmaps.size(); ++k) {
        const fig::Heatmap& a = f.heatmaps[k];
        const fig::Heatmap& b = g.heatmaps[k];
        if (a.is_matrix()) {
          CHECK(b.values == a.values);
          continue;
        }
        if (!a.screen) continue;  // (not sampled ahead: the page builds such a figure itself)
        ++samplers;
        REQUIRE(b.screen);
        CHECK(b.screen->values == a.screen->values);
        REQUIRE(b.sampler);
        // At each lattice cell the decoded heatmap answers what the builder's sampler does.
        const fig::ScreenRaster& sr = *a.screen;
        if (sr.x_lattice && sr.y_lattice) {
          std::mt19937 rng(7);
          for (int t = 0; t < 50; ++t) {
            const int c = static_cast<int>(rng() % static_cast<unsigned>(sr.nx));
            const int r = static_cast<int>(rng() % static_cast<unsigned>(sr.ny));
            const double x = a.x0 + (c + 0.5) * (a.x1 - a.x0) / sr.nx, y = a.y0 + (r + 0.5) * (a.y1 - a.y0) / sr.ny;
            const auto want = a.value_at(x, y), got = b.value_at(x, y);
            REQUIRE(want.has_value());
            REQUIRE(got.has_value());
            CHECK((*got == *want || (std::isnan(*got) && std::isnan(*want))));
          }
        }
        // The raster's own grid points answer their own values, in any case.
        std::vector<double> xs(1), ys(1);
        std::vector<float> out(1);
        for (int r = 0; r < sr.ny; r += std::max(1, sr.ny / 7))
          for (int c = 0; c < sr.nx; c += std::max(1, sr.nx / 7)) {
            auto centre = [](double lo, double hi, fig::AxisScale s, int n, int i, bool lattice) {
              if (lattice) return lo + (i + 0.5) * (hi - lo) / n;
              const double a0 = fig::axis_forward(lo, s), a1 = fig::axis_forward(hi, s);
              return fig::axis_inverse(a0 + (i + 0.5) * (a1 - a0) / n, s);
            };
            xs[0] = centre(a.x0, a.x1, f.x.scale, sr.nx, c, sr.x_lattice);
            ys[0] = centre(a.y0, a.y1, f.y.scale, sr.ny, r, sr.y_lattice);
            b.sampler(xs, ys, out);
            const float want = sr.values[static_cast<std::size_t>(r) * static_cast<std::size_t>(sr.nx) + static_cast<std::size_t>(c)];
            CHECK((out[0] == want || (std::isnan(out[0]) && std::isnan(want))));
          }
      }
    }
  CHECK(figures > 40);
  CHECK(samplers >= 5);  // the sampler heatmaps of sinusoidal, learned, relative, t5, alibi, gaussian
}

TEST_CASE("figure wire: for the screen a long line crosses as its screen points, each a point of the data") {
  // A million-point line with an extra column, on a 700-pixel plot.
  fig::Figure f;
  f.x.scale = fig::AxisScale::log;
  fig::Series s;
  const std::size_t n = 1'000'000;
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0, 1);
  for (std::size_t i = 0; i < n; ++i) {
    s.x.push_back(static_cast<double>(i + 1));
    s.y.push_back(std::sin(static_cast<double>(i) * 1e-4) + 0.1 * noise(rng));
  }
  s.extra = {{"λ", "tokens", s.x}, {"short", "", {1, 2, 3}}};
  f.series = {s, fig::Series{}};
  fig::prepare_for_screen(f, 700);
  REQUIRE(f.series[0].screen);
  const fig::ScreenPoints& sp = *f.series[0].screen;
  const std::string full = wire::encode_figure(f), small = wire::encode_figure(f, true);
  CHECK(small.size() * 20 < full.size());
  const fig::Figure g = wire::decode_figure(small);
  const fig::Series& t = g.series[0];
  CHECK(t.x == sp.x);
  CHECK(t.y == sp.y);
  REQUIRE(t.screen);
  CHECK(t.screen->x == sp.x);
  CHECK(t.screen->buckets == sp.buckets);
  // Every point kept is a point of the data, with its extra column's value.
  REQUIRE(t.extra.size() == 2);
  REQUIRE(t.extra[0].values.size() == t.x.size());
  // (x is the index + 1 here, so the extra column λ = x must come along exactly.)
  for (std::size_t k = 0; k < t.x.size(); ++k) {
    const auto i = static_cast<std::size_t>(t.x[k]) - 1;
    REQUIRE(i < n);
    CHECK(t.y[k] == s.y[i]);
    CHECK(t.extra[0].values[k] == s.extra[0].values[i]);
  }
  CHECK(t.extra[1].values.empty());  // a column without a value for every kept point: none
  // The same picture: the same data range, the same points drawn when not zoomed in.
  const fig::DataRange a = fig::data_range(f), b = fig::data_range(g);
  CHECK(a.x_min == b.x_min);
  CHECK(a.x_max == b.x_max);
  CHECK(a.y_min == b.y_min);
  CHECK(a.y_max == b.y_max);
  // Sent on again (the page's figure re-encoded), the same bytes.
  CHECK(wire::encode_figure(g, true) == small);
  // Short lines cross whole either way.
  CHECK(g.series[1].x.empty());
}

TEST_CASE("figure wire: bytes that are not a whole figure are refused") {
  const std::string bytes = wire::encode_figure(every_field());
  check_round_trip(bytes);
  // Cut anywhere: refused.
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    CAPTURE(n);
    CHECK_THROWS_AS(wire::decode_figure(std::string_view(bytes).substr(0, n)), std::runtime_error);
  }
  CHECK_THROWS_AS(wire::decode_figure(bytes + '\0'), std::runtime_error);  // something after it
  std::string other = bytes;
  other[3] = '9';  // another format version
  CHECK_THROWS_AS(wire::decode_figure(other), std::runtime_error);
  // Random damage: refused or read as some figure — never a crash, never a
  // read past the end (the sanitizer build checks that).
  std::mt19937 rng(31);
  int refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string damaged = bytes;
    for (int k = 0; k < 3; ++k) damaged[rng() % damaged.size()] = static_cast<char>(rng() % 256);
    try {
      (void)wire::decode_figure(damaged);
    } catch (const std::runtime_error&) {
      ++refused;
    }
  }
  CHECK(refused > 100);
  // A count claiming more items than the bytes hold is refused before anything is allocated.
  wire::Writer w;
  w.u32(0xffffffffu);
  const std::string claim = w.take();  // the Reader views its bytes: they must outlive it
  wire::Reader r(claim);
  CHECK_THROWS_AS(r.doubles(), std::runtime_error);
}
