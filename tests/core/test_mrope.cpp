// Positions in images and video (core/mrope.hpp): axial 2-D RoPE and M-RoPE.
//
// Reference values: "by hand" means the formula written out here with
// std::pow/std::cos (independent of core's RoPE kernels); the position ids of
// HF transformers' get_rope_index are checked against a transcription run in
// torch, tests/fixtures/mrope/cases.json, in tests/app/test_multimodal_lesson.cpp
// (the app suite knows the source folder). Here: the docstring examples of
// get_rope_index written out, and properties over seeded random inputs in
// float and double.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "core_test_support.hpp"
#include "poslab/core/mrope.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/rope.hpp"

using namespace poslab::core;
using poslab::test::random_vector;
using poslab::test::rejects;
using poslab::test::Vec;

namespace {

template <class Scalar>
constexpr double kTol = std::is_same_v<Scalar, float> ? 2e-5 : 1e-11;

/// One pair of the half layout turned by α, by hand.
std::pair<double, double> turn(double a, double b, double angle) {
  return {a * std::cos(angle) - b * std::sin(angle), a * std::sin(angle) + b * std::cos(angle)};
}

}  // namespace

// [SECTION] Axial 2-D RoPE

TEST_CASE("axial 2-D RoPE: frequencies base^(−4j/d), half the pairs by row, half by column") {
  const Eigen::VectorXd th = axial_rope_frequencies(16, 10000);
  REQUIRE(th.size() == 4);
  for (int j = 0; j < 4; ++j) CHECK(th[j] == doctest::Approx(std::pow(10000.0, -4.0 * j / 16)).epsilon(1e-14));
  // x = (1, …, 16) at (row 3, col 5), by hand: pair j = (j, j + 8) turns by
  // 3·θ_j for j < 4, by 5·θ_{j−4} for 4 <= j < 8.
  Eigen::VectorXd x(16);
  for (int j = 0; j < 16; ++j) x[j] = j + 1;
  const Eigen::VectorXd y = axial_rope_rotate<double>(x, 3, 5, 10000);
  for (int j = 0; j < 8; ++j) {
    const double angle = (j < 4 ? 3.0 : 5.0) * std::pow(10000.0, -4.0 * (j % 4) / 16);
    const auto [a, b] = turn(x[j], x[j + 8], angle);
    CHECK(y[j] == doctest::Approx(a).epsilon(1e-14));
    CHECK(y[j + 8] == doctest::Approx(b).epsilon(1e-14));
  }
  rejects([] { (void)axial_rope_frequencies(6, 10000); }, "d");
  rejects([] { (void)axial_rope_frequencies(8, 1); }, "base");
}

TEST_CASE_TEMPLATE("axial 2-D RoPE: the score depends on (Δrow, Δcol) only, and splits into a row part and a column part",
                   Scalar, float, double) {
  std::mt19937_64 rng(2403);
  std::uniform_int_distribution<int> cell(0, 200), shift(-40, 40);
  for (int trial = 0; trial < 300; ++trial) {
    const int d = 4 * std::uniform_int_distribution<int>(1, 32)(rng);
    const double base = std::pow(10.0, std::uniform_real_distribution<double>(1, 6)(rng));
    const Vec<Scalar> q = random_vector<Scalar>(d, static_cast<std::uint64_t>(trial), 1);
    const Vec<Scalar> k = random_vector<Scalar>(d, static_cast<std::uint64_t>(trial), 2);
    const double rq = cell(rng) + 50, cq = cell(rng) + 50, rk = cell(rng) + 50, ck = cell(rng) + 50;
    const double sr = shift(rng), sc = shift(rng);
    auto score = [&](double a, double b, double c, double e) {
      return static_cast<double>(axial_rope_rotate<Scalar>(q, a, b, base).dot(axial_rope_rotate<Scalar>(k, c, e, base)));
    };
    const double scale = static_cast<double>(q.norm() * k.norm());
    CAPTURE(d);
    CHECK(std::abs(score(rq + sr, cq + sc, rk + sr, ck + sc) - score(rq, cq, rk, ck)) <= kTol<Scalar> * 10 * scale);
    const double whole = score(rq, cq, rk, ck);
    const double split = score(rq, cq, rk, cq) + score(rq, cq, rq, ck) - score(rq, cq, rq, cq);
    CHECK(std::abs(whole - split) <= kTol<Scalar> * 10 * scale);
  }
}

// [SECTION] M-RoPE: which pairs each axis drives

TEST_CASE("M-RoPE sections: contiguous as Qwen2-VL splits them, interleaved as Qwen3-VL does") {
  // Qwen2-VL [16, 24, 24]: t 0..15, h 16..39, w 40..63 (the slowest pairs).
  const auto c = mrope_pair_axes({16, 24, 24}, false);
  REQUIRE(c.size() == 64);
  for (int i = 0; i < 64; ++i)
    CHECK(c[static_cast<std::size_t>(i)] == (i < 16 ? MropeAxis::temporal : i < 40 ? MropeAxis::height : MropeAxis::width));
  // Qwen3-VL [24, 20, 20]: h at 1, 4, …, 58; w at 2, 5, …, 59; t at 0, 3, …, 57 and 60..63.
  const auto v = mrope_pair_axes({24, 20, 20}, true);
  REQUIRE(v.size() == 64);
  for (int i = 0; i < 64; ++i) {
    const MropeAxis want = i >= 60 || i % 3 == 0 ? MropeAxis::temporal : i % 3 == 1 ? MropeAxis::height : MropeAxis::width;
    CHECK(v[static_cast<std::size_t>(i)] == want);
  }
  // Qwen3.5 [11, 11, 10] over 32 pairs: h at 1, …, 31 (11), w at 2, …, 29 (10), t the other 11.
  const auto q35 = mrope_pair_axes({11, 11, 10}, true);
  int counts[3] = {0, 0, 0};
  for (MropeAxis a : q35) ++counts[static_cast<int>(a)];
  CHECK(counts[0] == 11);
  CHECK(counts[1] == 11);
  CHECK(counts[2] == 10);
  rejects([] { (void)mrope_pair_axes({0, 0, 0}, false); }, "mrope_section");
  rejects([] { (void)mrope_pair_axes({-1, 3, 3}, false); }, "mrope_section");
  rejects([] { (void)mrope_pair_axes({4096, 1, 0}, true); }, "mrope_section");
}

TEST_CASE("M-RoPE sections: every pair has one axis; contiguous counts are the sections, interleaved counts follow i mod 3") {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 500; ++trial) {
    std::uniform_int_distribution<int> sec(0, 40);
    MropeSections s = {sec(rng), sec(rng), sec(rng)};
    if (s[0] + s[1] + s[2] == 0) s[0] = 1;
    const int pairs = s[0] + s[1] + s[2];
    CAPTURE(s[0]);
    CAPTURE(s[1]);
    CAPTURE(s[2]);
    for (bool interleaved : {false, true}) {
      const auto axes = mrope_pair_axes(s, interleaved);
      REQUIRE(static_cast<int>(axes.size()) == pairs);  // the sections sum to the pairs
      int counts[3] = {0, 0, 0};
      for (MropeAxis a : axes) ++counts[static_cast<int>(a)];
      CHECK(counts[0] + counts[1] + counts[2] == pairs);
      if (!interleaved) {
        for (int a = 0; a < 3; ++a) CHECK(counts[a] == s[static_cast<std::size_t>(a)]);
        continue;
      }
      // h: i ≡ 1 (mod 3) below min(3·s_h, pairs); w: i ≡ 2 below min(3·s_w, pairs).
      auto residues = [&](int r, int below) {
        int n = 0;
        for (int i = 0; i < std::min(below, pairs); ++i) n += i % 3 == r;
        return n;
      };
      CHECK(counts[1] == residues(1, 3 * s[1]));
      CHECK(counts[2] == residues(2, 3 * s[2]));
      if (3 * std::max(s[1], s[2]) <= pairs)
        for (int a = 0; a < 3; ++a) CHECK(counts[a] == s[static_cast<std::size_t>(a)]);
    }
  }
}

TEST_CASE_TEMPLATE("M-RoPE with t = h = w = p is 1-D RoPE (half layout) at p, for any sections", Scalar, float, double) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::uniform_int_distribution<int> sec(0, 24);
    MropeSections s = {sec(rng), sec(rng), sec(rng)};
    if (s[0] + s[1] + s[2] == 0) s[2] = 1;
    const int d = 2 * (s[0] + s[1] + s[2]);
    const double p = std::uniform_real_distribution<double>(0, 5000)(rng);
    const double base = std::pow(10.0, std::uniform_real_distribution<double>(2, 7)(rng));
    const Vec<Scalar> x = random_vector<Scalar>(d, static_cast<std::uint64_t>(trial), 5);
    const Vec<Scalar> rope = rope_rotate<Scalar>(x, p, base, PairLayout::half);
    for (bool interleaved : {false, true}) {
      const Vec<Scalar> m = mrope_rotate<Scalar>(x, p, p, p, base, s, interleaved);
      CHECK(static_cast<double>((m - rope).cwiseAbs().maxCoeff()) <= kTol<Scalar> * (1 + p * 1e-4) * 10);
    }
  }
}

TEST_CASE_TEMPLATE("M-RoPE: the score depends on the offsets (Δt, Δh, Δw) only, and pair i turns by its axis's id",
                   Scalar, float, double) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> id(0, 300), shift(-30, 30);
  for (int trial = 0; trial < 200; ++trial) {
    const MropeSections s = {16, 24, 24};
    const bool interleaved = trial % 2 == 1;
    const Vec<Scalar> q = random_vector<Scalar>(128, static_cast<std::uint64_t>(trial), 1);
    const Vec<Scalar> k = random_vector<Scalar>(128, static_cast<std::uint64_t>(trial), 2);
    const double a[3] = {id(rng) + 30.0, id(rng) + 30.0, id(rng) + 30.0}, b[3] = {id(rng) + 30.0, id(rng) + 30.0, id(rng) + 30.0};
    const double sh[3] = {static_cast<double>(shift(rng)), static_cast<double>(shift(rng)), static_cast<double>(shift(rng))};
    auto score = [&](const double* u, const double* v, const double* o) {
      return static_cast<double>(mrope_rotate<Scalar>(q, u[0] + o[0], u[1] + o[1], u[2] + o[2], 1e6, s, interleaved)
                                     .dot(mrope_rotate<Scalar>(k, v[0] + o[0], v[1] + o[1], v[2] + o[2], 1e6, s, interleaved)));
    };
    const double zero[3] = {0, 0, 0};
    CHECK(std::abs(score(a, b, sh) - score(a, b, zero)) <= kTol<Scalar> * 20 * static_cast<double>(q.norm() * k.norm()));
  }
  // By hand: x = e_i (pair i's first dim) at ids (2, 3, 5) turns by id_axis(i)·θ_i.
  const MropeSections s = {2, 3, 3};
  for (bool interleaved : {false, true})
    for (int i = 0; i < 8; ++i) {
      Eigen::VectorXd x = Eigen::VectorXd::Zero(16);
      x[i] = 1;
      const Eigen::VectorXd y = mrope_rotate<double>(x, 2, 3, 5, 100, s, interleaved);
      const double ids[3] = {2, 3, 5};
      const double angle = ids[static_cast<int>(mrope_pair_axis(i, s, interleaved))] * std::pow(100.0, -2.0 * i / 16);
      CHECK(y[i] == doctest::Approx(std::cos(angle)).epsilon(1e-14));
      CHECK(y[i + 8] == doctest::Approx(std::sin(angle)).epsilon(1e-14));
    }
}

// [SECTION] M-RoPE: the position ids

namespace {

std::vector<long long> axis(const std::vector<MropePosition>& p, int a) {
  std::vector<long long> out;
  for (const MropePosition& x : p) out.push_back(a == 0 ? x.t : a == 1 ? x.h : x.w);
  return out;
}

}  // namespace

TEST_CASE("M-RoPE ids: get_rope_index's docstring examples") {
  // "input_ids: [T T T T T]": text only, 0..4 on every axis.
  const MropeSegment text5{TokenKind::text, 5};
  const auto only_text = mrope_position_ids(std::span(&text5, 1), {});
  for (int a = 0; a < 3; ++a) CHECK(axis(only_text, a) == std::vector<long long>{0, 1, 2, 3, 4});
  // "a video input with 3 temporal patches, 2 height patches and 2 width
  // patches", then 5 text tokens: t 0,0,0,0,1,1,1,1,2,2,2,2 (Qwen2-VL), text 3..7.
  const std::vector<MropeSegment> video = {{TokenKind::video, 0, 3, 2, 2}, {TokenKind::text, 5}};
  const auto q2 = mrope_position_ids(video, {});
  CHECK(axis(q2, 0) == std::vector<long long>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 4, 5, 6, 7});
  CHECK(axis(q2, 1) == std::vector<long long>{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 3, 4, 5, 6, 7});
  CHECK(axis(q2, 2) == std::vector<long long>{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 4, 5, 6, 7});
  // Qwen2.5-VL's docstring: fps 1, temporal_patch_size 2 (2 s per patch), 25
  // tokens per second: interval 50; t 0…, 50…, 100…, text 101..105.
  std::vector<MropeSegment> v25 = video;
  v25[0].second_per_grid = 2;
  const auto q25 = mrope_position_ids(v25, {VideoTime::absolute, 25});
  CHECK(axis(q25, 0) == std::vector<long long>{0, 0, 0, 0, 50, 50, 50, 50, 100, 100, 100, 100, 101, 102, 103, 104, 105});
  CHECK(axis(q25, 2) == std::vector<long long>{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 101, 102, 103, 104, 105});
  // transformers casts the seconds to an integer first: 0.5 s → 0 (every
  // temporal id the same), 1.5 s → 1.
  CHECK(mrope_temporal_offset(3, TokenKind::video, 0.5, {VideoTime::absolute, 2}) == 0);
  CHECK(mrope_temporal_offset(3, TokenKind::video, 1.5, {VideoTime::absolute, 2}) == 6);
  CHECK(mrope_temporal_offset(3, TokenKind::image, 1.5, {VideoTime::absolute, 2}) == 3);
  CHECK(mrope_temporal_offset(3, TokenKind::video, 1.5, {VideoTime::index, 2}) == 3);
}

TEST_CASE("M-RoPE ids: text, image, text; text ids equal on all axes; the text after resumes at the largest id + 1") {
  // 2 text, a 4 × 6 image, 2 text: image ids (2, 2 + row, 2 + col), max 7 (w); text after at 8, 9.
  const std::vector<MropeSegment> s = {{TokenKind::text, 2}, {TokenKind::image, 0, 1, 4, 6}, {TokenKind::text, 2}};
  const MropeLayout layout(s, {});
  REQUIRE(layout.tokens() == 28);
  const auto p = layout.positions();
  CHECK(p[0] == MropePosition{TokenKind::text, 0, 0, 0});
  CHECK(p[2] == MropePosition{TokenKind::image, 2, 2, 2});
  CHECK(p[2 + 6 + 3] == MropePosition{TokenKind::image, 2, 3, 5});  // row 1, col 3
  CHECK(p[25] == MropePosition{TokenKind::image, 2, 5, 7});
  CHECK(p[26] == MropePosition{TokenKind::text, 8, 8, 8});
  CHECK(layout.next_id() == 10);
  for (long long i = 0; i < layout.tokens(); ++i) CHECK(layout.position(i) == p[static_cast<std::size_t>(i)]);
  // A 1 × w image: its w ids and the text after are the 1-D positions 0, 1, 2, ….
  const std::vector<MropeSegment> row = {{TokenKind::text, 3}, {TokenKind::image, 0, 1, 1, 5}, {TokenKind::text, 4}};
  const auto r = mrope_position_ids(row, {});
  for (std::size_t i = 0; i < r.size(); ++i) CHECK(r[i].w == static_cast<long long>(i));
  rejects([] { (void)MropeLayout({{TokenKind::image, 0, 2, 2, 2}}, {}); }, "grid_t");
  rejects([] { (void)MropeLayout({{TokenKind::video, 0, 1, 0, 2}}, {}); }, "grid_h");
  rejects([] { (void)MropeLayout({{TokenKind::video, 0, 2, 2, 2, -1}}, {VideoTime::absolute, 2}); }, "second_per_grid");
  rejects([] { (void)MropeLayout({{TokenKind::text, 2}}, {VideoTime::absolute, 0}); }, "tokens_per_second");
}

TEST_CASE("M-RoPE ids: over random layouts, text counts up, a grid is its start plus (τ(k), row, col), the next run starts past every id") {
  std::mt19937_64 rng(19);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<MropeSegment> segs;
    const int grids = std::uniform_int_distribution<int>(0, 3)(rng);
    for (int g = 0; g <= grids; ++g) {
      segs.push_back({TokenKind::text, std::uniform_int_distribution<long long>(0, 5)(rng)});
      if (g == grids) break;
      const bool video = rng() % 2;
      segs.push_back({video ? TokenKind::video : TokenKind::image, 0, video ? std::uniform_int_distribution<long long>(1, 6)(rng) : 1,
                      std::uniform_int_distribution<long long>(1, 5)(rng), std::uniform_int_distribution<long long>(1, 5)(rng),
                      static_cast<double>(std::uniform_int_distribution<int>(0, 6)(rng)) / 2});
    }
    const MropeTiming timing{rng() % 2 ? VideoTime::absolute : VideoTime::index, std::uniform_int_distribution<long long>(1, 4)(rng)};
    const auto p = mrope_position_ids(segs, timing);
    // Walk the segments by hand.
    std::size_t i = 0;
    long long next = 0;
    for (const MropeSegment& s : segs) {
      if (s.kind == TokenKind::text) {
        for (long long n = 0; n < s.count; ++n, ++i) CHECK(p[i] == MropePosition{TokenKind::text, next + n, next + n, next + n});
        next += s.count;
        continue;
      }
      long long top = next;
      for (long long k = 0; k < s.grid_t; ++k)
        for (long long r = 0; r < s.grid_h; ++r)
          for (long long c = 0; c < s.grid_w; ++c, ++i) {
            const long long tau = s.kind == TokenKind::video && timing.time == VideoTime::absolute
                                      ? k * static_cast<long long>(s.second_per_grid) * timing.tokens_per_second
                                      : k;
            CHECK(p[i] == MropePosition{s.kind, next + tau, next + r, next + c});
            top = std::max({top, next + tau, next + r, next + c});
          }
      next = top + 1;
    }
    CHECK(i == p.size());
  }
}
