#include "app/bench/extremes_bench.hpp"

#include <time.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "app/common/assets.hpp"
#include "app/common/i18n.hpp"
#include "app/lessons/lesson.hpp"

namespace poslab::app::bench {

namespace {

/// The largest value of each key whose size drives work (lists as ranges).
const std::vector<std::pair<std::string_view, std::string>>& extreme_values() {
  static const std::vector<std::pair<std::string_view, std::string>> values = [] {
    std::string vector = "1";
    for (int i = 1; i < 8192; ++i) vector += ",1";
    return std::vector<std::pair<std::string_view, std::string>>{
        {"d", "8192"},
        {"positions", "1048576"},
        {"pos", "0:1048575"},
        {"distance", "0:1048575"},
        {"distance", "1e12"},
        {"vector", vector},
        {"window", "1000000"},
        {"samples", "10000"},
        {"heads", "256"},
        {"buckets", "1024"},
        {"bucket_max_distance", "1000000000"},
        {"relative", "-524288:524287"},
        {"max_length", "1048576"},
        {"clip", "1000000"},
        {"bases", "2,10,100,1e4,1e6,1e8,1e10,1e12"},
        {"factor", "1024"},
        {"original_context", "1000000000"},
        {"seq_len", "1000000000"},
        {"m", "1e12"},
        {"n", "1e12"},
    };
  }();
  return values;
}

/// This thread's CPU time. Emscripten has no thread CPU clock (it reads 0):
/// there, with one thread and nothing else running, the wall clock.
double thread_cpu_ms() {
#ifdef __EMSCRIPTEN__
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
#else
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
#endif
}

bool reads(const ViewDef& v, std::string_view key) {
  for (std::string_view k : v.keys)
    if (k == key) return true;
  return false;
}

/// `sets` applied to fresh Params (a set a relation refuses is skipped:
/// bucket_max_distance follows buckets, heads follows head).
std::vector<std::pair<std::string, std::vector<std::pair<std::string_view, std::string>>>> cases(const ViewDef& v) {
  std::vector<std::pair<std::string, std::vector<std::pair<std::string_view, std::string>>>> out;
  out.push_back({"defaults", {}});
  std::vector<std::pair<std::string_view, std::string>> all;
  for (const auto& kv : extreme_values()) {
    if (!reads(v, kv.first)) continue;
    std::vector<std::pair<std::string_view, std::string>> one = {kv};
    if (kv.first == "buckets" && reads(v, "bucket_max_distance")) one.push_back({"bucket_max_distance", "1000000000"});
    std::string name = std::string(kv.first) + "=" + kv.second.substr(0, 24);
    if (kv.first != "d" && reads(v, "d")) one.push_back({"d", "8192"}), name += " d=8192";
    out.push_back({name, one});
    bool seen = false;
    for (const auto& a : all) seen = seen || a.first == kv.first;
    if (!seen) all.push_back(kv);
  }
  if (all.size() > 1) out.push_back({"all at once", all});
  return out;
}

}  // namespace

void run_extremes_bench(nlohmann::ordered_json& report) {
  const Translator tr = Translator::load(assets_dir(), "en");
  nlohmann::ordered_json views = nlohmann::ordered_json::object();
  const char* only = std::getenv("POSLAB_BENCH_VIEW");  // one view only (profiling)
  for (const ViewDef& v : view_defs()) {
    if (only && *only && v.id != only) continue;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& c : cases(v)) {
      nlohmann::ordered_json row = {{"case", c.first}};
      core::Params p;
      try {
        for (const auto& kv : c.second) p.set_text(kv.first, kv.second);
        const core::Params resolved = resolve_view_params(v, p);
        double total = 0, worst = 0;
        std::string slowest;
        nlohmann::ordered_json each = nlohmann::ordered_json::object();
        for (const FigureDef& f : v.figures) {
          const double t0 = thread_cpu_ms();
          (void)build_figure_resolved(v, f, resolved, tr, 1600, 1000);
          const double ms = thread_cpu_ms() - t0;
          total += ms;
          each[std::string(f.id)] = ms;
          if (ms > worst) worst = ms, slowest = std::string(f.id);
        }
        if (v.readouts) {
          const double t0 = thread_cpu_ms();
          (void)view_readouts_resolved(v, resolved, tr);
          const double ms = thread_cpu_ms() - t0;
          total += ms;
          each["readouts"] = ms;
          if (ms > worst) worst = ms, slowest = "readouts";
        }
        row["total_ms"] = total;
        row["slowest"] = slowest;
        row["slowest_ms"] = worst;
        row["each_ms"] = each;
      } catch (const core::InvalidParameter& e) {
        row["refused"] = e.what();
      }
      rows.push_back(row);
    }
    views[std::string(v.id)] = rows;
  }
  report["extremes"] = views;
}

}  // namespace poslab::app::bench
