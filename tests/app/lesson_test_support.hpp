#pragma once
// Shared by the lesson test suites (tests/app/test_<lesson>_lesson.cpp): the
// lesson under test with its figures and readouts, the check every readout must
// pass, and lookups into readouts, series and tables that fail the test with the
// name they could not find.

#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "app/lessons/lesson.hpp"
#include "app/lessons/table.hpp"
#include "app/plot/render.hpp"
#include "app_test_support.hpp"
#include "poslab/core/params.hpp"

namespace poslab::test {

/// Parameters as a user types them: params({{"d", "64"}, {"layout", "half"}}).
inline core::Params params(std::initializer_list<std::pair<const char*, const char*>> sets) {
  core::Params p;
  for (const auto& [key, text] : sets) p.set_text(key, text);
  return p;
}

/// Every readout is labelled, shown and finite, and every invariant one claims
/// holds. Returns how many claim one (the lesson tests pin that count).
inline int check_readouts(const std::vector<app::Readout>& readouts) {
  int claims = 0;
  for (const app::Readout& r : readouts) {
    CAPTURE(r.label);
    CAPTURE(r.value);
    CHECK(std::isfinite(r.number));
    CHECK(!r.label.empty());
    CHECK(!r.value.empty());
    if (r.holds) {
      CHECK(*r.holds);
      ++claims;
    }
  }
  return claims;
}

/// Every heatmap of `f` is drawn the way a matrix is written: row 0 (its y0
/// edge) at the top of the plot, the last row below it, with no margin beyond
/// the cells left, right and at the top (below the last row only what the
/// figure shows there, e.g. positions without a row).
inline void check_matrix_orientation(const app::fig::Figure& f) {
  REQUIRE(!f.heatmaps.empty());
  CHECK(f.y.reversed);
  app::fig::PlotLayout L;
  L.plot = {0, 0, 400, 300};
  L.range = app::fig::default_view(f);
  for (const app::fig::Heatmap& h : f.heatmaps) {
    CHECK(L.to_px_y(h.y0) == doctest::Approx(0));    // row 0 at the top edge
    CHECK(L.to_px_y(h.y1) > L.to_px_y(h.y0));      // the last row below it
    CHECK(L.to_px_y(h.y1) <= 300 + 1e-9);
    CHECK(L.to_px_x(h.x0) == doctest::Approx(0));
    CHECK(L.to_px_x(h.x1) == doctest::Approx(400));
  }
}

/// One lesson of the registry, named by its id: `const test::Lesson lesson{"rope"};`
/// at file scope. It is looked up each time a test asks (inside a test case, where
/// a missing lesson fails with REQUIRE).
class Lesson {
 public:
  constexpr explicit Lesson(std::string_view id) : id_(id) {}

  const app::ViewDef& view() const {
    const app::ViewDef* v = app::find_view(id_);
    REQUIRE(v != nullptr);
    return *v;
  }

  /// The figure `figure_id` at `p`, laid out at width × height (the GUI's default size).
  app::fig::Figure figure(std::string_view figure_id, const core::Params& p, double width = 900,
                          double height = 560) const {
    const app::FigureDef* f = app::find_figure(view(), figure_id);
    REQUIRE(f != nullptr);
    return app::build_figure(view(), *f, p, english(), width, height);
  }

  /// The readouts at `p`, in English.
  std::vector<app::Readout> readouts(const core::Params& p) const { return app::view_readouts(view(), p, english()); }

  /// check_readouts of the readouts at `p`.
  int check_readouts(const core::Params& p) const { return test::check_readouts(readouts(p)); }

 private:
  std::string_view id_;
};

/// The readout whose English label starts as the translation `key` does (up to
/// its first placeholder), or nullptr.
inline const app::Readout* find_readout(const std::vector<app::Readout>& readouts, std::string_view key) {
  const std::string label = english()(key);
  const std::string prefix = label.substr(0, label.find('{'));
  for (const app::Readout& r : readouts)
    if (r.label.rfind(prefix, 0) == 0) return &r;
  return nullptr;
}

/// The readout labelled exactly `label`.
inline const app::Readout& readout(const std::vector<app::Readout>& readouts, const std::string& label) {
  for (const app::Readout& r : readouts)
    if (r.label == label) return r;
  FAIL("no readout " << label);
  return readouts.front();
}

/// The first readout whose label contains `needle`.
inline const app::Readout& readout_containing(const std::vector<app::Readout>& readouts, std::string_view needle) {
  for (const app::Readout& r : readouts)
    if (r.label.find(needle) != std::string::npos) return r;
  FAIL("no readout containing " << needle);
  return readouts.front();
}

/// The series named `name`.
inline const app::fig::Series& series(const app::fig::Figure& f, const std::string& name) {
  for (const app::fig::Series& s : f.series)
    if (s.name == name) return s;
  FAIL("no series " << name);
  return f.series.front();
}

inline bool has_series(const app::fig::Figure& f, const std::string& name) {
  for (const app::fig::Series& s : f.series)
    if (s.name == name) return true;
  return false;
}

/// The table `id` at `p`.
inline app::Table table(std::string_view id, const core::Params& p = {}) {
  const app::TableDef* def = app::find_table(id);
  REQUIRE(def != nullptr);
  return app::build_table(*def, p);
}

/// The index of the column named `name`.
inline std::size_t column(const app::Table& t, std::string_view name) {
  for (std::size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c] == name) return c;
  FAIL("no column " << name);
  return 0;
}

/// The cell of `row` in the column named `name`.
inline const app::Cell& cell(const app::Table& t, std::size_t row, std::string_view name) {
  return t.rows.at(row).at(column(t, name));
}

/// A numeric cell (double or integer) as a double.
inline double number(const app::Cell& c) {
  if (const double* x = std::get_if<double>(&c)) return *x;
  if (const long long* i = std::get_if<long long>(&c)) return static_cast<double>(*i);
  FAIL("not a number");
  return 0;
}

/// The number in `row` of the column named `name`.
inline double number(const app::Table& t, std::size_t row, std::string_view name) {
  CAPTURE(name);
  return number(cell(t, row, name));
}

/// The meta entry `key` (a double).
inline double meta(const app::Table& t, std::string_view key) {
  for (const auto& [k, v] : t.meta)
    if (k == key) return std::get<double>(v);
  FAIL("no meta " << key);
  return 0;
}

}  // namespace poslab::test
