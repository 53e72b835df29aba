#include "app/plot/figure_wire.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace poslab::app::fig::wire {

static_assert(std::endian::native == std::endian::little, "the bytes are written in the machine's order: little-endian");

// [SECTION] Writer and Reader

void Writer::raw(const void* p, std::size_t n) {
  if (n != 0) out_.append(static_cast<const char*>(p), n);
}
void Writer::u32(std::uint32_t v) { raw(&v, sizeof v); }
void Writer::f32(float v) { raw(&v, sizeof v); }
void Writer::f64(double v) { raw(&v, sizeof v); }

void Writer::text(std::string_view s) {
  u32(static_cast<std::uint32_t>(s.size()));
  raw(s.data(), s.size());
}

void Writer::doubles(std::span<const double> v) {
  u32(static_cast<std::uint32_t>(v.size()));
  raw(v.data(), v.size_bytes());
}

void Writer::floats(std::span<const float> v) {
  u32(static_cast<std::uint32_t>(v.size()));
  raw(v.data(), v.size_bytes());
}

void Writer::bytes(std::span<const std::uint8_t> v) {
  u32(static_cast<std::uint32_t>(v.size()));
  raw(v.data(), v.size_bytes());
}

void Reader::fail(const char* what) { throw std::runtime_error(std::string("figure bytes: ") + what); }

void Reader::raw(void* p, std::size_t n) {
  if (n > in_.size() - at_) fail("they end early");
  if (n == 0) return;  // an empty vector's data() may be null: memcpy must not see it
  std::memcpy(p, in_.data() + at_, n);
  at_ += n;
}

std::size_t Reader::count(std::size_t item) {
  const std::size_t n = u32();
  if (n > (in_.size() - at_) / item) fail("a count runs past the end");
  return n;
}

std::uint8_t Reader::u8() {
  std::uint8_t v = 0;
  raw(&v, 1);
  return v;
}

std::uint32_t Reader::u32() {
  std::uint32_t v = 0;
  raw(&v, sizeof v);
  return v;
}

float Reader::f32() {
  float v = 0;
  raw(&v, sizeof v);
  return v;
}

double Reader::f64() {
  double v = 0;
  raw(&v, sizeof v);
  return v;
}

bool Reader::boolean() {
  const std::uint8_t v = u8();
  if (v > 1) fail("a boolean that is neither 0 nor 1");
  return v == 1;
}

std::string Reader::text() {
  std::string s(count(1), '\0');
  raw(s.data(), s.size());
  return s;
}

std::vector<double> Reader::doubles() {
  std::vector<double> v(count(sizeof(double)));
  raw(v.data(), v.size() * sizeof(double));
  return v;
}

std::vector<float> Reader::floats() {
  std::vector<float> v(count(sizeof(float)));
  raw(v.data(), v.size() * sizeof(float));
  return v;
}

std::vector<std::uint8_t> Reader::bytes() {
  std::vector<std::uint8_t> v(count(1));
  raw(v.data(), v.size());
  return v;
}

// [SECTION] Figure fields, in order

namespace {

constexpr char kMagic[4] = {'P', 'L', 'F', '4'};

void put(Writer& w, const std::optional<Color>& c) {
  w.boolean(c.has_value());
  if (c) w.f32(c->r), w.f32(c->g), w.f32(c->b), w.f32(c->a);
}

std::optional<Color> get_color(Reader& r) {
  if (!r.boolean()) return std::nullopt;
  Color c;
  c.r = r.f32(), c.g = r.f32(), c.b = r.f32(), c.a = r.f32();
  return c;
}

void put(Writer& w, const std::optional<double>& v) {
  w.boolean(v.has_value());
  if (v) w.f64(*v);
}

std::optional<double> get_number(Reader& r) {
  if (!r.boolean()) return std::nullopt;
  return r.f64();
}

void put(Writer& w, const Axis& a) {
  w.text(a.label);
  w.text(a.unit);
  w.text(a.label_without_cell_numbers);
  w.u8(static_cast<std::uint8_t>(a.scale));
  put(w, a.min);
  put(w, a.max);
  w.u8(static_cast<std::uint8_t>(a.format));
  w.u32(static_cast<std::uint32_t>(a.ticks.size()));
  for (const auto& [v, label] : a.ticks) w.f64(v), w.text(label);
  w.boolean(a.tight);
  w.boolean(a.reversed);
}

Axis get_axis(Reader& r) {
  Axis a;
  a.label = r.text();
  a.unit = r.text();
  a.label_without_cell_numbers = r.text();
  a.scale = r.enumeration(AxisScale::symlog);
  a.min = get_number(r);
  a.max = get_number(r);
  a.format = r.enumeration(TickFormat::pi);
  const std::uint32_t n = r.u32();
  for (std::uint32_t i = 0; i < n; ++i) {
    const double v = r.f64();
    a.ticks.emplace_back(v, r.text());
  }
  a.tight = r.boolean();
  a.reversed = r.boolean();
  return a;
}

// How a series' screen points cross: none; as well as its points; or as its
// points themselves (for the screen: the rest stays behind).
enum class ScreenMode : std::uint8_t { none, own, are_the_points };

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Where each of the screen points is in the series' data: prepare_for_screen
/// keeps points of the data in their order, so each is found walking forward
/// (its x and y bit for bit). Empty when one is not found (screen points made
/// some other way: they cross beside the data).
std::vector<std::uint32_t> screen_places(const Series& s, const ScreenPoints& sp) {
  std::vector<std::uint32_t> places;
  if (sp.x.size() != sp.y.size()) return places;
  places.reserve(sp.x.size());
  const std::size_t n = std::min(s.x.size(), s.y.size());
  std::size_t j = 0;
  for (std::size_t k = 0; k < sp.x.size(); ++k, ++j) {
    while (j < n && !(same_bits(s.x[j], sp.x[k]) && same_bits(s.y[j], sp.y[k]))) ++j;
    if (j == n) return {};
    places.push_back(static_cast<std::uint32_t>(j));
  }
  return places;
}

void put(Writer& w, const Series& s, bool for_screen) {
  const ScreenPoints* sp = s.screen.get();
  const std::vector<std::uint32_t> places = for_screen && sp ? screen_places(s, *sp) : std::vector<std::uint32_t>{};
  const bool reduce = for_screen && sp && !sp->x.empty() && places.size() == sp->x.size();
  w.text(s.name);
  w.u8(static_cast<std::uint8_t>(s.kind));
  w.doubles(reduce ? sp->x : s.x);
  w.doubles(reduce ? sp->y : s.y);
  put(w, s.color);
  w.f32(s.width);
  w.u8(static_cast<std::uint8_t>(s.style));
  w.f32(s.marker);
  w.u32(static_cast<std::uint32_t>(s.extra.size()));
  for (const ExtraColumn& e : s.extra) {
    w.text(e.name), w.text(e.unit);
    if (!reduce) {
      w.doubles(e.values);
      continue;
    }
    std::vector<double> kept;  // the kept points' values (none for a point the column lacks)
    for (std::uint32_t i : places)
      if (i < e.values.size()) kept.push_back(e.values[i]);
    w.doubles(kept.size() == places.size() ? kept : std::vector<double>{});
  }
  w.text(s.x_name);
  w.text(s.y_name);
  w.text(s.data_name);
  w.text(s.described);
  w.boolean(s.decoration);
  w.u8(static_cast<std::uint8_t>(!sp ? ScreenMode::none : reduce ? ScreenMode::are_the_points : ScreenMode::own));
  if (sp && !reduce) {
    w.doubles(sp->x);
    w.doubles(sp->y);
  }
  if (sp) {
    w.f64(sp->u0);
    w.f64(sp->u1);
    w.i32(sp->buckets);
  }
}

Series get_series(Reader& r) {
  Series s;
  s.name = r.text();
  s.kind = r.enumeration(SeriesKind::stems);
  s.x = r.doubles();
  s.y = r.doubles();
  s.color = get_color(r);
  s.width = r.f32();
  s.style = r.enumeration(LineStyle::dotted);
  s.marker = r.f32();
  const std::uint32_t n = r.u32();
  for (std::uint32_t i = 0; i < n; ++i) {
    ExtraColumn e;
    e.name = r.text();
    e.unit = r.text();
    e.values = r.doubles();
    s.extra.push_back(std::move(e));
  }
  s.x_name = r.text();
  s.y_name = r.text();
  s.data_name = r.text();
  s.described = r.text();
  s.decoration = r.boolean();
  const ScreenMode mode = r.enumeration(ScreenMode::are_the_points);
  if (mode == ScreenMode::none) return s;
  auto p = std::make_shared<ScreenPoints>();
  if (mode == ScreenMode::own) {
    p->x = r.doubles();
    p->y = r.doubles();
  } else {
    p->x = s.x;
    p->y = s.y;
  }
  p->u0 = r.f64();
  p->u1 = r.f64();
  p->buckets = r.i32();
  if (p->x.size() != p->y.size() || p->buckets < 1) Reader::fail("a series' screen points do not match");
  s.screen = std::move(p);
  return s;
}

void put(Writer& w, const Heatmap& h) {
  w.f64(h.x0), w.f64(h.x1), w.f64(h.y0), w.f64(h.y1);
  w.i32(h.cols), w.i32(h.rows);
  w.floats(h.values);
  w.bytes(h.mask);
  w.boolean(h.x_cells), w.boolean(h.y_cells);
  w.u8(static_cast<std::uint8_t>(h.colormap));
  w.f64(h.vmin), w.f64(h.vmax);
  w.text(h.value_name), w.text(h.x_name), w.text(h.y_name);
  // A sampler crosses as what it sampled for the screen (none: nothing to draw).
  const ScreenRaster* sr = h.is_matrix() ? nullptr : h.screen.get();
  w.boolean(sr != nullptr);
  if (sr) {
    w.i32(sr->nx), w.i32(sr->ny);
    w.boolean(sr->x_lattice), w.boolean(sr->y_lattice);
    w.floats(sr->values);
  }
}

Heatmap get_heatmap(Reader& r, const Axis& x, const Axis& y) {
  Heatmap h;
  h.x0 = r.f64(), h.x1 = r.f64(), h.y0 = r.f64(), h.y1 = r.f64();
  h.cols = r.i32(), h.rows = r.i32();
  h.values = r.floats();
  h.mask = r.bytes();
  h.x_cells = r.boolean(), h.y_cells = r.boolean();
  h.colormap = r.enumeration(Colormap::signed_);
  h.vmin = r.f64(), h.vmax = r.f64();
  h.value_name = r.text(), h.x_name = r.text(), h.y_name = r.text();
  if (!h.values.empty() &&
      (h.cols <= 0 || h.rows <= 0 || h.values.size() != static_cast<std::size_t>(h.cols) * static_cast<std::size_t>(h.rows) ||
       (!h.mask.empty() && h.mask.size() != h.values.size())))
    Reader::fail("a heatmap's values do not match its size");
  if (r.boolean()) {
    auto sr = std::make_shared<ScreenRaster>();
    sr->nx = r.i32(), sr->ny = r.i32();
    sr->x_lattice = r.boolean(), sr->y_lattice = r.boolean();
    sr->values = r.floats();
    if (sr->nx <= 0 || sr->ny <= 0 ||
        sr->values.size() != static_cast<std::size_t>(sr->nx) * static_cast<std::size_t>(sr->ny))
      Reader::fail("a heatmap's raster does not match its size");
    h.screen = std::move(sr);
    h.sampler = raster_sampler(h, x.scale, y.scale);
  }
  return h;
}

}  // namespace

// [SECTION] The figure

void encode_figure(Writer& w, const Figure& f, bool for_screen) {
  // The arrays are most of the bytes: room for them first (a hint, not a
  // bound: a long line for the screen crosses as its screen points, far
  // fewer than its own — counted by those, or a 10 kB reply reserved MBs).
  std::size_t bulk = 4096;
  for (const Heatmap& h : f.heatmaps)
    bulk += h.values.size() * sizeof(float) + h.mask.size() + (h.screen ? h.screen->values.size() * sizeof(float) : 0);
  for (const Series& s : f.series) {
    const std::size_t points = for_screen && s.screen ? s.screen->x.size() : std::max(s.x.size(), s.y.size());
    bulk += points * sizeof(double) * (2 + s.extra.size()) + 64 * (1 + s.extra.size());
  }
  w.reserve(bulk);
  for (char c : kMagic) w.u8(static_cast<std::uint8_t>(c));
  w.text(f.id);
  w.text(f.title);
  w.text(f.subtitle);
  put(w, f.x);
  put(w, f.y);
  w.u32(static_cast<std::uint32_t>(f.series.size()));
  for (const Series& s : f.series) put(w, s, for_screen);
  w.u32(static_cast<std::uint32_t>(f.heatmaps.size()));
  for (const Heatmap& h : f.heatmaps) put(w, h);
  w.u32(static_cast<std::uint32_t>(f.ref_lines.size()));
  for (const RefLine& l : f.ref_lines) {
    w.u8(static_cast<std::uint8_t>(l.orientation));
    w.f64(l.value);
    w.text(l.label);
    put(w, l.color);
    w.u8(static_cast<std::uint8_t>(l.style));
  }
  w.u32(static_cast<std::uint32_t>(f.bands.size()));
  for (const Band& b : f.bands) {
    w.u8(static_cast<std::uint8_t>(b.orientation));
    w.f64(b.from), w.f64(b.to);
    w.text(b.label);
    put(w, b.color);
    w.boolean(b.label_top);
  }
  w.u32(static_cast<std::uint32_t>(f.notes.size()));
  for (const TextNote& n : f.notes) {
    w.f64(n.x), w.f64(n.y);
    w.text(n.text);
    w.u8(static_cast<std::uint8_t>(n.anchor));
    put(w, n.color);
  }
  w.u32(static_cast<std::uint32_t>(f.arrows.size()));
  for (const Arrow& a : f.arrows) {
    w.f64(a.x0), w.f64(a.y0), w.f64(a.x1), w.f64(a.y1);
    w.text(a.label);
    put(w, a.color);
  }
  w.u8(static_cast<std::uint8_t>(f.legend));
  w.boolean(f.equal_aspect);
  w.text(f.key_numbers);
  w.text(f.description);
}

std::string encode_figure(const Figure& figure, bool for_screen) {
  Writer w;
  encode_figure(w, figure, for_screen);
  return w.take();
}

Figure decode_figure(Reader& r) {
  for (char c : kMagic)
    if (r.u8() != static_cast<std::uint8_t>(c)) Reader::fail("not a figure of this version (magic PLF4)");
  Figure f;
  f.id = r.text();
  f.title = r.text();
  f.subtitle = r.text();
  f.x = get_axis(r);
  f.y = get_axis(r);
  for (std::uint32_t i = 0, n = r.u32(); i < n; ++i) f.series.push_back(get_series(r));
  for (std::uint32_t i = 0, n = r.u32(); i < n; ++i) f.heatmaps.push_back(get_heatmap(r, f.x, f.y));
  for (std::uint32_t i = 0, n = r.u32(); i < n; ++i) {
    RefLine l;
    l.orientation = r.enumeration(Orientation::horizontal);
    l.value = r.f64();
    l.label = r.text();
    l.color = get_color(r);
    l.style = r.enumeration(LineStyle::dotted);
    f.ref_lines.push_back(std::move(l));
  }
  for (std::uint32_t i = 0, n = r.u32(); i < n; ++i) {
    Band b;
    b.orientation = r.enumeration(Orientation::horizontal);
    b.from = r.f64(), b.to = r.f64();
    b.label = r.text();
    b.color = get_color(r);
    b.label_top = r.boolean();
    f.bands.push_back(std::move(b));
  }
  for (std::uint32_t i = 0, n = r.u32(); i < n; ++i) {
    TextNote t;
    t.x = r.f64(), t.y = r.f64();
    t.text = r.text();
    t.anchor = r.enumeration(Anchor::right);
    t.color = get_color(r);
    f.notes.push_back(std::move(t));
  }
  for (std::uint32_t i = 0, n = r.u32(); i < n; ++i) {
    Arrow a;
    a.x0 = r.f64(), a.y0 = r.f64(), a.x1 = r.f64(), a.y1 = r.f64();
    a.label = r.text();
    a.color = get_color(r);
    f.arrows.push_back(std::move(a));
  }
  f.legend = r.enumeration(LegendPlace::none);
  f.equal_aspect = r.boolean();
  f.key_numbers = r.text();
  f.description = r.text();
  return f;
}

Figure decode_figure(std::string_view bytes) {
  Reader r(bytes);
  Figure f = decode_figure(r);
  if (!r.at_end()) Reader::fail("bytes left over after the figure");
  return f;
}

// [SECTION] A heatmap's raster as its sampler

HeatmapSampler raster_sampler(const Heatmap& h, AxisScale x_scale, AxisScale y_scale) {
  std::shared_ptr<const ScreenRaster> sr = h.screen;
  if (!sr || sr->nx <= 0 || sr->ny <= 0) return {};
  // As prepare_for_screen laid the grid out: the lattice's cells, or cells
  // even in the axis's scale.
  struct Grid {
    double lo, hi;
    AxisScale scale;
    int n;
    bool lattice;
    int cell(double v) const {
      const double a = lattice ? lo : axis_forward(lo, scale), b = lattice ? hi : axis_forward(hi, scale);
      const double t = std::floor(((lattice ? v : axis_forward(v, scale)) - a) / (b - a) * n);
      return std::isfinite(t) ? static_cast<int>(std::clamp(t, 0.0, n - 1.0)) : 0;
    }
  };
  const Grid gx{h.x0, h.x1, x_scale, sr->nx, sr->x_lattice}, gy{h.y0, h.y1, y_scale, sr->ny, sr->y_lattice};
  return [sr, gx, gy](std::span<const double> xs, std::span<const double> ys, std::span<float> out) {
    std::vector<int> cols(xs.size());
    for (std::size_t c = 0; c < xs.size(); ++c) cols[c] = gx.cell(xs[c]);
    for (std::size_t r = 0; r < ys.size(); ++r) {
      const float* row = sr->values.data() + static_cast<std::size_t>(gy.cell(ys[r])) * static_cast<std::size_t>(sr->nx);
      float* o = out.data() + r * xs.size();
      for (std::size_t c = 0; c < xs.size(); ++c) o[c] = row[cols[c]];
    }
  };
}

}  // namespace poslab::app::fig::wire
