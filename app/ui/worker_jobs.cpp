#include "app/ui/worker_jobs.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "app/lessons/lab/setting.hpp"
#include "app/lessons/lesson.hpp"
#include "app/ui/remote_builds.hpp"
#include "poslab/core/lab/lab.hpp"

namespace poslab::app::ui {

namespace {

/// A figure or the readouts: one slice (a build cannot be split).
class BuildJob final : public WorkerJob {
 public:
  BuildJob(std::string request, std::filesystem::path assets) : request_(std::move(request)), assets_(std::move(assets)) {}
  bool step(double) override {
    reply_ = serve_build_request(request_, assets_);
    return true;
  }
  JobProgress progress() const override { return {reply_.empty() ? 0.0 : 1.0, 1.0, {}}; }
  std::string reply() override { return std::move(reply_); }

 private:
  std::string request_;
  std::filesystem::path assets_;
  std::string reply_;
};

/// One model of the lab trained (core/lab/lab.hpp), a few steps per slice,
/// then evaluated at every length.
class LabJob final : public WorkerJob {
 public:
  explicit LabJob(std::string_view request) : config_(lab_config_from_json(request)) {
    const nlohmann::json j = nlohmann::json::parse(request);
    if (j.contains("extension")) extension_ = core::lab::parse_extension(j.at("extension").get<std::string>());
    factor_ = j.value("factor", 0.0);
  }
  bool step(double budget_ms) override {
    if (!run_) run_.emplace(config_);  // checks the config (InvalidParameter names the key)
    const auto t0 = std::chrono::steady_clock::now();
    // Whole steps until the budget is spent (at least one per slice).
    do {
      if (run_->train(1) == 0) break;
    } while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() < budget_ms);
    if (!run_->finished()) return false;
    evaluation_ = run_->evaluate(extension_, factor_);
    return true;
  }
  JobProgress progress() const override {
    return {run_ ? static_cast<double>(run_->step()) : 0.0, static_cast<double>(config_.steps), {}};
  }
  std::string reply() override {
    const core::lab::LabEvaluation& e = *evaluation_;
    nlohmann::ordered_json out = {
        {"task", core::lab::task_name(config_.task)},
        {"encoding", core::lab::encoding_name(config_.encoding)},
        {"seed", config_.seed},
        {"steps", run_->step()},
        {"params", run_->parameter_count()},
        {"loss", run_->loss_history()},
        {"extension", core::lab::extension_name(e.extension)},
        {"factor", e.factor},
        {"metric", e.metric == core::lab::LabEvaluation::Metric::loss ? "loss" : "accuracy"},
        {"lengths", e.lengths},
        {"values", e.values},
        {"floor", e.floor},
        {"trained_value", e.trained_value},
        {"trained_floor", e.trained_floor},
        {"reached_floor", e.reached_floor}};
    return out.dump();
  }

 private:
  core::lab::LabConfig config_;
  core::lab::Extension extension_ = core::lab::Extension::none;
  double factor_ = 0;
  std::optional<core::lab::LabRun> run_;
  std::optional<core::lab::LabEvaluation> evaluation_;
};

/// One model of the lab lesson, trained as LabJob trains, then read as the
/// lesson reads it and sent back whole (lab_lesson::encode_trained). A
/// request with the model's saved bytes (the page kept it) restores them
/// instead of training; bytes LabRun::restore refuses are ignored (trained).
class ModelJob final : public WorkerJob {
 public:
  explicit ModelJob(std::string_view request)
      : config_(lab_config_from_json(lab_lesson::split_model_request(request).first)),
        kept_(lab_lesson::split_model_request(request).second) {
    s_ = nlohmann::json::parse(lab_lesson::split_model_request(request).first).value("s", 4.0);
  }
  bool step(double budget_ms) override {
    if (!run_) {
      run_ = std::make_unique<core::lab::LabRun>(config_);
      if (!kept_.empty() && !run_->restore(kept_)) run_ = std::make_unique<core::lab::LabRun>(config_);
      kept_.clear();
    }
    const auto t0 = std::chrono::steady_clock::now();
    do {
      if (run_->train(1) == 0) break;
    } while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() < budget_ms);
    steps_ = run_->step();
    note_ = lab_lesson::losses_note(run_->loss_history());
    if (!run_->finished()) return false;
    model_ = lab_lesson::finish(std::move(run_), s_);
    return true;
  }
  JobProgress progress() const override { return {static_cast<double>(steps_), static_cast<double>(config_.steps), note_}; }
  std::string reply() override { return lab_lesson::encode_trained(*model_); }

 private:
  core::lab::LabConfig config_;
  std::string kept_;
  double s_ = 4;
  int steps_ = 0;
  std::string note_;
  std::unique_ptr<core::lab::LabRun> run_;
  lab_lesson::TrainedPtr model_;
};

/// A figure worker warming up (the page asks each once it is up, web/page.js;
/// web/worker.js runs it only while no other job waits): every lesson's
/// figures and readouts but the lab's, built through the same path as the
/// page's requests, `rounds` times at the defaults and `large_rounds` times
/// at larger sizes, a few per slice. Why: V8 first runs a module's functions
/// as baseline code (Liftoff) and optimizes a function once it has run enough, compiling it on
/// background threads meanwhile; cold, the first seconds of dragging a slider
/// at the largest sizes trailed the desktop 5–18× (ALiBi's heads 205–320 ms
/// against 17), warm 1.1–1.7× (docs/PERFORMANCE.md, "The wasm cold"). Warming
/// moves that compilation to the seconds after the page opens, while the
/// reader reads. Not the lab: its figures read the models the page keeps.
/// Request: JSON, all optional: "rounds" at the defaults (1–8, default 2),
/// "large_rounds" at the larger sizes (0–8, default 1), "sizes" ([[key,
/// value], …]: the larger setting), "min_ms" and "max_repeats" (each build
/// made again until its builds took min_ms together, at most max_repeats
/// times: V8 optimizes by how long a function has run, so a quick figure
/// needs many builds where a slow one needs one; default 0 and 1: once),
/// "lang", "width" and "height" (points), "hand_back" (take_part: the first
/// round's replies and the first larger round's up to 1 MB, each build's
/// first). Reply: JSON {"builds": n (each counted once), "failed": how many
/// answered with an error, "slowest_ms": the longest build, which a figure
/// asked for meanwhile may wait for, "slowest": its "view/figure",
/// "handed_back": how many replies take_part gave, "repeated": the builds
/// made again}.
class WarmJob final : public WorkerJob {
 public:
  WarmJob(std::string_view request, std::filesystem::path assets) : assets_(std::move(assets)) {
    const nlohmann::json j = request.empty() ? nlohmann::json::object() : nlohmann::json::parse(request);
    const int rounds = std::clamp(j.value("rounds", 2), 1, 8);
    const int large_rounds = std::clamp(j.value("large_rounds", 1), 0, 8);
    hand_back_ = j.value("hand_back", false);
    min_ms_ = std::clamp(j.value("min_ms", 0.0), 0.0, 1000.0);
    max_repeats_ = std::clamp(j.value("max_repeats", 1), 1, 256);
    BuildRequest q;
    q.lang = j.value("lang", std::string("en"));
    q.width = std::clamp(j.value("width", 640), 64, 4096);
    q.height = std::clamp(j.value("height", 400), 64, 4096);
    // Each lesson at its defaults `rounds` times, then `large_rounds` times
    // at larger sizes (its loops run longer, and the code for large sizes
    // runs at all), each assignment only where the lesson takes it.
    std::vector<std::pair<std::string, std::string>> sizes = {
        {"d", "1024"}, {"positions", "65536"}, {"pos", "0:65535"}, {"distance", "0:65535"}, {"heads", "256"},
        {"buckets", "256"}, {"relative", "-32768:32767"}, {"max_length", "65536"}, {"window", "65536"},
        {"samples", "1000"}, {"factor", "64"}};
    if (j.contains("sizes")) sizes = j.at("sizes").get<std::vector<std::pair<std::string, std::string>>>();
    for (int r = 0; r < rounds + large_rounds; ++r)
      for (const ViewDef& v : view_defs()) {
        if (v.id == "lab") continue;
        q.view = std::string(v.id);
        q.params = core::Params();
        if (r >= rounds) {
          if (sizes.empty()) break;
          for (const auto& [key, text] : sizes) {
            core::Params p = q.params;
            try {
              p.set_text(key, text);
              (void)resolve_view_params(v, p);  // refused by this lesson: left out
              q.params = std::move(p);
            } catch (const std::exception&) {
            }
          }
        }
        q.kind = BuildRequest::Kind::figure;
        for (const FigureDef& f : v.figures) {
          q.figure = std::string(f.id);
          builds_.push_back({q.view + "/" + q.figure, false, r == 0 || r == rounds, encode_request(q)});
        }
        if (v.readouts) {
          q.kind = BuildRequest::Kind::readouts;
          q.figure.clear();
          builds_.push_back({q.view + "/#readouts", true, r == 0 || r == rounds, encode_request(q)});
        }
      }
  }
  bool step(double budget_ms) override {
    const auto t0 = std::chrono::steady_clock::now();
    while (next_ < builds_.size()) {
      const Build& b = builds_[next_];
      const bool first = times_ == 0;
      const std::string reply = serve_build_request(b.request, assets_);
      // The reply's own time and error, as the page reads them.
      double ms = 0;
      bool failed = false;
      if (b.readouts) {
        const ReadoutsReply r = decode_readouts_reply(reply);
        ms = r.ms, failed = !r.result.error.empty();
      } else {
        const FigureReply r = decode_figure_reply(reply);
        ms = r.ms, failed = !r.result.error.empty();
      }
      failed_ += failed;
      if (ms > slowest_ms_) slowest_ms_ = ms, slowest_ = b.name;
      // Built again until its builds took min_ms together (at most
      // max_repeats times): V8 optimizes a function once it has run long
      // enough, so a figure that builds in a fraction of a millisecond needs
      // many builds where a slow one needs one.
      spent_ms_ += ms;
      if (!failed && ++times_ < max_repeats_ && spent_ms_ < min_ms_)
        ++repeated_;
      else
        ++next_, times_ = 0, spent_ms_ = 0;
      if (hand_back_ && b.hand_back && first && !failed && reply.size() <= kHandBackMaxBytes) {
        part_.reserve(reply.size() + 1);
        part_.assign(1, b.readouts ? 'r' : 'f');
        part_ += reply;
        ++handed_back_;
        break;  // one piece a step
      }
      if (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() >= budget_ms) break;
    }
    return next_ >= builds_.size();
  }
  JobProgress progress() const override {
    return {static_cast<double>(next_), static_cast<double>(builds_.size()), {}};
  }
  std::string reply() override {
    return nlohmann::json{{"builds", next_},
                          {"failed", failed_},
                          {"slowest_ms", slowest_ms_},
                          {"slowest", slowest_},
                          {"handed_back", handed_back_},
                          {"repeated", repeated_}}
        .dump();
  }
  std::string take_part() override { return std::exchange(part_, {}); }

 private:
  struct Build {
    std::string name;  ///< "view/figure" or "view/#readouts"
    bool readouts = false;
    bool hand_back = false;  ///< the first round's, or the first larger round's
    std::string request;     ///< encode_request's bytes
  };
  // A reply larger than this is not handed back (the page's thread would
  // copy and lay out megabytes to warm code a smaller one warms as well).
  static constexpr std::size_t kHandBackMaxBytes = 1 << 20;
  bool hand_back_ = false;
  double min_ms_ = 0;    ///< each build repeated until its builds took this long together
  int max_repeats_ = 1;  ///< or this many builds
  int times_ = 0;        ///< builds of builds_[next_] so far
  double spent_ms_ = 0;  ///< and their time
  int repeated_ = 0;     ///< builds beyond each one's first
  std::string part_;
  int handed_back_ = 0;
  std::filesystem::path assets_;
  std::vector<Build> builds_;
  std::size_t next_ = 0;
  int failed_ = 0;
  double slowest_ms_ = 0;  ///< the longest build: what a figure asked for meanwhile may wait
  std::string slowest_;    ///< its "view/figure"
};

JobRunner*& runner_slot() {
  static JobRunner* runner = nullptr;
  return runner;
}

}  // namespace

JobRunner* job_runner() { return runner_slot(); }
void set_job_runner(JobRunner* runner) { runner_slot() = runner; }

core::lab::LabConfig lab_config_from_json(std::string_view request) {
  const nlohmann::json j = nlohmann::json::parse(request);  // raises on text that is not JSON
  core::lab::LabConfig c = core::lab::default_lab_config(core::lab::parse_task(j.value("task", std::string("lm"))));
  if (j.contains("encoding")) c.encoding = core::lab::parse_encoding(j.at("encoding").get<std::string>());
  auto number = [&](const char* key, auto& field) {
    if (j.contains(key)) field = j.at(key).get<std::decay_t<decltype(field)>>();
  };
  number("seed", c.seed);
  number("task_seed", c.task_seed);
  number("steps", c.steps);
  number("layers", c.layers);
  number("width", c.width);
  number("heads", c.heads);
  number("train_length", c.train_length);
  number("eval_length", c.eval_length);
  number("batch", c.batch);
  number("eval_samples", c.eval_samples);
  number("rope_base", c.rope_base);
  number("learning_rate", c.learning_rate);
  c.check();  // InvalidParameter naming the first key out of range
  return c;
}

WorkerJobs::WorkerJobs(std::filesystem::path assets) {
  add("build", [assets](std::string_view request) { return std::make_unique<BuildJob>(std::string(request), assets); });
  add("warm", [assets](std::string_view request) { return std::make_unique<WarmJob>(request, assets); });
  add("lab", [](std::string_view request) { return std::make_unique<LabJob>(request); });
  add("lab_model", [](std::string_view request) { return std::make_unique<ModelJob>(request); });
}

void WorkerJobs::add(std::string kind, Factory factory) { kinds_[std::move(kind)] = std::move(factory); }

std::unique_ptr<WorkerJob> WorkerJobs::start(std::string_view kind, std::string_view request) const {
  const auto it = kinds_.find(kind);
  if (it == kinds_.end()) throw std::invalid_argument("the page's worker knows no job \"" + std::string(kind) + "\"");
  return it->second(request);
}

}  // namespace poslab::app::ui
