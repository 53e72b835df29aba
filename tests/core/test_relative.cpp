// Shaw relative indices, the seeded toy attention, the four-term
// decomposition and the Transformer-XL / T5 / DeBERTa variants.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core_test_support.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/random.hpp"
#include "poslab/core/relative.hpp"
#include "poslab/core/sinusoidal.hpp"
#include "poslab/core/t5.hpp"

using namespace poslab::core;
using namespace poslab::test;

namespace {

struct Sizes {
  int tokens, d_model, d_head;
};
Sizes random_sizes(std::uint64_t t) {
  return {1 + static_cast<int>(random_uniform(31, 0, t) * 48), 2 * (1 + static_cast<int>(random_uniform(31, 1, t) * 64)),
          2 * (1 + static_cast<int>(random_uniform(31, 2, t) * 32))};
}

double scale_of(const Eigen::MatrixXd& m) { return std::max(1.0, m.cwiseAbs().maxCoeff()); }

/// The sinusoid [sin(r ω_0), cos(r ω_0), …] at a signed distance r, written out
/// from the frequencies (independently of relative.cpp's helper).
Eigen::RowVectorXd sinusoid_at(double r, int d, double base) {
  Eigen::RowVectorXd out(d);
  for (int i = 0; i < d / 2; ++i) {
    out[2 * i] = std::sin(r * sinusoidal_frequency(i, d, base));
    out[2 * i + 1] = std::cos(r * sinusoidal_frequency(i, d, base));
  }
  return out;
}

}  // namespace

TEST_CASE("Shaw et al.: clip(j − i, −k, k)") {
  // Shaw et al. 2018 §3.2: a_ij = w_clip(j−i, k); with k = 4 there are 9 vectors.
  CHECK(shaw_relative_index(5, 2, 4) == -3);
  CHECK(shaw_relative_index(2, 5, 4) == 3);
  CHECK(shaw_relative_index(0, 10, 4) == 4);
  CHECK(shaw_relative_index(10, 0, 4) == -4);
  CHECK(shaw_relative_index(7, 7, 4) == 0);
  CHECK(shaw_relative_index(0, 1000, 0) == 0);  // k = 0: no position information
  for (int k : {0, 1, 4, 16}) {
    const auto m = shaw_index_matrix(40, k);
    REQUIRE(m.rows() == 40);
    int distinct_min = 0, distinct_max = 0;
    for (int i = 0; i < 40; ++i)
      for (int j = 0; j < 40; ++j) {
        CHECK(m(i, j) == shaw_relative_index(i, j, k));
        CHECK(std::abs(m(i, j)) <= k);
        if (i + 1 < 40 && j + 1 < 40) CHECK(m(i + 1, j + 1) == m(i, j));  // Toeplitz: depends on j − i only
        distinct_min = std::min(distinct_min, m(i, j));
        distinct_max = std::max(distinct_max, m(i, j));
      }
    CHECK(distinct_max - distinct_min + 1 == 2 * k + 1);  // 2k + 1 vectors
  }
}

TEST_CASE("toy attention: sizes, determinism, sinusoidal p") {
  const ToyAttention a = toy_attention(10, 16, 8, 1e4, 3);
  CHECK(a.x.rows() == 10);
  CHECK(a.x.cols() == 16);
  CHECK(a.p.rows() == 10);
  CHECK(a.w_q.rows() == 16);
  CHECK(a.w_q.cols() == 8);
  CHECK(a.w_kr.cols() == 8);
  CHECK(a.w_qr.cols() == 8);
  CHECK(a.u.size() == 8);
  CHECK(a.v.size() == 8);
  CHECK(a.bucket_bias.size() == kT5ToyBuckets);
  CHECK(a.relative_embeddings.rows() == 2 * kDebertaSpan);
  CHECK(a.relative_embeddings.cols() == 16);
  for (int i = 0; i < 10; ++i) CHECK(a.p.row(i) == sinusoidal_row<double>(i, 16, 1e4).transpose());
  const ToyAttention b = toy_attention(10, 16, 8, 1e4, 3);
  CHECK(a.x == b.x);
  CHECK(a.w_k == b.w_k);
  const ToyAttention c = toy_attention(10, 16, 8, 1e4, 4);
  CHECK(a.x != c.x);
  // More tokens keep the first tokens' content (x is drawn entry by entry).
  const ToyAttention longer = toy_attention(20, 16, 8, 1e4, 3);
  CHECK(longer.x.topRows(10) == a.x);
  // W ~ N(0, 1/d_model): over a 256 × 64 matrix the sample variance is within 5%.
  const ToyAttention big = toy_attention(4, 256, 64, 1e4, 9);
  const double var = big.w_q.squaredNorm() / static_cast<double>(big.w_q.size());
  CHECK(std::fabs(var * 256 - 1) < 0.05);
}

TEST_CASE("the four terms add up to the full score (seeded random sizes)") {
  for (std::uint64_t t = 0; t < 300; ++t) {
    const Sizes s = random_sizes(t);
    const double base = std::pow(10.0, 1 + random_uniform(32, 0, t) * 5);
    CAPTURE(s.tokens);
    CAPTURE(s.d_model);
    CAPTURE(s.d_head);
    const ToyAttention toy = toy_attention(s.tokens, s.d_model, s.d_head, base, t);
    const Eigen::MatrixXd full = absolute_attention_scores(toy);
    const FourTerms terms = four_term_decomposition(toy);
    CHECK((terms.sum() - full).cwiseAbs().maxCoeff() <= 1e-12 * scale_of(full));
    // Each term written out for one random entry.
    const int i = static_cast<int>(random_uniform(32, 1, t) * s.tokens);
    const int j = static_cast<int>(random_uniform(32, 2, t) * s.tokens);
    const Eigen::MatrixXd a = toy.w_q * toy.w_k.transpose();
    CHECK(terms.content_content(i, j) == doctest::Approx((toy.x.row(i) * a * toy.x.row(j).transpose())(0, 0)));
    CHECK(terms.content_position(i, j) == doctest::Approx((toy.x.row(i) * a * toy.p.row(j).transpose())(0, 0)));
    CHECK(terms.position_content(i, j) == doctest::Approx((toy.p.row(i) * a * toy.x.row(j).transpose())(0, 0)));
    CHECK(terms.position_position(i, j) == doctest::Approx((toy.p.row(i) * a * toy.p.row(j).transpose())(0, 0)));
  }
}

TEST_CASE("Transformer-XL: (a) + (b) + (c) + (d) of Dai et al. 2019 §3.3") {
  for (std::uint64_t t = 0; t < 40; ++t) {
    const Sizes s = random_sizes(t + 1000);
    CAPTURE(s.tokens);
    const ToyAttention toy = toy_attention(s.tokens, s.d_model, s.d_head, 1e4, t);
    const FourTerms xl = four_term_decomposition(toy, TermVariant::transformer_xl);
    const FourTerms all = four_term_decomposition(toy);
    CHECK(xl.content_content == all.content_content);  // (a) is the same content term
    for (int i = 0; i < s.tokens; ++i)
      for (int j = 0; j < s.tokens; ++j) {
        const Eigen::RowVectorXd r = sinusoid_at(i - j, s.d_model, 1e4);  // R_{i−j}
        const double b = (toy.x.row(i) * toy.w_q * toy.w_kr.transpose() * r.transpose())(0, 0);
        const double c = (toy.u * toy.w_k.transpose() * toy.x.row(j).transpose())(0, 0);
        const double d = (toy.v * toy.w_kr.transpose() * r.transpose())(0, 0);
        CHECK(xl.content_position(i, j) == doctest::Approx(b).epsilon(1e-12).scale(1));
        CHECK(xl.position_content(i, j) == doctest::Approx(c).epsilon(1e-12).scale(1));
        CHECK(xl.position_position(i, j) == doctest::Approx(d).epsilon(1e-12).scale(1));
        if (i + 1 < s.tokens && j + 1 < s.tokens)  // (d) depends on i − j only
          CHECK(xl.position_position(i + 1, j + 1) == xl.position_position(i, j));
      }
  }
}

TEST_CASE("T5: content plus a learned scalar per relative bucket") {
  for (std::uint64_t t = 0; t < 16; ++t) {
    const int tokens = 1 + static_cast<int>(random_uniform(33, 0, t) * 300);  // past max_distance 128
    const ToyAttention toy = toy_attention(tokens, 8, 4, 1e4, t);
    const FourTerms t5 = four_term_decomposition(toy, TermVariant::t5);
    CHECK(t5.content_content == four_term_decomposition(toy).content_content);
    CHECK(t5.content_position.isZero(0));
    CHECK(t5.position_content.isZero(0));
    for (int i = 0; i < tokens; ++i)
      for (int j = 0; j < tokens; ++j)
        CHECK(t5.position_position(i, j) ==
              toy.bucket_bias[t5_relative_bucket(j - i, true, kT5ToyBuckets, kT5ToyMaxDistance)]);
  }
}

// DeBERTa: c2p and p2c written out from eq. 2–4 with δ(i, j) = clamp(i − j + k,
// 0, 2k − 1) in both terms. The p2c index was checked at development time
// against a transcription of HF's DisentangledSelfAttention p2c branch in
// torch (gather on K_c Q_rᵀ with clamp(−(i − j) + k), then transpose): it
// equals K_c[j]·Q_r[δ(i, j)] at every (i, j), not the paper's δ(j, i).
TEST_CASE("DeBERTa: content-to-position and position-to-content with clipped distances") {
  const int k = kDebertaSpan;
  for (std::uint64_t t = 0; t < 60; ++t) {
    const Sizes s = random_sizes(t + 2000);
    CAPTURE(s.tokens);
    const ToyAttention toy = toy_attention(s.tokens, s.d_model, s.d_head, 1e4, t);
    const FourTerms db = four_term_decomposition(toy, TermVariant::deberta);
    CHECK(db.content_content == four_term_decomposition(toy).content_content);
    CHECK(db.position_position.isZero(0));
    for (int i = 0; i < s.tokens; ++i)
      for (int j = 0; j < s.tokens; ++j) {
        const int delta = std::clamp(i - j + k, 0, 2 * k - 1);
        const Eigen::RowVectorXd p = toy.relative_embeddings.row(delta);
        const double c2p = (toy.x.row(i) * toy.w_q * (p * toy.w_kr).transpose())(0, 0);
        const double p2c = (toy.x.row(j) * toy.w_k * (p * toy.w_qr).transpose())(0, 0);
        CHECK(db.content_position(i, j) == doctest::Approx(c2p).epsilon(1e-12).scale(1));
        CHECK(db.position_content(i, j) == doctest::Approx(p2c).epsilon(1e-12).scale(1));
      }
    // Beyond the span the distance is clipped: every key k or more tokens
    // before query i shares one relative embedding, so c2p is constant there.
    for (int i = k; i < s.tokens; ++i)
      for (int j = 0; j + k <= i; ++j) CHECK(db.content_position(i, j) == db.content_position(i, 0));
  }
}

TEST_CASE("invalid relative-position inputs are rejected with the right key") {
  CHECK(key_of([] { shaw_relative_index(0, 1, -1); }) == "clip");
  CHECK(key_of([] { shaw_relative_index(-1, 1, 2); }) == "pos");
  CHECK(key_of([] { shaw_index_matrix(0, 2); }) == "positions");
  CHECK(key_of([] { shaw_index_matrix(4097, 2); }) == "positions");
  CHECK(key_of([] { shaw_index_matrix(8, -2); }) == "clip");
  CHECK(key_of([] { toy_attention(0, 8, 4, 1e4, 0); }) == "positions");
  CHECK(key_of([] { toy_attention(4097, 8, 4, 1e4, 0); }) == "positions");
  CHECK(key_of([] { toy_attention(4, 7, 4, 1e4, 0); }) == "d");
  CHECK(key_of([] { toy_attention(4, 8, 3, 1e4, 0); }) == "d");
  CHECK(key_of([] { toy_attention(4, 8, 4, 1.0, 0); }) == "base");
  CHECK(key_of([] { toy_attention(4, 8, 4, 1e4, (1ULL << 53) + 1); }) == "seed");
  ToyAttention broken = toy_attention(4, 8, 4, 1e4, 0);
  broken.w_k = Eigen::MatrixXd::Zero(8, 6);
  CHECK(key_of([&] { four_term_decomposition(broken); }) == "d");
  CHECK(key_of([&] { absolute_attention_scores(broken); }) == "d");
  ToyAttention empty;
  CHECK(key_of([&] { four_term_decomposition(empty); }) == "positions");
  ToyAttention nan_toy = toy_attention(4, 8, 4, 1e4, 0);
  nan_toy.x(0, 0) = std::nan("");
  CHECK(key_of([&] { four_term_decomposition(nan_toy, TermVariant::t5); }) != "(accepted)");
}
