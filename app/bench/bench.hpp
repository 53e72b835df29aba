#pragma once
// `poslab bench [--json]` (issue "Performance"): kernel times, export times
// per figure at 1600×1000 PNG, peak RSS — and, when the GUI is built, frame
// times per view and startup time (measured by the GUI library).

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace poslab::app::bench {

struct BenchOptions {
  bool json = false;
  bool kernels_only = false;  ///< just the kernels (what compare.py needs)
  bool extremes = false;      ///< just the views at their largest sizes (extremes_bench.hpp)
  bool lab = false;           ///< just the length-generalisation lab's training speed (lab_bench.hpp)
  int repeats = 7;
  /// Only the frame measurements of these views (no exports, no kernels,
  /// no deck); empty = every view and everything else.
  std::vector<std::string> views;
  /// Every figure built on the UI thread, in the frame (as the single-threaded
  /// browser build does): for a like-for-like web/native comparison.
  bool in_place = false;
};

/// Kernels and export timings, headless. Fills `report` with "kernels",
/// "export_ms" (unless kernels_only) and "peak_rss_mb".
void run_headless_bench(const BenchOptions& options, nlohmann::ordered_json& report);

/// Peak resident set size of this process so far, in MB.
double peak_rss_mb();

/// Prints `report` as JSON or as a readable text summary.
void print_report(const nlohmann::ordered_json& report, bool json);

}  // namespace poslab::app::bench
