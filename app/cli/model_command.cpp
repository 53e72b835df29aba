// `poslab model FILE|- [--format text|json|md] [--out FILE] [--lang en|zh]`:
// reads a Hugging Face config.json and prints its position encoding
// (docs/CONTRACT.md §5).

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <iterator>

#include "app/cli/cli.hpp"
#include "app/cli/commands.hpp"
#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/model/model_config.hpp"
#include "poslab/core/errors.hpp"

namespace poslab::app::cli {

CLI::App* add_model_command(CLI::App& app, ModelRequest& r) {
  CLI::App* sub = app.add_subcommand("model", "read a Hugging Face config.json and show its position encoding (docs/CONTRACT.md §5)");
  sub->add_option("file", r.file, "config.json, or - for standard input")->required();
  sub->add_option("--format", r.format, "text (default), json or md");
  sub->add_option("--out", r.out, "write to this file instead of standard output");
  sub->add_option("--lang", r.lang, "language of error messages: en or zh (default: the system language)");
  return sub;
}

namespace {

/// The config, at most kMaxModelConfigBytes (the GUI's cap): `model
/// /dev/zero` or a 64 MiB file is refused after 16 MiB, not read into memory.
std::string read_input(const std::string& file) {
  if (file != "-") return read_text_file(file, kMaxModelConfigBytes, "a model config");
  return read_text_stream(std::cin, kMaxModelConfigBytes, "standard input", "a model config");
}

int print_model(const ModelRequest& r, const Translator& tr) {
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
