#include "app/ui/ui_context.hpp"

#include <imgui.h>

namespace poslab::app::ui {

std::string lesson_title(const Translator& tr, std::string_view view_id) {
  const std::string key = std::string(view_id) + ".title";
  const std::string& t = tr(key);
  return t == key ? std::string(view_id) : t;
}

void help_marker(const char* text) {
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void wrapped_colored(const ImVec4& color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

}  // namespace poslab::app::ui
