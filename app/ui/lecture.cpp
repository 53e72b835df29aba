// Lecture mode (F5): the projector theme at a large scale, fullscreen, and
// nothing but the lesson's title, its figure(s) and the chosen sliders
// (right-click a parameter → "Show in lecture mode"). ← → step through the
// lessons like slides; Esc or F5 leaves.

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/ui/app.hpp"

namespace poslab::app::ui {

void App::draw_lecture(UiContext& ctx) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float s = ctx.scale;
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, {16 * s, 12 * s});
  ImGui::Begin("##lecture", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImGui::PopStyleVar(3);

  // Title line: the lesson, where we are, how to leave.
  ImGui::PushFont(fonts_.title);
  ImGui::TextUnformatted(lesson_title(tr_, state_.view().id).c_str());
  ImGui::PopFont();
  const std::string where = tr_.format("ui.lecture.position", {{"n", std::to_string(state_.view_index() + 1)},
                                                               {"total", std::to_string(state_.views().size())}});
  ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(where.c_str()).x);
  ImGui::TextDisabled("%s", where.c_str());

  // The chosen sliders (all of the lesson's when none was chosen).
  std::vector<std::string> keys;
  const auto it = settings_.lecture_keys.find(std::string(state_.view().id));
  if (it != settings_.lecture_keys.end() && !it->second.empty()) {
    for (const std::string& k : it->second)
      if (core::find_param(k)) keys.push_back(k);
  } else {
    for (std::string_view k : state_.view().keys) keys.emplace_back(k);
  }
  // The sliders take at most a third of the screen (scrolling beyond), the
  // figures the rest.
  const int rows = static_cast<int>((keys.size() + 2) / 3);
  const float row_h = ImGui::GetFrameHeightWithSpacing() + ImGui::GetTextLineHeightWithSpacing() + 4 * s;
  const bool anim = state_.animation().active();
  const float avail = ImGui::GetContentRegionAvail().y;
  const float anim_h = anim ? ImGui::GetFrameHeightWithSpacing() : 0;
  const float params_h = std::min(static_cast<float>(rows) * row_h + ImGui::GetStyle().ItemSpacing.y, avail / 3);

  ImGui::BeginChild("##lecture-lesson", {0, std::max(100.0f * s, avail - params_h - anim_h)}, false,
                    ImGuiWindowFlags_AlwaysVerticalScrollbar);
  lesson_view_.draw(ctx);
  ImGui::EndChild();
  if (!keys.empty()) {
    ImGui::BeginChild("##lecture-params", {0, params_h}, false);
    params_panel_.draw_compact(ctx, keys);
    ImGui::EndChild();
  }
  if (anim) {
    Animation& a = state_.animation();
    if (ImGui::Button(tr_(a.playing() ? "ui.anim.pause" : "ui.anim.play").c_str(), {120 * s, 0})) a.toggle();
    ImGui::SameLine();
    const std::string value = fig::format_readout(a.value());
    ImGui::ProgressBar(static_cast<float>(a.phase()), {-FLT_MIN, 0},
                       (param_name(tr_, a.config().key) + " = " + value).c_str());
  }
  ImGui::End();
}

}  // namespace poslab::app::ui
