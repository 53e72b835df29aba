// The shared renderer: ticks, number formats, decimation, layout transforms,
// hover readouts.

#include <doctest/doctest.h>

#include <tuple>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>
#include <random>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "app/common/assets.hpp"
#include "app/common/i18n.hpp"
#include "app/plot/render.hpp"

using namespace poslab::app::fig;

TEST_CASE("linear ticks are nice steps covering the range") {
  const auto t = make_ticks(0, 1024, AxisScale::linear, TickFormat::automatic, 6);
  REQUIRE(t.size() >= 4);
  const double step = t[1].value - t[0].value;
  for (std::size_t i = 1; i < t.size(); ++i) CHECK(t[i].value - t[i - 1].value == doctest::Approx(step));
  const double mant = step / std::pow(10.0, std::floor(std::log10(step)));
  CHECK((mant == doctest::Approx(1) || mant == doctest::Approx(2) || mant == doctest::Approx(5)));
  CHECK(t.front().value >= 0);
  CHECK(t.back().value <= 1024);
  CHECK(t[0].label == "0");
  // thousands separators on large integers
  const auto big = make_ticks(0, 40000, AxisScale::linear, TickFormat::integer, 4);
  bool has_comma = false;
  for (const auto& k : big) has_comma = has_comma || k.label.find(',') != std::string::npos;
  CHECK(has_comma);
}

TEST_CASE("ticks over random ranges stay inside, ordered and labelled") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-6, 6);
  for (int trial = 0; trial < 500; ++trial) {
    const double a = std::pow(10.0, u(rng)) * (u(rng) < 0 ? -1 : 1);
    const double b = a + std::pow(10.0, u(rng));
    const auto t = make_ticks(a, b, AxisScale::linear, TickFormat::automatic, 5);
    CAPTURE(a);
    CAPTURE(b);
    CHECK(t.size() >= 2);
    CHECK(t.size() <= 12);
    for (std::size_t i = 0; i < t.size(); ++i) {
      CHECK(t[i].value >= a - (b - a) * 1e-9);
      CHECK(t[i].value <= b + (b - a) * 1e-9);
      CHECK(!t[i].label.empty());
      if (i) CHECK(t[i].value > t[i - 1].value);
    }
  }
}

TEST_CASE("ticks at spans doubles barely resolve: finite, ordered, labelled, no undefined conversion") {
  // A figure whose data span a few subnormals (q = 5e-324,5e-324 in rope-2d)
  // or ends near ±1.8e308 used to make the step 0 or infinite and convert
  // inf to int in format_tick (UBSan). Each case here runs under UBSan in the
  // sanitizer build; the labels must be numbers, never "nan" or "inf".
  constexpr double kTiny = std::numeric_limits<double>::denorm_min();
  constexpr double kMax = std::numeric_limits<double>::max();
  const std::vector<std::pair<double, double>> spans = {
      {0, kTiny},          {0, 7 * kTiny},      {-kTiny, kTiny},     {1, std::nextafter(1.0, 2.0)},
      {1e-300, 2e-300},    {0, 1e-300},         {1e-310, 3e-310},    {-kMax, kMax},
      {1e300, kMax},       {-kMax, -1e300},     {0, kMax},           {1e18, 1e18 + 4096},
      {9e18, 1e19},        {-1e19, -9e18},      {1e300, 1.0000000000001e300}};
  for (const auto& span : spans)
    for (TickFormat format : {TickFormat::automatic, TickFormat::integer, TickFormat::scientific, TickFormat::pi}) {
      CAPTURE(span.first);
      CAPTURE(span.second);
      CAPTURE(static_cast<int>(format));
      const auto t = make_ticks(span.first, span.second, AxisScale::linear, format, 5);
      // Integer ticks over a span below 1 may be none (no integer inside).
      if (format != TickFormat::integer) REQUIRE(t.size() >= 2);
      CHECK(t.size() <= 1001);
      for (std::size_t i = 0; i < t.size(); ++i) {
        CHECK(std::isfinite(t[i].value));
        CHECK(!t[i].label.empty());
        CHECK(t[i].label.find("nan") == std::string::npos);
        CHECK(t[i].label.find("inf") == std::string::npos);
        if (i) CHECK(t[i].value > t[i - 1].value);
      }
    }
  // The two ends, as numbers, when no round step fits.
  const auto ends = make_ticks(0, kTiny, AxisScale::linear, TickFormat::automatic, 5);
  REQUIRE(ends.size() == 2);
  CHECK(ends[0].label == "0");
  CHECK(ends[1].label == "4.94e-324");
  // Integer ticks beyond 2^53 in %g form (llround would leave long long).
  const auto huge = make_ticks(0, 1e300, AxisScale::linear, TickFormat::integer, 4);
  CHECK(huge.back().label.find("e") != std::string::npos);
}

TEST_CASE("log ticks are decades with superscript labels") {
  const auto t = make_ticks(1e-4, 1e5, AxisScale::log, TickFormat::automatic, 8);
  int labelled = 0;
  for (const auto& k : t) {
    if (k.label.empty()) continue;
    ++labelled;
    const double e = std::log10(k.value);
    CHECK(e == doctest::Approx(std::round(e)));
    CHECK(k.label.rfind("10", 0) == 0);
  }
  CHECK(labelled >= 5);
  const auto few = make_ticks(3, 40, AxisScale::log, TickFormat::automatic, 6);
  CHECK(few.size() >= 3);  // 5, 10, 20 at least
  // Two powers of ten inside a range padded past a third (t5's usage, N = 1 … 64,
  // drawn from 0.9 to 70): 2 and 5 labelled too, not "1" and "10" alone.
  for (const int target : {2, 3, 6}) {
    CAPTURE(target);
    std::vector<std::string> labels;
    for (const auto& k : make_ticks(0.9, 70, AxisScale::log, TickFormat::integer, target))
      if (!k.label.empty()) labels.push_back(k.label);
    CHECK(labels == std::vector<std::string>{"1", "2", "5", "10", "20", "50"});
  }
}

TEST_CASE("polyline simplification: a subsequence with the same ends, within the tolerance of every point") {
  std::mt19937_64 rng(65);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 200; ++trial) {
    const int kind = trial % 5;  // straight, smooth, oscillating, noisy, with steps back and verticals
    const std::size_t n = 2 + static_cast<std::size_t>(u(rng) * 5000);
    const double tol = 0.05 + u(rng) * 0.5, a = u(rng) * 4 - 2, f = 0.001 + u(rng) * 0.05;
    std::vector<Point> pts;
    double x = u(rng) * 10;
    for (std::size_t i = 0; i < n; ++i) {
      x += kind == 4 && u(rng) < 0.05 ? (u(rng) < 0.5 ? 0.0 : -u(rng)) : 0.01 + u(rng) * 0.3;
      const double y = kind == 0 ? a * x + 3
                     : kind == 1 ? 200 * std::exp(-x * f)
                     : kind == 2 ? 80 * std::sin(x * f * 20)
                                 : 50 * std::sin(x * f) + (kind == 3 ? u(rng) * 3 : 0);
      pts.push_back({x, y});
    }
    const auto out = simplify_polyline(pts, tol);
    CAPTURE(trial);
    CAPTURE(n);
    REQUIRE(out.size() >= std::min<std::size_t>(2, n));
    CHECK(out.front().x == pts.front().x);
    CHECK(out.front().y == pts.front().y);
    CHECK(out.back().x == pts.back().x);
    CHECK(out.back().y == pts.back().y);
    if (kind == 0) CHECK(out.size() <= 2 + n / 1000);  // a straight line: its ends (rounding aside)
    // A subsequence: walk both; every left-out point lies between two kept
    // ones with x increasing, within tol of their segment (vertically).
    std::size_t k = 0;
    int far = 0, not_subsequence = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (k < out.size() && out[k].x == pts[i].x && out[k].y == pts[i].y) {
        ++k;
        continue;
      }
      if (k == 0 || k >= out.size()) {
        ++not_subsequence;
        continue;
      }
      const Point p = out[k - 1], q = out[k];
      if (!(q.x > p.x) || pts[i].x <= p.x || pts[i].x >= q.x) {
        ++far;
        continue;
      }
      const double on = p.y + (q.y - p.y) * (pts[i].x - p.x) / (q.x - p.x);
      far += std::abs(on - pts[i].y) > tol * (1 + 1e-9) + 1e-9;
    }
    CHECK(k == out.size());
    CHECK(not_subsequence == 0);
    CHECK(far == 0);
  }
}

TEST_CASE("readouts: exact integers with separators, small numbers in e-notation") {
  CHECK(format_readout(19600) == "19,600");
  CHECK(format_readout(-1234567) == "−1,234,567");
  CHECK(format_readout(3.2e-4) == "3.200e-4");
  CHECK(format_readout(0.5) == "0.5");
  CHECK(format_readout(std::nan("")) == "—");
}

TEST_CASE("per-pixel-column decimation keeps each column's extremes and ends") {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g(0, 1);
  std::vector<Point> pts;
  for (int i = 0; i < 100000; ++i) pts.push_back({i * 0.004, g(rng)});  // 400 columns
  const auto d = decimate_columns(pts);
  CHECK(d.size() <= 4 * 401);
  CHECK(d.front().x == pts.front().x);
  CHECK(d.back().x == pts.back().x);
  // For every column the min and max survive.
  for (int c = 0; c < 400; c += 37) {
    double lo = 1e9, hi = -1e9, dlo = 1e9, dhi = -1e9;
    for (const auto& p : pts)
      if (std::floor(p.x) == c) lo = std::min(lo, p.y), hi = std::max(hi, p.y);
    for (const auto& p : d)
      if (std::floor(p.x) == c) dlo = std::min(dlo, p.y), dhi = std::max(dhi, p.y);
    CHECK(dlo == lo);
    CHECK(dhi == hi);
  }
}

TEST_CASE("layout transforms invert on linear and log axes") {
  PlotLayout L;
  L.plot = {100, 50, 800, 400};
  L.range = {1, 1e4, -2, 2};
  L.x_scale = AxisScale::log;
  for (double x : {1.0, 3.0, 100.0, 9999.0}) CHECK(L.from_px_x(L.to_px_x(x)) == doctest::Approx(x));
  for (double y : {-2.0, 0.0, 1.5}) CHECK(L.from_px_y(L.to_px_y(y)) == doctest::Approx(y));
  CHECK(L.to_px_y(2) == doctest::Approx(50));   // top
  CHECK(L.to_px_y(-2) == doctest::Approx(450)); // bottom
  CHECK(std::isnan(L.to_px_x(-1)));              // not on a log axis
}

TEST_CASE("symmetric-log axes: odd, invertible, linear-ish near 0, log far out") {
  PlotLayout L;
  L.plot = {0, 0, 1000, 400};
  L.range = {-1e6, 1e6, 0, 1};
  L.x_scale = AxisScale::symlog;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> e(-6, 6);
  for (int k = 0; k < 500; ++k) {
    const double x = std::copysign(std::pow(10.0, std::abs(e(rng))) - 1, e(rng));
    CHECK(L.from_px_x(L.to_px_x(x)) == doctest::Approx(x).epsilon(1e-9));
    CHECK(L.to_px_x(-x) - 500 == doctest::Approx(500 - L.to_px_x(x)));  // odd around the centre
  }
  CHECK(L.to_px_x(0) == doctest::Approx(500));
  // Each decade takes the same width far from 0: 10^3 → 10^4 as 10^4 → 10^5 (within 1 %).
  const double d34 = L.to_px_x(1e4) - L.to_px_x(1e3), d45 = L.to_px_x(1e5) - L.to_px_x(1e4);
  CHECK(d34 == doctest::Approx(d45).epsilon(0.01));
  // Monotone everywhere, through 0.
  double last = -1;
  for (double x = -1e6; x <= 1e6; x += 997.3) {
    const double px = L.to_px_x(x);
    CHECK(px > last);
    last = px;
  }
  // Ticks: 0 and ±10^k labelled, in order, inside the range, symmetric.
  const auto ticks = make_ticks(-300, 300, AxisScale::symlog, TickFormat::integer, 6);
  REQUIRE(!ticks.empty());
  CHECK(std::is_sorted(ticks.begin(), ticks.end(), [](const Tick& a, const Tick& b) { return a.value < b.value; }));
  std::set<double> labelled;
  for (const Tick& t : ticks) {
    CHECK(t.value >= -300);
    CHECK(t.value <= 300);
    if (!t.label.empty()) labelled.insert(t.value);
  }
  for (double v : {0.0, 1.0, -1.0, 10.0, -10.0, 100.0, -100.0}) CHECK(labelled.count(v) == 1);
  for (double v : labelled) CHECK(labelled.count(-v) == 1);
}

TEST_CASE("hover readout names the point with its extra columns") {
  Figure f;
  f.x = {.label = "pair i"};
  f.y = {.label = "θ", .scale = AxisScale::log};
  Series s;
  s.x = {0, 1, 2};
  s.y = {1, 0.1, 0.01};
  s.x_name = "pair";
  s.y_name = "θ";
  s.extra = {{"λ", "tokens", {6.28, 62.8, 628.3}}};
  f.series.push_back(s);
  PlotLayout L;
  L.plot = {0, 0, 300, 300};
  L.range = {0, 2, 0.01, 1};
  L.y_scale = AxisScale::log;
  const std::string r = hover_readout(f, L, {L.to_px_x(1), L.to_px_y(0.1) + 2});
  CHECK(r == "pair 1 · θ = 0.1 · λ = 62.8 tokens");
  CHECK(hover_readout(f, L, {L.to_px_x(1), L.to_px_y(0.5)}).empty());  // far from every point
  // A named series: "name: readout", in Chinese with the full-width colon
  // and no space after it (the window passes the language's words).
  f.series[0].name = "频率 θ";
  const Point at{L.to_px_x(1), L.to_px_y(0.1) + 2};
  CHECK(hover_readout(f, L, at) == "频率 θ: pair 1 · θ = 0.1 · λ = 62.8 tokens");
  for (const char* lang : {"en", "zh"}) {
    const auto tr = poslab::app::Translator::load(poslab::app::assets_dir(), lang);
    const ReadoutWords words{.named = tr("ui.plot.readout_named"), .value = tr("ui.plot.readout_value")};
    CHECK(hover_readout(f, L, at, 12, words) ==
          std::string("频率 θ") + (lang == std::string("zh") ? "：" : ": ") + "pair 1 · θ = 0.1 · λ = 62.8 tokens");
  }
}

TEST_CASE("a heatmap's hover names the cell under the pointer as its axis labels it: cell (0, 0) is key 0 · query 0") {
  // A 6 × 6 matrix over −0.5 … 5.5 (cells centred on the tokens 0 … 5), and
  // a 4 × 3 matrix over 0 … 4 × 0 … 3 (cells starting at whole numbers).
  for (const auto& [x0, x1, y0, y1, cols, rows] : {std::tuple{-0.5, 5.5, -0.5, 5.5, 6, 6}, std::tuple{0.0, 4.0, 0.0, 3.0, 4, 3}}) {
    Figure f;
    Heatmap h;
    h.x0 = x0, h.x1 = x1, h.y0 = y0, h.y1 = y1, h.cols = cols, h.rows = rows;
    for (int i = 0; i < cols * rows; ++i) h.values.push_back(static_cast<float>(i));
    h.x_name = "key";
    h.y_name = "query";
    h.value_name = "A";
    f.heatmaps.push_back(h);
    PlotLayout L;
    L.plot = {0, 0, 600, 600};
    L.range = {x0, x1, y0, y1};
    const double w = (x1 - x0) / cols, hh = (y1 - y0) / rows;
    for (int c = 0; c < cols; ++c)
      for (int r = 0; r < rows; ++r)
        for (double fx : {0.05, 0.5, 0.95}) {  // anywhere in the cell, its edges too
          const double x = x0 + (c + fx) * w, y = y0 + (r + 0.5) * hh;
          const std::string got = hover_readout(f, L, {L.to_px_x(x), L.to_px_y(y)});
          // Centred cells are named by their centre, the others by their start: c and r both ways.
          const std::string want = "key " + std::to_string(c) + " · query " + std::to_string(r) + " · A = " +
                                   std::to_string(r * cols + c);
          CAPTURE(x);
          CHECK(got == want);
        }
  }
}

TEST_CASE("data_range covers series, heatmaps and annotations, positive only on log axes") {
  Figure f;
  Series s;
  s.x = {0, 10};
  s.y = {-1, 5};
  f.series.push_back(s);
  f.ref_lines.push_back({.orientation = Orientation::vertical, .value = 20});
  const DataRange r = data_range(f);
  CHECK(r.x_min == 0);
  CHECK(r.x_max == 20);
  CHECK(r.y_min == -1);
  CHECK(r.y_max == 5);
  f.y.scale = AxisScale::log;
  const DataRange lr = data_range(f);  // −1 is not on a log axis: only 5 counts
  CHECK(lr.y_min > 0);
  CHECK(lr.y_min < 5);
  CHECK(lr.y_max > 5);
  CHECK(all_finite(f));
  f.series[0].y[0] = std::nan("");
  CHECK(!all_finite(f));
}

TEST_CASE("colormaps: lightness rises monotonically in both maps (readable in grey)") {
  for (Colormap m : {Colormap::magnitude, Colormap::signed_}) {
    double last = -1;
    for (int i = 0; i <= 64; ++i) {
      const Color c = colormap_color(m, i / 64.0);
      // relative luminance (sRGB → linear → Y)
      auto lin = [](float u) { return u <= 0.04045f ? u / 12.92 : std::pow((u + 0.055) / 1.055, 2.4); };
      const double Y = 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
      CHECK(Y > last);
      last = Y;
    }
  }
}

TEST_CASE("bars: the x range reaches half a bar spacing past the first and last bar, so the frame clips none") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-50, 50);
  std::uniform_int_distribution<int> count(1, 9);
  for (int trial = 0; trial < 200; ++trial) {
    Figure f;
    Series s;
    s.kind = SeriesKind::bars;
    const int n = count(rng);
    for (int i = 0; i < n; ++i) s.x.push_back(u(rng)), s.y.push_back(u(rng));
    f.series.push_back(s);
    std::vector<double> xs = s.x;
    std::sort(xs.begin(), xs.end());
    double spacing = 1.0;  // a lone bar: half a unit each side
    if (n > 1) {
      spacing = 1e300;
      for (int i = 1; i < n; ++i)
        if (xs[static_cast<std::size_t>(i)] > xs[static_cast<std::size_t>(i - 1)])
          spacing = std::min(spacing, xs[static_cast<std::size_t>(i)] - xs[static_cast<std::size_t>(i - 1)]);
      if (spacing == 1e300) spacing = 1.0;
    }
    const DataRange r = data_range(f);
    CHECK(r.x_min <= xs.front() - 0.4 * spacing);  // bars are 0.8 of the spacing wide
    CHECK(r.x_max >= xs.back() + 0.4 * spacing);
  }
  // The rope lesson's first step: four bars at j = 0 … 3 keep j = 0 and j = 3 whole.
  Figure g;
  Series b;
  b.kind = SeriesKind::bars;
  b.x = {0, 1, 2, 3}, b.y = {1, 2, 3, 4};
  g.series.push_back(b);
  const ViewRange v = default_view(g);
  CHECK(v.x_min <= -0.4);
  CHECK(v.x_max >= 3.4);
}

namespace {

/// Keeps the points of every polyline drawn (the data lines of a figure).
class PolylinePainter final : public Painter {
 public:
  std::vector<std::vector<Point>> lines;
  void fill_rect(const Rect&, Color) override {}
  void stroke_polyline(std::span<const Point> pts, Color, double, LineStyle) override { lines.emplace_back(pts.begin(), pts.end()); }
  void fill_polygon(std::span<const Point>, Color) override {}
  void fill_circle(Point, double, Color) override {}
  void text(Point, std::string_view, const TextStyle&, Anchor, VAnchor, bool) override {}
  Size measure(std::string_view s, const TextStyle& st) override { return {static_cast<double>(s.size()) * st.size * 0.55, st.size}; }
  void heatmap(const Rect&, const ScalarRaster&) override {}
  void push_clip(const Rect&) override {}
  void pop_clip() override {}
};

/// Per pixel column of the plot: the lowest and highest y any line reaches
/// there (its points, and its segments where they cross the column).
std::map<int, std::pair<double, double>> column_extremes(const PolylinePainter& p) {
  std::map<int, std::pair<double, double>> out;
  auto add = [&](int col, double y) {
    auto [it, fresh] = out.try_emplace(col, y, y);
    if (!fresh) it->second = {std::min(it->second.first, y), std::max(it->second.second, y)};
  };
  for (const auto& line : p.lines)
    for (std::size_t i = 0; i < line.size(); ++i) {
      const Point q = line[i];
      add(static_cast<int>(std::floor(q.x)), q.y);
      if (i == 0) continue;
      const Point a = line[i - 1].x <= q.x ? line[i - 1] : q, b = line[i - 1].x <= q.x ? q : line[i - 1];
      if (!(b.x > a.x)) continue;
      for (int c = static_cast<int>(std::floor(a.x)); c <= static_cast<int>(std::floor(b.x)); ++c)
        for (double x : {std::max(a.x, static_cast<double>(c)), std::min(b.x, c + 1.0 - 1e-9)})
          add(c, a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x));
    }
  return out;
}

}  // namespace

TEST_CASE("screen points of a long line: each bucket's extremes and ends, the same range, drawn the same") {
  std::mt19937_64 rng(16);
  std::normal_distribution<double> g(0, 1);
  for (int trial = 0; trial < 6; ++trial) {
    const bool log_x = trial % 2 == 1;
    Figure f;
    f.x.scale = log_x ? AxisScale::log : AxisScale::linear;
    Series s;
    s.kind = SeriesKind::line;
    const int n = 50000 + static_cast<int>(rng() % 100000);
    double walk = 0;
    for (int i = 0; i < n; ++i) {
      s.x.push_back(log_x ? std::pow(10.0, 6.0 * i / n) : i * 0.37);
      walk += g(rng);
      s.y.push_back(walk + (rng() % 997 == 0 ? 40 * g(rng) : 0));  // a few spikes
    }
    f.series.push_back(s);
    Figure full = f;
    prepare_for_screen(f, 300);
    const auto& sp = f.series[0].screen;
    REQUIRE(sp != nullptr);
    CAPTURE(trial);
    CHECK(sp->x.size() <= 4 * static_cast<std::size_t>(sp->buckets));
    CHECK(sp->x.size() < s.x.size() / 8);
    CHECK(sp->x.front() == s.x.front());
    CHECK(sp->x.back() == s.x.back());
    // A subsequence of the points, in order.
    std::size_t at = 0;
    for (std::size_t k = 0; k < sp->x.size(); ++k) {
      while (at < s.x.size() && !(s.x[at] == sp->x[k] && s.y[at] == sp->y[k])) ++at;
      REQUIRE(at < s.x.size());
      ++at;
    }
    // Every bucket's lowest and highest point survive.
    std::map<int, std::pair<double, double>> all, kept;
    auto bucket = [&](double x) {
      return std::min(sp->buckets - 1, static_cast<int>((axis_forward(x, f.x.scale) - sp->u0) * (sp->buckets / (sp->u1 - sp->u0))));
    };
    auto add = [](std::map<int, std::pair<double, double>>& m, int b, double y) {
      auto [it, fresh] = m.try_emplace(b, y, y);
      if (!fresh) it->second = {std::min(it->second.first, y), std::max(it->second.second, y)};
    };
    for (std::size_t i = 0; i < s.x.size(); ++i) add(all, bucket(s.x[i]), s.y[i]);
    for (std::size_t k = 0; k < sp->x.size(); ++k) add(kept, bucket(sp->x[k]), sp->y[k]);
    CHECK(all == kept);
    // The same data range, and the same pixels' extremes when drawn unzoomed.
    const DataRange a = data_range(full), b = data_range(f);
    CHECK(a.x_min == b.x_min);
    CHECK(a.x_max == b.x_max);
    CHECK(a.y_min == b.y_min);
    CHECK(a.y_max == b.y_max);
    PolylinePainter pa, pb;
    const Rect bounds{0, 0, 300, 200};
    render_figure(full, pa, bounds, RenderStyle{});
    render_figure(f, pb, bounds, RenderStyle{});
    const auto ea = column_extremes(pa), eb = column_extremes(pb);
    REQUIRE(ea.size() == eb.size());
    for (const auto& entry : ea) {
      const int col = entry.first;  // not a structured binding: clang 14 cannot capture one
      const auto& ext = entry.second;
      CAPTURE(col);
      // The kept points are some of the points: within each column's extremes
      // (up to the fifth of a pixel the drawn line may leave out).
      const auto& other = eb.at(col);
      CHECK(other.first >= ext.first - 0.2001);
      CHECK(other.second <= ext.second + 0.2001);
      // A column's extreme is kept there, or in a bucket (an eighth of a
      // pixel) that reaches the next column: drawn at most a column away.
      double lo = other.first, hi = other.second;
      for (int c : {col - 1, col + 1})
        if (const auto it = eb.find(c); it != eb.end()) lo = std::min(lo, it->second.first), hi = std::max(hi, it->second.second);
      CHECK(lo <= ext.first + 0.2001);
      CHECK(hi >= ext.second - 0.2001);
    }
  }
}

TEST_CASE("screen points leave short, unsorted and broken lines, and other kinds, as they are") {
  Figure f;
  Series shortline, unsorted, broken, dots, steps;
  for (int i = 0; i < 100000; ++i) {
    if (i < 1000) shortline.x.push_back(i), shortline.y.push_back(i);
    unsorted.x.push_back(i % 2 ? i : 100000 - i), unsorted.y.push_back(i);
    broken.x.push_back(i), broken.y.push_back(i == 500 ? std::nan("") : i);
    dots.x.push_back(i), dots.y.push_back(i);
  }
  dots.kind = SeriesKind::scatter;
  steps = dots;
  steps.kind = SeriesKind::step;
  f.series = {shortline, unsorted, broken, dots, steps};
  prepare_for_screen(f, 300);
  for (const Series& s : f.series) CHECK(s.screen == nullptr);
}

namespace {

/// Keeps every heatmap raster drawn.
class RasterPainter final : public Painter {
 public:
  struct Raster {
    int w, h;
    std::vector<float> values;
    std::vector<std::uint8_t> mask;
  };
  std::vector<Raster> rasters;
  int sampler_calls = 0;
  void fill_rect(const Rect&, Color) override {}
  void stroke_polyline(std::span<const Point>, Color, double, LineStyle) override {}
  void fill_polygon(std::span<const Point>, Color) override {}
  void fill_circle(Point, double, Color) override {}
  void text(Point, std::string_view, const TextStyle&, Anchor, VAnchor, bool) override {}
  Size measure(std::string_view s, const TextStyle& st) override { return {static_cast<double>(s.size()) * st.size * 0.55, st.size}; }
  void heatmap(const Rect&, const ScalarRaster& r) override { rasters.push_back({r.w, r.h, {r.values.begin(), r.values.end()}, {r.mask.begin(), r.mask.end()}});
  }
  void push_clip(const Rect&) override {}
  void pop_clip() override {}
};

}  // namespace

TEST_CASE("a sampler heatmap sampled ahead draws each pixel's nearest value, and its cells exactly") {
  std::mt19937_64 rng(61);
  std::uniform_real_distribution<double> u(0.2, 3);
  for (int trial = 0; trial < 8; ++trial) {
    const bool log_x = trial % 2 == 1, cells = trial % 4 >= 2;
    const double fx = u(rng), fy = u(rng);
    Figure f;
    f.x.scale = log_x ? AxisScale::log : AxisScale::linear;
    Heatmap h;
    h.x0 = log_x ? 1 : 0, h.x1 = log_x ? 1e4 : 64, h.y0 = 0, h.y1 = 32;
    h.cols = 64, h.rows = 32;
    h.x_cells = h.y_cells = cells;
    auto calls = std::make_shared<int>(0);
    // A smooth map: |∂v/∂u| ≤ fx, |∂v/∂y| ≤ fy (u: x in the axis's scale).
    h.sampler = [fx, fy, log_x, calls](std::span<const double> xs, std::span<const double> ys, std::span<float> out) {
      ++*calls;
      for (std::size_t r = 0; r < ys.size(); ++r)
        for (std::size_t c = 0; c < xs.size(); ++c)
          out[r * xs.size() + c] = static_cast<float>(std::sin(fx * (log_x ? std::log10(xs[c]) : xs[c] / 16)) + std::cos(fy * ys[r] / 8));
    };
    f.heatmaps.push_back(h);
    Figure ahead = f;
    prepare_for_screen(ahead, 400, 260);
    REQUIRE(ahead.heatmaps[0].screen != nullptr);
    const int calls_after_prepare = *calls;
    RasterPainter exact, fast;
    const Rect bounds{0, 0, 400, 260};
    render_figure(f, exact, bounds, RenderStyle{});
    render_figure(ahead, fast, bounds, RenderStyle{});
    CAPTURE(trial);
    CHECK(*calls == calls_after_prepare + 1);  // the ahead figure's draw called no sampler
    REQUIRE(!exact.rasters.empty());  // the heatmap first (then its colour bar)
    REQUIRE(exact.rasters.size() == fast.rasters.size());
    const auto& a = exact.rasters[0];
    const auto& b = fast.rasters[0];
    REQUIRE(a.w == b.w);
    REQUIRE(a.h == b.h);
    // The grid is at least as fine as the pixels: a value comes from at most
    // one grid cell away, i.e. (x1 − x0)/nx in the axis's scale.
    const double du = ((log_x ? 4.0 : 64.0 / 16) / ahead.heatmaps[0].screen->nx) * fx;
    const double dy = (32.0 / 8 / ahead.heatmaps[0].screen->ny) * fy;
    double worst = 0;
    int differ = 0;
    for (std::size_t i = 0; i < a.values.size(); ++i) {
      worst = std::max(worst, static_cast<double>(std::abs(a.values[i] - b.values[i])));
      differ += a.values[i] != b.values[i];
    }
    // Cells no finer than the pixels: sampled once per cell, every pixel's
    // value is its cell's, exactly; else the nearest of a grid as fine as the pixels.
    if (cells) CHECK(differ == 0);
    else CHECK(worst <= du + dy + 1e-6);
  }
}

TEST_CASE("a matrix heatmap draws each pixel's cell, masked and non-finite cells masked, at any zoom") {
  // The matrix path gathers a pixel row once per cell row and copies the
  // rest; the sampler path looks every pixel up on its own. Both must draw
  // the same raster, mask included.
  std::mt19937_64 rng(62);
  std::uniform_int_distribution<int> side(1, 90);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 40; ++trial) {
    const int cols = side(rng), rows = side(rng);
    const bool with_mask = trial % 2 == 0;
    auto cells = std::make_shared<std::vector<float>>(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows));
    auto masked = std::make_shared<std::vector<std::uint8_t>>(cells->size(), 0);
    for (std::size_t i = 0; i < cells->size(); ++i) {
      const double t = u(rng);
      (*cells)[i] = t < 0.03 ? std::numeric_limits<float>::quiet_NaN()
                  : t < 0.05 ? std::numeric_limits<float>::infinity()
                             : static_cast<float>(u(rng) * 10 - 5);
      (*masked)[i] = with_mask && u(rng) < 0.1;
    }
    (*cells)[0] = std::numeric_limits<float>::quiet_NaN();  // at least one, in the corner
    Figure matrix, sampled;
    Heatmap m;
    m.x0 = 0, m.x1 = cols, m.y0 = 0, m.y1 = rows;
    m.cols = cols, m.rows = rows;
    m.values = *cells;
    if (with_mask) m.mask = *masked;
    matrix.heatmaps.push_back(m);
    Heatmap s;
    s.x0 = 0, s.x1 = cols, s.y0 = 0, s.y1 = rows;
    s.cols = cols, s.rows = rows;
    s.x_cells = s.y_cells = true;
    s.sampler = [cells, masked, cols, rows, with_mask](std::span<const double> xs, std::span<const double> ys,
                                                        std::span<float> out) {
      for (std::size_t r = 0; r < ys.size(); ++r)
        for (std::size_t c = 0; c < xs.size(); ++c) {
          const auto cc = static_cast<std::size_t>(std::clamp(static_cast<int>(std::floor(xs[c])), 0, cols - 1));
          const auto rr = static_cast<std::size_t>(std::clamp(static_cast<int>(std::floor(ys[r])), 0, rows - 1));
          const std::size_t k = rr * static_cast<std::size_t>(cols) + cc;
          out[r * xs.size() + c] = with_mask && (*masked)[k] ? std::numeric_limits<float>::quiet_NaN() : (*cells)[k];
        }
    };
    sampled.heatmaps.push_back(s);
    std::optional<ViewRange> zoom;
    if (trial % 3 == 1) zoom = ViewRange{cols * 0.2, cols * 0.7, rows * 0.1, rows * 0.55};
    RasterPainter a, b;
    const Rect bounds{0, 0, 300.0 + trial * 7, 200.0 + trial * 5};
    render_figure(matrix, a, bounds, RenderStyle{}, zoom);
    render_figure(sampled, b, bounds, RenderStyle{}, zoom);
    CAPTURE(trial);
    CAPTURE(cols);
    CAPTURE(rows);
    REQUIRE(!a.rasters.empty());
    REQUIRE(a.rasters.size() == b.rasters.size());
    const auto& ra = a.rasters[0];
    const auto& rb = b.rasters[0];
    REQUIRE(ra.w == rb.w);
    REQUIRE(ra.h == rb.h);
    REQUIRE(ra.values.size() == rb.values.size());
    int value_differ = 0, mask_differ = 0, masked_pixels = 0;
    for (std::size_t i = 0; i < ra.values.size(); ++i) {
      const bool ma = !ra.mask.empty() && ra.mask[i] != 0, mb = !rb.mask.empty() && rb.mask[i] != 0;
      mask_differ += ma != mb;
      masked_pixels += ma;
      if (!ma && !mb) value_differ += ra.values[i] != rb.values[i];
      CHECK(std::isfinite(ra.values[i]));
    }
    CHECK(mask_differ == 0);
    CHECK(value_differ == 0);
    if (!zoom) CHECK(masked_pixels > 0);  // cell 0 is NaN and on screen
  }
}

TEST_CASE("a heatmap sampled ahead is not used once zoomed in past it") {
  Figure f;
  Heatmap h;
  h.x0 = 0, h.x1 = 100, h.y0 = 0, h.y1 = 100;
  auto calls = std::make_shared<int>(0);
  h.sampler = [calls](std::span<const double> xs, std::span<const double> ys, std::span<float> out) {
    ++*calls;
    for (std::size_t r = 0; r < ys.size(); ++r)
      for (std::size_t c = 0; c < xs.size(); ++c) out[r * xs.size() + c] = static_cast<float>(xs[c] * ys[r]);
  };
  f.heatmaps.push_back(h);
  prepare_for_screen(f, 200, 200);
  REQUIRE(f.heatmaps[0].screen != nullptr);
  const int before = *calls;
  RasterPainter p;
  render_figure(f, p, Rect{0, 0, 200, 200}, RenderStyle{});
  CHECK(*calls == before);  // unzoomed: the grid
  render_figure(f, p, Rect{0, 0, 200, 200}, RenderStyle{}, ViewRange{10, 20, 10, 20});
  CHECK(*calls == before + 1);  // zoomed in ten times: the sampler, exact
}

TEST_CASE("a sampler heatmap snapped to cells is evaluated once per cell on screen, each pixel as on its own") {
  // The renderer evaluates a snapped sampler at the distinct cell centres only;
  // a sampler that snaps itself, drawn pixel by pixel, must give the same raster.
  std::mt19937_64 rng(63);
  std::uniform_int_distribution<int> side(1, 120);
  std::uniform_real_distribution<double> u(0.3, 4);
  for (int trial = 0; trial < 30; ++trial) {
    const int cols = side(rng), rows = side(rng);
    const double fx = u(rng), fy = u(rng);
    const bool snap_x = trial % 3 != 2, snap_y = trial % 3 != 1;
    auto value = [fx, fy](double x, double y) { return static_cast<float>(std::sin(fx * x) * std::cos(fy * y) + x * 1e-3); };
    auto points = std::make_shared<std::size_t>(0);
    Heatmap s;
    s.x0 = -3, s.x1 = -3 + cols * 0.5, s.y0 = 2, s.y1 = 2 + rows * 0.25;
    s.cols = cols, s.rows = rows;
    s.x_cells = snap_x, s.y_cells = snap_y;
    s.sampler = [value, points](std::span<const double> xs, std::span<const double> ys, std::span<float> out) {
      *points += xs.size() * ys.size();
      for (std::size_t r = 0; r < ys.size(); ++r)
        for (std::size_t c = 0; c < xs.size(); ++c) out[r * xs.size() + c] = value(xs[c], ys[r]);
    };
    Heatmap self = s;  // snaps on its own, every pixel evaluated
    self.x_cells = self.y_cells = false;
    self.sampler = [value, s](std::span<const double> xs, std::span<const double> ys, std::span<float> out) {
      auto centre = [](double v, double lo, double hi, int n) {
        const double cw = (hi - lo) / n;
        return lo + (std::clamp(std::floor((v - lo) / cw), 0.0, n - 1.0) + 0.5) * cw;
      };
      for (std::size_t r = 0; r < ys.size(); ++r)
        for (std::size_t c = 0; c < xs.size(); ++c)
          out[r * xs.size() + c] = value(s.x_cells ? centre(xs[c], s.x0, s.x1, s.cols) : xs[c],
                                         s.y_cells ? centre(ys[r], s.y0, s.y1, s.rows) : ys[r]);
    };
    Figure a, b;
    a.heatmaps.push_back(s);
    b.heatmaps.push_back(self);
    std::optional<ViewRange> zoom;
    if (trial % 4 == 3) zoom = ViewRange{s.x0 + cols * 0.1, s.x0 + cols * 0.3, s.y0 + rows * 0.05, s.y0 + rows * 0.2};
    RasterPainter pa, pb;
    const Rect bounds{0, 0, 260.0 + trial * 11, 180.0 + trial * 6};
    render_figure(a, pa, bounds, RenderStyle{}, zoom);
    render_figure(b, pb, bounds, RenderStyle{}, zoom);
    CAPTURE(trial);
    CAPTURE(cols);
    CAPTURE(rows);
    REQUIRE(!pa.rasters.empty());
    const auto& ra = pa.rasters[0];
    const auto& rb = pb.rasters[0];
    REQUIRE(ra.w == rb.w);
    REQUIRE(ra.h == rb.h);
    int differ = 0;
    for (std::size_t i = 0; i < ra.values.size(); ++i) differ += ra.values[i] != rb.values[i];
    CHECK(differ == 0);
    // At most one evaluation per cell along a snapped axis, one per pixel along the other.
    const std::size_t along_x = snap_x ? static_cast<std::size_t>(std::min(cols, ra.w)) : static_cast<std::size_t>(ra.w);
    const std::size_t along_y = snap_y ? static_cast<std::size_t>(std::min(rows, ra.h)) : static_cast<std::size_t>(ra.h);
    CHECK(*points <= along_x * along_y);
  }
}

namespace {

/// Keeps every circle drawn.
class CirclePainter final : public Painter {
 public:
  std::vector<Point> centres;
  void fill_rect(const Rect&, Color) override {}
  void stroke_polyline(std::span<const Point>, Color, double, LineStyle) override {}
  void fill_polygon(std::span<const Point>, Color) override {}
  void fill_circle(Point c, double, Color) override { centres.push_back(c); }
  void text(Point, std::string_view, const TextStyle&, Anchor, VAnchor, bool) override {}
  Size measure(std::string_view s, const TextStyle& st) override { return {static_cast<double>(s.size()) * st.size * 0.55, st.size}; }
  void heatmap(const Rect&, const ScalarRaster&) override {}
  void push_clip(const Rect&) override {}
  void pop_clip() override {}
};

}  // namespace

TEST_CASE("dense markers: one drawn per quarter pixel, every point within a quarter pixel of a drawn one") {
  std::mt19937_64 rng(64);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 12; ++trial) {
    const bool stems = trial % 2 == 1;
    const std::size_t n = trial < 4 ? 40 : 6000;  // sparse: every marker; dense: far fewer
    Figure f;
    Series s{.name = "", .kind = stems ? SeriesKind::stems : SeriesKind::scatter};
    for (std::size_t i = 0; i < n; ++i) {
      s.x.push_back(static_cast<double>(i));
      s.y.push_back(std::sin(6.283 * static_cast<double>(i) / static_cast<double>(n)) + 1e-4 * u(rng));
    }
    f.series.push_back(s);
    f.x.min = 0, f.x.max = static_cast<double>(n - 1);
    f.y.min = -1.2, f.y.max = 1.2;
    f.legend = LegendPlace::none;
    CirclePainter p;
    const PlotLayout L = render_figure(f, p, Rect{0, 0, 700, 400}, RenderStyle{});
    CAPTURE(trial);
    if (n < 100) {
      CHECK(p.centres.size() == n);
      continue;
    }
    CHECK(p.centres.size() < n / 2);
    // Each point is drawn, or lies within a quarter pixel (each way) of the marker drawn before it.
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const Point q{L.to_px_x(s.x[i]), L.to_px_y(s.y[i])};
      if (k < p.centres.size() && std::abs(p.centres[k].x - q.x) < 1e-9 && std::abs(p.centres[k].y - q.y) < 1e-9) {
        ++k;
        continue;
      }
      REQUIRE(k > 0);
      CHECK(std::abs(p.centres[k - 1].x - q.x) < 0.25);
      CHECK(std::abs(p.centres[k - 1].y - q.y) < 0.25);
    }
    CHECK(k == p.centres.size());
  }
}

namespace {

/// Samples its rasters per pixel itself, as the window's GPU does: keeps each
/// raster with its texture coordinates.
class SamplingPainter final : public Painter {
 public:
  struct Raster {
    Rect dst;
    int w, h;
    std::vector<float> values;
    std::vector<std::uint8_t> mask;
    double u0, v0, u1, v1;
  };
  std::vector<Raster> rasters;
  void fill_rect(const Rect&, Color) override {}
  void stroke_polyline(std::span<const Point>, Color, double, LineStyle) override {}
  void fill_polygon(std::span<const Point>, Color) override {}
  void fill_circle(Point, double, Color) override {}
  void text(Point, std::string_view, const TextStyle&, Anchor, VAnchor, bool) override {}
  Size measure(std::string_view s, const TextStyle& st) override { return {static_cast<double>(s.size()) * st.size * 0.55, st.size}; }
  void heatmap(const Rect& dst, const ScalarRaster& r) override {
    rasters.push_back({dst, r.w, r.h, {r.values.begin(), r.values.end()}, {r.mask.begin(), r.mask.end()}, r.u0, r.v0, r.u1, r.v1});
  }
  void push_clip(const Rect&) override {}
  void pop_clip() override {}
  bool samples_rasters() const override { return true; }
};

}  // namespace

TEST_CASE("a GPU-sampled heatmap gets its cells: each pixel's nearest texel is the cell the CPU path draws there") {
  // Matrices (with masks and non-finite cells) and grids sampled ahead, at
  // random sizes, zooms and log axes: the GPU's nearest texel at every pixel
  // centre the CPU path samples is the value and mask the CPU path draws,
  // except at a pixel centre on a cell's border (either side is right).
  std::mt19937_64 rng(66);
  std::uniform_int_distribution<int> side(1, 150);
  std::uniform_real_distribution<double> u(0, 1);
  int gpu_cells = 0, fallbacks = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int kind = trial % 3;  // 0 matrix, 1 sampler sampled ahead, 2 lattice sampler sampled ahead
    const bool log_x = trial % 5 == 4;
    const int cols = side(rng), rows = side(rng);
    Figure f;
    f.x.scale = log_x ? AxisScale::log : AxisScale::linear;
    Heatmap h;
    h.x0 = log_x ? 1 : -2, h.x1 = log_x ? 1000 : -2 + cols * 0.5, h.y0 = 0, h.y1 = rows * 0.25;
    h.cols = cols, h.rows = rows;
    if (kind == 0) {
      h.values.resize(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows));
      for (float& v : h.values) {
        const double t = u(rng);
        v = t < 0.03 ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(u(rng) * 10 - 5);
      }
      if (trial % 2 == 0) {
        h.mask.resize(h.values.size());
        for (auto& m : h.mask) m = u(rng) < 0.1;
      }
    } else {
      h.x_cells = h.y_cells = kind == 2;
      const double fx = 0.3 + u(rng) * 3;
      h.sampler = [fx](std::span<const double> xs, std::span<const double> ys, std::span<float> out) {
        for (std::size_t r = 0; r < ys.size(); ++r)
          for (std::size_t c = 0; c < xs.size(); ++c)
            out[r * xs.size() + c] = c % 97 == 5 ? std::numeric_limits<float>::infinity()
                                                 : static_cast<float>(std::sin(fx * xs[c]) + std::cos(ys[r]));
      };
    }
    f.heatmaps.push_back(h);
    const Rect bounds{0, 0, 240.0 + trial * 9, 170.0 + trial * 5};
    if (kind != 0) prepare_for_screen(f, static_cast<int>(bounds.w), static_cast<int>(bounds.h));
    std::optional<ViewRange> zoom;
    if (trial % 4 == 1) {
      const double a = axis_forward(h.x0, f.x.scale), b = axis_forward(h.x1, f.x.scale);
      zoom = ViewRange{axis_inverse(a + (b - a) * 0.2, f.x.scale), axis_inverse(a + (b - a) * 0.45, f.x.scale), h.y1 * 0.1, h.y1 * 0.6};
    }
    RasterPainter cpu;
    SamplingPainter gpu;
    render_figure(f, cpu, bounds, RenderStyle{}, zoom);
    render_figure(f, gpu, bounds, RenderStyle{}, zoom);
    CAPTURE(trial);
    CAPTURE(kind);
    CAPTURE(cols);
    CAPTURE(rows);
    REQUIRE(!cpu.rasters.empty());
    REQUIRE(gpu.rasters.size() == cpu.rasters.size());
    const auto& c = cpu.rasters[0];
    const auto& g = gpu.rasters[0];
    if (g.w == c.w && g.h == c.h && g.u0 == 0 && g.u1 == 1 && g.v0 == 0 && g.v1 == 1) {
      ++fallbacks;  // pixels: the CPU path's raster itself
      CHECK(g.values == c.values);
      continue;
    }
    ++gpu_cells;
    CHECK((!log_x || kind == 1));  // cells are even in pixels only on linear axes (or a grid sampled ahead in the axis's scale)
    CHECK(static_cast<double>(g.w) * g.h <= 2.0 * c.w * c.h);
    int differ = 0, borders = 0;
    for (int r = 0; r < c.h; ++r)
      for (int col = 0; col < c.w; ++col) {
        const double tu = (g.u0 + (col + 0.5) / c.w * (g.u1 - g.u0)) * g.w;
        const double tv = (g.v0 + (r + 0.5) / c.h * (g.v1 - g.v0)) * g.h;
        if (std::abs(tu - std::round(tu)) < 1e-6 || std::abs(tv - std::round(tv)) < 1e-6) {
          ++borders;
          continue;
        }
        const auto tx = static_cast<std::size_t>(std::clamp(static_cast<int>(std::floor(tu)), 0, g.w - 1));
        const auto ty = static_cast<std::size_t>(std::clamp(static_cast<int>(std::floor(tv)), 0, g.h - 1));
        const std::size_t k = ty * static_cast<std::size_t>(g.w) + tx;
        const std::size_t p = static_cast<std::size_t>(r) * static_cast<std::size_t>(c.w) + static_cast<std::size_t>(col);
        const bool gm = !g.mask.empty() && g.mask[k], cm = !c.mask.empty() && c.mask[p];
        CHECK(std::isfinite(g.values[k]));
        differ += gm != cm || (!gm && g.values[k] != c.values[p]);
      }
    CHECK(differ == 0);
    CAPTURE(c.w);
    CAPTURE(c.h);
    CAPTURE(g.u0);
    CAPTURE(g.u1);
    CAPTURE(g.v0);
    CAPTURE(g.v1);
    CHECK(borders < c.w * c.h / 2);  // the test compares most pixels (150 cells on 175 pixels: every 7th column on a border)
  }
  CHECK(gpu_cells > 20);
  CHECK(fallbacks > 5);
}
