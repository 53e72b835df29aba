#pragma once
// "Train short, test long": the length-generalisation lab (issue #26).
// Trains the tiny Transformer of lab/model.hpp with one position encoding on
// one task at length L, then evaluates it at every length up to M > L, so a
// student sees which encodings survive lengths they never saw.
//
// How to drive a run (a UI trains in slices between frames or on a worker
// thread and can stop between two slices; the CLI trains in one go):
//
//   using namespace poslab::core::lab;
//   LabConfig config = default_lab_config(Task::lm);   // the defaults of the lab
//   config.encoding = Encoding::alibi;
//   config.seed = 2;
//   LabRun run(config);                 // checks the config (InvalidParameter), builds model and data
//   while (!run.finished()) {
//     run.train(25);                    // 25 steps (a few ms each at the defaults)
//     draw_loss_curve(run.loss_history());   // one training loss per step so far
//   }
//   LabEvaluation e = run.evaluate();   // loss by position 1..M (lm) or accuracy by length 1..M (copy)
//   LabEvaluation pi = run.evaluate(Extension::pi, 4.0);   // the RoPE model read with PI, s = 4
//   AttentionMap map = run.attention_map(0, 0, 3 * config.train_length);
//
// Determinism: a run is a pure function of its config. Two runs with the same
// config give bit-identical weights, losses and evaluations on the same build
// (one thread per run, a fixed order of every sum). Runs are independent:
// train several on several threads (one LabRun per thread).
// A LabRun is not thread-safe: call it from one thread at a time.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Dense>

#include "poslab/core/lab/model.hpp"
#include "poslab/core/lab/tasks.hpp"

namespace poslab::core::lab {

enum class Task { lm, copy, reverse };
Task parse_task(std::string_view word);  ///< raises InvalidParameter("task", …)
const char* task_name(Task task);

/// Context extension applied to a trained RoPE model at evaluation, with
/// core/scaling.hpp's functions (lesson 11's): pi = linear (Chen et al. 2023),
/// ntk = NTK-aware, yarn = YaRN with its attention factor, dynamic = dynamic NTK.
enum class Extension { none, pi, ntk, yarn, dynamic };
Extension parse_extension(std::string_view word);  ///< raises InvalidParameter("extension", …)
const char* extension_name(Extension extension);

struct LabConfig {
  Task task = Task::lm;
  Encoding encoding = Encoding::rope;
  PairLayout rope_layout = PairLayout::half;
  double rope_base = 10000;
  int layers = 2, width = 32, heads = 4;
  /// L: lm — the training sequence length in tokens; copy/reverse — the longest
  /// input length n trained on (n is drawn from 1..L; a sequence holds 2n tokens).
  int train_length = 32;
  /// M: the longest evaluated position (lm) or input length (copy), L..8·L.
  int eval_length = 128;
  int batch = 32;
  int steps = 1500;
  double learning_rate = 1e-2;  ///< Adam's peak rate: linear warm-up, cosine decay to min_lr_fraction of it
  int warmup_steps = 50;  ///< capped at steps/10
  double min_lr_fraction = 0.1;
  double grad_clip = 1.0;  ///< the global gradient norm is clipped to this
  std::uint64_t seed = 1;       ///< the run: initial weights and training batches
  std::uint64_t task_seed = 1;  ///< the task: the language and the evaluation set (shared by every run)
  int eval_samples = 256;       ///< lm: evaluation sequences; copy/reverse: sequences per length
  // the language (task lm)
  int lm_vocab = 16, lm_order = 2;
  double lm_sharpness = 2.0;
  // copy / reverse
  int copy_alphabet = 0;  ///< 0: max(16, eval_length) (enough distinct symbols for the longest input)
  bool copy_distinct = true;
  int t5_buckets = 32, t5_max_distance = 128;

  /// The model this config trains (vocab and max_positions from the task).
  ModelShape shape() const;
  /// Every field against its range; raises InvalidParameter naming the first.
  void check() const;
  /// The longest sequence in tokens the evaluation feeds (lm: M; copy: 2M).
  int eval_tokens() const;
  /// The longest sequence in tokens training feeds (lm: L; copy: 2L).
  int train_tokens() const;
};

/// The lab's defaults for `task` (sizes, steps and rates chosen so the
/// encodings reach the floor at the trained lengths within about 10 s of one
/// core per model; docs/LAB.md says which do and which do not).
LabConfig default_lab_config(Task task);

/// Multiply-adds of one training step ×2 (forward + backward), counting the
/// matrix products only (linear layers, attention's q·kᵀ and a·v) — the FLOP
/// count a GFLOP/s figure divides by. copy/reverse: the mean step (each step
/// draws its own input length).
double training_step_flops(const LabConfig& config);

struct LabEvaluation {
  Task task = Task::lm;
  Extension extension = Extension::none;
  double factor = 1;  ///< the extension's s (1 for none)
  enum class Metric { loss, accuracy } metric = Metric::loss;
  /// lm: the context length p + 1 of each prediction (1..M); copy/reverse: the input length n (1..M).
  std::vector<int> lengths;
  /// lm: mean cross-entropy (nats) at that position; copy: the fraction of sequences answered exactly.
  std::vector<double> values;
  /// lm: the exact best expected loss at that position (the entropy rate but for
  /// the first order − 1 positions); copy: 1.
  std::vector<double> floor;
  /// lm: the true chain's loss on the same evaluation tokens (the floor as
  /// sampled: values − sample_floor is the model's excess loss with less noise).
  std::vector<double> sample_floor;
  /// The mean of values over the trained lengths (≤ L), and of floor over them.
  double trained_value = 0, trained_floor = 0;
  /// lm: trained_value within 5 % of trained_floor; copy: trained_value ≥ 0.95.
  bool reached_floor = false;
};

/// One head's attention weights on one evaluation input: weights(i, j) = a_ij.
struct AttentionMap {
  int layer = 0, head = 0;
  int length = 0;           ///< in the task's unit (lm: tokens; copy: input length n)
  std::vector<int> tokens;  ///< the input (lm: `length` tokens; copy: 2n)
  Eigen::MatrixXf weights;  ///< tokens × tokens, lower triangular, rows sum to 1
};

/// Every field of `config`, one "name value" per line (doubles to 17 digits):
/// two configs train the same model exactly when their texts are equal.
std::string lab_config_text(const LabConfig& config);

/// This build's training code: poslab's version, a hash of core's sources
/// (POSLAB_CORE_SOURCE_HASH, from CMake), the compiler and its flags, and the
/// matrix path this CPU takes (gemm_path). Two runs of one config give
/// bit-identical weights when their builds have the same tag.
std::string lab_build_tag();

/// What LabRun::save writes before the numbers for `config` on this build
/// (format, build tag, config): a saved file of this model from this build
/// starts with exactly these bytes.
std::string lab_saved_header(const LabConfig& config);
/// FNV-1a 64 of lab_config_text(config): a name for the config's files.
std::uint64_t lab_config_hash(const LabConfig& config);
/// FNV-1a 64 of `bytes`: the checksum LabRun::save ends its bytes with
/// (catches a truncated or altered file, not an attacker).
std::uint64_t lab_checksum(std::string_view bytes);

class LabRun {
 public:
  /// Checks the config (InvalidParameter naming the key) and builds the
  /// model, the task and the evaluation set. Nothing is trained yet.
  explicit LabRun(const LabConfig& config);

  const LabConfig& config() const { return config_; }
  const Model<float>& model() const { return model_; }
  std::int64_t parameter_count() const { return model_.parameter_count(); }

  /// Trains up to `steps` more steps, never past config().steps; returns how
  /// many ran (0 once finished).
  int train(int steps);
  int step() const { return step_; }
  bool finished() const { return step_ >= config_.steps; }
  /// The training loss of every step so far (the loss of the batch before its update).
  const std::vector<float>& loss_history() const { return losses_; }
  /// Makes this run the finished one another process trained with the same
  /// config (the page's Web Worker): its weights (model().parameters() there)
  /// and its loss per step. Raises std::invalid_argument when the sizes are
  /// not this config's (parameter_count() weights, config().steps losses).
  /// Adam's moments are not carried: a restored run trains no further.
  void restore(std::span<const float> weights, std::vector<float> losses);
  /// Adam's learning rate at step `step` (0-based): warm-up, then cosine.
  double learning_rate_at(int step) const;
  /// The batch step `step` (0-based) trains on: lm — `batch` sequences of L
  /// tokens; copy/reverse — `batch` inputs of one length n, uniform in 1..L,
  /// drawn anew each step.
  Batch training_batch(int step) const;

  /// The task's floor: lm — the entropy rate (nats/token); copy/reverse — 1.
  double floor() const;
  /// The learned table's rows that no training sequence reached start here
  /// (train_tokens()); −1 when the encoding has no table. Those rows keep
  /// their initial values.
  int untrained_positions_from() const;

  /// The metric at every length 1..M. `factor` ≤ 0 means M/L (lm) or
  /// eval_tokens()/train_tokens() (copy). Extensions other than none need
  /// encoding rope (else InvalidParameter("extension", …)). Runs forward
  /// passes on the model (not const); the weights are unchanged.
  LabEvaluation evaluate(Extension extension = Extension::none, double factor = 0);
  /// The attention weights of (layer, head) on the first evaluation input of
  /// `length` (lm: its first `length` tokens; copy: input length n = length).
  AttentionMap attention_map(int layer, int head, int length, Extension extension = Extension::none,
                             double factor = 0);

  /// A finished run as bytes, so that it need not be trained again (a lecture
  /// shows a run trained while preparing it): a text header — the format, this
  /// build (lab_build_tag) and the config (lab_config_text) — then the step,
  /// the training losses and the weights as little-endian float32, then an
  /// FNV-1a checksum of everything before it. Raises std::logic_error when the
  /// run has not finished. Adam's moments are not kept: a finished run never
  /// trains again.
  std::string save() const;
  /// Makes this run, not yet trained (step 0), the run save() wrote: the same
  /// weights, losses and step, so every reading after it is bit-identical to
  /// the saved run's. Refuses — returns false, sets `why` and leaves the run
  /// as it was — bytes of another config, of another build (its weights
  /// could differ in the last bits), truncated or corrupt.
  bool restore(std::string_view bytes, std::string* why = nullptr);

 private:
  /// Evaluation inputs of one length (copy: n = length; lm: the whole set).
  Batch eval_batch(int length, int first, int count) const;
  void apply_extension(Extension extension, double factor, int seq_len);
  void restore_rope();

  LabConfig config_;
  Model<float> model_;
  MarkovLanguage language_;
  CopyTask copy_;
  std::vector<int> eval_sequences_;  ///< lm: eval_samples × (M + 1) symbols
  std::vector<float> m_, v_;         ///< Adam's moments
  std::vector<float> losses_;
  int step_ = 0;
};

}  // namespace poslab::core::lab
