// The contract tables (docs/CONTRACT.md §3) and their formats.

#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>

#include "app/export/table_writer.hpp"
#include "lesson_test_support.hpp"
#include "poslab/core/rope.hpp"
#include "poslab/core/sinusoidal.hpp"

using namespace poslab;

namespace {

/// The table `id` with `sets` applied as typed on the command line ("d=8").
app::Table build(const char* id, std::vector<std::string> sets = {}) {
  core::Params p;
  for (const auto& s : sets) p.set_assignment(s);
  return test::table(id, p);
}

}  // namespace

TEST_CASE("every contract table exists with its contract columns") {
  const std::vector<std::pair<const char*, std::vector<std::string>>> contract = {
      {"sinusoidal", {"pos", "i", "value"}},
      {"rope-frequencies", {"pair", "theta", "wavelength"}},
      {"rope-rotate", {"pos", "index", "input", "output"}},
      {"rope-decay", {"distance", "bound", "ones_score"}},
      {"t5-buckets", {"relative_position", "bucket"}},
      {"alibi-slopes", {"head", "slope"}},
      {"rope-scaling", {"pair", "theta", "scaled_theta", "wavelength", "scaled_wavelength", "ramp"}},
      {"position-map", {"pos", "linear", "gamma_mapped"}},
      {"gaussian-kernel", {"pos", "kernel"}},
      {"mrope-positions", {"index", "kind", "t", "h", "w"}},
  };
  for (const auto& entry : contract) {
    // Not a structured binding: clang < 16 cannot capture one in CAPTURE's lambda.
    const char* const id = entry.first;
    const std::vector<std::string>& columns = entry.second;
    CAPTURE(std::string(id));
    const app::Table t = build(id);
    CHECK(t.id == id);
    CHECK(t.columns == columns);
    CHECK(!t.rows.empty());
    for (const auto& row : t.rows) {
      CHECK(row.size() == columns.size());
      for (const auto& c : row)
        if (const auto* d = std::get_if<double>(&c)) CHECK(std::isfinite(*d));
    }
  }
}

TEST_CASE("table numbers are core's numbers") {
  const app::Table s = build("sinusoidal", {"d=8", "pos=3"});
  REQUIRE(s.rows.size() == 8);
  for (const auto& row : s.rows)
    CHECK(test::number(row[2]) == core::sinusoidal_value(3, static_cast<int>(test::number(row[1])), 8, 10000));
  // The notes' worked example: q = [1,2,3,4] at m = 2, d = 4 → RoFormer's rotation.
  const app::Table r = build("rope-rotate", {"pos=2"});
  REQUIRE(r.rows.size() == 4);
  const double c2 = std::cos(2.0), s2 = std::sin(2.0), c02 = std::cos(0.02), s02 = std::sin(0.02);
  CHECK(test::number(r.rows[0][3]) == doctest::Approx(1 * c2 - 2 * s2).epsilon(1e-12));
  CHECK(test::number(r.rows[1][3]) == doctest::Approx(1 * s2 + 2 * c2).epsilon(1e-12));
  CHECK(test::number(r.rows[2][3]) == doctest::Approx(3 * c02 - 4 * s02).epsilon(1e-12));
  CHECK(test::number(r.rows[3][3]) == doctest::Approx(3 * s02 + 4 * c02).epsilon(1e-12));
  const app::Table f = build("rope-frequencies", {"d=4"});
  CHECK(test::number(f.rows[1][1]) == doctest::Approx(0.01).epsilon(1e-14));
  CHECK(test::number(f.rows[1][2]) == doctest::Approx(200 * std::numbers::pi).epsilon(1e-14));
}

TEST_CASE("position-map shows the correct values where the notes are wrong") {
  const app::Table t = build("position-map", {"pos=100,1000,30000"});
  // 0.125^0.8 = 2^-2.4 = 0.189464570813800 (the notes say 0.209).
  CHECK(test::number(t.rows[0][2]) == doctest::Approx(100 * std::pow(2.0, -2.4)).epsilon(1e-12));
  CHECK(test::number(t.rows[2][2]) == doctest::Approx(5683.937124413992).epsilon(1e-12));  // not ~6270
  CHECK(test::number(t.rows[2][1]) == 3750);
  double above = 0;
  for (const auto& [k, v] : t.meta)
    if (k == "gamma_leaves_trained_range_above") above = test::number(v);
  CHECK(above == doctest::Approx(4096 * std::pow(8.0, 0.8)).epsilon(1e-12));
}

TEST_CASE("formats: csv header and rows, json shape with full precision, md and tex ready to paste") {
  const app::Table t = build("rope-frequencies", {"d=4"});
  const std::string csv = app::write_table(t, app::TableFormat::csv);
  CHECK(csv.rfind("pair,theta,wavelength\n0,1,6.283185307179586\n1,0.01,628.3185307179587\n", 0) == 0);

  const auto j = nlohmann::json::parse(app::write_table(t, app::TableFormat::json));
  CHECK(j["table"] == "rope-frequencies");
  CHECK(j["params"]["d"] == 4);
  CHECK(j["params"]["base"] == 10000);
  CHECK(j["columns"] == nlohmann::json::array({"pair", "theta", "wavelength"}));
  CHECK(j["rows"][1][2].get<double>() == 200 * std::numbers::pi);  // round-trips exactly
  CHECK(j["meta"].is_object());

  const std::string md = app::write_table(t, app::TableFormat::md, {.digits = 6});
  CHECK(md.rfind("| pair | theta | wavelength |\n| ---: | ---: | ---: |\n| 0 | 1 | 6.28319 |", 0) == 0);
  const std::string tex = app::write_table(build("t5-buckets", {"relative=-1:1"}), app::TableFormat::tex);
  CHECK(tex.find("\\begin{tabular}{rr}") != std::string::npos);
  CHECK(tex.find("relative\\_position & bucket \\\\") != std::string::npos);
  CHECK(tex.find("$-$1 & ") != std::string::npos);
  CHECK(tex.find("\\bottomrule") != std::string::npos);
}

TEST_CASE("tables refuse bad input naming the parameter, and cap their size") {
  CHECK_THROWS_AS(build("sinusoidal", {"pos=0:1000000", "d=8192"}), core::InvalidParameter);
  CHECK_THROWS_AS(build("rope-scaling", {"beta_fast=0.5"}), core::InvalidParameter);  // ≤ beta_slow
  CHECK_THROWS_AS(build("t5-buckets", {"buckets=31"}), core::InvalidParameter);       // odd, bidirectional
  CHECK_NOTHROW(build("t5-buckets", {"buckets=31", "bidirectional=false"}));
  CHECK_THROWS_AS(app::parse_table_format("xlsx"), core::InvalidParameter);
}

TEST_CASE("json strings are escaped") {
  app::Table t;
  t.id = "x";
  t.columns = {"a\"b"};
  t.rows = {{std::string("line\nbreak\\")}};
  const auto j = nlohmann::json::parse(app::write_table(t, app::TableFormat::json));
  CHECK(j["columns"][0] == "a\"b");
  CHECK(j["rows"][0][0] == "line\nbreak\\");
}
