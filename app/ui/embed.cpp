// Embed mode: one figure and the sliders a course page's <iframe> names
// ("#embed&view=rope&figure=frequencies&sliders=d,base", app/common/link.hpp),
// filling the window — no menu bar, no lesson list, no text around it. The
// page sizes its canvas to the iframe; the figure takes what the sliders
// leave.

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/ui/app.hpp"

namespace poslab::app::ui {

namespace {
constexpr float kSliderColumnWidth = 200;  ///< points: sliders narrower than this go on more rows
constexpr int kMaxSliderColumns = 3;
}  // namespace

void App::draw_embed(UiContext& ctx) {
  const EmbedOptions& e = *embed_;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float s = ctx.scale;
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, {8 * s, 6 * s});
  ImGui::Begin("##embed", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleVar(3);

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int n = static_cast<int>(e.sliders.size());
  const int cols = n == 0 ? 1
                          : std::clamp(static_cast<int>(avail.x / (kSliderColumnWidth * s)), 1,
                                       std::min(n, kMaxSliderColumns));
  const int rows = (n + cols - 1) / cols;
  // A slider's name line and its slider (as lecture mode's strip).
  const float row_h = ImGui::GetFrameHeightWithSpacing() + ImGui::GetTextLineHeightWithSpacing() + 2 * s;
  const float sliders_h = n > 0 ? static_cast<float>(rows) * row_h + 2 * s : 0.0f;
  const float figure_h = std::max(60 * s, avail.y - sliders_h - (n > 0 ? ImGui::GetStyle().ItemSpacing.y : 0.0f));
  lesson_view_.single_figure(ctx, e.figure, {avail.x, std::floor(figure_h)});
  if (n > 0) {
    ImGui::BeginChild("##embed-params", {0, 0}, false);
    params_panel_.draw_compact(ctx, e.sliders, cols);
    ImGui::EndChild();
  } else {
    params_panel_.draw_compact(ctx, {}, 1);  // none (and says so: drawn() is empty)
  }
  ImGui::End();
}

}  // namespace poslab::app::ui
