// [SECTION] Index
// - Themes
// - Numbers and ticks
// - Layout and transforms
// - Decimation
// - Drawing: heatmaps, series, annotations, axes, legend, colorbar, title
// - Hover readouts

#include "app/plot/render.hpp"

#include "app/plot/formula.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <numbers>

#include "app/common/sentences.hpp"
#include "app/common/text_wrap.hpp"
#include "poslab/core/errors.hpp"

namespace poslab::app::fig {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kMaxRasterSide = 4096;  // heatmap rasters never exceed this per side
}  // namespace

// [SECTION] Themes

// Every theme draws data at 3:1 or more against its own background and text
// at 4.5:1 (WCAG 2's graphics and text minimums; issue 29: #56B4E9 was
// 2.2:1 on white): min_contrast darkens or lightens only the colours that
// lack it, as little as needed.
Theme Theme::light() {
  Theme t{Color::rgb(0xffffff), Color::rgb(0xffffff), Color::rgb(0x1d1d1f), Color::rgb(0x5f6368),
          Color::rgb(0xe3e5e8), Color::rgb(0x3c4043), Color::rgb(0xd0d0d0), false};
  t.min_contrast = 3.0;
  return t;
}
Theme Theme::dark() {
  Theme t{Color::rgb(0x1e1f22), Color::rgb(0x25262a), Color::rgb(0xe8eaed), Color::rgb(0xa8adb4),
          Color::rgb(0x3a3d42), Color::rgb(0xbdc1c6), Color::rgb(0x4a4d52), false};
  t.min_contrast = 3.0;
  return t;
}
Theme Theme::projector() {
  // High contrast for washed-out projectors: pure white, black text, darker
  // grid, data lines twice as thick, every data colour at 4.5:1 or more
  // against white (no yellow or sky blue on white), larger tick labels.
  Theme t{Color::rgb(0xffffff), Color::rgb(0xffffff), Color::rgb(0x000000), Color::rgb(0x202124),
          Color::rgb(0xb8bbc0), Color::rgb(0x000000), Color::rgb(0xbdbdbd), false};
  t.line_scale = 2.0;
  t.min_contrast = 4.5;
  t.tick_scale = 1.0;
  return t;
}

Color Theme::ink(Color c) const { return min_contrast > 0 ? with_contrast(c, plot_background, min_contrast) : c; }

double relative_luminance(Color c) {
  auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

double contrast_ratio(Color a, Color b) {
  const double la = relative_luminance(a), lb = relative_luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

Color with_contrast(Color c, Color background, double ratio) {
  if (contrast_ratio(c, background) >= ratio) return c;
  // Towards black on a light background, towards white on a dark one; the
  // smallest mix that reaches the ratio (contrast grows with the mix).
  const bool light = relative_luminance(background) > 0.18;
  const float target = light ? 0.0f : 1.0f;
  auto mix = [&](double t) {
    const float k = static_cast<float>(t);
    return Color{c.r + (target - c.r) * k, c.g + (target - c.g) * k, c.b + (target - c.b) * k, c.a};
  };
  double lo = 0, hi = 1;
  for (int i = 0; i < 40; ++i) {
    const double mid = (lo + hi) / 2;
    (contrast_ratio(mix(mid), background) >= ratio ? hi : lo) = mid;
  }
  return mix(hi);
}
Theme Theme::by_name(std::string_view name) {
  if (name == "light") return light();
  if (name == "dark") return dark();
  if (name == "projector") return projector();
  throw core::InvalidParameter("theme", std::string(name), "must be one of light, dark, projector",
                               core::Reason{"one_of", {{"choices", "light, dark, projector"}}, {}});
}

// [SECTION] Numbers and ticks

namespace {

/// printf with one precision and one double; `conv` is 'f', 'e' or 'g'.
std::string printf_string(char conv, double v, int prec) {
  char buf[64];
  switch (conv) {
    case 'f': std::snprintf(buf, sizeof buf, "%.*f", prec, v); break;
    case 'e': std::snprintf(buf, sizeof buf, "%.*e", prec, v); break;
    default: std::snprintf(buf, sizeof buf, "%.*g", prec, v); break;
  }
  return buf;
}

std::string with_thousands(long long v) {
  // The magnitude as unsigned: −LLONG_MIN overflows a long long.
  const unsigned long long magnitude = v < 0 ? 0ULL - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
  std::string digits = std::to_string(magnitude);
  std::string out;
  const int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    out += digits[static_cast<std::size_t>(i)];
    if ((n - 1 - i) % 3 == 0 && i != n - 1) out += ',';
  }
  return v < 0 ? "−" + out : out;
}

/// "1e-04" → "1e-4"; "-" → "−" (a real minus sign reads better on slides).
std::string tidy_number(std::string s) {
  const auto e = s.find('e');
  if (e != std::string::npos) {
    std::string mant = s.substr(0, e), exp = s.substr(e + 1);
    bool neg = !exp.empty() && exp[0] == '-';
    if (!exp.empty() && (exp[0] == '-' || exp[0] == '+')) exp.erase(0, 1);
    while (exp.size() > 1 && exp[0] == '0') exp.erase(0, 1);
    s = mant + "e" + (neg ? "-" : "") + exp;
  }
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '-' && (i == 0)) out += "−";
    else out += s[i];
  }
  return out;
}

std::string superscript(int k) {
  static const char* digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string out = k < 0 ? "⁻" : "";
  const std::string d = std::to_string(k < 0 ? -k : k);
  for (char c : d) out += digits[c - '0'];
  return out;
}

/// Whole numbers up to 2^53 (every one a double holds exactly) are written
/// with thousands separators; larger ones, where llround would leave the
/// range of long long, in %g form.
constexpr double kLargestExactInteger = 9007199254740992.0;

std::string format_tick(double v, double step, TickFormat format) {
  if (v == 0) return "0";
  // A tick at a number no step can separate from its neighbours (a span
  // below what doubles resolve) is written as the number itself.
  if (!std::isfinite(step) || !(std::abs(step) > 0)) return tidy_number(printf_string('g', v, 3));
  switch (format) {
    case TickFormat::integer:
      if (std::abs(v) >= kLargestExactInteger) return tidy_number(printf_string('g', v, 3));
      return with_thousands(std::llround(v));
    case TickFormat::scientific:
      return tidy_number(printf_string('e', v, 1));
    case TickFormat::pi: {
      const double q = v / std::numbers::pi;
      if (std::abs(q) < kLargestExactInteger && std::abs(q - std::round(q)) < 1e-9) {
        const long long k = std::llround(q);
        return k == 1 ? "π" : k == -1 ? "−π" : tidy_number(std::to_string(k)) + "π";
      }
      return tidy_number(printf_string('g', q, 3)) + "π";
    }
    case TickFormat::automatic:
      break;
  }
  const double a = std::abs(v);
  if (a >= 1e6 || a < 1e-4) return tidy_number(printf_string('g', v, 3));
  if (std::abs(step) >= 1 && std::abs(v - std::round(v)) < 1e-9 * std::max(1.0, a))
    return with_thousands(std::llround(v));  // a < 1e6 here
  const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(std::abs(step)) - 1e-9)), 0, 10);
  return tidy_number(printf_string('f', v, decimals));
}

/// A round step (1, 2 or 5 × 10^k) near span/target; 0 when the span is not
/// a positive finite number or its step would not be a normal double (a span
/// of a few subnormals: no ticks can be told apart there).
double nice_step(double span, int target) {
  const double raw = span / std::max(1, target);
  if (!std::isfinite(raw) || !(raw >= std::numeric_limits<double>::min())) return 0;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  if (!(mag > 0) || !std::isfinite(mag)) return 0;
  const double norm = raw / mag;
  const double nice = norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10;
  return nice * mag;
}

/// Ticks of a symmetric-log axis: 0 and ±1, ±10, ±100 … labelled (every
/// other decade when there are many), ±2 and ±5 × 10^k labelled when at most
/// three decades show on a side, the other integers of each decade as minor ticks.
std::vector<Tick> symlog_ticks(double lo, double hi, TickFormat format) {
  std::vector<Tick> out;
  const double reach = std::max(std::abs(lo), std::abs(hi));
  const int top = static_cast<int>(std::ceil(std::log10(std::max(reach, 1.0)))) + 1;
  const int every = top > 8 ? 2 : 1;
  const bool few = top <= 4;
  auto label = [&](double v) {
    return format == TickFormat::integer || std::abs(v) < 1e7 ? with_thousands(std::llround(v)) : format_tick(v, v, format);
  };
  auto add = [&](double v, bool labelled) {
    if (v >= lo - 1e-9 && v <= hi + 1e-9) out.push_back({v, labelled ? label(v) : std::string{}});
  };
  add(0.0, true);
  for (int k = 0; k < top && k < 300; ++k) {
    const double p = std::pow(10.0, k);
    for (int m = 1; m <= 9; ++m) {
      const bool labelled = m == 1 ? k % every == 0 : few && (m == 2 || m == 5);
      if (m > 1 && !few && top > 6) continue;  // many decades: decades only
      add(m * p, labelled), add(-m * p, labelled);
    }
  }
  std::sort(out.begin(), out.end(), [](const Tick& x, const Tick& y) { return x.value < y.value; });
  return out;
}

}  // namespace

std::vector<Tick> make_ticks(double lo, double hi, AxisScale scale, TickFormat format, int target) {
  std::vector<Tick> out;
  if (!(std::isfinite(lo) && std::isfinite(hi)) || !(hi > lo)) return out;
  if (scale == AxisScale::log && lo > 0) {
    const double a = std::log10(lo), b = std::log10(hi);
    const int k0 = static_cast<int>(std::floor(a)), k1 = static_cast<int>(std::ceil(b));
    const int decades = std::max(1, k1 - k0);
    // Powers of ten inside the range: with two or fewer, each is labelled, and
    // 2 and 5 too (t5's usage from N = 1 to 64, padded to 0.9 … 70, showed
    // "1" and "10" alone: three decades counted from 0.1 to 100).
    int inside = 0;
    for (int k = k0; k <= k1; ++k) {
      const double v = std::pow(10.0, k);
      inside += v >= lo * (1 - 1e-12) && v <= hi * (1 + 1e-12);
    }
    const bool few = decades <= 2 || inside <= 2;
    const int every = inside <= 2 ? 1 : std::max(1, static_cast<int>(std::ceil(decades / static_cast<double>(std::max(2, target)))));
    for (int k = k0; k <= k1; ++k) {
      const double v = std::pow(10.0, k);
      if (v >= lo * (1 - 1e-12) && v <= hi * (1 + 1e-12)) {
        const bool major = (k - k0) % every == 0;
        std::string label;
        if (major) label = (format == TickFormat::integer && k >= 0 && k < 7) ? with_thousands(std::llround(v))
                                                                              : "10" + superscript(k);
        out.push_back({v, label});
      }
      if (few) {  // few decades: label 2 and 5 as well
        for (double m : {2.0, 5.0}) {
          const double w = m * v;
          if (w >= lo && w <= hi) out.push_back({w, format_tick(w, w, format == TickFormat::pi ? TickFormat::automatic : format)});
        }
      } else if (decades <= 6 && every == 1) {
        for (int m = 2; m <= 9; ++m) {
          const double w = m * v;
          if (w >= lo && w <= hi) out.push_back({w, ""});  // minor
        }
      }
    }
    std::sort(out.begin(), out.end(), [](const Tick& x, const Tick& y) { return x.value < y.value; });
    return out;
  }
  if (scale == AxisScale::symlog) return symlog_ticks(lo, hi, format);
  // hi − lo overflows for ends near ±1.8e308; half of each does not.
  const double span = std::isfinite(hi - lo) ? hi - lo : 2 * (hi / 2 - lo / 2);
  double step = nice_step(span, target);
  if (format == TickFormat::integer && step > 0) step = std::max(1.0, std::round(step));
  if (format == TickFormat::pi) {
    const double q = nice_step(span / std::numbers::pi, target);
    step = (q >= 0.5 ? std::max(0.5, std::round(q * 2) / 2) : q) * std::numbers::pi;
  }
  const double first = step > 0 ? std::ceil(lo / step - 1e-9) * step : kNaN;
  // A step below the spacing of doubles near the ends would repeat values.
  const double resolution = 4 * std::max(std::nextafter(std::abs(lo), kInf) - std::abs(lo),
                                         std::nextafter(std::abs(hi), kInf) - std::abs(hi));
  if (!std::isfinite(first) || !std::isfinite(step) || !(step > resolution) || (hi - first) / step > 1000) {
    // No round step fits this span (subnormal, or ends beyond what a step
    // can walk): the two ends, as numbers.
    out.push_back({lo, format_tick(lo, 0, format)});
    out.push_back({hi, format_tick(hi, 0, format)});
    return out;
  }
  for (int i = 0; i < 1000; ++i) {
    double v = first + i * step;
    if (v > hi + step * 1e-9) break;
    if (std::abs(v) < step * 1e-9) v = 0;
    out.push_back({v, format_tick(v, step, format)});
  }
  return out;
}

std::string format_readout(double value, int significant) {
  if (!std::isfinite(value)) return "—";
  const double a = std::abs(value);
  if (value == std::round(value) && a < 1e15) return with_thousands(std::llround(value));
  if (a >= 1e5 && a < 1e15) return with_thousands(std::llround(value));
  if (a != 0 && (a < 1e-3 || a >= 1e15)) return tidy_number(printf_string('e', value, significant - 1));
  std::string s = printf_string('g', value, significant);
  return tidy_number(s);
}

// [SECTION] Layout and transforms

double PlotLayout::to_px_x(double x) const {
  const double a = axis_forward(range.x_min, x_scale), b = axis_forward(range.x_max, x_scale);
  return plot.x + (axis_forward(x, x_scale) - a) / (b - a) * plot.w;
}
double PlotLayout::to_px_y(double y) const {
  const double a = axis_forward(range.y_min, y_scale), b = axis_forward(range.y_max, y_scale);
  return plot.y + plot.h - (axis_forward(y, y_scale) - a) / (b - a) * plot.h;
}
double PlotLayout::from_px_x(double px) const {
  const double a = axis_forward(range.x_min, x_scale), b = axis_forward(range.x_max, x_scale);
  return axis_inverse(a + (px - plot.x) / plot.w * (b - a), x_scale);
}
double PlotLayout::from_px_y(double py) const {
  const double a = axis_forward(range.y_min, y_scale), b = axis_forward(range.y_max, y_scale);
  return axis_inverse(a + (plot.y + plot.h - py) / plot.h * (b - a), y_scale);
}

ViewRange union_view(const ViewRange& a, const ViewRange& b) {
  ViewRange u{std::min(a.x_min, b.x_min), std::max(a.x_max, b.x_max), 0, 0};
  if (a.y_min <= a.y_max) u.y_min = std::min(a.y_min, b.y_min), u.y_max = std::max(a.y_max, b.y_max);
  else u.y_min = std::max(a.y_min, b.y_min), u.y_max = std::min(a.y_max, b.y_max);  // reversed: bottom first
  return u;
}

ViewRange default_view(const Figure& f) {
  const DataRange r = data_range(f);
  ViewRange v{r.x_min, r.x_max, r.y_min, r.y_max};
  auto pad = [](double& lo, double& hi, AxisScale scale, bool tight, bool fixed_lo, bool fixed_hi) {
    if (tight) return;
    if (scale == AxisScale::symlog) {  // 4 % of the drawn width, in the drawn coordinate
      const double a = axis_forward(lo, scale), b = axis_forward(hi, scale), p = (b - a) * 0.04;
      if (!fixed_lo) lo = axis_inverse(a - p, scale);
      if (!fixed_hi) hi = axis_inverse(b + p, scale);
      return;
    }
    if (scale == AxisScale::log) {
      const double ratio = std::pow(hi / lo, 0.03);
      if (!fixed_lo) lo /= ratio;
      if (!fixed_hi) hi *= ratio;
    } else {
      const double p = (hi - lo) * 0.04;
      if (!fixed_lo) lo -= p;
      if (!fixed_hi) hi += p;
    }
  };
  pad(v.x_min, v.x_max, f.x.scale, f.x.tight, f.x.min.has_value(), f.x.max.has_value());
  pad(v.y_min, v.y_max, f.y.scale, f.y.tight, f.y.min.has_value(), f.y.max.has_value());
  if (f.y.reversed && f.y.scale == AxisScale::linear) std::swap(v.y_min, v.y_max);  // bottom first
  return v;
}

namespace {

/// True when `utf8` holds a character of U+3000–U+9FFF (CJK punctuation,
/// kana, ideographs): their UTF-8 lead bytes are E3–E9.
bool has_cjk(std::string_view utf8) {
  return std::any_of(utf8.begin(), utf8.end(), [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return b >= 0xE3 && b <= 0xE9;
  });
}

/// "label (unit)"; a Chinese label takes full-width parentheses and no
/// space, as Chinese text writes a unit: "波长 λ（token）".
std::string axis_title(const Axis& a) {
  if (a.unit.empty()) return a.label;
  return has_cjk(a.label) ? a.label + "（" + a.unit + "）" : a.label + " (" + a.unit + ")";
}

void fix_aspect(ViewRange& v, const Rect& plot) {
  // Expand the shorter range so one data unit has the same length on both axes.
  // A reversed y (y_min > y_max) keeps its direction.
  const double sx = (v.x_max - v.x_min) / plot.w, sy = std::abs(v.y_max - v.y_min) / plot.h;
  if (sx > sy) {
    const double c = (v.y_min + v.y_max) / 2, half = sx * plot.h / 2;
    const double dir = v.y_min > v.y_max ? -1.0 : 1.0;
    v.y_min = c - dir * half, v.y_max = c + dir * half;
  } else {
    const double c = (v.x_min + v.x_max) / 2, half = sy * plot.w / 2;
    v.x_min = c - half, v.x_max = c + half;
  }
}

Color series_color(const Series& s, int index, const Theme& th) {
  return th.ink(s.color ? *s.color : palette_color(index));
}

// [SECTION] Decimation (declared in the header)
}  // namespace

std::vector<Point> decimate_columns(std::span<const Point> pts) {
  std::vector<Point> out;
  if (pts.size() <= 4) return {pts.begin(), pts.end()};
  out.reserve(std::min<std::size_t>(pts.size(), 4096));
  std::size_t i = 0;
  while (i < pts.size()) {
    const double column = std::floor(pts[i].x);
    std::size_t j = i;
    std::size_t lo = i, hi = i;
    while (j + 1 < pts.size() && std::floor(pts[j + 1].x) == column) {
      ++j;
      if (pts[j].y < pts[lo].y) lo = j;
      if (pts[j].y > pts[hi].y) hi = j;
    }
    out.push_back(pts[i]);
    const std::size_t a = std::min(lo, hi), b = std::max(lo, hi);
    if (a != i && a != j) out.push_back(pts[a]);
    if (b != i && b != j && b != a) out.push_back(pts[b]);
    if (j != i) out.push_back(pts[j]);
    i = j + 1;
  }
  return out;
}

std::vector<Point> simplify_polyline(std::span<const Point> pts, double tol) {
  if (pts.size() <= 2) return {pts.begin(), pts.end()};
  std::vector<Point> out;
  out.reserve(64);
  out.push_back(pts[0]);
  Point a = pts[0];                // the last point kept
  double lo = -kInf, hi = kInf;    // slopes from a that pass within tol of every point since
  std::size_t last = 0;            // the last point inside the sleeve (0: none since a)
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const Point p = pts[i];
    double dx = p.x - a.x;
    if (last != 0) {
      // The sleeve holds a run of increasing x: a step back ends it too.
      const double slope = dx > 0 && p.x > pts[last].x ? (p.y - a.y) / dx : kNaN;
      if (!(slope >= lo && slope <= hi)) {  // p leaves the sleeve: the last point in it is kept
        a = pts[last];
        out.push_back(a);
        lo = -kInf, hi = kInf, last = 0;
        dx = p.x - a.x;
      }
    }
    if (dx > 0) {
      lo = std::max(lo, (p.y - tol - a.y) / dx);
      hi = std::min(hi, (p.y + tol - a.y) / dx);
      last = i;
    } else {  // no slope from a: p is kept
      out.push_back(p);
      a = p;
      lo = -kInf, hi = kInf, last = 0;
    }
  }
  if (last != 0) out.push_back(pts[last]);
  return out;
}

namespace {

// [SECTION] Drawing

/// Samples heatmap `h` over the part of the plot it covers, at pixel density.
/// The cell of n along [lo, hi] that holds x, clamped to 0..n−1 before any
/// conversion (a span of a few subnormals makes the quotient infinite).
int cell_index(double x, double lo, double hi, int n) {
  const double t = std::floor((x - lo) / (hi - lo) * n);
  if (!(t > 0)) return 0;  // also NaN
  return t >= n - 1 ? n - 1 : static_cast<int>(t);
}

/// The cell of an n-cell even grid over [lo, hi] (in `scale`) holding v.
int nearest_cell(double v, double lo, double hi, AxisScale scale, int n) {
  const double a = axis_forward(lo, scale), b = axis_forward(hi, scale);
  const double t = (axis_forward(v, scale) - a) / (b - a) * n;
  return std::isfinite(t) ? std::clamp(static_cast<int>(std::floor(t)), 0, n - 1) : 0;
}

/// True when `sr` was sampled in the layout's scales and is at least as fine
/// as the pixels asked for (not zoomed in past it).
bool screen_raster_covers(const ScreenRaster& sr, const Heatmap& h, const std::vector<double>& xs,
                          const std::vector<double>& ys, const PlotLayout& L) {
  auto fine = [](const std::vector<double>& px, double lo, double hi, AxisScale scale, int n, bool lattice) {
    if (lattice || px.size() < 2) return true;  // a lattice's values are exact at any zoom
    const double step = std::abs(axis_forward(px[1], scale) - axis_forward(px[0], scale));
    const double cell = std::abs(axis_forward(hi, scale) - axis_forward(lo, scale)) / n;
    return std::isfinite(step) && std::isfinite(cell) && cell <= step * (1 + 1e-9);
  };
  return sr.nx > 0 && sr.ny > 0 && sr.values.size() == static_cast<std::size_t>(sr.nx) * static_cast<std::size_t>(sr.ny) &&
         fine(xs, h.x0, h.x1, L.x_scale, sr.nx, sr.x_lattice) && fine(ys, h.y0, h.y1, L.y_scale, sr.ny, sr.y_lattice);
}

void draw_heatmap(const Heatmap& h, Painter& painter, const PlotLayout& L, const Theme& theme) {
  const double px0 = std::max(L.plot.x, std::min(L.to_px_x(h.x0), L.to_px_x(h.x1)));
  const double px1 = std::min(L.plot.right(), std::max(L.to_px_x(h.x0), L.to_px_x(h.x1)));
  const double py0 = std::max(L.plot.y, std::min(L.to_px_y(h.y0), L.to_px_y(h.y1)));
  const double py1 = std::min(L.plot.bottom(), std::max(L.to_px_y(h.y0), L.to_px_y(h.y1)));
  if (!(px1 > px0 && py1 > py0)) return;
  const Rect dst{px0, py0, px1 - px0, py1 - py0};
  const double density = painter.pixel_density();
  const int w = std::clamp(static_cast<int>(std::ceil(dst.w * density)), 1, kMaxRasterSide);
  const int rows = std::clamp(static_cast<int>(std::ceil(dst.h * density)), 1, kMaxRasterSide);
  std::vector<double> xs(static_cast<std::size_t>(w)), ys(static_cast<std::size_t>(rows));
  for (int c = 0; c < w; ++c) xs[static_cast<std::size_t>(c)] = L.from_px_x(dst.x + (c + 0.5) * dst.w / w);
  for (int r = 0; r < rows; ++r) ys[static_cast<std::size_t>(r)] = L.from_px_y(dst.y + (r + 0.5) * dst.h / rows);
  std::vector<float> values;  // what is drawn: the pixels (or, on a GPU, the cells)
  std::vector<std::uint8_t> mask;
  const auto W = static_cast<std::size_t>(w);
  // Anything non-finite that slipped through is shown as masked, never as a
  // colour: values[from, to) scrubbed.
  auto scrub = [&](std::size_t from, std::size_t to) {
    // A branch-free pass finds whether anything is non-finite (all exponent
    // bits set; it vectorises), the masking pass runs only then.
    // (memcpy, not std::bit_cast: emscripten 3.1.6's libc++ lacks it.)
    std::uint32_t bad = 0;
    for (std::size_t i = from; i < to; ++i) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &values[i], sizeof bits);
      bad |= static_cast<std::uint32_t>((bits & 0x7f800000u) == 0x7f800000u);
    }
    if (!bad) return;
    for (std::size_t i = from; i < to; ++i)
      if (!std::isfinite(values[i])) {
        if (mask.empty()) mask.assign(values.size(), 0);
        mask[i] = 1;
        values[i] = 0;
      }
  };
  // Gathers the pixels from a grid (`ri`: the grid row of each pixel row,
  // `ci`: the grid column of each pixel column): a pixel row showing the same
  // grid row as the one above is a copy of it (a 64-row matrix fills 700
  // pixel rows with 64 gathers and scrubs, not 700).
  auto gather = [&](const std::vector<int>& ri, const std::vector<int>& ci, const float* src, std::size_t stride,
                    const std::uint8_t* src_mask) {
    if (src_mask) mask.resize(values.size());
    for (int r = 0; r < rows; ++r) {
      const auto R = static_cast<std::size_t>(r);
      float* out = values.data() + R * W;
      if (r > 0 && ri[R] == ri[R - 1]) {  // already scrubbed
        std::copy_n(out - W, W, out);
        if (!mask.empty()) std::copy_n(mask.data() + (R - 1) * W, W, mask.data() + R * W);
        continue;
      }
      const std::size_t base = static_cast<std::size_t>(ri[R]) * stride;
      for (std::size_t c = 0; c < W; ++c) out[c] = src[base + static_cast<std::size_t>(ci[c])];
      if (src_mask)
        for (std::size_t c = 0; c < W; ++c) mask[R * W + c] = src_mask[base + static_cast<std::size_t>(ci[c])];
      scrub(R * W, R * W + W);
    }
  };
  // A painter that samples its rasters per pixel itself (the window's GPU,
  // nearest texel) gets the grid of cells — a matrix, or the grid sampled
  // ahead — and where dst falls on it: nothing gathered per pixel here, and
  // an upload of cells, not pixels. The cells must be even in pixels: a
  // matrix on linear axes; a grid sampled ahead is even in each axis's scale
  // (a lattice of cells only on a linear axis).
  if (painter.samples_rasters()) {
    const float* src = nullptr;
    const std::uint8_t* src_mask = nullptr;
    int nx = 0, ny = 0;
    bool even = false;
    const bool linear_x = L.x_scale == AxisScale::linear, linear_y = L.y_scale == AxisScale::linear;
    if (h.is_matrix()) {
      src = h.values.data(), src_mask = h.mask.empty() ? nullptr : h.mask.data();
      nx = h.cols, ny = h.rows;
      even = linear_x && linear_y && h.values.size() == static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny) &&
             (h.mask.empty() || h.mask.size() == h.values.size());
    } else if (const ScreenRaster* sr = h.screen.get(); sr && screen_raster_covers(*sr, h, xs, ys, L)) {
      src = sr->values.data();
      nx = sr->nx, ny = sr->ny;
      even = (!sr->x_lattice || linear_x) && (!sr->y_lattice || linear_y);
    }
    auto frac = [](double v, double lo, double hi, AxisScale s) {  // v's place along [lo, hi], in the axis's scale
      const double a = axis_forward(lo, s);
      return (axis_forward(v, s) - a) / (axis_forward(hi, s) - a);
    };
    const double u0 = frac(L.from_px_x(dst.x), h.x0, h.x1, L.x_scale), u1 = frac(L.from_px_x(dst.right()), h.x0, h.x1, L.x_scale);
    const double v0 = frac(L.from_px_y(dst.y), h.y0, h.y1, L.y_scale), v1 = frac(L.from_px_y(dst.bottom()), h.y0, h.y1, L.y_scale);
    const double cells = static_cast<double>(nx) * ny, pixels = static_cast<double>(w) * rows;
    if (src && even && nx > 0 && ny > 0 && nx <= kMaxRasterSide && ny <= kMaxRasterSide && cells <= 2 * pixels &&
        std::isfinite(u0) && std::isfinite(u1) && std::isfinite(v0) && std::isfinite(v1)) {
      const std::size_t n = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
      values.assign(src, src + n);
      if (src_mask) mask.assign(src_mask, src_mask + n);
      scrub(0, n);
      ScalarRaster cells_raster{nx, ny, values, mask, h.colormap, h.vmin, h.vmax, theme.masked};
      cells_raster.u0 = u0, cells_raster.v0 = v0, cells_raster.u1 = u1, cells_raster.v1 = v1;
      painter.heatmap(dst, cells_raster);
      return;
    }
  }
  values.resize(W * static_cast<std::size_t>(rows));
  if (h.is_matrix()) {
    std::vector<int> ci(W), ri(static_cast<std::size_t>(rows));
    for (int c = 0; c < w; ++c) ci[static_cast<std::size_t>(c)] = cell_index(xs[static_cast<std::size_t>(c)], h.x0, h.x1, h.cols);
    for (int r = 0; r < rows; ++r) ri[static_cast<std::size_t>(r)] = cell_index(ys[static_cast<std::size_t>(r)], h.y0, h.y1, h.rows);
    gather(ri, ci, h.values.data(), static_cast<std::size_t>(h.cols), h.mask.empty() ? nullptr : h.mask.data());
  } else if (const ScreenRaster* sr = h.screen.get();
             sr && screen_raster_covers(*sr, h, xs, ys, L)) {
    // Sampled ahead on the build thread: each pixel takes the nearest value.
    std::vector<int> ci(W), ri(static_cast<std::size_t>(rows));
    for (int c = 0; c < w; ++c)
      ci[static_cast<std::size_t>(c)] = sr->x_lattice ? cell_index(xs[static_cast<std::size_t>(c)], h.x0, h.x1, sr->nx)
                                                      : nearest_cell(xs[static_cast<std::size_t>(c)], h.x0, h.x1, L.x_scale, sr->nx);
    for (int r = 0; r < rows; ++r)
      ri[static_cast<std::size_t>(r)] = sr->y_lattice ? cell_index(ys[static_cast<std::size_t>(r)], h.y0, h.y1, sr->ny)
                                                      : nearest_cell(ys[static_cast<std::size_t>(r)], h.y0, h.y1, L.y_scale, sr->ny);
    gather(ri, ci, sr->values.data(), static_cast<std::size_t>(sr->nx), nullptr);
  } else if (h.sampler) {
    auto snap = [](std::vector<double>& v, double lo, double hi, int n) {
      if (n <= 0) return;
      const double cw = (hi - lo) / n;
      for (double& x : v) x = lo + (std::clamp(std::floor((x - lo) / cw), 0.0, n - 1.0) + 0.5) * cw;
    };
    if (h.x_cells) snap(xs, h.x0, h.x1, h.cols);
    if (h.y_cells) snap(ys, h.y0, h.y1, h.rows);
    if (h.x_cells || h.y_cells) {
      // Snapped pixels repeat their cell's centre: the sampler runs once per
      // distinct centre (a 64 × 64 lattice on 900 × 500 pixels: 4,096 values,
      // not 450,000) and the pixels gather them. The sampler is a function of
      // (x, y) alone, so every pixel gets the value it would get on its own.
      // (xs and ys run monotonically, so equal centres are neighbours.)
      auto distinct = [](const std::vector<double>& v, std::vector<double>& uniq, std::vector<int>& index) {
        index.resize(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) {
          if (uniq.empty() || v[i] != uniq.back()) uniq.push_back(v[i]);
          index[i] = static_cast<int>(uniq.size()) - 1;
        }
      };
      std::vector<double> ux, uy;
      std::vector<int> ci, ri;
      distinct(xs, ux, ci);
      distinct(ys, uy, ri);
      std::vector<float> grid(ux.size() * uy.size());
      h.sampler(ux, uy, grid);
      gather(ri, ci, grid.data(), ux.size(), nullptr);
    } else {
      h.sampler(xs, ys, values);
      scrub(0, values.size());
    }
  } else {
    return;
  }
  painter.heatmap(dst, ScalarRaster{w, rows, values, mask, h.colormap, h.vmin, h.vmax, theme.masked});
}

/// PlotLayout::to_px_x / to_px_y with the forward transforms of the range's
/// ends taken once: the same arithmetic, so the same pixels, with one
/// logarithm per coordinate on a log axis instead of three.
class Projector {
 public:
  explicit Projector(const PlotLayout& L)
      : plot_(L.plot), xs_(L.x_scale), ys_(L.y_scale), ax_(axis_forward(L.range.x_min, L.x_scale)),
        bx_(axis_forward(L.range.x_max, L.x_scale)), ay_(axis_forward(L.range.y_min, L.y_scale)),
        by_(axis_forward(L.range.y_max, L.y_scale)) {}
  double x(double v) const { return plot_.x + (axis_forward(v, xs_) - ax_) / (bx_ - ax_) * plot_.w; }
  double y(double v) const { return plot_.y + plot_.h - (axis_forward(v, ys_) - ay_) / (by_ - ay_) * plot_.h; }

 private:
  Rect plot_;
  AxisScale xs_, ys_;
  double ax_, bx_, ay_, by_;
};

/// The points of `s` to draw in the view `L`: its ScreenPoints
/// (prepare_for_screen) while a bucket of them is at most half a pixel wide,
/// else every point.
struct DrawnPoints {
  std::span<const double> x, y;
};
DrawnPoints drawn_points(const Series& s, const PlotLayout& L) {
  if (s.screen) {
    const double a = axis_forward(L.range.x_min, L.x_scale), b = axis_forward(L.range.x_max, L.x_scale);
    const double bucket_px = (s.screen->u1 - s.screen->u0) / s.screen->buckets / std::abs(b - a) * L.plot.w;
    if (std::isfinite(bucket_px) && bucket_px <= 0.5) return {s.screen->x, s.screen->y};
  }
  return {s.x, s.y};
}

/// The drawn points of `s` (drawn_points) in pixels of `L`: projected once
/// per layout, for drawing and for the data cells labels avoid.
std::vector<Point> project_series(const Series& s, const PlotLayout& L) {
  const DrawnPoints d = drawn_points(s, L);
  const std::size_t n = std::min(d.x.size(), d.y.size());
  const Projector to_px(L);
  std::vector<Point> px(n);
  for (std::size_t i = 0; i < n; ++i) px[i] = {to_px.x(d.x[i]), to_px.y(d.y[i])};
  return px;
}

/// Draws `s`, whose drawn points are `px` (project_series in `L`).
void draw_series(const Series& s, std::span<const Point> px, int index, Painter& painter, const PlotLayout& L,
                 double fs, const Theme& th, float fade = 1.0f) {
  Color color = series_color(s, index, th);
  color.a *= fade;
  const std::size_t n = px.size();
  if (n == 0) return;
  const double base_y = L.y_scale == AxisScale::log ? L.plot.bottom() : std::clamp(L.to_px_y(0.0), L.plot.y, L.plot.bottom());
  const double scale = fs / 14.0 * th.line_scale;  // line widths
  const double marker_scale = fs / 14.0 * std::sqrt(th.line_scale);
  switch (s.kind) {
    case SeriesKind::line:
    case SeriesKind::step: {
      std::vector<Point> pts;
      pts.reserve(s.kind == SeriesKind::step ? 2 * n : n);
      // Drawn within a fifth of a device pixel of every point: a long line's
      // columns (min and max per pixel column), then its straight stretches
      // as one segment each (a thick anti-aliased line costs per vertex).
      const double tol = 0.2 / std::max(1.0, painter.pixel_density());
      auto flush = [&] {
        if (pts.size() >= 2) {
          const bool sorted = std::is_sorted(pts.begin(), pts.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
          if (sorted && pts.size() > static_cast<std::size_t>(4 * L.plot.w)) pts = decimate_columns(pts);
          if (pts.size() >= 64) pts = simplify_polyline(pts, tol);
          painter.stroke_polyline(pts, color, s.width * scale, s.style);
        }
        pts.clear();
      };
      for (std::size_t i = 0; i < n; ++i) {
        const double x = px[i].x, y = px[i].y;
        if (!std::isfinite(x) || !std::isfinite(y)) {  // e.g. ≤ 0 on a log axis: break the line
          flush();
          continue;
        }
        if (s.kind == SeriesKind::step && !pts.empty()) pts.push_back({x, pts.back().y});
        pts.push_back({x, y});
      }
      flush();
      break;
    }
    case SeriesKind::scatter: {
      // A marker within a quarter pixel of the last one drawn would cover
      // it again, up to a quarter-pixel sliver: not drawn (4,096 pairs on a
      // 900-pixel plot are a few hundred distinct dots).
      Point last{kNaN, kNaN};
      for (std::size_t i = 0; i < n; ++i) {
        const Point p = px[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
        if (std::abs(p.x - last.x) < 0.25 && std::abs(p.y - last.y) < 0.25) continue;
        painter.fill_circle(p, s.marker * marker_scale, color);
        last = p;
      }
      break;
    }
    case SeriesKind::bars: {
      double spacing = L.plot.w;
      for (std::size_t i = 1; i < n; ++i)
        spacing = std::min(spacing, std::abs(px[i].x - px[i - 1].x));
      const double bw = s.bar_width ? std::max(1.0, std::abs(L.to_px_x(*s.bar_width) - L.to_px_x(0.0)))
                                    : std::max(1.0, spacing * 0.8);
      for (std::size_t i = 0; i < n; ++i) {
        const double x = px[i].x, y = px[i].y;
        if (!std::isfinite(x) || !std::isfinite(y)) continue;
        painter.fill_rect({x - bw / 2, std::min(y, base_y), bw, std::abs(base_y - y)}, color);
      }
      break;
    }
    case SeriesKind::stems: {
      Point last{kNaN, kNaN};  // as scatter: a stem on the last one drawn is not drawn again
      for (std::size_t i = 0; i < n; ++i) {
        const double x = px[i].x, y = px[i].y;
        if (!std::isfinite(x) || !std::isfinite(y)) continue;
        if (std::abs(x - last.x) < 0.25 && std::abs(y - last.y) < 0.25) continue;
        last = {x, y};
        const Point line[] = {{x, base_y}, {x, y}};
        painter.stroke_polyline(line, color, std::max(1.0, s.width * scale * 0.75), LineStyle::solid);
        painter.fill_circle({x, y}, s.marker * marker_scale, color);
      }
      break;
    }
  }
}

double text_width(Painter& p, std::string_view s, const TextStyle& st) { return rich_measure(p, s, st).w; }

/// An axis title laid out along a side `room` pixels long: its lines and the
/// style they share. One line at full size when it fits; else the fewest
/// lines (up to three, or `max_lines`, broken at spaces so the widest is shortest) that fit
/// at 80 % of the size or more; else three lines shrunk down to 60 %; and
/// what still does not fit at 60 % is cut short with "…" (never clipped by
/// the figure's edge).
struct FittedTitle {
  std::vector<std::string> lines;
  TextStyle style;
  /// The room across the side the lines take, for the layout (one line at
  /// full size keeps the 1.4 em it always had).
  double depth() const {
    return lines.empty() ? 0 : style.size * (1.4 + 1.2 * static_cast<double>(lines.size() - 1));
  }
};

FittedTitle fit_title(Painter& painter, const std::string& text, const TextStyle& base, double room, double least = 0,
                      std::size_t max_lines = 3) {
  FittedTitle out{{text}, base};
  if (text.empty() || room <= 0) return out;
  const double full = text_width(painter, text, base);
  if (full <= room) return out;
  std::vector<std::size_t> spaces;  // byte offsets of the break candidates (none inside a formula)
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (const std::size_t end = text[i] == '$' ? math_span_end(text, i) : std::string::npos; end != std::string::npos)
      i = end - 1;
    else if (text[i] == ' ')
      spaces.push_back(i);
  }
  auto width_of = [&](const std::vector<std::string>& lines) {
    double w = 0;
    for (const std::string& l : lines) w = std::max(w, text_width(painter, l, base));
    return w;
  };
  // The best split into n lines: every choice of n − 1 spaces (titles are a
  // few words, so this is a few hundred measurements at most).
  auto best_split = [&](std::size_t n) {
    std::vector<std::string> best{text};
    double best_w = full;
    if (n == 2) {
      for (std::size_t a : spaces) {
        std::vector<std::string> l{text.substr(0, a), text.substr(a + 1)};
        if (const double w = width_of(l); w < best_w) best_w = w, best = std::move(l);
      }
    } else if (n == 3) {
      for (std::size_t i = 0; i < spaces.size(); ++i)
        for (std::size_t j = i + 1; j < spaces.size(); ++j) {
          const std::size_t a = spaces[i], b = spaces[j];
          std::vector<std::string> l{text.substr(0, a), text.substr(a + 1, b - a - 1), text.substr(b + 1)};
          if (const double w = width_of(l); w < best_w) best_w = w, best = std::move(l);
        }
    }
    return std::pair{best, best_w};
  };
  std::pair<std::vector<std::string>, double> split{{text}, full};
  for (std::size_t n = 1; n <= std::min<std::size_t>(max_lines, 3); ++n) {
    if (n > 1 && spaces.size() + 1 < n) break;
    split = n == 1 ? std::pair{std::vector<std::string>{text}, full} : best_split(n);
    if (room / split.second >= 0.8) break;
  }
  out.lines = std::move(split.first);
  const double smallest = std::min(base.size, std::max(base.size * 0.6, least));  // never below the style's minimum
  out.style.size = std::max(smallest, out.style.size * std::clamp(room / split.second, 0.6, 1.0));
  // A painter's text need not scale exactly with its size (a screen font
  // hinted at the nearest size): measure again and shrink a little more.
  for (int pass = 0; pass < 3; ++pass) {
    double w = 0;
    for (const std::string& l : out.lines) w = std::max(w, text_width(painter, l, out.style));
    if (w <= room || out.style.size <= smallest) break;
    out.style.size = std::max(smallest, out.style.size * room / w * 0.995);
  }
  // Still too long at 60 %: shorten the longest lines, a code point at a time
  // (formulas written out as plain text first: a cut never splits one).
  for (std::string& l : out.lines) {
    if (text_width(painter, l, out.style) <= room) continue;
    std::string cut = plain_text(l);
    while (!cut.empty()) {
      std::size_t end = cut.size() - 1;
      while (end > 0 && (static_cast<unsigned char>(cut[end]) & 0xC0) == 0x80) --end;  // a code point's first byte
      cut.erase(end);
      while (!cut.empty() && cut.back() == ' ') cut.pop_back();
      if (text_width(painter, cut + "…", out.style) <= room) break;
    }
    l = cut + "…";
  }
  return out;
}

/// The plot area in square cells of a few pixels, marked where a series draws
/// (lines, steps, markers, bars, stems), so labels of reference lines and
/// bands can be put where they cover no data.
class DataCells {
 public:
  DataCells(const Rect& plot, double cell)
      : plot_(plot), cell_(std::max(1.0, cell)),
        cols_(std::max(1, static_cast<int>(std::ceil(plot.w / cell_)))),
        rows_(std::max(1, static_cast<int>(std::ceil(plot.h / cell_)))),
        on_(static_cast<std::size_t>(cols_) * static_cast<std::size_t>(rows_), 0) {}

  /// Marks every cell the box [x0, x1] × [y0, y1] (pixels) touches.
  void mark_box(double x0, double y0, double x1, double y1) {
    int c0 = 0, c1 = 0, r0 = 0, r1 = 0;
    if (!cell_span(x0, y0, x1, y1, c0, c1, r0, r1)) return;
    for (int r = r0; r <= r1; ++r)
      for (int c = c0; c <= c1; ++c) on_[index(c, r)] = 1;
  }
  /// Marks the segment a–b drawn `radius` pixels thick, clipped to the plot.
  void mark_segment(Point a, Point b, double radius) {
    // Liang–Barsky clipping to the plot grown by the radius: a far point of a
    // zoomed view never makes the walk below long.
    const double xmin = plot_.x - radius, xmax = plot_.right() + radius;
    const double ymin = plot_.y - radius, ymax = plot_.bottom() + radius;
    double t0 = 0, t1 = 1;
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double p[] = {-dx, dx, -dy, dy}, q[] = {a.x - xmin, xmax - a.x, a.y - ymin, ymax - a.y};
    for (int k = 0; k < 4; ++k) {
      if (p[k] == 0) {
        if (q[k] < 0) return;
        continue;
      }
      const double t = q[k] / p[k];
      if (p[k] < 0) t0 = std::max(t0, t);
      else t1 = std::min(t1, t);
      if (t0 > t1) return;
    }
    const Point s{a.x + t0 * dx, a.y + t0 * dy}, e{a.x + t1 * dx, a.y + t1 * dy};
    const double len = std::hypot(e.x - s.x, e.y - s.y);
    const int steps = std::max(1, static_cast<int>(std::ceil(len / (cell_ * 0.5))));
    for (int k = 0; k <= steps; ++k) {
      const double t = static_cast<double>(k) / steps;
      const double x = s.x + t * (e.x - s.x), y = s.y + t * (e.y - s.y);
      mark_box(x - radius, y - radius, x + radius, y + radius);
    }
  }
  /// The side of a cell, pixels.
  double cell() const { return cell_; }
  /// True if any cell the rectangle touches holds data.
  bool any(const Rect& r) const {
    int c0 = 0, c1 = 0, r0 = 0, r1 = 0;
    if (!cell_span(r.x, r.y, r.right(), r.bottom(), c0, c1, r0, r1)) return false;
    for (int row = r0; row <= r1; ++row)
      for (int c = c0; c <= c1; ++c)
        if (on_[index(c, row)]) return true;
    return false;
  }
  /// How many cells the rectangle touches hold data.
  int count(const Rect& r) const {
    int c0 = 0, c1 = 0, r0 = 0, r1 = 0, n = 0;
    if (!cell_span(r.x, r.y, r.right(), r.bottom(), c0, c1, r0, r1)) return 0;
    for (int row = r0; row <= r1; ++row)
      for (int c = c0; c <= c1; ++c) n += on_[index(c, row)];
    return n;
  }

 private:
  bool cell_span(double x0, double y0, double x1, double y1, int& c0, int& c1, int& r0, int& r1) const {
    if (!(x1 >= plot_.x && x0 <= plot_.right() && y1 >= plot_.y && y0 <= plot_.bottom())) return false;
    auto cell = [this](double v, double origin, int n) {
      return std::clamp(static_cast<int>(std::floor((v - origin) / cell_)), 0, n - 1);
    };
    c0 = cell(x0, plot_.x, cols_), c1 = cell(x1, plot_.x, cols_);
    r0 = cell(y0, plot_.y, rows_), r1 = cell(y1, plot_.y, rows_);
    return true;
  }
  std::size_t index(int c, int r) const {
    return static_cast<std::size_t>(r) * static_cast<std::size_t>(cols_) + static_cast<std::size_t>(c);
  }
  Rect plot_;
  double cell_;
  int cols_, rows_;
  std::vector<std::uint8_t> on_;
};

/// Where the series of `f` draw in layout `L`, as DataCells (the same
/// geometry as draw_series: steps as staircases, bars 0.8 of their spacing).
DataCells data_cells(const Figure& f, const std::vector<std::vector<Point>>& series_px, const PlotLayout& L, double fs,
                     const Theme& th) {
  DataCells cells(L.plot, std::max(2.0, fs * 0.25));
  // A heatmap is data everywhere it is drawn: a label on it cannot be read.
  for (const Heatmap& h : f.heatmaps) {
    const double xa = L.to_px_x(h.x0), xb = L.to_px_x(h.x1), ya = L.to_px_y(h.y0), yb = L.to_px_y(h.y1);
    if (std::isfinite(xa) && std::isfinite(xb) && std::isfinite(ya) && std::isfinite(yb))
      cells.mark_box(std::min(xa, xb), std::min(ya, yb), std::max(xa, xb), std::max(ya, yb));
  }
  const double base_y = L.y_scale == AxisScale::log ? L.plot.bottom() : std::clamp(L.to_px_y(0.0), L.plot.y, L.plot.bottom());
  for (std::size_t si = 0; si < f.series.size(); ++si) {
    const Series& s = f.series[si];
    const std::vector<Point>& px = series_px[si];
    const std::size_t n = px.size();
    const double half = std::max(1.0, s.width * fs / 14.0 * th.line_scale) / 2;
    const double marker = s.marker * fs / 14.0 * std::sqrt(th.line_scale);
    std::optional<Point> prev;
    double spacing = L.plot.w;
    if (s.kind == SeriesKind::bars)
      for (std::size_t i = 1; i < n; ++i) spacing = std::min(spacing, std::abs(px[i].x - px[i - 1].x));
    if (s.kind == SeriesKind::line && static_cast<double>(n) > 2 * L.plot.w / cells.cell()) {
      // Many points per cell: the points of one cell column, and the
      // segments between them, lie in their bounding box — one box per
      // column (and the segments joining columns) instead of a walk along
      // every segment. Covers what the walk marks, and at most one cell more.
      struct Run {
        double column = 0, x0 = 0, x1 = 0, y0 = 0, y1 = 0;
        Point last{};
      };
      std::optional<Run> run;
      auto flush = [&] {
        if (run) cells.mark_box(run->x0 - half, run->y0 - half, run->x1 + half, run->y1 + half);
      };
      for (std::size_t i = 0; i < n; ++i) {
        const Point& p = px[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y)) {  // a gap breaks the line
          flush();
          run.reset();
          continue;
        }
        const double column = std::floor((p.x - L.plot.x) / cells.cell());
        if (run && run->column == column) {
          run->x0 = std::min(run->x0, p.x), run->x1 = std::max(run->x1, p.x);
          run->y0 = std::min(run->y0, p.y), run->y1 = std::max(run->y1, p.y);
          run->last = p;
          continue;
        }
        flush();
        if (run) cells.mark_segment(run->last, p, half);  // from the last column's last point
        run = Run{column, p.x, p.x, p.y, p.y, p};
      }
      flush();
      continue;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const Point& p = px[i];
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
        prev.reset();
        continue;
      }
      switch (s.kind) {
        case SeriesKind::line:
          if (prev) cells.mark_segment(*prev, p, half);
          else cells.mark_segment(p, p, half);
          break;
        case SeriesKind::step:
          if (prev) {
            cells.mark_segment(*prev, {p.x, prev->y}, half);
            cells.mark_segment({p.x, prev->y}, p, half);
          } else {
            cells.mark_segment(p, p, half);
          }
          break;
        case SeriesKind::scatter: cells.mark_box(p.x - marker, p.y - marker, p.x + marker, p.y + marker); break;
        case SeriesKind::stems:
          cells.mark_segment({p.x, base_y}, p, half);
          cells.mark_box(p.x - marker, p.y - marker, p.x + marker, p.y + marker);
          break;
        case SeriesKind::bars: {
          const double bw = s.bar_width ? std::max(1.0, std::abs(L.to_px_x(*s.bar_width) - L.to_px_x(0.0)))
                                        : std::max(1.0, spacing * 0.8);
          cells.mark_box(p.x - bw / 2, std::min(p.y, base_y), p.x + bw / 2, std::max(p.y, base_y));
          break;
        }
      }
      prev = p;
    }
  }
  return cells;
}

}  // namespace

PlotLayout render_figure(const Figure& f, Painter& painter, const Rect& bounds, const RenderStyle& style,
                         const std::optional<ViewRange>& view) {
  const Theme& th = style.theme;
  const double fs = style.font_size;
  const double pad = fs * 0.9;
  // Text sizes relative to the font size, none below the style's minimum.
  auto text_size = [&](double k) { return std::max(fs * k, style.min_text); };
  const TextStyle title_st{text_size(1.3), true, th.text};
  const TextStyle sub_st{text_size(0.95), false, th.muted};
  const TextStyle label_st{text_size(1.0), false, th.text};
  const TextStyle tick_st{text_size(th.tick_scale), false, th.muted};
  const TextStyle legend_st{text_size(0.9), false, th.text};
  const double note_size = text_size(0.9), line_label_size = text_size(0.85);

  PlotLayout L;
  L.outer = bounds;
  L.x_scale = f.x.scale, L.y_scale = f.y.scale;
  L.range = view ? *view : style.hold ? *style.hold : default_view(f);
  if (L.x_scale == AxisScale::log && L.range.x_min <= 0) L.range.x_min = L.range.x_max > 0 ? L.range.x_max * 1e-6 : 1e-6;
  if (L.y_scale == AxisScale::log && L.range.y_min <= 0) L.range.y_min = L.range.y_max > 0 ? L.range.y_max * 1e-6 : 1e-6;
  if (L.range.x_max <= L.range.x_min) L.range.x_max = L.range.x_min + 1;
  const bool y_reversed = f.y.reversed && L.y_scale != AxisScale::log;  // then y_min (bottom) > y_max (top)
  if (y_reversed ? L.range.y_min <= L.range.y_max : L.range.y_max <= L.range.y_min)
    L.range.y_max = L.range.y_min + (y_reversed ? -1 : 1);
  const double y_lo = std::min(L.range.y_min, L.range.y_max), y_hi = std::max(L.range.y_min, L.range.y_max);

  if (!th.transparent) painter.fill_rect(bounds, th.background);

  // Vertical budget: title, subtitle, plot, ticks, x label. The title and
  // subtitle wrap at the figure's width (a handout's, a slide's at a large
  // font scale) rather than run off its right edge.
  double top = bounds.y + pad;
  const bool has_title = style.show_title && !f.title.empty();
  auto wrapped = [&](const std::string& text, const TextStyle& st) {
    std::vector<std::string> lines;
    const auto measure = [&](std::string_view piece) { return static_cast<float>(text_width(painter, piece, st)); };
    for (const auto& [b, e] : wrap_line(text, static_cast<float>(std::max(10.0, bounds.w - 2 * pad)), measure))
      lines.push_back(text.substr(b, e - b));
    return lines;
  };
  const std::vector<std::string> title_lines = has_title ? wrapped(f.title, title_st) : std::vector<std::string>{};
  const std::vector<std::string> sub_lines =
      style.show_title && !f.subtitle.empty() ? wrapped(f.subtitle, sub_st) : std::vector<std::string>{};
  top += title_st.size * 1.25 * static_cast<double>(title_lines.size());
  top += sub_st.size * 1.35 * static_cast<double>(sub_lines.size());
  if (!title_lines.empty() || !sub_lines.empty()) top += fs * 0.5;
  const double bottom = bounds.bottom() - pad - (f.x.label.empty() ? 0 : label_st.size * 1.3) - tick_st.size * 1.5 - fs * 0.35;

  // Horizontal budget: y label, y tick labels; colorbar on the right.
  const Heatmap* hm = f.heatmaps.empty() ? nullptr : &f.heatmaps.front();
  const int y_target = std::max(3, static_cast<int>((bottom - top) / (fs * 3.2)));
  auto y_ticks = make_ticks(y_lo, y_hi, f.y.scale, f.y.format, y_target);
  auto explicit_ticks = [](const Axis& axis) {
    std::vector<Tick> t;
    for (const auto& [v, s] : axis.ticks) t.push_back({v, s});
    std::sort(t.begin(), t.end(), [](const Tick& a, const Tick& b) { return a.value < b.value; });
    return t;  // in order, so the overlap guard below sees neighbours
  };
  if (!f.y.ticks.empty()) y_ticks = explicit_ticks(f.y);
  if (y_reversed) std::reverse(y_ticks.begin(), y_ticks.end());  // bottom to top, for the overlap guard
  double ytick_w = 0;
  for (const Tick& t : y_ticks) ytick_w = std::max(ytick_w, text_width(painter, t.label, tick_st));
  // The y title along the plot's height (known now: only the width changes
  // below), on as many lines as it needs.
  const FittedTitle y_title = f.y.label.empty() ? FittedTitle{{}, label_st}
                                                 : fit_title(painter, axis_title(f.y), label_st, std::max(10.0, bottom - top), style.min_text);
  const double left = bounds.x + pad + y_title.depth() + ytick_w + fs * 0.6;
  double right = bounds.right() - pad;
  std::vector<Tick> cb_ticks;
  double cb_w = 0;
  if (hm) {
    cb_ticks = make_ticks(hm->vmin, hm->vmax, AxisScale::linear, hm->value_format, 5);
    double w = 0;
    for (const Tick& t : cb_ticks) w = std::max(w, text_width(painter, t.label, tick_st));
    cb_w = fs * 1.0;
    right -= cb_w + fs * 0.5 + w + (hm->value_name.empty() ? 0 : label_st.size * 1.4) + fs * 0.8;
  }
  L.plot = {left, top, std::max(10.0, right - left), std::max(10.0, bottom - top)};

  // The legend's entries and box, and its corner: the one covering the
  // fewest series points. When every corner covers data and the box is
  // narrow enough, it goes beside the plot, outside the data.
  std::vector<std::pair<std::string, int>> entries;
  for (std::size_t i = 0; i < f.series.size(); ++i)
    if (!f.series[i].name.empty()) entries.emplace_back(f.series[i].name, static_cast<int>(i));
  const bool legend = style.show_legend && f.legend != LegendPlace::none && !entries.empty();
  double legend_text_w = 0;
  if (legend)
    for (const auto& entry : entries) legend_text_w = std::max(legend_text_w, text_width(painter, entry.first, legend_st));
  const double swatch = fs * 1.6, legend_row = legend_st.size * 1.45;
  // 0.7 em after the text (0.4 em before it): a Chinese glyph fills its em
  // box, and 0.4 em looked as if the text touched the frame (the zh review).
  const double box_w = legend_text_w + swatch + fs * 1.5, box_h = legend_row * static_cast<double>(entries.size()) + fs * 0.5;
  auto corner_box = [&](LegendPlace p) {
    const bool r = p == LegendPlace::top_right || p == LegendPlace::bottom_right;
    const bool t = p == LegendPlace::top_right || p == LegendPlace::top_left;
    // A box taller than the plot hangs from its top: the first entries stay
    // on screen, never above the frame.
    const double y = t ? L.plot.y + fs * 0.5 : std::max(L.plot.y + fs * 0.25, L.plot.bottom() - box_h - fs * 0.5);
    return Rect{r ? L.plot.right() - box_w - fs * 0.5 : L.plot.x + fs * 0.5, y, box_w, box_h};
  };
  // What a box would cover: the series' points, and the pixels between them
  // that are drawn too — a stem or bar from its base to its value, a line's
  // segment between two points far apart (a legend may not sit on a stem
  // whose tip is outside it).
  // The series' points in pixels, as drawn in the layout they were projected
  // for (every corner is scored in the same layout: projected once).
  struct Projected {
    Rect plot;
    ViewRange range;
    std::vector<std::vector<Point>> series;
    std::vector<bool> every_point;  ///< stride 1: segments between the points are real
  };
  std::optional<Projected> projected;
  auto project = [&]() -> const Projected& {
    if (projected && projected->plot.x == L.plot.x && projected->plot.y == L.plot.y && projected->plot.w == L.plot.w &&
        projected->plot.h == L.plot.h && projected->range.x_min == L.range.x_min && projected->range.x_max == L.range.x_max &&
        projected->range.y_min == L.range.y_min && projected->range.y_max == L.range.y_max)
      return *projected;
    projected = Projected{L.plot, L.range, {}, {}};
    for (const Series& se : f.series) {
      const DrawnPoints d = drawn_points(se, L);
      const std::size_t n = std::min(d.x.size(), d.y.size());
      const std::size_t stride = std::max<std::size_t>(1, n / 2000);
      std::vector<Point>& px = projected->series.emplace_back();
      px.reserve(n / stride + 1);
      const Projector to_px(L);
      for (std::size_t k = 0; k < n; k += stride) px.push_back({to_px.x(d.x[k]), to_px.y(d.y[k])});
      projected->every_point.push_back(stride == 1);
    }
    return *projected;
  };
  auto points_under = [&](const Rect& b) {
    const Rect near{b.x - fs * 0.5, b.y - fs * 0.5, b.w + fs, b.h + fs};
    auto covers = [&](Point a, Point c) {  // samples every fs/2 px along a–c
      if (!std::isfinite(a.x) || !std::isfinite(a.y) || !std::isfinite(c.x) || !std::isfinite(c.y)) return 0.0;
      if (std::max(a.x, c.x) < near.x || std::min(a.x, c.x) > near.right() || std::max(a.y, c.y) < near.y ||
          std::min(a.y, c.y) > near.bottom())
        return 0.0;  // no sample of a–c can be in the box
      const double len = std::hypot(c.x - a.x, c.y - a.y);
      const int n = std::min(64, static_cast<int>(len / (fs * 0.5)));
      double hits = 0;
      for (int k = 1; k <= n; ++k) {
        const double t = static_cast<double>(k) / (n + 1);
        hits += near.contains({a.x + (c.x - a.x) * t, a.y + (c.y - a.y) * t}) ? 1 : 0;
      }
      return hits;
    };
    const double base_y = L.to_px_y(f.y.scale == AxisScale::log ? std::min(L.range.y_min, L.range.y_max) : 0.0);
    double score = 0;
    const Projected& pr = project();
    for (std::size_t si = 0; si < f.series.size(); ++si) {
      const Series& se = f.series[si];
      const bool every_point = pr.every_point[si];
      Point prev{NAN, NAN};
      for (const Point& q : pr.series[si]) {
        if (std::isfinite(q.x) && std::isfinite(q.y) && near.contains(q)) score += 1;
        if (se.kind == SeriesKind::stems || se.kind == SeriesKind::bars) score += covers({q.x, base_y}, q);
        else if ((se.kind == SeriesKind::line || se.kind == SeriesKind::step) && every_point) score += covers(prev, q);
        prev = q;
      }
    }
    // A reference line (the query, the training length) is read across the
    // whole plot: a legend on it hides where it is.
    for (const RefLine& l : f.ref_lines) {
      const bool vertical = l.orientation == Orientation::vertical;
      const double at = vertical ? L.to_px_x(l.value) : L.to_px_y(l.value);
      if (!std::isfinite(at)) continue;
      score += vertical ? covers({at, L.plot.y}, {at, L.plot.bottom()}) : covers({L.plot.x, at}, {L.plot.right(), at});
    }
    return score;
  };
  // A text note at its data point, where the legend would hide it: a corner
  // free of series points but holding a note is no free corner (multimodal's
  // "the text resumes at 9 = 8 + 1" took the only free one in lecture mode,
  // and the legend went onto the data instead of beside the plot).
  // The boxes of the text notes inside the plot, where L places them now.
  auto note_boxes = [&] {
    std::vector<Rect> boxes;
    for (const TextNote& n : f.notes) {
      const Point p{L.to_px_x(n.x), L.to_px_y(n.y)};
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !L.plot.contains(p)) continue;
      const TextStyle st{note_size, false, th.text};
      const double w = text_width(painter, n.text, st), hgt = st.size * 1.25;
      const double x = n.anchor == Anchor::left ? p.x : n.anchor == Anchor::center ? p.x - w / 2 : p.x - w;
      boxes.push_back({x, p.y - hgt / 2, w, hgt});
    }
    return boxes;
  };
  auto note_under = [&](const Rect& b) {
    for (const Rect& r : note_boxes())
      if (r.x < b.right() && r.right() > b.x && r.y < b.bottom() && r.bottom() > b.y) return true;
    return false;
  };
  const LegendPlace corners[] = {LegendPlace::top_right, LegendPlace::top_left, LegendPlace::bottom_right,
                                 LegendPlace::bottom_left};
  // A legend that would cover data in every corner goes beside the plot
  // when it is narrow enough, else below it, its entries in rows: never on
  // the data, whatever the font size (issue 29). On a heatmap every corner
  // is data.
  bool legend_outside = false, legend_below = false;
  double below_h = 0;
  std::vector<double> entry_w;  // below: each entry's width, swatch and gap included
  for (const auto& entry : entries) entry_w.push_back(swatch + fs * 0.4 + text_width(painter, entry.first, legend_st) + fs * 1.2);
  auto rows_below = [&](double width) {
    int rows = entries.empty() ? 0 : 1;
    double x = 0;
    for (double w : entry_w) {
      if (x > 0 && x + w > width) ++rows, x = 0;
      x += w;
    }
    return rows;
  };
  // A corner the figure chose keeps the legend while it covers no data (at
  // a larger font it may: then the legend is placed as an automatic one).
  bool author_corner_taken = false;
  if (legend && style.legend_outside_data) {
    const ViewRange unfitted = L.range;
    bool on_data = true;
    // A legend wider or taller than the plot covers the axes in any corner
    // (a long entry at a lecture's font on a 1024-wide screen): below it.
    if (!hm && box_h <= L.plot.h && box_w <= L.plot.w) {
      if (f.equal_aspect && !(f.x.tight && f.y.tight) && !view && !style.hold) fix_aspect(L.range, L.plot);  // scored where the points will be
      if (f.legend != LegendPlace::automatic && points_under(corner_box(f.legend)) == 0 && !note_under(corner_box(f.legend))) {
        on_data = false;
      } else {
        double least = 1e300;
        for (LegendPlace c : corners) least = std::min(least, points_under(corner_box(c)) + (note_under(corner_box(c)) ? 1.0 : 0.0));
        on_data = least > 0;
        author_corner_taken = f.legend != LegendPlace::automatic;
      }
    }
    if (on_data) {
      if (!hm && box_w + fs * 0.8 <= L.plot.w / 3 && box_h <= L.plot.h) {
        legend_outside = true;
        L.plot.w = std::max(10.0, L.plot.w - box_w - fs * 0.8);
      } else {
        legend_below = true;
        below_h = legend_row * rows_below(bounds.w - 2 * pad) + fs * 0.5;
        L.plot.h = std::max(10.0, L.plot.h - below_h);
      }
      L.range = unfitted;  // fitted to the smaller plot below
    }
  }
  if (f.equal_aspect && f.x.tight && f.y.tight) {
    // Tight axes (a matrix) never pad past their data: the plot shrinks to
    // the data's aspect instead, kept at the top left next to its tick labels.
    const double dx = std::abs(L.range.x_max - L.range.x_min), dy = std::abs(L.range.y_max - L.range.y_min);
    if (dx > 0 && dy > 0) {
      if (dx / L.plot.w > dy / L.plot.h) {
        const double h = L.plot.w * dy / dx;
        L.plot.h = h;
      } else {
        const double w = L.plot.h * dx / dy;
        L.plot.w = w;
      }
    }
  } else if (f.equal_aspect && !view) {
    fix_aspect(L.range, L.plot);
  }

  const int x_target = std::max(2, static_cast<int>(L.plot.w / (fs * 6.5)));
  auto x_ticks = make_ticks(L.range.x_min, L.range.x_max, f.x.scale, f.x.format, x_target);
  if (!f.x.ticks.empty()) x_ticks = explicit_ticks(f.x);
  // Where an x tick's label is centred: under its tick, slid inwards as far
  // as it must to stay inside the figure (a last tick at the plot's right
  // end, "1,500", had half its label past the edge).
  auto label_centre = [&](double x, double w) {
    return std::clamp(x, bounds.x + w / 2, std::max(bounds.x + w / 2, bounds.right() - w / 2));
  };
  auto labels_touch = [&](const std::vector<Tick>& ticks) {
    double last_right = -1e300;
    for (const Tick& t : ticks) {
      const double tx = L.to_px_x(t.value);
      if (t.label.empty() || !std::isfinite(tx) || tx < L.plot.x - 0.5 || tx > L.plot.right() + 0.5) continue;
      const double w = text_width(painter, t.label, tick_st), x = label_centre(tx, w);
      if (x - w / 2 < last_right + fs * 0.5) return true;
      last_right = x + w / 2;
    }
    return false;
  };
  // A log axis labels every decade whose label has room, not a decade in
  // three: its labels ("10³") are short, and the width rule above, made for
  // "32,768", left scaling's five decades in lecture mode at 1024×768 with
  // "10²" alone.
  const double log_span = f.x.scale == AxisScale::log && L.range.x_min > 0
                              ? std::ceil(std::log10(L.range.x_max)) - std::floor(std::log10(L.range.x_min))
                              : kNaN;  // (a range at the extremes may be infinite or NaN: no int of it)
  if (f.x.ticks.empty() && std::isfinite(log_span) && log_span >= 1) {
    const int decades = static_cast<int>(std::min(log_span, 64.0));
    for (int target = decades; target > x_target; --target) {
      std::vector<Tick> denser = make_ticks(L.range.x_min, L.range.x_max, f.x.scale, f.x.format, target);
      if (!labels_touch(denser)) {
        x_ticks = std::move(denser);
        break;
      }
    }
  }
  // A linear axis with fewer than three labels in the plot (a narrow plot
  // at a large font: t5's buckets at 1024×768 in lecture mode showed "0"
  // alone) takes the next denser round step that puts three in it — every
  // tick labelled if that leaves room, else every other one (at even
  // multiples of the step: 0 among them).
  auto labelled_inside = [&](const std::vector<Tick>& ticks) {
    int n = 0;
    for (const Tick& t : ticks) {
      const double x = L.to_px_x(t.value);
      n += !t.label.empty() && std::isfinite(x) && x >= L.plot.x - 0.5 && x <= L.plot.right() + 0.5;
    }
    return n;
  };
  if (f.x.ticks.empty() && f.x.scale == AxisScale::linear && labelled_inside(x_ticks) < 3) {
    const int densest = std::max(x_target + 1, static_cast<int>(L.plot.w / (fs * 1.5)));
    for (int target = x_target + 1; target <= densest; ++target) {
      std::vector<Tick> denser = make_ticks(L.range.x_min, L.range.x_max, f.x.scale, f.x.format, target);
      if (labelled_inside(denser) < 3) continue;
      if (labels_touch(denser) && denser.size() >= 2) {
        const double step = denser[1].value - denser[0].value;
        for (Tick& t : denser)
          if (std::fmod(std::abs(std::round(t.value / step)), 2.0) != 0) t.label.clear();
      }
      if (labelled_inside(denser) >= 3 && !labels_touch(denser)) x_ticks = std::move(denser);
      break;
    }
  }
  // Named ticks (words, tokens) are never dropped for want of room: when two
  // neighbours would touch, every other one goes a row lower (issue 29: at a
  // large font "man₁" vanished, the word the question asked about).
  auto x_labels_touch = [&] { return labels_touch(x_ticks); };
  bool x_stagger = false;
  if (!f.x.ticks.empty() && x_labels_touch()) {
    x_stagger = true;
    const double row = tick_st.size * 1.2;
    if (f.equal_aspect && f.x.tight && f.y.tight && L.plot.bottom() + row > bottom - below_h) {
      const double k = std::max(0.1, (L.plot.h - row) / L.plot.h);  // a matrix keeps its aspect
      L.plot.h *= k, L.plot.w *= k;
    } else if (L.plot.bottom() + row > bottom - below_h) {
      L.plot.h = std::max(10.0, L.plot.h - row);
    }
  }

  if (!th.transparent) painter.fill_rect(L.plot, th.plot_background);

  // Grid (major ticks only).
  painter.push_clip(L.plot);
  for (const Tick& t : x_ticks) {
    const double x = L.to_px_x(t.value);
    if (t.label.empty() || !std::isfinite(x)) continue;
    const Point g[] = {{x, L.plot.y}, {x, L.plot.bottom()}};
    painter.stroke_polyline(g, th.grid, 1.0, LineStyle::solid);
  }
  for (const Tick& t : y_ticks) {
    const double y = L.to_px_y(t.value);
    if (t.label.empty() || !std::isfinite(y)) continue;
    const Point g[] = {{L.plot.x, y}, {L.plot.right(), y}};
    painter.stroke_polyline(g, th.grid, 1.0, LineStyle::solid);
  }

  // Bands.
  for (const Band& b : f.bands) {
    const Color c = b.color ? *b.color : palette_color(1).with_alpha(0.16f);
    Rect r;
    if (b.orientation == Orientation::vertical) {
      const double a = L.to_px_x(b.from), z = L.to_px_x(b.to);
      if (!std::isfinite(a) || !std::isfinite(z)) continue;
      r = {std::min(a, z), L.plot.y, std::abs(z - a), L.plot.h};
    } else {
      const double a = L.to_px_y(b.from), z = L.to_px_y(b.to);
      if (!std::isfinite(a) || !std::isfinite(z)) continue;
      r = {L.plot.x, std::min(a, z), L.plot.w, std::abs(z - a)};
    }
    painter.fill_rect(r, c);
  }

  for (const Heatmap& h : f.heatmaps) draw_heatmap(h, painter, L, th);

  // Reference lines.
  for (const RefLine& l : f.ref_lines) {
    const Color c = th.ink(l.color ? *l.color : th.muted);
    const double width = 1.5 * th.line_scale;
    if (l.orientation == Orientation::vertical) {
      const double x = L.to_px_x(l.value);
      if (!std::isfinite(x)) continue;
      const Point g[] = {{x, L.plot.y}, {x, L.plot.bottom()}};
      painter.stroke_polyline(g, c, width, l.style);
    } else {
      const double y = L.to_px_y(l.value);
      if (!std::isfinite(y)) continue;
      const Point g[] = {{L.plot.x, y}, {L.plot.right(), y}};
      painter.stroke_polyline(g, c, width, l.style);
    }
  }

  // A highlighted series is drawn last, over the faded others.
  const int highlight = style.highlight >= 0 && style.highlight < static_cast<int>(f.series.size()) ? style.highlight : -1;
  // Each series is projected once, for drawing and for the data cells below.
  std::vector<std::vector<Point>> series_px;
  series_px.reserve(f.series.size());
  for (const Series& s : f.series) series_px.push_back(project_series(s, L));
  for (std::size_t i = 0; i < f.series.size(); ++i)
    if (static_cast<int>(i) != highlight)
      draw_series(f.series[i], series_px[i], static_cast<int>(i), painter, L, fs, th, highlight >= 0 ? 0.18f : 1.0f);
  if (highlight >= 0)
    draw_series(f.series[static_cast<std::size_t>(highlight)], series_px[static_cast<std::size_t>(highlight)], highlight,
                painter, L, fs, th);

  // Arrows.
  for (const Arrow& a : f.arrows) {
    const Color c = th.ink(a.color ? *a.color : th.text);
    const Point p0{L.to_px_x(a.x0), L.to_px_y(a.y0)}, p1{L.to_px_x(a.x1), L.to_px_y(a.y1)};
    if (!std::isfinite(p0.x) || !std::isfinite(p0.y) || !std::isfinite(p1.x) || !std::isfinite(p1.y)) continue;
    const double dx = p1.x - p0.x, dy = p1.y - p0.y, len = std::hypot(dx, dy);
    if (len < 1e-6) continue;
    const double ux = dx / len, uy = dy / len, head = std::min(fs * 0.8, len * 0.4);
    const Point shaft[] = {p0, {p1.x - ux * head * 0.8, p1.y - uy * head * 0.8}};
    painter.stroke_polyline(shaft, c, fs * 0.16 * th.line_scale, LineStyle::solid);
    const Point tip[] = {p1, {p1.x - ux * head - uy * head * 0.45, p1.y - uy * head + ux * head * 0.45},
                         {p1.x - ux * head + uy * head * 0.45, p1.y - uy * head - ux * head * 0.45}};
    painter.fill_polygon(tip, c);
    if (!a.label.empty())
      rich_text(painter, {p0.x - ux * fs * 0.4, p0.y - uy * fs * 0.4}, a.label,
                TextStyle{note_size, false, with_contrast(c, th.plot_background, 4.5)},
                   ux > 0 ? Anchor::right : Anchor::left, VAnchor::middle);
  }
  painter.pop_clip();

  // The text notes sit at their data points; the legend takes the corner
  // whose box covers the fewest series points and, if any corner avoids
  // them, no note. Labels of reference lines and bands then keep clear of both.
  std::vector<Rect> obstacles = note_boxes();
  LegendPlace legend_place = author_corner_taken ? LegendPlace::automatic : f.legend;
  if (legend && legend_place == LegendPlace::automatic && !legend_outside && !legend_below) {
    double best_score = 1e300;
    for (LegendPlace candidate : corners) {
      const Rect b = corner_box(candidate);
      double score = points_under(b);
      for (const Rect& r : obstacles)
        if (r.x < b.right() && r.right() > b.x && r.y < b.bottom() && r.bottom() > b.y) score += 1e6;
      if (score < best_score) best_score = score, legend_place = candidate;
    }
  }
  if (legend && !legend_outside && !legend_below) obstacles.push_back(corner_box(legend_place));

  // Labels of reference lines and bands, inside the plot: at the first of a
  // few places along their line or band that covers no data and no label
  // already placed (the preferred place when every one does). Their boxes are
  // remembered so the legend can keep clear of them.
  std::vector<Rect>& labels = L.labels;
  // `rotated`: read bottom-to-top (rich_text's rotated text): `h` then
  // anchors along the text, upwards (left: it starts at at.y), and `v`
  // across it (top: the glyphs' tops at at.x, the text to the right of it).
  auto box_of = [&](Point at, std::string_view text, const TextStyle& st, Anchor h, VAnchor v, bool rotated = false) {
    const double w = text_width(painter, text, st), hgt = st.size * 1.25;
    if (rotated) {
      const double x = v == VAnchor::top ? at.x : v == VAnchor::bottom ? at.x - hgt : at.x - hgt / 2;
      const double y = h == Anchor::left ? at.y - w : h == Anchor::center ? at.y - w / 2 : at.y;
      return Rect{x, y, hgt, w};
    }
    const double x = h == Anchor::left ? at.x : h == Anchor::center ? at.x - w / 2 : at.x - w;
    const double y = v == VAnchor::top ? at.y : v == VAnchor::bottom ? at.y - hgt : at.y - hgt / 2;
    return Rect{x, y, w, hgt};
  };
  auto remember = [&](Point at, std::string_view text, const TextStyle& st, Anchor h, VAnchor v, bool rotated = false) {
    labels.push_back(box_of(at, text, st, h, v, rotated));
  };
  const bool any_label = std::any_of(f.ref_lines.begin(), f.ref_lines.end(), [](const RefLine& l) { return !l.label.empty(); }) ||
                         std::any_of(f.bands.begin(), f.bands.end(), [](const Band& b) { return !b.label.empty(); });
  const std::optional<DataCells> cells = any_label ? std::optional<DataCells>(data_cells(f, series_px, L, fs, th)) : std::nullopt;
  struct Place {
    Point at;
    Anchor h;
    VAnchor v;
    bool rotated = false;  ///< along a vertical line, read bottom-to-top
  };
  // Where the reference lines run, in pixels: a label crossed by another
  // line (a marked position through a threshold's label) cannot be read.
  std::vector<std::pair<bool, double>> line_px;  // (vertical, x or y)
  for (const RefLine& l : f.ref_lines) {
    const bool vertical = l.orientation == Orientation::vertical;
    const double at = vertical ? L.to_px_x(l.value) : L.to_px_y(l.value);
    line_px.emplace_back(vertical, std::isfinite(at) ? at : kNaN);
  }
  auto crossed = [&](const Rect& b, std::size_t own) {
    for (std::size_t i = 0; i < line_px.size(); ++i) {
      if (i == own) continue;
      const auto [vertical, at] = line_px[i];
      if (vertical ? at > b.x && at < b.right() : at > b.y && at < b.bottom()) return true;
    }
    return false;
  };
  // The first place whose box stays inside the plot and covers neither data,
  // a label nor another reference line; else, of those clear of labels, the
  // one covering the least data (a crossing line counts as much as a full
  // column of it); else the first. `own`: the reference line being labelled.
  auto choose = [&](const std::vector<Place>& places, std::string_view text, const TextStyle& st,
                    std::size_t own = static_cast<std::size_t>(-1)) {
    const Place* clear_of_labels = nullptr;
    int least = std::numeric_limits<int>::max();
    for (const Place& p : places) {
      const Rect b = box_of(p.at, text, st, p.h, p.v, p.rotated);
      if (b.x < L.plot.x - 0.5 || b.right() > L.plot.right() + 0.5 || b.y < L.plot.y - 0.5 || b.bottom() > L.plot.bottom() + 0.5)
        continue;
      const double gap = fs * 0.6;  // touching labels read as one
      auto near = [&](const Rect& r) {
        return b.x < r.right() + gap && r.x < b.right() + gap && b.y < r.bottom() && r.y < b.bottom();
      };
      const bool on_label = std::any_of(labels.begin(), labels.end(), near) || std::any_of(obstacles.begin(), obstacles.end(), near);
      if (on_label) continue;
      const bool crossing = crossed(b, own);
      if ((!cells || !cells->any(b)) && !crossing) return p;
      const int covered = (cells ? cells->count(b) : 0) + (crossing ? static_cast<int>(b.h / std::max(2.0, fs * 0.25)) + 1 : 0);
      if (covered < least) least = covered, clear_of_labels = &p;
    }
    return clear_of_labels ? *clear_of_labels : places.front();
  };
  // A label that found no free place sits on data: a backing of the plot's
  // background keeps it readable (not in a transparent export: nothing filled).
  auto backed_text = [&](const Place& p, std::string_view text, const TextStyle& st) {
    const Rect b = box_of(p.at, text, st, p.h, p.v, p.rotated);
    if (!th.transparent && cells && cells->any(b)) {
      const double inset = fs * 0.15;
      painter.fill_rect(p.rotated ? Rect{b.x, b.y - inset, b.w, b.h + 2 * inset} : Rect{b.x - inset, b.y, b.w + 2 * inset, b.h},
                        th.plot_background.with_alpha(0.85f));
    }
    rich_text(painter, p.at, text, st, p.h, p.v, p.rotated);
  };
  // Label text is read against the plot's background (or its backing): a
  // line drawn dark to show on a heatmap gets a light label on a dark theme.
  auto readable = [&](Color c) { return with_contrast(th.ink(c), th.plot_background, 4.5); };
  for (std::size_t li = 0; li < f.ref_lines.size(); ++li) {
    const RefLine& l = f.ref_lines[li];
    if (l.label.empty()) continue;
    const TextStyle st{line_label_size, false, readable(l.color ? *l.color : th.muted)};
    std::vector<Place> places, upright;
    if (l.orientation == Orientation::vertical) {
      const double x = L.to_px_x(l.value);
      if (!std::isfinite(x) || x < L.plot.x || x > L.plot.right()) continue;
      const bool room_right = x + text_width(painter, l.label, st) + fs * 0.4 < L.plot.right();
      const double at_top = L.plot.y + fs * 0.3, at_bottom = L.plot.bottom() - fs * 0.3, mid = L.plot.y + L.plot.h / 2;
      for (bool on_right : {room_right, !room_right}) {
        const Anchor h = on_right ? Anchor::left : Anchor::right;
        const double px = on_right ? x + fs * 0.3 : x - fs * 0.3;
        places.push_back({{px, at_top}, h, VAnchor::top});
        places.push_back({{px, at_bottom}, h, VAnchor::bottom});
        places.push_back({{px, mid}, h, VAnchor::middle});
      }
      // then a quarter in from either end, on either side (a legend in a
      // corner and a curve along the bottom may leave only those free)
      for (bool on_right : {room_right, !room_right})
        for (double t : {0.75, 0.25})
          places.push_back({{on_right ? x + fs * 0.3 : x - fs * 0.3, L.plot.y + L.plot.h * t},
                            on_right ? Anchor::left : Anchor::right, VAnchor::middle});
      // Along the line, read bottom-to-top, left of it, then right: only
      // when every place across crosses another line (below). Two lines
      // closer than the label is wide (scaling's L = 4,096 and "L′ = 32,768"
      // in a narrow plot) leave no place across, and the label had been
      // printed over the other line.
      for (bool on_right : {false, true}) {
        const double px = on_right ? x + fs * 0.2 : x - fs * 0.2;
        const VAnchor v = on_right ? VAnchor::top : VAnchor::bottom;
        upright.push_back({{px, L.plot.y + fs * 0.3}, Anchor::right, v, true});
        upright.push_back({{px, L.plot.bottom() - fs * 0.3}, Anchor::left, v, true});
        upright.push_back({{px, mid}, Anchor::center, v, true});
      }
    } else {
      const double y = L.to_px_y(l.value);
      if (!std::isfinite(y) || y < L.plot.y || y > L.plot.bottom()) continue;
      // Above the line, or below it where the frame's top edge would clip the
      // label; at the right end, else the left end, else the middle.
      const bool room_above = y - fs * 0.2 - st.size * 1.2 >= L.plot.y;
      const Place ends[] = {{{L.plot.right() - fs * 0.3, 0}, Anchor::right, VAnchor::bottom},
                            {{L.plot.x + fs * 0.3, 0}, Anchor::left, VAnchor::bottom},
                            {{L.plot.x + L.plot.w / 2, 0}, Anchor::center, VAnchor::bottom}};
      std::vector<Place> along(std::begin(ends), std::end(ends));
      // then anywhere along the line (a legend and a curve may leave only a gap in between)
      for (double t : {0.6, 0.4, 0.7, 0.3, 0.8, 0.2})
        along.push_back({{L.plot.x + L.plot.w * t, 0}, Anchor::center, VAnchor::bottom});
      for (const Place& e : along)
        for (bool above : {room_above, !room_above})
          places.push_back({{e.at.x, above ? y - fs * 0.2 : y + fs * 0.2}, e.h, above ? VAnchor::bottom : VAnchor::top});
    }
    Place p = choose(places, l.label, st, li);
    if (!upright.empty() && crossed(box_of(p.at, l.label, st, p.h, p.v), li)) {
      const Place q = choose(upright, l.label, st, li);
      if (!crossed(box_of(q.at, l.label, st, q.h, q.v, true), li)) p = q;
    }
    // No place inside the plot (a long label beside a line near an edge:
    // scaling's "s = 8, a = 1.2079, a² = 1.4591" at 1024 × 768 lecture ran
    // off the figure's left edge): the label fitted to the plot's width, as
    // titles are (smaller, then cut with …), and slid along until inside.
    std::string text = l.label;
    TextStyle fitted = st;
    if (const Rect b = box_of(p.at, text, fitted, p.h, p.v);
        !p.rotated && (b.x < L.plot.x - 0.5 || b.right() > L.plot.right() + 0.5)) {
      const double room = L.plot.w - fs * 0.6;
      if (b.w > room) {
        const FittedTitle fit = fit_title(painter, text, st, std::max(room, 1.0), style.min_text * 0.7, 1);
        text = fit.lines.front();
        fitted = fit.style;
      }
      const Rect c = box_of(p.at, text, fitted, p.h, p.v);
      if (c.x < L.plot.x + fs * 0.3) p.at.x += L.plot.x + fs * 0.3 - c.x;
      else if (c.right() > L.plot.right() - fs * 0.3) p.at.x -= c.right() - (L.plot.right() - fs * 0.3);
    }
    backed_text(p, text, fitted);
    remember(p.at, text, fitted, p.h, p.v, p.rotated);
  }
  for (const Band& b : f.bands) {
    if (b.label.empty() || b.orientation != Orientation::vertical) continue;
    const double a = L.to_px_x(b.from), z = L.to_px_x(b.to);
    if (!std::isfinite(a) || !std::isfinite(z)) continue;
    TextStyle st{line_label_size, false, th.muted};
    // A label wider than the plot fits no place inside it and was printed
    // over whatever lay at the first (t5's "a bucket per distance: |r| < E =
    // 8" over "D = 128" in lecture mode at 1024×768): fitted to the plot's
    // width first, as a reference line's label is (smaller, then cut with …).
    std::string text = b.label;
    if (const double room = L.plot.w - fs * 0.6; text_width(painter, text, st) > room) {
      const FittedTitle fit = fit_title(painter, text, st, std::max(room, 1.0), style.min_text * 0.7, 1);
      text = fit.lines.front();
      st = fit.style;
    }
    const double w = text_width(painter, text, st), hgt = st.size * 1.25;
    // Centred on the band (kept inside the plot), on the preferred edge and a
    // few lines in from it, then from the other edge.
    const double cx = std::clamp((a + z) / 2, L.plot.x + w / 2 + fs * 0.3, std::max(L.plot.x + w / 2 + fs * 0.3, L.plot.right() - w / 2 - fs * 0.3));
    std::vector<Place> places;
    for (bool on_top : {b.label_top, !b.label_top})
      for (int line = 0; line < 4; ++line)
        places.push_back(on_top ? Place{{cx, L.plot.y + fs * 0.3 + line * hgt}, Anchor::center, VAnchor::top}
                             : Place{{cx, L.plot.bottom() - fs * 0.3 - line * hgt}, Anchor::center, VAnchor::bottom});
    const Place p = choose(places, text, st);
    backed_text(p, text, st);
    remember(p.at, text, st, p.h, p.v);
  }
  // The values written in a matrix's cells (TextNotes on a heatmap) all
  // take one size, the largest at which every one fits its cell: a large
  // font in a small plot (lecture mode, Ctrl+=) had printed them over each
  // other. Down to 60 % of the notes' size, never under the lecture's floor
  // (issue 29: every text of a plot ≥ 3.5 % of the screen's height);
  // below that none is drawn, so that no cell looks empty (the hover
  // readout still gives each value). All or none was the rule at the full
  // size: rope's pair layouts lost every number at 1280×720 in lecture mode
  // under an axis titled "the number in each cell".
  double cell_scale = 1;
  for (const Heatmap& h : f.heatmaps) {
    if (!h.is_matrix() || h.cols <= 0 || h.rows <= 0) continue;
    const double cw = std::abs(L.to_px_x(h.x1) - L.to_px_x(h.x0)) / h.cols;
    const double ch = std::abs(L.to_px_y(h.y1) - L.to_px_y(h.y0)) / h.rows;
    for (const TextNote& n : f.notes) {
      if (n.x < std::min(h.x0, h.x1) || n.x > std::max(h.x0, h.x1) || n.y < std::min(h.y0, h.y1) ||
          n.y > std::max(h.y0, h.y1))
        continue;
      // A third of an em to spare: two-digit neighbours at 98 % of their
      // cells read as one number ("10111213" at 1280×720).
      const double w = text_width(painter, n.text, TextStyle{note_size, false, th.text});
      if (w > 0) cell_scale = std::min(cell_scale, cw / (w + note_size / 3));
      cell_scale = std::min(cell_scale, ch / (note_size * 1.05));
    }
  }
  // Widths grow with the size a little faster than in proportion (hinting): 3 % kept spare.
  const double cell_note_size = cell_scale >= 1 ? note_size : note_size * cell_scale * 0.97;
  const bool heatmap_notes_fit = cell_note_size >= std::max(note_size * 0.6, style.min_text);  // (never under the lecture's floor)
  bool cell_numbers_dropped = false;  // (then the x axis's label_without_cell_numbers)
  struct NoteFit {
    double y, room, size;
  };
  std::map<const TextNote*, NoteFit> note_fit;  // centred notes off the heatmaps that meet a neighbour
  for (const TextNote& n : f.notes) {
    const Point p{L.to_px_x(n.x), L.to_px_y(n.y)};
    if (n.anchor != Anchor::center || !std::isfinite(p.x) || !std::isfinite(p.y) || !L.plot.contains(p)) continue;
    if (std::any_of(f.heatmaps.begin(), f.heatmaps.end(), [&](const Heatmap& h) {
          return n.x >= std::min(h.x0, h.x1) && n.x <= std::max(h.x0, h.x1) && n.y >= std::min(h.y0, h.y1) &&
                 n.y <= std::max(h.y0, h.y1);
        }))
      continue;
    double room = 1e300;
    for (const TextNote& o : f.notes) {
      if (&o == &n) continue;
      const Point q{L.to_px_x(o.x), L.to_px_y(o.y)};
      if (!std::isfinite(q.x) || !std::isfinite(q.y) || std::abs(q.y - p.y) > note_size * 1.2) continue;
      if (const double dx = std::abs(q.x - p.x); dx > 0.5) room = std::min(room, dx - note_size * 0.3);
    }
    const TextStyle st{note_size, false, th.text};
    if (room >= 1e300) continue;  // alone on its line
    const double size = text_width(painter, n.text, st) <= room
                            ? note_size
                            : fit_title(painter, n.text, st, std::max(room, 1.0), style.min_text * 0.7, 1).style.size;
    note_fit[&n] = {p.y, room, size};
  }
  // A note anchored left and one anchored right at the same height that meet
  // (rope-2d's "q′·k′ = −0.75555" and "turned by r·θ ≡ 1.5 rad", placed in
  // the top corners of the circle's square, printed over each other once the
  // plot was wider than that square): each moves outwards, half the overlap,
  // as far as the plot's edge; if they still meet, the right one goes a line
  // lower (higher at the plot's bottom).
  std::map<const TextNote*, Point> moved;
  for (const TextNote& a : f.notes) {
    if (a.anchor != Anchor::left) continue;
    for (const TextNote& b : f.notes) {
      if (b.anchor != Anchor::right) continue;
      const Point pa{L.to_px_x(a.x), L.to_px_y(a.y)}, pb{L.to_px_x(b.x), L.to_px_y(b.y)};
      if (!std::isfinite(pa.x) || !std::isfinite(pa.y) || !std::isfinite(pb.x) || !std::isfinite(pb.y) ||
          !L.plot.contains(pa) || !L.plot.contains(pb) || pa.x >= pb.x || std::abs(pa.y - pb.y) > 0.5 ||
          moved.contains(&a) || moved.contains(&b))
        continue;
      const TextStyle st{note_size, false, th.text};
      const double gap = note_size * 0.6;
      const double overlap = pa.x + text_width(painter, a.text, st) + gap - (pb.x - text_width(painter, b.text, st));
      if (overlap <= 0) continue;
      const double room_a = std::max(0.0, pa.x - (L.plot.x + fs * 0.3)), room_b = std::max(0.0, L.plot.right() - fs * 0.3 - pb.x);
      double out_a = std::min(overlap / 2, room_a);
      const double out_b = std::min(overlap - out_a, room_b);
      out_a = std::min(overlap - out_b, room_a);
      Point qa{pa.x - out_a, pa.y}, qb{pb.x + out_b, pb.y};
      if (out_a + out_b < overlap - 1e-9) {
        // A line lower, or a line higher where lower would leave the plot
        // (a note whose anchor is outside the plot is not drawn at all).
        const double step = note_size * 1.35;
        if (L.plot.contains(Point{qb.x, qb.y + step})) qb.y += step;
        else if (L.plot.contains(Point{qb.x, qb.y - step})) qb.y -= step;
      }
      moved[&a] = qa;
      moved[&b] = qb;
    }
  }
  for (const TextNote& n : f.notes) {
    const auto shifted = moved.find(&n);
    const Point p = shifted != moved.end() ? shifted->second : Point{L.to_px_x(n.x), L.to_px_y(n.y)};
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !L.plot.contains(p)) continue;
    // A note over a heatmap has the colour its cell needs: it is not inked against the background.
    const bool on_heatmap = std::any_of(f.heatmaps.begin(), f.heatmaps.end(), [&](const Heatmap& h) {
      return n.x >= std::min(h.x0, h.x1) && n.x <= std::max(h.x0, h.x1) && n.y >= std::min(h.y0, h.y1) &&
             n.y <= std::max(h.y0, h.y1);
    });
    const Color nc = n.color ? *n.color : th.text;
    TextStyle st{on_heatmap ? cell_note_size : note_size, false, on_heatmap ? nc : readable(nc)};
    if (on_heatmap && !heatmap_notes_fit) {
      cell_numbers_dropped = true;
      continue;
    }
    // A centred note beside others on its line (why-position's block titles
    // "y: as given", "y: shuffled, put back", "difference" over three
    // matrices) keeps to the distance to its nearest neighbour (half on each
    // side): the line's notes all at the size that fits the tightest, down
    // to 60 % (never under 0.7 of the lecture floor), then cut with "…". At Ctrl+= ×3 in lecture mode they were
    // printed over each other.
    std::string text = n.text;
    if (const auto it = note_fit.find(&n); it != note_fit.end()) {
      const double line_size = [&] {
        double least = it->second.size;
        for (const auto& [o, fit] : note_fit)
          if (std::abs(fit.y - it->second.y) <= note_size * 1.2) least = std::min(least, fit.size);
        return least;
      }();
      st.size = line_size;
      if (text_width(painter, text, st) > it->second.room) {
        const FittedTitle fit = fit_title(painter, text, st, std::max(it->second.room, 1.0), line_size, 1);
        text = fit.lines.front();
      }
    }
    // A centred note alone on its line and wider than the plot around it
    // (a step's "Hidden until the answer: predict first, then press →" over
    // relative's narrow square matrix in lecture mode at 1024×768 ran past
    // both edges) goes on up to three lines, smaller if it must, then cut.
    if (n.anchor == Anchor::center && !on_heatmap && !note_fit.contains(&n)) {
      const double room = 2 * std::min(p.x - L.plot.x, L.plot.right() - p.x) - note_size * 0.6;
      if (text_width(painter, text, st) > room) {
        const FittedTitle fit = fit_title(painter, text, st, std::max(room, 1.0), style.min_text * 0.7, 3);
        const double step = fit.style.size * 1.2;
        for (std::size_t i = 0; i < fit.lines.size(); ++i) {
          const Point at{p.x, p.y + (static_cast<double>(i) - static_cast<double>(fit.lines.size() - 1) / 2) * step};
          rich_text(painter, at, fit.lines[i], fit.style, n.anchor, VAnchor::middle);
          remember(at, fit.lines[i], fit.style, n.anchor, VAnchor::middle);
        }
        continue;
      }
    }
    rich_text(painter, p, text, st, n.anchor, VAnchor::middle);
    remember(p, text, st, n.anchor, VAnchor::middle);
  }

  // Frame, ticks, tick labels, axis titles.
  const Point frame[] = {{L.plot.x, L.plot.y}, {L.plot.right(), L.plot.y}, {L.plot.right(), L.plot.bottom()},
                         {L.plot.x, L.plot.bottom()}, {L.plot.x, L.plot.y}};
  painter.stroke_polyline(frame, th.axis, 1.0, LineStyle::solid);
  const double tick_len = fs * 0.35;
  double last_label_right[2] = {-1e300, -1e300};  // per row
  int labelled = 0;
  // Named x ticks still too close in their two staggered rows are drawn
  // smaller — down to 40 % of their size — rather than dropped: at Ctrl+= ×3
  // in lecture mode why-position's dimensions 2 and 5 went missing (issue 29).
  TextStyle xtick_st = tick_st;
  if (!f.x.ticks.empty() && x_stagger) {
    double k = 1, last_x[2] = {kNaN, kNaN}, last_w[2] = {0, 0};
    int n = 0;
    for (const Tick& t : x_ticks) {
      const double x = L.to_px_x(t.value);
      if (t.label.empty() || !std::isfinite(x) || x < L.plot.x - 0.5 || x > L.plot.right() + 0.5) continue;
      const int row = n++ % 2;
      const double w = text_width(painter, t.label, tick_st);
      if (std::isfinite(last_x[row]) && w + last_w[row] > 0)
        k = std::min(k, (x - last_x[row] - fs * 0.5) / ((w + last_w[row]) / 2));
      last_x[row] = x, last_w[row] = w;
    }
    if (k < 1) xtick_st.size = std::max({style.min_text * 0.6, tick_st.size * 0.4, tick_st.size * k * 0.98});
  }
  for (const Tick& t : x_ticks) {
    const double x = L.to_px_x(t.value);
    if (!std::isfinite(x) || x < L.plot.x - 0.5 || x > L.plot.right() + 0.5) continue;
    const int row = x_stagger && !t.label.empty() ? labelled % 2 : 0;
    const double len = (t.label.empty() ? tick_len * 0.55 : tick_len) + row * tick_st.size * 1.2;
    const Point g[] = {{x, L.plot.bottom()}, {x, L.plot.bottom() + len}};
    painter.stroke_polyline(g, row ? th.grid : th.axis, 1.0, LineStyle::solid);
    if (t.label.empty()) continue;
    const double w = text_width(painter, t.label, xtick_st), lx = label_centre(x, w);
    if (lx - w / 2 < last_label_right[row] + fs * 0.5) continue;  // never overlap labels
    rich_text(painter, {lx, L.plot.bottom() + tick_len + fs * 0.15 + row * tick_st.size * 1.2}, t.label, xtick_st,
              Anchor::center, VAnchor::top);
    last_label_right[row] = lx + w / 2;
    ++labelled;
  }
  // Named y ticks (a matrix's tokens) closer than their text is tall are
  // drawn smaller — down to the style's minimum — rather than dropped.
  TextStyle ytick_st = tick_st;
  if (!f.y.ticks.empty()) {
    double gap = 1e300, prev = kNaN;
    for (const Tick& t : y_ticks) {
      const double y = L.to_px_y(t.value);
      if (t.label.empty() || !std::isfinite(y) || y < L.plot.y - 0.5 || y > L.plot.bottom() + 0.5) continue;
      if (std::isfinite(prev)) gap = std::min(gap, std::abs(y - prev));
      prev = y;
    }
    // A token's name is worth more than the style's minimum: at Ctrl+= ×3
    // in lecture mode a 6-row matrix has 24 px rows against 26 px text and
    // dropped every other word, "man₁" among them (issue 29). Down to 60 %
    // of the minimum, the size at which every row's name fits (1.25 × its
    // size per row, so that the overlap guard below keeps them all).
    // Not held at 60 % of the tick size itself: at three presses the rows of
    // why-position's shuffled matrix were closer than that and every other
    // word was still dropped; 40 % of it is the floor.
    if (gap < ytick_st.size * 1.2) ytick_st.size = std::max({style.min_text * 0.6, gap / 1.25, tick_st.size * 0.4});
  }
  double last_label_top = 1e300;
  for (const Tick& t : y_ticks) {
    const double y = L.to_px_y(t.value);
    if (!std::isfinite(y) || y < L.plot.y - 0.5 || y > L.plot.bottom() + 0.5) continue;
    const double len = t.label.empty() ? tick_len * 0.55 : tick_len;
    const Point g[] = {{L.plot.x - len, y}, {L.plot.x, y}};
    painter.stroke_polyline(g, th.axis, 1.0, LineStyle::solid);
    if (t.label.empty()) continue;
    if (y + ytick_st.size * 0.6 > last_label_top) continue;
    rich_text(painter, {L.plot.x - tick_len - fs * 0.25, y}, t.label, ytick_st, Anchor::right, VAnchor::middle);
    last_label_top = y - ytick_st.size * 0.6;
  }
  // Axis titles: the x title smaller when longer than its side (never
  // clipped by the figure's edge), down to 60 %; the y title as fitted above.
  auto fitted = [&](const std::string& text, double room) {
    TextStyle st = label_st;
    const double w = text_width(painter, text, st);
    if (w > room && w > 0) st.size = std::max(st.size * std::max(0.6, room / w), style.min_text);
    return st;
  };
  if (!f.x.label.empty()) {
    Axis x_axis = f.x;
    if (cell_numbers_dropped && !f.x.label_without_cell_numbers.empty()) x_axis.label = f.x.label_without_cell_numbers;
    const std::string t = axis_title(x_axis);
    rich_text(painter, {L.plot.x + L.plot.w / 2, bounds.bottom() - pad - below_h}, t, fitted(t, 2 * std::min(L.plot.x + L.plot.w / 2 - bounds.x, bounds.right() - L.plot.x - L.plot.w / 2) - 2 * pad),
                 Anchor::center, VAnchor::bottom);
  }
  // The y title was fitted to the height the plot had before a legend or a
  // row of tick labels took some of it: fitted again, on no more lines (the
  // room beside the plot is set), when it is now longer than the plot
  // (scaling's "RoFormer's bound (local mean), relative to its value at 0"
  // ran off the figure's top in lecture mode at 1024×768).
  FittedTitle y_drawn = y_title;
  if (!y_title.lines.empty()) {
    double longest = 0;
    for (const std::string& l : y_title.lines) longest = std::max(longest, text_width(painter, l, y_title.style));
    if (longest > L.plot.h + 0.5)
      y_drawn = fit_title(painter, axis_title(f.y), label_st, std::max(10.0, L.plot.h), style.min_text, y_title.lines.size());
  }
  for (std::size_t i = 0; i < y_drawn.lines.size(); ++i)
    rich_text(painter, {bounds.x + pad + y_drawn.style.size * 1.2 * static_cast<double>(i), L.plot.y + L.plot.h / 2},
                 y_drawn.lines[i], y_drawn.style, Anchor::center, VAnchor::top, true);

  // Colorbar.
  if (hm) {
    const Rect bar{L.plot.right() + fs * 0.8, L.plot.y, cb_w, L.plot.h};
    const int n = std::clamp(static_cast<int>(bar.h * painter.pixel_density()), 2, kMaxRasterSide);
    std::vector<float> ramp(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) ramp[static_cast<std::size_t>(i)] = static_cast<float>(hm->vmax - (hm->vmax - hm->vmin) * (i + 0.5) / n);
    painter.heatmap(bar, ScalarRaster{1, n, ramp, {}, hm->colormap, hm->vmin, hm->vmax});
    const Point box[] = {{bar.x, bar.y}, {bar.right(), bar.y}, {bar.right(), bar.bottom()}, {bar.x, bar.bottom()}, {bar.x, bar.y}};
    painter.stroke_polyline(box, th.axis, 1.0, LineStyle::solid);
    double widest = 0;
    double last_top = 1e300;  // the colour bar's labels, bottom up: one that would touch the last is left out
    for (const Tick& t : cb_ticks) {
      const double y = bar.bottom() - (t.value - hm->vmin) / (hm->vmax - hm->vmin) * bar.h;
      if (y < bar.y - 0.5 || y > bar.bottom() + 0.5) continue;
      const Point g[] = {{bar.right(), y}, {bar.right() + tick_len, y}};
      painter.stroke_polyline(g, th.axis, 1.0, LineStyle::solid);
      if (y + tick_st.size * 0.6 > last_top) continue;
      last_top = y - tick_st.size * 0.6;
      rich_text(painter, {bar.right() + tick_len + fs * 0.25, y}, t.label, tick_st, Anchor::left, VAnchor::middle);
      widest = std::max(widest, text_width(painter, t.label, tick_st));
    }
    if (!hm->value_name.empty())
      rich_text(painter, {bar.right() + tick_len + fs * 0.6 + widest, bar.y + bar.h / 2}, hm->value_name, label_st,
                   Anchor::center, VAnchor::top, true);
  }

  // Legend.
  auto draw_swatch = [&](const Series& se, int i, double sx, double y) {
    Color c = series_color(se, i, th);
    if (highlight >= 0 && i != highlight) c.a *= 0.3f;
    const double width = se.width * fs / 14.0 * th.line_scale, radius = se.marker * fs / 14.0 * std::sqrt(th.line_scale);
    if (se.kind == SeriesKind::scatter) {
      painter.fill_circle({sx + swatch / 2, y}, radius, c);
    } else if (se.kind == SeriesKind::bars) {
      painter.fill_rect({sx + swatch * 0.2, y - legend_row * 0.3, swatch * 0.6, legend_row * 0.6}, c);
    } else {
      const Point seg[] = {{sx, y}, {sx + swatch, y}};
      painter.stroke_polyline(seg, c, width, se.style);
      if (se.kind == SeriesKind::stems) painter.fill_circle({sx + swatch / 2, y}, radius, c);
    }
  };
  if (legend && legend_below) {
    // In rows under the x axis's title, left to right.
    double x = bounds.x + pad, y = bounds.bottom() - pad - below_h + fs * 0.5 + legend_row / 2;
    for (std::size_t k = 0; k < entries.size(); ++k) {
      const auto& [name, i] = entries[k];
      if (x > bounds.x + pad && x + entry_w[k] > bounds.right() - pad) x = bounds.x + pad, y += legend_row;
      L.legend.emplace_back(i, Rect{x, y - legend_row / 2, entry_w[k], legend_row});
      draw_swatch(f.series[static_cast<std::size_t>(i)], i, x, y);
      // An entry longer than the figure is wide is drawn smaller, then cut
      // with "…": images step 5's "h (height): 24 pairs, λ from 199 to
      // 28,458" ran past the edge at 1024 × 768 in lecture mode.
      const double room = bounds.right() - pad - (x + swatch + fs * 0.4);
      if (text_width(painter, name, legend_st) > room) {
        const FittedTitle fit = fit_title(painter, name, legend_st, std::max(room, 1.0), style.min_text * 0.7, 1);
        rich_text(painter, {x + swatch + fs * 0.4, y}, fit.lines.front(), fit.style, Anchor::left, VAnchor::middle);
      } else {
        rich_text(painter, {x + swatch + fs * 0.4, y}, name, legend_st, Anchor::left, VAnchor::middle);
      }
      x += entry_w[k];
    }
  } else if (legend) {
    const Rect box = legend_outside ? Rect{L.plot.right() + fs * 0.8, L.plot.y, box_w, box_h} : corner_box(legend_place);
    if (!th.transparent && !legend_outside) painter.fill_rect(box, th.plot_background.with_alpha(0.9f));
    if (!legend_outside) {
      const Point outline[] = {{box.x, box.y}, {box.right(), box.y}, {box.right(), box.bottom()}, {box.x, box.bottom()}, {box.x, box.y}};
      painter.stroke_polyline(outline, th.grid, 1.0, LineStyle::solid);
    }
    double y = box.y + fs * 0.25 + legend_row / 2;
    for (const auto& [name, i] : entries) {
      L.legend.emplace_back(i, Rect{box.x, y - legend_row / 2, box.w, legend_row});
      const double sx = box.x + fs * 0.4;
      draw_swatch(f.series[static_cast<std::size_t>(i)], i, sx, y);
      rich_text(painter, {sx + swatch + fs * 0.4, y}, name, legend_st, Anchor::left, VAnchor::middle);
      y += legend_row;
    }
  }

  // Title and subtitle, as wrapped above.
  double ty = bounds.y + pad;
  for (const std::string& line : title_lines) {
    rich_text(painter, {bounds.x + pad, ty}, line, title_st, Anchor::left, VAnchor::top);
    ty += title_st.size * 1.25;
  }
  for (const std::string& line : sub_lines) {
    rich_text(painter, {bounds.x + pad, ty}, line, sub_st, Anchor::left, VAnchor::top);
    ty += sub_st.size * 1.35;
  }
  return L;
}

// [SECTION] Hover readouts

std::string hover_readout(const Figure& f, const PlotLayout& L, Point px, double radius, const ReadoutWords& words) {
  if (!L.plot.contains(px)) return {};
  const Series* best = nullptr;
  std::size_t best_i = 0;
  double best_d = radius;
  for (const Series& s : f.series) {
    const std::size_t n = std::min(s.x.size(), s.y.size());
    if (n == 0) continue;
    std::size_t lo = 0, hi = n;
    if (std::is_sorted(s.x.begin(), s.x.begin() + static_cast<std::ptrdiff_t>(n))) {
      // only points within `radius` pixels in x can win
      const double xa = L.from_px_x(px.x - radius), xb = L.from_px_x(px.x + radius);
      lo = static_cast<std::size_t>(std::lower_bound(s.x.begin(), s.x.begin() + static_cast<std::ptrdiff_t>(n), std::min(xa, xb)) - s.x.begin());
      hi = static_cast<std::size_t>(std::upper_bound(s.x.begin(), s.x.begin() + static_cast<std::ptrdiff_t>(n), std::max(xa, xb)) - s.x.begin());
      if (hi - lo > 20000) {  // a dense curve: check a strided subset plus the nearest in x
        const std::size_t mid = static_cast<std::size_t>(std::lower_bound(s.x.begin(), s.x.begin() + static_cast<std::ptrdiff_t>(n), L.from_px_x(px.x)) - s.x.begin());
        lo = mid > 10000 ? mid - 10000 : 0;
        hi = std::min(n, mid + 10000);
      }
    }
    for (std::size_t i = lo; i < hi; ++i) {
      const double dx = L.to_px_x(s.x[i]) - px.x, dy = L.to_px_y(s.y[i]) - px.y;
      const double dist = std::hypot(dx, dy);
      if (dist < best_d) best_d = dist, best = &s, best_i = i;
    }
  }
  auto name_or = [](const std::string& a, const Axis& ax) { return !a.empty() ? a : ax.label; };
  if (best) {
    std::string out = name_or(best->x_name, f.x) + " " + format_readout(best->x[best_i]) + " · " +
                      name_or(best->y_name, f.y) + " = " + format_readout(best->y[best_i]);
    for (const ExtraColumn& e : best->extra)
      if (best_i < e.values.size())
        out += " · " + e.name + " = " + format_readout(e.values[best_i]) + (e.unit.empty() ? "" : " " + e.unit);
    if (!best->name.empty()) out = fill_sentence(words.named, {{"name", best->name}, {"readout", out}});
    return plain_text(out);  // a tooltip's one line: formulas written out
  }
  const double x = L.from_px_x(px.x), y = L.from_px_y(px.y);
  for (const Heatmap& h : f.heatmaps) {
    const auto v = h.value_at(x, y);
    if (!v) continue;
    // A cell is named as its axis labels it: the cell value_at read, by its
    // centre when cells are centred on whole numbers (a matrix over
    // −0.5 … n − 0.5: cell 0 is "0", never "−1"), else by its start.
    auto coord = [](double c, bool cells, double lo, double hi, int n) {
      if (!cells) return format_readout(c);
      if (n <= 0 || !(hi != lo)) return format_readout(std::floor(c));
      const double w = (hi - lo) / n;
      const int k = std::clamp(static_cast<int>(std::floor((c - lo) / w)), 0, n - 1);
      const double centre = lo + (k + 0.5) * w, start = lo + k * w;
      return format_readout(std::abs(centre - std::round(centre)) < 1e-6 * std::max(1.0, std::abs(w)) ? centre : start);
    };
    const bool xc = h.is_matrix() || h.x_cells, yc = h.is_matrix() || h.y_cells;
    return plain_text((h.x_name.empty() ? f.x.label : h.x_name) + " " + coord(x, xc, h.x0, h.x1, h.cols) + " · " +
                      (h.y_name.empty() ? f.y.label : h.y_name) + " " + coord(y, yc, h.y0, h.y1, h.rows) + " · " +
                      (h.value_name.empty() ? words.value : h.value_name) + " = " + format_readout(*v));
  }
  return {};
}

}  // namespace poslab::app::fig
