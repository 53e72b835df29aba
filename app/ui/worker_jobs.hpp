#pragma once
// The jobs the page's Web Worker runs (web/worker.js, a second instance of
// poslab.wasm): figure and readout builds ("build") and training one of the
// lab's models ("lab"). A job is bytes in, bytes out; it
// runs in slices, so the worker can report progress and take a cancel
// between two of them:
//
//   auto job = jobs.start("build", request);   // raises on an unknown kind
//   while (!job->step(50)) report(job->progress());   // ~50 ms per slice
//   send(job->reply());
//
// Nothing here knows about browsers: the desktop could run the same jobs on
// a thread, and tests run them directly (tests/gui/test_background.cpp).
// The messages between the page and its worker are in web/worker.js.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "poslab/core/lab/lab.hpp"

namespace poslab::app::ui {

/// How far a job is: `done` of `total` (total 0: unknown), and a short note
/// ("epoch 3 of 10") in the user's language, or "".
struct JobProgress {
  double done = 0, total = 0;
  std::string note;
};

class WorkerJob {
 public:
  virtual ~WorkerJob() = default;
  /// Works for about `budget_ms` (a job that cannot split its work does it
  /// all in one step) and returns true once finished; reply() is then ready.
  /// An exception ends the job as failed (its what() goes to the page).
  virtual bool step(double budget_ms) = 0;
  virtual JobProgress progress() const { return {}; }
  /// The answer (after step returned true). Called once.
  virtual std::string reply() = 0;
  /// Bytes handed out before the end, after a step: one piece, or empty for
  /// none this step (worker.js posts each to the page as it comes). Only
  /// "warm" asked to hand its builds back has any.
  virtual std::string take_part() { return {}; }
};

/// The kinds of job a worker knows, by name.
class WorkerJobs {
 public:
  /// Makes the job of a kind for its request bytes (may raise on bad bytes).
  using Factory = std::function<std::unique_ptr<WorkerJob>(std::string_view request)>;

  /// Knows "build" (serve_build_request, app/ui/remote_builds.hpp) reading
  /// its texts from `assets`, and "lab": one model of the lab trained a few
  /// steps per slice (progress: steps done of steps), then evaluated at every
  /// length; request and reply as JSON (lab_config_from_json; the reply has
  /// task, encoding, seed, steps, params, loss per step, extension, factor,
  /// metric, lengths, values, floor, trained_value, trained_floor, reached_floor).
  /// And "lab_model": one model of the lab lesson trained as "lab" does,
  /// then read as the lesson reads it (lab_lesson::finish: also remembered
  /// here, for the figures this worker builds); request
  /// lab_lesson::model_request (with the model's kept bytes, restored
  /// instead of trained), reply lab_lesson::encode_trained's bytes;
  /// its progress note is the loss of every step so far, as text
  /// (lab_lesson::losses_note: the page draws the live loss curve from it).
  /// And "warm": every lesson's figures and readouts built at their defaults
  /// (the worker warming up, web/worker.js; request and reply JSON, see
  /// WarmJob in worker_jobs.cpp). With "hand_back": each reply of its first
  /// round and each of the larger sizes' up to 1 MB is also handed out
  /// (take_part: 'f' or 'r', then the reply's bytes), for the page's own
  /// thread to land and draw off screen (web/page.js, "warming up").
  explicit WorkerJobs(std::filesystem::path assets);
  /// Adds (or replaces) a kind, e.g. the lab's "train".
  void add(std::string kind, Factory factory);
  bool knows(std::string_view kind) const { return kinds_.count(kind) > 0; }
  /// The job of `kind` for `request`; raises std::invalid_argument for a
  /// kind it does not know.
  std::unique_ptr<WorkerJob> start(std::string_view kind, std::string_view request) const;

 private:
  std::map<std::string, Factory, std::less<>> kinds_;
};

/// Where the UI sends jobs to run elsewhere — the page's Web Worker
/// (app/platform/web/page_worker.hpp); tests install one of their own. The
/// callbacks run later on the UI thread, between frames, never from within
/// run() — but for `failed` when the runner is not ready.
class JobRunner {
 public:
  struct Callbacks {
    std::function<void(std::string_view reply)> done;
    std::function<void(const JobProgress&)> progress;  ///< may be empty
    std::function<void(std::string_view why)> failed;  ///< may be empty
  };
  virtual ~JobRunner() = default;
  /// Jobs sent now are run (false before the worker is up, and for good once it died).
  virtual bool ready() const = 0;
  /// Sends a job of `kind`; returns its id (never 0).
  virtual std::uint64_t run(std::string_view kind, std::string request, Callbacks callbacks) = 0;
  /// Nobody waits for job `id` any more: no callback of it runs from now on.
  virtual void cancel(std::uint64_t id) = 0;
};
/// The program's runner (null: none, everything runs here). The page sets
/// its worker at start; the lab's screen sends its models there.
JobRunner* job_runner();
void set_job_runner(JobRunner* runner);

/// A "lab" job's request: {"task": "lm"|"copy"|"reverse", "encoding": …,
/// "seed", "task_seed", "steps", "layers", "width", "heads", "train_length",
/// "eval_length", "batch", "eval_samples", "rope_base", "learning_rate",
/// "extension": "none"|"pi"|…, "factor"} — each optional over the task's
/// defaults (core::lab::default_lab_config). Raises on text that is not JSON,
/// InvalidParameter naming a key out of range.
core::lab::LabConfig lab_config_from_json(std::string_view request);

}  // namespace poslab::app::ui
