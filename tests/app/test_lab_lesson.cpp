// The "lab" lesson (issue 26, phase 2): its figures draw what training gives.
// Every model here is the lesson's own (core's lab defaults: 2 layers, width
// 32) trained for a few dozen steps only, so the suite takes seconds; the
// claims about what full training shows are docs/LAB.md's, measured by
// `poslab lab run` and `make bench`, not here.
//
// Independent values: each figure's line is compared with a LabRun trained
// here from the same config, outside the lesson (same build: bit-identical,
// lab.hpp), and with the mean of the seeds computed here. The floor 1.1444
// nats is docs/LAB.md's entropy rate of the language (computed there from the
// chain's stationary distribution).

#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "app/lessons/lab/setting.hpp"
#include "lesson_test_support.hpp"
#include "poslab/core/lab/lab.hpp"

using namespace poslab;
using test::params;
namespace fig = poslab::app::fig;
namespace cl = poslab::core::lab;

namespace {

const test::Lesson lesson{"lab"};

/// The thin (per-seed) lines of `f` whose hover name starts with `name`, in seed order.
std::vector<const fig::Series*> seed_lines(const fig::Figure& f, const std::string& name) {
  std::vector<const fig::Series*> out;
  for (const fig::Series& s : f.series)
    if (s.name.empty() && s.y_name.rfind(name + ", seed ", 0) == 0) out.push_back(&s);
  return out;
}

/// A lesson model trained here, outside the lesson.
cl::LabRun trained_here(cl::Task task, cl::Encoding encoding, int seed, int steps) {
  cl::LabConfig c = cl::default_lab_config(task);
  c.encoding = encoding;
  c.seed = static_cast<std::uint64_t>(seed);
  c.steps = steps;
  cl::LabRun run(c);
  while (!run.finished()) run.train(7);  // other slices than the lesson's: the same result (lab.hpp)
  return run;
}

const fig::RefLine* ref_line(const fig::Figure& f, fig::Orientation o, double value) {
  for (const fig::RefLine& r : f.ref_lines)
    if (r.orientation == o && std::abs(r.value - value) < 1e-9) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("lab lesson: before Train, every figure is the frame to predict on, with L and the floor") {
  for (const char* task : {"lm", "copy"}) {
    CAPTURE(task);
    const core::Params p = params({{"lab_task", task}});
    const cl::LabConfig c = cl::default_lab_config(cl::parse_task(task));
    for (const char* id : {"by_length", "extension", "training", "attention_trained", "attention_long"}) {
      CAPTURE(id);
      const fig::Figure f = lesson.figure(id, p);
      CHECK(f.series.empty());
      CHECK(f.heatmaps.empty());
      CHECK(f.subtitle == test::english()("lab.untrained"));
    }
    const fig::Figure f = lesson.figure("by_length", p);
    // the trained length, between the last trained length and the first unseen one
    REQUIRE(ref_line(f, fig::Orientation::vertical, c.train_length + 0.5) != nullptr);
    REQUIRE(f.bands.size() == 1);
    CHECK(f.bands[0].to == doctest::Approx(c.eval_length + 0.5));
    if (std::string(task) == "lm") {
      CHECK(ref_line(f, fig::Orientation::horizontal, std::log(16.0)) != nullptr);  // no context: ln V
      bool floor_drawn = false;
      for (const fig::RefLine& r : f.ref_lines)
        floor_drawn |= r.orientation == fig::Orientation::horizontal && std::abs(r.value - 1.1444) < 1e-4;
      CHECK(floor_drawn);
    }
  }
}

TEST_CASE("lab lesson: the figures draw the models as trained, one thin line per seed and their mean") {
  constexpr int kSteps = 24;
  const core::Params p = params({{"lab_train", "true"}, {"lab_steps", "24"}, {"lab_seeds", "2"}, {"factor", "4"}});
  const fig::Figure f = lesson.figure("by_length", p);
  // six encodings: two seeds and a mean each; the language's own loss on the same tokens
  CHECK(f.series.size() == 19);
  for (cl::Encoding e : cl::all_encodings()) {
    const std::string name = test::english()(std::string("lab.encoding.") + cl::encoding_name(e));
    CAPTURE(name);
    const fig::Series& mean = test::series(f, name);
    const std::vector<const fig::Series*> seeds = seed_lines(f, name);
    REQUIRE(seeds.size() == 2);
    REQUIRE(mean.y.size() == 128);
    for (std::size_t i = 0; i < mean.y.size(); ++i) {
      CHECK(mean.x[i] == static_cast<double>(i + 1));
      CHECK(mean.y[i] == doctest::Approx(0.5 * (seeds[0]->y[i] + seeds[1]->y[i])).epsilon(1e-12));
    }
    CHECK(seeds[0]->y != seeds[1]->y);  // two seeds, two models
  }
  // the learned model's seed-2 line is that model's evaluation, trained here independently
  cl::LabRun learned = trained_here(cl::Task::lm, cl::Encoding::learned, 2, kSteps);
  const cl::LabEvaluation e = learned.evaluate();
  const std::vector<const fig::Series*> lines = seed_lines(f, test::english()("lab.encoding.learned"));
  REQUIRE(lines.size() == 2);
  CHECK(lines[1]->y == e.values);
  // the language's own loss on the evaluation tokens: no model, the same for every run
  CHECK(test::series(f, test::english()("lab.sample_floor")).y == e.sample_floor);

  SUBCASE("the extension figure: RoPE as trained equals its by-length line, PI is core's PI at s") {
    const fig::Figure x = lesson.figure("extension", p);
    CHECK(x.series.size() == 13);  // 4 readings × (2 seeds + mean), the language's own loss
    CHECK(test::series(x, test::english()("lab.method.none")).y == test::series(f, test::english()("lab.encoding.rope")).y);
    cl::LabRun rope = trained_here(cl::Task::lm, cl::Encoding::rope, 1, kSteps);
    const std::vector<const fig::Series*> pi = seed_lines(x, test::english()("lab.method.pi"));
    REQUIRE(pi.size() == 2);
    CHECK(pi[0]->y == rope.evaluate(cl::Extension::pi, 4).values);
    const std::vector<const fig::Series*> yarn = seed_lines(x, test::english()("lab.method.yarn"));
    REQUIRE(yarn.size() == 2);
    CHECK(yarn[0]->y == rope.evaluate(cl::Extension::yarn, 4).values);
    CHECK(yarn[0]->y != pi[0]->y);
    // another s is another reading of the same models
    const fig::Figure x2 = lesson.figure("extension", params({{"lab_train", "true"}, {"lab_steps", "24"}, {"lab_seeds", "2"}, {"factor", "2"}}));
    CHECK(seed_lines(x2, test::english()("lab.method.pi"))[0]->y == rope.evaluate(cl::Extension::pi, 2).values);
  }

  SUBCASE("the training figure: the mean training loss over the seeds, step by step") {
    const fig::Figure t = lesson.figure("training", p);
    cl::LabRun a = trained_here(cl::Task::lm, cl::Encoding::alibi, 1, kSteps);
    cl::LabRun b = trained_here(cl::Task::lm, cl::Encoding::alibi, 2, kSteps);
    const fig::Series& s = test::series(t, test::english()("lab.encoding.alibi"));
    REQUIRE(s.y.size() == kSteps);  // windows of one step at 24 steps
    for (int k = 0; k < kSteps; ++k)
      CHECK(s.y[static_cast<std::size_t>(k)] ==
            doctest::Approx(0.5 * (a.loss_history()[static_cast<std::size_t>(k)] + b.loss_history()[static_cast<std::size_t>(k)])));
  }

  SUBCASE("attention at L and 3L: causal rows of weights that sum to 1, of the model asked for") {
    for (const char* id : {"attention_trained", "attention_long"}) {
      CAPTURE(id);
      const fig::Figure a = lesson.figure(id, p);
      REQUIRE(a.heatmaps.size() == 1);
      const fig::Heatmap& h = a.heatmaps[0];
      CHECK(h.rows == (std::string(id) == "attention_trained" ? 32 : 96));
      for (int i = 0; i < h.rows; ++i) {
        double sum = 0;
        for (int j = 0; j < h.cols; ++j) {
          const std::size_t k = static_cast<std::size_t>(i * h.cols + j);
          CHECK(static_cast<bool>(h.mask[k]) == (j > i));
          sum += h.values[k];
        }
        CHECK(sum == doctest::Approx(1).epsilon(1e-4));
      }
    }
    cl::LabRun rope = trained_here(cl::Task::lm, cl::Encoding::rope, 1, kSteps);
    const cl::AttentionMap map = rope.attention_map(1, 2, 96);  // layer 2, head 3
    const fig::Figure a = lesson.figure("attention_long", params({{"lab_train", "true"}, {"lab_steps", "24"}, {"lab_seeds", "2"},
                                                                  {"lab_layer", "2"}, {"lab_head", "3"}}));
    CHECK(a.heatmaps[0].values[static_cast<std::size_t>(95 * 96 + 94)] == map.weights(95, 94));
    CHECK(a.heatmaps[0].values[static_cast<std::size_t>(50 * 96 + 3)] == map.weights(50, 3));
  }
}

TEST_CASE("lab lesson: another number of steps is another model (the store never mixes them)") {
  const fig::Figure a = lesson.figure("by_length", params({{"lab_train", "true"}, {"lab_steps", "5"}, {"lab_seeds", "1"}}));
  const fig::Figure b = lesson.figure("by_length", params({{"lab_train", "true"}, {"lab_steps", "6"}, {"lab_seeds", "1"}}));
  const std::string rope = test::english()("lab.encoding.rope");
  CHECK(test::series(a, rope).y != test::series(b, rope).y);
  CHECK(test::series(b, rope).y == trained_here(cl::Task::lm, cl::Encoding::rope, 1, 6).evaluate().values);
  // one seed: no thin lines, the mean is the model — and no subtitle speaks of
  // thin lines, a mean or "1 seeds"
  CHECK(seed_lines(a, rope).empty());
  const core::Params one = params({{"lab_train", "true"}, {"lab_steps", "5"}, {"lab_seeds", "1"}});
  for (const char* id : {"by_length", "extension", "training"}) {
    CAPTURE(id);
    const std::string subtitle = lesson.figure(id, one).subtitle;
    CHECK(subtitle.find("one seed") != std::string::npos);
    CHECK(subtitle.find("seeds") == std::string::npos);
    CHECK(subtitle.find("mean over 1") == std::string::npos);
    CHECK(subtitle.find("thin") == std::string::npos);
  }
  const core::Params two = params({{"lab_train", "true"}, {"lab_steps", "5"}, {"lab_seeds", "2"}});
  for (const char* id : {"by_length", "extension", "training"}) {
    CAPTURE(id);
    CHECK(lesson.figure(id, two).subtitle.find("2 seeds") != std::string::npos);
  }
}

TEST_CASE("lab lesson: copy draws exact match by input length, 0 … 1, trained on n ≤ 8") {
  const core::Params p = params({{"lab_train", "true"}, {"lab_steps", "10"}, {"lab_seeds", "1"}, {"lab_task", "copy"}});
  const fig::Figure f = lesson.figure("by_length", p);
  CHECK(f.series.size() == 6);  // no language floor on copy
  for (const fig::Series& s : f.series) {
    REQUIRE(s.y.size() == 24);
    for (double v : s.y) CHECK((v >= 0 && v <= 1));
  }
  CHECK(test::series(f, test::english()("lab.encoding.t5")).y ==
        trained_here(cl::Task::copy, cl::Encoding::t5, 1, 10).evaluate().values);
  const fig::Figure a = lesson.figure("attention_long", p);
  CHECK(a.heatmaps[0].rows == 48);  // 3L = 24 symbols: input, separator and answers, 2n tokens
}

TEST_CASE("lab lesson: the θ′/θ figure is the scaling lesson's for the lab's head (d = 8, L = 32)") {
  const fig::Figure f = lesson.figure("theta_ratio", params({{"factor", "4"}}));
  REQUIRE(!f.series.empty());
  // 4 pairs per head; PI divides every pair by s
  const fig::Series& pi = test::series(f, test::english()("scaling.method.linear"));
  REQUIRE(pi.y.size() == 4);
  for (double v : pi.y) CHECK(v == doctest::Approx(0.25));
}
