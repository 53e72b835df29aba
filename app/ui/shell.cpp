// The normal window: menu bar, the lesson list on the left (grouped), the
// lesson in the centre, the parameters and the animation on the right;
// panels resized by dragging the splitters (widths kept in settings).
// Narrower than kNarrowWidth points or lower than kNarrowHeight (a phone, a
// tablet upright, a narrow window): the narrow layout, one column with the lesson list and the full
// parameter panel behind buttons (issue 33).

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

#include "app/ui/animation_panel.hpp"
#include "app/ui/app.hpp"

namespace poslab::app::ui {

namespace {

constexpr float kLeftWidth = 230, kRightWidth = 360, kMinCenter = 320, kSplitter = 6;
/// Below this width, or this height (a phone on its side), in points (CSS px
/// in the browser) the window gets the narrow layout.
constexpr float kNarrowWidth = 800, kNarrowHeight = 480;
/// A finger's target: Apple's and Google's guidance (44 pt, 48 dp).
constexpr float kFinger = 44;

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
      ImGui::BeginGroup();
      const float x = ImGui::GetCursorPosX();
      const float wrap_w = std::max(40.0f, ImGui::GetContentRegionAvail().x - number_w);
      // Wrapped as every text of the app is (wrapped_text), not by ImGui:
      // ImGui takes "上下文扩展：PI、NTK、YaRN" for one word and split "YaR" / "N".
      float text_h = wrapped_height(nullptr, title, wrap_w);
      if (ctx.narrow) text_h = std::max(text_h, kFinger * ctx.scale - ImGui::GetStyle().ItemSpacing.y);  // a finger's row
      if (ImGui::Selectable(id.c_str(), selected, 0, {0, text_h})) ctx.state.open_lesson(static_cast<int>(i));
      ImGui::SameLine(x);
      ImGui::TextDisabled("%zu", i + 1);
      ImGui::SameLine(x + number_w);
      ImGui::BeginGroup();  // a second line starts under the first, not under the number
      wrapped_text(title, x + number_w + wrap_w);
      ImGui::EndGroup();
      ImGui::EndGroup();
      note_item(ctx, "lesson", views[i].id);
    }
  }
}

}  // namespace

void App::draw_shell(UiContext& ctx) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  if (vp->WorkSize.x < kNarrowWidth * ctx.scale || vp->Size.y < kNarrowHeight * ctx.scale) {
    draw_narrow(ctx);
    return;
  }
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

// [SECTION] The narrow layout

namespace {

/// A drag that starts on the page itself (not on a control) scrolls `page`,
/// as a finger expects: ImGui gives such a press to the window under it
/// (its move id), and the window's own scrolling is by wheel only.
void drag_scrolls(ImGuiWindow* page) {
  const ImGuiContext& g = *GImGui;
  ImGuiWindow* w = g.ActiveIdWindow;
  if (!w || g.ActiveId == 0 || g.ActiveId != w->MoveId || !ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.0f)) return;
  while (w && w != page) w = w->ParentWindow;
  if (w) ImGui::SetScrollY(page, page->Scroll.y - g.IO.MouseDelta.y);
}

}  // namespace

void App::draw_drawer_buttons(UiContext& ctx, bool title) {
  const std::string lessons = tr_("ui.narrow.lessons") + "##drawer-lessons";
  const std::string params = tr_("ui.narrow.params") + "##drawer-params";
  const std::string close = tr_("ui.narrow.close") + "##drawer-close";
  const ImGuiStyle& st = ImGui::GetStyle();
  auto width = [&st](const std::string& label) {
    return ImGui::CalcTextSize(label.c_str(), nullptr, true).x + 2 * st.FramePadding.x;
  };
  const float lessons_w = width(drawer_ == 1 ? close : lessons), params_w = width(drawer_ == 2 ? close : params);
  // In the menu bar ImGui lays items out with more room around them: a margin as wide again.
  const float right = ImGui::GetWindowContentRegionMax().x - (title ? st.WindowPadding.x + st.ItemSpacing.x : 0.0f);
  if (title) {
    // Beside the menus: the lesson's title when it fits, then both buttons at the right.
    const std::string t = lesson_title(tr_, state_.view().id);
    const float room = right - ImGui::GetCursorPosX() - lessons_w - params_w - 3 * st.ItemSpacing.x;
    if (ImGui::CalcTextSize(t.c_str()).x <= room) {
      ImGui::TextUnformatted(t.c_str());
      note_item(ctx, "text", "title");
    }
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), right - lessons_w - params_w - st.ItemSpacing.x));
  }
  if (ImGui::Button(drawer_ == 1 ? close.c_str() : lessons.c_str())) drawer_ = drawer_ == 1 ? 0 : 1;
  note_item(ctx, "button", "lessons");
  ImGui::SameLine(std::max(ImGui::GetCursorPosX(), right - params_w));
  if (ImGui::Button(drawer_ == 2 ? close.c_str() : params.c_str())) drawer_ = drawer_ == 2 ? 0 : 2;
  note_item(ctx, "button", "params");
}

void App::draw_narrow(UiContext& ctx) {
  narrow_ = ctx.narrow = true;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float s = ctx.scale;
  narrow_low_ = vp->Size.y < kNarrowHeight * s;
  const ImGuiStyle& st = ImGui::GetStyle();
  // Every control at least a finger tall: sliders, buttons, tabs, headers.
  const float pad_y = std::max(st.FramePadding.y, std::ceil((kFinger * s - ImGui::GetFontSize()) / 2));
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, {std::max(st.FramePadding.x, 10 * s), pad_y});
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, {st.ItemSpacing.x, std::max(st.ItemSpacing.y, 6 * s)});
  ImGui::PushStyleVar(ImGuiStyleVar_GrabMinSize, std::max(st.GrabMinSize, 28 * s));
  ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, std::max(st.ScrollbarSize, 10 * s));
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
  ImGui::Begin("##shell", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_MenuBar);
  ImGui::PopStyleVar(2);
  draw_menu_bar(ctx);

  if (!narrow_low_) draw_drawer_buttons(ctx, false);

  if (drawer_ != 0) {
    ImGui::BeginChild("##drawer", {0, 0}, false, ImGuiWindowFlags_AlwaysVerticalScrollbar);
    if (drawer_ == 1) {
      const int before = state_.view_index();
      draw_lesson_list(ctx);
      if (state_.view_index() != before) drawer_ = 0;  // a lesson chosen: back to it
    } else {
      params_panel_.draw(ctx);
      ImGui::Spacing();
      draw_animation_panel(ctx);
    }
    drag_scrolls(ImGui::GetCurrentWindow());
    ImGui::EndChild();
  } else {
    if (!narrow_low_) {
      ImGui::PushFont(ctx.fonts.title);
      ImGui::BeginGroup();
      wrapped_text(lesson_title(tr_, state_.view().id));
      ImGui::EndGroup();
      ImGui::PopFont();
      note_item(ctx, "text", "title");
    }
    ImGui::BeginChild("##lesson", {0, 0}, false, ImGuiWindowFlags_AlwaysVerticalScrollbar);
    // The sliders the step shows (all the lesson's without a step), one a line.
    lesson_view_.narrow_sliders = [this, &ctx] {
      const ViewDef& v = state_.view();
      std::vector<std::string> keys;
      const Scene* step = state_.current_step();
      if (step && !step->sliders.empty()) keys.assign(step->sliders.begin(), step->sliders.end());
      else keys.assign(v.keys.begin(), v.keys.end());
      params_panel_.draw_compact(ctx, keys, 1);
    };
    lesson_view_.draw(ctx);
    lesson_view_.narrow_sliders = nullptr;
    drag_scrolls(ImGui::GetCurrentWindow());
    ImGui::EndChild();
  }
  ImGui::End();
  ImGui::PopStyleVar(4);
}

}  // namespace poslab::app::ui
