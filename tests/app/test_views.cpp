// Every figure of every view, at its defaults and at many random valid
// parameter settings: builds, holds no NaN/Inf (sampled heatmaps included),
// renders to a non-blank PNG, and every readout that checks an invariant holds.

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <set>

#include "app/export/figure_export.hpp"
#include "app/lessons/lesson.hpp"
#include "app/lessons/table.hpp"
#include "app_test_support.hpp"

using namespace poslab;
using app::ViewDef;
namespace fig = poslab::app::fig;

namespace {

/// A random valid value for `key` inside its slider range (typed values may
/// go further, but the slider range is what users sweep).
core::ParamValue random_value(const core::ParamSpec& s, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto in_range = [&](double lo, double hi) {
    if (s.scale != core::SliderScale::linear && lo > 0) return lo * std::pow(hi / lo, u(rng));
    return lo + (hi - lo) * u(rng);
  };
  switch (s.type) {
    case core::ParamType::boolean:
      return u(rng) < 0.5;
    case core::ParamType::choice: {
      const auto c = core::param_choices(s);
      return std::string(c[static_cast<std::size_t>(u(rng) * static_cast<double>(c.size())) % c.size()]);
    }
    case core::ParamType::integer: {
      double v = std::round(in_range(s.ui_min, s.ui_max));
      if (s.scale == core::SliderScale::pow2) v = std::pow(2.0, std::round(std::log2(std::max(2.0, v))));
      if (s.even && std::fmod(v, 2.0) != 0) v += 1;
      return std::clamp(v, s.min_exclusive ? s.min + 1 : s.min, s.max);
    }
    case core::ParamType::real: {
      double v = in_range(s.ui_min, s.ui_max);
      if (s.min_exclusive && v <= s.min) v = s.min + 1e-3;
      return v;
    }
    default:
      return core::parse_param_value(s, s.default_text.empty() ? "0:9" : s.default_text);
  }
}

/// Random parameters for a view that pass its relation checks (retry a few times).
core::Params random_params(const ViewDef& view, std::mt19937_64& rng) {
  for (int attempt = 0; attempt < 50; ++attempt) {
    core::Params p;
    for (std::string_view key : view.keys) {
      const core::ParamSpec& s = core::param_spec(key);
      if (s.type == core::ParamType::list || s.type == core::ParamType::vector) continue;
      try {
        p.set(key, random_value(s, rng));
      } catch (const core::InvalidParameter&) {
      }
    }
    // Keep big sweeps affordable in a unit test.
    if (p.is_set("positions") && p.integer("positions") > 4096) p.set("positions", 4096.0);
    if (p.is_set("d") && p.integer("d") > 256) p.set("d", 256.0);
    try {
      return app::resolve_view_params(view, p);
    } catch (const core::InvalidParameter&) {
    }
  }
  return app::resolve_view_params(view, core::Params{});
}

void check_figure(const fig::Figure& f, const std::string& where) {
  CAPTURE(where);
  CHECK(fig::all_finite(f));
  CHECK(!f.title.empty());
  for (const fig::Heatmap& h : f.heatmaps) {
    if (h.is_matrix()) {
      CHECK(h.values.size() == static_cast<std::size_t>(h.cols) * static_cast<std::size_t>(h.rows));
      continue;
    }
    REQUIRE(h.sampler);
    // Sample a 37 × 23 grid over the heatmap: every value finite.
    std::vector<double> xs, ys;
    for (int i = 0; i < 37; ++i) xs.push_back(h.x0 + (h.x1 - h.x0) * (i + 0.5) / 37);
    for (int i = 0; i < 23; ++i) ys.push_back(h.y0 + (h.y1 - h.y0) * (i + 0.5) / 23);
    std::vector<float> out(xs.size() * ys.size(), std::nanf(""));
    h.sampler(xs, ys, out);
    for (float v : out) CHECK(std::isfinite(v));
  }
}

}  // namespace

TEST_CASE("the lesson list has unique ids and every figure and table it names exists") {
  std::set<std::string> ids;
  for (const ViewDef& v : app::view_defs()) {
    CAPTURE(std::string(v.id));
    CHECK(ids.insert(std::string(v.id)).second);
    CHECK((v.group == "absolute" || v.group == "relative" || v.group == "rotary" || v.group == "extension" ||
           v.group == "models"));
    CHECK(!v.figures.empty());
    std::set<std::string> figs;
    for (const auto& f : v.figures) CHECK(figs.insert(std::string(f.id)).second);
    for (std::string_view t : v.tables) CHECK(app::find_table(t) != nullptr);
    for (std::string_view k : v.keys) CHECK(core::find_param(k) != nullptr);
    CHECK_NOTHROW(app::resolve_view_params(v, core::Params{}));
    CHECK(test::english().has(std::string(v.id) + ".title"));
    CHECK(test::english().has(std::string(v.id) + ".text"));
  }
}

TEST_CASE("every figure at its view's defaults: finite, titled, renders a non-blank PNG") {
  for (const ViewDef& v : app::view_defs())
    for (const auto& f : v.figures) {
      const std::string where = std::string(v.id) + "/" + std::string(f.id);
      const fig::Figure figure = app::build_figure(v, f, core::Params{}, test::english());
      check_figure(figure, where);
      app::ExportOptions o;
      o.width = 640;
      o.height = 400;
      const auto png = test::decode_png(app::render_png(figure, o));
      CAPTURE(where);
      CHECK(png.ok);
      CHECK(png.width == 640);
      CHECK(png.height == 400);
      CHECK(png.distinct_colours > 3);
    }
}

TEST_CASE("every matrix heatmap reads like a matrix: row 0 at the top, in every lesson") {
  // A heatmap whose rows are positions, dimensions or matrix rows is written
  // the way a table is: the first row at the top (the y axis reversed).
  int heatmaps = 0;
  for (const ViewDef& v : app::view_defs())
    for (const auto& f : v.figures) {
      const fig::Figure figure = app::build_figure(v, f, core::Params{}, test::english());
      if (figure.heatmaps.empty()) continue;
      CAPTURE(std::string(v.id) + "/" + std::string(f.id));
      ++heatmaps;
      CHECK(figure.y.scale == fig::AxisScale::linear);
      for (const fig::Heatmap& h : figure.heatmaps) {
        if (h.rows <= 1) continue;  // a labelled strip (rope's two layouts), not a matrix
        // Row 0 covers y from y0 towards y1. It is drawn at the top when the
        // axis is reversed and y1 > y0, or not reversed and y1 < y0.
        REQUIRE(h.y1 != h.y0);
        CHECK(figure.y.reversed == (h.y1 > h.y0));
      }
    }
  CHECK(heatmaps >= 10);
}

TEST_CASE("every figure and readout over random parameters") {
  std::mt19937_64 rng(20261121);
  for (const ViewDef& v : app::view_defs()) {
    for (int trial = 0; trial < 12; ++trial) {
      const core::Params p = random_params(v, rng);
      std::string where = std::string(v.id) + " with";
      for (const auto& k : p.set_keys()) where += " " + k + "=" + core::format_param_value(core::param_spec(k), p.value(k));
      CAPTURE(where);
      for (const auto& f : v.figures) {
        fig::Figure figure;
        REQUIRE_NOTHROW(figure = app::build_figure(v, f, p, test::english(), 640, 400));
        check_figure(figure, where + " / " + std::string(f.id));
      }
      for (const app::Readout& r : app::view_readouts(v, p, test::english())) {
        CAPTURE(r.label);
        CAPTURE(r.value);
        CHECK(std::isfinite(r.number));
        if (r.holds) CHECK(*r.holds);
      }
    }
  }
}

TEST_CASE("readouts at the defaults hold") {
  for (const ViewDef& v : app::view_defs())
    for (const app::Readout& r : app::view_readouts(v, core::Params{}, test::english())) {
      CAPTURE(std::string(v.id));
      CAPTURE(r.label);
      CHECK(!r.label.empty());
      CHECK(!r.value.empty());
      if (r.holds) CHECK(*r.holds);
    }
}
