// Figures and readouts built off the UI thread (issue 16), as the interactive
// window does (AppOptions::background_figures): while a build runs, the
// previous figure stays on screen marked "updating" and the app keeps drawing;
// when the builds land, what is shown is exactly what an in-place build of the
// state gives — after any sequence of changes, lessons and steps.

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>
#include <string>
#include <vector>

#include "app/common/messages.hpp"
#include "app/export/figure_export.hpp"
#include "app/lessons/lab/setting.hpp"
#include "app/ui/slider_math.hpp"
#include "gui_test_support.hpp"

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
