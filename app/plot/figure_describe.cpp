#include "app/plot/figure_describe.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "app/common/utf8.hpp"
#include "app/plot/render.hpp"
#include "app/plot/formula.hpp"

namespace poslab::app::fig {

namespace {

/// Every number of a description, as spoken_number writes it.
std::string num(double v);

/// Series listed one by one; the rest are counted.
constexpr std::size_t kMaxSeries = 8;
/// Series whose points are counted against a horizontal reference line.
constexpr std::size_t kMaxBelow = 4;
/// Text labels on the plot quoted.
constexpr std::size_t kMaxNotes = 6;
/// Explicit tick labels listed instead of a range (categories, token names).
constexpr std::size_t kMaxTickLabels = 16;

bool ideograph(char32_t c) { return (c >= 0x3400 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF); }

/// Letters and digits set in a Latin face: ASCII, Latin-1 letters, Greek,
/// sub- and superscripts (θᵢ, 10⁻⁴).
bool latin(char32_t c) {
  return (c < 0x80 && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) ||
         (c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7) || (c >= 0x370 && c <= 0x3FF) ||
         (c >= 0x1D00 && c <= 0x1DBF) || (c >= 0x2070 && c <= 0x209F) || c == 0xB2 || c == 0xB3 || c == 0xB9;
}

/// A space wherever an ideograph touches a Latin letter or digit (the house
/// style of the Chinese texts: "第 0 对", "波长 λ"): the describe.* texts put
/// labels and numbers next to Chinese words that may or may not be Chinese.
/// And no space beside Chinese punctuation, whose glyph carries its own (a
/// label such as "{method} 混合" filled with "YaRN（代码）").
bool chinese_punct(char32_t c) { return std::u32string_view(U"，。：；、！？（）《》“”").find(c) != std::u32string_view::npos; }

std::string space_mixed(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 16);
  char32_t prev = 0;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = 1;
    const char32_t c = utf8::decode(text, i, n);
    if (c == U' ' && i + 1 < text.size()) {
      std::size_t m = 1;
      const char32_t next = utf8::decode(text, i + 1, m);
      const bool word_prev = ideograph(prev) || latin(prev), word_next = ideograph(next) || latin(next);
      if ((chinese_punct(prev) && word_next) || (word_prev && chinese_punct(next))) {
        i += n;
        continue;
      }
    }
    if ((ideograph(prev) && latin(c)) || (latin(prev) && ideograph(c))) out += ' ';
    out.append(text, i, n);
    prev = c;
    i += n;
  }
  return out;
}

std::string kind_word(const Series& s, const Translator& tr) {
  std::string kind;
  switch (s.kind) {
    case SeriesKind::line: kind = tr("describe.kind.line"); break;
    case SeriesKind::step: kind = tr("describe.kind.step"); break;
    case SeriesKind::scatter: kind = tr("describe.kind.scatter"); break;
    case SeriesKind::bars: kind = tr("describe.kind.bars"); break;
    case SeriesKind::stems: kind = tr("describe.kind.stems"); break;
  }
  if (s.kind == SeriesKind::line || s.kind == SeriesKind::step) {
    if (s.style == LineStyle::dashed) return tr.format("describe.styled", {{"kind", kind}, {"style", tr("describe.style.dashed")}});
    if (s.style == LineStyle::dotted) return tr.format("describe.styled", {{"kind", kind}, {"style", tr("describe.style.dotted")}});
  }
  return kind;
}

/// A value may be drawn on this axis (finite; positive on a log axis).
bool shown(double v, AxisScale scale) { return std::isfinite(v) && (scale != AxisScale::log || v > 0); }

std::string with_unit(const std::string& number, const Axis& axis) {
  return axis.unit.empty() ? number : number + " " + plain_text(axis.unit);
}

/// "wavelength λ (tokens, log scale)": the axis as the first sentence names it.
std::string axis_phrase(const std::string& name, const Axis& axis, const Translator& tr) {
  std::string scale;
  if (axis.scale == AxisScale::log) scale = tr("describe.scale.log");
  if (axis.scale == AxisScale::symlog) scale = tr("describe.scale.symlog");
  const std::string unit = plain_text(axis.unit);
  if (!unit.empty() && !scale.empty())
    return tr.format("describe.axis.unit_scale", {{"label", name}, {"unit", unit}, {"scale", scale}});
  if (!unit.empty()) return tr.format("describe.axis.unit", {{"label", name}, {"unit", unit}});
  if (!scale.empty()) return tr.format("describe.axis.scale", {{"label", name}, {"scale", scale}});
  return name;
}

struct Extent {
  double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
  void add(double v) { lo = std::min(lo, v), hi = std::max(hi, v); }
  bool empty() const { return !(lo <= hi); }
};

/// One pass over a series: its points both axes can show (finite; positive
/// on a log axis) — how many, the first and last, the lowest and highest.
struct Summary {
  std::size_t n = 0, first = 0, last = 0, lo = 0, hi = 0;
  Extent x, y;
};

bool drawable(const Series& s, const Figure& f, std::size_t i) {
  return shown(s.x[i], f.x.scale) && shown(s.y[i], f.y.scale);
}

Summary summarize(const Series& s, const Figure& f) {
  Summary m;
  for (std::size_t i = 0, size = std::min(s.x.size(), s.y.size()); i < size; ++i) {
    if (!drawable(s, f, i)) continue;
    if (m.n == 0) m.first = m.lo = m.hi = i;
    m.last = i;
    if (s.y[i] < s.y[m.lo]) m.lo = i;
    if (s.y[i] > s.y[m.hi]) m.hi = i;
    m.x.add(s.x[i]), m.y.add(s.y[i]);
    ++m.n;
  }
  return m;
}

std::string series_name(const Series& s, std::size_t index, const Translator& tr) {
  const std::string name = plain_text(s.name.empty() ? s.data_name : s.name);
  return name.empty() ? tr.format("describe.series.unnamed", {{"n", std::to_string(index + 1)}}) : name;
}

/// "pair i = 0": a point's x as the series sentence names it.
std::string at_x(const std::string& xname, double x, const Figure& f) {
  const std::string v = with_unit(num(x), f.x);
  return xname.empty() ? v : xname + " = " + v;
}

std::string describe_series(const Figure& f, std::size_t index, const Summary& m, const std::string& xname,
                            const Translator& tr) {
  const Series& s = f.series[index];
  if (!s.described.empty()) return plain_text(s.described);  // said by its figure (a frame is not a curve)
  const std::string name = series_name(s, index, tr);
  const std::string kind = kind_word(s, tr);
  if (m.n == 0) return tr.format("describe.series.empty", {{"name", name}, {"kind", kind}});
  const std::size_t first = m.first, last = m.last, lo = m.lo, hi = m.hi;
  if (m.n == 1)
    return tr.format("describe.series.one", {{"name", name}, {"kind", kind}, {"y", with_unit(num(s.y[first]), f.y)},
                                             {"at", at_x(xname, s.x[first], f)}});
  std::string out = tr.format("describe.series.item",
                              {{"name", name}, {"kind", kind}, {"n", num(static_cast<double>(m.n))},
                               {"from", with_unit(num(s.y[first]), f.y)}, {"from_at", at_x(xname, s.x[first], f)},
                               {"to", with_unit(num(s.y[last]), f.y)}, {"to_at", at_x(xname, s.x[last], f)}});
  // The extremes, when they are not the ends (a peak, a dip, an oscillation).
  const bool lo_inside = s.y[lo] < std::min(s.y[first], s.y[last]);
  const bool hi_inside = s.y[hi] > std::max(s.y[first], s.y[last]);
  if (lo_inside || hi_inside)
    out += tr.format("describe.series.extremes", {{"min", with_unit(num(s.y[lo]), f.y)}, {"min_at", at_x(xname, s.x[lo], f)},
                                                  {"max", with_unit(num(s.y[hi]), f.y)}, {"max_at", at_x(xname, s.x[hi], f)}});
  return out + tr("describe.stop");
}

std::vector<std::string> describe_heatmap(const Heatmap& h, const Translator& tr) {
  std::vector<std::string> out;
  const std::string value = plain_text(h.value_name).empty() ? tr("describe.heat.value") : plain_text(h.value_name);
  if (h.cols > 0 && h.rows > 0)
    out.push_back(tr.format("describe.heat.cells", {{"cols", num(h.cols)}, {"rows", num(h.rows)}}));
  if (h.is_matrix()) {
    // Without branches (a million cells at the largest sizes): a masked or
    // non-finite cell leaves the extent as it is. Cells past the mask are unmasked.
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    std::size_t masked = 0;
    const std::size_t n = h.values.size(), with_mask = std::min(n, h.mask.size());
    const auto add = [&lo, &hi](float v, bool skip) {
      const bool use = !skip && std::abs(v) <= std::numeric_limits<float>::max();  // finite
      lo = use && v < lo ? v : lo;
      hi = use && v > hi ? v : hi;
    };
    for (std::size_t i = 0; i < with_mask; ++i) {
      masked += h.mask[i] != 0;
      add(h.values[i], h.mask[i] != 0);
    }
    for (std::size_t i = with_mask; i < n; ++i) add(h.values[i], false);
    Extent e;
    if (lo <= hi) e.add(lo), e.add(hi);
    if (!e.empty()) out.push_back(tr.format("describe.heat.values", {{"value", value}, {"min", num(e.lo)}, {"max", num(e.hi)}}));
    if (masked > 0) out.push_back(tr.format("describe.heat.masked", {{"n", num(static_cast<double>(masked))}}));
  } else {
    out.push_back(tr.format("describe.heat.scale", {{"value", value}, {"min", num(h.vmin)}, {"max", num(h.vmax)}}));
  }
  out.push_back(h.colormap == Colormap::signed_ ? tr("describe.heat.signed") : tr("describe.heat.magnitude"));
  return out;
}

}  // namespace

namespace {
std::string num(double v) { return spoken_number(v); }
}  // namespace

std::string spoken_number(double v) {
  if (std::isfinite(v) && std::abs(v) >= 1000 && std::abs(v) < 1e9) return format_readout(std::round(v));
  return format_readout(v, 4);
}

std::string described_axis_name(const Figure& f, bool y_axis) {
  const Axis& axis = y_axis ? f.y : f.x;
  std::string name = plain_text(axis.label);
  if (!name.empty()) return name;
  for (const Series& s : f.series) {
    name = plain_text(y_axis ? s.y_name : s.x_name);
    if (!name.empty()) return name;
  }
  for (const Heatmap& h : f.heatmaps) {
    name = plain_text(y_axis ? h.y_name : h.x_name);
    if (!name.empty()) return name;
  }
  return {};
}

std::string describe_figure(const Figure& figure, const Translator& tr) {
  // Decorations (a dial's rim, a tick mark drawn as a line) are not data:
  // the sentences speak of the other series only.
  const bool decorated = std::any_of(figure.series.begin(), figure.series.end(), [](const Series& s) { return s.decoration; });
  Figure stripped;
  if (decorated) {
    stripped.title = figure.title, stripped.subtitle = figure.subtitle, stripped.key_numbers = figure.key_numbers;
    stripped.x = figure.x, stripped.y = figure.y;
    stripped.heatmaps = figure.heatmaps, stripped.ref_lines = figure.ref_lines, stripped.bands = figure.bands;
    stripped.notes = figure.notes, stripped.arrows = figure.arrows;
    for (const Series& s : figure.series)
      if (!s.decoration) stripped.series.push_back(s);
  }
  const Figure& f = decorated ? stripped : figure;
  const bool zh = tr.lang() == "zh";
  std::vector<std::string> sentences;
  auto say = [&](std::string s) {
    if (!s.empty()) sentences.push_back(std::move(s));
  };

  std::string xname = described_axis_name(f, false), yname = described_axis_name(f, true);
  const std::string x_phrase = axis_phrase(xname.empty() ? tr("describe.axis.x") : xname, f.x, tr);
  const std::string y_phrase = axis_phrase(yname.empty() ? tr("describe.axis.y") : yname, f.y, tr);
  const std::string x_short = xname.empty() ? tr("describe.axis.x") : xname;
  const std::string y_short = yname.empty() ? tr("describe.axis.y") : yname;

  // What is plotted against what.
  const Heatmap* hm = f.heatmaps.empty() ? nullptr : &f.heatmaps.front();
  if (hm) {
    const std::string value = plain_text(hm->value_name).empty() ? tr("describe.heat.value") : plain_text(hm->value_name);
    // "with curves drawn over it" unless every series says what it is itself.
    const bool curves = std::any_of(f.series.begin(), f.series.end(), [](const Series& s) { return s.described.empty(); });
    say(tr.format(curves ? "describe.heatmap_and_series" : "describe.heatmap",
                  {{"value", value}, {"x", x_phrase}, {"y", y_phrase}}));
  } else {
    say(tr.format("describe.plot", {{"x", x_phrase}, {"y", y_phrase}}));
  }

  // The ranges the data covers (explicit tick labels — categories — listed instead).
  std::vector<Summary> summaries;
  for (const Series& s : f.series) summaries.push_back(summarize(s, f));
  Extent ex, ey;
  for (const Summary& m : summaries)
    if (m.n > 0) ex.add(m.x.lo), ex.add(m.x.hi), ey.add(m.y.lo), ey.add(m.y.hi);
  for (const Heatmap& h : f.heatmaps) {
    if (shown(h.x0, f.x.scale) && shown(h.x1, f.x.scale)) ex.add(h.x0), ex.add(h.x1);
    if (shown(h.y0, f.y.scale) && shown(h.y1, f.y.scale)) ey.add(h.y0), ey.add(h.y1);
  }
  auto range = [&](const Axis& axis, const std::string& name, const Extent& e) {
    if (!axis.ticks.empty() && axis.ticks.size() <= kMaxTickLabels) {
      std::string labels;
      for (const auto& [v, label] : axis.ticks) {
        if (label.empty()) continue;
        if (!labels.empty()) labels += tr("describe.list_sep");
        labels += plain_text(label);
      }
      if (!labels.empty()) return tr.format("describe.ticks", {{"axis", name}, {"labels", labels}});
    }
    if (e.empty()) return std::string();
    if (e.lo == e.hi) return tr.format("describe.range_one", {{"axis", name}, {"value", with_unit(num(e.lo), axis)}});
    return tr.format("describe.range", {{"axis", name}, {"from", num(e.lo)}, {"to", with_unit(num(e.hi), axis)}});
  };
  say(range(f.x, x_short, ex));
  say(range(f.y, y_short, ey));

  if (hm)
    for (std::string& s : describe_heatmap(*hm, tr)) say(std::move(s));
  if (f.heatmaps.size() > 1) say(tr.format("describe.heat.more", {{"n", num(static_cast<double>(f.heatmaps.size() - 1))}}));

  // The series, one by one.
  std::size_t listed = 0;
  if (f.series.size() > 1) say(tr.format("describe.series.count", {{"n", num(static_cast<double>(f.series.size()))}}));
  for (std::size_t i = 0; i < f.series.size() && listed < kMaxSeries; ++i, ++listed)
    say(describe_series(f, i, summaries[i], x_short, tr));
  if (f.series.size() > listed)
    say(tr.format("describe.series.more", {{"n", num(static_cast<double>(f.series.size() - listed))}}));

  // Reference lines (and how many points of each series lie below a horizontal one) and bands.
  for (const RefLine& l : f.ref_lines) {
    const bool vertical = l.orientation == Orientation::vertical;
    const Axis& axis = vertical ? f.x : f.y;
    const std::string where = (vertical ? x_short : y_short) + " = " + with_unit(num(l.value), axis);
    const std::string label = plain_text(l.label);
    std::string s = label.empty() ? tr.format("describe.ref", {{"at", where}})
                                  : tr.format("describe.ref.named", {{"label", label}, {"at", where}});
    if (!vertical) {
      std::string counts;
      std::size_t counted = 0;
      for (std::size_t si = 0; si < f.series.size() && counted < kMaxBelow; ++si) {
        const Series& series = f.series[si];
        if (series.kind == SeriesKind::scatter && f.series.size() > 1) continue;
        if (summaries[si].n < 2) continue;
        std::size_t below = 0;
        for (std::size_t i = 0, size = std::min(series.x.size(), series.y.size()); i < size; ++i)
          below += drawable(series, f, i) && series.y[i] < l.value;
        if (!counts.empty()) counts += tr("describe.list_sep");
        counts += tr.format(f.series.size() == 1 ? "describe.ref.below_one" : "describe.ref.below",
                            {{"name", series_name(series, si, tr)}, {"k", num(static_cast<double>(below))},
                             {"n", num(static_cast<double>(summaries[si].n))}});
        ++counted;
      }
      if (!counts.empty()) s += tr.format("describe.ref.counts", {{"counts", counts}});
    }
    say(s + tr("describe.stop"));
  }
  for (const Band& b : f.bands) {
    const bool vertical = b.orientation == Orientation::vertical;
    const Axis& axis = vertical ? f.x : f.y;
    const std::string label = plain_text(b.label);
    say(tr.format(label.empty() ? "describe.band" : "describe.band.named",
                  {{"label", label}, {"axis", vertical ? x_short : y_short}, {"from", num(std::min(b.from, b.to))},
                   {"to", with_unit(num(std::max(b.from, b.to)), axis)}}));
  }

  // The words written on the plot.
  std::string notes;
  std::size_t quoted = 0, unquoted = 0;
  auto quote = [&](const std::string& text) {
    const std::string t = plain_text(text);
    if (t.empty()) return;
    if (quoted >= kMaxNotes) {
      ++unquoted;  // counted, so the listener knows the list goes on (a heatmap's 24 cell values)
      return;
    }
    if (!notes.empty()) notes += tr("describe.list_sep");
    notes += t;
    ++quoted;
  };
  for (const TextNote& n : f.notes) quote(n.text);
  for (const Arrow& a : f.arrows) quote(a.label);
  if (!notes.empty())
    say(unquoted ? tr.format("describe.notes_more", {{"notes", notes}, {"n", num(static_cast<double>(unquoted))}})
                 : tr.format("describe.notes", {{"notes", notes}}));

  say(f.key_numbers.empty() ? std::string() : plain_text(f.key_numbers));

  std::string out;
  for (const std::string& s : sentences) {
    if (!out.empty() && !zh) out += ' ';
    out += s;
  }
  return zh ? space_mixed(out) : out;
}

}  // namespace poslab::app::fig
