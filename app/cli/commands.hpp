#pragma once
// The headless subcommands. Each returns an exit code and writes its one-line
// error to stderr itself (through command_io.hpp).

#include <optional>
#include <string>
#include <vector>

#include "app/cli/command_io.hpp"
#include "app/export/figure_export.hpp"
#include "poslab/core/params.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace poslab::app::cli {

// Each command adds itself and its options to the command line (its
// add_*_command, in its own file next to its run_*); the options fill its request.

/// --digits: significant digits of md and tex tables, 0 (the shortest form
/// that reads back exactly) to 17 (enough for every double); unset = 6.
inline constexpr int kMaxDigits = 17;
inline constexpr int kDigitsUnset = -1'000'000;

struct TableRequest {
  std::string id;
  std::vector<std::string> sets;
  std::string model;  ///< --model config.json: its params, under --set
  std::string format = "csv";
  std::string out;  ///< empty: stdout
  int digits = kDigitsUnset;  ///< unset: format default (full for csv/json, 6 for md/tex)
  std::string lang;  ///< of the error messages; empty: the system language
};
CLI::App* add_table_command(CLI::App& app, TableRequest& request);
int run_table(const TableRequest& request);

struct ListRequest {
  std::string what;  ///< views | figures | tables | presets | params
  std::string format = "text";
};
CLI::App* add_list_command(CLI::App& app, ListRequest& request);
int run_list(const ListRequest& request);

struct ExportRequest {
  std::string view;
  std::string figure;  ///< empty: every figure of the view into the folder `out`
  std::string format;
  std::string out;
  std::vector<std::string> sets;
  std::string preset;
  std::string model;  ///< --model config.json: its params, under --set
  /// -1 = the default: 1600 × 1000, or 960 × 540 for a GIF sweep (a slide's
  /// size: a 118-frame 1600 × 1000 GIF is 7 MB, issue 29).
  int width = -1, height = -1;
  double scale = 1.0;
  bool transparent = false;
  std::string theme = "light";
  std::string lang;  ///< empty: the system language
  double font_scale = 1.0, line_scale = 1.0;
  std::string page;    ///< PDF: "" (the figure's size), slide, a4, letter
  std::string sweep;   ///< KEY=FROM:TO: an animated GIF or numbered PNGs of the figure
  int frames = 60;
  bool bounce = false;
  double seconds = 5;
  /// --describe: each figure's title and description printed, no file written.
  bool describe = false;
};
CLI::App* add_export_command(CLI::App& app, ExportRequest& request);
int run_export(const ExportRequest& request);

struct DeckRequest {
  bool check = false;  ///< `deck check`: read it and say whether it is good
  std::string deck;  ///< a deck file or a built-in deck's id
  std::string format;
  std::string out;
  std::string page;  ///< "" = a4 for a PDF, slide for PNG and SVG (HandoutOptions::page)
  std::string theme = "light";
  std::string lang;
};
CLI::App* add_deck_command(CLI::App& app, DeckRequest& request);
int run_deck(const DeckRequest& request);

struct ModelRequest {
  std::string file;  ///< config.json, or "-" for standard input
  std::string format = "text";  ///< text | json | md; with --figure: png | svg | pdf | csv
  std::string out;   ///< empty: stdout
  std::string lang;  ///< of the error messages (and the figure); empty: the system language
  std::string figure;  ///< "layers": export the layer-stack figure to --out instead
  int width = 1600, height = 600;
  double scale = 1.0;
  std::string theme = "light";
};
CLI::App* add_model_command(CLI::App& app, ModelRequest& request);
int run_model(const ModelRequest& request);
/// The poslab params of the config.json `file` ("-" = stdin) as KEY=VALUE
/// assignments; empty when `file` is empty. Raises core::InvalidParameter, IoError.
std::vector<std::string> model_sets(const std::string& file);
/// --model on table and export: sets the model's params that `reads` holds
/// (all when empty) and no --set in `sets` names, so an explicit --set wins.
/// Returns the model's name (model_type; "" when `file` is empty).
std::string apply_model(core::Params& params, const std::string& file, const std::vector<std::string_view>& reads,
                 const std::vector<std::string>& sets);

/// `poslab lab run` (docs/CONTRACT.md §1, §9): trains the length-generalisation
/// lab's tiny Transformers and prints the metric at every evaluated length.
/// Unset = the task's default (core::lab::default_lab_config).
struct LabRequest {
  std::string task = "lm";
  std::string encodings = "nope,learned,sinusoidal,rope,alibi,t5";
  std::string extensions = "none";
  std::optional<double> factor;  ///< the extensions' s; unset = eval_length / train_length
  int seeds = 3;
  std::optional<int> steps, train_length, eval_length, layers, width, heads, batch;
  std::optional<double> learning_rate;
  std::optional<int> threads;  ///< unset = one per core
  std::string format = "json";
  std::string out;
  std::string lang;
};
CLI::App* add_lab_command(CLI::App& app, LabRequest& request);
int run_lab(const LabRequest& request);
/// The checks run_lab makes before training: raises core::InvalidParameter naming the key.
void check_lab_request(const LabRequest& request);

/// Refuses an export whose images together have more than kExportPixelBudget
/// pixels (`figures` images of o's size): core::InvalidParameter.
void check_export_pixels(std::size_t figures, const ExportOptions& o);

/// Applies --preset then --set to a fresh Params. A --set key that `view`
/// does not read (`reads` non-empty and without it) is refused, so a typo
/// never passes silently. Raises core::InvalidParameter.
core::Params params_from_request(const std::string& preset, const std::vector<std::string>& sets,
                                 const std::vector<std::string_view>& reads, const std::string& view);

}  // namespace poslab::app::cli
