// Layers that mix encodings (core/layer_mix.hpp): p-RoPE's kept pairs and
// partial rotary's spread frequencies against HF transformers (transcribed and
// run in torch 1.13, float32) and by hand; the NoPE marker count through the
// causal mask (Kazemnejad et al. 2023, Theorem 1) in float and double; the
// causal mask of self_attention.
//
// "HF float32": `_compute_proportional_rope_parameters` and
// `_compute_default_rope_parameters` (partial_rotary_factor) transcribed in
// torch at development time; the float64 values are std::pow here.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "core_test_support.hpp"
#include "poslab/core/attention.hpp"
#include "poslab/core/layer_mix.hpp"
#include "poslab/core/rope.hpp"

using namespace poslab::core;
using poslab::test::rejects;

TEST_CASE("p-RoPE keeps the fastest ⌊p·d/2⌋ pairs at RoPE's own frequencies; partial rotary spreads them over p·d dims") {
  // Gemma 4's global layers: d = 256, p = 0.25, base 1e6. HF float32:
  // proportional θ_1 = 0.8976871, θ_15 = 0.19809568, θ_31 = 0.035226945, θ_32.. = 0;
  // default with partial_rotary_factor 0.25: θ_1 = 0.64938164, θ_15 = 0.0015399265, θ_31 = 1.5399265e-06.
  const Eigen::VectorXd p = proportional_rope_inverse_frequencies(256, 1e6, 0.25);
  REQUIRE(p.size() == 128);
  CHECK(proportional_rope_pairs(256, 0.25) == 32);
  const struct {
    int i;
    double f32;
  } hf_p[] = {{0, 1.0}, {1, 0.8976871371269226}, {15, 0.1980956792831421}, {31, 0.03522694483399391}};
  for (const auto& e : hf_p) {
    CHECK(p[e.i] == doctest::Approx(std::pow(1e6, -2.0 * e.i / 256)).epsilon(1e-14));
    CHECK(p[e.i] == doctest::Approx(e.f32).epsilon(1e-7));
  }
  for (int i = 32; i < 128; ++i) CHECK(p[i] == 0);
  const Eigen::VectorXd r = partial_rotary_inverse_frequencies(256, 1e6, 0.25);
  REQUIRE(r.size() == 32);
  CHECK(partial_rotary_dims(256, 0.25) == 64);
  const struct {
    int i;
    double f32;
  } hf_r[] = {{0, 1.0}, {1, 0.6493816375732422}, {15, 0.0015399265103042126}, {31, 1.5399265294036013e-06}};
  for (const auto& e : hf_r) {
    CHECK(r[e.i] == doctest::Approx(std::pow(1e6, -2.0 * e.i / 64)).epsilon(1e-14));
    CHECK(r[e.i] == doctest::Approx(e.f32).epsilon(1e-7));
  }
  // The slowest turning pair: λ = 2π/θ ≈ 178 tokens (p-RoPE) against ≈ 4.08 million (partial rotary).
  CHECK(2 * std::numbers::pi / p[31] == doctest::Approx(178.36304104734475).epsilon(1e-12));
  CHECK(2 * std::numbers::pi / r[31] == doctest::Approx(4080185.1262719585).epsilon(1e-12));
  // Phi-2: head_dim 80, partial_rotary_factor 0.4: 32 dims, 16 pairs (HF float32 θ_15 = 0.00017782794).
  const Eigen::VectorXd phi = partial_rotary_inverse_frequencies(80, 1e4, 0.4);
  REQUIRE(phi.size() == 16);
  CHECK(phi[15] == doctest::Approx(0.00017782794020604342).epsilon(1e-7));
  // Python: int(0.3·128 // 2) = 19 pairs; int(128·0.3) = 38 dims.
  CHECK(proportional_rope_pairs(128, 0.3) == 19);
  CHECK(partial_rotary_dims(128, 0.3) == 38);
  // An odd count of dims has no pairing: rounded down to even.
  CHECK(partial_rotary_dims(128, 0.2) == 24);  // ⌊25.6⌋ = 25 → 24
  rejects([] { (void)proportional_rope_pairs(128, 0); }, "partial_rotary_factor");
  rejects([] { (void)partial_rotary_dims(128, 1.5); }, "partial_rotary_factor");
  rejects([] { (void)partial_rotary_dims(7, 0.5); }, "d");
}

TEST_CASE("p-RoPE and partial rotary at p = 1 are RoPE; below, both turn the same number of pairs (over random d, p)") {
  std::mt19937_64 rng(2410);
  for (int trial = 0; trial < 400; ++trial) {
    const int d = 2 * std::uniform_int_distribution<int>(1, 512)(rng);
    const double base = std::pow(10.0, std::uniform_real_distribution<double>(1, 7)(rng));
    const Eigen::VectorXd rope = rope_inverse_frequencies(d, base);
    CHECK((proportional_rope_inverse_frequencies(d, base, 1.0) - rope).cwiseAbs().maxCoeff() == 0);
    CHECK((partial_rotary_inverse_frequencies(d, base, 1.0) - rope).cwiseAbs().maxCoeff() == 0);
    const double p = std::uniform_real_distribution<double>(0.01, 1.0)(rng);
    const Eigen::VectorXd kept = proportional_rope_inverse_frequencies(d, base, p);
    const int k = proportional_rope_pairs(d, p);
    CAPTURE(d);
    CAPTURE(p);
    CHECK(k == static_cast<int>(std::floor(p * d / 2)));
    for (int i = 0; i < d / 2; ++i) CHECK(kept[i] == (i < k ? rope[i] : 0.0));
    const Eigen::VectorXd spread = partial_rotary_inverse_frequencies(d, base, p);
    CHECK(spread.size() == k);  // 2·⌊⌊p·d⌋/2⌋ dims = 2·⌊p·d/2⌋: the same number of pairs turn
    for (Eigen::Index i = 0; i < spread.size(); ++i)
      CHECK(spread[i] == doctest::Approx(std::pow(base, -2.0 * static_cast<double>(i) / (2.0 * spread.size()))).epsilon(1e-13));
    // Partial rotary's slowest pair is at least as slow as p-RoPE's.
    if (k > 1 && spread.size() > 1) CHECK(spread[spread.size() - 1] <= kept[k - 1] * (1 + 1e-12));
  }
}

TEST_CASE_TEMPLATE("NoPE: a causal layer that attends evenly gives token m the marker share 1/(m + 1); bidirectional, 1/N",
                   Scalar, float, double) {
  const double tol = std::is_same_v<Scalar, float> ? 1e-6 : 1e-15;
  for (int n : {1, 2, 6, 37, 512}) {
    const auto causal = even_attention_marker<Scalar>(n, true);
    const auto both = even_attention_marker<Scalar>(n, false);
    REQUIRE(causal.size() == n);
    for (int m = 0; m < n; ++m) {
      CHECK(static_cast<double>(causal[m]) == doctest::Approx(1.0 / (m + 1)).epsilon(tol));
      CHECK(static_cast<double>(both[m]) == doctest::Approx(1.0 / n).epsilon(tol));
      // the position read back: m = 1/y − 1
      CHECK(std::round(1.0 / static_cast<double>(causal[m]) - 1) == m);
    }
  }
  rejects([] { (void)even_attention_marker<double>(0, true); }, "positions");
  rejects([] { (void)even_attention_marker<double>(5000, true); }, "positions");
}

TEST_CASE_TEMPLATE("self_attention's causal mask: no weight on later keys, rows sum to 1, row 0 is all on token 0, "
                   "the earlier rows unchanged by later tokens", Scalar, float, double) {
  std::mt19937_64 rng(5);
  const double tol = std::is_same_v<Scalar, float> ? 1e-5 : 1e-13;
  for (int trial = 0; trial < 50; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 12)(rng), d = 2 * std::uniform_int_distribution<int>(1, 8)(rng);
    const auto head = toy_attention_head<Scalar>(d, static_cast<std::uint64_t>(trial));
    std::vector<int> ids(static_cast<std::size_t>(n));
    for (int& id : ids) id = std::uniform_int_distribution<int>(0, 4)(rng);
    const auto x = toy_embeddings<Scalar>(ids, d, static_cast<std::uint64_t>(trial));
    const auto a = self_attention<Scalar>(x, head, true);
    for (int m = 0; m < n; ++m) {
      CHECK(static_cast<double>(a.weights.row(m).sum()) == doctest::Approx(1).epsilon(tol));
      for (int k = m + 1; k < n; ++k) CHECK(a.weights(m, k) == 0);
    }
    CHECK(a.weights(0, 0) == 1);
    CHECK(static_cast<double>((a.output.row(0) - x.row(0) * head.w_v.transpose()).cwiseAbs().maxCoeff()) <= tol);
    // Token m's output depends on tokens 0..m only: the first rows of a prefix agree.
    if (n > 1) {
      const auto prefix = self_attention<Scalar>(x.topRows(n - 1), head, true);
      CHECK(static_cast<double>((prefix.output - a.output.topRows(n - 1)).cwiseAbs().maxCoeff()) <= tol);
    }
  }
}
