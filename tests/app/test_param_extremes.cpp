// No input crashes or lets a NaN through: for EVERY table and EVERY figure of
// every view, each parameter the table or view reads is set in turn to the
// edges of what core/src/params.cpp accepts — its smallest and largest value,
// the values next to them, and extreme-but-valid numbers such as the smallest
// positive double, 1e-300 and 1e300 where the bounds allow them. Each time the
// command either refuses with core::InvalidParameter (the CLI's exit 2, the
// GUI's inline message) or everything it produces is finite: table cells and
// meta, figure data, sampled heatmaps, the layout render_figure computes, and
// the lesson's readouts. Any other exception (the "holds a NaN or infinity"
// logic_error, a bad_alloc) is a failure.
//
// Alone, every key is tried at both its edges. In the random mixes of
// several keys at once, the keys whose largest value only costs time (a
// million positions times 8192 dimensions, a 10^6-step window, 10^4 samples)
// stay below that edge — listed in kOnlyCostsTime: bounding the work of such
// combinations is a matter of work budgets, not of representable numbers.

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "app/lessons/lesson.hpp"
#include "app/lessons/table.hpp"
#include "app/plot/render.hpp"
#include "app_test_support.hpp"

using namespace poslab;
namespace fig = poslab::app::fig;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTiny = std::numeric_limits<double>::denorm_min();  // 4.9e-324
constexpr double kSmallestNormal = std::numeric_limits<double>::min();  // 2.2e-308
constexpr double kHuge = std::numeric_limits<double>::max();

/// The upper edges that only cost time when combined with other large keys
/// (work budgets, not number ranges): key → why. Left out of the random
/// mixes only; each is tried alone at its largest value.
const std::vector<std::pair<std::string_view, std::string_view>> kOnlyCostsTime = {
    {"d", "8192 dimensions times every other size"},
    {"positions", "1,048,576 positions: an N-point sweep per figure"},
    {"window", "a 10^6-step shift sweep (7 s with d = 8192)"},
    {"samples", "10^4 random pairs per distance"},
};

bool only_costs_time(std::string_view key, double value, const core::ParamSpec& spec) {
  if (value < spec.max * 1e-3) return false;  // the low end is cheap
  for (const auto& entry : kOnlyCostsTime)
    if (entry.first == key) return true;
  return false;
}

bool is_numeric(const core::ParamSpec& s) {
  return s.type == core::ParamType::integer || s.type == core::ParamType::real;
}
bool is_sequence(const core::ParamSpec& s) {
  return s.type == core::ParamType::list || s.type == core::ParamType::vector;
}

/// The edges of what `spec` accepts, and extreme-but-valid numbers inside them.
std::vector<double> extremes(const core::ParamSpec& s) {
  const double lo = std::isfinite(s.min) ? (s.min_exclusive ? std::nextafter(s.min, kInf) : s.min) : -kHuge;
  const double hi = std::isfinite(s.max) ? (s.max_exclusive ? std::nextafter(s.max, -kInf) : s.max) : kHuge;
  std::vector<double> c = {lo,      hi,     std::nextafter(lo, kInf), std::nextafter(hi, -kInf),
                           kTiny,   -kTiny, kSmallestNormal,          -kSmallestNormal,
                           1e-300,  1e-154, 1e-100,                   1e-10,
                           0,       1,      -1,                       1e10,
                           1e100,   1e300,  -1e300,                   kHuge,
                           -kHuge};
  const bool whole = s.type == core::ParamType::integer || s.integral_items;
  std::vector<double> out;
  for (double x : c) {
    if (whole) {
      x = x >= 0 ? std::floor(x) : std::ceil(x);
      if (x < lo) x += 1;
      if (s.even && std::fmod(x, 2.0) != 0) x += x + 1 <= hi ? 1 : -1;
    }
    if (!(x >= lo && x <= hi)) continue;
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  }
  if (whole) {  // a step inside each edge
    for (double x : {lo + (s.even ? 2 : 1), hi - (s.even ? 2 : 1)})
      if (x >= lo && x <= hi && std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  }
  return out;
}

/// The values to try for `key`: a number, or for lists and vectors the
/// extreme as every item (as many as the key needs) and both edges together.
std::vector<core::ParamValue> values_for(const core::ParamSpec& s) {
  std::vector<core::ParamValue> out;
  const std::vector<double> xs = extremes(s);
  if (is_numeric(s)) {
    for (double x : xs) out.emplace_back(x);
    return out;
  }
  const std::size_t n = std::max<std::size_t>({s.min_items, std::size_t{1}, s.even ? std::size_t{2} : std::size_t{1}});
  for (double x : xs) out.emplace_back(std::vector<double>(n, x));
  if (xs.size() >= 2) {
    std::vector<double> both(std::max<std::size_t>(n, 2), xs[0]);
    both[1] = xs[1];
    if (both.size() <= s.max_items && (!s.even || both.size() % 2 == 0)) out.emplace_back(both);
  }
  return out;
}

/// Sets the keys that a relation ties to `key` (CONTRACT.md §2) so that the
/// extreme value is accepted: beta_fast > beta_slow, high_freq_factor >
/// low_freq_factor, bucket_max_distance above the exact range, head <= heads,
/// dims < d. Best effort: a partner that cannot follow leaves the refusal.
void make_room(core::Params& p, std::string_view key, const core::ParamValue& value) {
  const double* x = std::get_if<double>(&value);
  auto try_set = [&](std::string_view k, double v) {
    try {
      p.set(k, v);
    } catch (const core::InvalidParameter&) {
    }
  };
  if (x) {
    if (key == "beta_slow") try_set("beta_fast", std::min(*x * 2, core::param_spec("beta_fast").max));
    if (key == "beta_fast") try_set("beta_slow", *x / 2);
    if (key == "low_freq_factor") try_set("high_freq_factor", std::min(*x * 2, core::param_spec("high_freq_factor").max));
    if (key == "high_freq_factor") try_set("low_freq_factor", *x / 2);
    if (key == "buckets") try_set("bucket_max_distance", core::param_spec("bucket_max_distance").max);
    if (key == "bucket_max_distance" && *x <= 8) {
      try_set("buckets", 2);
      p.set("bidirectional", false);
    }
    if (key == "head") try_set("heads", *x);
    if (key == "heads") try_set("head", 1);
  }
  if (key == "dims") try_set("d", core::param_spec("d").max);
}

std::string shown(const core::ParamSpec& s, const core::ParamValue& v) {
  std::string text = core::format_param_value(s, v);
  if (text.size() > 60) text = text.substr(0, 60) + "...";
  return std::string(s.key) + "=" + text;
}

/// A painter that draws nothing and notes any non-finite coordinate or size.
class FinitePainter final : public fig::Painter {
 public:
  bool finite = true;
  void fill_rect(const fig::Rect& r, fig::Color) override { note(r); }
  void stroke_polyline(std::span<const fig::Point> pts, fig::Color, double width, fig::LineStyle) override {
    note(pts), note(width);
  }
  void fill_polygon(std::span<const fig::Point> pts, fig::Color) override { note(pts); }
  void fill_circle(fig::Point c, double radius, fig::Color) override { note(c.x), note(c.y), note(radius); }
  void text(fig::Point at, std::string_view, const fig::TextStyle&, fig::Anchor, fig::VAnchor, bool) override {
    note(at.x), note(at.y);
  }
  fig::Size measure(std::string_view utf8, const fig::TextStyle& style) override {
    return {0.6 * style.size * static_cast<double>(utf8.size()), style.size};
  }
  void heatmap(const fig::Rect& dst, const fig::ScalarRaster& raster) override {
    note(dst), note(raster.vmin), note(raster.vmax);
    for (std::size_t i = 0; i < raster.values.size(); ++i)
      if (!std::isfinite(raster.values[i]) && (raster.mask.empty() || !raster.mask[i])) finite = false;
  }
  void push_clip(const fig::Rect& r) override { note(r); }
  void pop_clip() override {}

 private:
  void note(double x) { finite = finite && std::isfinite(x); }
  void note(const fig::Rect& r) { note(r.x), note(r.y), note(r.w), note(r.h); }
  void note(std::span<const fig::Point> pts) {
    for (const fig::Point& p : pts) note(p.x), note(p.y);
  }
};

/// Every number a figure holds, its sampled heatmaps and its layout are finite.
bool figure_finite(const fig::Figure& f, std::string& why) {
  if (!fig::all_finite(f)) return why = "figure data", false;
  for (const fig::Heatmap& h : f.heatmaps) {
    if (h.is_matrix() || !h.sampler) continue;
    std::vector<double> xs, ys;
    for (int i = 0; i < 13; ++i) xs.push_back(h.x0 + (h.x1 - h.x0) * (i + 0.5) / 13);
    for (int i = 0; i < 7; ++i) ys.push_back(h.y0 + (h.y1 - h.y0) * (i + 0.5) / 7);
    std::vector<float> out(xs.size() * ys.size(), std::nanf(""));
    h.sampler(xs, ys, out);
    for (float v : out)
      if (!std::isfinite(v)) return why = "sampled heatmap", false;
  }
  // Every layout, including axes that span a few subnormals (q = 5e-324 in
  // rope-2d): tests/app/test_render.cpp covers the ticks of such spans.
  FinitePainter painter;
  fig::render_figure(f, painter, fig::Rect{0, 0, 320, 200}, fig::RenderStyle{});
  if (!painter.finite) return why = "layout", false;
  return true;
}

bool cell_finite(const app::Cell& c) {
  const double* x = std::get_if<double>(&c);
  return !x || std::isfinite(*x);
}

struct Tally {
  int tried = 0, refused = 0, built = 0;
};

/// Runs `build` on `p`; refusals are fine, anything else must be finite.
template <class Build>
void expect_refused_or_finite(Tally& tally, const std::string& where, Build build) {
  ++tally.tried;
  const auto start = std::chrono::steady_clock::now();
  try {
    std::string why;
    if (!build(why)) FAIL_CHECK(where << ": " << why << " holds a NaN or infinity");
    ++tally.built;
  } catch (const core::InvalidParameter&) {
    ++tally.refused;
  } catch (const std::exception& e) {
    FAIL_CHECK(where << ": " << std::string(e.what()));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (seconds > 0.5) MESSAGE(where << " took " << seconds << " s");
}

/// Every (key, value) to try for the keys `keys` reads; with `cheap`, not the
/// upper edges of kOnlyCostsTime.
std::vector<std::pair<std::string_view, core::ParamValue>> cases(const std::vector<std::string_view>& keys,
                                                                 bool cheap = false) {
  std::vector<std::pair<std::string_view, core::ParamValue>> out;
  for (std::string_view key : keys) {
    const core::ParamSpec& s = core::param_spec(key);
    if (!is_numeric(s) && !is_sequence(s)) continue;
    for (core::ParamValue& v : values_for(s)) {
      const double* x = std::get_if<double>(&v);
      const auto* items = std::get_if<std::vector<double>>(&v);
      const double biggest = x ? *x : (items && !items->empty() ? *std::max_element(items->begin(), items->end()) : 0);
      if (cheap && only_costs_time(key, biggest, s)) continue;
      out.emplace_back(key, std::move(v));
    }
  }
  return out;
}

/// Params with `key` = `value` (and its partners moved out of the way), or
/// nullopt when the value itself is refused (then nothing is left to build).
std::optional<core::Params> with(std::string_view key, const core::ParamValue& value) {
  core::Params p;
  try {
    p.set(key, value);
  } catch (const core::InvalidParameter&) {
    return std::nullopt;
  }
  make_room(p, key, value);
  return p;
}

/// Several keys at their edges at once: each key `keys` reads is set, with
/// probability 1/2, to one of its values_for (cheap ones), in random order of
/// keys; values a relation refuses are skipped.
core::Params random_mix(const std::vector<std::string_view>& keys, std::mt19937_64& rng) {
  core::Params p;
  std::vector<std::pair<std::string_view, core::ParamValue>> all = cases(keys, /*cheap=*/true);
  std::shuffle(all.begin(), all.end(), rng);
  std::set<std::string_view> done;
  for (const auto& kv : all) {
    if (done.count(kv.first) || std::uniform_int_distribution<int>(0, 1)(rng) == 0) continue;
    try {
      core::Params next = p;
      next.set(kv.first, kv.second);
      make_room(next, kv.first, kv.second);
      p = std::move(next);
      done.insert(kv.first);
    } catch (const core::InvalidParameter&) {
    }
  }
  return p;
}

std::string described(const core::Params& p) {
  std::string out;
  for (const std::string& k : p.set_keys()) out += " " + shown(core::param_spec(k), p.value(k));
  return out;
}

}  // namespace

TEST_CASE("the extremes of every parameter are values core can represent") {
  // The edges themselves are accepted by the parameter table: nothing here is
  // a refused value dressed up as an edge.
  for (const core::ParamSpec& s : core::param_specs()) {
    if (!is_numeric(s) && !is_sequence(s)) continue;
    CAPTURE(std::string(s.key));
    const std::vector<core::ParamValue> values = values_for(s);
    REQUIRE(!values.empty());
    CHECK_NOTHROW(core::check_param_value(s, values.front()));
    CHECK_NOTHROW(core::check_param_value(s, values[1 % values.size()]));
  }
}

TEST_CASE("every table at the extremes of every key it reads: refused or finite") {
  Tally tally;
  for (const app::TableDef& def : app::table_defs()) {
    for (const auto& kv : cases(def.keys)) {
      const std::string_view key = kv.first;
      const core::ParamValue& value = kv.second;
      const core::ParamSpec& spec = core::param_spec(key);
      const std::string where = "table " + std::string(def.id) + " " + shown(spec, value);
      const std::optional<core::Params> p = with(key, value);
      if (!p) continue;
      expect_refused_or_finite(tally, where, [&](std::string& why) {
        const app::Table t = app::build_table(def, *p);
        for (const auto& row : t.rows)
          for (const app::Cell& c : row)
            if (!cell_finite(c)) return why = "a cell", false;
        for (const auto& m : t.meta)
          if (!cell_finite(m.second)) return why = "meta " + m.first, false;
        return true;
      });
    }
  }
  MESSAGE("tables: " << tally.tried << " tried, " << tally.built << " built, " << tally.refused << " refused");
  CHECK(tally.built > tally.refused);
}

TEST_CASE("every figure and readout of every view at the extremes of every key it reads: refused or finite") {
  Tally tally;
  for (const app::ViewDef& view : app::view_defs()) {
    for (const auto& kv : cases(view.keys)) {
      const std::string_view key = kv.first;
      const core::ParamValue& value = kv.second;
      const core::ParamSpec& spec = core::param_spec(key);
      const std::optional<core::Params> p = with(key, value);
      if (!p) continue;
      for (const app::FigureDef& f : view.figures) {
        const std::string where = std::string(view.id) + "/" + std::string(f.id) + " " + shown(spec, value);
        expect_refused_or_finite(tally, where, [&](std::string& why) {
          return figure_finite(app::build_figure(view, f, *p, test::english(), 320, 200), why);
        });
      }
      if (view.readouts) {
        const std::string where = std::string(view.id) + " readouts " + shown(spec, value);
        expect_refused_or_finite(tally, where, [&](std::string& why) {
          for (const app::Readout& r : app::view_readouts(view, *p, test::english()))
            if (!std::isfinite(r.number)) return why = "readout " + r.label + " = " + r.value, false;
          return true;
        });
      }
    }
  }
  MESSAGE("figures and readouts: " << tally.tried << " tried, " << tally.built << " built, " << tally.refused
                                   << " refused");
  CHECK(tally.built > tally.refused);
}

TEST_CASE("every table, figure and readout at random mixes of extremes: refused or finite") {
  std::mt19937_64 rng(20261124);
  Tally tally;
  for (const app::TableDef& def : app::table_defs())
    for (int trial = 0; trial < 24; ++trial) {
      const core::Params p = random_mix(def.keys, rng);
      expect_refused_or_finite(tally, "table " + std::string(def.id) + described(p), [&](std::string& why) {
        const app::Table t = app::build_table(def, p);
        for (const auto& row : t.rows)
          for (const app::Cell& c : row)
            if (!cell_finite(c)) return why = "a cell", false;
        for (const auto& m : t.meta)
          if (!cell_finite(m.second)) return why = "meta " + m.first, false;
        return true;
      });
    }
  for (const app::ViewDef& view : app::view_defs())
    for (int trial = 0; trial < 16; ++trial) {
      const core::Params p = random_mix(view.keys, rng);
      const std::string mix = described(p);
      for (const app::FigureDef& f : view.figures)
        expect_refused_or_finite(tally, std::string(view.id) + "/" + std::string(f.id) + mix, [&](std::string& why) {
          return figure_finite(app::build_figure(view, f, p, test::english(), 320, 200), why);
        });
      if (view.readouts)
        expect_refused_or_finite(tally, std::string(view.id) + " readouts" + mix, [&](std::string& why) {
          for (const app::Readout& r : app::view_readouts(view, p, test::english()))
            if (!std::isfinite(r.number)) return why = "readout " + r.label + " = " + r.value, false;
          return true;
        });
    }
  MESSAGE("random mixes: " << tally.tried << " tried, " << tally.built << " built, " << tally.refused << " refused");
  CHECK(tally.built > 0);
}
