// The GUI rebuilds a figure (and a lesson's readouts) only when a key it read
// changed: build_figure / view_readouts record the keys read through
// core::Params::track_reads. That is only correct if nothing else feeds a
// figure, so for every figure of every view, at the defaults and at seeded
// random settings: changing any key the view reads but the figure did not
// read leaves the figure unchanged (texts, every series point, every
// annotation, heatmaps at their natural lattice), and the same for readouts.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <sstream>

#include "app/export/figure_export.hpp"
#include "app/lessons/lesson.hpp"
#include "app_test_support.hpp"

using namespace poslab;
using app::ViewDef;
namespace fig = poslab::app::fig;

namespace {

/// Everything a figure shows, as text (numbers in full precision).
std::string fingerprint(const fig::Figure& f) {
  std::ostringstream o;
  o.precision(17);
  o << f.title << '\n' << f.subtitle << '\n' << f.x.label << f.x.unit << '|' << f.y.label << f.y.unit << '\n';
  for (const fig::Axis* a : {&f.x, &f.y}) {
    o << static_cast<int>(a->scale) << (a->min ? *a->min : -1.5) << (a->max ? *a->max : -1.5);
    for (const auto& [v, s] : a->ticks) o << v << s << ';';
    o << '\n';
  }
  for (const fig::Series& s : f.series) o << s.name << '|' << s.x_name << '|' << s.y_name << '\n';
  for (const fig::RefLine& l : f.ref_lines) o << l.value << l.label << '\n';
  for (const fig::Band& b : f.bands) o << b.from << b.to << b.label << '\n';
  for (const fig::TextNote& n : f.notes) o << n.x << ',' << n.y << n.text << '\n';
  for (const fig::Arrow& a : f.arrows) o << a.x0 << a.y0 << a.x1 << a.y1 << a.label << '\n';
  for (const fig::Heatmap& h : f.heatmaps) o << h.x0 << h.x1 << h.y0 << h.y1 << h.vmin << h.vmax << h.value_name << '\n';
  o << app::figure_csv(f);
  return o.str();
}

std::string fingerprint(const std::vector<app::Readout>& readouts) {
  std::ostringstream o;
  o.precision(17);
  for (const app::Readout& r : readouts)
    o << r.label << '|' << r.value << '|' << r.number << '|' << (r.holds ? (*r.holds ? 1 : 0) : 2) << '\n';
  return o.str();
}

/// The value of `key` in `p`, or none when it is unset and has no default (e.g. dims).
std::optional<core::ParamValue> value_of(const core::Params& p, std::string_view key) {
  if (!p.is_set(key) && core::param_spec(key).default_text.empty()) return std::nullopt;
  return p.value(key);
}

/// Values to try for `key`, different from its current one.
std::vector<core::ParamValue> other_values(const core::ParamSpec& s, const std::optional<core::ParamValue>& now) {
  std::vector<core::ParamValue> out;
  switch (s.type) {
    case core::ParamType::boolean:
      out.push_back(!(now && std::get<bool>(*now)));
      break;
    case core::ParamType::choice:
      for (std::string_view c : core::param_choices(s)) out.push_back(std::string(c));
      break;
    case core::ParamType::integer:
    case core::ParamType::real:
      for (double t : {0.31, 0.77, 0.05, 1.0}) {
        double v = s.scale != core::SliderScale::linear && s.ui_min > 0 ? s.ui_min * std::pow(s.ui_max / s.ui_min, t)
                                                                        : s.ui_min + (s.ui_max - s.ui_min) * t;
        if (s.type == core::ParamType::integer) {
          v = std::round(v);
          if (s.even && std::fmod(v, 2.0) != 0) v += 1;
        }
        out.push_back(v);
      }
      break;
    case core::ParamType::list:
    case core::ParamType::vector:
      for (const char* text : {"1,2", "0:9", "3,1,4,1,5,9", "2,7,1,8"}) {
        try {
          out.push_back(core::parse_param_value(s, text));
        } catch (const core::InvalidParameter&) {
        }
      }
      break;
  }
  std::erase_if(out, [&](const core::ParamValue& v) { return now && v == *now; });
  return out;
}

std::vector<std::string> sorted_unique(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

/// The settings the view accepts that differ from `base` in `key` only.
std::vector<core::Params> changes_of(const ViewDef& view, const core::Params& base, std::string_view key) {
  std::vector<core::Params> out;
  for (const core::ParamValue& v : other_values(core::param_spec(key), value_of(base, key))) {
    core::Params changed = base;
    try {
      changed.set(key, v);
      (void)app::resolve_view_params(view, changed);
    } catch (const core::InvalidParameter&) {
      continue;
    }
    out.push_back(std::move(changed));
  }
  return out;
}

/// Seeded settings of the view's numeric keys that resolve (plus the defaults).
std::vector<core::Params> settings(const ViewDef& view) {
  std::vector<core::Params> out{core::Params{}};
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int attempt = 0; attempt < 40 && out.size() < 3; ++attempt) {
    core::Params p;
    for (std::string_view key : view.keys) {
      const core::ParamSpec& s = core::param_spec(key);
      if (s.type != core::ParamType::integer && s.type != core::ParamType::real) continue;
      const auto candidates = other_values(s, value_of(p, key));
      if (!candidates.empty() && u(rng) < 0.5) {
        try {
          p.set(key, candidates[static_cast<std::size_t>(u(rng) * static_cast<double>(candidates.size()))]);
        } catch (const core::InvalidParameter&) {
        }
      }
    }
    try {
      (void)app::resolve_view_params(view, p);
      out.push_back(p);
    } catch (const core::InvalidParameter&) {
    }
  }
  return out;
}

}  // namespace

TEST_CASE("a figure depends only on the keys its builder read") {
  const app::Translator& tr = test::english();
  int checked = 0, skipped_keys = 0;
  for (const ViewDef& view : app::view_defs()) {
    for (const core::Params& base : settings(view)) {
      for (const app::FigureDef& def : view.figures) {
        CAPTURE(view.id);
        CAPTURE(def.id);
        std::vector<std::string> reads;
        fig::Figure before;
        try {
          before = app::build_figure(view, def, base, tr, 760, 440, &reads);
        } catch (const core::InvalidParameter&) {
          continue;  // this setting is invalid for this figure (the GUI shows the message)
        }
        reads = sorted_unique(reads);
        CHECK_FALSE(reads.empty());
        const std::string expected = fingerprint(before);
        for (std::string_view key : view.keys) {
          if (std::binary_search(reads.begin(), reads.end(), std::string(key))) continue;
          CAPTURE(key);
          bool tried = false;
          for (const core::Params& changed : changes_of(view, base, key)) {
            fig::Figure after;
            try {
              after = app::build_figure(view, def, changed, tr, 760, 440);
            } catch (const core::InvalidParameter& e) {
              FAIL_CHECK("a key the figure did not read made it fail: " << e.what());
              continue;
            }
            CHECK_MESSAGE(fingerprint(after) == expected, "the figure changed with a key it did not read");
            tried = true;
            ++checked;
          }
          if (!tried) ++skipped_keys;
        }
      }
    }
  }
  MESSAGE(checked << " unread-key changes checked, " << skipped_keys << " keys had no other valid value");
  CHECK(checked > 100);
}

TEST_CASE("readouts depend only on the keys they read") {
  const app::Translator& tr = test::english();
  int checked = 0;
  for (const ViewDef& view : app::view_defs()) {
    if (!view.readouts) continue;
    for (const core::Params& base : settings(view)) {
      CAPTURE(view.id);
      std::vector<std::string> reads;
      std::vector<app::Readout> before;
      try {
        before = app::view_readouts(view, base, tr, &reads);
      } catch (const core::InvalidParameter&) {
        continue;
      }
      reads = sorted_unique(reads);
      const std::string expected = fingerprint(before);
      for (std::string_view key : view.keys) {
        if (std::binary_search(reads.begin(), reads.end(), std::string(key))) continue;
        CAPTURE(key);
        for (const core::Params& changed : changes_of(view, base, key)) {
          CHECK(fingerprint(app::view_readouts(view, changed, tr)) == expected);
          ++checked;
        }
      }
    }
  }
  MESSAGE(checked << " unread-key changes checked");
  CHECK(checked > 10);
}

TEST_CASE("read tracking: the tracked object logs, copies do not, == ignores the log") {
  core::Params p;
  std::vector<std::string> log;
  p.track_reads(&log);
  (void)p.real("base");
  (void)p.is_set("d");
  (void)p.list_or("pos", "0:9");
  const core::Params copy = p;
  (void)copy.real("factor");
  CHECK(copy == p);
  p.track_reads(nullptr);
  (void)p.real("m");
  CHECK(sorted_unique(log) == std::vector<std::string>{"base", "d", "pos"});
}
