// `poslab model FILE|- [--format text|json|md] [--out FILE] [--lang en|zh]`:
// reads a Hugging Face config.json and prints its position encoding
// (docs/CONTRACT.md §5).
// `poslab model FILE --figure layers --format png|svg|pdf|csv --out PATH`:
// exports the layer-stack figure ("Layers of this model") instead.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <iterator>

#include "app/cli/cli.hpp"
#include "app/cli/commands.hpp"
#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/fonts.hpp"
#include "app/export/figure_export.hpp"
#include "app/model/layer_stack.hpp"
#include "app/model/model_config.hpp"
#include "poslab/core/errors.hpp"

namespace poslab::app::cli {

CLI::App* add_model_command(CLI::App& app, ModelRequest& r) {
  CLI::App* sub = app.add_subcommand("model", "read a Hugging Face config.json and show its position encoding (docs/CONTRACT.md §5)");
  sub->add_option("file", r.file, "config.json, or - for standard input")->required();
  sub->add_option("--format", r.format, "text (default), json or md");
  sub->add_option("--out", r.out, "write to this file instead of standard output");
  sub->add_option("--lang", r.lang, "language of error messages and the figure: en or zh (default: the system language)");
  sub->add_option("--figure", r.figure, "layers: export the layer-stack figure (--format png, svg, pdf or csv; --out required)");
  sub->add_option("--width", r.width, "figure width in pixels (PNG) or points (SVG, PDF); default 1600");
  sub->add_option("--height", r.height, "figure height; default 600");
  sub->add_option("--scale", r.scale, "PNG pixel density; default 1");
  sub->add_option("--theme", r.theme, "figure theme: light (default), dark or projector");
  return sub;
}

namespace {

/// The config, at most kMaxModelConfigBytes (the GUI's cap): `model
/// /dev/zero` or a 64 MiB file is refused after 16 MiB, not read into memory.
std::string read_input(const std::string& file) {
  if (file != "-") return read_text_file(file, kMaxModelConfigBytes, "a model config");
  return read_text_stream(std::cin, kMaxModelConfigBytes, "standard input", "a model config");
}

/// --figure layers: the layer stack of the config, written like `poslab export` writes a figure.
int export_layers(const ModelRequest& r, const Translator& tr) {
  if (r.figure != "layers")
    throw core::InvalidParameter("figure", r.figure, "must be layers (the layer-stack figure)",
                                 core::Reason{"one_of", {{"choices", "layers"}}, {}});
  if (r.out.empty() || r.out == "-") return fail(kExitUsage, tr("cli.out_required"));
  std::string word = r.format;
  if (word == "text") {  // no --format: the extension of --out says it (png when it says nothing)
    std::string ext = std::filesystem::path(r.out).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    word = ext == ".svg" || ext == ".pdf" || ext == ".csv" ? ext.substr(1) : "png";
  }
  const ExportFormat format = parse_export_format(word);
  ExportOptions options;
  options.width = r.width;
  options.height = r.height;
  options.scale = r.scale;
  options.theme = r.theme;
  options.check();
  options.font_family = export_font_families(tr.lang());
  const ModelReading reading = read_model_config_text(read_input(r.file));
  export_figure(layer_stack_figure(reading, tr), format, r.out, options);
  return kExitOk;
}

int print_model(const ModelRequest& r, const Translator& tr) {
  if (!r.figure.empty()) return export_layers(r, tr);
  if (r.format != "text" && r.format != "json" && r.format != "md")
    throw core::InvalidParameter("format", r.format, "must be one of text, json, md",
                                 core::Reason{"one_of", {{"choices", "text, json, md"}}, {}});
  const ModelReading reading = read_model_config_text(read_input(r.file));
  std::string text;
  if (r.format == "json") text = model_reading_json(reading, &tr).dump(2) + "\n";
  else if (r.format == "md") text = model_reading_md(reading, &tr);
  else text = model_reading_text(reading, &tr);
  write_output(r.out, text);
  return kExitOk;
}

}  // namespace

int run_model(const ModelRequest& r) {
  return run_in_language(r.lang, {"cli.out_of_memory_table", {{"table", "model"}}},
                         [&](const Translator& tr) { return print_model(r, tr); });
}

std::vector<std::string> model_sets(const std::string& file) {
  if (file.empty()) return {};
  return model_assignments(read_model_config_text(read_input(file)));
}

std::string apply_model(core::Params& params, const std::string& file, const std::vector<std::string_view>& reads,
                        const std::vector<std::string>& sets) {
  if (file.empty()) return {};
  const ModelReading reading = read_model_config_text(read_input(file));
  for (const std::string& a : model_assignments(reading)) {
    const std::string key = a.substr(0, a.find('='));
    const bool read = reads.empty() || std::find(reads.begin(), reads.end(), key) != reads.end();
    const bool overridden = std::any_of(sets.begin(), sets.end(), [&](const std::string& s) {
      return s.substr(0, s.find('=')) == key;
    });
    if (read && !overridden) params.set_assignment(a);
  }
  return reading.model;
}

}  // namespace poslab::app::cli
