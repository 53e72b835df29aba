#include "app/bench/bench.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "app/bench/kernel_bench.hpp"
#include "app/common/assets.hpp"
#include "app/common/fonts.hpp"
#include "app/common/i18n.hpp"
#include "app/export/figure_export.hpp"
#include "app/lessons/lesson.hpp"

namespace poslab::app::bench {

double peak_rss_mb() {
  struct rusage u {};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux reports KiB
}

void run_headless_bench(const BenchOptions& o, nlohmann::ordered_json& report) {
  nlohmann::ordered_json kernels = nlohmann::ordered_json::object();
  for (const KernelResult& k : run_kernel_benchmarks(o.repeats)) {
    nlohmann::ordered_json e = {{"ms", k.ms}, {"items", k.items}};
    if (k.bytes > 0) e["gbps"] = k.gbps();
    else e["gitems_per_s"] = k.gitems_per_s();
    kernels[k.name] = e;
  }
  report["kernels"] = kernels;
  if (!o.kernels_only) {
    // Every figure exported as a 1600×1000 PNG file (build + render + encode + write).
    const Translator tr = Translator::load(assets_dir(), "en");
    ExportOptions eo;
    eo.font_family = find_font("en").family;
    const auto dir = std::filesystem::temp_directory_path() / ("poslab-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    nlohmann::ordered_json exports = nlohmann::ordered_json::object();
    for (const ViewDef& v : view_defs())
      for (const FigureDef& f : v.figures) {
        double best = 1e300;
        for (int r = 0; r < 3; ++r) {
          const auto t0 = std::chrono::steady_clock::now();
          const fig::Figure figure = build_figure(v, f, core::Params{}, tr, eo.width, eo.height);
          export_figure(figure, ExportFormat::png, dir / "f.png", eo);
          best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        exports[std::string(v.id) + "/" + std::string(f.id)] = best;
      }
    std::filesystem::remove_all(dir);
    report["export_ms"] = exports;
  }
  report["peak_rss_mb"] = peak_rss_mb();
}

void print_report(const nlohmann::ordered_json& report, bool json) {
  if (json) {
    std::printf("%s\n", report.dump(2).c_str());
    return;
  }
  if (report.contains("frame_ms")) {
    std::printf("UI frame CPU ms (p50 / p95) of each lesson's worst key, defaults | maxima, max/default, slowest frame,\n"
                "slowest figure build (ms the figure trails the slider; built off the UI thread)\n");
    for (const auto& [view, v] : report["frame_ms"].items()) {
      if (!v["default"].contains("p95") || !v["max"].contains("p95")) continue;
      std::printf("  %-12s %-20s %7.3f / %7.3f | %7.3f / %7.3f  %5.2f  %7.2f  %7.1f\n", view.c_str(),
                  v["worst_key"].get<std::string>().c_str(), v["default"]["p50"].get<double>(),
                  v["default"]["p95"].get<double>(), v["max"]["p50"].get<double>(), v["max"]["p95"].get<double>(),
                  v["max_over_default"].get<double>(), v["slowest_frame"].get<double>(),
                  v.value("slowest_figure_build", 0.0));
    }
  }
  if (report.contains("deck_scene_ms") && report["deck_scene_ms"].contains("p95"))
    std::printf("deck scenes (%s): %.3f / %.3f ms\n", report["deck_scene_ms"]["deck"].get<std::string>().c_str(),
                report["deck_scene_ms"]["p50"].get<double>(), report["deck_scene_ms"]["p95"].get<double>());
  if (report.contains("startup_ms")) std::printf("startup to first frame: %.1f ms\n", report["startup_ms"].get<double>());
  if (report.contains("extremes")) {
    std::printf("views at their largest sizes: thread CPU ms of every figure (1600x1000) and the readouts\n");
    for (const auto& [view, rows] : report["extremes"].items())
      for (const auto& row : rows) {
        const std::string name = row["case"].get<std::string>();
        if (row.contains("refused"))
          std::printf("  %-12s %-40.40s refused: %.90s\n", view.c_str(), name.c_str(), row["refused"].get<std::string>().c_str());
        else
          std::printf("  %-12s %-40.40s %8.1f  (slowest %s %.1f)\n", view.c_str(), name.c_str(), row["total_ms"].get<double>(),
                      row["slowest"].get<std::string>().c_str(), row["slowest_ms"].get<double>());
      }
  }
  if (report.contains("export_ms")) {
    std::printf("export 1600x1000 png, ms\n");
    for (const auto& [fig, ms] : report["export_ms"].items()) std::printf("  %-28s %8.1f\n", fig.c_str(), ms.get<double>());
  }
  if (report.contains("lab")) {
    const auto& lab = report["lab"];
    std::printf("lab: training GFLOP/s of the default lm model (step ms)\n");
    for (const auto& [enc, g] : lab["gflops"].items())
      std::printf("  %-12s %6.2f GFLOP/s  %7.2f ms\n", enc.c_str(), g.get<double>(), lab["step_ms"][enc].get<double>());
    for (const auto& [task, s] : lab["model_seconds"].items())
      std::printf("  one %s model: %.1f s\n", task.c_str(), s.get<double>());
  }
  if (report.contains("kernels")) std::printf("kernels\n");
  if (report.contains("kernels"))
    for (const auto& [name, k] : report["kernels"].items()) {
    std::printf("  %-24s %10.4g ms", name.c_str(), k["ms"].get<double>());
    if (k.contains("gbps")) std::printf("  %7.2f GB/s", k["gbps"].get<double>());
    if (k.contains("gitems_per_s")) std::printf("  %7.3f Gitems/s", k["gitems_per_s"].get<double>());
    std::printf("\n");
  }
  std::printf("peak RSS: %.1f MB\n", report["peak_rss_mb"].get<double>());
}

}  // namespace poslab::app::bench
