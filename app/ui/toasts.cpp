#include "app/ui/toasts.hpp"

#include <imgui.h>

#include <limits>

namespace poslab::app::ui {

void Toasts::push(std::string text, ToastKind kind) {
  history_.push_back(text);
  ++pushed_;
  if (history_.size() > 64) history_.pop_front();
  last_kind_ = kind;
  toasts_.push_back({std::move(text), kind});
  if (toasts_.size() > 4) toasts_.pop_front();
}

const std::string& Toasts::last() const {
  static const std::string none;
  return history_.empty() ? none : history_.back();
}

double Toasts::seconds_to_next_change(double now) const {
  double next = std::numeric_limits<double>::infinity();
  for (const Toast& t : toasts_) next = std::min(next, t.shown_at < 0 ? 0.0 : t.shown_at + kToastSeconds - now);
  return next < 0 ? 0 : next;
}

void Toasts::draw(double now, float scale, float text_scale) {
  while (!toasts_.empty() && toasts_.front().shown_at >= 0 && now - toasts_.front().shown_at > kToastSeconds)
    toasts_.pop_front();
  if (toasts_.empty()) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  float y = vp->WorkPos.y + vp->WorkSize.y - 12 * scale;
  int i = 0;
  for (auto it = toasts_.rbegin(); it != toasts_.rend(); ++it, ++i) {
    Toast& t = *it;
    if (t.shown_at < 0) t.shown_at = now;
    const float max_w = vp->WorkSize.x * (text_scale < 1 ? 0.3f : 0.5f);
    ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x - 12 * scale, y}, ImGuiCond_Always, {1.0f, 1.0f});
    ImGui::SetNextWindowSizeConstraints({0, 0}, {max_w, vp->WorkSize.y * 0.5f});
    const ImVec4 border = t.kind == ToastKind::error     ? ImVec4(0.86f, 0.2f, 0.2f, 1)
                          : t.kind == ToastKind::success ? ImVec4(0.2f, 0.65f, 0.35f, 1)
                                                         : ImGui::GetStyleColorVec4(ImGuiCol_Border);
    ImGui::PushStyleColor(ImGuiCol_Border, border);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 2.0f * scale * text_scale);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, {8.0f * scale * text_scale, 6.0f * scale * text_scale});
    const std::string name = "##toast" + std::to_string(i);
    ImGui::Begin(name.c_str(), nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove);
    ImGui::SetWindowFontScale(text_scale);  // kept by the window: set every time
    ImGui::PushTextWrapPos(max_w - ImGui::GetStyle().WindowPadding.x * 2);
    ImGui::TextUnformatted(t.text.c_str());
    ImGui::PopTextWrapPos();
    y -= ImGui::GetWindowHeight() + 8 * scale * text_scale;
    ImGui::End();
    ImGui::PopStyleVar(2);
    ImGui::PopStyleColor();
  }
}

}  // namespace poslab::app::ui
