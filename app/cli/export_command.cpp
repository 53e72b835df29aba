// `poslab export --view ID [--figure ID] --format png|svg|pdf|csv --out PATH ...`

#include <algorithm>
#include <filesystem>

#include "app/cli/cli.hpp"
#include "app/cli/commands.hpp"
#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/fonts.hpp"
#include "app/common/i18n.hpp"
#include "app/common/messages.hpp"
#include "app/common/presets.hpp"
#include "app/export/figure_export.hpp"
#include "app/lessons/lesson.hpp"

namespace poslab::app::cli {

namespace fs = std::filesystem;

namespace {

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

}  // namespace

core::Params params_from_request(const std::string& preset, const std::vector<std::string>& sets,
                                 const std::vector<std::string_view>& reads, const std::string& view) {
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

int run_export(const ExportRequest& r) {
  Translator tr;  // empty until loaded: error_text then says what()
  try {
    // The language first: every message after this is in it.
    const std::string lang = r.lang.empty() ? system_language() : r.lang;
    if (lang != "en" && lang != "zh") return fail(kExitUsage, "lang = " + lang + ": must be en or zh");
    tr = Translator::load(assets_dir(), lang);
    const ViewDef* view = find_view(r.view);
    if (!view) return fail(kExitUsage, tr.format("cli.unknown_view", {{"view", r.view}, {"views", known_views()}}));
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
    const ExportFormat format = parse_export_format(r.format);
    ExportOptions options;
    options.width = r.width;
    options.height = r.height;
    options.scale = r.scale;
    options.transparent = r.transparent;
    options.theme = r.theme;
    options.check();
    const core::Params params = params_from_request(r.preset, r.sets, view->keys, r.view);
    options.font_family = export_font_families(lang);

    // Build every figure before writing any file: invalid input writes nothing.
    std::vector<fig::Figure> built;
    for (const FigureDef* f : figures) built.push_back(build_figure(*view, *f, params, tr, r.width, r.height));

    auto file_name = [&](const FigureDef* f) {
      return std::string(view->id) + "-" + std::string(f->id) + "." + export_extension(format);
    };
    fs::path out = r.out;
    if (out.empty()) return fail(kExitUsage, tr("cli.out_required"));
    std::error_code ec;
    if (r.figure.empty()) {
      if (fs::exists(out, ec) && !fs::is_directory(out, ec))
        return fail(kExitUsage, tr.format("cli.out_not_folder", {{"path", out.string()}}));
      if (!fs::exists(out, ec) && !fs::create_directories(out, ec))
        return fail(kExitFailure, tr.format("cli.cannot_create_folder", {{"path", out.string()}, {"reason", ec.message()}}));
      for (std::size_t i = 0; i < figures.size(); ++i) export_figure(built[i], format, out / file_name(figures[i]), options);
    } else {
      if (fs::is_directory(out, ec)) out /= file_name(figures.front());
      export_figure(built.front(), format, out, options);
    }
    return kExitOk;
  } catch (const core::InvalidParameter& e) {
    return fail(kExitUsage, error_text(tr, e));
  } catch (const IoError& e) {
    return fail(kExitFailure, error_text(tr, e));
  } catch (const std::bad_alloc&) {
    return fail(kExitFailure, tr.format("cli.out_of_memory_view", {{"view", r.view}}));
  }
}

}  // namespace poslab::app::cli
