// The parameter table, the `--set` parser and the cross-parameter rules
// (CONTRACT.md §1–2).
#include <doctest/doctest.h>

#include <charconv>
#include <cmath>
#include <random>
#include <limits>
#include <string>

#include "poslab/core/float_text.hpp"
#include "poslab/core/params.hpp"

using namespace poslab::core;

TEST_CASE("every contract parameter exists with its documented default") {
  Params p;
  CHECK(p.integer("d") == 128);
  CHECK(p.real("base") == 10000);
  CHECK(p.integer("positions") == 512);
  CHECK(p.real("m") == 2);
  CHECK(p.real("n") == 5);
  CHECK(p.list("vector") == std::vector<double>{1, 2, 3, 4});
  CHECK(p.choice("layout") == "interleaved");
  CHECK(p.list("distance").size() == 1025);
  CHECK(p.real("alpha1") == 0.7);
  CHECK(p.real("alpha2") == 0.3);
  CHECK(p.real("sigma1") == 5);
  CHECK(p.real("sigma2") == 20);
  CHECK(p.choice("kernel_mode") == "absolute");
  CHECK(p.integer("clip") == 4);
  CHECK(p.integer("buckets") == 32);
  CHECK(p.integer("bucket_max_distance") == 128);
  CHECK(p.boolean("bidirectional"));
  CHECK(p.list("relative").front() == -300);
  CHECK(p.list("relative").back() == 300);
  CHECK(p.integer("heads") == 8);
  CHECK(p.choice("method") == "yarn");
  CHECK(p.real("factor") == 8);
  CHECK(p.integer("original_context") == 4096);
  CHECK(p.integer("seq_len") == 32768);
  CHECK(p.real("beta_fast") == 32);
  CHECK(p.real("beta_slow") == 1);
  CHECK(p.real("mscale") == 0);
  CHECK(p.real("mscale_all_dim") == 0);
  CHECK(p.real("low_freq_factor") == 1);
  CHECK(p.real("high_freq_factor") == 4);
  CHECK(p.real("gamma") == 0.8);
  CHECK(p.real("temperature") == 0.25);
  CHECK(p.real("xpos_gamma") == 0.4);
  CHECK(p.real("xpos_scale_base") == 512);
  CHECK(p.integer("seed") == 0);
  CHECK_THROWS_AS(p.list("pos"), InvalidParameter);  // no global default
  CHECK(p.list_or("pos", "0:9").size() == 10);
}

TEST_CASE("every default parses and satisfies its own spec") {
  for (const ParamSpec& spec : param_specs()) {
    CAPTURE(spec.key);
    if (spec.default_text.empty()) continue;
    const ParamValue v = parse_param_value(spec, spec.default_text);
    CHECK_NOTHROW(check_param_value(spec, v));
    // formatting round-trips
    CHECK(parse_param_value(spec, format_param_value(spec, v)) == v);
    if (spec.type == ParamType::integer || spec.type == ParamType::real) {
      CHECK(spec.ui_min <= spec.ui_max);
    }
  }
  Params p;
  CHECK_NOTHROW(check_param_relations(p));
}

TEST_CASE("numbers: the forms the contract allows") {
  Params p;
  p.set_text("base", "1e4");
  CHECK(p.real("base") == 10000);
  p.set_text("base", "500000");
  CHECK(p.real("base") == 500000);
  p.set_assignment("d=64");
  CHECK(p.integer("d") == 64);
  p.set_assignment("d = 1e2");
  CHECK(p.integer("d") == 100);
  p.set_text("factor", "+4");
  CHECK(p.real("factor") == 4);
}

TEST_CASE("lists and inclusive ranges") {
  Params p;
  p.set_assignment("pos=0:9,100,4095");
  const auto pos = p.list("pos");
  REQUIRE(pos.size() == 12);
  CHECK(pos[0] == 0);
  CHECK(pos[9] == 9);
  CHECK(pos[10] == 100);
  CHECK(pos[11] == 4095);
  p.set_assignment("relative=-300:300");
  CHECK(p.list("relative").size() == 601);
  p.set_assignment("distance=0:100:10");
  CHECK(p.list("distance") == std::vector<double>{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100});
  p.set_assignment("relative=5:-5");
  CHECK(p.list("relative").front() == 5);
  CHECK(p.list("relative").back() == -5);
  CHECK(p.list("relative").size() == 11);
  p.set_assignment("vector=1,2,3,4,5,6");
  CHECK(p.list("vector").size() == 6);
  // ranges format back as ranges
  CHECK(format_param_value(param_spec("relative"), p.value("relative")) == "5:-5");
}

TEST_CASE("invalid values are rejected with the key, the value and what is allowed") {
  Params p;
  const Params before = p;
  auto rejects = [&](const char* assignment, const char* key, const char* words) {
    const std::string shown = assignment;
    CAPTURE(shown);
    try {
      p.set_assignment(assignment);
      FAIL("accepted");
    } catch (const InvalidParameter& e) {
      CHECK(e.key() == key);
      const std::string what = e.what();
      CAPTURE(what);
      CHECK(what.find(key) == 0);
      CHECK(what.find(words) != std::string::npos);
    }
    CHECK(p == before);  // nothing changed
  };
  rejects("d=7", "d", "even integer in 2..8192");
  rejects("d=0", "d", "even integer");
  rejects("d=10000", "d", "2..8192");
  rejects("d=12.5", "d", "integer");
  rejects("d=abc", "d", "integer");
  rejects("d=", "d", "integer");
  rejects("base=1", "base", "> 1");
  rejects("base=nan", "base", "> 1");
  rejects("base=inf", "base", "<= 1e12");
  rejects("base=-5", "base", "> 1");
  rejects("base=1e400", "base", "number");
  rejects("positions=0", "positions", "1..1048576");
  rejects("positions=2000000", "positions", "1..1048576");
  rejects("layout=diagonal", "layout", "interleaved, half");
  rejects("bidirectional=maybe", "bidirectional", "true or false");
  rejects("vector=1,2,3", "vector", "even in length");
  rejects("vector=1,nan", "vector", "numbers");
  rejects("vector=", "vector", "numbers");
  rejects("pos=-1", "pos", "numbers in 0..1e12");
  rejects("pos=0:2000000", "pos", "items");
  rejects("relative=0.5", "relative", "integers");
  rejects("distance=0:10:-1", "distance", "step");
  rejects("distance=0:10:0", "distance", "step");
  rejects("sigma1=0", "sigma1", "> 0");
  rejects("gamma=2.5", "gamma", "0..2");
  rejects("heads=257", "heads", "1..256");
  rejects("factor=0.5", "factor", "1..1024");
  rejects("method=rope", "method", "yarn-paper");
  try {
    p.set_assignment("nosuchkey=1");
    FAIL("accepted unknown key");
  } catch (const InvalidParameter& e) {
    CHECK(std::string(e.what()).find("unknown parameter") != std::string::npos);
  }
  CHECK_THROWS_AS(p.set_assignment("d"), InvalidParameter);
}

TEST_CASE("numbers are written as people type them, and read back exactly") {
  CHECK(format_number(500000) == "500000");
  CHECK(format_number(10000) == "10000");
  CHECK(format_number(1048576) == "1048576");
  CHECK(format_number(0.001) == "0.001");
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(1e12) == "1e12");
  CHECK(format_number(1e-7) == "1e-7");
  CHECK(format_number(-2.5e-9) == "-2.5e-9");
  CHECK(format_number(6.02e23) == "6.02e23");
  CHECK(format_number(-0.0) == "0");
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> mant(-10, 10);
  std::uniform_int_distribution<int> ex(-300, 300);
  for (int i = 0; i < 20000; ++i) {
    const double x = mant(rng) * std::pow(10.0, ex(rng));
    if (!std::isfinite(x)) continue;
    const std::string s = format_number(x);
    double back = 0;
    poslab::core::read_double(s.data(), s.data() + s.size(), back);  // std::from_chars where the library has it
    CAPTURE(s);
    CHECK(back == x);
  }
}

TEST_CASE("typed values are checked as strictly as parsed ones") {
  Params p;
  CHECK_THROWS_AS(p.set("base", std::numeric_limits<double>::quiet_NaN()), InvalidParameter);
  CHECK_THROWS_AS(p.set("base", std::numeric_limits<double>::infinity()), InvalidParameter);
  CHECK_THROWS_AS(p.set("d", 3.0), InvalidParameter);
  CHECK_THROWS_AS(p.set("d", true), InvalidParameter);
  CHECK_THROWS_AS(p.set("layout", std::string("x")), InvalidParameter);
  CHECK_THROWS_AS(check_integer("d", 5), InvalidParameter);
  CHECK_THROWS_AS(check_real("base", 0.5), InvalidParameter);
  CHECK_NOTHROW(check_integer("d", 64));
}

TEST_CASE("relations between parameters") {
  Params p;
  p.set_assignment("buckets=30");
  CHECK_NOTHROW(check_param_relations(p));
  p.set_assignment("buckets=31");
  CHECK_THROWS_AS(check_param_relations(p), InvalidParameter);
  p.set_assignment("bidirectional=false");
  CHECK_NOTHROW(check_param_relations(p));  // causal: odd is fine
  p.set_assignment("buckets=32");
  p.set_assignment("bucket_max_distance=16");  // causal max_exact = 16
  CHECK_THROWS_AS(check_param_relations(p), InvalidParameter);
  p.set_assignment("bucket_max_distance=17");
  CHECK_NOTHROW(check_param_relations(p));
  p.set_assignment("bidirectional=true");
  p.set_assignment("bucket_max_distance=9");  // bidirectional max_exact = 8
  CHECK_NOTHROW(check_param_relations(p));
  p.set_assignment("bucket_max_distance=8");
  CHECK_THROWS_AS(check_param_relations(p), InvalidParameter);
  p.reset("bucket_max_distance");

  p.set_assignment("beta_fast=1");
  CHECK_THROWS_AS(check_param_relations(p), InvalidParameter);
  const std::string_view only_t5[] = {"buckets", "bidirectional", "bucket_max_distance"};
  CHECK_NOTHROW(check_param_relations(p, only_t5));  // beta_* not read by this table
  p.reset("beta_fast");
  p.set_assignment("high_freq_factor=0.5");
  CHECK_THROWS_AS(check_param_relations(p), InvalidParameter);
  p.reset("high_freq_factor");
  p.set_assignment("d=64");
  CHECK_NOTHROW(check_param_relations(p));  // dims unset: the lesson picks them from d
  p.set_assignment("dims=0,63");
  CHECK_NOTHROW(check_param_relations(p));
  p.set_assignment("dims=0,64");
  CHECK_THROWS_AS(check_param_relations(p), InvalidParameter);
  p.reset("dims");
  p.set_assignment("heads=4");
  p.set_assignment("head=5");
  CHECK_THROWS_AS(check_param_relations(p), InvalidParameter);
}
