// Context extension: every method against a transcription of its reference
// code, the ramp identity and bounds, and the notes' seed-002 numbers (their
// printed YaRN numbers are wrong; the correct ones are tested).
//
// How the expected values were produced (development time, not in the repo):
// a throwaway python3 script transcribing HF transformers
// `src/transformers/modeling_rope_utils.py` (the 2025 layout, with mscale /
// mscale_all_dim / truncate in `_compute_yarn_parameters`):
// `_compute_linear_scaling_rope_parameters`, `_compute_ntk_parameters`,
// `_compute_dynamic_ntk_parameters`, `_compute_yarn_parameters` and
// `_compute_llama3_parameters`, run twice: with numpy float64 (column f64,
// compared to 1e-9 relative) and with torch 1.13 float32 exactly as HF
// computes them (column f32, compared to 1e-6 relative). The ramp column is
// HF's `inv_freq_extrapolation_factor` (yarn), the smooth factor (llama3), or
// the paper's γ(r) (yarn-paper, numpy float64: r = L·θ/(2π), clamp((r − α)/(β − α))).
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "core_test_support.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/random.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/scaling.hpp"

using namespace poslab::core;
using namespace poslab::test;

namespace {

struct PairRef {
  int pair;
  double f64, f32, ramp;
};

/// Compares θ'_i with both reference columns and, when `ramps`, the ramp.
void check_pairs(const ScalingTable& t, std::span<const PairRef> refs, bool ramps = true) {
  for (const PairRef& r : refs) {
    CAPTURE(r.pair);
    CHECK(t.scaled_theta[r.pair] == doctest::Approx(r.f64).epsilon(1e-9));
    CHECK(t.scaled_theta[r.pair] == doctest::Approx(r.f32).epsilon(1e-6));
    if (ramps) CHECK(t.ramp[r.pair] == doctest::Approx(r.ramp).epsilon(1e-9).scale(1.0));
  }
}

ScalingConfig llama2(ScalingMethod method) {
  ScalingConfig c;
  c.method = method;
  c.d = 128;
  c.base = 10000;
  c.factor = 8;
  c.original_context = 4096;
  return c;
}

/// θ'_i = ramp_i·θ_i + (1 − ramp_i)·θ_i/s_eff, ramp in [0, 1], and the ends:
/// ramp 1 ↔ θ (extrapolation), ramp 0 ↔ θ/s_eff (position interpolation).
void check_ramp_identity(const ScalingTable& t) {
  REQUIRE(t.ramp.size() == t.theta.size());
  CHECK(t.effective_factor >= 1.0);
  for (Eigen::Index i = 0; i < t.theta.size(); ++i) {
    CAPTURE(i);
    CHECK(t.ramp[i] >= 0.0);
    CHECK(t.ramp[i] <= 1.0);
    const double mix = t.ramp[i] * t.theta[i] + (1 - t.ramp[i]) * t.theta[i] / t.effective_factor;
    CHECK(t.scaled_theta[i] == doctest::Approx(mix).epsilon(1e-9));
    if (t.ramp[i] == 1.0) CHECK(t.scaled_theta[i] == doctest::Approx(t.theta[i]).epsilon(1e-12));
    if (t.ramp[i] == 0.0) CHECK(t.scaled_theta[i] == doctest::Approx(t.theta[i] / t.effective_factor).epsilon(1e-12));
    CHECK(t.scaled_wavelength[i] == doctest::Approx(2 * std::numbers::pi / t.scaled_theta[i]).epsilon(1e-15));
    CHECK(std::isfinite(t.scaled_theta[i]));
  }
  CHECK(std::isfinite(t.attention_factor));
}

/// rope_scaling_table(c), checked against the reference pairs `refs` (see
/// check_pairs) and against the ramp identity.
ScalingTable checked_table(const ScalingConfig& c, std::span<const PairRef> refs = {}, bool ramps = true) {
  const ScalingTable t = rope_scaling_table(c);
  check_pairs(t, refs, ramps);
  check_ramp_identity(t);
  return t;
}

}  // namespace

TEST_CASE("method names") {
  for (const char* name : {"none", "linear", "ntk", "dynamic", "yarn", "yarn-paper", "llama3", "longrope", "notes"})
    CHECK(std::string(scaling_method_name(parse_scaling_method(name))) == name);
  // "su" was Phi-3's first name for LongRoPE (transformers' Phi3Config renames it)
  CHECK(parse_scaling_method("su") == ScalingMethod::longrope);
  CHECK(std::get<std::string>(parse_param_value(param_spec("method"), "su")) == "longrope");
  CHECK(parse_scaling_method("yarn-paper") == ScalingMethod::yarn_paper);
  // "seed" was the notes' method's name before "notes": still accepted, as the
  // same method, and a parameter typed so reads back as "notes".
  CHECK(parse_scaling_method("seed") == parse_scaling_method("notes"));
  CHECK(std::get<std::string>(parse_param_value(param_spec("method"), "seed")) == "notes");
  CHECK_THROWS_AS(parse_param_value(param_spec("method"), "notes=seed"), InvalidParameter);
}

TEST_CASE("linear (PI), Llama 2: θ/8, ramp 0") {
  const PairRef ref[] = {{0, 0.125, 0.125, 0.0},
                         {8, 0.03952847075210474, 0.03952847048640251, 0.0},
                         {16, 0.0125, 0.012500000186264515, 0.0},
                         {32, 0.00125, 0.0012499999720603228, 0.0},
                         {46, 0.0001666901790204155, 0.00016669018077664077, 0.0},
                         {63, 1.4434774808618228e-05, 1.4434774129767902e-05, 0.0}};
  const ScalingTable t = checked_table(llama2(ScalingMethod::linear), ref);
  CHECK(t.ramp.isZero(0.0));  // exactly 0
  CHECK(t.attention_factor == 1.0);
  CHECK(t.effective_base == 10000);
  CHECK(t.effective_factor == 8);
}

TEST_CASE("ntk (static NTK-aware), Llama 2: base' = base·s^(d/(d−2))") {
  const PairRef ref[] = {{0, 1.0, 1.0, 0},
                         {8, 0.2428409406275396, 0.2428409308195114, 0},
                         {20, 0.029060612667848568, 0.029060613363981247, 0},
                         {32, 0.003477664048114574, 0.003477663965895772, 0},
                         {48, 0.00020508383900190948, 0.00020508383749984205, 0},
                         {63, 1.4434774808618228e-05, 1.4434774129767902e-05, 0}};
  const ScalingTable t = checked_table(llama2(ScalingMethod::ntk), ref, false);
  CHECK(t.effective_base == doctest::Approx(82684.62264056221).epsilon(1e-13));
  CHECK(t.attention_factor == 1.0);
  CHECK(t.effective_factor == 8);
  CHECK(t.ramp[0] == 1.0);                               // the fastest pair is untouched
  CHECK(t.ramp[63] == doctest::Approx(0.0).scale(1.0));  // the slowest is divided by s exactly
  CHECK(t.scaled_theta[63] == doctest::Approx(t.theta[63] / 8).epsilon(1e-13));
}

TEST_CASE("dynamic NTK, Llama 2, at several sequence lengths") {
  ScalingConfig c = llama2(ScalingMethod::dynamic);
  SUBCASE("seq_len 32768 = 8L: effective factor 8·8 − 7 = 57 > s") {
    c.seq_len = 32768;
    const PairRef ref[] = {{8, 0.18924820299831294, 0.189248189330101, 0},
                           {24, 0.0067779021230796755, 0.006777902599424124, 0},
                           {40, 0.00024274976703719345, 0.00024274978204630315, 0},
                           {63, 2.0259333064727344e-06, 2.0259333268768387e-06, 0}};
    const ScalingTable t = checked_table(c, ref, false);
    CHECK(t.effective_base == doctest::Approx(607779.2727297307).epsilon(1e-13));
    CHECK(t.effective_factor == doctest::Approx(57).epsilon(1e-12));
  }
  SUBCASE("seq_len 8192 = 2L: effective factor 9") {
    c.seq_len = 8192;
    const PairRef ref[] = {{8, 0.23923589840116466, 0.23923590779304504, 0},
                           {36, 0.0016022067831069802, 0.0016022068448364735, 0},
                           {63, 1.2830910940993984e-05, 1.2830911146011204e-05, 0}};
    const ScalingTable t = checked_table(c, ref, false);
    CHECK(t.effective_base == doctest::Approx(93194.27110044428).epsilon(1e-13));
    CHECK(t.effective_factor == doctest::Approx(9).epsilon(1e-12));
  }
  SUBCASE("seq_len <= L: seq_len is taken as L, nothing changes") {
    for (long long seq : {4096LL, 2000LL}) {
      c.seq_len = seq;
      const ScalingTable t = checked_table(c);
      CHECK(t.effective_base == doctest::Approx(10000).epsilon(1e-15));
      CHECK(t.scaled_theta[63] == doctest::Approx(0.00011547819846894582).epsilon(1e-12));
      for (Eigen::Index i = 0; i < t.ramp.size(); ++i) CHECK(t.ramp[i] == doctest::Approx(1.0).epsilon(1e-12));
    }
  }
}

TEST_CASE("yarn (HF code), Llama 2: correction range (20, 46), mscale 0.1 ln 8 + 1") {
  const PairRef ref[] = {{0, 1.0, 1.0, 1.0},
                         {16, 0.1, 0.10000000149011612, 1.0},
                         {20, 0.056234132519034905, 0.05623412877321243, 1.0},
                         {24, 0.02736586436684174, 0.02736586518585682, 0.8461538461538461},
                         {28, 0.01299511876566905, 0.012995119206607342, 0.6923076923076923},
                         {32, 0.005961538461538462, 0.0059615387581288815, 0.5384615384615384},
                         {36, 0.002595421500878534, 0.0025954213924705982, 0.3846153846153846},
                         {40, 0.0010338215427473547, 0.0010338216088712215, 0.23076923076923073},
                         {46, 0.0001666901790204155, 0.00016669018077664077, 0.0},
                         {63, 1.4434774808618228e-05, 1.4434774129767902e-05, 0.0}};
  const ScalingTable t = checked_table(llama2(ScalingMethod::yarn), ref);
  REQUIRE(t.correction_low.has_value());
  CHECK(*t.correction_low == 20);
  CHECK(*t.correction_high == 46);
  CHECK(t.attention_factor == doctest::Approx(1.2079441541679836).epsilon(1e-15));
  // the helpers, untruncated (HF truncate=False): python float64
  CHECK(yarn_find_correction_dim(32, 128, 10000, 4096) == doctest::Approx(20.94448162063605).epsilon(1e-14));
  CHECK(yarn_find_correction_dim(1, 128, 10000, 4096) == doctest::Approx(45.02688127375455).epsilon(1e-14));
  const auto [lo, hi] = yarn_correction_range(32, 1, 128, 10000, 4096, false);
  CHECK(lo == doctest::Approx(20.94448162063605).epsilon(1e-14));
  CHECK(hi == doctest::Approx(45.02688127375455).epsilon(1e-14));
  CHECK(yarn_correction_range(32, 1, 128, 10000, 4096) == std::pair{20.0, 46.0});
  CHECK(yarn_get_mscale(8) == doctest::Approx(1.2079441541679836).epsilon(1e-15));
  CHECK(yarn_get_mscale(1) == 1.0);
  CHECK(yarn_get_mscale(1, 5) == 1.0);
}

TEST_CASE("yarn (HF code), Qwen2.5: base 1e6, factor 4, L 32768") {
  ScalingConfig c = llama2(ScalingMethod::yarn);
  c.base = 1e6;
  c.factor = 4;
  c.original_context = 32768;
  const PairRef ref[] = {{8, 0.1778279410038923, 0.17782793939113617, 1.0},
                         {20, 0.01333521432163324, 0.01333521492779255, 1.0},
                         {24, 0.005375321490790102, 0.005375321488827467, 0.9411764705882353},
                         {28, 0.0018482765647068783, 0.0018482765881344676, 0.7058823529411764},
                         {32, 0.0006029411764705882, 0.0006029411451891065, 0.47058823529411764},
                         {36, 0.00017984115587395423, 0.0001798411540221423, 0.23529411764705888},
                         {40, 4.4456985250973074e-05, 4.4456985051510856e-05, 0.0},
                         {63, 3.102344401879299e-07, 3.102344408034696e-07, 0.0}};
  const ScalingTable t = checked_table(c, ref);
  CHECK(*t.correction_low == 23);
  CHECK(*t.correction_high == 40);
  CHECK(t.attention_factor == doctest::Approx(1.138629436111989).epsilon(1e-15));
}

TEST_CASE("yarn (HF code): mscale / mscale_all_dim, beta close together, the low == high guard, factor 1") {
  SUBCASE("mscale 1, mscale_all_dim 0.5, factor 40: attention = get_mscale(40, 1)/get_mscale(40, 0.5)") {
    ScalingConfig c = llama2(ScalingMethod::yarn);
    c.factor = 40;
    c.mscale = 1;
    c.mscale_all_dim = 0.5;
    const PairRef ref[] = {{24, 0.026879360111431223, 0.026879360899329185, 0.8461538461538461},
                           {32, 0.0055, 0.005500000435858965, 0.5384615384615384},
                           {48, 2.5e-05, 2.499999936844688e-05, 0.0}};
    const ScalingTable t = checked_table(c, ref);
    CHECK(t.attention_factor == doctest::Approx(1.1557219901962608).epsilon(1e-15));
    // only one of them set: falls back to get_mscale(factor)
    c.mscale_all_dim = 0;
    CHECK(rope_scaling_table(c).attention_factor == doctest::Approx(0.1 * std::log(40.0) + 1).epsilon(1e-15));
    // both equal (DeepSeek-style configs with mscale = mscale_all_dim): the ratio is 1
    c.mscale = c.mscale_all_dim = 0.707;
    CHECK(rope_scaling_table(c).attention_factor == 1.0);
  }
  SUBCASE("beta_fast 2, beta_slow 1.5: a narrow ramp (40, 43)") {
    ScalingConfig c = llama2(ScalingMethod::yarn);
    c.beta_fast = 2;
    c.beta_slow = 1.5;
    const PairRef ref[] = {{40, 0.00316227766016838, 0.003162277862429619, 1.0},
                           {46, 0.0001666901790204155, 0.00016669018077664077, 0.0}};
    const ScalingTable t = checked_table(c, ref);
    CHECK(*t.correction_low == 40);
    CHECK(*t.correction_high == 43);
    CHECK(t.ramp[41] == doctest::Approx(2.0 / 3.0).epsilon(1e-15));
  }
  SUBCASE("L = 6: both correction dims clamp to 0, HF's +0.001 guard") {
    ScalingConfig c = llama2(ScalingMethod::yarn);
    c.original_context = 6;
    const PairRef ref[] = {{0, 1.0, 1.0, 1.0},
                           {8, 0.03952847075210474, 0.03952847048640251, 0.0},
                           {63, 1.4434774808618228e-05, 1.4434774129767902e-05, 0.0}};
    const ScalingTable t = checked_table(c, ref);
    CHECK(*t.correction_low == 0);
    CHECK(*t.correction_high == 0);
  }
  SUBCASE("L = 131072: high = 70 is clamped by dim − 1 = 127, not by d/2 − 1 (HF's quirk, kept)") {
    ScalingConfig c = llama2(ScalingMethod::yarn);
    c.original_context = 131072;
    const PairRef ref[] = {{40, 0.00316227766016838, 0.003162277862429619, 1.0},
                           {50, 0.000618662722699276, 0.0006186626851558685, 0.8},
                           {60, 8.446827197684884e-05, 8.446826541330665e-05, 0.4},
                           {63, 4.272693343350996e-05, 4.2726926039904356e-05, 0.28}};
    const ScalingTable t = checked_table(c, ref);
    CHECK(*t.correction_low == 45);
    CHECK(*t.correction_high == 70);
    CHECK(t.ramp[63] > 0);  // the slowest pair is not fully interpolated
  }
  SUBCASE("factor 1: nothing scaled, ramp 1, attention 1") {
    ScalingConfig c = llama2(ScalingMethod::yarn);
    c.factor = 1;
    const PairRef ref[] = {{24, 0.03162277660168379, 0.03162277862429619, 1.0},
                           {46, 0.001333521432163324, 0.0013335214462131262, 1.0},
                           {63, 0.00011547819846894582, 0.00011547819303814322, 1.0}};
    const ScalingTable t = checked_table(c, ref);
    CHECK(t.attention_factor == 1.0);
  }
}

TEST_CASE("llama3 (HF code), Llama 3.1: base 5e5, factor 8, low 1, high 4, L 8192") {
  ScalingConfig c = llama2(ScalingMethod::llama3);
  c.base = 500000;
  c.original_context = 8192;
  const PairRef ref[] = {{0, 1.0, 1.0, 1.0},
                         {8, 0.19392274474868576, 0.193922758102417, 1.0},
                         {28, 0.0032114459947525913, 0.0032114461064338684, 1.0},
                         {32, 0.0005248461609929549, 0.0005248460220173001, 0.28128260516325115},
                         {36, 7.784655273932451e-05, 7.784655463183299e-05, 0.0},
                         {48, 6.647869871181236e-06, 6.647869668086059e-06, 0.0},
                         {63, 3.068925988914511e-07, 3.068925877869333e-07, 0.0}};
  const ScalingTable t = checked_table(c, ref);
  CHECK(t.attention_factor == 1.0);
  // the smooth band: wavelengths in [L/4, L/1] = [2048, 8192] are pairs 29..34 (python float64)
  for (Eigen::Index i = 0; i < 64; ++i) {
    const bool medium = i >= 29 && i <= 34;
    CAPTURE(i);
    CHECK((t.ramp[i] > 0 && t.ramp[i] < 1) == medium);
  }
  CHECK(t.wavelength[32] == doctest::Approx(4442.8829381583655).epsilon(1e-13));
  c.factor = 1;
  const ScalingTable t1 = rope_scaling_table(c);
  CHECK(t1.scaled_theta[36] == doctest::Approx(0.0006227724219145961).epsilon(1e-12));
  CHECK(t1.ramp.isOnes(0.0));
}

TEST_CASE("yarn-paper: γ ramps in r = L/λ, unlike the code's ramp in the pair index") {
  const PairRef ref[] = {{20, 0.056234132519034905, 0.056234132519034905, 1.0},
                         {24, 0.021460633736980782, 0.021460633736980782, 0.6327369444515448},
                         {28, 0.007539621886569332, 0.007539621886569332, 0.34169611007172085},
                         {32, 0.0028077784388430738, 0.0028077784388430738, 0.17803182158206557},
                         {40, 0.0004900305206747958, 0.0004900305206747958, 0.03424143638063836},
                         {46, 0.0001666901790204155, 0.0001666901790204155, 0.0}};
  const ScalingTable paper = checked_table(llama2(ScalingMethod::yarn_paper), ref);
  CHECK(paper.attention_factor == doctest::Approx(1.2079441541679836).epsilon(1e-15));
  CHECK_FALSE(paper.correction_low.has_value());
  // same ends as the code, different shape in between (pair 24: 0.633 vs 0.846)
  const ScalingTable code = rope_scaling_table(llama2(ScalingMethod::yarn));
  CHECK(std::fabs(paper.ramp[24] - code.ramp[24]) > 0.2);
}

TEST_CASE("seed (the notes' formula): θ'_i = θ_i / s^(t/(d/2)); θ'_32 = 0.009919, not 0.0097") {
  ScalingConfig c = llama2(ScalingMethod::seed);
  c.temperature = 0.25;
  const ScalingTable t = checked_table(c);
  // python3 float64: 0.01 / 8**(0.25/64)
  CHECK(t.scaled_theta[32] == doctest::Approx(0.009919100824251096).epsilon(1e-13));
  CHECK(std::fabs(t.scaled_theta[32] - 0.0097) > 2e-4);
  CHECK(t.attention_factor == 1.0);
  CHECK(t.effective_factor == 8);
  // every pair gets the same division, so the ramp is constant
  CHECK(t.ramp.maxCoeff() - t.ramp.minCoeff() <= 1e-14);
  // t > d/2 divides by more than s: the ramp uses that larger divisor
  c.temperature = 100;
  const ScalingTable big = checked_table(c);
  CHECK(big.effective_factor == doctest::Approx(std::pow(8.0, 200.0 / 128)).epsilon(1e-12));
}

TEST_CASE("none: θ' = θ, ramp 1") {
  const ScalingTable t = checked_table(llama2(ScalingMethod::none));
  CHECK(t.scaled_theta == t.theta);
  CHECK(t.ramp.isOnes(0.0));
  CHECK(t.attention_factor == 1.0);
}

TEST_CASE("ramps stay in [0, 1] and meet PI and extrapolation at their ends (450 seeded configs)") {
  const ScalingMethod methods[] = {ScalingMethod::none,   ScalingMethod::linear,     ScalingMethod::ntk,
                                   ScalingMethod::dynamic, ScalingMethod::yarn,      ScalingMethod::yarn_paper,
                                   ScalingMethod::llama3,  ScalingMethod::seed,      ScalingMethod::longrope};
  for (std::uint64_t i = 0; i < 450; ++i) {
    ScalingConfig c;
    c.method = methods[i % 9];
    c.d = 2 * (2 + static_cast<int>(random_uniform(51, 0, i) * 255));
    c.base = std::pow(10.0, 1 + random_uniform(51, 1, i) * 8);
    c.factor = i % 16 < 2 ? 1.0 : std::pow(2.0, random_uniform(51, 2, i) * 7);
    c.original_context = 1 + static_cast<long long>(std::pow(2.0, random_uniform(51, 3, i) * 18));
    c.seq_len = 1 + static_cast<long long>(std::pow(2.0, random_uniform(51, 4, i) * 21));
    c.beta_slow = 0.1 + random_uniform(51, 5, i) * 4;
    c.beta_fast = c.beta_slow * (1.001 + random_uniform(51, 6, i) * 60);
    c.low_freq_factor = 0.5 + random_uniform(51, 7, i) * 3;
    c.high_freq_factor = c.low_freq_factor * (1.01 + random_uniform(51, 8, i) * 8);
    c.temperature = random_uniform(51, 9, i) * 2;
    c.mscale = i % 3 == 0 ? 0.0 : random_uniform(51, 10, i);
    c.mscale_all_dim = i % 5 == 0 ? 0.0 : random_uniform(51, 11, i);
    c.truncate = i % 4 != 0;
    if (c.original_context < 2) c.original_context = 2;  // longrope's attention factor divides by ln L
    if (c.method == ScalingMethod::longrope && i % 3 != 0)  // divisors ≥ 1 (LongRoPE's search space); else unset
      for (int k = 0; k < c.d / 2; ++k) {
        c.short_factor.push_back(1 + random_uniform(52, static_cast<std::uint64_t>(k), i) * 3);
        c.long_factor.push_back(1 + random_uniform(53, static_cast<std::uint64_t>(k), i) * 2 * c.factor);
      }
    CAPTURE(i);
    CAPTURE(scaling_method_name(c.method));
    const ScalingTable t = checked_table(c);
    CHECK(t.attention_factor > 0);
    if (c.factor == 1.0 && c.method != ScalingMethod::dynamic && c.short_factor.empty()) {
      CHECK(t.ramp.isOnes(0.0));
      CHECK((t.scaled_theta - t.theta).cwiseAbs().maxCoeff() <= 1e-15 * t.theta.maxCoeff());
    }
  }
}

TEST_CASE("at the corners of every parameter range: finite values or InvalidParameter, never NaN/Inf") {
  const ScalingMethod methods[] = {ScalingMethod::none,   ScalingMethod::linear,     ScalingMethod::ntk,
                                   ScalingMethod::dynamic, ScalingMethod::yarn,      ScalingMethod::yarn_paper,
                                   ScalingMethod::llama3,  ScalingMethod::seed,      ScalingMethod::longrope};
  int built = 0;
  for (ScalingMethod method : methods)
    for (int d : {2, 4, 8192})
      for (double base : {1.000001, 1e12})
        for (double factor : {1.0, 1024.0})
          for (long long big_l : {1LL, 1000000000LL})
            for (double temperature : {0.0, 1000.0}) {
              ScalingConfig c;
              c.method = method;
              c.d = d;
              c.base = base;
              c.factor = factor;
              c.original_context = big_l;
              c.seq_len = 1000000000;
              c.beta_fast = 1e6;
              c.beta_slow = 1e-3;
              c.low_freq_factor = 1e-3;
              c.high_freq_factor = 1e6;
              c.temperature = temperature;
              c.mscale = 1000;
              c.mscale_all_dim = 1e-3;
              CAPTURE(scaling_method_name(method));
              CAPTURE(d);
              CAPTURE(base);
              CAPTURE(factor);
              CAPTURE(big_l);
              CAPTURE(temperature);
              try {
                const ScalingTable t = rope_scaling_table(c);
                ++built;
                CHECK(t.scaled_theta.allFinite());
                CHECK(t.scaled_wavelength.allFinite());
                CHECK(t.ramp.allFinite());
                CHECK(t.ramp.minCoeff() >= 0);
                CHECK(t.ramp.maxCoeff() <= 1);
                CHECK(std::isfinite(t.attention_factor));
                CHECK(std::isfinite(t.effective_base));
                CHECK(std::isfinite(t.effective_factor));
                CHECK((t.scaled_theta.array() > 0).all());
              } catch (const InvalidParameter& e) {
                const std::string key = e.key();
                CHECK((key == "d" || key == "temperature" || (key == "original_context" && big_l == 1)));
              }
            }
  CHECK(built > 330);
}

TEST_CASE("dynamic NTK with factor 1 still scales once seq_len > L (its effective factor is seq_len/L)") {
  ScalingConfig c = llama2(ScalingMethod::dynamic);
  c.factor = 1;
  c.seq_len = 8 * 4096;
  const ScalingTable t = checked_table(c);
  CHECK(t.effective_factor == doctest::Approx(8).epsilon(1e-12));
  CHECK(t.ramp[63] == doctest::Approx(0).scale(1.0));
}

// The notes, seed 002 §4.4: m' = m·(L/L')^γ with L'/L = 8, γ = 0.8.
// python3 float64: 0.125**0.8 = 0.18946457081379975. The notes print 0.209,
// 30000 → 6270, 100 → ~42, 1000 → ~209; all wrong.
TEST_CASE("the notes' γ position map: the correct numbers, and where it leaves the trained range") {
  CHECK(position_map_gamma(1, 8, 0.8) == doctest::Approx(0.18946457081379975).epsilon(1e-15));
  CHECK(position_map_gamma(100, 8, 0.8) == doctest::Approx(18.946457081379975).epsilon(1e-15));
  CHECK(position_map_gamma(1000, 8, 0.8) == doctest::Approx(189.46457081379975).epsilon(1e-15));
  CHECK(position_map_gamma(30000, 8, 0.8) == doctest::Approx(5683.937124413992).epsilon(1e-15));
  CHECK(std::fabs(position_map_gamma(30000, 8, 0.8) - 6270) > 500);
  CHECK(std::fabs(position_map_gamma(100, 8, 0.8) - 42) > 20);
  CHECK(position_map_linear(30000, 8) == 3750);
  // linear in m: the map compresses every distance by the same 5.28×
  CHECK(position_map_gamma(2, 8, 0.8) - position_map_gamma(1, 8, 0.8) ==
        doctest::Approx(position_map_gamma(30001, 8, 0.8) - position_map_gamma(30000, 8, 0.8)));
  // m' <= L exactly up to m = L·s^γ = 21618.8; 30000 lands at 5684 > 4096
  const double limit = position_map_gamma_limit(4096, 8, 0.8);
  CHECK(limit == doctest::Approx(21618.817610103102).epsilon(1e-14));
  CHECK(position_map_gamma(limit, 8, 0.8) == doctest::Approx(4096).epsilon(1e-14));
  CHECK(position_map_gamma(30000, 8, 0.8) > 4096);
  CHECK(position_map_gamma(21000, 8, 0.8) < 4096);
  CHECK(position_map_gamma(123, 8, 1.0) == doctest::Approx(position_map_linear(123, 8)).epsilon(1e-15));
  CHECK(position_map_gamma(123, 8, 0.0) == 123);
}

TEST_CASE("every invalid scaling parameter is rejected with its key") {
  auto table = [](auto&& edit) {
    ScalingConfig c;
    edit(c);
    return rope_scaling_table(c);
  };
  rejects([&] { table([](ScalingConfig& c) { c.d = 7; }); }, "d");
  rejects([&] { table([](ScalingConfig& c) { c.base = 1; }); }, "base");
  rejects([&] { table([](ScalingConfig& c) { c.factor = 0.5; }); }, "factor");
  rejects([&] { table([](ScalingConfig& c) { c.factor = std::nan(""); }); }, "factor");
  rejects([&] { table([](ScalingConfig& c) { c.original_context = 0; }); }, "original_context");
  rejects([&] { table([](ScalingConfig& c) { c.seq_len = 0; }); }, "seq_len");
  rejects([&] { table([](ScalingConfig& c) { c.beta_fast = 0; }); }, "beta_fast");
  rejects([&] { table([](ScalingConfig& c) { c.beta_slow = -1; }); }, "beta_slow");
  rejects([&] { table([](ScalingConfig& c) { c.beta_fast = 1; }); }, "beta_fast");  // not > beta_slow = 1
  rejects([&] { table([](ScalingConfig& c) { c.mscale = -1; }); }, "mscale");
  rejects([&] { table([](ScalingConfig& c) { c.mscale_all_dim = std::nan(""); }); }, "mscale_all_dim");
  rejects([&] { table([](ScalingConfig& c) { c.low_freq_factor = 0; }); }, "low_freq_factor");
  rejects([&] { table([](ScalingConfig& c) { c.high_freq_factor = 0.5; }); }, "high_freq_factor");  // below low = 1
  rejects([&] { table([](ScalingConfig& c) { c.temperature = -0.1; }); }, "temperature");
  rejects([&] { table([](ScalingConfig& c) { c.method = ScalingMethod::ntk; c.d = 2; }); }, "d");
  rejects([&] { table([](ScalingConfig& c) { c.method = ScalingMethod::dynamic; c.d = 2; }); }, "d");
  rejects([&] { table([](ScalingConfig& c) { c.method = ScalingMethod::seed; c.d = 2; c.factor = 1024; c.temperature = 1000; }); },
          "temperature");  // 1024^1000 overflows
  rejects([] { parse_scaling_method("rope"); }, "method");
  rejects([] { yarn_find_correction_dim(0, 128, 10000, 4096); }, "beta_fast");
  rejects([] { yarn_find_correction_dim(32, 128, 10000, 0.5); }, "original_context");
  rejects([] { yarn_correction_range(1, 32, 128, 10000, 4096); }, "beta_fast");
  rejects([] { yarn_get_mscale(0.5); }, "factor");
  rejects([] { yarn_get_mscale(2, -1); }, "mscale");
  rejects([] { position_map_linear(-1, 8); }, "pos");
  rejects([] { position_map_linear(1, 0); }, "factor");
  rejects([] { position_map_gamma(1, 8, 3); }, "gamma");
  rejects([] { position_map_gamma_limit(0, 8, 0.8); }, "original_context");
  // d = 2 is fine where the formula is defined
  CHECK_NOTHROW(table([](ScalingConfig& c) { c.d = 2; }));
}

// [SECTION] LongRoPE (Phi-3), YaRN's truncate and attention_factor
//
// Expected values: a throwaway python3 transcription of HF's
// `_compute_longrope_parameters` and `_compute_yarn_parameters` (the 2025
// file, with `truncate`), numpy float64 (f64) and float32 as torch computes
// (f32). The lists are Phi-3-mini-128k-instruct's (tests/fixtures/configs/
// phi-3-mini-128k.json): head_dim 3072/32 = 96, 48 pairs, L = 4096,
// max_position_embeddings 131072, so s = 32 and the attention factor is
// √(1 + ln 32 / ln 4096) = √(1 + 5/12).

namespace {

const std::vector<double> kPhi3Short = {
    1.1, 1.1, 1.1, 1.3000000000000003, 1.3500000000000003, 1.3500000000000003, 1.4000000000000004,
    1.5500000000000005, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.0500000000000007, 2.0500000000000007,
    2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.1000000000000005,
    2.1000000000000005, 2.1500000000000004, 2.25, 2.25, 2.25, 2.25, 2.25, 2.3999999999999995, 2.4499999999999993,
    2.499999999999999, 2.6999999999999984, 2.6999999999999984, 2.7499999999999982, 2.799999999999998,
    2.8999999999999977, 3.049999999999997};
const std::vector<double> kPhi3Long = {
    1.0700000524520874, 1.1200000047683716, 1.149999976158142, 1.4199999570846558, 1.5699999332427979,
    1.7999999523162842, 2.129999876022339, 2.129999876022339, 3.009999990463257, 5.910000324249268,
    6.950000286102295, 9.070000648498535, 9.930000305175781, 10.710000038146973, 11.130000114440918,
    14.609999656677246, 15.409998893737793, 19.809999465942383, 37.279998779296875, 38.279998779296875,
    38.599998474121094, 40.12000274658203, 46.20000457763672, 50.940006256103516, 53.66000747680664,
    54.9373893737793, 56.89738845825195, 57.28738784790039, 59.98738479614258, 60.86738586425781,
    60.887386322021484, 61.71739196777344, 62.91739273071289, 62.957393646240234, 63.41739273071289,
    63.8173942565918, 63.83739471435547, 63.897396087646484, 63.93739700317383, 64.06739807128906,
    64.11434936523438, 64.12435150146484, 64.15435028076172, 64.19435119628906, 64.24435424804688,
    64.57435607910156, 64.69000244140625, 64.76000213623047};

ScalingConfig phi3(long long seq_len) {
  ScalingConfig c;
  c.method = ScalingMethod::longrope;
  c.d = 96;
  c.base = 10000;
  c.factor = 32;
  c.original_context = 4096;
  c.seq_len = seq_len;
  c.short_factor = kPhi3Short;
  c.long_factor = kPhi3Long;
  return c;
}

}  // namespace

TEST_CASE("longrope (HF code), Phi-3-mini-128k: short_factor up to L, long_factor beyond") {
  SUBCASE("seq_len = L = 4096: short_factor (HF at init, seq_len None, gives the same)") {
    const PairRef ref[] = {{0, 0.9090909090909091, 0.9090908765792847, 0},
                           {10, 0.07338996338110344, 0.07338996231555939, 0},
                           {20, 0.010772173450159411, 0.010772175155580044, 0},
                           {30, 0.0015425744683748186, 0.001542574493214488, 0},
                           {47, 3.972221831569147e-05, 3.9722213841741905e-05, 0}};
    const ScalingTable t = checked_table(phi3(4096), ref, false);
    REQUIRE(t.uses_long_factor);
    CHECK_FALSE(*t.uses_long_factor);
    CHECK(t.attention_factor == doctest::Approx(1.1902380714238083).epsilon(1e-15));
    CHECK(t.attention_factor == doctest::Approx(std::sqrt(1 + 5.0 / 12)).epsilon(1e-15));
    for (Eigen::Index i = 0; i < 48; ++i) CHECK(t.theta[i] / t.scaled_theta[i] == doctest::Approx(kPhi3Short[i]).epsilon(1e-14));
  }
  SUBCASE("seq_len = L + 1: long_factor, the largest divisor 64.76 > s is the effective factor") {
    const PairRef ref[] = {{0, 0.9345793934386541, 0.9345793724060059, 0},
                           {10, 0.02111941305322222, 0.021119413897395134, 0},
                           {20, 0.0005581437241445225, 0.000558143830858171, 0},
                           {30, 5.1936498693567024e-05, 5.193650213186629e-05, 0},
                           {47, 1.87079619929597e-06, 1.870796040748246e-06, 0}};
    const ScalingTable t = checked_table(phi3(4097), ref, false);
    CHECK(*t.uses_long_factor);
    CHECK(t.effective_factor == doctest::Approx(64.76000213623047).epsilon(1e-15));
    CHECK(t.ramp[47] == doctest::Approx(0).scale(1.0));
    // the attention factor does not depend on which list is in use
    CHECK(t.attention_factor == doctest::Approx(1.1902380714238083).epsilon(1e-15));
    CHECK(rope_scaling_table(phi3(131072)).scaled_theta == t.scaled_theta);
  }
  SUBCASE("an explicit attention_factor replaces √(1 + ln s / ln L); s ≤ 1 gives 1") {
    ScalingConfig c = phi3(100);
    c.attention_factor = 1.25;
    CHECK(rope_scaling_table(c).attention_factor == 1.25);
    c.attention_factor = 0;
    c.factor = 1;
    CHECK(rope_scaling_table(c).attention_factor == 1.0);
    CHECK(longrope_attention_factor(32, 4096) == doctest::Approx(1.1902380714238083).epsilon(1e-15));
    CHECK(longrope_attention_factor(1, 1) == 1.0);
  }
  SUBCASE("no lists: 1 for every pair up to L, s beyond (PI)") {
    ScalingConfig c = llama2(ScalingMethod::longrope);
    c.seq_len = 4096;
    const ScalingTable short_t = checked_table(c);
    CHECK((short_t.scaled_theta - short_t.theta).cwiseAbs().maxCoeff() == 0);
    CHECK(short_t.ramp.isOnes(0.0));
    c.seq_len = 4097;
    const ScalingTable long_t = checked_table(c);
    const ScalingTable pi = rope_scaling_table(llama2(ScalingMethod::linear));
    CHECK((long_t.scaled_theta - pi.scaled_theta).cwiseAbs().maxCoeff() <= 1e-18);
    CHECK(long_t.ramp.isZero(1e-12));
    CHECK(long_t.attention_factor == doctest::Approx(std::sqrt(1 + std::log(8.0) / std::log(4096.0))).epsilon(1e-15));
  }
  SUBCASE("lists of the wrong length, L = 1 with s > 1, a list entry of 0: refused naming the key") {
    rejects([] { ScalingConfig c = phi3(10); c.d = 128; (void)rope_scaling_table(c); }, "short_factor");
    rejects([] { ScalingConfig c = phi3(10); c.long_factor.pop_back(); (void)rope_scaling_table(c); }, "long_factor");
    rejects([] { ScalingConfig c = phi3(10); c.short_factor[3] = 0; (void)rope_scaling_table(c); }, "short_factor");
    rejects([] { ScalingConfig c = phi3(10); c.original_context = 1; (void)rope_scaling_table(c); }, "original_context");
    rejects([] { (void)longrope_attention_factor(2, 1); }, "original_context");
    // other methods ignore the lists (a model's lists stay while another method is shown)
    ScalingConfig c = phi3(10);
    c.method = ScalingMethod::yarn;
    c.d = 128;
    CHECK_NOTHROW(rope_scaling_table(c));
  }
  const auto err = raised_by([] { ScalingConfig c = phi3(10); c.long_factor.pop_back(); (void)rope_scaling_table(c); });
  CHECK(std::string(err.what()) == "long_factor = 47 numbers: must hold d/2 = 48 numbers for method=longrope (one divisor per pair)");
}

TEST_CASE("yarn (HF code), gpt-oss: truncate = false keeps the correction range fractional") {
  ScalingConfig c;
  c.method = ScalingMethod::yarn;
  c.d = 64;
  c.base = 150000;
  c.factor = 32;
  c.original_context = 4096;
  c.truncate = false;
  const PairRef ref[] = {{0, 1.0, 1.0, 1.0},
                         {8, 0.050813274815461475, 0.050813280045986176, 1.0},
                         {9, 0.03170569618466377, 0.031705696135759354, 0.9025043567529006},
                         {10, 0.019335001126540362, 0.019335001707077026, 0.7950380881581633},
                         {12, 0.00679495948973222, 0.006794959306716919, 0.5801055509686888},
                         {16, 0.00045648391922324086, 0.0004564839182421565, 0.1502404765897397},
                         {17, 0.00012931870124506317, 0.00012931869423482567, 0.04277420799500242},
                         {20, 1.818833668168956e-05, 1.818833698052913e-05, 0.0},
                         {31, 3.0235114281192144e-07, 3.023511396804679e-07, 0.0}};
  const ScalingTable t = checked_table(c, ref);
  CHECK(*t.correction_low == doctest::Approx(8.092779115512402).epsilon(1e-14));
  CHECK(*t.correction_high == doctest::Approx(17.39802450158856).epsilon(1e-14));
  CHECK(t.attention_factor == doctest::Approx(1.3465735902799727).epsilon(1e-15));
  const auto range = yarn_correction_range(32, 1, 64, 150000, 4096, false);
  CHECK(range.first == *t.correction_low);
  CHECK(range.second == *t.correction_high);
  // truncate = true (the default) rounds to (8, 18): pairs 9..17 differ, the ends agree
  c.truncate = true;
  const PairRef rounded[] = {{9, 0.031620752275346484, 0.031620752066373825, 0.9},
                             {16, 0.0005809475019311124, 0.0005809474969282746, 0.2},
                             {20, 1.818833668168956e-05, 1.818833698052913e-05, 0.0}};
  const ScalingTable r = checked_table(c, rounded);
  CHECK(*r.correction_low == 8);
  CHECK(*r.correction_high == 18);
  CHECK(r.scaled_theta[0] == t.scaled_theta[0]);
  CHECK(r.scaled_theta[31] == t.scaled_theta[31]);
}

TEST_CASE("yarn: an explicit attention_factor replaces 0.1·ln s + 1 and the mscale ratio") {
  ScalingConfig c = llama2(ScalingMethod::yarn);
  c.attention_factor = 1.5;
  CHECK(rope_scaling_table(c).attention_factor == 1.5);
  c.mscale = 1, c.mscale_all_dim = 0.5;
  CHECK(rope_scaling_table(c).attention_factor == 1.5);
  c.attention_factor = 0;  // 0 = computed
  CHECK(rope_scaling_table(c).attention_factor == doctest::Approx((0.1 * std::log(8.0) + 1) / (0.05 * std::log(8.0) + 1)).epsilon(1e-15));
  rejects([] { ScalingConfig b; b.attention_factor = -1; (void)rope_scaling_table(b); }, "attention_factor");
  rejects([] { ScalingConfig b; b.attention_factor = std::nan(""); (void)rope_scaling_table(b); }, "attention_factor");
}

TEST_CASE("llama3 with low_freq_factor = high_freq_factor is a hard step at λ = L/low (Llama 4 Scout)") {
  // Scout: b = 500000, d = 128, L = 8192, s = 16, low = high = 1. transformers'
  // torch.where keeps every λ < 8192 and divides every λ > 8192 by 16; no pair
  // sits at 8192 exactly (λ_34 = 6695.1, λ_35 = 8218.7), so nothing is blended.
  ScalingConfig c;
  c.method = ScalingMethod::llama3;
  c.d = 128;
  c.base = 500000;
  c.factor = 16;
  c.original_context = 8192;
  c.low_freq_factor = 1;
  c.high_freq_factor = 1;
  const ScalingTable t = rope_scaling_table(c);
  int kept = 0, divided = 0;
  for (Eigen::Index i = 0; i < t.theta.size(); ++i) {
    CHECK(std::isfinite(t.scaled_theta[i]));
    if (t.wavelength[i] < 8192) {
      CHECK(t.scaled_theta[i] == t.theta[i]);
      ++kept;
    } else {
      CHECK(t.scaled_theta[i] == doctest::Approx(t.theta[i] / 16).epsilon(1e-15));
      ++divided;
    }
  }
  CHECK(kept == 35);
  CHECK(divided == 29);
}
