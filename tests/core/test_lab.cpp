// The lab's training engine (core/lab): every gradient against finite
// differences in double for every encoding, one training step against the
// independent numpy transcription (tests/bench/lab_reference.py), the exact
// entropy rate of the synthetic language, determinism, the checks, and a very
// small model that learns.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core_test_support.hpp"
#include "poslab/core/lab/gemm.hpp"
#include "poslab/core/lab/lab.hpp"
#include "poslab/core/lab/layers.hpp"
#include "poslab/core/lab/model.hpp"
#include "poslab/core/lab/tasks.hpp"
#include "poslab/core/random.hpp"

using namespace poslab::core;
using namespace poslab::core::lab;
using poslab::test::rejects;

namespace {

/// A lab config small enough for a test: 1 layer of width 16, 2 heads.
LabConfig tiny_lab(Task task, int train_length, int eval_length, int batch, int steps, int eval_samples,
                   Encoding encoding = Encoding::rope) {
  LabConfig c = default_lab_config(task);
  c.layers = 1;
  c.width = 16;
  c.heads = 2;
  c.train_length = train_length;
  c.eval_length = eval_length;
  c.batch = batch;
  c.steps = steps;
  c.eval_samples = eval_samples;
  c.encoding = encoding;
  return c;
}

/// A tiny model for gradient checks: 2 layers, width 8, 2 heads (head size 4).
ModelShape tiny_shape(Encoding encoding, PairLayout layout = PairLayout::half) {
  ModelShape s;
  s.vocab = 7;
  s.layers = 2;
  s.width = 8;
  s.heads = 2;
  s.max_positions = 12;
  s.encoding = encoding;
  s.rope_layout = layout;
  s.rope_base = 100;  // angles that turn within 12 positions
  s.t5_buckets = 8;
  s.t5_max_distance = 10;
  return s;
}

/// Two rows of 6 tokens; the second at scattered positions (as randomized positions give)
/// and with weights 0, ½ and 1 so masking and weighting are differentiated too.
Batch tiny_batch() {
  Batch b;
  b.B = 2;
  b.T = 6;
  b.tokens = {1, 4, 0, 6, 2, 2, 3, 5, 5, 1, 0, 6};
  b.positions = {0, 1, 2, 3, 4, 5, 1, 3, 4, 7, 9, 11};
  b.targets = {4, 0, 6, 2, 2, 1, 5, 5, 1, 0, 6, 3};
  b.weights = {1, 1, 0.5, 1, 1, 1, 0, 1, 1, 0.5, 1, 1};
  return b;
}

/// Moves the initial weights to a generic point (GPT-2's small init leaves
/// many gradients near 0, where a relative comparison says little).
void perturb(Model<double>& m, std::uint64_t seed) {
  std::span<double> p = m.parameters();
  for (std::size_t i = 0; i < p.size(); ++i) p[i] += 0.3 * random_normal(seed, 77, i);
}

}  // namespace

TEST_CASE("lab: every parameter's gradient matches central finite differences in double, for every encoding") {
  struct Case {
    Encoding encoding;
    PairLayout layout;
  };
  const Case cases[] = {{Encoding::nope, PairLayout::half},       {Encoding::learned, PairLayout::half},
                        {Encoding::sinusoidal, PairLayout::half}, {Encoding::rope, PairLayout::half},
                        {Encoding::rope, PairLayout::interleaved}, {Encoding::alibi, PairLayout::half},
                        {Encoding::t5, PairLayout::half}};
  const Batch batch = tiny_batch();
  for (const Case& c : cases) {
    CAPTURE(encoding_name(c.encoding));
    CAPTURE(pair_layout_name(c.layout));
    Model<double> model(tiny_shape(c.encoding, c.layout), 3);
    perturb(model, 5);
    model.zero_grad();
    model.forward(batch);
    model.backward();
    const std::vector<double> analytic(model.gradients().begin(), model.gradients().end());
    std::span<double> p = model.parameters();
    for (const ParameterTensor& t : model.layout()) {
      CAPTURE(t.name);
      // every entry of small tensors; 48 seeded entries of the larger ones
      std::vector<std::int64_t> entries(static_cast<std::size_t>(t.size()));
      std::iota(entries.begin(), entries.end(), 0);
      if (entries.size() > 48) {
        for (std::size_t i = 0; i < 48; ++i)
          std::swap(entries[i], entries[i + static_cast<std::size_t>(random_uniform(9, t.offset, i) * static_cast<double>(entries.size() - i))]);
        entries.resize(48);
      }
      double diff2 = 0, norm2 = 0;
      for (std::int64_t e : entries) {
        const std::size_t i = static_cast<std::size_t>(t.offset + e);
        const double keep = p[i], h = 1e-3;
        auto f = [&](double d) {
          p[i] = keep + d;
          return model.forward(batch);
        };
        // five-point central difference, error O(h⁴)
        const double numeric = (-f(2 * h) + 8 * f(h) - 8 * f(-h) + f(-2 * h)) / (12 * h);
        p[i] = keep;
        const double a = analytic[i];
        CAPTURE(e);
        CAPTURE(a);
        CAPTURE(numeric);
        CHECK(std::fabs(a - numeric) <= 1e-6 * std::max(std::fabs(a), std::fabs(numeric)) + 1e-10);
        diff2 += (a - numeric) * (a - numeric);
        norm2 += a * a;
      }
      CHECK(std::sqrt(diff2) <= 1e-6 * std::sqrt(norm2) + 1e-12);
      if (t.name == "wpe") {  // rows no position reaches get no gradient
        for (int row : {6, 8, 10})
          for (int col = 0; col < t.cols; ++col) CHECK(analytic[static_cast<std::size_t>(t.offset + row * t.cols + col)] == 0);
      }
    }
  }
}

TEST_CASE("lab: one training step matches the numpy transcription written from the formulas") {
  // tests/bench/lab_reference.py: the model rebuilt in numpy from the papers'
  // formulas, gradients by five-point differences of that forward pass, one
  // Adam step (lr 1e-2, β = (0.9, 0.99), ε = 1e-8). Each row: encoding, loss,
  // ‖gradient‖, and (index, gradient, weight after the step) at five entries.
  struct Pick {
    int index;
    double gradient, after;
  };
  struct Reference {
    const char* name;
    double loss, gradient_norm;
    std::vector<Pick> picks;
  };
  const Reference references[] = {
#include "test_lab_reference_step.inc"
  };
  for (const Reference& r : references) {
    CAPTURE(r.name);
    const std::string name = r.name;
    ModelShape s;
    s.vocab = 5;
    s.layers = 1;
    s.width = 8;
    s.heads = 2;
    s.max_positions = 8;
    s.t5_buckets = 4;
    s.t5_max_distance = 6;
    s.encoding = parse_encoding(name.substr(0, name.find('-')));
    s.rope_layout = name.find("interleaved") != std::string::npos ? PairLayout::interleaved : PairLayout::half;
    Model<double> model(s, 1);
    std::span<double> p = model.parameters();
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = 0.5 * std::sin(0.37 * static_cast<double>(i) + 0.1);
    Batch b;
    b.B = 2;
    b.T = 4;
    b.tokens = {1, 4, 0, 2, 3, 3, 1, 0};
    b.positions = {0, 1, 2, 3, 1, 2, 4, 7};
    b.targets = {4, 0, 2, 2, 3, 1, 0, 4};
    b.weights = {1, 1, 0.5, 1, 0, 1, 1, 1};
    model.zero_grad();
    CHECK(model.forward(b) == doctest::Approx(r.loss).epsilon(1e-12));
    model.backward();
    std::span<const double> g = model.gradients();
    double norm2 = 0;
    for (double x : g) norm2 += x * x;
    CHECK(std::sqrt(norm2) == doctest::Approx(r.gradient_norm).epsilon(1e-8));
    std::vector<double> m(p.size(), 0.0), v(p.size(), 0.0);
    adam_update(p.data(), g.data(), m.data(), v.data(), static_cast<std::int64_t>(p.size()), 1e-2, 0.9, 0.99, 1e-8, 1);
    for (const Pick& k : r.picks) {
      CAPTURE(k.index);
      CHECK(g[static_cast<std::size_t>(k.index)] == doctest::Approx(k.gradient).epsilon(1e-8).scale(1e-3));
      CHECK(p[static_cast<std::size_t>(k.index)] == doctest::Approx(k.after).epsilon(1e-10));
    }
  }
}

TEST_CASE("lab: the float engine computes what the double one does") {
  for (Encoding e : all_encodings()) {
    CAPTURE(encoding_name(e));
    Model<double> d(tiny_shape(e), 11);
    Model<float> f(tiny_shape(e), 11);
    perturb(d, 2);
    for (std::size_t i = 0; i < d.parameters().size(); ++i) f.parameters()[i] = static_cast<float>(d.parameters()[i]);
    const Batch batch = tiny_batch();
    d.zero_grad();
    f.zero_grad();
    const double ld = d.forward(batch), lf = f.forward(batch);
    CHECK(lf == doctest::Approx(ld).epsilon(1e-5));
    d.backward();
    f.backward();
    double diff2 = 0, norm2 = 0;
    for (std::size_t i = 0; i < d.gradients().size(); ++i) {
      diff2 += std::pow(d.gradients()[i] - f.gradients()[i], 2);
      norm2 += std::pow(d.gradients()[i], 2);
    }
    CHECK(std::sqrt(diff2) <= 1e-4 * std::sqrt(norm2));
  }
}

TEST_CASE("lab: the language's entropy rate is exact (against a long sample) and its floor is the true model's loss") {
  const MarkovLanguage L = make_markov_language(6, 2, 1.5, 4);
  // stationary: π(ctx·y) = Σ π(ctx)·P(y | ctx), and sums to 1
  double total = 0;
  for (double x : L.stationary) total += x;
  CHECK(total == doctest::Approx(1).epsilon(1e-12));
  for (int next = 0; next < 36; ++next) {
    double in = 0;
    for (int old = 0; old < 6; ++old) in += L.stationary[static_cast<std::size_t>(old * 6 + next / 6)] * L.transition[static_cast<std::size_t>((old * 6 + next / 6) * 6 + next % 6)];
    CHECK(in == doctest::Approx(L.stationary[static_cast<std::size_t>(next)]).epsilon(1e-12));
  }
  CHECK(L.floor_by_position.size() == 2);
  CHECK(L.floor_by_position[0] > L.entropy_rate);  // one symbol of context predicts worse than two
  CHECK(L.entropy_rate > 0);
  CHECK(L.entropy_rate < std::log(6.0));
  // the mean true loss of sampled tokens converges to the floor (law of large numbers)
  const int count = 400, length = 50;
  const std::vector<int> seqs = sample_markov(L, count, length, 8, 1);
  double first = 0, rest = 0;
  for (int b = 0; b < count; ++b) {
    const int* s = &seqs[static_cast<std::size_t>(b * length)];
    first += L.true_loss(s, 0);
    for (int t = 1; t < length - 1; ++t) rest += L.true_loss(s, t);
  }
  CHECK(first / count == doctest::Approx(L.floor_by_position[0]).epsilon(0.05));
  CHECK(rest / (count * (length - 2)) == doctest::Approx(L.entropy_rate).epsilon(0.01));
  // order 1: the floor is the entropy rate everywhere; uniform when sharpness = 0
  const MarkovLanguage flat = make_markov_language(8, 1, 0, 1);
  CHECK(flat.entropy_rate == doctest::Approx(std::log(8.0)).epsilon(1e-12));
}

TEST_CASE("lab: copy and reverse batches hold the task and score only the answers") {
  CopyTask task;
  task.alphabet = 10;
  for (bool reverse : {false, true}) {
    task.reverse = reverse;
    const Batch b = copy_batch(task, {3, 1, 5}, 1, 2);
    CHECK(b.T == 10);
    const int* row = &b.tokens[0];  // n = 3: x0 x1 x2 SEP y0 y1 (pads)
    CHECK(row[3] == task.separator());
    for (int i = 0; i < 2; ++i) CHECK(row[4 + i] == row[reverse ? 2 - i : i]);
    CHECK(std::vector<double>(b.weights.begin(), b.weights.begin() + 10) ==
          std::vector<double>{0, 0, 0, 1, 1, 1, 0, 0, 0, 0});
    // distinct symbols within a row
    std::vector<int> x(b.tokens.begin() + 20, b.tokens.begin() + 25);
    std::sort(x.begin(), x.end());
    CHECK(std::adjacent_find(x.begin(), x.end()) == x.end());
    CHECK(b.targets[20 + 9] == b.tokens[20 + (reverse ? 0 : 4)]);  // the last answer
  }
}

TEST_CASE("lab: copy trains on batches of one length, every length 1..L about equally often") {
  for (Task task : {Task::copy, Task::reverse}) {
    LabConfig c = default_lab_config(task);
    c.encoding = Encoding::nope;
    const LabRun run(c);
    const int L = c.train_length, steps = 800;
    std::vector<int> seen(static_cast<std::size_t>(L + 1), 0);
    for (int s = 0; s < steps; ++s) {
      const Batch b = run.training_batch(s);
      REQUIRE(b.B == c.batch);
      REQUIRE(b.T % 2 == 0);
      const int n = b.T / 2;  // as long as its rows: no padding
      REQUIRE(n >= 1);
      REQUIRE(n <= L);
      for (int row = 0; row < b.B; ++row) {  // every row scores its n answers and sits at positions 0..2n−1
        double answers = 0;
        for (int t = 0; t < b.T; ++t) {
          const std::size_t i = static_cast<std::size_t>(row) * static_cast<std::size_t>(b.T) + static_cast<std::size_t>(t);
          answers += b.weights[i];
          CHECK(b.positions[i] == t);
        }
        CHECK(answers == n);
      }
      ++seen[static_cast<std::size_t>(n)];
    }
    // uniform: each n expected 100 times of 800, σ ≈ 9.4; ±40 is beyond 4σ
    for (int n = 1; n <= L; ++n) {
      CAPTURE(n);
      CHECK(std::abs(seen[static_cast<std::size_t>(n)] - steps / L) <= 40);
    }
    CHECK(run.training_batch(17).tokens == run.training_batch(17).tokens);  // a step's batch is a function of the step
  }
}

TEST_CASE("lab: a copy step's FLOPs are the mean over its lengths; lm's are those of its one length") {
  for (Task task : {Task::copy, Task::lm}) {
    const LabConfig c = default_lab_config(task);
    const double B = c.batch, C = c.width, V = c.shape().vocab, layers = c.layers;
    // Independently: the products of one step with T tokens per row, counted
    // as multiply-adds × 2, forward + backward (= 3 × forward).
    auto step = [&](double T) {
      const double N = B * T;
      const double per_layer = 2 * N * C * (3 * C) + 2 * N * C * C + 2 * N * C * (4 * C) + 2 * N * (4 * C) * C +
                               2 * B * T * T * C * 2;  // q·kᵀ and a·v over all heads
      return 3 * (layers * per_layer + 2 * N * C * V);
    };
    double expected = 0;
    if (task == Task::lm) {
      expected = step(c.train_length);
    } else {
      for (int n = 1; n <= c.train_length; ++n) expected += step(2.0 * n) / c.train_length;
    }
    CHECK(training_step_flops(c) == doctest::Approx(expected).epsilon(1e-12));
  }
}

TEST_CASE("lab: the same config gives bit-identical weights, losses and evaluations; another seed does not") {
  LabConfig c = tiny_lab(Task::copy, 4, 6, 8, 6, 8, Encoding::t5);
  LabRun a(c), b(c);
  a.train(6);
  b.train(2);  // in slices: the same run
  b.train(1);
  b.train(10);
  CHECK(b.step() == 6);
  CHECK(b.train(5) == 0);
  CHECK(a.loss_history() == b.loss_history());
  CHECK(std::equal(a.model().parameters().begin(), a.model().parameters().end(), b.model().parameters().begin()));
  CHECK(a.evaluate().values == b.evaluate().values);
  // A run restored from another's weights and losses (what the page's worker
  // sends back) is that run: the same evaluation, bit for bit.
  LabRun restored(c);
  const std::vector<float> weights(a.model().parameters().begin(), a.model().parameters().end());
  restored.restore(weights, a.loss_history());
  CHECK(restored.finished());
  CHECK(restored.train(1) == 0);
  CHECK(restored.loss_history() == a.loss_history());
  CHECK(restored.evaluate().values == a.evaluate().values);
  CHECK(restored.attention_map(0, 1, 5).weights == a.attention_map(0, 1, 5).weights);
  CHECK_THROWS_AS(LabRun(c).restore(std::span<const float>(weights).first(weights.size() - 1), a.loss_history()),
                  std::invalid_argument);
  CHECK_THROWS_AS(LabRun(c).restore(weights, {}), std::invalid_argument);
  c.seed = 2;
  LabRun other(c);
  other.train(6);
  CHECK(other.loss_history() != a.loss_history());
}

TEST_CASE("lab: a saved run restores bit for bit; another config, a changed byte or a cut file is refused") {
  for (Encoding e : {Encoding::rope, Encoding::learned, Encoding::t5}) {
    const LabConfig c = tiny_lab(Task::lm, 8, 16, 4, 5, 4, e);
    LabRun a(c);
    CHECK_THROWS_AS((void)a.save(), std::logic_error);  // not finished
    a.train(5);
    const std::string bytes = a.save();
    CHECK(bytes.rfind(lab_saved_header(c), 0) == 0);  // what a reader may check without the weights
    CHECK(lab_saved_header(c).find(lab_config_text(c)) != std::string::npos);

    LabRun b(c);
    std::string why;
    REQUIRE(b.restore(bytes, &why));
    CHECK(b.finished());
    CHECK(b.step() == 5);
    CHECK(b.loss_history() == a.loss_history());
    CHECK(std::equal(a.model().parameters().begin(), a.model().parameters().end(), b.model().parameters().begin()));
    CHECK(a.evaluate().values == b.evaluate().values);
    if (e == Encoding::rope) CHECK(a.evaluate(Extension::yarn, 2).values == b.evaluate(Extension::yarn, 2).values);
    CHECK(a.attention_map(0, 1, 12).weights == b.attention_map(0, 1, 12).weights);
    CHECK_FALSE(b.restore(bytes, &why));  // only into a run that has not trained
    CHECK(why.find("trained already") != std::string::npos);

    LabConfig other = c;  // any field of the config is part of the key
    other.seed = 2;
    LabRun o(other);
    CHECK_FALSE(o.restore(bytes, &why));
    CHECK(why.find("another config") != std::string::npos);
    CHECK(o.step() == 0);
    other = c;
    other.learning_rate *= 1.0 + 1e-15;
    LabRun o2(other);
    CHECK_FALSE(o2.restore(bytes, &why));

    // Every single-byte change and every cut is refused, and the run stays untrained.
    for (std::size_t at = 0; at < bytes.size(); at += 1 + bytes.size() / 97) {
      std::string bad = bytes;
      bad[at] = static_cast<char>(bad[at] ^ 0x20);
      LabRun r(c);
      CHECK_FALSE(r.restore(bad));
      CHECK(r.step() == 0);
      LabRun t(c);
      CHECK_FALSE(t.restore(std::string_view(bytes).substr(0, at)));
      CHECK(t.step() == 0);
    }
  }
  CHECK(lab_build_tag().find("gemm ") != std::string::npos);
  CHECK(lab_build_tag().find('\n') == std::string::npos);
}

TEST_CASE("lab: a very small model learns the language close to its floor") {
  LabConfig c = tiny_lab(Task::lm, 8, 16, 16, 300, 64, Encoding::alibi);
  c.lm_vocab = 6;
  c.lm_order = 1;  // a bigram language: the current token decides
  c.lm_sharpness = 2;
  LabRun run(c);
  const double first = run.learning_rate_at(0);
  CHECK(first < c.learning_rate);  // warming up
  run.train(300);
  CHECK(run.finished());
  const LabEvaluation e = run.evaluate();
  CAPTURE(e.trained_value);
  CAPTURE(run.floor());
  CHECK(run.loss_history().front() > std::log(6.0) - 0.5);  // starts near chance
  CHECK(e.trained_value < 1.1 * run.floor());               // ends near the floor
  CHECK(e.reached_floor == (e.trained_value <= 1.05 * e.trained_floor));
  CHECK(e.lengths.size() == 16);
}

TEST_CASE("lab: evaluation with a context extension uses core/scaling.hpp and changes only RoPE runs") {
  LabConfig c = tiny_lab(Task::lm, 8, 32, 4, 3, 4);
  LabRun rope(c);
  rope.train(3);
  const LabEvaluation none = rope.evaluate();
  const LabEvaluation pi = rope.evaluate(Extension::pi, 4);
  CHECK(pi.factor == 4);
  CHECK(pi.values != none.values);
  CHECK(pi.values[0] == doctest::Approx(none.values[0]).epsilon(1e-6));  // position 0 is not rotated
  CHECK(rope.evaluate().values == none.values);                          // the frequencies are restored
  for (Extension x : {Extension::ntk, Extension::yarn, Extension::dynamic}) CHECK(rope.evaluate(x).values.size() == 32);
  c.encoding = Encoding::alibi;
  LabRun alibi(c);
  rejects([&] { (void)alibi.evaluate(Extension::yarn); }, "extension");
  const AttentionMap map = rope.attention_map(0, 1, 24);
  CHECK(map.weights.rows() == 24);
  for (int i = 0; i < 24; ++i) {
    CHECK(map.weights.row(i).sum() == doctest::Approx(1).epsilon(1e-5));
    if (i + 1 < 24) CHECK(map.weights(i, i + 1) == 0);  // causal
  }
}

TEST_CASE("lab: bad configs are refused naming the key, before anything is built") {
  auto with = [](auto change) {
    LabConfig c = default_lab_config(Task::lm);
    change(c);
    return [c] { LabRun run(c); };
  };
  rejects(with([](LabConfig& c) { c.width = 30; }), "width");  // not a multiple of heads = 4
  rejects(with([](LabConfig& c) { c.width = 12; }), "width");  // head size 3 is odd
  rejects(with([](LabConfig& c) { c.eval_length = 10000; }), "eval_length");
  rejects(with([](LabConfig& c) { c.eval_length = 16; }), "eval_length");  // below train_length
  rejects(with([](LabConfig& c) { c.learning_rate = std::nan(""); }), "learning_rate");
  rejects(with([](LabConfig& c) { c.layers = 0; }), "layers");
  rejects(with([](LabConfig& c) { c.steps = 0; }), "steps");
  rejects([] { (void)parse_encoding("xpos2"); }, "encoding");
  rejects([] { (void)parse_task("sort"); }, "task");
  rejects([] { (void)parse_extension("longrope"); }, "extension");
}

TEST_CASE_TEMPLATE("lab: gemm equals the textbook triple loop on both compiled paths, any shape and stride", T, float,
                   double) {
  // Shapes around the kernel's blocks (4 rows, 1 or 2 vectors of 8 floats / 4
  // doubles, panels 256 deep): tails of every size, K over one panel, and the
  // four layouts the layers use (A or B transposed).
  std::uint64_t stream = 0;
  const int shapes[][3] = {{1, 1, 1},  {3, 5, 2},   {4, 8, 8},  {5, 17, 3},  {7, 16, 9},   {9, 24, 31},
                           {32, 8, 32}, {32, 32, 8}, {13, 25, 300}, {64, 96, 32}, {33, 4, 513}, {2, 40, 0}};
  for (const auto& shape : shapes) {
    const int M = shape[0], N = shape[1], K = shape[2];
    for (int layout = 0; layout < 4; ++layout) {
      const bool at = layout & 1, bt = layout & 2;
      std::vector<double> a(static_cast<std::size_t>(M * K) + 1), b(static_cast<std::size_t>(K * N) + 1),
          c0(static_cast<std::size_t>(M * (N + 3)));
      random_normals(99, ++stream, 0, a);
      random_normals(99, ++stream, 0, b);
      random_normals(99, ++stream, 0, c0);
      std::vector<T> ta(a.begin(), a.end()), tb(b.begin(), b.end());
      const MatRef<const T> A = at ? MatRef<const T>{ta.data(), 1, M} : MatRef<const T>{ta.data(), K, 1};
      const MatRef<const T> B = bt ? MatRef<const T>{tb.data(), 1, K} : MatRef<const T>{tb.data(), N, 1};
      for (bool accumulate : {false, true})
        for (GemmPath path : {GemmPath::baseline, GemmPath::avx2_fma}) {
          const std::ptrdiff_t ldc = N + 3;  // a wider C: the columns past N stay untouched
          std::vector<T> c(c0.begin(), c0.end());
          gemm_on<T>(path, M, N, K, A, B, c.data(), ldc, accumulate);
          for (int i = 0; i < M; ++i)
            for (int j = 0; j < ldc; ++j) {
              const T got = c[static_cast<std::size_t>(i * ldc + j)];
              const double before = static_cast<T>(c0[static_cast<std::size_t>(i * ldc + j)]);
              if (j >= N) {
                REQUIRE(got == static_cast<T>(before));
                continue;
              }
              double want = accumulate ? before : 0, scale = accumulate ? std::abs(before) : 0;
              for (int k = 0; k < K; ++k) {
                const double x = static_cast<double>(A.data[i * A.row + k * A.col]) *
                                 static_cast<double>(B.data[k * B.row + j * B.col]);
                want += x;
                scale += std::abs(x);
              }
              const double eps = std::is_same_v<T, float> ? 1e-6 : 1e-14;
              CAPTURE(M);
              CAPTURE(N);
              CAPTURE(K);
              CAPTURE(layout);
              CAPTURE(accumulate);
              CAPTURE(i);
              CAPTURE(j);
              REQUIRE(std::abs(static_cast<double>(got) - want) <= eps * (scale + 1));
            }
        }
    }
  }
  CHECK(std::string(gemm_path_name(gemm_path())).size() > 0);
#ifdef __EMSCRIPTEN__
  // The web build compiles core with -msimd128: the baseline path above ran in WebAssembly SIMD registers.
  CHECK(std::string(gemm_path_name(gemm_path())) == "wasm-simd128");
#endif
}
