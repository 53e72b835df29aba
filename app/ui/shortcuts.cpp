#include "app/ui/shortcuts.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

namespace poslab::app::ui {

std::span<const Shortcut> shortcuts() {
  static const Shortcut table[] = {
      {Action::help, GLFW_KEY_F1, false, false, "? / F1", "ui.keys.help", 0, true},
      {Action::notation, GLFW_KEY_F2, false, false, "F2", "ui.keys.notation", 0, true},
      {Action::open_session, GLFW_KEY_O, true, false, "Ctrl+O", "ui.keys.open", 0, true},
      {Action::save_session, GLFW_KEY_S, true, false, "Ctrl+S", "ui.keys.save", 0, true},
      {Action::copy_state, GLFW_KEY_C, true, true, "Ctrl+Shift+C", "ui.keys.copy_state", 0, true},
      {Action::paste_state, GLFW_KEY_V, true, true, "Ctrl+Shift+V", "ui.keys.paste_state", 0, true},
      {Action::export_dialog, GLFW_KEY_E, true, false, "Ctrl+E", "ui.keys.export", 0, true},
      {Action::screenshot, GLFW_KEY_F12, false, false, "F12", "ui.keys.screenshot", 0, true},
      {Action::lecture, GLFW_KEY_F5, false, false, "F5", "ui.keys.lecture", 0, true},
      {Action::exit_lecture, GLFW_KEY_ESCAPE, false, false, "Esc", "ui.keys.exit_lecture", 0, false},
      {Action::fullscreen, GLFW_KEY_F11, false, false, "F11", "ui.keys.fullscreen", 0, true},
      {Action::scale_up, GLFW_KEY_EQUAL, true, false, "Ctrl+=", "ui.keys.scale_up", 0, true},
      {Action::scale_up, GLFW_KEY_KP_ADD, true, false, "Ctrl+=", nullptr, 0, true},
      {Action::scale_down, GLFW_KEY_MINUS, true, false, "Ctrl+-", "ui.keys.scale_down", 0, true},
      {Action::scale_down, GLFW_KEY_KP_SUBTRACT, true, false, "Ctrl+-", nullptr, 0, true},
      {Action::scale_reset, GLFW_KEY_0, true, false, "Ctrl+0", "ui.keys.scale_reset", 0, true},
      {Action::play, GLFW_KEY_SPACE, false, false, "Space", "ui.keys.play", 0, false},
      {Action::step_back, GLFW_KEY_COMMA, false, false, ",", "ui.keys.step_back", 0, false},
      {Action::step_forward, GLFW_KEY_PERIOD, false, false, ".", "ui.keys.step_forward", 0, false},
      {Action::next_step, GLFW_KEY_RIGHT, false, false, "→ / PgDn", "ui.keys.next_step", 0, false},
      {Action::next_step, GLFW_KEY_PAGE_DOWN, false, false, "PgDn", nullptr, 0, false},
      {Action::prev_step, GLFW_KEY_LEFT, false, false, "← / PgUp", "ui.keys.prev_step", 0, false},
      {Action::prev_step, GLFW_KEY_PAGE_UP, false, false, "PgUp", nullptr, 0, false},
      {Action::reset_step, GLFW_KEY_R, false, false, "R", "ui.keys.reset_step", 0, false},
      {Action::prev_lesson, GLFW_KEY_UP, false, false, "↑", "ui.keys.prev_lesson", 0, false},
      {Action::next_lesson, GLFW_KEY_DOWN, false, false, "↓", "ui.keys.next_lesson", 0, false},
      {Action::lesson_n, GLFW_KEY_1, false, false, "1 … 9, 0", "ui.keys.lesson_n", 0, false},
      {Action::lesson_n, GLFW_KEY_2, false, false, "2", nullptr, 1, false},
      {Action::lesson_n, GLFW_KEY_3, false, false, "3", nullptr, 2, false},
      {Action::lesson_n, GLFW_KEY_4, false, false, "4", nullptr, 3, false},
      {Action::lesson_n, GLFW_KEY_5, false, false, "5", nullptr, 4, false},
      {Action::lesson_n, GLFW_KEY_6, false, false, "6", nullptr, 5, false},
      {Action::lesson_n, GLFW_KEY_7, false, false, "7", nullptr, 6, false},
      {Action::lesson_n, GLFW_KEY_8, false, false, "8", nullptr, 7, false},
      {Action::lesson_n, GLFW_KEY_9, false, false, "9", nullptr, 8, false},
      {Action::lesson_n, GLFW_KEY_0, false, false, "0", nullptr, 9, false},  // the tenth lesson
      {Action::quit, GLFW_KEY_Q, true, false, "Ctrl+Q", "ui.keys.quit", 0, true},
  };
  return table;
}

std::vector<Pressed> pressed_shortcuts() {
  std::vector<Pressed> out;
  const ImGuiIO& io = ImGui::GetIO();
  // A text field has the keyboard, or a widget is being dragged: plain keys are its.
  const bool typing = io.WantTextInput || ImGui::IsAnyItemActive();
  for (const Shortcut& s : shortcuts()) {
    if (s.ctrl != io.KeyCtrl || s.shift != io.KeyShift) continue;
    if (typing && !s.while_typing) continue;
    if (s.key < 0 || s.key >= IM_ARRAYSIZE(io.KeysDown)) continue;
    const bool repeat = s.action == Action::scale_up || s.action == Action::scale_down ||
                        s.action == Action::step_back || s.action == Action::step_forward;
    if (ImGui::IsKeyPressed(s.key, repeat)) out.push_back({s.action, s.arg});
  }
  if (!typing)
    for (int i = 0; i < io.InputQueueCharacters.Size; ++i)
      if (io.InputQueueCharacters[i] == '?') out.push_back({Action::help, 0});
  return out;
}

void draw_shortcut_overlay(bool* open, const Translator& tr, float scale) {
  if (*open && !ImGui::IsPopupOpen("##shortcuts")) ImGui::OpenPopup("##shortcuts");
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f},
                          ImGuiCond_Appearing, {0.5f, 0.5f});
  if (!ImGui::BeginPopupModal("##shortcuts", open, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoTitleBar))
    return;
  ImGui::TextUnformatted(tr("ui.keys.title").c_str());
  ImGui::Separator();
  if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    for (const Shortcut& s : shortcuts()) {
      if (!s.label) continue;
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(s.keys);
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(tr(s.label).c_str());
    }
    for (const char* extra : {"ui.keys.mouse_zoom", "ui.keys.mouse_pan", "ui.keys.mouse_reset", "ui.keys.mouse_menu",
                              "ui.keys.ctrl_click"}) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(tr(std::string(extra) + ".keys").c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(tr(extra).c_str());
    }
    ImGui::EndTable();
  }
  ImGui::Spacing();
  if (ImGui::Button(tr("ui.common.close").c_str(), {120 * scale, 0}) || ImGui::IsKeyPressed(GLFW_KEY_ESCAPE)) {
    *open = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace poslab::app::ui
