#pragma once
// Exports from the GUI, through the same exporters as `poslab export`
// (app/export/figure_export): figures rebuilt at the export size from the
// current parameters, written atomically as <view>-<figure>.<ext> into a
// chosen folder (created if needed). Plus a figure as an in-memory image
// (cairo) for the frames of a recorded sweep. No ImGui here.

#include <filesystem>
#include <string>
#include <vector>

#include "app/common/i18n.hpp"
#include "app/export/figure_export.hpp"
#include "app/lessons/lesson.hpp"
#include "app/ui/image.hpp"

namespace poslab::app::ui {

struct ExportChoice {
  std::filesystem::path dir;
  bool png = true, svg = false, pdf = false, csv = false;
  ExportOptions options;  ///< size, scale, theme, transparency, font

  std::vector<ExportFormat> formats() const;
};

/// Writes figure `def` of `view` in `format` into choice.dir; returns the path.
/// Raises IoError or core::InvalidParameter (nothing written then). `model`
/// (a config's model_type, "" for none) leads the subtitle.
std::filesystem::path export_figure_file(const ViewDef& view, const FigureDef& def, const core::Params& params,
                                         const Translator& tr, ExportFormat format, const ExportChoice& choice,
                                         std::string_view model = {});

/// Every figure of `view` in every chosen format; builds them all before
/// writing any. Returns the files written.
std::vector<std::filesystem::path> export_lesson_files(const ViewDef& view, const core::Params& params,
                                                       const Translator& tr, const ExportChoice& choice,
                                                       std::string_view model = {});

/// `figure` drawn by cairo into a width × height image (the export look).
Image render_figure_image(const fig::Figure& figure, int width, int height, const std::string& theme,
                          const std::string& font_family);

}  // namespace poslab::app::ui
