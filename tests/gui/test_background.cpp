// Figures and readouts built off the UI thread (issue 16), as the interactive
// window does (AppOptions::background_figures): while a build runs, the
// previous figure stays on screen marked "updating" and the app keeps drawing;
// when the builds land, what is shown is exactly what an in-place build of the
// state gives — after any sequence of changes, lessons and steps.

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "app/common/messages.hpp"
#include "app/export/figure_export.hpp"
#include "app/lessons/lab/setting.hpp"
#include "app/lessons/lesson.hpp"
#include "app/plot/figure_wire.hpp"
#include "app/ui/remote_builds.hpp"
#include "app/ui/slider_math.hpp"
#include "app/ui/worker_jobs.hpp"
#include "gui_test_support.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/lab/lab.hpp"

using namespace poslab;
namespace ui = poslab::app::ui;

namespace {

/// What figure `e` shows, as text: title, subtitle and every number (CSV).
std::string shown(const ui::FigureCache::Entry& e) {
  return e.error.empty() ? e.figure.title + "\n" + e.figure.subtitle + "\n" + app::figure_csv(e.figure) : "error: " + e.error;
}

/// The same figure built in place, now, at the state's parameters and the entry's size.
std::string expected(test::BlindApp& b, const app::FigureDef& f, const ui::FigureCache::Entry& e) {
  try {
    const app::fig::Figure fig = app::build_figure(b.state().view(), f, b.state().params(), b.app->tr(), e.width, e.height);
    return fig.title + "\n" + fig.subtitle + "\n" + app::figure_csv(fig);
  } catch (const std::exception& ex) {
    return "error: " + app::error_text(b.app->tr(), ex);
  }
}

/// Every figure of the current view shown, current and equal to an in-place
/// build; the readouts equal to the view's at the state.
void check_caught_up(test::BlindApp& b) {
  // A build that lands for an older state starts the one for the state: a
  // few rounds at most (one per build that was in flight).
  for (int round = 0; round < 4 && (round == 0 || b.app->figures().updating() > 0); ++round) {
    b.app->figures().wait_idle();
    b.frames(1);
  }
  // Figures that landed together are laid out over a few frames (LayoutPacing).
  for (int i = 0; i < ui::LayoutPacing::kMaxDeferredFrames && b.app->wants_redraw(); ++i) b.frames(1);
  CHECK(b.app->figures().updating() == 0);
  CHECK_FALSE(b.app->wants_redraw());
  int checked = 0;
  for (const app::FigureDef& f : b.state().view().figures)
    if (const ui::FigureCache::Entry* e = b.app->figures().find(b.state().view().id, f.id)) {
      CAPTURE(f.id);
      CHECK_FALSE(e->updating());
      CHECK(shown(*e) == expected(b, f, *e));
      ++checked;
    }
  (void)checked;  // (a custom screen, rope-2d, draws its own plots: none cached)
  if (b.state().view().readouts) {
    // (A guided step folds the readouts: they are built when asked for.)
    (void)b.app->figures().readouts(b.state(), b.app->tr());
    b.app->figures().wait_idle();
    const auto& r = b.app->figures().readouts(b.state(), b.app->tr());
    CHECK_FALSE(r.updating());
    if (r.error.empty()) {
      const std::vector<app::Readout> want = app::view_readouts(b.state().view(), b.state().params(), b.app->tr());
      REQUIRE(r.rows.size() == want.size());
      for (std::size_t i = 0; i < want.size(); ++i) {
        CHECK(r.rows[i].label == want[i].label);
        CHECK(r.rows[i].value == want[i].value);
      }
    }
  }
}

}  // namespace

TEST_CASE("background figures: the previous figure stays while the new one is built, then the state's") {
  test::BlindApp b(true);
  REQUIRE(b.app->figures().background());
  b.app->figures().set_wait_ms(0);  // every background build lands in a later frame
  REQUIRE(b.state().select_view("decay"));
  b.frames(2);
  check_caught_up(b);
  // Before: the figures of this state, each with its version.
  std::vector<std::string> before;
  std::vector<std::uint64_t> versions;
  const auto& figures = b.state().view().figures;
  for (const app::FigureDef& f : figures) {
    const ui::FigureCache::Entry* e = b.app->figures().find("decay", f.id);
    REQUIRE(e != nullptr);
    before.push_back(shown(*e));
    versions.push_back(e->version);
  }
  // A change every figure reads: each rebuild goes to the worker; this frame
  // still shows the previous figure, marked updating, and the app keeps drawing.
  REQUIRE(b.state().set_param("d", 256.0).empty());
  b.frames(1);
  int updating = 0;
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const ui::FigureCache::Entry* e = b.app->figures().find("decay", figures[i].id);
    REQUIRE(e != nullptr);
    if (e->updating()) {
      ++updating;
      CHECK(e->version == versions[i]);
      CHECK(shown(*e) == before[i]);
    }
  }
  CHECK(updating > 0);
  CHECK(b.app->figures().updating() >= updating);
  CHECK(b.app->wants_redraw());
  check_caught_up(b);
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const ui::FigureCache::Entry* e = b.app->figures().find("decay", figures[i].id);
    if (std::find(e->reads.begin(), e->reads.end(), "d") != e->reads.end()) CHECK(e->version != versions[i]);
  }
}

TEST_CASE("background figures: figures that land together are laid out over a few frames, none waiting long") {
  test::BlindApp b(true);
  b.app->figures().set_wait_ms(0);  // every build lands in a later frame
  REQUIRE(b.state().select_view("decay"));
  (void)b.state().go_to_step(-1);  // the whole page: every figure drawn
  struct Hidden {  // plots scrolled out of the window laid out too (as the bench does)
    Hidden() { ui::layout_log().hidden_too = true; }
    ~Hidden() { ui::layout_log().hidden_too = false; }
  } hidden;
  b.frames(2);
  check_caught_up(b);
  auto layouts = [&] {
    std::vector<int> n;
    for (const app::FigureDef& f : b.state().view().figures) {
      const ui::FigureCache::Entry* e = b.app->figures().find("decay", f.id);
      n.push_back(e ? e->widget.layouts() : 0);
    }
    return n;
  };
  auto laid_out = [](const std::vector<int>& before, const std::vector<int>& after) {
    int n = 0;
    for (std::size_t i = 0; i < before.size(); ++i) n += after[i] != before[i];
    return n;
  };
  for (const double ms : {0.0, 1e9}) {
    CAPTURE(ms);
    // ms = 0: every layout after a frame's first waits (as when each takes
    // longer than the frame's share), up to kMaxDeferredFrames frames.
    b.app->layout_pacing().ms = ms;
    REQUIRE(b.state().set_param("d", ms == 0 ? 256.0 : 512.0).empty());
    b.frames(1);  // the builds start (on the worker thread)
    b.app->figures().wait_idle();
    const std::vector<int> start = layouts();
    std::vector<int> at = start;
    std::vector<int> per_frame;
    for (int frame = 0; frame <= ui::LayoutPacing::kMaxDeferredFrames + 1; ++frame) {
      b.frames(1);
      const std::vector<int> now = layouts();
      per_frame.push_back(laid_out(at, now));
      at = now;
    }
    const int changed = laid_out(start, at);
    CAPTURE(per_frame);
    REQUIRE(changed >= 3);  // decay's figures read d: several landed in the same frame
    if (ms == 0) {
      // One a frame, then, after kMaxDeferredFrames frames of waiting, the rest at once.
      for (int frame = 0; frame < ui::LayoutPacing::kMaxDeferredFrames; ++frame) CHECK(per_frame[static_cast<std::size_t>(frame)] == 1);
      CHECK(per_frame[ui::LayoutPacing::kMaxDeferredFrames] == changed - ui::LayoutPacing::kMaxDeferredFrames);
    } else {
      CHECK(per_frame[0] == changed);  // room for all: all in the frame they land
    }
    CHECK(per_frame.back() == 0);
    CHECK_FALSE(b.app->wants_redraw());
  }
  b.app->layout_pacing().ms = ui::LayoutPacing{}.ms;
  check_caught_up(b);
}

TEST_CASE("background figures: after any run of changes, lessons and steps, the figures shown are the state's") {
  test::BlindApp b(true);
  std::mt19937_64 rng(16);
  const auto& views = b.state().views();
  for (int round = 0; round < 12; ++round) {
    const app::ViewDef& v = views[rng() % views.size()];
    CAPTURE(v.id);
    REQUIRE(b.state().select_view(v.id));
    b.app->figures().set_wait_ms(round % 3 == 0 ? ui::FigureCache::kWaitMs : 0);
    // A burst of changes, a frame after each (a drag): some builds are still
    // running when the next change comes.
    for (int move = 0; move < 8; ++move) {
      const std::string_view key = v.keys[rng() % v.keys.size()];
      const core::ParamSpec& spec = core::param_spec(key);
      if (spec.type == core::ParamType::real || spec.type == core::ParamType::integer) {
        const double t = std::uniform_real_distribution<double>(0, 1)(rng);
        (void)b.state().set_param(key, ui::snap(spec, ui::interpolate(spec, spec.ui_min, spec.ui_max, t), true));
      } else if (b.state().steps() && rng() % 4 == 0) {
        (void)b.state().go_to_step(static_cast<int>(rng() % b.state().steps()->scenes.size()));
      }
      b.frames(1);
    }
    check_caught_up(b);
  }
}

TEST_CASE("background figures: leaving a lesson while its figures build, or closing the app, is safe") {
  for (int run = 0; run < 3; ++run) {
    test::BlindApp b(true);
    b.app->figures().set_wait_ms(0);
    REQUIRE(b.state().select_view("decay"));
    b.frames(2);
    REQUIRE(b.state().set_param("d", 8192.0).empty());
    b.frames(1);
    if (run == 0) continue;  // the app closes with builds in flight
    // The readouts shown belong to the lesson shown, from its first frame on.
    (void)b.app->figures().readouts(b.state(), b.app->tr());
    REQUIRE(b.state().select_view(run == 1 ? "gaussian" : "rope"));
    CHECK(b.app->figures().readouts(b.state(), b.app->tr()).view == b.state().view_index());
    b.frames(3);  // the decay entries are dropped, their builds cancelled or ignored
    CHECK(b.app->figures().find("decay", app::find_view("decay")->figures.front().id) == nullptr);
    check_caught_up(b);
  }
}

TEST_CASE("plots scrolled out of view are not laid out; scrolled back (or a taller window) they are") {
  test::BlindApp b;
  REQUIRE(b.state().select_view("alibi"));  // its page: text first, five figures below
  const app::ViewDef& view = b.state().view();
  b.frames(3);
  ui::LayoutLog& log = ui::layout_log();
  auto laid_out_after_change = [&](double positions) {
    log.entries.clear();
    log.on = true;
    REQUIRE(b.state().set_param("positions", positions).empty());
    b.frames(2);
    log.on = false;
    std::vector<std::string> titles;
    for (const auto& entry : log.entries) titles.push_back(entry.first);
    std::sort(titles.begin(), titles.end());
    titles.erase(std::unique(titles.begin(), titles.end()), titles.end());
    log.entries.clear();
    return titles.size();
  };
  const std::size_t figures = view.figures.size();
  REQUIRE(figures >= 3);
  // 1600×1000: the text fills the window, some figures are below it.
  const std::size_t shown = laid_out_after_change(100);
  CHECK(shown < figures);
  // The bench's switch: every figure, as if on screen.
  log.hidden_too = true;
  CHECK(laid_out_after_change(200) == figures);
  log.hidden_too = false;
  // A window tall enough for the whole page: every figure is in view.
  b.display = {1600, 12000};
  b.frames(2);
  CHECK(laid_out_after_change(300) == figures);
  b.display = {1600, 1000};
  b.frames(2);
  CHECK(laid_out_after_change(400) == shown);
}

// The lab lesson (issue 26) trains its models on workers of their own: the
// frame that asks returns at once, the window keeps drawing, the figures
// appear when every model is trained and equal an in-place build; Stop (or
// another plan) cancels the models no longer asked for at their next slice.
TEST_CASE("lab: training runs off the frame, lands in the figures, and Stop cancels it") {
  namespace lab = app::lab_lesson;
  test::BlindApp b(true);
  b.app->figures().set_wait_ms(0);
  REQUIRE(b.state().select_view("lab"));
  b.frames(2);
  auto wait_trained = [&](const lab::Plan& plan, double seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    while (lab::trained_count(plan) < static_cast<int>(plan.configs().size()) &&
           std::chrono::steady_clock::now() - t0 < std::chrono::duration<double>(seconds)) {
      b.frames(1);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return lab::trained_count(plan);
  };
  SUBCASE("train, then the figures") {
    REQUIRE(b.state().set_param("lab_steps", 41.0).empty());
    REQUIRE(b.state().set_param("lab_seeds", 1.0).empty());
    REQUIRE(b.state().set_param("lab_train", true).empty());
    const lab::Plan plan = lab::plan(b.state().params());
    b.frames(1);
    CHECK(lab::trained_count(plan) < 6);  // six models of 41 steps: far more than one frame's work
    CHECK(b.app->wants_redraw());         // the progress bar moves on its own
    CHECK(wait_trained(plan, 120) == 6);
    b.frames(2);
    check_caught_up(b);
  }
  SUBCASE("Stop cancels: models asked for next train at once, not after the cancelled ones") {
    REQUIRE(b.state().set_param("lab_steps", 20000.0).empty());  // minutes per model
    REQUIRE(b.state().set_param("lab_seeds", 5.0).empty());
    REQUIRE(b.state().set_param("lab_train", true).empty());
    b.frames(3);
    REQUIRE(b.state().set_param("lab_train", false).empty());  // Stop
    b.frames(1);
    REQUIRE(b.state().set_param("lab_steps", 29.0).empty());
    REQUIRE(b.state().set_param("lab_seeds", 1.0).empty());
    REQUIRE(b.state().set_param("lab_train", true).empty());
    const lab::Plan plan = lab::plan(b.state().params());
    // had the 30 long models not stopped, every lane would be busy for minutes
    CHECK(wait_trained(plan, 120) == 6);
  }
}

TEST_CASE("lab: a window keeps its finished models in its config folder and shows them again without training") {
  namespace lab = app::lab_lesson;
  namespace fs = std::filesystem;
  const fs::path config = fs::temp_directory_path() / ("poslab-lab-kept-" + std::to_string(::getpid()));
  fs::remove_all(config);
  CHECK(lab::model_folder().empty());  // blind test windows keep nothing
  lab::Plan plan;
  plan.seeds = 1;
  plan.steps = 23;  // models no other test trains, so none is in memory already
  const auto all = core::lab::all_encodings();
  plan.encodings.assign(all.begin(), all.end());
  {
    ui::BlindPlatform platform;
    ui::AppOptions o{.assets = app::assets_dir(), .lang = "en", .persist = true, .config_dir = config};
    ui::App window(platform, o);
    CHECK(lab::model_folder() == config / "lab-models");
    const std::vector<lab::TrainedPtr> trained = lab::trained_all(plan, 4);
    REQUIRE(trained.size() == 6);
    int files = 0;
    for (const auto& entry : fs::directory_iterator(config / "lab-models")) files += entry.path().extension() == ".model";
    CHECK(files == 6);
    for (const lab::TrainedPtr& model : trained) {
      CHECK(lab::is_kept(model->config()));
      auto kept = lab::load_kept(model->config());
      REQUIRE(kept);
      CHECK(kept->finished());
      CHECK(kept->loss_history() == model->losses());
      CHECK(kept->evaluate().values == model->evaluation().values);
    }
    // … each beside what the lesson read of it: shown again without reading it again.
    int readings_files = 0;
    for (const auto& entry : fs::directory_iterator(config / "lab-models"))
      readings_files += entry.path().extension() == ".readings";
    CHECK(readings_files == 6);
    for (const lab::TrainedPtr& model : trained) {
      const lab::TrainedPtr read = lab::load_kept_read(model->config(), 4);
      REQUIRE(read);
      CHECK(read->read_as_finished(4));
      CHECK(read->weights() == model->weights());
      CHECK(read->losses() == model->losses());
      const std::vector<core::lab::LabEvaluation> want = model->readings(), got = read->readings();
      REQUIRE(got.size() == want.size());
      CHECK(want.size() == (model->config().encoding == core::lab::Encoding::rope ? 4u : 1u));
      for (std::size_t i = 0; i < want.size(); ++i) {
        CHECK(got[i].extension == want[i].extension);
        CHECK(got[i].factor == want[i].factor);
        CHECK(got[i].lengths == want[i].lengths);
        CHECK(got[i].values == want[i].values);  // bit for bit: the doubles cross as their bits
        CHECK(got[i].floor == want[i].floor);
        CHECK(got[i].trained_value == want[i].trained_value);
      }
      // Read at another factor s, a RoPE model must be read again; the others read no s.
      CHECK(static_cast<bool>(lab::load_kept_read(model->config(), 5)) != (model->config().encoding == core::lab::Encoding::rope));
    }
    {
      // Damaged readings, or another model's under this one's name: not read as this model's.
      const core::lab::LabConfig a = trained[1]->config(), b = trained[2]->config();
      const auto name = [&](const core::lab::LabConfig& c, const char* ext) {
        char hex[40];
        std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(core::lab::lab_config_hash(c)));
        return config / "lab-models" / (std::string(hex) + ext);
      };
      REQUIRE(fs::exists(name(a, ".readings")));
      const fs::path saved_a = config / "readings-a";
      fs::copy_file(name(a, ".readings"), saved_a);
      {
        std::fstream f(name(a, ".readings"), std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(-30, std::ios::end);
        f.put('\x5a');
      }
      CHECK_FALSE(lab::load_kept_read(a, 4));
      CHECK(lab::load_kept(a));  // the run itself is sound: it is read again, not trained
      fs::copy_file(name(b, ".readings"), name(a, ".readings"), fs::copy_options::overwrite_existing);
      CHECK_FALSE(lab::load_kept_read(a, 4));
      fs::copy_file(saved_a, name(a, ".readings"), fs::copy_options::overwrite_existing);
      CHECK(lab::load_kept_read(a, 4));
      fs::remove(saved_a);
    }
    // A damaged file is not read as the model: it is trained again and replaced.
    const lab::TrainedPtr& first = trained.front();
    fs::path file;
    for (const auto& entry : fs::directory_iterator(config / "lab-models")) {
      if (entry.path().extension() != ".model") continue;  // (its readings start with the same header)
      std::ifstream in(entry.path(), std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (bytes.find(core::lab::lab_config_text(first->config())) != std::string::npos) file = entry.path();
    }
    REQUIRE(!file.empty());
    {
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(-20, std::ios::end);
      f.put('\x5a');
    }
    CHECK_FALSE(lab::load_kept(first->config()));
    CHECK_FALSE(lab::load_kept_read(first->config(), 4));  // its readings are sound, its run is not
    CHECK(lab::is_kept(first->config()));  // the header alone still reads right: Train will say "kept", then retrain
    CHECK(lab::start_run(first->config())->step() == 0);
    // The folder keeps the newest kKeptModels.
    for (int seed = 1; seed <= lab::kKeptModels + 3; ++seed) {
      core::lab::LabConfig c = plan.config(core::lab::Encoding::nope, 100 + seed);
      c.steps = 1;
      core::lab::LabRun run(c);
      run.train(1);
      lab::keep(run);
    }
    files = 0;
    int orphans = 0;
    for (const auto& entry : fs::directory_iterator(config / "lab-models")) {
      files += entry.path().extension() == ".model";
      orphans += entry.path().extension() == ".readings" && !fs::exists(fs::path(entry.path()).replace_extension(".model"));
    }
    CHECK(files == lab::kKeptModels);
    CHECK(orphans == 0);  // a model's readings go with it
  }
  CHECK(lab::model_folder().empty());  // the window's folder goes with it
  fs::remove_all(config);
}

// [SECTION] The page's worker (issue 31): builds sent as bytes, answered as bytes

namespace {

/// The page's Web Worker, played by the test: requests queue up and are
/// answered — by the worker's own code, serve_build_request — when the test
/// says, as the browser delivers them between two frames.
struct QueuedWorker final : ui::RemoteBuilds {
  struct Job {
    std::uint64_t id;
    std::string request;
    std::function<void(std::string_view)> land;
  };
  bool up = true;
  std::deque<Job> queue;
  std::uint64_t next = 1;
  int answered = 0, cancelled = 0;

  bool ready() const override { return up; }
  std::uint64_t submit(std::string request, std::function<void(std::string_view)> land) override {
    queue.push_back({next, std::move(request), std::move(land)});
    return next++;
  }
  void cancel(std::uint64_t id) override {
    const auto it = std::find_if(queue.begin(), queue.end(), [&](const Job& j) { return j.id == id; });
    if (it == queue.end()) return;
    queue.erase(it);
    ++cancelled;
  }
  int in_flight() const override { return static_cast<int>(queue.size()); }
  /// Answers every job in order.
  void answer_all() {
    while (!queue.empty()) {
      Job j = std::move(queue.front());
      queue.pop_front();
      const std::string reply = ui::serve_build_request(j.request, app::assets_dir());
      ++answered;
      j.land(reply);
    }
  }
  /// The worker dies: every job in flight fails (lands with no reply).
  void die() {
    up = false;
    while (!queue.empty()) {
      Job j = std::move(queue.front());
      queue.pop_front();
      j.land({});
    }
  }
};

/// The figure as the worker sends it: built at the state and the entry's
/// size, sampled ahead for the screen (1 device pixel per point here).
std::string sent(test::BlindApp& b, const app::FigureDef& f, const ui::FigureCache::Entry& e) {
  try {
    app::fig::Figure fig = app::build_figure(b.state().view(), f, b.state().params(), b.app->tr(), e.width, e.height);
    app::fig::prepare_for_screen(fig, e.width, e.height, 1.0);
    return app::fig::wire::encode_figure(fig, true);
  } catch (const std::exception& ex) {
    return "error: " + app::error_text(b.app->tr(), ex);
  }
}

/// Every figure shown is the state's: built in place (as check_caught_up
/// compares) or, byte for byte, what the worker sends for the state.
void check_caught_up_remote(test::BlindApp& b, QueuedWorker& worker) {
  for (int round = 0; round < 6 && (round == 0 || b.app->figures().updating() > 0); ++round) {
    worker.answer_all();
    b.frames(1);
  }
  CHECK(b.app->figures().updating() == 0);
  CHECK(worker.in_flight() == 0);
  for (const app::FigureDef& f : b.state().view().figures)
    if (const ui::FigureCache::Entry* e = b.app->figures().find(b.state().view().id, f.id)) {
      CAPTURE(f.id);
      CHECK_FALSE(e->updating());
      const std::string bytes = e->error.empty() ? app::fig::wire::encode_figure(e->figure, true) : "error: " + e->error;
      const bool as_sent = bytes == sent(b, f, *e);
      if (!as_sent) CHECK(shown(*e) == expected(b, f, *e));
    }
}

}  // namespace

TEST_CASE("page worker: slow builds go out as bytes, the frame never waits, and what lands is the state's") {
  test::BlindApp b;  // no worker thread: the page's one thread
  QueuedWorker worker;
  b.app->figures().set_remote(&worker);
  b.app->figures().set_wait_ms(0);  // every build that took any time at all is "slow"
  REQUIRE(b.state().select_view("relative"));
  (void)b.state().go_to_step(-1);  // the whole page: every figure
  b.frames(2);  // first builds: in place (nothing known about them yet)
  check_caught_up_remote(b, worker);
  CHECK(worker.answered == 0);
  const auto& figures = b.state().view().figures;
  std::vector<std::uint64_t> versions;
  for (const app::FigureDef& f : figures) {
    const ui::FigureCache::Entry* e = b.app->figures().find("relative", f.id);
    REQUIRE(e != nullptr);
    versions.push_back(e->version);
  }
  // A drag: every figure that reads the key is sent to the worker; the frame
  // shows the previous figure, marked updating, and does not wait.
  REQUIRE(b.state().set_param("clip", 8.0).empty());
  b.frames(1);
  CHECK(worker.in_flight() > 0);
  int updating = 0;
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const ui::FigureCache::Entry* e = b.app->figures().find("relative", figures[i].id);
    if (e->updating()) {
      ++updating;
      CHECK(e->version == versions[i]);
    }
  }
  CHECK(updating > 0);
  CHECK(worker.in_flight() >= updating);
  CHECK(b.app->wants_redraw());
  // More moves before anything lands: one job per figure at a time, never a queue of stale ones.
  const int in_flight = worker.in_flight();
  REQUIRE(b.state().set_param("clip", 9.0).empty());
  b.frames(3);
  CHECK(worker.in_flight() == in_flight);
  check_caught_up_remote(b, worker);
  CHECK(worker.answered >= in_flight);
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const ui::FigureCache::Entry* e = b.app->figures().find("relative", figures[i].id);
    if (std::find(e->reads.begin(), e->reads.end(), "clip") != e->reads.end()) CHECK(e->version != versions[i]);
  }
  // The readouts too.
  const auto& r = b.app->figures().readouts(b.state(), b.app->tr());
  const std::vector<app::Readout> want = app::view_readouts(b.state().view(), b.state().params(), b.app->tr());
  REQUIRE(r.rows.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(r.rows[i].value == want[i].value);
}

TEST_CASE("page worker: any run of changes, lessons and steps ends on the state's figures; cancelled jobs are dropped") {
  test::BlindApp b;
  QueuedWorker worker;
  b.app->figures().set_remote(&worker);
  std::mt19937_64 rng(31);
  const auto& views = b.state().views();
  for (int round = 0; round < 10; ++round) {
    const app::ViewDef& v = views[rng() % views.size()];
    CAPTURE(v.id);
    REQUIRE(b.state().select_view(v.id));
    b.app->figures().set_wait_ms(round % 3 == 0 ? ui::FigureCache::kWaitMs : 0);
    for (int move = 0; move < 8; ++move) {
      const std::string_view key = v.keys[rng() % v.keys.size()];
      const core::ParamSpec& spec = core::param_spec(key);
      if (spec.type == core::ParamType::real || spec.type == core::ParamType::integer) {
        const double t = std::uniform_real_distribution<double>(0, 1)(rng);
        (void)b.state().set_param(key, ui::snap(spec, ui::interpolate(spec, spec.ui_min, spec.ui_max, t), true));
      } else if (b.state().steps() && rng() % 4 == 0) {
        (void)b.state().go_to_step(static_cast<int>(rng() % b.state().steps()->scenes.size()));
      }
      b.frames(1);
      if (rng() % 3 == 0) worker.answer_all();  // some land mid-drag
    }
    check_caught_up_remote(b, worker);
  }
  CHECK(worker.answered > 0);
  // Leaving a lesson while its figures are out: their jobs are cancelled.
  REQUIRE(b.state().select_view("decay"));
  b.app->figures().set_wait_ms(0);
  b.frames(2);
  REQUIRE(b.state().set_param("d", 512.0).empty());
  b.frames(1);
  REQUIRE(worker.in_flight() > 0);
  const int cancelled = worker.cancelled;
  REQUIRE(b.state().select_view("gaussian"));
  b.frames(2);
  CHECK(worker.cancelled > cancelled);
  check_caught_up_remote(b, worker);
}

TEST_CASE("page worker: how far a figure trails the slider counts from the move, not from its build's start") {
  test::BlindApp b;
  QueuedWorker worker;
  b.app->figures().set_remote(&worker);
  b.app->figures().set_wait_ms(0);
  REQUIRE(b.state().select_view("relative"));
  (void)b.state().go_to_step(-1);
  b.frames(2);
  check_caught_up_remote(b, worker);
  (void)b.app->figures().take_taken();
  REQUIRE(b.state().set_param("clip", 8.0).empty());
  b.frames(1);
  int figures = 0;
  for (const auto& j : worker.queue) figures += ui::decode_request(j.request).kind == ui::BuildRequest::Kind::figure;
  REQUIRE(figures > 0);
  // A second move while those are out: it waits for them, then for its own builds.
  REQUIRE(b.state().set_param("clip", 9.0).empty());
  b.frames(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  worker.answer_all();
  b.frames(1);  // clip 8's figures taken in; clip 9's builds sent
  REQUIRE(worker.in_flight() > 0);
  worker.answer_all();  // at once: these builds are quick, the move they show is 30 ms old
  b.frames(1);
  check_caught_up_remote(b, worker);
  // Each figure and readouts taken in, under its "view/figure", built in the
  // worker; readouts carry no trail.
  std::vector<double> trailed;
  for (const ui::FigureCache::Taken& t : b.app->figures().take_taken()) {
    CHECK(t.key.rfind("relative/", 0) == 0);
    CHECK(t.remote);
    CHECK(t.wall_ms >= t.own_ms);
    CHECK(t.readouts == (t.key == "relative/#readouts"));
    if (t.readouts) CHECK(t.trail_ms == -1);
    if (t.trail_ms >= 0) trailed.push_back(t.trail_ms);
  }
  CHECK(trailed.size() == static_cast<std::size_t>(2 * figures));  // one per figure taken in that was behind
  for (double ms : trailed) CHECK(ms >= 30);
  CHECK(b.app->figures().take_taken().empty());
  // Nothing moved: nothing is built, nothing trails.
  b.frames(2);
  CHECK(b.app->figures().take_taken().empty());
}

TEST_CASE("page worker: when it dies mid-build, nothing waits for ever: the page builds those figures itself") {
  test::BlindApp b;
  QueuedWorker worker;
  b.app->figures().set_remote(&worker);
  b.app->figures().set_wait_ms(0);
  REQUIRE(b.state().select_view("learned"));
  b.frames(2);
  REQUIRE(b.state().set_param("d", 96.0).empty());
  b.frames(1);
  REQUIRE(worker.in_flight() > 0);
  worker.die();  // every job in flight lands with no reply; ready() is false from now on
  b.frames(3);
  CHECK(b.app->figures().updating() == 0);
  check_caught_up(b);  // built in place, equal to the state's
  REQUIRE(b.state().set_param("d", 128.0).empty());
  b.frames(1);
  CHECK(worker.in_flight() == 0);  // nothing more is sent to a dead worker
  check_caught_up(b);
}

TEST_CASE("page worker: requests and replies as bytes; a bad request gets an error reply, not a crash") {
  const app::Translator tr = app::Translator::load(app::assets_dir(), "en");
  const app::ViewDef& v = *app::find_view("alibi");
  ui::BuildRequest q;
  q.view = "alibi";
  q.figure = "weights";
  q.params.set_text("positions", "300");
  q.params.set_text("heads", "12");
  q.lang = "zh";
  q.width = 640, q.height = 400;
  q.density = 2;
  const std::string bytes = ui::encode_request(q);
  const ui::BuildRequest back = ui::decode_request(bytes);
  CHECK(back.view == q.view);
  CHECK(back.figure == q.figure);
  CHECK(back.params == q.params);
  CHECK(back.params.set_keys() == q.params.set_keys());
  CHECK(back.lang == "zh");
  CHECK(back.width == 640);
  CHECK(back.density == 2);
  // Served as the worker does: the figure the page would build, sampled ahead, in Chinese.
  const ui::FigureReply reply = ui::decode_figure_reply(ui::serve_build_request(bytes, app::assets_dir()));
  REQUIRE(reply.result.error.empty());
  CHECK_FALSE(reply.build_here);
  CHECK(reply.result.reads_known);
  CHECK(std::find(reply.result.reads.begin(), reply.result.reads.end(), "positions") != reply.result.reads.end());
  app::fig::Figure want = app::build_figure(v, *app::find_figure(v, "weights"), q.params,
                                            app::Translator::load(app::assets_dir(), "zh"), 640, 400);
  app::fig::prepare_for_screen(want, 640, 400, 2);
  CHECK(app::fig::wire::encode_figure(reply.result.figure, true) == app::fig::wire::encode_figure(want, true));
  // A value out of range names it, in the request's language.
  q.params.set_text("positions", "2");
  q.figure = "no-such-figure";
  const ui::FigureReply bad = ui::decode_figure_reply(ui::serve_build_request(ui::encode_request(q), app::assets_dir()));
  CHECK(bad.result.error.find("no-such-figure") != std::string::npos);
  // Readouts.
  q.kind = ui::BuildRequest::Kind::readouts;
  const ui::ReadoutsReply rows = ui::decode_readouts_reply(ui::serve_build_request(ui::encode_request(q), app::assets_dir()));
  CHECK(rows.result.error.empty());
  CHECK(rows.result.rows.size() == app::view_readouts(v, q.params, tr).size());
  // Not a request at all: refused as such.
  CHECK_THROWS_AS(ui::serve_build_request("nonsense", app::assets_dir()), std::runtime_error);
  CHECK_THROWS_AS(ui::decode_figure_reply("PLR1"), std::runtime_error);
}

TEST_CASE("page worker: lists of numbers cross as runs where exact, as they are otherwise; bit for bit") {
  // The decay lesson's default distances, 0:65,536, in every request: as one run.
  ui::BuildRequest q;
  q.view = "decay";
  q.figure = "ones";
  q.params.set_text("distance", "0:65536");
  const std::string bytes = ui::encode_request(q);
  CHECK(bytes.size() < 200);
  CHECK(ui::decode_request(bytes).params == q.params);
  // Lists of every shape: random doubles, runs with fractional steps,
  // repeats, -0, runs broken by one value. Each comes back with the same
  // bits, and the runs are used only where exact.
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> real(0, 1e6);
  std::uniform_int_distribution<int> small(1, 40);
  const auto bits = [](const std::vector<double>& v) {
    std::vector<std::uint64_t> out;
    for (double x : v) out.push_back(std::bit_cast<std::uint64_t>(x));
    return out;
  };
  // A run's first value is its start, bits and all: −0 first (−0 + 0·1 is +0).
  for (const std::vector<double>& edge : {std::vector<double>{-0.0, 1, 2, 3, 4, 5, 6, 7, 8},
                                          std::vector<double>{-0.0, 0, 0, 0, 0, 0, 0, 0, 0},
                                          std::vector<double>{-0.0}}) {
    ui::BuildRequest r;
    r.view = "decay";
    r.params.set("distance", edge);
    REQUIRE(bits(r.params.list("distance")) == bits(edge));
    CHECK(bits(ui::decode_request(ui::encode_request(r)).params.list("distance")) == bits(edge));
  }
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<double> list;
    const int pieces = small(rng);
    for (int p = 0; p < pieces; ++p) {
      const int kind = trial % 5 == 0 ? 0 : static_cast<int>(rng() % 5);
      const int n = small(rng);
      const double start = kind == 4 ? -0.0 : std::floor(real(rng)) / 7, step = kind == 1 ? 0.1 : kind == 2 ? 0.0 : kind == 3 ? 1.0 / 3 : 1.0;
      for (int k = 0; k < n; ++k) list.push_back(kind == 0 ? real(rng) : start + static_cast<double>(k) * step);
    }
    ui::BuildRequest r;
    r.view = "decay";
    r.params.set("distance", list);
    const std::string encoded = ui::encode_request(r);
    const ui::BuildRequest back = ui::decode_request(encoded);
    REQUIRE(back.params.is_set("distance"));
    CHECK(bits(back.params.list("distance")) == bits(list));
  }
  // A run claiming more numbers than any list holds is refused, not expanded;
  // the longest list any key takes (2^20) is read.
  const std::size_t key_at = bytes.find("distance");
  REQUIRE(key_at != std::string::npos);
  const std::size_t count_at = key_at + 8 + 1 + 4 + 8 + 8;  // the key, kind 4, one run: start, step, then its count
  std::uint32_t count = 0;
  std::memcpy(&count, bytes.data() + count_at, 4);
  REQUIRE(count == 65537);
  for (const std::uint32_t n : {(1u << 20) + 1, 1u << 20}) {
    std::string patched = bytes;
    std::memcpy(patched.data() + count_at, &n, 4);
    if (n > (1u << 20)) {
      CHECK_THROWS_AS(ui::decode_request(patched), std::runtime_error);
    } else {
      CHECK(ui::decode_request(patched).params.list("distance").size() == n);
    }
  }
}

TEST_CASE("worker jobs: kinds by name, a long job in slices with its progress") {
  ui::WorkerJobs jobs(app::assets_dir());
  CHECK(jobs.knows("build"));
  CHECK_THROWS_AS((void)jobs.start("train", ""), std::invalid_argument);
  // A job of ten slices (as the lab's training will run): progress after each, the reply at the end.
  struct Count final : ui::WorkerJob {
    int done = 0;
    bool step(double) override { return ++done == 10; }
    ui::JobProgress progress() const override { return {static_cast<double>(done), 10, "step " + std::to_string(done)}; }
    std::string reply() override { return "counted " + std::to_string(done); }
  };
  jobs.add("train", [](std::string_view) { return std::make_unique<Count>(); });
  auto job = jobs.start("train", "");
  int slices = 1;
  while (!job->step(50)) {
    CHECK(job->progress().done == slices);
    CHECK(job->progress().total == 10);
    ++slices;
  }
  CHECK(slices == 10);
  CHECK(job->reply() == "counted 10");
  // "build" is one slice: a figure cannot be split.
  ui::BuildRequest q;
  q.view = "rope";
  q.figure = "frequencies";
  q.width = 400, q.height = 300;
  auto build = jobs.start("build", ui::encode_request(q));
  CHECK(build->step(50));
  CHECK(ui::decode_figure_reply(build->reply()).result.error.empty());
}

TEST_CASE("worker jobs: \"warm\" builds every lesson's figures but the lab's, one a slice at a budget of 0, none failing") {
  ui::WorkerJobs jobs(app::assets_dir());
  REQUIRE(jobs.knows("warm"));
  std::size_t per_round = 0;  // every figure and readouts of every lesson but the lab
  for (const app::ViewDef& v : app::view_defs())
    if (v.id != "lab") per_round += v.figures.size() + (v.readouts ? 1 : 0);
  REQUIRE(per_round > 20);
  // Defaults once, then the larger sizes: two rounds.
  auto job = jobs.start("warm", R"({"rounds": 1, "width": 320, "height": 200})");
  double last = 0;
  int slices = 0;
  while (!job->step(0)) {
    ++slices;
    CHECK(job->progress().done == last + 1);  // one build a slice
    CHECK(job->progress().total == static_cast<double>(2 * per_round));
    last = job->progress().done;
  }
  CHECK(slices + 1 == static_cast<int>(2 * per_round));
  const nlohmann::json reply = nlohmann::json::parse(job->reply());
  CHECK(reply.at("builds").get<std::size_t>() == 2 * per_round);
  CHECK(reply.at("failed").get<int>() == 0);  // the larger sizes are sizes every lesson takes (or leaves out)
  CHECK(reply.at("slowest_ms").get<double>() > 0);
  CHECK(reply.at("slowest").get<std::string>().find('/') != std::string::npos);  // "view/figure"
  // No larger sizes: the defaults alone; a large budget: all in one slice.
  auto plain = jobs.start("warm", R"({"rounds": 1, "sizes": [], "width": 320, "height": 200})");
  CHECK(plain->step(1e9));
  CHECK(nlohmann::json::parse(plain->reply()).at("builds").get<std::size_t>() == per_round);
  // The larger sizes repeated (here a small "larger" size, to be quick); none of them: the defaults alone.
  auto thrice = jobs.start("warm", R"({"rounds": 1, "large_rounds": 2, "sizes": [["d", "96"]], "width": 320, "height": 200})");
  CHECK(thrice->step(1e9));
  CHECK(nlohmann::json::parse(thrice->reply()).at("builds").get<std::size_t>() == 3 * per_round);
  auto none = jobs.start("warm", R"({"rounds": 2, "large_rounds": 0, "width": 320, "height": 200})");
  CHECK(none->step(1e9));
  CHECK(nlohmann::json::parse(none->reply()).at("builds").get<std::size_t>() == 2 * per_round);
  // A size a lesson refuses is left out there, not a failure.
  auto odd = jobs.start("warm", R"({"rounds": 1, "sizes": [["d", "7"], ["heads", "100000"]], "width": 320, "height": 200})");
  CHECK(odd->step(1e9));
  CHECK(nlohmann::json::parse(odd->reply()).at("failed").get<int>() == 0);
  CHECK_THROWS((void)jobs.start("warm", "not json"));
}

TEST_CASE("worker jobs: \"warm\" builds each figure again until its builds took min_ms, at most max_repeats times") {
  ui::WorkerJobs jobs(app::assets_dir());
  std::size_t per_round = 0;
  for (const app::ViewDef& v : app::view_defs())
    if (v.id != "lab") per_round += v.figures.size() + (v.readouts ? 1 : 0);
  const auto run = [&](const std::string& request, std::size_t* parts = nullptr) {
    auto job = jobs.start("warm", request);
    int slices = 0;
    bool finished = false;
    while (!finished) {
      finished = job->step(0);  // one build a slice: a repeat is a slice of its own
      ++slices;
      if (parts && !job->take_part().empty()) ++*parts;
    }
    nlohmann::json reply = nlohmann::json::parse(job->reply());
    reply["slices"] = slices;
    return reply;
  };
  // Without them: once each, none repeated (as before).
  const nlohmann::json once = run(R"({"rounds": 1, "sizes": [], "width": 320, "height": 200})");
  CHECK(once.at("repeated").get<int>() == 0);
  CHECK(once.at("slices").get<std::size_t>() == per_round);
  // A time no build reaches: every build made max_repeats times, counted once in "builds";
  // the progress counts builds, not repeats; what is handed back is each build's first.
  std::size_t parts = 0;
  const nlohmann::json thrice =
      run(R"({"rounds": 1, "sizes": [], "min_ms": 1000, "max_repeats": 3, "hand_back": true, "width": 320, "height": 200})",
          &parts);
  CHECK(thrice.at("builds").get<std::size_t>() == per_round);
  CHECK(thrice.at("repeated").get<std::size_t>() == 2 * per_round);
  CHECK(thrice.at("slices").get<std::size_t>() == 3 * per_round);
  CHECK(thrice.at("failed").get<int>() == 0);
  CHECK(parts == per_round);
  CHECK(thrice.at("handed_back").get<std::size_t>() == per_round);
  // Any time a build reaches at once: once each; max_repeats 1: once, whatever min_ms.
  CHECK(run(R"({"rounds": 1, "sizes": [], "min_ms": 1e-9, "max_repeats": 64, "width": 320, "height": 200})")
            .at("repeated")
            .get<int>() == 0);
  CHECK(run(R"({"rounds": 1, "sizes": [], "min_ms": 1000, "max_repeats": 1, "width": 320, "height": 200})")
            .at("repeated")
            .get<int>() == 0);
}

TEST_CASE("worker jobs: \"warm\" with hand_back hands out each build's reply, which the page's thread lands and draws off screen") {
  ui::WorkerJobs jobs(app::assets_dir());
  std::size_t per_round = 0, readouts = 0;
  for (const app::ViewDef& v : app::view_defs())
    if (v.id != "lab") per_round += v.figures.size() + (v.readouts ? 1 : 0), readouts += v.readouts ? 1 : 0;
  // Asked without it, nothing is handed out.
  auto quiet = jobs.start("warm", R"({"rounds": 1, "sizes": [], "width": 320, "height": 200})");
  bool finished = false;
  while (!finished) {
    finished = quiet->step(0);
    CHECK(quiet->take_part().empty());
  }
  CHECK(nlohmann::json::parse(quiet->reply()).at("handed_back").get<int>() == 0);
  // With it, at the defaults, every build in a piece of its own, even at a large budget.
  ui::BlindPlatform platform;
  ui::App window(platform, {.assets = app::assets_dir(), .lang = "en"});
  window.blind_frame();  // the fonts built
  auto job = jobs.start("warm", R"({"rounds": 1, "sizes": [], "hand_back": true, "width": 320, "height": 200})");
  std::size_t figures = 0, readout_parts = 0, heatmaps = 0;
  int steps = 0;
  finished = false;
  while (!finished) {
    finished = job->step(1e9);
    ++steps;
    const std::string part = job->take_part();
    REQUIRE(part.size() > 1);
    CHECK(job->take_part().empty());  // taken once
    const std::string_view bytes = std::string_view(part).substr(1);
    if (part[0] == 'r') {
      ++readout_parts;
      CHECK(ui::decode_readouts_reply(bytes).result.error.empty());
      continue;
    }
    REQUIRE(part[0] == 'f');
    const ui::FigureReply reply = ui::decode_figure_reply(bytes);
    REQUIRE(reply.result.error.empty());
    ++figures;
    // Laid out and drawn off screen: draw commands made, heatmaps uploaded (and released).
    const int uploads = platform.sink.uploads;
    const bool heatmap = !reply.result.figure.heatmaps.empty();
    CHECK_MESSAGE(window.warm_plot(reply.result.figure) > 0, reply.result.figure.title);
    CHECK((platform.sink.uploads > uploads) == heatmap);
    heatmaps += heatmap;
  }
  CHECK(steps == static_cast<int>(per_round));
  CHECK(figures + readout_parts == per_round);
  CHECK(readout_parts == readouts);
  CHECK(heatmaps > 3);  // ALiBi's, T5's, the Gaussian's, …
  CHECK(nlohmann::json::parse(job->reply()).at("handed_back").get<std::size_t>() == per_round);
  // What the page hands its own thread is what the worker built; anything else is refused, not drawn.
  // (poslab_warm_land, main_web.cpp, reads the first byte; here the pieces' own decoders refuse garbage.)
  CHECK_THROWS((void)ui::decode_figure_reply("not a reply"));
}

TEST_CASE("worker jobs: \"lab\" trains a model a few steps per slice and answers as the lab itself does") {
  ui::WorkerJobs jobs(app::assets_dir());
  REQUIRE(jobs.knows("lab"));
  const std::string request =
      R"({"task": "lm", "encoding": "alibi", "seed": 3, "steps": 7, "layers": 1, "width": 16, "heads": 2,)"
      R"( "train_length": 8, "eval_length": 16, "batch": 4, "eval_samples": 8})";
  auto job = jobs.start("lab", request);
  int slices = 0;
  double last = -1;
  while (!job->step(0)) {  // a budget of 0: one step per slice
    ++slices;
    CHECK(job->progress().done > last);
    CHECK(job->progress().total == 7);
    last = job->progress().done;
  }
  CHECK(slices == 6);  // the seventh step finishes it
  const nlohmann::json reply = nlohmann::json::parse(job->reply());
  // The same run trained in one go (a run is a pure function of its config).
  core::lab::LabRun run(ui::lab_config_from_json(request));
  run.train(100);
  const core::lab::LabEvaluation e = run.evaluate();
  CHECK(reply.at("encoding") == "alibi");
  CHECK(reply.at("steps") == 7);
  CHECK(reply.at("params") == run.parameter_count());
  REQUIRE(reply.at("loss").size() == run.loss_history().size());
  for (std::size_t i = 0; i < run.loss_history().size(); ++i)
    CHECK(static_cast<float>(reply.at("loss")[i].get<double>()) == run.loss_history()[i]);
  REQUIRE(reply.at("values").size() == e.values.size());
  CHECK(reply.at("lengths").get<std::vector<int>>() == e.lengths);
  for (std::size_t i = 0; i < e.values.size(); ++i) CHECK(reply.at("values")[i].get<double>() == e.values[i]);
  CHECK(reply.at("metric") == "loss");
  // Bad requests fail the job with the key's name, before any training.
  CHECK_THROWS_AS((void)jobs.start("lab", "not json"), std::exception);
  try {
    (void)jobs.start("lab", R"({"layers": 9})");
    FAIL("layers 9 was accepted");
  } catch (const core::InvalidParameter& ex) {
    CHECK(std::string(ex.what()).find("layers") != std::string::npos);
  }
}

// [SECTION] The lab's models in the page's worker (issue 26, point 5)

TEST_CASE("worker jobs: \"lab_model\" trains the lesson's model and sends it back whole, bit for bit") {
  namespace lab = app::lab_lesson;
  ui::WorkerJobs jobs(app::assets_dir());
  REQUIRE(jobs.knows("lab_model"));
  lab::Plan plan;
  plan.steps = 13;  // a model of the lesson's own size, 13 steps (a number no other test trains)
  for (const core::lab::Encoding encoding : {core::lab::Encoding::rope, core::lab::Encoding::learned}) {
    const core::lab::LabConfig c = plan.config(encoding, 2);
    CAPTURE(core::lab::encoding_name(encoding));
    auto job = jobs.start("lab_model", lab::model_request(c, 3.0));
    int slices = 0;
    while (!job->step(0)) {  // one step per slice: the note carries the loss of each step so far
      ++slices;
      const ui::JobProgress p = job->progress();
      CHECK(p.total == 13);
      CHECK(lab::parse_losses_note(p.note).size() == static_cast<std::size_t>(p.done));
    }
    CHECK(slices == 12);
    const lab::TrainedPtr got = lab::decode_trained(job->reply());
    // The same model trained here, outside the lesson.
    core::lab::LabRun run(c);
    run.train(100);
    REQUIRE(got);
    CHECK(lab::same_model(got->config(), c));
    CHECK(got->losses() == run.loss_history());
    const auto w = run.model().parameters();
    CHECK(got->weights() == std::vector<float>(w.begin(), w.end()));
    CHECK(got->evaluation().values == run.evaluate().values);
    if (encoding == core::lab::Encoding::rope) {
      CHECK(got->readings().size() == 4);  // none, and PI, NTK-aware, YaRN at s = 3: computed in the worker
      CHECK(got->evaluation(core::lab::Extension::yarn, 3.0).values ==
            run.evaluate(core::lab::Extension::yarn, 3.0).values);
    }
    CHECK(got->attention(1, 2, 40).weights == run.attention_map(1, 2, 40).weights);
    // The note's losses are the losses, to five digits.
    const std::vector<float> noted = lab::parse_losses_note(lab::losses_note(run.loss_history()));
    REQUIRE(noted.size() == run.loss_history().size());
    for (std::size_t i = 0; i < noted.size(); ++i) CHECK(noted[i] == doctest::Approx(run.loss_history()[i]).epsilon(1e-4));
  }
  // Bytes that are not a model are refused, never misread.
  CHECK_THROWS_AS((void)lab::decode_trained("PLT1"), std::runtime_error);
  CHECK_THROWS_AS((void)lab::decode_trained("nonsense bytes"), std::runtime_error);
  CHECK_THROWS_AS((void)lab::parse_losses_note("1.5 x"), std::runtime_error);
  CHECK(lab::parse_losses_note("").empty());
}

TEST_CASE("worker jobs: \"lab_model\" sent with the model's kept bytes only reads it; bytes it refuses are trained over") {
  // The page keeps its models (web/page.js, IndexedDB) and sends a kept one
  // with its bytes (LabRun::save): the worker restores instead of training.
  namespace lab = app::lab_lesson;
  namespace fs = std::filesystem;
  ui::WorkerJobs jobs(app::assets_dir());
  lab::Plan plan;
  plan.steps = 17;  // a number no other test trains
  const core::lab::LabConfig c = plan.config(core::lab::Encoding::rope, 2);
  core::lab::LabRun run(c);
  run.train(100);
  const std::string saved = run.save();
  const auto w = run.model().parameters();
  const std::vector<float> weights(w.begin(), w.end());
  CHECK(lab::split_model_request(lab::model_request(c, 3.0)).second.empty());
  CHECK(lab::split_model_request(lab::model_request(c, 3.0, saved)).second == saved);
  {
    auto job = jobs.start("lab_model", lab::model_request(c, 3.0, saved));
    CHECK(job->step(0));  // the first slice ends it: nothing to train
    CHECK(job->progress().done == 17);
    const lab::TrainedPtr got = lab::decode_trained(job->reply());
    CHECK(got->weights() == weights);
    CHECK(got->losses() == run.loss_history());
    CHECK(got->readings().size() == 4);  // read as the lesson reads it
    CHECK(got->evaluation(core::lab::Extension::ntk, 3.0).values == run.evaluate(core::lab::Extension::ntk, 3.0).values);
    // What the page keeps of it is what the desktop keeps of the run.
    const fs::path dir = fs::temp_directory_path() / ("poslab-lab-kept-web-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    lab::set_model_folder(dir);
    lab::keep(*got);
    lab::keep_readings(*got);
    auto kept = lab::load_kept(c);
    const lab::TrainedPtr read = lab::load_kept_read(c, 3.0);
    lab::set_model_folder({});
    fs::remove_all(dir);
    REQUIRE(kept);
    CHECK(kept->save() == saved);
    REQUIRE(read);
    CHECK(read->evaluation(core::lab::Extension::ntk, 3.0).values == got->evaluation(core::lab::Extension::ntk, 3.0).values);
    CHECK(read->readings().size() == 4);
  }
  // A changed byte, another config's model, bytes that are no model: trained, the same model.
  std::string damaged = saved;
  damaged[damaged.size() - 100] = static_cast<char>(damaged[damaged.size() - 100] ^ 1);
  core::lab::LabRun other(plan.config(core::lab::Encoding::rope, 3));
  other.train(100);
  for (const std::string& bad : {damaged, other.save(), std::string("nonsense")}) {
    auto job = jobs.start("lab_model", lab::model_request(c, 3.0, bad));
    int slices = 0;
    while (!job->step(0)) ++slices;
    CHECK(slices == 16);
    CHECK(lab::decode_trained(job->reply())->weights() == weights);
  }
}

namespace {

/// The page's worker as the lab's screen uses it (ui::JobRunner), played by
/// the test: jobs queue up and run — by the worker's own code, WorkerJobs —
/// when the test says, progress after every slice, as web/worker.js does.
struct QueuedJobs final : ui::JobRunner {
  struct Item {
    std::uint64_t id;
    std::string kind, request;
    Callbacks callbacks;
  };
  ui::WorkerJobs kinds{app::assets_dir()};
  std::deque<Item> queue;
  bool up = true;
  std::uint64_t next = 1;
  int answered = 0, cancelled = 0, replaced = 0;

  bool ready() const override { return up; }
  std::uint64_t run(std::string_view kind, std::string request, Callbacks callbacks) override {
    const std::uint64_t id = next++;
    if (!up) {
      if (callbacks.failed) callbacks.failed("not running");
      return id;
    }
    queue.push_back({id, std::string(kind), std::move(request), std::move(callbacks)});
    return id;
  }
  void cancel(std::uint64_t id) override {
    const auto it = std::find_if(queue.begin(), queue.end(), [&](const Item& j) { return j.id == id; });
    if (it == queue.end()) return;
    queue.erase(it);
    ++cancelled;
  }
  /// Runs every job to its end, in order. (The job also puts its model into
  /// this process's store, as the worker does into its own: `replaced`
  /// counts the models the page's landing put in its place.)
  void answer_all() {
    while (!queue.empty()) {
      Item j = std::move(queue.front());
      queue.pop_front();
      auto job = kinds.start(j.kind, j.request);
      while (!job->step(20))
        if (j.callbacks.progress) j.callbacks.progress(job->progress());
      const std::string reply = job->reply();
      const core::lab::LabConfig c = ui::lab_config_from_json(j.request);
      const app::lab_lesson::TrainedPtr workers = app::lab_lesson::find(c);
      j.callbacks.done(reply);
      replaced += app::lab_lesson::find(c) != workers;
      ++answered;
    }
  }
  /// The worker dies: every job in flight fails.
  void die() {
    up = false;
    while (!queue.empty()) {
      Item j = std::move(queue.front());
      queue.pop_front();
      if (j.callbacks.failed) j.callbacks.failed("died");
    }
  }
};

}  // namespace

TEST_CASE("lab: with the page's worker up, each model is a job there; Stop cancels them; a dead worker's train here") {
  namespace lab = app::lab_lesson;
  QueuedJobs worker;
  ui::set_job_runner(&worker);
  test::BlindApp b(true);
  b.app->figures().set_wait_ms(0);
  REQUIRE(b.state().select_view("lab"));
  b.frames(2);
  SUBCASE("six jobs, progress and the live loss on the way, then the models the page would train") {
    REQUIRE(b.state().set_param("lab_steps", 17.0).empty());
    REQUIRE(b.state().set_param("lab_seeds", 1.0).empty());
    REQUIRE(b.state().set_param("lab_train", true).empty());
    const lab::Plan plan = lab::plan(b.state().params());
    b.frames(1);
    CHECK(worker.queue.size() == 6);
    b.frames(3);
    CHECK(worker.queue.size() == 6);  // sent once each
    CHECK(lab::trained_count(plan) == 0);
    // Every model trains in the worker: the lesson asks for no frame of its
    // own (in the page their progress notes draw a few a second, main_web.cpp).
    CHECK_FALSE(b.app->wants_redraw());
    worker.answer_all();
    CHECK(worker.answered == 6);
    CHECK(worker.replaced == 6);  // each model in the store is the one decoded from the worker's bytes
    b.frames(1);
    CHECK(lab::trained_count(plan) == 6);
    for (const core::lab::LabConfig& c : plan.configs()) {
      core::lab::LabRun run(c);
      run.train(100);
      const lab::TrainedPtr m = lab::find(c);
      REQUIRE(m);
      CHECK(m->losses() == run.loss_history());
      CHECK(m->evaluation().values == run.evaluate().values);
    }
    b.frames(2);
    check_caught_up(b);
  }
  SUBCASE("models kept with their readings are shown without a job, one a frame; damaged readings: read in the worker") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("poslab-lab-kept-read-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    lab::set_model_folder(dir);
    const double s = 3;  // the factor the RoPE model is read at: its kept readings are at 3
    REQUIRE(b.state().set_param("factor", s).empty());
    REQUIRE(b.state().set_param("lab_steps", 18.0).empty());  // models no other test trains: none in memory
    REQUIRE(b.state().set_param("lab_seeds", 1.0).empty());
    REQUIRE(b.state().set_param("lab_train", true).empty());
    const lab::Plan plan = lab::plan(b.state().params());
    REQUIRE(plan.configs().size() == 6);
    std::vector<std::pair<std::vector<float>, std::vector<double>>> earlier;  // each model's weights and first reading
    for (const core::lab::LabConfig& c : plan.configs()) {  // kept by an earlier session, never in this one's store
      auto run = std::make_unique<core::lab::LabRun>(c);
      run->train(100);
      lab::keep(*run);
      const lab::Trained model(std::move(run));
      earlier.emplace_back(model.weights(), model.evaluation().values);
      if (c.encoding == core::lab::Encoding::rope)
        for (core::lab::Extension x : lab::kExtensions) (void)model.evaluation(x, s);
      lab::keep_readings(model);
    }
    const core::lab::LabConfig damaged = plan.configs().back();
    char hex[40];
    std::snprintf(hex, sizeof hex, "%016llx.readings", static_cast<unsigned long long>(core::lab::lab_config_hash(damaged)));
    {
      std::fstream f(dir / hex, std::ios::in | std::ios::out | std::ios::binary);
      REQUIRE(f);
      f.seekp(-30, std::ios::end);
      f.put('\x5a');
    }
    std::vector<int> shown;
    for (int frame = 0; frame < 8; ++frame) {
      b.frames(1);
      shown.push_back(lab::trained_count(plan));
    }
    CHECK(shown.front() <= 1);                                       // one a frame: a file read and a restore each
    CHECK(shown.back() == 5);                                        // the five with sound readings, no job
    REQUIRE(worker.queue.size() == 1);                               // the sixth is read in the worker,
    CHECK_FALSE(lab::split_model_request(worker.queue.front().request).second.empty());  // sent with its run
    for (std::size_t i = 0; i + 1 < plan.configs().size(); ++i) {  // (the last is the damaged one)
      const lab::TrainedPtr m = lab::find(plan.configs()[i]);
      REQUIRE(m);
      CHECK(m->read_as_finished(s));  // (so evaluation() below computes nothing: it returns the kept reading)
      CHECK(m->weights() == earlier[i].first);
      CHECK(m->evaluation().values == earlier[i].second);
    }
    worker.answer_all();
    b.frames(1);
    CHECK(lab::trained_count(plan) == 6);
    CHECK(lab::load_kept_read(damaged, s));  // its readings kept anew
    lab::set_model_folder({});
    fs::remove_all(dir);
  }
  SUBCASE("Stop cancels every job in the worker") {
    REQUIRE(b.state().set_param("lab_steps", 20000.0).empty());
    REQUIRE(b.state().set_param("lab_seeds", 5.0).empty());
    REQUIRE(b.state().set_param("lab_train", true).empty());
    b.frames(2);
    CHECK(worker.queue.size() == 30);
    REQUIRE(b.state().set_param("lab_train", false).empty());  // Stop
    b.frames(1);
    CHECK(worker.cancelled == 30);
    CHECK(worker.queue.empty());
  }
  SUBCASE("the worker dies mid-run: its models train here, none is lost") {
    REQUIRE(b.state().set_param("lab_steps", 19.0).empty());
    REQUIRE(b.state().set_param("lab_seeds", 1.0).empty());
    REQUIRE(b.state().set_param("lab_train", true).empty());
    const lab::Plan plan = lab::plan(b.state().params());
    b.frames(1);
    REQUIRE(worker.queue.size() == 6);
    worker.die();
    const auto t0 = std::chrono::steady_clock::now();
    while (lab::trained_count(plan) < 6 && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(120)) {
      b.frames(1);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(lab::trained_count(plan) == 6);
    CHECK(worker.answered == 0);
  }
  ui::set_job_runner(nullptr);
}
