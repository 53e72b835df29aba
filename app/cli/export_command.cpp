// `poslab export --view ID [--figure ID] --format png|svg|pdf|csv --out PATH ...`

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <algorithm>
#include <cmath>
#include <filesystem>

#include "app/cli/cli.hpp"
#include "app/cli/commands.hpp"
#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/fonts.hpp"
#include "app/common/i18n.hpp"
#include "app/common/presets.hpp"
#include "app/export/figure_export.hpp"
#include "app/export/sweep.hpp"
#include "app/lessons/lesson.hpp"
#include "app/plot/formula.hpp"

namespace poslab::app::cli {

namespace fs = std::filesystem;

CLI::App* add_export_command(CLI::App& app, ExportRequest& r) {
  CLI::App* sub = app.add_subcommand("export", "write a lesson's figures to PNG, SVG, PDF or CSV (headless)");
  sub->add_option("--view", r.view, "lesson (poslab list views)")->required();
  sub->add_option("--figure", r.figure, "one figure (poslab list figures); default: all, into the folder --out");
  CLI::Option* format = sub->add_option("--format", r.format, "png, svg, pdf or csv");
  CLI::Option* out = sub->add_option("--out", r.out, "file (one figure) or folder (all figures)");
  sub->add_flag("--describe", r.describe,
                "print each figure's title and text description (screen readers' alt text) instead of writing files");
  sub->add_option("--set", r.sets, "KEY=VALUE, repeatable");
  sub->add_option("--model", r.model, "a Hugging Face config.json whose params apply first (poslab model)");
  sub->add_option("--preset", r.preset, "preset to apply first");
  CLI::Option* width =
      sub->add_option("--width", r.width, "width in pixels (PNG) or points (SVG, PDF); default 1600 (a GIF sweep: 960)");
  CLI::Option* height = sub->add_option(
      "--height", r.height, "height; default 1000 (a GIF sweep: 540), or width × 0.625 when only --width is given");
  sub->add_option("--scale", r.scale, "PNG pixel density, e.g. 2 for crisp slides; default 1");
  sub->add_flag("--transparent", r.transparent, "no background");
  sub->add_option("--theme", r.theme, "light (default), dark or projector");
  sub->add_option("--lang", r.lang, "en or zh (default: the system language)");
  sub->add_option("--font-scale", r.font_scale, "text size × this (0.5..3), e.g. 1.5 for slides; default 1");
  sub->add_option("--line-scale", r.line_scale, "line widths × this (0.5..4); default 1");
  sub->add_option("--page", r.page, "PDF page: slide (13.333 × 7.5 in), a4, letter; default: the figure's size");
  sub->add_option("--sweep", r.sweep, "KEY=FROM:TO: one frame per value (--format gif, or png: numbered files in --out)");
  sub->add_option("--frames", r.frames, "sweep: frames from FROM to TO (2..600); default 60");
  sub->add_flag("--bounce", r.bounce, "sweep: forward, then back");
  sub->add_option("--seconds", r.seconds, "sweep: seconds from FROM to TO (GIF timing); default 5");
  // A width alone keeps the default's 16:10 shape (a 640-wide GIF was 640 × 1000).
  sub->parse_complete_callback([width, height, format, out, &r] {
    // --format and --out are required unless the descriptions alone are asked for.
    if (!r.describe)
      for (const CLI::Option* o : {format, out})
        if (o->count() == 0) throw CLI::RequiredError(o->get_name());
    if (width->count() > 0 && height->count() == 0) r.height = std::max(1, static_cast<int>(std::lround(r.width * 0.625)));
  });
  return sub;
}

namespace {

/// The keys `--set` may name for `view`: its sliders and its run keys (lab_train).
std::vector<std::string_view> keys_of(const ViewDef& view) {
  std::vector<std::string_view> keys = view.keys;
  keys.insert(keys.end(), view.run_keys.begin(), view.run_keys.end());
  return keys;
}

std::string known_views() {
  std::string out;
  for (const ViewDef& v : view_defs()) out += (out.empty() ? "" : ", ") + std::string(v.id);
  return out;
}

std::string known_figures(const ViewDef& v) {
  std::string out;
  for (const FigureDef& f : v.figures) out += (out.empty() ? "" : ", ") + std::string(f.id);
  return out;
}

/// `--sweep KEY=FROM:TO`: figure `r.figure` of `view` at every value, as a GIF or numbered PNGs.
/// The image options a request gives (size, scale, theme, slide scales).
ExportOptions options_of(const ExportRequest& r) {
  ExportOptions options;
  options.width = r.width;
  options.height = r.height;
  options.scale = r.scale;
  options.transparent = r.transparent;
  options.theme = r.theme;
  options.font_scale = r.font_scale;
  options.line_scale = r.line_scale;
  return options;
}

int export_sweep(const ExportRequest& r, const ViewDef& view, const Translator& tr) {
  if (r.figure.empty())
    throw core::InvalidParameter("figure", "(none)", "--sweep records one figure: name it with --figure");
  const FigureDef* f = find_figure(view, r.figure);
  if (!f)
    return fail(kExitUsage, tr.format("cli.unknown_figure",
                                      {{"view", r.view}, {"figure", r.figure}, {"figures", known_figures(view)}}));
  if (r.format != "gif" && r.format != "png")
    throw core::InvalidParameter("format", r.format, "a sweep is gif or png (numbered files)",
                                 core::Reason{"one_of", {{"choices", "gif, png"}}, {}});
  SweepSpec spec;
  parse_sweep(r.sweep, spec);
  spec.frames = r.frames;
  spec.bounce = r.bounce;
  spec.seconds = r.seconds;
  ExportOptions options = options_of(r);
  options.font_family = export_font_families(tr.lang());
  core::Params params = params_from_request(r.preset, r.sets, keys_of(view), r.view);
  apply_model(params, r.model, view.keys, r.sets);
  fs::path out = r.out;
  std::error_code ec;
  if (r.format == "gif" && fs::is_directory(out, ec))
    out /= std::string(view.id) + "-" + std::string(f->id) + "-" + spec.key + ".gif";
  SweepWriter writer(view, *f, std::move(params), spec, r.format == "gif" ? SweepFormat::gif : SweepFormat::png_sequence,
                     options, tr, out);
  writer.run();
  if (r.format == "gif") {  // what was written, and how big: a slide deck's size matters
    std::error_code size_ec;
    const auto bytes = fs::file_size(writer.output(), size_ec);
    char mb[32];
    std::snprintf(mb, sizeof mb, "%.1f", size_ec ? 0.0 : static_cast<double>(bytes) / 1e6);
    std::cout << tr.format("cli.gif_written", {{"path", writer.output().string()},
                                               {"frames", std::to_string(writer.frames_written())},
                                               {"width", std::to_string(options.width)},
                                               {"height", std::to_string(options.height)},
                                               {"mb", mb}})
              << "\n";
  }
  return kExitOk;
}

/// The figures of `r`, written; every message in tr's language.
int export_figures(const ExportRequest& r, const Translator& tr) {
  const ViewDef* view = find_view(r.view);
  if (!view) return fail(kExitUsage, tr.format("cli.unknown_view", {{"view", r.view}, {"views", known_views()}}));
  if (!r.page.empty() && parse_export_format(r.format) != ExportFormat::pdf)  // else silently ignored
    return fail(kExitUsage, tr.format("cli.page_not_pdf", {{"page", r.page}}));
  if (!r.sweep.empty()) return export_sweep(r, *view, tr);
  std::vector<const FigureDef*> figures;
  if (!r.figure.empty()) {
    const FigureDef* f = find_figure(*view, r.figure);
    if (!f)
      return fail(kExitUsage, tr.format("cli.unknown_figure",
                                        {{"view", r.view}, {"figure", r.figure}, {"figures", known_figures(*view)}}));
    figures.push_back(f);
  } else {
    for (const FigureDef& f : view->figures) figures.push_back(&f);
  }
  if (r.describe) {  // the text alternatives alone: no file, no image options
    core::Params params = params_from_request(r.preset, r.sets, keys_of(*view), r.view);
    apply_model(params, r.model, view->keys, r.sets);
    std::string text;
    for (const FigureDef* f : figures) {
      const fig::Figure built = build_figure(*view, *f, params, tr, r.width, r.height);
      text += std::string(f->id) + ": " + fig::plain_text(built.title) + "\n" + built.description + "\n\n";
    }
    std::cout << text << std::flush;
    return kExitOk;
  }
  const ExportFormat format = parse_export_format(r.format);
  ExportOptions options = options_of(r);
  options.page = r.page;
  options.check();
  check_export_pixels(figures.size(), options);
  core::Params params = params_from_request(r.preset, r.sets, keys_of(*view), r.view);
  std::string model = apply_model(params, r.model, view->keys, r.sets);
  if (model.empty() && !r.preset.empty()) model = find_preset(load_presets(assets_dir()), r.preset).model;
  options.font_family = export_font_families(tr.lang());

  // Build every figure before writing any file: invalid input writes nothing.
  std::vector<fig::Figure> built;
  for (const FigureDef* f : figures) {
    built.push_back(build_figure(*view, *f, params, tr, r.width, r.height));
    built.back().subtitle = model_subtitle(model, built.back().subtitle);  // the model it shows, by name
  }

  auto file_name = [&](const FigureDef* f) {
    return std::string(view->id) + "-" + std::string(f->id) + "." + export_extension(format);
  };
  fs::path out = r.out;
  if (out.empty()) return fail(kExitUsage, tr("cli.out_required"));
  std::error_code ec;
  if (r.figure.empty()) {
    if (fs::exists(out, ec) && !fs::is_directory(out, ec))
      return fail(kExitUsage, tr.format("cli.out_not_folder", {{"path", out.string()}}));
    // The figures appear in the folder together, once all are written (a
    // failure half-way leaves the folder as it was); the folder is created
    // one level deep, as every --out's.
    FileSet files(out);
    for (std::size_t i = 0; i < figures.size(); ++i)
      files.write_with(file_name(figures[i]),
                       [&](const fs::path& tmp) { export_figure(built[i], format, tmp, options); });
    files.commit();
  } else {
    if (fs::is_directory(out, ec)) out /= file_name(figures.front());
    export_figure(built.front(), format, out, options);
  }
  return kExitOk;
}

}  // namespace

void check_export_pixels(std::size_t figures, const ExportOptions& o) {
  const double pixels = static_cast<double>(figures) * o.width * o.height * o.scale * o.scale;
  if (pixels <= kExportPixelBudget) return;
  const std::string amount = std::to_string(std::llround(pixels)), max = std::to_string(std::llround(kExportPixelBudget));
  throw core::InvalidParameter("figures × width × height × scale²",
                               std::to_string(figures) + " × " + std::to_string(o.width) + " × " +
                                   std::to_string(o.height) + " × " + core::format_number(o.scale) + "²",
                               amount + " pixels is over the budget of " + max +
                                   " pixels per export (docs/CONTRACT.md §1); export fewer figures at once (--figure) "
                                   "or smaller",
                               core::Reason{"export_budget", {{"amount", amount}, {"max", max}}, {}});
}

core::Params params_from_request(const std::string& preset, const std::vector<std::string>& sets,
                                 const std::vector<std::string_view>& reads, const std::string& view) {
  core::check_each_key_once(sets);
  core::Params params;
  if (!preset.empty()) find_preset(load_presets(assets_dir()), preset).apply(params);
  for (const std::string& s : sets) {
    const std::size_t eq = s.find('=');
    const std::string key = s.substr(0, eq);
    if (eq != std::string::npos && core::find_param(key) && !reads.empty() &&
        std::find(reads.begin(), reads.end(), key) == reads.end()) {
      std::string list;
      for (auto k : reads) list += (list.empty() ? "" : ", ") + std::string(k);
      throw core::InvalidParameter(key, s.substr(eq + 1), "view '" + view + "' does not read it (it reads " + list + ")",
                                   core::Reason{"view_does_not_read", {{"view", view}, {"keys", list}}, {}});
    }
    params.set_assignment(s);
  }
  return params;
}

int run_export(const ExportRequest& given) {
  ExportRequest r = given;
  const bool gif = !r.sweep.empty() && r.format == "gif";
  if (r.width < 0) r.width = gif ? 960 : 1600;
  if (r.height < 0) r.height = gif ? 540 : 1000;
  return run_in_language(r.lang, {"cli.out_of_memory_view", {{"view", r.view}}},
                         [&](const Translator& tr) { return export_figures(r, tr); });
}

}  // namespace poslab::app::cli
