// The "lab" lesson's screen: the Train / Stop button, a progress bar and the
// live training loss while the models train, then the lesson's figures.
//
// Training never runs on the frame: in the desktop window each model trains
// on a BuildWorker of its own lane (app/ui/build_worker.hpp, the worker the
// figures use), a few steps at a time, checking its Ticket between steps — a
// change of what to train (task, seeds, steps, or Stop) cancels the models no
// longer asked for at their next slice. In the browser (no threads) each
// model is a "lab_model" job of the page's Web Workers (ui::job_runner(),
// app/ui/worker_jobs.hpp; web/page.js gives each worker one model at a
// time, one worker per core): it trains there and comes back whole, weights
// and readings (lab_lesson::encode_trained), its progress and live loss on
// the way; a model the page keeps (its IndexedDB) with its readings is shown
// at once, one a frame, no worker asked (lab_lesson::load_kept_read, as on the
// desktop); one kept without them goes with its bytes and is only read there.
// Stop cancels the jobs. Without a worker (not up within a
// few seconds, failed to start, died) the models train on the page in slices
// of about 20 ms per frame, a model whose job failed too. Screenshots and tests
// (figures built in place) train within the frame that asks, as an export
// does. A finished model goes into the lesson's store (setting.hpp), read by
// the figures, which are asked for only once every model is there.

#include <imgui.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "app/lessons/lab/setting.hpp"
#include "app/plot/figure_text.hpp"
#include "app/ui/build_worker.hpp"
#include "app/ui/lesson_ui.hpp"
#include "app/ui/ui_context.hpp"
#include "app/ui/worker_jobs.hpp"

#ifdef __EMSCRIPTEN__
extern "C" void poslab_js_lab_from_worker(int n, int kept, int read);  // app/platform/web/library_poslab.js
extern "C" int poslab_js_lab_workers();                      // (web/page.js: how many train at once)
#endif

namespace poslab::app::ui {

namespace {

namespace cl = core::lab;
using lab_lesson::Plan;
using lab_lesson::same_model;

// [SECTION] Training off the frame

/// One model being trained, shared by the frame and its worker.
struct Job : Ticket {
  cl::LabConfig config;
  double s = 4;  ///< the extension factor its RoPE readings are computed at
  std::mutex mutex;
  std::vector<float> losses;  ///< the training loss of every step so far (a copy, under mutex)
  std::atomic<int> step{0};
  std::unique_ptr<cl::LabRun> run;  ///< sliced mode: the run between frames
  bool kept = false;                ///< run came finished from the model folder (sent so to the worker)
  bool look_in_folder = true;       ///< not yet looked for with its readings (lab_lesson::load_kept_read)
  /// Where it trains (the frame's to read and write only): not yet decided,
  /// on a lane, in the page's worker (job `remote`), or on the page in slices.
  enum class Where { unplaced, lane, worker, page } where = Where::unplaced;
  bool worker_failed = false;  ///< its job failed in the worker: trained here
  std::uint64_t remote = 0;
};

/// Models that came back from the page's worker; models restored from the
/// model folder instead of trained, read again in the worker or shown with
/// their kept readings; and those of them shown with their kept readings,
/// no worker asked (the page shows the counts as its body's
/// data-lab-from-worker, data-lab-from-kept and data-lab-kept-read: the web
/// checks read them).
int g_models_from_worker = 0;
int g_models_from_kept = 0;
int g_models_kept_read = 0;

void report_counts() {
#ifdef __EMSCRIPTEN__
  poslab_js_lab_from_worker(g_models_from_worker, g_models_from_kept, g_models_kept_read);
#endif
}

/// Trains `job` a few steps at a time until it is finished or cancelled;
/// then reads it and puts it into the store.
void train_job(Job& job, const std::function<bool()>& go_on) {
  if (!job.run) {
    job.run = lab_lesson::start_run(job.config);  // kept from an earlier session: finished already
    job.kept = job.run->finished();
  }
  constexpr int kSlice = 5;  // steps between two looks at the ticket (about 50 ms at the defaults)
  while (!job.run->finished()) {
    if (job.cancelled.load() || !go_on()) return;
    job.run->train(kSlice);
    const std::lock_guard lock(job.mutex);
    job.losses = job.run->loss_history();
    job.step = job.run->step();
  }
  if (job.cancelled.load()) return;
  if (!job.kept) lab_lesson::keep(*job.run);
  lab_lesson::finish(std::move(job.run), job.s);
}

class Session {
 public:
  Session() {
    (void)lab_lesson::find(cl::default_lab_config(cl::Task::lm));  // the store outlives the session
#ifndef __EMSCRIPTEN__
    const unsigned lanes = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
    for (unsigned i = 0; i < lanes; ++i) {
      auto worker = std::make_unique<BuildWorker>(true);
      if (!worker->threaded()) break;
      lanes_.push_back(std::move(worker));
    }
#endif
  }
  ~Session() {
    for (const auto& job : jobs_) cancel(*job);  // running ones stop at their next slice
    lanes_.clear();
  }

  /// Trains what `plan` asks for and is not trained yet; cancels what it no
  /// longer asks for. Returns true when every model of the plan is trained.
  bool sync(const Plan& plan, double s) {
    const std::vector<cl::LabConfig> wanted = plan.train ? plan.configs() : std::vector<cl::LabConfig>{};
    // cancel and forget what is no longer wanted, and what has landed
    std::erase_if(jobs_, [&](const std::shared_ptr<Job>& job) {
      const bool want = std::any_of(wanted.begin(), wanted.end(), [&](const cl::LabConfig& c) { return same_model(c, job->config); });
      if (!want) cancel(*job);
      return !want || lab_lesson::find(job->config) != nullptr;
    });
    bool ready = true;
    for (const cl::LabConfig& c : wanted) {
      if (lab_lesson::find(c)) continue;
      ready = false;
      if (std::any_of(jobs_.begin(), jobs_.end(), [&](const auto& job) { return same_model(job->config, c); })) continue;
      auto job = std::make_shared<Job>();
      job->config = c;
      job->s = s;
      jobs_.push_back(job);
    }
    // Where each new one trains: the page's worker when it is up (a model
    // training on the page goes there too once the worker is up, unless it
    // is half done or failed there), else a lane, else slices on the page.
    // A page that just opened gives its worker a few seconds to come up
    // first (it starts after the first frame): trained on the page, a
    // model's readings are one task of seconds.
    JobRunner* runner = job_runner();
    const bool remote = runner && runner->ready();
    const auto now = std::chrono::steady_clock::now();
    if (!first_sync_) first_sync_ = now;
    const bool worker_coming = runner && !remote && lanes_.empty() && now - *first_sync_ < kWorkerGrace;
    bool sliced = false;
    // A kept model with its readings: one per frame (a file read and a restore).
    bool read_one = read_frame_ == ImGui::GetFrameCount();
    for (const auto& job : jobs_) {
      // Kept with its readings (a lecture rehearsed here): shown now, no worker, no training.
      if (job->where == Job::Where::unplaced && job->look_in_folder) {
        if (read_one) continue;
        job->look_in_folder = false;
        if (const lab_lesson::TrainedPtr read = lab_lesson::load_kept_read(job->config, job->s)) {
          lab_lesson::put(read);
          ++g_models_from_kept, ++g_models_kept_read;
          report_counts();
          read_one = true;
          read_frame_ = ImGui::GetFrameCount();
          continue;
        }
      }
      const bool waiting = job->where == Job::Where::page && !job->worker_failed &&
                           (!job->run || (!job->run->finished() && job->run->step() * 2 < job->config.steps));
      if (waiting && remote && job->run) {  // its first steps on the page are dropped: the worker starts it again
        job->run.reset();
        const std::lock_guard lock(job->mutex);
        job->losses.clear();
        job->step = 0;
      }
      if (job->where == Job::Where::unplaced && worker_coming) continue;
      if (job->where == Job::Where::unplaced || (waiting && remote)) {
        if (remote && !job->worker_failed) {
          send(job, *runner);
        } else if (!lanes_.empty()) {
          job->where = Job::Where::lane;
          BuildWorker& lane = *lanes_[next_lane_++ % lanes_.size()];
          lane.run(job, [job] { train_job(*job, [] { return true; }); });
        } else {
          job->where = Job::Where::page;
        }
      }
      sliced = sliced || job->where == Job::Where::page;
    }
    if (sliced && !ready && ImGui::GetFrameCount() != sliced_frame_) {
      sliced_frame_ = ImGui::GetFrameCount();  // one slice per frame, however often the frame asks
      slice();
    }
    return ready;
  }

  /// Whether every model still training trains in the page's workers (their
  /// progress notes wake the page: web/page.js, main_web.cpp).
  bool all_in_workers() const {
    return std::all_of(jobs_.begin(), jobs_.end(), [](const std::shared_ptr<Job>& job) {
      return job->where == Job::Where::worker || lab_lesson::find(job->config) != nullptr;
    });
  }

  /// Models trained at once: one per lane, in the browser one per worker
  /// of the page (web/page.js: one per core, at most 4), or 1 in sliced mode.
  int lanes() const {
#ifdef __EMSCRIPTEN__
    const JobRunner* runner = job_runner();
    if (runner && runner->ready()) return std::max(1, poslab_js_lab_workers());
#endif
    return lanes_.empty() ? 1 : static_cast<int>(lanes_.size());
  }

  /// Sliced mode: trains the first unfinished job of the page for about 20 ms.
  void slice() {
    for (const auto& job : jobs_) {
      if (job->cancelled.load() || job->where != Job::Where::page || lab_lesson::find(job->config)) continue;
      const auto t0 = std::chrono::steady_clock::now();
      train_job(*job, [t0] { return std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(20); });
      return;
    }
  }

  /// Steps done and steps asked for, over every model of `plan` (trained ones count whole).
  std::pair<long long, long long> steps(const Plan& plan) const {
    long long done = 0, total = 0;
    for (const cl::LabConfig& c : plan.configs()) {
      total += c.steps;
      if (lab_lesson::find(c)) {
        done += c.steps;
        continue;
      }
      for (const auto& job : jobs_)
        if (same_model(job->config, c)) done += job->step.load();
    }
    return {done, total};
  }

  /// The training loss so far of every model of `plan`, one thin line each
  /// (coloured by encoding), every `stride` steps averaged.
  fig::Figure live(const Plan& plan, const Translator& tr) const {
    fig::Figure f;
    f.x = {.label = tr("lab.axis.step"), .format = fig::TickFormat::integer};
    f.x.min = 0, f.x.max = plan.steps;
    f.y = {.label = tr("lab.axis.train_loss"), .unit = tr("lab.unit.nats")};
    f.y.min = 0, f.y.max = 4;
    f.legend = fig::LegendPlace::top_right;
    const int stride = std::max(1, plan.steps / 150);
    std::vector<cl::Encoding> named;
    for (const cl::LabConfig& c : plan.configs()) {
      std::vector<float> losses;
      if (auto m = lab_lesson::find(c)) {
        losses = m->losses();
      } else {
        for (const auto& job : jobs_)
          if (same_model(job->config, c)) {
            const std::lock_guard lock(job->mutex);
            losses = job->losses;
          }
      }
      if (losses.empty()) continue;
      fig::Series s;
      if (std::find(named.begin(), named.end(), c.encoding) == named.end()) {
        s.name = tr(std::string("lab.encoding.") + cl::encoding_name(c.encoding));
        named.push_back(c.encoding);
      }
      s.color = lab_lesson::encoding_colour(c.encoding);
      s.width = 1.2f;
      for (std::size_t k = 0; k < losses.size(); k += static_cast<std::size_t>(stride)) {
        const std::size_t end = std::min(losses.size(), k + static_cast<std::size_t>(stride));
        double sum = 0;
        for (std::size_t i = k; i < end; ++i) sum += losses[i];
        s.x.push_back(0.5 * static_cast<double>(k + end - 1));
        s.y.push_back(sum / static_cast<double>(end - k));
      }
      f.series.push_back(std::move(s));
    }
    return f;
  }

 private:
  /// Sends `job` to the page's worker: progress and the live loss come back
  /// as it trains, the model when done (into the store, and the model
  /// folder with its readings); when the job fails (the worker died, bytes
  /// it could not read) the page trains it itself. A model the folder keeps
  /// without its readings goes with its bytes: the worker only reads it (its
  /// readings take seconds in wasm, too long for the page's thread).
  static void send(const std::shared_ptr<Job>& job, JobRunner& runner) {
    const std::weak_ptr<Job> weak = job;
    JobRunner::Callbacks c;
    c.progress = [weak](const JobProgress& p) {
      const auto j = weak.lock();
      if (!j) return;
      j->step = static_cast<int>(p.done);
      try {
        std::vector<float> losses = lab_lesson::parse_losses_note(p.note);
        const std::lock_guard lock(j->mutex);
        j->losses = std::move(losses);
      } catch (const std::exception&) {
        // a note that is not losses: the live curve waits for the next
      }
    };
    c.failed = [weak](std::string_view) {
      if (const auto j = weak.lock()) j->where = Job::Where::unplaced, j->worker_failed = true;  // trained here
    };
    c.done = [weak](std::string_view bytes) {
      const auto j = weak.lock();
      if (!j || j->cancelled.load()) return;
      try {
        const lab_lesson::TrainedPtr model = lab_lesson::decode_trained(bytes);
        if (!same_model(model->config(), j->config)) throw std::runtime_error("the worker sent another model");
        lab_lesson::put(model);
        ++g_models_from_worker;
        if (j->kept)
          ++g_models_from_kept;
        else
          lab_lesson::keep(*model);
        lab_lesson::keep_readings(*model);  // shown at once next time, not read again
        report_counts();
      } catch (const std::exception&) {
        j->where = Job::Where::unplaced, j->worker_failed = true;  // trained here instead
      }
    };
    std::string kept;
    if (const auto run = lab_lesson::load_kept(job->config)) kept = run->save();
    job->kept = !kept.empty();
    job->where = Job::Where::worker;  // (before run: a runner that cannot send fails the job from within)
    job->remote = runner.run("lab_model", lab_lesson::model_request(job->config, job->s, kept), std::move(c));
  }

  static void cancel(Job& job) {
    job.cancelled = true;
    if (job.where == Job::Where::worker) {
      job.where = Job::Where::unplaced;
      if (JobRunner* runner = job_runner()) runner->cancel(job.remote);
    }
  }

  /// How long a page that just opened waits for its worker before training on the page.
  static constexpr std::chrono::seconds kWorkerGrace{8};

  std::vector<std::shared_ptr<Job>> jobs_;
  std::size_t next_lane_ = 0;
  int sliced_frame_ = -1;
  int read_frame_ = -1;  ///< the frame that showed a kept model with its readings
  std::optional<std::chrono::steady_clock::time_point> first_sync_;
  std::vector<std::unique_ptr<BuildWorker>> lanes_;  // last: joined first
};

Session& session() {
  static Session s;
  return s;
}

// [SECTION] The screen

struct Status {
  Plan plan;
  double s = 4;
  bool ready = false;  ///< every model of the plan is trained (or nothing is asked for)
};

/// What is trained and what to train, once per call (the frame's look at the workers).
Status status(LessonUi& ui) {
  Status st;
  try {
    st.plan = lab_lesson::plan(ui.params());
    st.s = ui.params().real("factor");
  } catch (const core::InvalidParameter&) {
    st.ready = true;  // the figures show what is wrong
    return st;
  }
  if (!st.plan.train) {
    (void)session().sync(st.plan, st.s);  // Stop: cancels what runs
    st.ready = true;
    return st;
  }
  if (!ui.builds_in_background()) {
#ifdef __EMSCRIPTEN__
    st.ready = session().sync(st.plan, st.s);  // slices between frames
    if (!st.ready && !session().all_in_workers()) ui.request_redraw();
#else
    st.ready = true;  // screenshots and tests: the figures train in place
#endif
    return st;
  }
  st.ready = session().sync(st.plan, st.s);
  // (In the browser, models training in the page's workers wake the page
  // with their progress, a few frames a second: no frame of its own.)
  if (!st.ready && !session().all_in_workers()) ui.request_redraw();
  return st;
}

/// The Train / Stop button and, while training, the progress bar.
void controls(LessonUi& ui) {
  const auto& tr = ui.tr();
  const Status st = status(ui);
  if (!st.plan.train) {
    if (ImGui::Button((tr("lab.train_button") + "##lab-train").c_str())) ui.set_param("lab_train", true);
    ImGui::SameLine();
    help_marker(tr("lab.train_help").c_str());
    ImGui::SameLine();
    // The cost, from the FLOPs of a step at the throughput measured for the
    // lab's training (docs/LAB.md, "Speed"): on one x86-64 core with AVX2, and
    // compiled to wasm with SIMD (run by node: about 2 times slower). Models
    // train one per lane (in the browser, one per worker of the page),
    // whole models per lane.
#ifdef __EMSCRIPTEN__
    constexpr double kFlopsPerCoreSecond = 7e9;
#else
    constexpr double kFlopsPerCoreSecond = 14e9;
#endif
    const int models = static_cast<int>(st.plan.configs().size()), lanes = session().lanes();
    const double per_model =
        std::max(1.0, std::round(st.plan.steps * cl::training_step_flops(st.plan.base()) / kFlopsPerCoreSecond));
    const double wall = per_model * std::ceil(static_cast<double>(models) / std::max(1, std::min(lanes, models)));
    // Wrapped at the window's edge (on a phone it is longer than the line,
    // issue 33) by the project's wrapping, which never breaks "1,500".
    wrapped_text(tr.format("lab.will_train", {{"n", fig::num(models)},
                                                        {"steps", fig::num(st.plan.steps)},
                                                        {"cpu", fig::num(per_model)},
                                                        {"k", fig::num(std::min(lanes, models))},
                                                        {"wall", fig::num(wall)}}));
    // Models trained here before (a rehearsal of the lecture) show at once: say so.
    // The folder is read when the plan or the models in memory change, not
    // every frame: is_kept opens a file per model.
    static Plan counted_for;
    static int in_memory = -1;
    static long kept = 0;
    if (const int now = lab_lesson::trained_count(st.plan); now != in_memory || !(counted_for == st.plan)) {
      const std::vector<cl::LabConfig> configs = st.plan.configs();
      kept = static_cast<long>(std::count_if(configs.begin(), configs.end(), [](const cl::LabConfig& c) {
        return lab_lesson::find(c) != nullptr || lab_lesson::is_kept(c);
      }));
      counted_for = st.plan;
      in_memory = now;
    }
    if (kept > 0)
      wrapped_text(tr.format("lab.kept", {{"k", fig::num(static_cast<double>(kept))}, {"n", fig::num(models)}}));
    return;
  }
  if (st.ready) {
    if (ImGui::Button((tr("lab.reset_button") + "##lab-reset").c_str())) ui.set_param("lab_train", false);
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(tr.format("lab.trained", {{"n", fig::num(static_cast<double>(st.plan.configs().size()))}}).c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  if (ImGui::Button((tr("lab.stop_button") + "##lab-stop").c_str())) ui.set_param("lab_train", false);
  ImGui::SameLine();
  const auto [done, total] = session().steps(st.plan);
  const int models = lab_lesson::trained_count(st.plan);
  const std::string overlay = tr.format("lab.progress", {{"k", fig::num(models)},
                                                        {"n", fig::num(static_cast<double>(st.plan.configs().size()))}});
  ImGui::ProgressBar(total > 0 ? static_cast<float>(static_cast<double>(done) / static_cast<double>(total)) : 0.0f,
                     ImVec2(-1, 0), overlay.c_str());
}

/// Figure `id` when every model is trained, else the live training loss.
void show(LessonUi& ui, std::string_view id, ImVec2 size) {
  const Status st = status(ui);
  if (st.ready) {
    ui.figure(id, size);
    return;
  }
  fig::Figure live = session().live(st.plan, ui.tr());
  live.title = ui.tr()("lab.live.title");
  const auto [done, total] = session().steps(st.plan);
  live.subtitle = ui.tr()("lab.live.subtitle");
  ui.plot("lab-live", live, ui.params_revision() * 1000003ull + static_cast<std::uint64_t>(done), size);
}

/// A figure's short label in the lecture's tabs.
const char* tab_key(std::string_view id) {
  static constexpr std::pair<std::string_view, const char*> kTabs[] = {
      {"by_length", "lab.by_length.tab"},         {"extension", "lab.extension.tab"},
      {"theta_ratio", "lab.theta_ratio.tab"},     {"training", "lab.training.tab"},
      {"attention_trained", "lab.attention_trained.tab"}, {"attention_long", "lab.attention_long.tab"}};
  for (const auto& [fig, key] : kTabs)
    if (fig == id) return key;
  return "lab.by_length.tab";
}

void draw_replaced(LessonUi& ui, std::string_view id, ImVec2 size) { show(ui, id, size); }

void draw(LessonUi& ui) {
  const ViewDef& v = ui.view();
  if (!ui.lecture_mode()) {
    ui.paragraph("lab.text");
    ImGui::Spacing();
  }
  controls(ui);
  ImGui::Spacing();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (ui.lecture_mode()) {
    if (ImGui::BeginTabBar("##lab-figures", ImGuiTabBarFlags_FittingPolicyResizeDown)) {
      for (const FigureDef& f : v.figures) {
        const std::string title = ui.tr()(tab_key(f.id));
        if (ImGui::BeginTabItem((title + "###" + std::string(f.id)).c_str())) {
          const ImVec2 left = ImGui::GetContentRegionAvail();
          show(ui, f.id, {left.x, std::max(200.0f * ui.ui_scale(), left.y)});
          ImGui::EndTabItem();
        }
      }
      ImGui::EndTabBar();
    }
    return;
  }
  const int cols = avail.x >= 980 * ui.ui_scale() ? 2 : 1;
  const float w = std::floor((avail.x - spacing * static_cast<float>(cols - 1)) / static_cast<float>(cols));
  const float h = w * 0.62f;
  const Status st = status(ui);
  if (!st.ready) {  // one live figure while training, then the lesson's
    show(ui, "by_length", {avail.x, std::min(h * 1.2f, std::max(300.0f, avail.y))});
    return;
  }
  int i = 0;
  for (const FigureDef& f : v.figures) {
    if (i++ % cols != 0) ImGui::SameLine();
    ui.figure(f.id, {w, h});
  }
}

}  // namespace

LessonScreen lab_screen() {
  return {"lab",
          draw,
          {"by_length", "extension", "theta_ratio", "training", "attention_trained", "attention_long"},
          draw_replaced,
          controls};
}

}  // namespace poslab::app::ui
