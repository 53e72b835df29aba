#include "app/ui/session_ui.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace poslab::app::ui {

std::filesystem::path suggested_session_path(const UiContext& ctx) {
  return ctx.export_choice.dir / (std::string(ctx.state.view().id) + ".poslab.json");
}

void SessionUi::show(Prompt prompt, const std::filesystem::path& suggested) {
  prompt_ = prompt;
  text_ = prompt == Prompt::paste ? std::string() : suggested.string();
  error_.clear();
  just_opened_ = true;
}

void SessionUi::draw(UiContext& ctx, const std::function<std::string(Prompt, const std::string&)>& confirm) {
  if (prompt_ == Prompt::none) return;
  const char* id = "##session-prompt";
  if (just_opened_) ImGui::OpenPopup(id);
  const float s = ctx.scale;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.3f},
                          ImGuiCond_Appearing, {0.5f, 0.5f});
  ImGui::SetNextWindowSize({620 * s, 0}, ImGuiCond_Appearing);
  bool open = true;
  if (!ImGui::BeginPopupModal(id, &open, ImGuiWindowFlags_NoTitleBar)) {
    if (!just_opened_) prompt_ = Prompt::none;
    return;
  }
  const char* title = prompt_ == Prompt::open    ? "ui.session.open_title"
                      : prompt_ == Prompt::save  ? "ui.session.save_title"
                      : prompt_ == Prompt::model ? "ui.model.open_title"
                                                 : "ui.session.paste_title";
  ImGui::PushFont(ctx.fonts.bold);
  ImGui::TextUnformatted(ctx.tr(title).c_str());
  ImGui::PopFont();
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", ctx.tr(prompt_ == Prompt::paste   ? "ui.session.paste_hint"
                                   : prompt_ == Prompt::model ? "ui.model.path_hint"
                                                              : "ui.session.path_hint").c_str());
  ImGui::PopTextWrapPos();
  if (just_opened_) ImGui::SetKeyboardFocusHere();
  just_opened_ = false;
  ImGui::SetNextItemWidth(-FLT_MIN);
  const bool enter = ImGui::InputText("##path", &text_, ImGuiInputTextFlags_EnterReturnsTrue);
  if (!error_.empty()) wrapped_colored(ctx.pal.error, error_);
  const char* ok = prompt_ == Prompt::save                               ? "ui.session.save"
                   : prompt_ == Prompt::open || prompt_ == Prompt::model ? "ui.session.open"
                                                                        : "ui.session.apply";
  bool close = false;
  if (ImGui::Button(ctx.tr(ok).c_str(), {120 * s, 0}) || enter) {
    error_ = confirm(prompt_, text_);
    close = error_.empty();
  }
  ImGui::SameLine();
  if (ImGui::Button(ctx.tr("ui.common.cancel").c_str(), {120 * s, 0}) || ImGui::IsKeyPressed(GLFW_KEY_ESCAPE) || !open)
    close = true;
  if (close) {
    prompt_ = Prompt::none;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace poslab::app::ui
