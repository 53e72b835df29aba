#include "app/ui/export_service.hpp"

#include "app/common/atomic_file.hpp"
#include "app/model/model_config.hpp"
#include "app/export/cairo_painter.hpp"

namespace poslab::app::ui {

namespace fs = std::filesystem;

std::vector<ExportFormat> ExportChoice::formats() const {
  std::vector<ExportFormat> out;
  if (png) out.push_back(ExportFormat::png);
  if (svg) out.push_back(ExportFormat::svg);
  if (pdf) out.push_back(ExportFormat::pdf);
  if (csv) out.push_back(ExportFormat::csv);
  return out;
}

namespace {

void ensure_dir(const fs::path& dir) {
  if (dir.empty()) throw IoError("no export folder chosen");
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return;
  if (fs::exists(dir, ec)) throw IoError("cannot export into " + dir.string() + ": it is not a folder");
  fs::create_directories(dir, ec);
  if (ec) throw IoError("cannot create folder " + dir.string() + ": " + ec.message());
}

fs::path file_for(const ViewDef& view, const FigureDef& def, const ExportChoice& c, ExportFormat f) {
  return c.dir / (std::string(view.id) + "-" + std::string(def.id) + "." + export_extension(f));
}

}  // namespace

fs::path export_figure_file(const ViewDef& view, const FigureDef& def, const core::Params& params,
                            const Translator& tr, ExportFormat format, const ExportChoice& choice, std::string_view model) {
  choice.options.check();
  fig::Figure figure = build_figure(view, def, params, tr, choice.options.width, choice.options.height);
  figure.subtitle = model_subtitle(model, figure.subtitle);
  ensure_dir(choice.dir);
  const fs::path out = file_for(view, def, choice, format);
  export_figure(figure, format, out, choice.options);
  return out;
}

std::vector<fs::path> export_lesson_files(const ViewDef& view, const core::Params& params, const Translator& tr,
                                          const ExportChoice& choice, std::string_view model) {
  choice.options.check();
  const auto formats = choice.formats();
  if (formats.empty())
    throw core::InvalidParameter("format", "(none)", "choose at least one of PNG, SVG, PDF, CSV",
                                 core::Reason{"no_format", {{"choices", "PNG, SVG, PDF, CSV"}}, "none"});
  std::vector<fig::Figure> built;
  for (const FigureDef& def : view.figures) {
    built.push_back(build_figure(view, def, params, tr, choice.options.width, choice.options.height));
    built.back().subtitle = model_subtitle(model, built.back().subtitle);
  }
  ensure_dir(choice.dir);
  std::vector<fs::path> written;
  for (std::size_t i = 0; i < built.size(); ++i)
    for (ExportFormat f : formats) {
      const fs::path out = file_for(view, view.figures[i], choice, f);
      export_figure(built[i], f, out, choice.options);
      written.push_back(out);
    }
  return written;
}

}  // namespace poslab::app::ui
