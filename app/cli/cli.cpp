#include "app/cli/cli.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>

#include "app/bench/bench.hpp"
#include "app/bench/extremes_bench.hpp"
#include "app/bench/lab_bench.hpp"
#include "app/cli/commands.hpp"
#include "app/common/fonts.hpp"
#include "app/common/messages.hpp"
#include "app/export/figure_export.hpp"
#include "app/lessons/lesson.hpp"

namespace poslab::app {

namespace {

const char* kDescription =
    "poslab: an interactive lab for Transformer position encodings.\n"
    "Without a command, opens the desktop app. Headless commands (table, export, list) need no display.";

}  // namespace

namespace {
int dispatch(int argc, char** argv, const GuiEntryPoints& gui, std::string& lang);
}  // namespace

void parse_window_size(const std::string& text, WindowRequest& request) {
  int w = 0, h = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%dx%d%c", &w, &h, &extra) != 2 || w < 200 || h < 200 || w > 8192 || h > 8192)
    throw core::InvalidParameter("size", text, "must be WxH with each side in 200..8192, e.g. 1600x1000",
                                 core::Reason{"window_size", {}, {}});
  if (static_cast<double>(w) * h > kImagePixelBudget) {  // the PNG a screenshot writes, as for export
    const std::string amount = std::to_string(static_cast<long long>(w) * h),
                      max = std::to_string(std::llround(kImagePixelBudget));
    throw core::InvalidParameter("size", text,
                                 amount + " pixels is over the budget of " + max +
                                     " pixels per screenshot (docs/CONTRACT.md §1), e.g. 4096x4096 or 3840x2160",
                                 core::Reason{"screenshot_budget", {{"amount", amount}, {"max", max}}, {}});
  }
  request.width = w;
  request.height = h;
}

int run_cli(int argc, char** argv, const GuiEntryPoints& gui) {
  std::string lang;  // the command's --lang, for a failure of standard output
  int code = dispatch(argc, argv, gui, lang);
  code = cli::finish_stdout(code, lang);
  release_font_caches();
  return code;
}

namespace {

/// Parses the command line and runs the command; `lang` is set to its --lang.
int dispatch(int argc, char** argv, const GuiEntryPoints& gui, std::string& lang) {
  CLI::App app{kDescription, "poslab"};
  app.set_version_flag("--version", std::string("poslab ") + POSLAB_VERSION);
  app.require_subcommand(0, 1);

  WindowRequest window;
  auto add_window_options = [&](CLI::App* sub) {
    sub->add_option("--view", window.view, "lesson to open (poslab list views)");
    sub->add_option("--preset", window.preset, "preset to apply (poslab list presets)");
    sub->add_option("--session", window.session, "session file to open");
    sub->add_option("--model", window.model, "a Hugging Face config.json: its lesson, its params, its warnings (poslab model)");
    sub->add_option("--set", window.sets, "KEY=VALUE, repeatable (poslab list params)");
    sub->add_option("--lang", window.lang, "en or zh (default: the system language)");
    sub->add_option("--theme", window.theme, "light, dark or projector");
    sub->add_option("--step", window.step, "open the lesson at guided step N (1-based; poslab list views --format json)");
    sub->add_flag("--reveal", window.reveal,
                  "with --step: show the step's answer (and what its reveal sets), as → does after the question");
    sub->add_option("--deck", window.deck, "a deck file to present, or a built-in deck's id (poslab list decks)");
    sub->add_flag("--lecture", window.lecture, "lecture mode: figure first, projector theme, text sized to the screen");
    sub->add_flag("--presenter", window.presenter,
                  "lecture mode with the presenter view: notes, next scene and clock on a second window "
                  "(screenshot: also writes it as <out>-presenter.png)");
  };
  CLI::App* gui_cmd = app.add_subcommand("gui", "open the desktop app (the default)");
  add_window_options(gui_cmd);
  gui_cmd->add_flag("--fresh", window.fresh, "start from the defaults, not from the last session (the autosave)");

  std::string shot_size;
  CLI::App* shot = app.add_subcommand("screenshot", "render the app window for a view and save a PNG (needs a display)");
  add_window_options(shot);
  shot->add_option("--out", window.screenshot_out, "PNG file to write")->required();
  shot->add_option("--size", shot_size, "window size WxH, default 1600x1000");
  std::string shot_keys;
  shot->add_option("--keys", shot_keys,
                   "key presses before the shot, X11 keysym names as xdotool writes them, separated by spaces "
                   "(\"Next Next Down 5 Return\")");

  cli::TableRequest table;
  CLI::App* table_cmd = cli::add_table_command(app, table);
  cli::ExportRequest exp;
  CLI::App* export_cmd = cli::add_export_command(app, exp);
  cli::ListRequest list;
  CLI::App* list_cmd = cli::add_list_command(app, list);
  cli::ModelRequest model;
  CLI::App* model_cmd = cli::add_model_command(app, model);
  cli::DeckRequest deck;
  CLI::App* deck_cmd = cli::add_deck_command(app, deck);

  cli::LabRequest lab;
  CLI::App* lab_cmd = cli::add_lab_command(app, lab);

  bench::BenchOptions bench_options;
  CLI::App* bench_cmd = app.add_subcommand("bench", "measure frame, export and kernel times");
  bench_cmd->add_flag("--json", bench_options.json, "print JSON");
  bench_cmd->add_flag("--kernels", bench_options.kernels_only, "only the core kernels (tests/bench/compare.py)");
  bench_cmd->add_flag("--extremes", bench_options.extremes,
                      "only every view's figures and readouts at the largest sizes (docs/CONTRACT.md §3 Budgets)");
  bench_cmd->add_flag("--lab", bench_options.lab,
                      "only the length-generalisation lab's training speed (tests/bench/lab_compare.py)");
  bench_cmd->add_option("--view", bench_options.views,
                        "only the frame times of this view's keys (repeat for more views; no exports, kernels or deck)");
  bench_cmd->add_flag("--in-place", bench_options.in_place,
                      "build figures in the frame, on the UI thread (as the browser does), not on the worker");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string sub;
    for (const CLI::App* s : app.get_subcommands()) sub = " " + s->get_name();
    return cli::fail(kExitUsage, std::string(e.what()) + " (see poslab" + sub + " --help)");
  }
  lang = table_cmd->parsed()    ? table.lang
         : export_cmd->parsed() ? exp.lang
         : model_cmd->parsed()  ? model.lang
         : deck_cmd->parsed()   ? deck.lang
         : lab_cmd->parsed()    ? lab.lang
                                : window.lang;

  if (table_cmd->parsed()) return cli::run_table(table);
  if (export_cmd->parsed()) return cli::run_export(exp);
  if (list_cmd->parsed()) return cli::run_list(list);
  if (model_cmd->parsed()) return cli::run_model(model);
  if (deck_cmd->parsed()) return cli::run_deck(deck);
  if (lab_cmd->parsed()) return cli::run_lab(lab);
  if (bench_cmd->parsed()) {
    try {
      nlohmann::ordered_json report = nlohmann::ordered_json::object();
      if (bench_options.in_place) report["in_place_requested"] = true;  // bench_frames reads and removes it
      int code = kExitOk;
      if (bench_options.lab) {
        bench::run_lab_bench(report);
        report["peak_rss_mb"] = bench::peak_rss_mb();
        bench::print_report(report, bench_options.json);
        return code;
      }
      if (bench_options.extremes) {
        bench::run_extremes_bench(report);
        report["peak_rss_mb"] = bench::peak_rss_mb();
        bench::print_report(report, bench_options.json);
        return code;
      }
      if (!bench_options.views.empty()) {
        for (const std::string& v : bench_options.views)
          if (!find_view(v)) return cli::fail(kExitUsage, "--view " + v + ": no such view (see poslab list views)");
        if (!gui.bench_frames) return cli::fail(kExitFailure, "bench --view: this poslab was built without the GUI");
        report["views_requested"] = bench_options.views;  // bench_frames reads and removes it
        code = gui.bench_frames(&report);
        report["peak_rss_mb"] = bench::peak_rss_mb();
        bench::print_report(report, bench_options.json);
        return code;
      }
      if (!bench_options.kernels_only && gui.bench_frames) code = gui.bench_frames(&report);
      bench::run_headless_bench(bench_options, report);
      bench::print_report(report, bench_options.json);
      return code;
    } catch (const std::exception& e) {
      return cli::fail(kExitFailure, std::string("bench failed: ") + e.what());
    }
  }
  try {  // gui, screenshot: each --set key once, as for table and export
    core::check_each_key_once(window.sets);
  } catch (const core::InvalidParameter& e) {
    return cli::fail(kExitUsage, error_text(translator_for(window.lang), e));
  }
  if (window.reveal && window.step == 0)  // an answer belongs to a step
    return cli::fail(kExitUsage, translator_for(window.lang)("cli.reveal_needs_step"));
  if (shot->parsed() && !shot_size.empty()) {
    try {
      parse_window_size(shot_size, window);
    } catch (const core::InvalidParameter& e) {
      return cli::fail(kExitUsage, error_text(translator_for(window.lang), e));
    }
  }
  for (std::size_t at = 0; at < shot_keys.size();) {  // "Next  Next Down" → Next, Next, Down
    const std::size_t end = std::min(shot_keys.find(' ', at), shot_keys.size());
    if (end > at) window.keys.push_back(shot_keys.substr(at, end - at));
    at = end + 1;
  }
  if (!gui.run_window)
    return cli::fail(kExitFailure,
                     "this poslab was built without the GUI; use the headless commands (table, export, list)");
  return gui.run_window(window);
}

}  // namespace

}  // namespace poslab::app
