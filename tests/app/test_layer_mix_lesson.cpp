// The "layer-mix" lesson: NoPE and the causal mask, local and global bases,
// p-RoPE against partial rotary.
//
// Reference values: 1/(m + 1) and 1/N (Kazemnejad et al. 2023, Theorem 1) by
// hand; wavelengths 2π·b^(2i/d) with std::pow; the counts 36 (b = 10,000,
// W = 1,024) and 37 (b = 1,000,000 ×8, ℓ = 131,072) of d = 128 counted by a
// throwaway python3 + numpy script; HF float32 θ of `_compute_proportional_rope_parameters`
// and `_compute_default_rope_parameters` transcribed and run in torch 1.13; the
// why-position lesson's own attention figure for the bidirectional weights.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "core/core_test_support.hpp"
#include "app/model/layer_stack.hpp"
#include "app/model/model_config.hpp"
#include "lesson_test_support.hpp"
#include "poslab/core/params.hpp"

using namespace poslab;

namespace {

const test::Lesson lesson{"layer-mix"};
constexpr double kPi = std::numbers::pi;

double lambda(int i, int d, double base) { return 2 * kPi * std::pow(base, 2.0 * i / d); }

}  // namespace

TEST_CASE("layer-mix: NoPE — the causal mask gives row 0 all to itself and masks the future; bidirectional is why-position's") {
  const auto causal = lesson.figure("causal-mask", test::params({{"causal", "true"}}));
  REQUIRE(causal.heatmaps.size() == 1);
  const auto& h = causal.heatmaps[0];
  REQUIRE(h.rows == 6);
  for (int r = 0; r < 6; ++r) {
    double sum = 0;
    for (int c = 0; c < 6; ++c) {
      const auto cell = static_cast<std::size_t>(r * 6 + c);
      if (c > r) {
        CHECK(h.values[cell] == 0);
        CHECK(h.mask[cell] == 1);
      }
      sum += h.values[cell];
    }
    CHECK(sum == doctest::Approx(1).epsilon(1e-6));
  }
  CHECK(h.values[0] == 1);
  test::check_matrix_orientation(causal);
  // Without the mask the weights are the why-position lesson's attention with no encoding.
  const auto both = lesson.figure("causal-mask", test::params({{"causal", "false"}, {"seed", "3"}}));
  const test::Lesson why{"why-position"};
  const auto a = why.figure("attention", test::params({{"encoding", "none"}, {"seed", "3"}}));
  REQUIRE(a.heatmaps.size() == 1);
  for (std::size_t k = 0; k < 36; ++k) CHECK(both.heatmaps[0].values[k] == doctest::Approx(a.heatmaps[0].values[k]).epsilon(1e-6));
}

TEST_CASE("layer-mix: the marker count is 1/(m + 1) causal and 1/N bidirectional, in the figure and the table") {
  for (int n : {1, 16, 200}) {
    const auto f = lesson.figure("marker-count", test::params({{"positions", std::to_string(n).c_str()}}));
    REQUIRE(f.series.size() == (n <= 64 ? 3u : 2u));  // causal = true (the default): both curves
    const auto& both = f.series[0];
    const auto& causal = f.series[1];
    REQUIRE(causal.y.size() == static_cast<std::size_t>(n));
    for (int m = 0; m < n; ++m) {
      CHECK(causal.y[static_cast<std::size_t>(m)] == doctest::Approx(1.0 / (m + 1)).epsilon(1e-14));
      CHECK(both.y[static_cast<std::size_t>(m)] == doctest::Approx(1.0 / n).epsilon(1e-14));
    }
    const app::Table t = test::table("nope-count", test::params({{"positions", std::to_string(n).c_str()}}));
    REQUIRE(t.rows.size() == static_cast<std::size_t>(n));
    for (int m = 0; m < n; ++m) CHECK(test::number(t, static_cast<std::size_t>(m), "causal") == doctest::Approx(1.0 / (m + 1)).epsilon(1e-14));
  }
  // N² weights: more than a figure's budget is refused by the view, naming the key.
  test::rejects([] { (void)app::resolve_view_params(lesson.view(), test::params({{"positions", "2000"}})); }, "positions");
  test::rejects([] { (void)test::table("nope-count", test::params({{"positions", "5000"}})); }, "positions");
}

TEST_CASE("layer-mix: local and global bases pair by pair (Gemma 3: 10,000 over 1,024; 1,000,000 ×8 over 131,072)") {
  const auto f = lesson.figure("two-bases", core::Params{});
  REQUIRE(f.series.size() == 3);
  const auto& unscaled = f.series[0];
  const auto& global = f.series[1];
  const auto& local = f.series[2];
  REQUIRE(local.y.size() == 64);
  for (int i = 0; i < 64; i += 7) {
    CHECK(local.y[static_cast<std::size_t>(i)] == doctest::Approx(lambda(i, 128, 1e4)).epsilon(1e-13));
    CHECK(unscaled.y[static_cast<std::size_t>(i)] == doctest::Approx(lambda(i, 128, 1e6)).epsilon(1e-13));
    CHECK(global.y[static_cast<std::size_t>(i)] == doctest::Approx(8 * lambda(i, 128, 1e6)).epsilon(1e-13));
  }
  const auto rs = lesson.readouts(core::Params{});
  CHECK(test::find_readout(rs, "layer-mix.readout.local")->number == 36);
  CHECK(test::find_readout(rs, "layer-mix.readout.global")->number == 37);
  const app::Table t = test::table("layer-bases");
  CHECK(test::number(t.meta[2].second) == 36);  // local_pairs_turning
  CHECK(test::number(t.meta[3].second) == 37);  // global_pairs_turning
  // A local layer sees min(W, ℓ − 1) tokens back, however long the context: the turns do not grow with ℓ.
  const app::Table longer = test::table("layer-bases", test::params({{"seq_len", "1000000"}}));
  for (std::size_t i = 0; i < 64; ++i) {
    CHECK(test::number(longer, i, "local_turns") == test::number(t, i, "local_turns"));
    CHECK(test::number(t, i, "local_turns") == doctest::Approx(1024 / lambda(static_cast<int>(i), 128, 1e4)).epsilon(1e-12));
    CHECK(test::number(longer, i, "global_turns") > test::number(t, i, "global_turns"));
  }
}

TEST_CASE("layer-mix: p-RoPE keeps the fastest pairs, partial rotary spreads as many (HF float32 at d = 256, p = 0.25)") {
  const app::Table t = test::table("p-rope", test::params({{"d", "256"}}));
  REQUIRE(t.rows.size() == 128);
  CHECK(test::number(t.meta[0].second) == 32);  // kept_pairs
  CHECK(test::number(t.meta[1].second) == 64);  // partial_rotary_dims
  CHECK(test::number(t, 31, "p_rope_theta") == doctest::Approx(0.03522694483399391).epsilon(1e-7));
  CHECK(test::number(t, 32, "p_rope_theta") == 0);
  CHECK(test::number(t, 15, "partial_theta") == doctest::Approx(0.0015399265103042126).epsilon(1e-7));
  CHECK(test::number(t, 31, "partial_theta") == doctest::Approx(1.5399265294036013e-06).epsilon(1e-7));
  CHECK(test::number(t, 32, "partial_theta") == 0);
  // The figure at the defaults (d = 128, p = 0.25, b = 1e6): 16 kept pairs on RoPE's curve, the
  // slowest at 160 tokens; partial rotary's 16 reach 2.65 million.
  const auto f = lesson.figure("fewer-pairs", core::Params{});
  REQUIRE(f.series.size() == 3);
  const auto& partial = f.series[1];
  const auto& kept = f.series[2];
  REQUIRE(kept.x.size() == 16);
  REQUIRE(partial.x.size() == 16);
  for (std::size_t i = 0; i < 16; ++i) {
    CHECK(kept.y[i] == doctest::Approx(lambda(static_cast<int>(i), 128, 1e6)).epsilon(1e-13));
    CHECK(partial.y[i] == doctest::Approx(lambda(static_cast<int>(i), 32, 1e6)).epsilon(1e-13));
  }
  CHECK(kept.y.back() == doctest::Approx(160.1142068523735).epsilon(1e-12));
  CHECK(partial.y.back() == doctest::Approx(2649597.274431474).epsilon(1e-12));
  REQUIRE(f.bands.size() == 1);
  CHECK(f.bands[0].from == doctest::Approx(15.5));
}

TEST_CASE("layer-mix: show_partial = false draws p-RoPE alone (its guided step comes before partial rotary's)") {
  const auto& tr = test::english();
  const auto both = lesson.figure("fewer-pairs", core::Params{});
  const auto alone = lesson.figure("fewer-pairs", test::params({{"show_partial", "false"}}));
  // The same RoPE curve and kept pairs; partial rotary's series, and every word
  // naming it (title, subtitle "in both", band "in either"), only with it.
  REQUIRE(alone.series.size() == both.series.size() - 1);
  CHECK(alone.series[0].y == both.series[0].y);
  CHECK(alone.series[1].y == both.series[2].y);
  CHECK(alone.series[1].name == both.series[2].name);
  for (const auto& s : alone.series) CHECK(s.name.find("partial") == std::string::npos);
  for (const std::string& text : {alone.title, alone.subtitle, alone.bands.at(0).label}) {
    CAPTURE(text);
    CHECK(text.find("partial") == std::string::npos);
    CHECK(text.find("either") == std::string::npos);
    CHECK(text.find("both") == std::string::npos);
  }
  CHECK(alone.subtitle.find("16 of 64") != std::string::npos);
  // The readouts: partial rotary's slowest wavelength (2.65 million) only beside it.
  auto names_partial = [&](const std::vector<app::Readout>& rs) {
    for (const auto& r : rs)
      if (r.label.find("partial") != std::string::npos || r.value.find("2,649,597") != std::string::npos ||
          r.value.find("2.65") != std::string::npos)
        return true;
    return false;
  };
  CHECK(names_partial(lesson.readouts(core::Params{})));
  const auto alone_readouts = lesson.readouts(test::params({{"show_partial", "false"}}));
  CHECK_FALSE(names_partial(alone_readouts));
  bool slowest = false;
  for (const auto& r : alone_readouts)
    if (r.label == tr("layer-mix.readout.slowest_p_rope")) {
      slowest = true;
      CHECK(r.number == doctest::Approx(lambda(15, 128, 1e6)));
    }
  CHECK(slowest);
}

TEST_CASE("layer-mix: readouts hold at the defaults and over random settings") {
  CHECK(lesson.check_readouts(core::Params{}) >= 5);
  const app::ViewDef& v = lesson.view();
  std::mt19937_64 rng(2305);
  for (int trial = 0; trial < 100; ++trial) {
    core::Params p;
    p.set("causal", trial % 2 == 0);
    p.set("seed", double(std::uniform_int_distribution<int>(0, 1000)(rng)));
    p.set("positions", double(std::uniform_int_distribution<int>(1, 300)(rng)));
    p.set("local_base", std::pow(10.0, std::uniform_real_distribution<double>(1, 6)(rng)));
    p.set("base", std::pow(10.0, std::uniform_real_distribution<double>(1, 8)(rng)));
    p.set("factor", std::uniform_real_distribution<double>(1, 64)(rng));
    p.set("sliding_window", double(std::uniform_int_distribution<int>(1, 100000)(rng)));
    p.set("seq_len", double(std::uniform_int_distribution<int>(1, 2000000)(rng)));
    p.set("d", double(2 * std::uniform_int_distribution<int>(1, 512)(rng)));
    p.set("partial_rotary_factor", std::uniform_real_distribution<double>(0.01, 1)(rng));
    p.set("show_partial", trial % 3 != 0);
    CAPTURE(trial);
    test::check_readouts(app::view_readouts(v, p, test::english()));
  }
}

namespace {

/// The layer numbers 0 … n − 1 for which `keep` holds.
std::vector<double> layers_where(int n, bool (*keep)(int)) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i)
    if (keep(i)) out.push_back(i);
  return out;
}

std::string fixture_config(const std::string& name) {
  const std::string path = std::string(POSLAB_SOURCE_DIR) + "/tests/fixtures/configs/" + name + ".json";
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("layer-mix: the layer stack of each model preset is the model banner's figure of the same published config") {
  // Expected layers from each model's published rule, not from poslab:
  // Llama 4 Scout (48 layers) and Command R7B (32) leave out RoPE where
  // (i + 1) % 4 == 0 — Llama4TextConfig's no_rope_layer_interval 4, Cohere2's
  // sliding_window_pattern 4 with RoPE on the sliding layers only; SmolLM3 (36)
  // its no_rope_layers list, 0 at 3, 7, …, 35; Gemma 3 4B (34) is global where
  // (i + 1) % 6 == 0. Heights: full attention 1, chunked 0.7, sliding 0.45.
  struct Case {
    const char* preset;
    const char* fixture;
    const char* name;
    int layers;
    bool (*first)(int);  // the layers of the first group (the lowest layer's)
    double first_height, second_height;
  };
  const Case cases[] = {
      {"llama4-scout", "llama-4-scout", "Llama 4 Scout", 48, [](int i) { return (i + 1) % 4 != 0; }, 0.7, 1.0},
      {"smollm3-3b", "smollm3-3b", "SmolLM3 3B", 36, [](int i) { return i % 4 != 3; }, 1.0, 1.0},
      {"gemma3-4b", "gemma-3-4b", "Gemma 3 4B", 34, [](int i) { return (i + 1) % 6 != 0; }, 0.45, 1.0},
      {"command-r7b", "command-r7b", "Command R7B", 32, [](int i) { return (i + 1) % 4 != 0; }, 0.45, 1.0},
  };
  const app::Translator zh = app::Translator::load(app::assets_dir(), "zh");
  for (const Case& c : cases) {
    CAPTURE(c.preset);
    const core::Params p = test::params({{"stack_model", c.preset}});
    const auto f = lesson.figure("layer-stack", p);
    REQUIRE(f.series.size() == 2);
    const std::vector<double> first = layers_where(c.layers, c.first);
    std::vector<double> second;
    for (int i = 0; i < c.layers; ++i)
      if (std::find(first.begin(), first.end(), double(i)) == first.end()) second.push_back(i);
    CHECK(f.series[0].x == first);
    CHECK(f.series[1].x == second);
    for (double h : f.series[0].y) CHECK(h == c.first_height);
    for (double h : f.series[1].y) CHECK(h == c.second_height);
    CHECK(f.title.find(c.name) != std::string::npos);
    // The same series, legend and subtitle as File → Open model config on the
    // fixture of the same model (the preset's config is that fixture's).
    const app::ModelReading reading = app::read_model_config_text(fixture_config(c.fixture));
    const auto banner = app::layer_stack_figure(reading, test::english());
    REQUIRE(banner.series.size() == f.series.size());
    for (std::size_t i = 0; i < f.series.size(); ++i) {
      CHECK(f.series[i].name == banner.series[i].name);
      CHECK(f.series[i].x == banner.series[i].x);
      CHECK(f.series[i].y == banner.series[i].y);
    }
    CHECK(f.subtitle == banner.subtitle);
    // In Chinese the title names the model too, and the legend is the banner's.
    const auto fz = app::build_figure(lesson.view(), *app::find_figure(lesson.view(), "layer-stack"), p, zh, 900, 560);
    CHECK(fz.title.find(c.name) != std::string::npos);
    CHECK(fz.series.at(0).name == app::layer_group_label(reading.layers.at(0), zh));
  }
  // The NoPE group's legend says so, with its count, in the default model.
  const auto scout = lesson.figure("layer-stack", core::Params{});
  CHECK(scout.series.at(1).name.find("12 layers") != std::string::npos);
  CHECK(scout.series.at(0).name.find("36 layers") != std::string::npos);
}

TEST_CASE("layer-mix: the two-bases subtitle names s only when the global layers are scaled (step 3 comes before s)") {
  const auto unscaled = lesson.figure("two-bases", test::params({{"factor", "1"}}));
  CHECK(unscaled.subtitle.find("s =") == std::string::npos);
  CHECK(unscaled.subtitle.find("1,000,000") != std::string::npos);
  const auto scaled = lesson.figure("two-bases", test::params({{"factor", "8"}}));
  CHECK(scaled.subtitle.find("s = 8") != std::string::npos);
}
