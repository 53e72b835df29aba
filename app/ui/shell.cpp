// The normal window: menu bar, the lesson list on the left (grouped), the
// lesson in the centre, the parameters and the animation on the right;
// panels resized by dragging the splitters (widths kept in settings).

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/ui/animation_panel.hpp"
#include "app/ui/app.hpp"

namespace poslab::app::ui {

namespace {

constexpr float kLeftWidth = 230, kRightWidth = 360, kMinCenter = 320, kSplitter = 6;

/// A vertical splitter; dragging changes `width` (by +dx, or −dx when `invert`).
bool splitter(const char* id, float& width, bool invert, float height) {
  ImGui::InvisibleButton(id, {kSplitter, height});
  if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
  if (ImGui::IsItemActive()) width += invert ? -ImGui::GetIO().MouseDelta.x : ImGui::GetIO().MouseDelta.x;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const ImU32 col = ImGui::GetColorU32(ImGui::IsItemActive() ? ImGuiCol_SeparatorActive
                                       : ImGui::IsItemHovered() ? ImGuiCol_SeparatorHovered
                                                                : ImGuiCol_Separator);
  ImGui::GetWindowDrawList()->AddLine({(a.x + b.x) / 2, a.y}, {(a.x + b.x) / 2, b.y}, col, 1.0f);
  return ImGui::IsItemActive();
}

void draw_lesson_list(UiContext& ctx) {
  ImGui::PushFont(ctx.fonts.bold);
  ImGui::TextUnformatted(ctx.tr("ui.lessons.title").c_str());
  ImGui::PopFont();
  ImGui::Separator();
  const auto views = ctx.state.views();
  // The lesson's number, 1-based for every lesson (the keys 1–9 and 0 are in
  // the Lesson menu and the help: a "0" beside lesson 10 read as a lesson number).
  const float number_w = ImGui::CalcTextSize(views.size() >= 10 ? "99" : "9").x + ImGui::GetStyle().ItemSpacing.x * 1.5f;
  // Groups in teaching order, then any group a new lesson brings.
  std::vector<std::string_view> groups = {"absolute", "relative", "rotary", "extension"};
  for (const ViewDef& v : views)
    if (std::find(groups.begin(), groups.end(), v.group) == groups.end()) groups.push_back(v.group);
  for (std::string_view g : groups) {
    bool any = false;
    for (const ViewDef& v : views) any = any || v.group == g;
    if (!any) continue;
    ImGui::Spacing();
    const std::string key = "ui.group." + std::string(g);
    ImGui::TextDisabled("%s", (ctx.tr(key) == key ? std::string(g) : ctx.tr(key)).c_str());
    for (std::size_t i = 0; i < views.size(); ++i) {
      if (views[i].group != g) continue;
      // The shortcut number in front (1–9, 0), the title after it; a long
      // title wraps onto a second line rather than being clipped.
      const std::string title = lesson_title(ctx.tr, views[i].id);
      const std::string id = "##lesson-" + std::string(views[i].id);
      const bool selected = static_cast<int>(i) == ctx.state.view_index();
      const float x = ImGui::GetCursorPosX();
      const float wrap_w = std::max(40.0f, ImGui::GetContentRegionAvail().x - number_w);
      const float text_h = ImGui::CalcTextSize(title.c_str(), nullptr, false, wrap_w).y;
      if (ImGui::Selectable(id.c_str(), selected, 0, {0, text_h})) ctx.state.open_lesson(static_cast<int>(i));
      ImGui::SameLine(x);
      ImGui::TextDisabled("%zu", i + 1);
      ImGui::SameLine(x + number_w);
      ImGui::PushTextWrapPos(x + number_w + wrap_w);
      ImGui::TextUnformatted(title.c_str());
      ImGui::PopTextWrapPos();
    }
  }
}

}  // namespace

void App::draw_shell(UiContext& ctx) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
  ImGui::Begin("##shell", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_MenuBar);
  ImGui::PopStyleVar(2);
  draw_menu_bar(ctx);

  const float s = ctx.scale;
  const float avail_w = ImGui::GetContentRegionAvail().x, h = ImGui::GetContentRegionAvail().y;
  float left = settings_.left_width > 0 ? settings_.left_width * s : kLeftWidth * s;
  float right = settings_.right_width > 0 ? settings_.right_width * s : kRightWidth * s;
  // Keep the centre usable on small windows: shrink the side panels first.
  const float room = avail_w - std::max(kMinCenter * s, avail_w * 0.5f) - 2 * kSplitter;  // the lesson gets half at least
  if (left + right > room) {
    const float k = std::max(0.0f, room) / std::max(1.0f, left + right);
    left *= k, right *= k;
  }
  left = std::max(left, 120 * s), right = std::max(right, 200 * s);

  ImGui::BeginChild("##lessons", {left, h}, true);
  draw_lesson_list(ctx);
  ImGui::EndChild();
  ImGui::SameLine(0, 0);
  const bool dragged_left = splitter("##split-left", left, false, h);
  ImGui::SameLine(0, 0);

  const float center_w = std::max(100.0f, avail_w - left - right - 2 * kSplitter);
  ImGui::BeginChild("##center", {center_w, h}, false);
  ImGui::PushFont(ctx.fonts.title);
  ImGui::TextUnformatted(lesson_title(tr_, state_.view().id).c_str());
  ImGui::PopFont();
  ImGui::Separator();
  // Always room for the scrollbar: its appearing would resize (and rebuild) every figure.
  ImGui::BeginChild("##lesson", {0, 0}, false, ImGuiWindowFlags_AlwaysVerticalScrollbar);
  lesson_view_.draw(ctx);
  ImGui::EndChild();
  ImGui::EndChild();
  ImGui::SameLine(0, 0);
  const bool dragged_right = splitter("##split-right", right, true, h);
  ImGui::SameLine(0, 0);

  ImGui::BeginChild("##params", {0, h}, true);
  params_panel_.draw(ctx);
  ImGui::Spacing();
  draw_animation_panel(ctx);
  ImGui::EndChild();

  if (dragged_left) settings_.left_width = std::clamp(left / s, 100.0f, 2000.0f);
  if (dragged_right) settings_.right_width = std::clamp(right / s, 160.0f, 2000.0f);
  ImGui::End();
}

}  // namespace poslab::app::ui
