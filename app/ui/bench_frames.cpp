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
// For each view: "default" at the view's defaults, "max" at the largest
// sizes the issue names (positions 1,048,576, d 1024, factor 64, buckets 256,
// heads 256 — whichever of those the view reads). The swept parameter is the
// one a teacher would drag (kSweepKeys: the first the view reads), moved over
// the middle of its slider back and forth, a new value every frame.
//
// startup_ms: from the process start (/proc/self/stat, 10 ms ticks; taken at
// the middle of its tick) to the end of the first frame of a fresh App with
// every figure of its first lesson built, in this process before anything
// else is measured. Blind too: opening the GL window is not included.

#include "app/ui/bench_frames.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/common/assets.hpp"
#include "app/ui/app.hpp"
#include "app/ui/slider_math.hpp"

namespace poslab::app::ui {

namespace {

/// The parameter swept in each view: the first of these the view reads.
constexpr std::string_view kSweepKeys[] = {"factor", "m", "theta", "clip", "base", "bucket_max_distance", "head"};

/// The "max" sizes (issue 6), applied to the keys a view reads.
struct MaxSize {
  std::string_view key;
  double value;
};
constexpr MaxSize kMaxSizes[] = {{"positions", 1048576}, {"d", 1024}, {"factor", 64}, {"buckets", 256}, {"heads", 256}};

constexpr int kWarmupFrames = 3;
constexpr int kTimedFrames = 60;
constexpr double kMaxSecondsPerCase = 20;  // a very slow case stops early (and says so in p95)

double thread_cpu_ms() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
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

  BlindSession() {
    dir = std::filesystem::temp_directory_path() / ("poslab-bench-gui-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    AppOptions o;
    o.assets = assets_dir();
    o.lang = "en";
    o.persist = false;
    o.config_dir = dir / "config";
    app = std::make_unique<App>(platform, o);
    app->export_choice().dir = dir / "exports";
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
std::vector<double> sweep_values(AppState& st, std::string_view key) {
  const core::ParamSpec& spec = core::param_spec(key);
  const core::Params before = st.params();
  std::vector<double> ok;
  for (const auto& [from, span] : {std::pair{0.3, 0.4}, std::pair{0.0, 1.0}}) {
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
  double p50 = 0, p95 = 0;
  double rebuilt = 0;  ///< figures rebuilt per frame, on average
  int frames = 0;
  std::string error;
};

CaseResult time_case(App& app, std::string_view key) {
  AppState& st = app.state();
  CaseResult r;
  app.blind_frame();  // build at this setting
  for (int i = 0; i < kWarmupFrames; ++i) app.blind_frame();
  if (!st.resolved()) {
    r.error = st.resolve_error();
    return r;
  }
  const std::vector<double> values = sweep_values(st, key);
  if (values.size() < 2) {
    r.error = "parameter " + std::string(key) + " has no two accepted values to sweep";
    return r;
  }
  std::vector<double> ms;
  ms.reserve(kTimedFrames);
  const auto wall0 = std::chrono::steady_clock::now();
  const int builds0 = app.figures().builds();
  for (int i = 0; i < kTimedFrames; ++i) {
    const std::string why = st.set_param(key, values[static_cast<std::size_t>(i) % values.size()]);
    if (!why.empty()) {
      r.error = why;
      break;
    }
    const double t0 = thread_cpu_ms();
    app.blind_frame();
    ms.push_back(thread_cpu_ms() - t0);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count() > kMaxSecondsPerCase) break;
  }
  // How many of the lesson's figures each frame rebuilt (custom lesson
  // screens draw some figures themselves, outside the figure cache).
  if (!ms.empty())
    r.rebuilt = static_cast<double>(app.figures().builds() - builds0) / static_cast<double>(ms.size());
  r.frames = static_cast<int>(ms.size());
  r.p50 = percentile(ms, 0.50);
  r.p95 = percentile(ms, 0.95);
  return r;
}

std::string_view sweep_key(const ViewDef& v) {
  for (std::string_view k : kSweepKeys)
    if (reads(v, k)) return k;
  for (std::string_view k : v.keys)
    if (const core::ParamSpec* s = core::find_param(k); s && is_numeric(*s)) return k;
  return {};
}

}  // namespace

int bench_frames(void* ordered_json_report) {
  auto& report = *static_cast<nlohmann::ordered_json*>(ordered_json_report);
  int code = 0;
  try {
    BlindSession session;
    App& app = *session.app;
    app.blind_frame();
    const double startup = ms_since_process_start();
    if (startup >= 0) report["startup_ms"] = startup;

    nlohmann::ordered_json frames = nlohmann::ordered_json::object();
    AppState& st = app.state();
    for (const ViewDef& v : st.views()) {
      const std::string_view key = sweep_key(v);
      nlohmann::ordered_json entry = nlohmann::ordered_json::object();
      for (const bool max : {false, true}) {
        st.select_view(v.id);
        for (const std::string& k : st.params().set_keys()) st.reset_param(k);  // every view's defaults
        std::string why;
        if (max) {
          std::vector<std::string> sets;
          for (const MaxSize& m : kMaxSizes)
            if (reads(v, m.key)) sets.push_back(std::string(m.key) + "=" + core::format_number(m.value));
          why = st.set_assignments(sets);
        }
        CaseResult r;
        if (why.empty() && !key.empty()) r = time_case(app, key);
        else r.error = key.empty() ? "no numeric parameter to sweep" : why;
        nlohmann::ordered_json c = {{"p50", r.p50}, {"p95", r.p95}, {"frames", r.frames}, {"swept", std::string(key)},
                                    {"figures_rebuilt_per_frame", r.rebuilt}};
        if (!r.error.empty()) {
          c["error"] = r.error;
          code = 1;
        }
        entry[max ? "max" : "default"] = c;
      }
      frames[std::string(v.id)] = entry;
    }
    report["frame_ms"] = frames;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "poslab: bench frames: %s\n", e.what());
    return 1;
  }
  return code;
}

}  // namespace poslab::app::ui
