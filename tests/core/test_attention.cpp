// The toy attention head: softmax rows sum to 1, a two-token case worked by
// hand, permutation equivariance Y(P·X) = P·Y(X) over many random
// permutations, seeds and sizes in float and double, and its breaking once
// sinusoidal positions are added after the shuffle.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "poslab/core/attention.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/sinusoidal.hpp"

using namespace poslab::core;

namespace {

template <class Scalar>
using Mat = AttentionMatrix<Scalar>;

/// Tolerances per type: rounding of a few sums of O(1) terms.
template <class Scalar>
constexpr double kTol = std::is_same_v<Scalar, float> ? 2e-6 : 1e-14;

std::vector<int> random_perm(std::mt19937_64& rng, int n) {
  std::vector<int> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

/// A random sentence of n tokens over a vocabulary of `vocab` ids (repeats likely).
std::vector<int> random_ids(std::mt19937_64& rng, int n, int vocab) {
  std::vector<int> ids(static_cast<std::size_t>(n));
  for (int& id : ids) id = std::uniform_int_distribution<int>(0, vocab - 1)(rng);
  return ids;
}

std::string key_of(auto&& call) {
  try {
    call();
  } catch (const InvalidParameter& e) {
    return e.key();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE_TEMPLATE("softmax_each_row: rows sum to 1, entries in (0, 1], large scores do not overflow", Scalar, float,
                   double) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 1 + trial % 9;
    Mat<Scalar> s(n, n);
    for (Eigen::Index r = 0; r < n; ++r)
      for (Eigen::Index c = 0; c < n; ++c)
        s(r, c) = static_cast<Scalar>(std::normal_distribution<double>(0, trial < 40 ? 3 : 300)(rng));
    const Mat<Scalar> a = softmax_each_row<Scalar>(s);
    for (Eigen::Index r = 0; r < n; ++r) {
      CHECK(static_cast<double>(a.row(r).sum()) == doctest::Approx(1.0).epsilon(kTol<Scalar>));
      CHECK(a.row(r).minCoeff() >= 0);
      CHECK(a.row(r).maxCoeff() <= 1);
      CHECK(a.row(r).allFinite());
    }
  }
  // softmax(a, a + ln 3) = (1/4, 3/4): shift invariance and the ratio e^(ln 3).
  Mat<Scalar> two(1, 2);
  two << Scalar(500), static_cast<Scalar>(500 + std::log(3.0));
  const Mat<Scalar> w = softmax_each_row<Scalar>(two);
  CHECK(static_cast<double>(w(0, 0)) == doctest::Approx(0.25).epsilon(1e3 * kTol<Scalar>));
  CHECK(static_cast<double>(w(0, 1)) == doctest::Approx(0.75).epsilon(1e3 * kTol<Scalar>));
}

// By hand: W_q = W_k = W_v = I (d = 2), x₀ = (1, 0), x₁ = (0, 1). Then
// Q·Kᵀ/√2 = I/√2, so row 0 of A is softmax(1/√2, 0) = (σ, 1 − σ) with
// σ = 1/(1 + e^(−1/√2)), and y₀ = σ·x₀ + (1 − σ)·x₁ = (σ, 1 − σ); y₁ mirrors it.
TEST_CASE_TEMPLATE("self_attention: a two-token case worked by hand", Scalar, float, double) {
  const AttentionHead<Scalar> identity{Mat<Scalar>::Identity(2, 2), Mat<Scalar>::Identity(2, 2),
                                       Mat<Scalar>::Identity(2, 2)};
  const Mat<Scalar> x = Mat<Scalar>::Identity(2, 2);
  const AttentionResult<Scalar> r = self_attention<Scalar>(x, identity);
  const double sigma = 1 / (1 + std::exp(-1 / std::sqrt(2.0)));  // 0.66976…
  CHECK(sigma == doctest::Approx(0.6697615493266569).epsilon(1e-15));
  CHECK(static_cast<double>(r.weights(0, 0)) == doctest::Approx(sigma).epsilon(kTol<Scalar>));
  CHECK(static_cast<double>(r.weights(0, 1)) == doctest::Approx(1 - sigma).epsilon(kTol<Scalar>));
  CHECK(static_cast<double>(r.weights(1, 1)) == doctest::Approx(sigma).epsilon(kTol<Scalar>));
  CHECK(static_cast<double>(r.output(0, 0)) == doctest::Approx(sigma).epsilon(kTol<Scalar>));
  CHECK(static_cast<double>(r.output(0, 1)) == doctest::Approx(1 - sigma).epsilon(kTol<Scalar>));
  CHECK(static_cast<double>(r.output(1, 0)) == doctest::Approx(1 - sigma).epsilon(kTol<Scalar>));
  CHECK(static_cast<double>(r.output(1, 1)) == doctest::Approx(sigma).epsilon(kTol<Scalar>));

  // A general head on one token: A = [1], y = W_v·x.
  const AttentionHead<Scalar> head = toy_attention_head<Scalar>(4, 3);
  const Mat<Scalar> one = toy_embeddings<Scalar>(std::vector<int>{5}, 4, 3);
  const AttentionResult<Scalar> single = self_attention<Scalar>(one, head);
  CHECK(static_cast<double>(single.weights(0, 0)) == doctest::Approx(1.0));
  CHECK(static_cast<double>((single.output - one * head.w_v.transpose()).cwiseAbs().maxCoeff()) <= kTol<Scalar>);
}

TEST_CASE_TEMPLATE("self_attention agrees with the formula written out entry by entry", Scalar, float, double) {
  const int d = 6;
  const AttentionHead<Scalar> head = toy_attention_head<Scalar>(d, 11);
  const std::vector<int> ids = {0, 1, 2, 0, 3};
  const Mat<Scalar> x = toy_embeddings<Scalar>(ids, d, 11);
  const AttentionResult<Scalar> r = self_attention<Scalar>(x, head);
  const Eigen::Index n = x.rows();
  for (Eigen::Index m = 0; m < n; ++m) {
    // score(m, n') = (W_q·x_m)·(W_k·x_n') / √d, in double from the Scalar inputs
    const Eigen::VectorXd q = head.w_q.template cast<double>() * x.row(m).transpose().template cast<double>();
    std::vector<double> s(static_cast<std::size_t>(n));
    for (Eigen::Index k = 0; k < n; ++k) {
      const Eigen::VectorXd kk = head.w_k.template cast<double>() * x.row(k).transpose().template cast<double>();
      s[static_cast<std::size_t>(k)] = q.dot(kk) / std::sqrt(static_cast<double>(d));
    }
    double z = 0;
    for (double v : s) z += std::exp(v);
    Eigen::VectorXd y = Eigen::VectorXd::Zero(d);
    for (Eigen::Index k = 0; k < n; ++k) {
      const double a = std::exp(s[static_cast<std::size_t>(k)]) / z;
      CHECK(static_cast<double>(r.weights(m, k)) == doctest::Approx(a).epsilon(10 * kTol<Scalar>));
      y += a * (head.w_v.template cast<double>() * x.row(k).transpose().template cast<double>());
    }
    CHECK((r.output.row(m).transpose().template cast<double>() - y).cwiseAbs().maxCoeff() <= 10 * kTol<Scalar>);
  }
  // The repeated word (ids 0 at places 0 and 3) has the same query, so the same row of A and the same output.
  CHECK((r.weights.row(0) - r.weights.row(3)).cwiseAbs().maxCoeff() == 0);
  CHECK((r.output.row(0) - r.output.row(3)).cwiseAbs().maxCoeff() == 0);
}

TEST_CASE_TEMPLATE("permutation equivariance: Y(P·X) = P·Y(X) and A(P·X) = P·A·Pᵀ, many perms and seeds", Scalar,
                   float, double) {
  std::mt19937_64 rng(2017);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 12);
    const int d = 2 * (1 + static_cast<int>(rng() % 16));
    const std::uint64_t seed = rng() % 100000;
    const std::vector<int> perm = random_perm(rng, n);
    const std::vector<int> ids = random_ids(rng, n, 5);
    CAPTURE(n);
    CAPTURE(d);
    CAPTURE(seed);
    const AttentionHead<Scalar> head = toy_attention_head<Scalar>(d, seed);
    const Mat<Scalar> x = toy_embeddings<Scalar>(ids, d, seed);
    const AttentionResult<Scalar> orig = self_attention<Scalar>(x, head);
    const AttentionResult<Scalar> shuf = self_attention<Scalar>(permute_rows<Scalar>(x, perm), head);
    // Y(P·X) = P·Y(X)
    const double out_gap = static_cast<double>((shuf.output - permute_rows<Scalar>(orig.output, perm)).cwiseAbs().maxCoeff());
    CHECK(out_gap <= kTol<Scalar>);
    // A(P·X)[i, j] = A(X)[perm[i], perm[j]]
    double a_gap = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        a_gap = std::max(a_gap, static_cast<double>(std::abs(shuf.weights(i, j) - orig.weights(perm[static_cast<std::size_t>(i)],
                                                                                                perm[static_cast<std::size_t>(j)]))));
    CHECK(a_gap <= kTol<Scalar>);
    // shuffle_test without positions says the same; unpermute undoes permute.
    const ShuffleTest<Scalar> t = shuffle_test<Scalar>(x, perm, head, 0.0, 10000);
    CHECK(static_cast<double>(t.gap) <= kTol<Scalar>);
    CHECK(unpermute_rows<Scalar>(permute_rows<Scalar>(x, perm), perm) == x);
  }
}

TEST_CASE_TEMPLATE("with sinusoidal positions the shuffle no longer commutes", Scalar, float, double) {
  std::mt19937_64 rng(1706);
  int broken = 0, trials = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 10);
    const int d = 2 * (1 + static_cast<int>(rng() % 16));
    const std::uint64_t seed = rng() % 100000;
    std::vector<int> perm = random_perm(rng, n);
    if (std::is_sorted(perm.begin(), perm.end())) std::swap(perm[0], perm[1]);  // a real shuffle
    // Distinct words, so a shuffle really changes the sentence.
    std::vector<int> ids(static_cast<std::size_t>(n));
    std::iota(ids.begin(), ids.end(), 0);
    CAPTURE(n);
    CAPTURE(d);
    CAPTURE(seed);
    const AttentionHead<Scalar> head = toy_attention_head<Scalar>(d, seed);
    const Mat<Scalar> x = toy_embeddings<Scalar>(ids, d, seed);
    const ShuffleTest<Scalar> t = shuffle_test<Scalar>(x, perm, head, 1.0, 10000);
    ++trials;
    if (static_cast<double>(t.gap) > 1e-3) ++broken;
    // The figures' pieces agree with the gap: Pᵀ·Y(shuffled) against Y(original).
    CHECK(static_cast<double>((t.shuffled_back - t.original.output).cwiseAbs().maxCoeff()) == static_cast<double>(t.gap));
  }
  CHECK(broken == trials);
}

TEST_CASE("add_sinusoidal_positions adds s·PE(p) to row p; s = 0 leaves X unchanged") {
  const Mat<double> x = toy_embeddings<double>(std::vector<int>{4, 4, 2}, 8, 0);
  CHECK(add_sinusoidal_positions<double>(x, 0.0, 10000) == x);
  const Mat<double> h = add_sinusoidal_positions<double>(x, 2.5, 10000);
  for (int p = 0; p < 3; ++p)
    for (int j = 0; j < 8; ++j) CHECK(h(p, j) == doctest::Approx(x(p, j) + 2.5 * sinusoidal_value(p, j, 8, 10000)).epsilon(1e-15));
  // Rows 0 and 1 are the same word, told apart only by position.
  CHECK(x.row(0) == x.row(1));
  CHECK(h.row(0) != h.row(1));
}

TEST_CASE("toy head and embeddings are seeded, deterministic, N(0, 1/d) and N(0, 1)") {
  const AttentionHead<double> a = toy_attention_head<double>(64, 42), b = toy_attention_head<double>(64, 42),
                              c = toy_attention_head<double>(64, 43);
  CHECK(a.w_q == b.w_q);
  CHECK(a.w_q != c.w_q);
  CHECK(a.w_q != a.w_k);
  CHECK(a.w_k != a.w_v);
  const double var = a.w_q.squaredNorm() / (64.0 * 64.0);  // E = 1/d = 1/64
  CHECK(var == doctest::Approx(1.0 / 64).epsilon(0.1));
  const Mat<double> e = toy_embeddings<double>(std::vector<int>{0, 1, 2, 3}, 512, 5);
  CHECK(e.squaredNorm() / e.size() == doctest::Approx(1.0).epsilon(0.1));
  // float rounds the same draws
  const Mat<float> ef = toy_embeddings<float>(std::vector<int>{0, 1, 2, 3}, 512, 5);
  CHECK((ef.cast<double>() - e).cwiseAbs().maxCoeff() <= 1e-6);
}

TEST_CASE("permutations: checked, with the key perm and what is allowed") {
  CHECK(is_permutation(std::vector<int>{2, 0, 1}));
  CHECK(is_permutation(std::vector<int>{}));
  CHECK_FALSE(is_permutation(std::vector<int>{0, 0, 1}));
  CHECK_FALSE(is_permutation(std::vector<int>{0, 1, 3}));
  CHECK_FALSE(is_permutation(std::vector<int>{-1, 0, 1}));
  const Mat<double> x = Mat<double>::Identity(3, 3);
  CHECK(key_of([&] { (void)permute_rows<double>(x, std::vector<int>{0, 0, 1}); }) == "perm");
  CHECK(key_of([&] { (void)permute_rows<double>(x, std::vector<int>{0, 1}); }) == "perm");
  CHECK(key_of([&] { (void)unpermute_rows<double>(x, std::vector<int>{0, 1, 5}); }) == "perm");
  try {
    check_permutation("perm", std::vector<double>{0, 5, 2, 3, 4, 4});
    FAIL("accepted a repeated index");
  } catch (const InvalidParameter& e) {
    CHECK(std::string(e.what()) == "perm = 0,5,2,3,4,4: must be a permutation of 0..5: every index exactly once, in any order");
    CHECK(e.reason().id == "permutation");
  }
  CHECK_NOTHROW(check_permutation("perm", std::vector<double>{5, 4, 3, 2, 1, 0}));
  // The parameter: 6 integers in 0..5, each once.
  Params p;
  CHECK_NOTHROW(p.set_text("perm", "5,4,3,2,1,0"));
  CHECK(key_of([&] { p.set_text("perm", "0:5"); }) == "perm");  // a vector: written out, no ranges
  CHECK(key_of([&] { p.set_text("perm", "0,1,2"); }) == "perm");
  CHECK(key_of([&] { p.set_text("perm", "0,1,2,3,4,6"); }) == "perm");
  CHECK(key_of([&] { p.set_text("perm", "0,1,2,3,4,4.5"); }) == "perm");
  p.set_text("perm", "0,1,1,3,4,5");  // each item allowed; the relation refuses the repeat
  const std::string_view keys[] = {"perm"};
  CHECK(key_of([&] { check_param_relations(p, keys); }) == "perm");
  // Sizes and seeds are checked too.
  CHECK(key_of([] { (void)toy_attention_head<double>(7, 0); }) == "d");
  CHECK(key_of([] { (void)toy_embeddings<double>(std::vector<int>{0}, 8, (std::uint64_t{1} << 53) + 2); }) == "seed");
}
