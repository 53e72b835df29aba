// [SECTION] Index
// - Names (tasks, extensions)
// - The config: defaults, checks, FLOPs
// - A run: construction, training in slices, the learning-rate schedule
// - Evaluation (by length, with a context extension), attention maps

#include "poslab/core/lab/lab.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "poslab/core/errors.hpp"
#include "poslab/core/lab/checks.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/random.hpp"
#include "poslab/core/scaling.hpp"

namespace poslab::core::lab {

// [SECTION] Names (tasks, extensions)

const char* task_name(Task task) {
  switch (task) {
    case Task::lm: return "lm";
    case Task::copy: return "copy";
    case Task::reverse: return "reverse";
  }
  return "?";
}

Task parse_task(std::string_view word) {
  for (Task t : {Task::lm, Task::copy, Task::reverse})
    if (word == task_name(t)) return t;
  refuse_choice("task", word, "lm, copy, reverse");
}

const char* extension_name(Extension e) {
  switch (e) {
    case Extension::none: return "none";
    case Extension::pi: return "pi";
    case Extension::ntk: return "ntk";
    case Extension::yarn: return "yarn";
    case Extension::dynamic: return "dynamic";
  }
  return "?";
}

Extension parse_extension(std::string_view word) {
  for (Extension e : {Extension::none, Extension::pi, Extension::ntk, Extension::yarn, Extension::dynamic})
    if (word == extension_name(e)) return e;
  refuse_choice("extension", word, "none, pi, ntk, yarn, dynamic");
}

// [SECTION] The config: defaults, checks, FLOPs

// The defaults (docs/LAB.md, "Choosing the sizes"): width 32, 2 layers, 4 heads
// (head size 8), Adam at 1e-2 with warm-up and cosine decay. lm: a 16-symbol
// order-2 language, L = 32, M = 4L, 1500 steps of 16 sequences; copy/reverse:
// inputs of 1..8 symbols, M = 3L, 1500 steps of 64 sequences of one length. About 10 s of one
// core per model on the reference machine.
LabConfig default_lab_config(Task task) {
  LabConfig c;
  c.task = task;
  c.layers = 2;
  c.width = 32;
  c.heads = 4;
  c.learning_rate = 1e-2;
  c.steps = 1500;
  if (task == Task::lm) {
    c.lm_vocab = 16;
    c.lm_order = 2;
    c.lm_sharpness = 2;
    c.train_length = 32;
    c.eval_length = 128;  // 4·L
    c.batch = 16;
  } else {
    c.train_length = 8;
    c.eval_length = 24;  // 3·L
    c.batch = 64;  // of one length n (training_batch): ALiBi reaches the floor at 64, not at 32
    c.eval_samples = 64;
  }
  return c;
}

int LabConfig::eval_tokens() const { return task == Task::lm ? eval_length : 2 * eval_length; }
int LabConfig::train_tokens() const { return task == Task::lm ? train_length : 2 * train_length; }

ModelShape LabConfig::shape() const {
  ModelShape s;
  s.vocab = task == Task::lm ? lm_vocab : (copy_alphabet > 0 ? copy_alphabet : std::max(16, eval_length)) + 1;
  s.layers = layers;
  s.width = width;
  s.heads = heads;
  s.max_positions = eval_tokens();
  s.encoding = encoding;
  s.rope_layout = rope_layout;
  s.rope_base = rope_base;
  s.t5_buckets = t5_buckets;
  s.t5_max_distance = t5_max_distance;
  return s;
}

void LabConfig::check() const {
  const bool lm = task == Task::lm;
  check_integer_in("train_length", train_length, lm ? 4 : 2, lm ? 512 : 128);
  const int longest = std::min(8 * train_length, lm ? 1024 : 256);
  check_integer_in("eval_length", eval_length, train_length, longest);
  check_integer_in("layers", layers, 1, 4);
  check_integer_in("heads", heads, 1, 16);
  check_integer_in("batch", batch, 1, 256);
  check_integer_in("steps", steps, 1, 100000);
  check_number_in("learning_rate", learning_rate, 1e-5, 0.1);
  check_integer_in("warmup_steps", warmup_steps, 0, 100000);
  check_number_in("min_lr_fraction", min_lr_fraction, 0, 1);
  check_number_in("grad_clip", grad_clip, 0, 1e3);
  check_integer_in("eval_samples", eval_samples, 1, 4096);
  if (lm) {
    check_integer_in("lm_vocab", lm_vocab, 2, 64);
    check_integer_in("lm_order", lm_order, 1, 3);
    check_number_in("lm_sharpness", lm_sharpness, 0, 8);
  } else if (copy_alphabet != 0) {
    check_integer_in("copy_alphabet", copy_alphabet, copy_distinct ? std::max(2, eval_length) : 2, 1000);
  }
  shape().check();  // width, heads, rope_base, t5 buckets
}

double training_step_flops(const LabConfig& c) {
  const double B = c.batch, C = c.width, V = c.shape().vocab;
  // lm: every step T = L tokens; copy: T = 2n with n uniform in 1..L (one n per
  // step), so the mean of T and of T² over n
  double T = c.train_tokens(), T2 = T * T;
  if (c.task != Task::lm) {
    const double L = c.train_length;
    T = L + 1;                                  // E[2n] = 2·(L + 1)/2
    T2 = 4.0 * (L + 1) * (2 * L + 1) / 6.0;     // E[(2n)²] = 4·(L + 1)(2L + 1)/6
  }
  const double N = B * T;
  const double linear = N * 12.0 * C * C * 2.0;   // qkv 3C², proj C², fc 4C², fcproj 4C²
  const double attention = B * T2 * C * 4.0;      // q·kᵀ and a·v over all heads (the full T × T)
  const double forward = c.layers * (linear + attention) + N * C * V * 2.0;
  return 3.0 * forward;  // backward = 2 × forward
}

// [SECTION] A run: construction, training in slices, the learning-rate schedule

namespace {
LabConfig checked(const LabConfig& c) {
  c.check();
  return c;
}
constexpr std::uint64_t kTrainStream = 0x7452000000ULL, kLengthStream = 0x4c454e0000ULL,
                        kEvalStream = 0x4556000000ULL;
constexpr double kBeta1 = 0.9, kBeta2 = 0.99, kEps = 1e-8;
constexpr int kEvalChunk = 32;  // evaluation sequences per forward pass (bounds the attention memory)
}  // namespace

LabRun::LabRun(const LabConfig& config) : config_(checked(config)), model_(config_.shape(), config_.seed) {
  if (config_.task == Task::lm) {
    language_ = make_markov_language(config_.lm_vocab, config_.lm_order, config_.lm_sharpness, config_.task_seed);
    eval_sequences_ = sample_markov(language_, config_.eval_samples, config_.eval_length + 1, config_.task_seed,
                                    kEvalStream);
  } else {
    copy_.reverse = config_.task == Task::reverse;
    copy_.alphabet = model_.shape().vocab - 1;
    copy_.distinct = config_.copy_distinct;
  }
  m_.assign(static_cast<std::size_t>(model_.parameter_count()), 0.0f);
  v_.assign(m_.size(), 0.0f);
}

double LabRun::learning_rate_at(int step) const {
  const double peak = config_.learning_rate, low = peak * config_.min_lr_fraction;
  const int warmup = std::min(config_.warmup_steps, config_.steps / 10);  // at most a tenth of the run
  if (step < warmup) return peak * (step + 1) / warmup;  // linear warm-up
  const int span = std::max(1, config_.steps - warmup);
  const double progress = std::min(1.0, static_cast<double>(step - warmup) / span);
  return low + 0.5 * (peak - low) * (1 + std::cos(std::numbers::pi * progress));  // cosine to low
}

Batch LabRun::training_batch(int step) const {
  const auto s = static_cast<std::uint64_t>(step);
  if (config_.task == Task::lm) {
    const std::vector<int> seqs =
        sample_markov(language_, config_.batch, config_.train_length + 1, config_.seed, kTrainStream + s);
    return lm_batch(seqs, config_.batch, config_.train_length);
  }
  // One input length n per step, uniform in 1..L, for every sequence of the
  // batch: a batch is as long as its longest row (2n tokens), so rows of
  // mixed lengths would spend about half of each step on padding that is
  // never scored (docs/LAB.md, "Choosing the sizes": the same model trains
  // ≈ 1.7× faster this way, and learns copy no worse).
  const double u = random_uniform(config_.seed, kLengthStream + s, 0);
  const int n = 1 + std::min(static_cast<int>(u * config_.train_length), config_.train_length - 1);
  return copy_batch(copy_, std::vector<int>(static_cast<std::size_t>(config_.batch), n), config_.seed, kTrainStream + s);
}

int LabRun::train(int steps) {
  int ran = 0;
  const std::span<float> params = model_.parameters(), grads = model_.gradients();
  while (ran < steps && !finished()) {
    const Batch batch = training_batch(step_);
    model_.zero_grad();
    const float loss = model_.forward(batch);
    model_.backward();
    if (config_.grad_clip > 0) {  // ‖g‖ ≤ clip, summed in a fixed order
      double norm2 = 0;
      for (float gi : grads) norm2 += static_cast<double>(gi) * gi;
      const double norm = std::sqrt(norm2);
      if (norm > config_.grad_clip) {
        const float scale = static_cast<float>(config_.grad_clip / norm);
        for (float& gi : grads) gi *= scale;
      }
    }
    adam_update(params.data(), grads.data(), m_.data(), v_.data(), static_cast<std::int64_t>(params.size()),
                learning_rate_at(step_), kBeta1, kBeta2, kEps, step_ + 1);
    losses_.push_back(loss);
    ++step_;
    ++ran;
  }
  return ran;
}

void LabRun::restore(std::span<const float> weights, std::vector<float> losses) {
  const std::span<float> params = model_.parameters();
  if (weights.size() != params.size() || losses.size() != static_cast<std::size_t>(config_.steps))
    throw std::invalid_argument("a trained model of " + std::to_string(weights.size()) + " weights and " +
                                std::to_string(losses.size()) + " steps is not this config's (" +
                                std::to_string(params.size()) + ", " + std::to_string(config_.steps) + ")");
  std::copy(weights.begin(), weights.end(), params.begin());
  losses_ = std::move(losses);
  step_ = config_.steps;
}

double LabRun::floor() const { return config_.task == Task::lm ? language_.entropy_rate : 1.0; }

int LabRun::untrained_positions_from() const {
  return config_.encoding == Encoding::learned ? config_.train_tokens() : -1;
}

// [SECTION] Evaluation (by length, with a context extension), attention maps

Batch LabRun::eval_batch(int length, int first, int count) const {
  if (config_.task == Task::lm) {
    const std::size_t row = static_cast<std::size_t>(config_.eval_length) + 1;
    const std::vector<int> part(eval_sequences_.begin() + static_cast<std::ptrdiff_t>(first * row),
                                eval_sequences_.begin() + static_cast<std::ptrdiff_t>((first + count) * row));
    std::vector<int> cut;  // the first `length` tokens (+ the next as target) of each
    for (int b = 0; b < count; ++b)
      cut.insert(cut.end(), part.begin() + static_cast<std::ptrdiff_t>(b * row),
                 part.begin() + static_cast<std::ptrdiff_t>(b * row + static_cast<std::size_t>(length) + 1));
    return lm_batch(cut, count, length);
  }
  // one stream per (length, chunk): the same inputs for every run of the task
  const std::uint64_t stream = kEvalStream + static_cast<std::uint64_t>(length) * 4096 + static_cast<std::uint64_t>(first);
  return copy_batch(copy_, std::vector<int>(static_cast<std::size_t>(count), length), config_.task_seed, stream);
}

void LabRun::apply_extension(Extension extension, double factor, int seq_len) {
  if (extension == Extension::none) return;
  ScalingConfig sc;
  sc.method = extension == Extension::pi    ? ScalingMethod::linear
              : extension == Extension::ntk ? ScalingMethod::ntk
              : extension == Extension::yarn ? ScalingMethod::yarn
                                             : ScalingMethod::dynamic;
  sc.d = model_.shape().head_size();
  sc.base = config_.rope_base;
  sc.factor = factor;
  sc.original_context = config_.train_tokens();
  sc.seq_len = seq_len;
  const ScalingTable table = rope_scaling_table(sc);
  model_.set_rope_frequencies(std::span<const double>(table.scaled_theta.data(), static_cast<std::size_t>(table.scaled_theta.size())),
                              table.attention_factor);
}

void LabRun::restore_rope() {
  if (config_.encoding != Encoding::rope) return;
  const Eigen::VectorXd theta = rope_inverse_frequencies(model_.shape().head_size(), config_.rope_base);
  model_.set_rope_frequencies(std::span<const double>(theta.data(), static_cast<std::size_t>(theta.size())), 1.0);
}

namespace {
/// The default s: the evaluated length over the trained one.
double default_factor(const LabConfig& c) { return static_cast<double>(c.eval_tokens()) / c.train_tokens(); }

void check_extension(const LabConfig& c, Extension extension, double factor) {
  if (extension != Extension::none && c.encoding != Encoding::rope)
    throw InvalidParameter("extension", extension_name(extension),
                           "context extension rescales RoPE's frequencies: it needs encoding = rope (this run: " +
                               std::string(encoding_name(c.encoding)) + ")",
                           Reason{"lab_extension_needs_rope", {{"encoding", encoding_name(c.encoding)}}, {}});
  if (extension != Extension::none) check_real("factor", factor);
}
}  // namespace

LabEvaluation LabRun::evaluate(Extension extension, double factor) {
  if (factor <= 0) factor = extension == Extension::none ? 1.0 : default_factor(config_);
  check_extension(config_, extension, factor);
  LabEvaluation e;
  e.task = config_.task;
  e.extension = extension;
  e.factor = extension == Extension::none ? 1.0 : factor;
  const int M = config_.eval_length, E = config_.eval_samples, V = model_.shape().vocab;
  if (config_.task == Task::lm) {
    e.metric = LabEvaluation::Metric::loss;
    std::vector<double> sum(static_cast<std::size_t>(M), 0.0), truth(static_cast<std::size_t>(M), 0.0);
    apply_extension(extension, factor, M);
    for (int first = 0; first < E; first += kEvalChunk) {
      const int count = std::min(kEvalChunk, E - first);
      const Batch batch = eval_batch(M, first, count);
      model_.forward(batch);
      const std::span<const float> losses = model_.token_losses();
      const std::size_t row = static_cast<std::size_t>(M) + 1;
      for (int b = 0; b < count; ++b) {
        const int* seq = &eval_sequences_[static_cast<std::size_t>(first + b) * row];
        for (int t = 0; t < M; ++t) {
          sum[static_cast<std::size_t>(t)] += losses[static_cast<std::size_t>(b) * static_cast<std::size_t>(M) + static_cast<std::size_t>(t)];
          truth[static_cast<std::size_t>(t)] += language_.true_loss(seq, t);
        }
      }
    }
    restore_rope();
    for (int t = 0; t < M; ++t) {
      e.lengths.push_back(t + 1);
      e.values.push_back(sum[static_cast<std::size_t>(t)] / E);
      e.sample_floor.push_back(truth[static_cast<std::size_t>(t)] / E);
      e.floor.push_back(language_.floor_at(t));
    }
  } else {
    e.metric = LabEvaluation::Metric::accuracy;
    for (int n = 1; n <= M; ++n) {
      apply_extension(extension, factor, 2 * n);
      int exact = 0;
      for (int first = 0; first < E; first += kEvalChunk) {
        const int count = std::min(kEvalChunk, E - first);
        const Batch batch = eval_batch(n, first, count);
        model_.forward(batch);
        const std::span<const float> probs = model_.probabilities();
        for (int b = 0; b < count; ++b) {
          bool all = true;
          for (int t = n; t < 2 * n && all; ++t) {  // the answers: argmax = target at every one
            const std::size_t i = static_cast<std::size_t>(b) * static_cast<std::size_t>(batch.T) + static_cast<std::size_t>(t);
            const float* p = &probs[i * static_cast<std::size_t>(V)];
            all = static_cast<int>(std::max_element(p, p + V) - p) == batch.targets[i];
          }
          exact += all;
        }
      }
      e.lengths.push_back(n);
      e.values.push_back(static_cast<double>(exact) / E);
      e.floor.push_back(1.0);
    }
    restore_rope();
  }
  const int L = config_.train_length;
  for (int i = 0; i < L; ++i) {
    e.trained_value += e.values[static_cast<std::size_t>(i)] / L;
    e.trained_floor += e.floor[static_cast<std::size_t>(i)] / L;
  }
  e.reached_floor = config_.task == Task::lm ? e.trained_value <= 1.05 * e.trained_floor : e.trained_value >= 0.95;
  return e;
}

AttentionMap LabRun::attention_map(int layer, int head, int length, Extension extension, double factor) {
  check_integer_in("layer", layer, 0, config_.layers - 1);
  check_integer_in("head", head, 0, config_.heads - 1);
  check_integer_in("length", length, 1, config_.eval_length);
  if (factor <= 0) factor = extension == Extension::none ? 1.0 : default_factor(config_);
  check_extension(config_, extension, factor);
  const Batch batch = eval_batch(length, 0, 1);
  apply_extension(extension, factor, batch.T);
  model_.forward(batch);
  restore_rope();
  AttentionMap map;
  map.layer = layer;
  map.head = head;
  map.length = length;
  map.tokens = batch.tokens;
  const int T = batch.T;
  map.weights.resize(T, T);
  const std::span<const float> att = model_.attention(layer);
  for (int i = 0; i < T; ++i)
    for (int j = 0; j < T; ++j)
      map.weights(i, j) = att[(static_cast<std::size_t>(head) * static_cast<std::size_t>(T) + static_cast<std::size_t>(i)) *
                                  static_cast<std::size_t>(T) + static_cast<std::size_t>(j)];
  return map;
}

}  // namespace poslab::core::lab
