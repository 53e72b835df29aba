#include "app/ui/export_ui.hpp"

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/common/fonts.hpp"
#include "app/common/messages.hpp"
#include "app/plot/formula.hpp"

namespace poslab::app::ui {

namespace {
const char* const kThemes[] = {"light", "dark", "projector"};
}

std::vector<std::filesystem::path> ExportUi::export_all(UiContext& ctx) {
  try {
    const auto files = export_lesson_files(ctx.state.view(), ctx.state.params(), ctx.tr, ctx.export_choice,
                                           shown_model(ctx.state));
    ctx.toasts.push(ctx.tr.format("ui.export.wrote_many", {{"n", std::to_string(files.size())},
                                                           {"dir", ctx.export_choice.dir.string()}}),
                    ToastKind::success);
    return files;
  } catch (const std::exception& e) {
    ctx.toasts.push(ctx.tr.format("ui.export.failed", {{"message", error_text(ctx.tr, e)}}), ToastKind::error);
    return {};
  }
}

std::string ExportUi::start_sweep(UiContext& ctx, SweepRecorder& recorder, int figure, SweepFormat format, int steps) {
  const ViewDef& v = ctx.state.view();
  std::string why;
  if (!ctx.state.animation().active()) why = ctx.tr("ui.sweep.no_animation");
  else if (figure < 0 || figure >= static_cast<int>(v.figures.size())) why = ctx.tr("ui.sweep.no_figure");
  if (why.empty()) {
    SweepRequest r;
    r.view = &v;
    r.figure = &v.figures[static_cast<std::size_t>(figure)];
    r.params = ctx.state.params();
    r.animation = ctx.state.animation().config();
    r.steps = steps;
    r.bounce = bounce_;
    r.format = format;
    r.dir = ctx.export_choice.dir;
    r.options = ctx.export_choice.options;  // the export size and look
    why = recorder.start(std::move(r), ctx.tr);
  }
  if (!why.empty()) ctx.toasts.push(ctx.tr.format("ui.sweep.failed", {{"message", why}}), ToastKind::error);
  return why;
}

void ExportUi::tick(UiContext& ctx, SweepRecorder& recorder) {
  if (!recorder.active()) return;
  ctx.redraw = true;
  if (recorder.step()) return;
  if (!recorder.error().empty())
    ctx.toasts.push(ctx.tr.format("ui.sweep.failed", {{"message", recorder.error()}}), ToastKind::error);
  else if (std::error_code ec; recorder.output().extension() == ".gif" && std::filesystem::is_regular_file(recorder.output(), ec)) {
    // A GIF's size matters on a slide: say it (issue 29).
    char mb[32];
    std::snprintf(mb, sizeof mb, "%.1f", static_cast<double>(std::filesystem::file_size(recorder.output(), ec)) / 1e6);
    ctx.toasts.push(ctx.tr.format("ui.sweep.done_gif", {{"n", std::to_string(recorder.frames_written())},
                                                        {"width", std::to_string(ctx.export_choice.options.width)},
                                                        {"height", std::to_string(ctx.export_choice.options.height)},
                                                        {"mb", mb},
                                                        {"path", recorder.output().string()}}),
                    ToastKind::success);
  } else
    ctx.toasts.push(ctx.tr.format("ui.sweep.done", {{"n", std::to_string(recorder.frames_written())},
                                                    {"path", recorder.output().string()}}),
                    ToastKind::success);
}

void ExportUi::draw(UiContext& ctx, SweepRecorder& recorder) {
  if (!open) return;
  const float s = ctx.scale;
  ImGui::SetNextWindowSize({560 * s, 0}, ImGuiCond_Appearing);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.35f},
                          ImGuiCond_Appearing, {0.5f, 0.5f});
  const std::string title = ctx.tr("ui.export.title") + "###export";
  if (!ImGui::Begin(title.c_str(), &open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  ExportChoice& c = ctx.export_choice;
  ImGui::TextUnformatted(ctx.tr("ui.export.folder").c_str());
  if (ImGui::GetActiveID() != ImGui::GetID("##dir")) dir_text_ = c.dir.string();  // not being typed in
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::InputText("##dir", &dir_text_)) {
    c.dir = dir_text_;
    ctx.settings.export_dir = dir_text_;
  }
  ImGui::TextUnformatted(ctx.tr("ui.export.formats").c_str());
  ImGui::Checkbox("PNG", &c.png);
  ImGui::SameLine();
  ImGui::Checkbox("SVG", &c.svg);
  ImGui::SameLine();
  ImGui::Checkbox("PDF", &c.pdf);
  ImGui::SameLine();
  ImGui::Checkbox("CSV", &c.csv);
  ImGui::SetNextItemWidth(110 * s);
  ImGui::InputInt(ctx.tr("ui.export.width").c_str(), &c.options.width, 100, 400);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110 * s);
  ImGui::InputInt(ctx.tr("ui.export.height").c_str(), &c.options.height, 100, 400);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90 * s);
  ImGui::InputDouble(ctx.tr("ui.export.scale").c_str(), &c.options.scale, 0.5, 1.0, "%.2g");
  c.options.width = std::clamp(c.options.width, 200, 8192);
  c.options.height = std::clamp(c.options.height, 200, 8192);
  c.options.scale = std::clamp(c.options.scale, 0.5, 4.0);
  theme_ = c.options.theme == "dark" ? 1 : c.options.theme == "projector" ? 2 : 0;
  ImGui::TextUnformatted(ctx.tr("ui.export.theme").c_str());
  for (int i = 0; i < 3; ++i) {
    ImGui::SameLine();
    if (ImGui::RadioButton(ctx.tr(std::string("ui.theme.") + kThemes[i]).c_str(), theme_ == i)) c.options.theme = kThemes[i];
  }
  ImGui::SameLine();
  ImGui::Checkbox(ctx.tr("ui.export.transparent").c_str(), &c.options.transparent);
  // For slides: bigger text and thicker lines than the size alone gives, a PDF page of a slide's size.
  ImGui::SetNextItemWidth(110 * s);
  ImGui::InputDouble(ctx.tr("ui.export.font_scale").c_str(), &c.options.font_scale, 0.25, 0.5, "%.2f");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110 * s);
  ImGui::InputDouble(ctx.tr("ui.export.line_scale").c_str(), &c.options.line_scale, 0.25, 0.5, "%.2f");
  c.options.font_scale = std::clamp(c.options.font_scale, 0.5, 3.0);
  c.options.line_scale = std::clamp(c.options.line_scale, 0.5, 4.0);
  ImGui::TextUnformatted(ctx.tr("ui.export.page").c_str());
  const std::pair<const char*, const char*> pages[] = {{"figure", "ui.export.page_figure"}, {"slide", "ui.export.page_slide"},
                                                      {"a4", "ui.export.page_a4"}, {"letter", "ui.export.page_letter"}};
  for (const auto& [page, label] : pages) {
    ImGui::SameLine();
    const bool chosen = c.options.page == page || (c.options.page.empty() && std::string(page) == "figure");
    if (ImGui::RadioButton(ctx.tr(label).c_str(), chosen)) c.options.page = page;
  }
  ImGui::Spacing();
  if (ImGui::Button(ctx.tr("ui.export.all").c_str())) export_all(ctx);
  ImGui::SameLine();
  ImGui::TextDisabled("%s", ctx.tr.format("ui.export.names", {{"view", std::string(ctx.state.view().id)}}).c_str());

  // Recording a sweep.
  ImGui::Separator();
  ImGui::PushFont(ctx.fonts.bold);
  ImGui::TextUnformatted(ctx.tr("ui.sweep.title").c_str());
  ImGui::PopFont();
  const ViewDef& v = ctx.state.view();
  const Animation& anim = ctx.state.animation();
  if (!anim.active()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", ctx.tr("ui.sweep.no_animation").c_str());
    ImGui::PopTextWrapPos();
  } else {
    ImGui::TextUnformatted(ctx.tr.format("ui.sweep.what", {{"key", anim.config().key},
                                                           {"from", fig::format_readout(anim.config().from)},
                                                           {"to", fig::format_readout(anim.config().to)}})
                               .c_str());
  }
  figure_ = std::clamp(figure_, 0, std::max(0, static_cast<int>(v.figures.size()) - 1));
  const std::string current = v.figures.empty() ? std::string() : std::string(v.figures[static_cast<std::size_t>(figure_)].id);
  ImGui::SetNextItemWidth(200 * s);
  // Figures by their titles (the id when a figure has no title text).
  auto figure_title = [&](std::string_view id) {
    const std::string key = std::string(v.id) + "." + std::string(id) + ".title";
    if (ctx.tr.has(key)) {
      std::string t = ctx.tr(key);
      if (t.find('{') == std::string::npos) return fig::plain_text(t);  // a menu's plain text: formulas written out
    }
    // a title with placeholders: the figure's own, as built at the current values
    if (const FigureCache::Entry* e = ctx.figures.find(v.id, id); e && !e->figure.title.empty())
      return fig::plain_text(e->figure.title);
    return std::string(id);
  };
  ImGui::SetNextItemWidth(std::min(420 * s, ImGui::GetContentRegionAvail().x * 0.7f));
  if (ImGui::BeginCombo(ctx.tr("ui.sweep.figure").c_str(), current.empty() ? "" : figure_title(current).c_str())) {
    for (int i = 0; i < static_cast<int>(v.figures.size()); ++i) {
      const std::string_view id = v.figures[static_cast<std::size_t>(i)].id;
      if (ImGui::Selectable((figure_title(id) + "##" + std::string(id)).c_str(), i == figure_)) figure_ = i;
    }
    ImGui::EndCombo();
  }
  ImGui::RadioButton(ctx.tr("ui.sweep.gif").c_str(), &sweep_format_, 0);
  ImGui::SameLine();
  ImGui::RadioButton(ctx.tr("ui.sweep.pngs").c_str(), &sweep_format_, 1);
  if (sweep_format_ == 0) {  // a GIF for a slide: its size, in one click (a 1600 × 1000 GIF of 118 frames is 7 MB)
    ImGui::SameLine();
    if (ImGui::SmallButton(ctx.tr("ui.sweep.slide_size").c_str()))
      ctx.export_choice.options.width = 960, ctx.export_choice.options.height = 540;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("ui.sweep.slide_size_hint").c_str());
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(100 * s);
  ImGui::InputInt(ctx.tr("ui.sweep.steps").c_str(), &steps_, 10, 50);
  steps_ = std::clamp(steps_, 1, 599);
  ImGui::Checkbox(ctx.tr("ui.sweep.bounce").c_str(), &bounce_);
  if (recorder.active()) {
    ImGui::ProgressBar(recorder.progress(), {-FLT_MIN - 100 * s, 0});
    ImGui::SameLine();
    if (ImGui::Button(ctx.tr("ui.common.cancel").c_str())) recorder.cancel();
  } else {
    ImGui::BeginDisabled(!anim.active() || v.figures.empty());
    if (ImGui::Button(ctx.tr("ui.sweep.record").c_str()))
      start_sweep(ctx, recorder, figure_, sweep_format_ == 0 ? SweepFormat::gif : SweepFormat::png_sequence, steps_);
    ImGui::EndDisabled();
  }
  ImGui::End();
}

}  // namespace poslab::app::ui
