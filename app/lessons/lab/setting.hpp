#pragma once
// The "lab" lesson's parameters as core's lab reads them, written once for its
// figures, tables and screen: what to train (the plan), and the store of
// trained models that every figure reads (training is a pure function of its
// config, docs/LAB.md, so a model trained once for one figure serves all).
//
// Who trains: exports, tests and screenshots call trained_all() (it trains
// the missing models on every core, then returns); the window's screen trains
// them on its workers (or, in the browser, in slices between frames) and
// put()s each finished one here, so its figures find them and never wait.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/plot/figure.hpp"
#include "poslab/core/lab/lab.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::lab_lesson {

namespace cl = core::lab;

/// What the lesson trains at the current parameters: one model per encoding
/// (all six) and seed 1..seeds, at the lab's defaults for the task with
/// `steps` Adam steps.
struct Plan {
  cl::Task task = cl::Task::lm;
  int seeds = 2;
  int steps = 1500;
  bool train = false;  ///< lab_train: train, or only show the axes to predict on
  std::vector<cl::Encoding> encodings;

  /// The config of one model of the plan.
  cl::LabConfig config(cl::Encoding encoding, int seed) const;
  /// The config shared by the plan's models (encoding rope, seed 1).
  cl::LabConfig base() const { return config(cl::Encoding::rope, 1); }
  /// Every model of the plan, by encoding then seed.
  std::vector<cl::LabConfig> configs() const;
  bool operator==(const Plan&) const = default;
};
/// Reads lab_task, lab_seeds, lab_steps and lab_train.
Plan plan(const core::Params& p);

/// A trained model and what the lesson reads of it. Thread-safe (the
/// figures read it on the build worker while the screen reads it too).
class Trained {
 public:
  /// `run` has finished training.
  explicit Trained(std::unique_ptr<cl::LabRun> run);
  /// … with readings already computed (evaluation() returns them, computes no other).
  Trained(std::unique_ptr<cl::LabRun> run, std::vector<cl::LabEvaluation> readings);
  const cl::LabConfig& config() const { return config_; }
  const std::vector<float>& losses() const { return losses_; }
  double floor() const { return floor_; }
  int untrained_positions_from() const { return untrained_from_; }
  long long parameter_count() const { return params_; }
  /// The metric at every length, read with `extension` at factor s
  /// (remembered: the same reading is computed once).
  cl::LabEvaluation evaluation(cl::Extension extension = cl::Extension::none, double s = 1) const;
  /// One head's attention on the first evaluation input of `length`.
  cl::AttentionMap attention(int layer, int head, int length) const;
  /// The readings computed so far (evaluation()'s memory).
  std::vector<cl::LabEvaluation> readings() const;
  /// Whether finish() at `s` would compute nothing: the reading without
  /// extension and, for RoPE, each of kExtensions at `s` are remembered.
  bool read_as_finished(double s) const;
  /// The weights, as the model holds them.
  std::vector<float> weights() const;
  /// The run as LabRun::save writes it (what the model folder keeps).
  std::string saved() const;

 private:
  cl::LabConfig config_;
  std::vector<float> losses_;
  double floor_ = 0;
  int untrained_from_ = -1;
  long long params_ = 0;
  mutable std::mutex mutex_;
  std::unique_ptr<cl::LabRun> run_;  // guarded: evaluation runs forward passes on it
  mutable std::vector<cl::LabEvaluation> readings_;
};

using TrainedPtr = std::shared_ptr<const Trained>;

/// Whether two configs of the lesson are the same model (task, encoding,
/// seed and steps: every other field comes from default_lab_config(task)).
bool same_model(const cl::LabConfig& a, const cl::LabConfig& b);

/// The model of `config` if it was trained in this process (and is still
/// remembered: the last few dozen), else null.
TrainedPtr find(const cl::LabConfig& config);
/// Remembers a model that finished training (replacing one of the same config).
void put(const TrainedPtr& model);
/// Reads `run` (finished) as the lesson does: the evaluation without
/// extension and, for RoPE, with each of kExtensions at `s` — so that its
/// figures find them — then remembers it and keeps its readings in the
/// model folder (keep_readings). Returns it.
TrainedPtr finish(std::unique_ptr<cl::LabRun> run, double s);
/// A model trained in another instance of the program — the page's Web
/// Worker (app/ui/worker_jobs.hpp, job "lab_model") — crosses as bytes
/// (magic "PLT1"): its config's task, encoding, seed and steps, its loss per
/// step, its weights and its readings, every number as its IEEE bits. The
/// page rebuilds the run from the config (LabRun::restore), so it is the
/// worker's model bit for bit and the figures read it as one trained here.
std::string encode_trained(const Trained& model);
/// Raises std::runtime_error on bytes that are not one, InvalidParameter on a
/// config this build refuses, std::invalid_argument on sizes that do not fit.
TrainedPtr decode_trained(std::string_view bytes);
/// A "lab_model" job's request: the model of the lesson (task, encoding,
/// seed, steps: Plan::config) and the factor s its RoPE readings use
/// (finish()), as JSON; with `kept` (LabRun::save's bytes of that model,
/// from the page's model folder) after a NUL byte, the worker restores them
/// instead of training and only reads the model.
std::string model_request(const cl::LabConfig& config, double s, std::string_view kept = {});
/// Splits a "lab_model" request into its JSON and its kept bytes (empty when none).
std::pair<std::string_view, std::string_view> split_model_request(std::string_view request);

/// The training loss of every step so far as text ("2.7731 2.7702 …", five
/// significant digits: for drawing), and back (raises std::runtime_error on
/// text that is not numbers). How the page's worker shows its progress.
std::string losses_note(const std::vector<float>& losses);
std::vector<float> parse_losses_note(std::string_view note);

/// How many of the plan's models are remembered.
int trained_count(const Plan& plan);
/// Every model of the plan (configs() order), training the missing ones now,
/// on every core (one thread in the browser). For exports, tests and
/// screenshots: it returns when all are trained.
/// (RoPE models are also read with kExtensions at `s`, see finish().)
std::vector<TrainedPtr> trained_all(const Plan& plan, double s);

// ---- Models kept between sessions
//
// A model is a pure function of its config on one build, so one trained
// while a lecturer prepares a deck is the model the lecture would train: the
// window keeps every finished model in its config folder ("lab-models", one
// file per model, LabRun::save) and looks there before training, so pressing
// Train in the lecture shows the rehearsed result at once. A file of another
// build or config, or a damaged one, is never read as this model: it is
// trained again and the file replaced.

/// The folder finished models are kept in; empty (the default) keeps none.
/// The window sets <config folder>/lab-models while it holds the folder.
void set_model_folder(const std::filesystem::path& dir);
std::filesystem::path model_folder();
/// The finished run of `config` kept in the model folder, or null (no folder,
/// no file, or a file refused by LabRun::restore).
std::unique_ptr<cl::LabRun> load_kept(const cl::LabConfig& config);
/// Whether the model folder holds `config`'s model from this build (reads
/// the file's header only, not its weights: cheap enough for a frame).
bool is_kept(const cl::LabConfig& config);
/// Keeps a finished run in the model folder (atomically), then removes the
/// oldest files past kKeptModels. A failure to write is ignored: it is a
/// cache, and the model is in memory. In the browser the folder is in
/// memory, filled from the page's IndexedDB before main; each file kept is
/// handed to the page (web/page.js), which stores it there.
void keep(const cl::LabRun& run);
/// … a model that came back from the page's worker.
void keep(const Trained& model);
/// Keeps what the lesson read of `model` (its readings, Trained::readings)
/// beside its run in the model folder ("<name>.readings": the run's header,
/// then the readings, every number as its IEEE bits, then a checksum), so a
/// kept model is shown again without reading it again — seconds in the
/// browser. finish() calls it; nothing without a folder.
void keep_readings(const Trained& model);
/// The kept model of `config` with its kept readings, when the folder holds
/// both from this build, undamaged, and they hold what finish() at `s` reads
/// (Trained::read_as_finished); else null (the run is then read again).
TrainedPtr load_kept_read(const cl::LabConfig& config, double s);
/// The most models the folder keeps (one lesson's plan is at most 6 × 5).
inline constexpr int kKeptModels = 64;
/// A new run of `config`: the kept one when there is one, else untrained.
std::unique_ptr<cl::LabRun> start_run(const cl::LabConfig& config);

/// An encoding's colour in every figure of the lesson (Okabe–Ito hues).
fig::Color encoding_colour(cl::Encoding e);

/// The extensions the lesson applies to the trained RoPE model, in the order drawn.
inline constexpr cl::Extension kExtensions[] = {cl::Extension::none, cl::Extension::pi, cl::Extension::ntk,
                                                cl::Extension::yarn};

}  // namespace poslab::app::lab_lesson
