// `poslab bench`: the GUI's part of the report (issue "Performance").
//
// Frame time is the CPU time of one whole App frame — rebuild what changed,
// lay the figures out, produce ImGui's draw data (before_frame, NewFrame,
// draw, Render) — while a parameter changes every frame, measured in blind
// mode (no window, no GL: the same App, the same draw data; a window would
// only add the GPU's replay of that data). It is the calling thread's CPU
// time (CLOCK_THREAD_CPUTIME_ID): the App builds on one thread, and on a
// shared machine the time the thread waits for a core is not the App's cost.
//
// For each view, every key it reads is swept on its own (issue 16): a number
// over the middle of its slider back and forth (the top fifth when the key is
// at its maximum), a choice or a boolean through every value, a new value
// every frame — at the view's defaults and at the largest sizes the view
// accepts (positions 1,048,576, d 8192, factor 64, buckets 256, heads 256;
// where a work budget refuses one, the next smaller: "max_settings" says which
// were applied). Lists and vectors are typed, not dragged: skipped. The
// guided steps count as a key ("step", one step per frame), and the built-in
// course deck is presented scene by scene ("deck_scene_ms"). Each view's
// entry names its worst key (the highest p95 at the maxima), gives that key's
// max/default ratio and the slowest single frame of every case.
//
// The App runs as the interactive window does (AppOptions::background_figures):
// a figure that is not built within FigureCache::kWaitMs of a frame is built
// on the worker thread while the previous one stays on screen. So a frame's
// time is the UI thread's (what decides whether the window freezes), frames
// are paced at 60 Hz as a display would (the worker builds meanwhile), and
// each case also reports "figure_ms": the wall time of every figure build in
// it (p50 / p95 / max): on the worker thread the build's own run, in the
// page from its request to its bytes taken in (the worker's queue included) —
// and "trail_ms", how far a figure trails the slider, measured the same way
// on every side: from the first frame after a move that its figure did not
// show to the frame that took in a figure showing it (FigureCache::Taken::
// trail_ms; waits in line included). "wall_p95" is the frames' wall
// time, waits included.
//
// In the browser (report key "warm_up_requested") each lesson's keys are
// swept, unmeasured, for at least 3 s and until a round is no longer 10 %
// faster than the one before ("warm_up_rounds"), then timed: V8 runs a wasm function on baseline
// code until it has run hot, and the first lesson measured was timed on it
// (why-position's defaults 4–8 ms against 0.7–1.6 ms warm).
//
// The bench is a coroutine (BenchRun) that stops before every frame to say
// what it waits for — a time (frames paced at 60 Hz) or the figures being
// built elsewhere — so the same sweep runs natively (bench_frames sleeps and
// drains the worker thread) and in the page, whose one thread must return to
// the browser between frames for its Web Worker's figures to land
// (app/platform/web/main_web.cpp: poslab_bench_step). In the page the
// figures are built in that worker (report "figures_built"); a lesson is not
// warmed up unless asked ("warm_up_requested"): the first seconds of a drag,
// before V8 has optimized the code, count.
//
// startup_ms: from the process start (/proc/self/stat, 10 ms ticks; taken at
// the middle of its tick) to the end of the first frame of a fresh App with
// every figure of its first lesson built, in this process before anything
// else is measured. Blind too: opening the GL window is not included.

#include "app/ui/bench_frames.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <exception>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "app/common/assets.hpp"
#include "app/ui/app.hpp"
#include "app/decks/deck.hpp"
#include "app/ui/slider_math.hpp"

#if __has_include(<coroutine>)
#include <coroutine>
namespace coro = std;
#else
// Emscripten 3.1.6's libc++ (clang 14) has only the Coroutines TS header;
// clang 14 compiles C++20 coroutines against it and says the TS goes in
// LLVM 15 (Debian's emscripten stays on 14).
#include <experimental/coroutine>
namespace coro = std::experimental;
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wdeprecated-experimental-coroutine"
#endif
#endif

namespace poslab::app::ui {

namespace {

/// A coroutine that yields what the bench waits for before each frame
/// (C++20 has no generator type of its own). A sub-sweep's pauses are
/// passed on by its caller: `while (sub.next()) co_yield sub.value();`.
class Steps {
 public:
  struct promise_type {
    BenchPause value;
    std::exception_ptr error;
    Steps get_return_object() { return Steps(coro::coroutine_handle<promise_type>::from_promise(*this)); }
    coro::suspend_always initial_suspend() noexcept { return {}; }
    coro::suspend_always final_suspend() noexcept { return {}; }
    coro::suspend_always yield_value(BenchPause p) {
      value = p;
      return {};
    }
    void return_void() {}
    void unhandled_exception() { error = std::current_exception(); }
  };
  explicit Steps(coro::coroutine_handle<promise_type> h) : h_(h) {}
  Steps(Steps&& other) noexcept : h_(std::exchange(other.h_, {})) {}
  Steps& operator=(Steps&&) = delete;
  ~Steps() {
    if (h_) h_.destroy();
  }
  /// Runs to the next pause; false when the sweep is over. Raises what the sweep raised.
  bool next() {
    h_.resume();
    if (h_.promise().error) std::rethrow_exception(std::exchange(h_.promise().error, {}));
    return !h_.done();
  }
  const BenchPause& value() const { return h_.promise().value; }

 private:
  coro::coroutine_handle<promise_type> h_;
};

BenchPause pause_until(std::chrono::steady_clock::time_point t) {
  return {std::chrono::duration<double, std::milli>(t.time_since_epoch()).count(), false};
}
constexpr BenchPause kFiguresLanded{0, true};

/// The "max" sizes (issue 16), applied one by one to the keys a view reads;
/// where the view refuses a size (a work budget), the next smaller one.
struct MaxSize {
  std::string_view key;
  double values[2];
};
constexpr MaxSize kMaxSizes[] = {{"positions", {1048576, 65536}}, {"d", {8192, 1024}},
                                 {"factor", {64, 32}},            {"buckets", {256, 128}},
                                 {"heads", {256, 128}}};

constexpr int kWarmupFrames = 3;
constexpr int kTimedFrames = 60;
constexpr int kWarmUpFramesPerKey = 10;  // the browser's warm-up rounds (bench_frames below)
constexpr int kMaxWarmUpRounds = 200;
constexpr double kWarmUpSeconds = 3;  // (said in the report's "warm_up")
constexpr double kMaxSecondsPerCase = 5;  // a very slow case stops early (and says so in "frames")

double thread_cpu_ms() {
#if defined(__EMSCRIPTEN__)
  // A browser has no thread CPU clock; the page's one thread is the App's.
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
#else
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
#endif
}

/// Milliseconds since this process started, from /proc/self/stat (field 22,
/// clock ticks since boot) against CLOCK_BOOTTIME; negative when unknown.
double ms_since_process_start() {
  std::ifstream in("/proc/self/stat");
  std::string stat;
  std::getline(in, stat);
  const auto close = stat.rfind(')');  // the command name may hold spaces
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  unsigned long long start_ticks = 0;
  for (int i = 3; i <= 22 && fields >> field; ++i)
    if (i == 22) start_ticks = std::stoull(field);
  const long hz = ::sysconf(_SC_CLK_TCK);
  if (start_ticks == 0 || hz <= 0) return -1;
  timespec now{};
  ::clock_gettime(CLOCK_BOOTTIME, &now);
  const double now_ms = static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) * 1e-6;
  const double start_ms = (static_cast<double>(start_ticks) + 0.5) * 1e3 / static_cast<double>(hz);
  return now_ms - start_ms;
}

bool reads(const ViewDef& v, std::string_view key) {
  return std::find(v.keys.begin(), v.keys.end(), key) != v.keys.end();
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double at = p * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(at));
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (at - static_cast<double>(lo));
}

/// A fresh App in blind mode with its own temporary config folder.
struct BlindSession {
  BlindPlatform platform;
  std::unique_ptr<App> app;
  std::filesystem::path dir;

  BlindSession(bool background, RemoteBuilds* remote) {
    dir = std::filesystem::temp_directory_path() / ("poslab-bench-gui-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    AppOptions o;
    o.assets = assets_dir();
    o.lang = "en";
    o.persist = false;
    o.config_dir = dir / "config";
    o.background_figures = background;
    app = std::make_unique<App>(platform, o);
    app->export_choice().dir = dir / "exports";
    app->figures().set_remote(remote);
  }
  ~BlindSession() {
    app.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  BlindSession(const BlindSession&) = delete;
  BlindSession& operator=(const BlindSession&) = delete;
};

/// The values the sweep visits: the middle 40 % of the slider (the whole
/// slider when the view accepts fewer than two values there, e.g. head <=
/// heads), snapped, each one accepted by the view at the current parameters;
/// back and forth.
std::vector<double> sweep_values(AppState& st, std::string_view key, bool top) {
  const core::ParamSpec& spec = core::param_spec(key);
  const core::Params before = st.params();
  std::vector<double> ok;
  const std::pair<double, double> first = top ? std::pair{0.8, 0.2} : std::pair{0.3, 0.4};
  for (const auto& [from, span] : {first, std::pair{0.0, 1.0}}) {
    ok.clear();
    for (int i = 0; i <= 40; ++i) {
      const double v = snap(spec, interpolate(spec, spec.ui_min, spec.ui_max, from + span * i / 40.0), false);
      if ((ok.empty() || ok.back() != v) && st.set_param(key, v).empty()) ok.push_back(v);
    }
    if (ok.size() >= 2) break;
  }
  if (st.params() != before) {
    // back to where it was (the sweep starts from the setting under test)
    if (before.is_set(key)) (void)st.set_param(key, before.value(key));
    else st.reset_param(key);
  }
  // and back, without repeating an end: a, b, c, b | a, b, …
  const std::size_t n = ok.size();
  for (std::size_t i = n - 1; i-- > 1;) ok.push_back(ok[i]);
  return ok;
}

struct CaseResult {
  double p50 = 0, p95 = 0, worst = 0;
  double wall_p95 = 0;
  double figure_p50 = 0, figure_p95 = 0, figure_worst = 0;  ///< build wall ms
  double trail_p50 = 0, trail_p95 = 0, trail_worst = 0;  ///< how long a figure trails the slider (ms)
  double rebuilt = 0;  ///< figures rebuilt per frame, on average
  double layout_worst = 0;  ///< the slowest figure layout on the UI thread (wall ms) …
  std::string layout_figure;  ///< … and its figure's title
  double in_place_worst = 0;  ///< the slowest figure built in the frame (wall ms) …
  std::string in_place_figure;  ///< … and its "view/figure"
  int frames_over_16 = 0, frames_over_50 = 0;  ///< frames (CPU ms) above a 60 Hz frame, above 50 ms
  /// The slowest frame's figure layouts: how many, and their ms in all (the
  /// rest of that frame was building, taking figures in, the widgets).
  int worst_layouts = 0;
  double worst_layouts_ms = 0;
  int frames_while_building = 0;  ///< frames drawn while a figure was being built elsewhere
  bool caught_up = true;  ///< after the last move every figure shown is the state's
  /// Per figure ("view/figure"): builds taken in, of them in the page's
  /// worker, the builds' own ms (p50, p95) and the trail (p95).
  struct PerFigure {
    int builds = 0, remote = 0;
    double own_p50 = 0, own_p95 = 0, wall_p95 = 0, trail_p95 = 0;
  };
  std::map<std::string, PerFigure> by_figure;
  int remote_builds = 0;  ///< of them built in the page's worker …
  double remote_p95 = 0;  ///< … taking this long there (without the trip) …
  double land_p95 = 0, land_worst = 0;  ///< … and the UI thread this long to take each in, between frames
  int frames = 0;
  std::string skipped;  ///< why the key was not swept (not a failure)
  std::string error;
};

/// Figures built elsewhere (the worker thread, the page's worker) land and
/// are drawn: until nothing is being built (a build that lands for an older
/// value starts one for the last, so a few rounds).
Steps catch_up(App& app) {
  for (int round = 0; round < 8; ++round) {
    co_yield kFiguresLanded;
    app.blind_frame();
    if (app.figures().updating() == 0) break;
  }
}

/// Times frames of `app` while `move(i)` changes something before frame i
/// (returns "" or why it was refused), into `r`.
Steps time_moves(App& app, int count, std::function<std::string(int)> move, CaseResult& r, int frames = kTimedFrames) {
  r = {};
  std::vector<double> ms, wall;
  ms.reserve(static_cast<std::size_t>(frames));
  const auto wall0 = std::chrono::steady_clock::now();
  const int builds0 = app.figures().builds();
  (void)app.figures().take_taken();
  (void)app.figures().take_slowest_in_place();
  LayoutLog& layouts = layout_log();
  layouts.entries.clear();
  layouts.on = true;
  // Paced as a display would: the worker (thread or page worker) builds meanwhile.
  const bool paced = app.figures().background() || app.figures().remote();
  for (int i = 0; i < frames; ++i) {
    const std::string why = move(i % count);
    if (!why.empty()) {
      r.error = why;
      break;
    }
    const auto w0 = std::chrono::steady_clock::now();
    if (app.figures().updating() > 0) ++r.frames_while_building;
    const std::size_t laid0 = layouts.entries.size();
    const double t0 = thread_cpu_ms();
    app.blind_frame();
    ms.push_back(thread_cpu_ms() - t0);
    if (ms.back() >= r.worst) {
      r.worst = ms.back();
      r.worst_layouts = static_cast<int>(layouts.entries.size() - laid0);
      r.worst_layouts_ms = 0;
      for (std::size_t j = laid0; j < layouts.entries.size(); ++j) r.worst_layouts_ms += layouts.entries[j].second;
    }
    wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count());
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count() > kMaxSecondsPerCase) break;
    if (paced) co_yield pause_until(w0 + std::chrono::microseconds(16667));  // a 60 Hz display
  }
  layouts.on = false;
  for (const auto& [title, ms_layout] : layouts.entries)
    if (ms_layout > r.layout_worst) r.layout_worst = ms_layout, r.layout_figure = title;
  layouts.entries.clear();
  // The figures catch up with the last move.
  Steps landing = catch_up(app);
  while (landing.next()) co_yield landing.value();
  r.caught_up = app.figures().updating() == 0;
  // Everything taken in meanwhile: figures (built: wall ms, in the page from
  // the request), trails, the page worker's own build times and landings
  // (figures and readouts), and each figure's own.
  std::vector<double> built, trailed, remote, landed;
  std::map<std::string, std::array<std::vector<double>, 3>> per_figure;  // own, trail, wall
  for (const FigureCache::Taken& t : app.figures().take_taken()) {
    if (!t.readouts) built.push_back(t.wall_ms);
    if (t.trail_ms >= 0) trailed.push_back(t.trail_ms);
    if (t.remote && !t.readouts) remote.push_back(t.own_ms);
    if (t.remote) landed.push_back(t.land_ms);
    CaseResult::PerFigure& f = r.by_figure[t.key];
    ++f.builds;
    f.remote += t.remote;
    auto& lists = per_figure[t.key];
    lists[0].push_back(t.own_ms);
    if (t.trail_ms >= 0) lists[1].push_back(t.trail_ms);
    lists[2].push_back(t.wall_ms);
  }
  for (auto& [key, lists] : per_figure) {
    CaseResult::PerFigure& f = r.by_figure[key];
    f.own_p50 = percentile(lists[0], 0.50);
    f.own_p95 = percentile(lists[0], 0.95);
    f.trail_p95 = percentile(lists[1], 0.95);
    f.wall_p95 = percentile(lists[2], 0.95);
  }
  r.figure_p50 = percentile(built, 0.50);
  r.figure_p95 = percentile(built, 0.95);
  r.figure_worst = built.empty() ? 0 : *std::max_element(built.begin(), built.end());
  r.trail_p50 = percentile(trailed, 0.50);
  r.trail_p95 = percentile(trailed, 0.95);
  r.trail_worst = trailed.empty() ? 0 : *std::max_element(trailed.begin(), trailed.end());
  r.remote_builds = static_cast<int>(remote.size());
  r.remote_p95 = percentile(remote, 0.95);
  std::tie(r.in_place_figure, r.in_place_worst) = app.figures().take_slowest_in_place();
  r.land_p95 = percentile(landed, 0.95);
  r.land_worst = landed.empty() ? 0 : *std::max_element(landed.begin(), landed.end());
  r.wall_p95 = percentile(wall, 0.95);
  // How many of the lesson's figures each frame rebuilt (custom lesson
  // screens draw some figures themselves, outside the figure cache).
  if (!ms.empty())
    r.rebuilt = static_cast<double>(app.figures().builds() - builds0) / static_cast<double>(ms.size());
  r.frames = static_cast<int>(ms.size());
  r.p50 = percentile(ms, 0.50);
  r.p95 = percentile(ms, 0.95);
  r.worst = ms.empty() ? 0 : *std::max_element(ms.begin(), ms.end());
  r.frames_over_16 = static_cast<int>(std::count_if(ms.begin(), ms.end(), [](double v) { return v > 16; }));
  r.frames_over_50 = static_cast<int>(std::count_if(ms.begin(), ms.end(), [](double v) { return v > 50; }));
}

std::vector<std::string> split_choices(std::string_view text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t bar = std::min(text.find('|', at), text.size());
    if (bar > at) out.emplace_back(text.substr(at, bar - at));
    at = bar + 1;
  }
  return out;
}

/// One key swept at the current setting: a number over its slider (the top
/// fifth when `top`: the key is at its maximum), a choice or a boolean
/// through every value it takes, into `r`. The key's value is put back afterwards.
Steps time_key(App& app, std::string_view key, bool top, CaseResult& r, int frames = kTimedFrames) {
  AppState& st = app.state();
  const core::ParamSpec& spec = core::param_spec(key);
  const core::Params before = st.params();
  r = {};
  app.blind_frame();  // build at this setting
  {
    Steps landing = catch_up(app);
    while (landing.next()) co_yield landing.value();
  }
  for (int i = 0; i < kWarmupFrames; ++i) app.blind_frame();
  if (!st.resolved()) {
    r.error = st.resolve_error();
    co_return;
  }
  if (is_numeric(spec)) {
    const std::vector<double> values = sweep_values(st, key, top);
    if (values.size() < 2) {
      r.skipped = "no two accepted values at this setting";
    } else {
      Steps sweep = time_moves(app, static_cast<int>(values.size()),
                               [&st, key, values](int i) { return st.set_param(key, values[static_cast<std::size_t>(i)]); },
                               r, frames);
      while (sweep.next()) co_yield sweep.value();
    }
  } else if (spec.type == core::ParamType::choice || spec.type == core::ParamType::boolean) {
    std::vector<std::string> words =
        spec.type == core::ParamType::boolean ? std::vector<std::string>{"false", "true"} : split_choices(spec.choices);
    std::erase_if(words, [&](const std::string& w) {  // the values this view accepts here
      const bool ok = st.set_param_text(key, w).empty();
      return !ok;
    });
    if (words.size() < 2) {
      r.skipped = "fewer than two accepted values at this setting";
    } else {
      Steps sweep = time_moves(app, static_cast<int>(words.size()),
                               [&st, key, words](int i) { return st.set_param_text(key, words[static_cast<std::size_t>(i)]); },
                               r, frames);
      while (sweep.next()) co_yield sweep.value();
    }
  } else {
    r.skipped = "a list or vector (typed, not dragged)";
  }
  if (st.params() != before) {
    if (before.is_set(key)) (void)st.set_param(key, before.value(key));
    else st.reset_param(key);
  }
}

nlohmann::ordered_json case_json(const CaseResult& r) {
  if (!r.skipped.empty()) return {{"skipped", r.skipped}};
  nlohmann::ordered_json c = {{"p50", r.p50},
                              {"p95", r.p95},
                              {"max_frame", r.worst},
                              {"max_frame_layouts", {{"figures", r.worst_layouts}, {"ms", r.worst_layouts_ms}}},
                              {"wall_p95", r.wall_p95},
                              {"frames", r.frames},
                              {"figures_rebuilt_per_frame", r.rebuilt},
                              {"figure_ms", {{"p50", r.figure_p50}, {"p95", r.figure_p95}, {"max", r.figure_worst}}},
                              {"trail_ms", {{"p50", r.trail_p50}, {"p95", r.trail_p95}, {"max", r.trail_worst}}},
                              {"figures_from_page_worker",
                               {{"builds", r.remote_builds}, {"build_p95", r.remote_p95},
                                {"landing_p95", r.land_p95}, {"landing_max", r.land_worst}}},
                              {"frames_while_building", r.frames_while_building},
                              {"caught_up", r.caught_up},
                              {"slowest_layout", {{"figure", r.layout_figure}, {"ms", r.layout_worst}}},
                              {"slowest_in_place_build", {{"figure", r.in_place_figure}, {"ms", r.in_place_worst}}},
                              {"frames_over_16_ms", r.frames_over_16},
                              {"frames_over_50_ms", r.frames_over_50}};
  nlohmann::ordered_json each = nlohmann::ordered_json::object();
  for (const auto& [key, f] : r.by_figure)
    each[key] = {{"builds", f.builds}, {"in_page_worker", f.remote}, {"own_ms_p50", f.own_p50},
                 {"own_ms_p95", f.own_p95}, {"request_to_landing_ms_p95", f.wall_p95}, {"trail_ms_p95", f.trail_p95}};
  c["by_figure"] = each;
  if (!r.error.empty()) c["error"] = r.error;
  return c;
}

/// Every view's defaults, then (`max`) the largest sizes the view accepts;
/// returns the assignments applied.
std::vector<std::string> setting(AppState& st, const ViewDef& v, bool max) {
  for (const std::string& k : st.params().set_keys()) st.reset_param(k);
  std::vector<std::string> applied;
  if (!max) return applied;
  for (const MaxSize& m : kMaxSizes) {
    if (!reads(v, m.key)) continue;
    for (double value : m.values) {
      const std::string a = std::string(m.key) + "=" + core::format_number(value);
      if (st.set_assignments({a}).empty()) {
        applied.push_back(a);
        break;
      }
    }
  }
  return applied;
}


/// The whole bench, pausing before frames (BenchRun drives it). Sets `code`
/// and `app` (the App measured, while it lives).
Steps bench_steps(nlohmann::ordered_json& report, RemoteBuilds* remote, int& code, App*& measured) {
  code = 0;
  try {
    const bool in_place = report.value("in_place_requested", false);
    report.erase("in_place_requested");
    BlindSession session(!in_place, in_place ? nullptr : remote);
    App& app = *session.app;
    measured = &app;
    struct Forget {
      App*& app;
      ~Forget() { app = nullptr; }
    } forget{measured};
    const bool worker_up = app.figures().remote() && app.figures().remote()->ready();
    report["figures_built"] = worker_up                     ? "in the page's worker (a second wasm instance)"
                              : app.figures().background() ? "on a worker thread"
                                                           : "in the frame";
    app.blind_frame();
    const double startup = ms_since_process_start();
    if (startup >= 0) report["startup_ms"] = startup;
    // From here every figure of a lesson is laid out each frame, as if the
    // whole page were on screen (the window lays out only the plots in view).
    layout_log().hidden_too = true;
    struct Restore {
      ~Restore() { layout_log().hidden_too = false; }
    } restore;
    report["plots_laid_out"] = "every figure of the lesson, as if all were on screen";

    std::vector<std::string> only;  // `poslab bench --view`: these views alone
    if (report.contains("views_requested")) {
      only = report["views_requested"].get<std::vector<std::string>>();
      report.erase("views_requested");
    }
    // The page's #bench=VIEW&keys=a,b&max: those keys alone, at the maxima alone.
    std::vector<std::string> only_keys;
    if (report.contains("keys_requested")) {
      only_keys = report["keys_requested"].get<std::vector<std::string>>();
      report.erase("keys_requested");
      report["keys"] = only_keys;
    }
    const bool max_only = report.value("max_only_requested", false);
    report.erase("max_only_requested");
    if (max_only) report["settings"] = "the maxima alone";
    auto wanted = [&](std::string_view key) {
      return only_keys.empty() || std::find(only_keys.begin(), only_keys.end(), key) != only_keys.end();
    };
    // The browser compiles a wasm function to optimized code only once it
    // has run hot, on a background thread (V8's tiering: baseline code
    // first): a lesson's first frames run on baseline code, 2–6× slower. The
    // page asks for each lesson's keys to be swept, unmeasured, until the
    // frames stop getting faster, before they are timed — the frames a
    // student sees once the first seconds of a drag are past.
    const bool warm_up = report.value("warm_up_requested", false);
    report.erase("warm_up_requested");
    if (warm_up)
      report["warm_up"] = "each lesson's keys swept at its defaults, unmeasured, round after round for at least 3 s "
                          "and until a round is no longer 10 % faster than the one before, then timed";
    nlohmann::ordered_json warm_up_rounds = nlohmann::ordered_json::object();
    nlohmann::ordered_json frames = nlohmann::ordered_json::object();
    AppState& st = app.state();
    for (const ViewDef& v : st.views()) {
      if (!only.empty() && std::find(only.begin(), only.end(), v.id) == only.end()) continue;
      st.select_view(v.id);
      (void)st.go_to_step(-1);  // the whole page: the keys alone decide
      if (warm_up) {
        // Rounds of every key at the defaults for at least kWarmUpSeconds
        // (the optimized code is compiled on background threads, which share
        // the machine's cores with the page) and until a round is no longer
        // 10 % faster than the one before.
        setting(st, v, false);
        const auto start = std::chrono::steady_clock::now();
        double previous = 0;
        int rounds = 0;
        while (rounds < kMaxWarmUpRounds) {
          const auto t0 = std::chrono::steady_clock::now();
          for (std::string_view key : v.keys) {
            CaseResult ignored;
            Steps sweep = time_key(app, key, false, ignored, kWarmUpFramesPerKey);
            while (sweep.next()) co_yield sweep.value();
          }
          const auto t1 = std::chrono::steady_clock::now();
          const double round = std::chrono::duration<double, std::milli>(t1 - t0).count();
          ++rounds;
          if (rounds >= 2 && round > 0.9 * previous && std::chrono::duration<double>(t1 - start).count() >= kWarmUpSeconds)
            break;
          previous = round;
        }
        warm_up_rounds[v.id] = rounds;
      }
      nlohmann::ordered_json keys = nlohmann::ordered_json::object();
      std::vector<std::string> max_applied;
      std::map<std::string, CaseResult> at[2];
      for (const bool max : {false, true}) {
        if (max_only && !max) continue;
        const std::vector<std::string> applied = setting(st, v, max);
        if (max) max_applied = applied;
        for (std::string_view key : v.keys) {
          if (!wanted(key)) continue;
          const bool top = max && std::any_of(applied.begin(), applied.end(), [&](const std::string& a) {
            return a.compare(0, key.size() + 1, std::string(key) + "=") == 0;
          });
          CaseResult r;
          {
            Steps sweep = time_key(app, key, top, r);
            while (sweep.next()) co_yield sweep.value();
          }
          if (!r.error.empty()) code = 1;
          keys[std::string(key)][max ? "max" : "default"] = case_json(r);
          at[max ? 1 : 0][std::string(key)] = r;
        }
      }
      // The guided steps, one after the other, as a student clicks through them.
      setting(st, v, false);
      if (const Deck* d = st.steps(); d && d->scenes.size() >= 2 && !max_only && wanted("step")) {
        const int n = static_cast<int>(d->scenes.size());
        CaseResult r;
        {
          Steps sweep = time_moves(app, n, [&st](int i) { return st.go_to_step(i); }, r);
          while (sweep.next()) co_yield sweep.value();
        }
        if (!r.error.empty()) code = 1;
        keys["step"]["default"] = case_json(r);
        at[0]["step"] = r;
      }
      (void)st.go_to_step(-1);
      // The worst key: the highest p95 at the maxima (at the defaults when
      // the key has no maxima case), and its max/default ratio.
      std::string worst;
      double worst_p95 = -1;
      for (const auto& [key, r] : at[max_only ? 1 : 0]) {
        const auto m = at[1].find(key);
        const double p95 = m != at[1].end() && m->second.skipped.empty() ? m->second.p95 : r.p95;
        if (r.skipped.empty() && p95 > worst_p95) {
          worst_p95 = p95;
          worst = key;
        }
      }
      nlohmann::ordered_json entry = nlohmann::ordered_json::object();
      const CaseResult& wd = at[0][worst];
      const auto wm = at[1].find(worst);
      const CaseResult& wmax = wm != at[1].end() && wm->second.skipped.empty() ? wm->second : wd;
      double slowest_frame = 0, slowest_figure = 0;
      const CaseResult* slowest_layout = nullptr;
      for (const auto& side : at)
        for (const auto& [key, r] : side) {
          slowest_frame = std::max(slowest_frame, r.worst);
          slowest_figure = std::max(slowest_figure, r.figure_worst);
          if (!slowest_layout || r.layout_worst > slowest_layout->layout_worst) slowest_layout = &r;
        }
      nlohmann::ordered_json d = case_json(wd), m = case_json(wmax);
      d["swept"] = worst;
      m["swept"] = worst;
      entry["default"] = d;  // the worst key's cases (the earlier one-key report's shape)
      entry["max"] = m;
      entry["worst_key"] = worst;
      entry["max_over_default"] = wd.p95 > 0 ? wmax.p95 / wd.p95 : 0.0;
      entry["slowest_frame"] = slowest_frame;
      entry["slowest_figure_build"] = slowest_figure;
      if (slowest_layout)
        entry["slowest_layout"] = {{"figure", slowest_layout->layout_figure}, {"ms", slowest_layout->layout_worst}};
      entry["max_settings"] = max_applied;
      entry["keys"] = keys;
      frames[std::string(v.id)] = entry;
    }
    // The built-in course deck presented scene after scene.
    if (const auto decks = builtin_decks(); !decks.empty() && only.empty() && only_keys.empty() && !max_only) {
      if (std::string why = st.open_deck(decks.front().second, decks.front().first); why.empty()) {
        const int n = static_cast<int>(st.deck()->scenes.size());
        for (int i = 0; i < kWarmupFrames; ++i) app.blind_frame();
        CaseResult r;
        {
          Steps sweep = time_moves(app, n, [&st](int i) { return st.go_to_scene(i); }, r);
          while (sweep.next()) co_yield sweep.value();
        }
        if (!r.error.empty()) code = 1;
        nlohmann::ordered_json c = case_json(r);
        c["deck"] = decks.front().first;
        c["scenes"] = n;
        report["deck_scene_ms"] = c;
        st.close_deck();
      } else {
        report["deck_scene_ms"] = {{"error", why}};
        code = 1;
      }
    }
    report["frame_ms"] = frames;
    if (warm_up) report["warm_up_rounds"] = warm_up_rounds;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "poslab: bench frames: %s\n", e.what());
    code = 1;
  }
}

}  // namespace

struct BenchRun::Impl {
  int code = 0;
  App* app = nullptr;
  BenchPause pause;
  Steps steps;
  Impl(nlohmann::ordered_json& report, RemoteBuilds* remote) : steps(bench_steps(report, remote, code, app)) {}
};

BenchRun::BenchRun(void* ordered_json_report, RemoteBuilds* remote)
    : impl_(std::make_unique<Impl>(*static_cast<nlohmann::ordered_json*>(ordered_json_report), remote)) {}

BenchRun::~BenchRun() = default;

bool BenchRun::next() {
  try {
    if (!impl_->steps.next()) return false;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "poslab: bench frames: %s\n", e.what());
    impl_->code = 1;
    return false;
  }
  impl_->pause = impl_->steps.value();
  return true;
}

const BenchPause& BenchRun::pause() const { return impl_->pause; }

int BenchRun::exit_code() const { return impl_->code; }

App* BenchRun::app() const { return impl_->app; }

int bench_frames(void* ordered_json_report) {
  BenchRun run(ordered_json_report);
  while (run.next()) {
    const BenchPause& p = run.pause();
    if (p.figures && run.app()) {
      run.app()->figures().wait_idle();
    } else if (p.until_ms > 0) {
      const auto until = std::chrono::steady_clock::time_point(
          std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double, std::milli>(p.until_ms)));
      std::this_thread::sleep_until(until);
    }
  }
  return run.exit_code();
}

}  // namespace poslab::app::ui
