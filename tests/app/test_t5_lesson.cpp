// The "t5" lesson: its readouts hold (defaults and random settings), its
// figures show core's buckets (step plot with exact ranges, query × key
// heatmap, buckets used per sequence length), and the notes' variant matches
// an independent transcription of the notes' code.
//
// Reference values below come from a Python transcription run at development
// time (float32 steps emulated with struct.pack('f', ...)):
//   HF T5Attention._relative_position_bucket (bidirectional 32 buckets, max
//   distance 128: last bucket from |key − query| = 91; causal: from 113), and
//   the notes' T5RelativePositionBias._relative_position_bucket (seed 002 §2.4),
//   whose divisor is log(num_buckets / max_exact): 32 buckets →
//   n = 0..19 → n, 20 → 21, …, 27 → 28, 28 → 28, 29 → 29, 30 → 30, ≥ 31 → 31;
//   over key − query = −300..300 it differs from the causal reference at 96 positions.

#include <doctest/doctest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "lesson_test_support.hpp"
#include "poslab/core/t5.hpp"

using namespace poslab;
using test::params;

namespace {

const test::Lesson lesson{"t5"};

/// Random valid T5 settings: bidirectional or not, buckets 2..256, a max
/// distance above the exact range, up to 4096 positions.
core::Params random_setting(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> coin(0, 1);
  const bool bidir = coin(rng) == 1;
  int nb = std::uniform_int_distribution<int>(bidir ? 2 : 1, 128)(rng) * 2;
  if (!bidir && coin(rng)) nb += 1;  // causal buckets may be odd
  const int max_exact = bidir ? nb / 4 : nb / 2;
  const int maxd = max_exact + 1 + std::uniform_int_distribution<int>(0, 5000)(rng);
  core::Params p;
  p.set("bidirectional", bidir);
  p.set("buckets", static_cast<double>(nb));
  p.set("bucket_max_distance", static_cast<double>(maxd));
  p.set("positions", static_cast<double>(std::uniform_int_distribution<int>(1, 4096)(rng)));
  return p;
}

}  // namespace

TEST_CASE("t5 readouts hold at the defaults and over random settings") {
  CHECK(lesson.check_readouts(core::Params{}) == 5);  // used, exact, last bucket, monotone, bucket 16 unused
  const auto rs = lesson.readouts(core::Params{});
  CHECK(test::readout_containing(rs, "160 tokens").number == 31);          // T5-base buckets over 160 tokens
  CHECK(test::readout_containing(rs, "starts before").number == 91);       // HF: last bucket from 91
  CHECK(test::readout_containing(rs, "T5RelativePositionBias").number == 96);         // Python transcription of both
  CHECK(lesson.check_readouts(params({{"bidirectional", "false"}})) == 4);
  CHECK(test::readout_containing(lesson.readouts(params({{"bidirectional", "false"}})),
                     "starts before").number == 113);
  std::mt19937_64 rng(51);
  for (int trial = 0; trial < 60; ++trial) {
    const core::Params p = random_setting(rng);
    CAPTURE(trial);
    lesson.check_readouts(p);
  }
}

TEST_CASE("t5 buckets figure: every point is core's bucket, with its exact range") {
  // The axis is the course's r = m − n; T5's code buckets key − query = −r.
  for (const auto* mode : {"true", "false"}) {
    const core::Params p = params({{"bidirectional", mode}, {"relative", "-400:400"}});
    const auto f = lesson.figure("buckets", p);
    const bool bidir = std::string_view(mode) == "true";
    REQUIRE(f.series.size() == 3);
    std::size_t points = 0;
    for (const auto& s : f.series) {
      points += s.x.size();
      CHECK(std::is_sorted(s.x.begin(), s.x.end()));  // r ascends: post steps
      for (std::size_t k = 0; k < s.x.size(); ++k) {
        const auto r = static_cast<long long>(s.x[k]);
        CHECK(s.y[k] == core::t5_relative_bucket(-r, bidir, 32, 128));
      }
    }
    CHECK(points == 801);
    // Closed buckets: from <= r <= to, both ends in the bucket, neighbours not.
    const auto& closed = f.series[0];
    REQUIRE(closed.extra.size() == 3);
    for (std::size_t k = 0; k < closed.x.size(); ++k) {
      const auto r = static_cast<long long>(closed.x[k]);
      const auto from = static_cast<long long>(closed.extra[0].values[k]);
      const auto to = static_cast<long long>(closed.extra[1].values[k]);
      CHECK(from <= r);
      CHECK(r <= to);
      CHECK(closed.extra[2].values[k] == static_cast<double>(to - from + 1));
      const int b = core::t5_relative_bucket(-r, bidir, 32, 128);
      CHECK(core::t5_relative_bucket(-from, bidir, 32, 128) == b);
      CHECK(core::t5_relative_bucket(-to, bidir, 32, 128) == b);
      CHECK(core::t5_relative_bucket(-(from - 1), bidir, 32, 128) != b);
      CHECK(core::t5_relative_bucket(-(to + 1), bidir, 32, 128) != b);
    }
    // The open-ended bucket of the keys before the query: bidirectional holds
    // every r >= 91, causal every r >= 113 (key − query <= −91, −113).
    const auto& before = f.series[1];
    REQUIRE(!before.x.empty());
    for (double v : before.extra[0].values) CHECK(v == (bidir ? 91 : 113));
    for (double x : before.x) CHECK(x >= (bidir ? 91 : 113));
    // And of the keys after it: the encoder's last upper bucket holds every
    // r <= −91; the decoder's bucket 0 every r <= 0.
    const auto& after = f.series[2];
    REQUIRE(!after.x.empty());
    for (double v : after.extra[0].values) CHECK(v == (bidir ? -91 : 0));
    for (std::size_t k = 0; k < after.x.size(); ++k) {
      CHECK(after.x[k] <= (bidir ? -91 : 0));
      CHECK(after.y[k] == (bidir ? 31 : 0));
    }
  }
}

TEST_CASE("t5 buckets figure plots r = m − n: keys before the query on the right, T5's bucket numbers") {
  const auto f = lesson.figure("buckets", params({{"relative", "-20:20"}}));
  CHECK(f.x.label.find("r = m − n") != std::string::npos);
  CHECK(f.x.label.find("n − m") == std::string::npos);
  std::map<long long, double> at;
  for (const auto& s : f.series)
    for (std::size_t k = 0; k < s.x.size(); ++k) at[static_cast<long long>(s.x[k])] = s.y[k];
  // Python transcription of HF's bucket (32 buckets, max distance 128) at
  // key − query = −r: keys before the query get the lower half, 0..15.
  CHECK(at.at(0) == 0);
  CHECK(at.at(5) == 5);
  CHECK(at.at(-5) == 21);
  CHECK(at.at(-1) == 17);
  CHECK(at.at(11) == 8);
  CHECK(at.at(-11) == 24);
  // The decoder's exact band is 0 <= r < 16, on the side of the keys before the query.
  const auto g = lesson.figure("buckets", params({{"bidirectional", "false"}}));
  REQUIRE(g.bands.size() == 1);
  CHECK(g.bands[0].from == -0.5);
  CHECK(g.bands[0].to == 15.5);
  CHECK(g.bands[0].label.find("0 ≤ r < E = 16") != std::string::npos);
}

TEST_CASE("t5 buckets figure follows the max distance: the open-ended buckets always show, the staircase is exact") {
  std::mt19937_64 rng(1905);
  for (int trial = 0; trial < 40; ++trial) {
    const bool bidir = trial % 2 == 0;
    const int nb = 2 * std::uniform_int_distribution<int>(bidir ? 4 : 2, 64)(rng);
    const int maxd = std::uniform_int_distribution<int>(nb, 1 << 20)(rng);
    const std::string nbs = std::to_string(nb), maxds = std::to_string(maxd);
    const core::Params p = params({{"bidirectional", bidir ? "true" : "false"}, {"buckets", nbs.c_str()},
                                   {"bucket_max_distance", maxds.c_str()}, {"relative", "-40:40"},
                                   {"log_x", trial % 4 < 2 ? "true" : "false"}});
    CAPTURE(nb);
    CAPTURE(maxd);
    CAPTURE(bidir);
    const auto f = lesson.figure("buckets", p);
    double lo = 1e300, hi = -1e300;
    std::vector<std::pair<double, double>> pts;
    for (const auto& s : f.series)
      for (std::size_t k = 0; k < s.x.size(); ++k) {
        lo = std::min(lo, s.x[k]), hi = std::max(hi, s.x[k]);
        pts.emplace_back(s.x[k], s.y[k]);
      }
    // The axis reaches 1.25·D before the query (r > 0), and after it in the encoder.
    CHECK(hi >= 1.25 * maxd);
    if (bidir) CHECK(lo <= -1.25 * maxd);
    else CHECK(lo == -40);
    // The open-ended series before the query spans from the left end to its
    // first distance (two points at least, so it is drawn).
    CHECK(f.series[1].x.size() + f.series[2].x.size() >= (bidir ? 4u : 2u));
    // Post steps: between two consecutive points the bucket is that of the
    // first one — checked at random distances against core.
    std::sort(pts.begin(), pts.end());
    for (int k = 0; k < 200; ++k) {
      const auto r = std::uniform_int_distribution<long long>(static_cast<long long>(lo), static_cast<long long>(hi))(rng);
      auto it = std::upper_bound(pts.begin(), pts.end(), std::pair<double, double>{static_cast<double>(r), 1e300}) - 1;
      CHECK(it->second == core::t5_relative_bucket(-r, bidir, nb, maxd));
    }
    CHECK(f.x.scale == (trial % 4 < 2 ? app::fig::AxisScale::symlog : app::fig::AxisScale::linear));
  }
}

TEST_CASE("t5 matrix figure samples bucket(key − query) at any pixel, also for a million positions") {
  std::mt19937_64 rng(7);
  for (const char* n : {"160", "1048576"}) {
    for (const char* mode : {"true", "false"}) {
      const auto f = lesson.figure("matrix", params({{"positions", n}, {"bidirectional", mode}}));
      REQUIRE(f.heatmaps.size() == 1);
      const auto& h = f.heatmaps[0];
      CHECK(h.x1 == std::stod(n));
      std::uniform_real_distribution<double> u(0, h.x1);
      std::vector<double> xs, ys;
      for (int k = 0; k < 41; ++k) xs.push_back(u(rng)), ys.push_back(u(rng));
      xs.push_back(0.5), ys.push_back(h.x1 - 0.5);  // the corners
      ys.push_back(std::floor(h.x1 / 2) + 0.5);       // a row crossing the diagonal of the dense samples below
      // In any order (a hover), and ascending as the renderer samples a row,
      // densely around the diagonal where the buckets change fastest.
      std::vector<double> row = xs;
      std::sort(row.begin(), row.end());
      for (double j = 0; j < 300; ++j) row.push_back(std::clamp(h.x1 / 2 - 150 + j + 0.5, 0.5, h.x1 - 0.5));
      std::sort(row.begin(), row.end());
      for (const std::vector<double>* cols : {&xs, &row}) {
        std::vector<float> out(cols->size() * ys.size());
        h.sampler(*cols, ys, out);
        for (std::size_t r = 0; r < ys.size(); ++r)
          for (std::size_t c = 0; c < cols->size(); ++c) {
            const auto rp = static_cast<long long>(std::floor((*cols)[c])) - static_cast<long long>(std::floor(ys[r]));
            CHECK(out[r * cols->size() + c] ==
                  static_cast<float>(core::t5_relative_bucket(rp, std::string_view(mode) == "true", 32, 128)));
          }
      }
      // The count of distinct buckets is a readout (explained with the usage
      // figure), not in this subtitle; T5's own D = 128 goes unnamed.
      const int used = core::t5_distinct_buckets(std::stoll(n), std::string_view(mode) == "true", 32, 128);
      CHECK(test::readout_containing(lesson.readouts(params({{"positions", n}, {"bidirectional", mode}})), " tokens uses").number == used);
      CHECK(f.subtitle.find("distinct") == std::string::npos);
      CHECK(f.subtitle.find("D = ") == std::string::npos);
    }
  }
}

TEST_CASE("t5 matrix figure names D only when it is not T5's 128") {
  CHECK(lesson.figure("matrix", params({{"bucket_max_distance", "512"}})).subtitle.find("D = 512") != std::string::npos);
  CHECK(lesson.figure("matrix", params({{"bucket_max_distance", "128"}})).subtitle.find("D = ") == std::string::npos);
}

TEST_CASE("t5 usage figure ends at the N shown: the level it reaches later is not drawn in advance") {
  for (const char* n : {"20", "64", "91", "92", "10000"}) {
    CAPTURE(n);
    const auto f = lesson.figure("usage", params({{"positions", n}}));
    const auto& s = f.series.at(0);
    const double big_n = std::stod(n);
    CHECK(s.x.back() == std::max(big_n, 16.0));
    for (double x : s.x) CHECK(x <= std::max(big_n, 16.0));
    CHECK(s.y.back() == core::t5_distinct_buckets(static_cast<long long>(big_n), true, 32, 128));
  }
}

TEST_CASE("t5 usage figure: a staircase of core's distinct-bucket counts, checked by brute force") {
  const auto f = lesson.figure("usage", core::Params{});
  REQUIRE(f.series.size() == 1);
  const auto& s = f.series[0];
  CHECK(s.y.back() == 31);  // bucket 16 is never reached
  for (std::size_t k = 0; k < s.x.size(); ++k) {
    const auto n = static_cast<long long>(s.x[k]);
    CHECK(s.y[k] == core::t5_distinct_buckets(n, true, 32, 128));
    if (n <= 300) {
      std::set<int> seen;
      for (long long rp = -(n - 1); rp <= n - 1; ++rp) seen.insert(core::t5_relative_bucket(rp, true, 32, 128));
      CHECK(s.y[k] == static_cast<double>(seen.size()));
    }
  }
  // The step lands one token after each bucket's nearest distance: 92 reaches bucket 15 and 31.
  CHECK(core::t5_distinct_buckets(91, true, 32, 128) == 29);
  CHECK(core::t5_distinct_buckets(92, true, 32, 128) == 31);
}

TEST_CASE("t5 usage figure: core's count at every step, over random settings and the largest sizes") {
  std::mt19937_64 rng(77);
  std::vector<core::Params> settings;
  for (int trial = 0; trial < 25; ++trial) settings.push_back(random_setting(rng));
  settings.push_back(params({{"buckets", "256"}, {"bucket_max_distance", "65536"}, {"positions", "1048576"}}));
  settings.push_back(
      params({{"buckets", "256"}, {"bidirectional", "false"}, {"bucket_max_distance", "1000"}, {"positions", "1048576"}}));
  for (const core::Params& p : settings) {
    const bool bidir = p.is_set("bidirectional") ? p.boolean("bidirectional") : true;
    const int nb = static_cast<int>(p.integer("buckets"));
    const int maxd = static_cast<int>(p.is_set("bucket_max_distance") ? p.integer("bucket_max_distance") : 128);
    CAPTURE(bidir);
    CAPTURE(nb);
    CAPTURE(maxd);
    const auto f = lesson.figure("usage", p);
    const auto& s = f.series.at(0);
    for (std::size_t k = 0; k < s.x.size(); ++k) {
      const auto n = static_cast<long long>(s.x[k]);
      CHECK(s.y[k] == core::t5_distinct_buckets(n, bidir, nb, maxd));
      if (k > 0 && k + 1 < s.x.size())  // a step (the last point only extends the line): N − 1 used fewer
        CHECK(core::t5_distinct_buckets(n - 1, bidir, nb, maxd) < s.y[k]);
    }
  }
}

TEST_CASE("t5 readouts at the largest sizes scan a bounded range and say so") {
  const core::Params p = params({{"buckets", "256"}, {"bucket_max_distance", "65536"}, {"positions", "1048576"}});
  CHECK(lesson.check_readouts(p) == 5);
  const auto rs = lesson.readouts(p);
  const app::Readout& used = test::readout_containing(rs, "1,048,576 tokens");
  CHECK(used.number == core::t5_distinct_buckets(1048576, true, 256, 65536));
  CHECK(used.value.find("up to 4,096, then one per bucket range") != std::string::npos);
  const app::Readout& monotone = test::readout_containing(rs, "Farther never");
  CHECK(monotone.number == 131072);
  CHECK(monotone.value.find("every distance up to 4,096 and across each bucket edge up to 131,072") != std::string::npos);
  // The defaults are scanned entirely.
  const auto defaults = lesson.readouts(core::Params{});
  CHECK(test::readout_containing(defaults, "160 tokens").value == "31 of 32");
  CHECK(test::readout_containing(defaults, "Farther never").value == "checked for distances up to 512");
}

TEST_CASE("t5 notes figure: the reference causal buckets and the notes' code") {
  const auto f = lesson.figure("notes", params({{"relative", "-40:40"}}));
  REQUIRE(f.series.size() == 2);
  const auto& ref = f.series[0];
  const auto& notes = f.series[1];
  const double expected[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                             21, 22, 23, 24, 25, 26, 27, 28, 28, 29, 30, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31};
  REQUIRE(notes.x.size() == 41);
  for (std::size_t n = 0; n < notes.x.size(); ++n) {
    CHECK(notes.x[n] == static_cast<double>(n));
    CHECK(notes.y[n] == expected[n]);
    CHECK(ref.y[n] == core::t5_relative_bucket(-static_cast<long long>(n), false, 32, 128));
  }
  // 8 buckets: the notes' code clips from distance 7 on (log 2 divisor), whatever the max distance.
  const auto g = lesson.figure("notes", params({{"buckets", "8"}, {"bucket_max_distance", "1000"}, {"relative", "0:20"}}));
  for (std::size_t n = 0; n < g.series[1].x.size(); ++n) CHECK(g.series[1].y[n] == std::min<double>(static_cast<double>(n), 7));
}

TEST_CASE("t5-bucket-ranges table: T5-base ranges, open ends as the words -inf / inf") {
  const app::Table t = test::table("t5-bucket-ranges");
  REQUIRE(t.columns == std::vector<std::string>{"bucket", "first", "last", "size", "kind"});
  CHECK(t.rows.size() == 31);
  const auto ranges = core::t5_bucket_ranges(true, 32, 128);
  REQUIRE(ranges.size() == t.rows.size());
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    CHECK(std::get<long long>(t.rows[k][0]) == ranges[k].bucket);
    if (ranges[k].first == LLONG_MIN) {
      CHECK(std::get<std::string>(t.rows[k][1]) == "-inf");  // no non-finite number in a file
      CHECK(std::get<std::string>(t.rows[k][3]) == "inf");
      CHECK(std::get<std::string>(t.rows[k][4]) == "open_ended");
    } else {
      CHECK(std::get<long long>(t.rows[k][1]) == ranges[k].first);
    }
  }
  // Bucket 8 = key − query in [−11, −8] (Python transcription of the reference), 4 positions.
  CHECK(std::get<long long>(t.rows[8][1]) == -11);
  CHECK(std::get<long long>(t.rows[8][2]) == -8);
  CHECK(std::get<long long>(t.rows[8][3]) == 4);
  CHECK(std::get<std::string>(t.rows[8][4]) == "logarithmic");
  CHECK(std::get<std::string>(t.rows[3][4]) == "exact");
  for (const auto& [key, value] : t.meta)
    if (key == "last_bucket_from_distance") CHECK(std::get<long long>(value) == 91);
}

TEST_CASE("t5 matrix reads from the top and fits its data") {
  test::check_matrix_orientation(lesson.figure("matrix", {}));
}

TEST_CASE("t5: the notes' readout goes to the Notes check panel, named by the notes' title") {
  const auto rs = lesson.readouts({});
  int notes = 0;
  for (const app::Readout& r : rs)
    if (r.notes) {
      ++notes;
      CHECK(r.label.find("position embedding 概述") != std::string::npos);
      CHECK(r.label.find("seed") == std::string::npos);
    }
  CHECK(notes == 1);
}

TEST_CASE("t5 at a list of 600,001 relative positions: runs drawn exactly, the notes readout counted exactly") {
  // Past kDrawnPoints the figures draw the two ends of each run of equal
  // buckets instead of every position; the readout counts run by run.
  std::mt19937_64 rng(1515);
  for (int trial = 0; trial < 8; ++trial) {
    core::Params p = random_setting(rng);
    if (p.integer("bucket_max_distance") > 2000) p.set("bucket_max_distance", 2000.0);
    p.set_text("relative", "-300000:300000");
    const bool bidir = p.boolean("bidirectional");
    const int nb = static_cast<int>(p.integer("buckets"));
    const int maxd = static_cast<int>(p.integer("bucket_max_distance"));
    CAPTURE(bidir);
    CAPTURE(nb);
    CAPTURE(maxd);
    // Buckets figure: each point is core's bucket; every (bucket, side) the
    // full list reaches appears at its first and its last position.
    const auto f = lesson.figure("buckets", p);
    std::set<std::pair<double, double>> drawn;
    std::size_t points = 0;
    for (const auto& s : f.series)
      for (std::size_t k = 0; k < s.x.size(); ++k) {
        CHECK(s.y[k] == core::t5_relative_bucket(-static_cast<long long>(s.x[k]), bidir, nb, maxd));
        drawn.insert({-s.x[k], s.y[k]});  // as T5's key − query, the list's own sign
        ++points;
      }
    CHECK(points <= 4 * static_cast<std::size_t>(nb) + 4);
    std::map<std::pair<int, bool>, std::pair<long long, long long>> ends;  // (bucket, rp >= 0) → first, last
    for (long long rp = -300000; rp <= 300000; ++rp) {
      const auto key = std::make_pair(core::t5_relative_bucket(rp, bidir, nb, maxd), rp >= 0);
      auto it = ends.find(key);
      if (it == ends.end()) ends[key] = {rp, rp};
      else it->second.second = rp;
    }
    for (const auto& e : ends) {
      CHECK(drawn.count({static_cast<double>(e.second.first), e.first.first}) == 1);
      CHECK(drawn.count({static_cast<double>(e.second.second), e.first.first}) == 1);
    }
    // Notes readout: against the notes figure's every-point curves over
    // n = 0..4000 (beyond both codes' last-bucket starts they agree).
    core::Params small = p;
    small.set_text("relative", "-4000:0");
    const auto notes = lesson.figure("notes", small);
    REQUIRE(notes.series[0].x.size() == 4001);
    long long differ = 0;
    for (std::size_t n = 1; n < notes.series[0].x.size(); ++n) differ += notes.series[0].y[n] != notes.series[1].y[n];
    CHECK(test::readout_containing(lesson.readouts(p), "T5RelativePositionBias").number == static_cast<double>(differ));
  }
}
