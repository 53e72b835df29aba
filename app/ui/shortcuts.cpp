#include "app/ui/shortcuts.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

namespace poslab::app::ui {

namespace {

/// The keys of the whole app (the lecture's own are in lecture/lecture_keys.cpp).
std::span<const Shortcut> app_shortcuts() {
  // action, key, ctrl, shift, shown, label, arg, while typing, repeats, any shift
  static const Shortcut table[] = {
      {Action::help, GLFW_KEY_F1, false, false, "? / F1", "ui.keys.help", 0, true},
      {Action::notation, GLFW_KEY_F2, false, false, "F2", "ui.keys.notation", 0, true},
      {Action::open_session, GLFW_KEY_O, true, false, "Ctrl+O", "ui.keys.open", 0, true},
      {Action::save_session, GLFW_KEY_S, true, false, "Ctrl+S", "ui.keys.save", 0, true},
      {Action::copy_state, GLFW_KEY_C, true, true, "Ctrl+Shift+C", "ui.keys.copy_state", 0, true},
      {Action::paste_state, GLFW_KEY_V, true, true, "Ctrl+Shift+V", "ui.keys.paste_state", 0, true},
      {Action::export_dialog, GLFW_KEY_E, true, false, "Ctrl+E", "ui.keys.export", 0, true},
      {Action::deck_panel, GLFW_KEY_D, true, false, "Ctrl+D", "ui.keys.deck_panel", 0, true},
      {Action::screenshot, GLFW_KEY_F12, false, false, "F12", "ui.keys.screenshot", 0, true},
      {Action::lecture, GLFW_KEY_F5, false, false, "F5", "ui.keys.lecture", 0, true, false, true},
      {Action::escape, GLFW_KEY_ESCAPE, false, false, "Esc", "ui.keys.escape", 0, true, false, true},
      {Action::fullscreen, GLFW_KEY_F11, false, false, "F11", "ui.keys.fullscreen", 0, true},
      {Action::scale_up, GLFW_KEY_EQUAL, true, false, "Ctrl+=", "ui.keys.scale_up", 0, true, true, true},
      {Action::scale_up, GLFW_KEY_KP_ADD, true, false, "Ctrl+=", nullptr, 0, true, true},
      {Action::scale_down, GLFW_KEY_MINUS, true, false, "Ctrl+-", "ui.keys.scale_down", 0, true, true},
      {Action::scale_down, GLFW_KEY_KP_SUBTRACT, true, false, "Ctrl+-", nullptr, 0, true, true},
      {Action::scale_reset, GLFW_KEY_0, true, false, "Ctrl+0", "ui.keys.scale_reset", 0, true},
      {Action::play, GLFW_KEY_P, false, false, "P", "ui.keys.play"},
      // Outside lecture mode only: there . and , blank the screen, ↑ ↓ go
      // through the scenes and the digits type a scene's number (lecture_keys.cpp).
      {Action::step_back, GLFW_KEY_COMMA, false, false, ",", "ui.keys.step_back", 0, false, true, false, KeyMode::normal},
      {Action::step_forward, GLFW_KEY_PERIOD, false, false, ".", "ui.keys.step_forward", 0, false, true, false, KeyMode::normal},
      {Action::prev_lesson, GLFW_KEY_UP, false, false, "↑", "ui.keys.prev_lesson", 0, false, false, false, KeyMode::normal},
      {Action::next_lesson, GLFW_KEY_DOWN, false, false, "↓", "ui.keys.next_lesson", 0, false, false, false, KeyMode::normal},
      {Action::lesson_n, GLFW_KEY_1, false, false, "1 … 9, 0", "ui.keys.lesson_n", 0, false, false, false, KeyMode::normal},
      {Action::lesson_n, GLFW_KEY_2, false, false, "2", nullptr, 1, false, false, false, KeyMode::normal},
      {Action::lesson_n, GLFW_KEY_3, false, false, "3", nullptr, 2, false, false, false, KeyMode::normal},
      {Action::lesson_n, GLFW_KEY_4, false, false, "4", nullptr, 3, false, false, false, KeyMode::normal},
      {Action::lesson_n, GLFW_KEY_5, false, false, "5", nullptr, 4, false, false, false, KeyMode::normal},
      {Action::lesson_n, GLFW_KEY_6, false, false, "6", nullptr, 5, false, false, false, KeyMode::normal},
      {Action::lesson_n, GLFW_KEY_7, false, false, "7", nullptr, 6, false, false, false, KeyMode::normal},
      {Action::lesson_n, GLFW_KEY_8, false, false, "8", nullptr, 7, false, false, false, KeyMode::normal},
      {Action::lesson_n, GLFW_KEY_9, false, false, "9", nullptr, 8, false, false, false, KeyMode::normal},
      {Action::lesson_n, GLFW_KEY_0, false, false, "0", nullptr, 9, false, false, false, KeyMode::normal},  // the tenth lesson
      {Action::quit, GLFW_KEY_Q, true, false, "Ctrl+Q", "ui.keys.quit", 0, true},
  };
  return table;
}

}  // namespace

std::span<const Shortcut> shortcuts() {
  // The app's keys up to the scale, then the lecture's (steps, figures,
  // presenter tools), then the rest: the order the "?" overlay lists them.
  static const std::vector<Shortcut> all = [] {
    const std::span<const Shortcut> app = app_shortcuts(), lecture = lecture_shortcuts();
    const auto split = std::find_if(app.begin(), app.end(), [](const Shortcut& s) { return s.action == Action::play; });
    std::vector<Shortcut> out(app.begin(), split);
    out.insert(out.end(), lecture.begin(), lecture.end());
    out.insert(out.end(), split, app.end());
    return out;
  }();
  return all;
}

std::vector<Pressed> pressed_shortcuts(bool lecture) {
  std::vector<Pressed> out;
  const ImGuiIO& io = ImGui::GetIO();
  // A text field has the keyboard, or a widget is being dragged: plain keys are its.
  const bool typing = io.WantTextInput || ImGui::IsAnyItemActive();
  for (const Shortcut& s : shortcuts()) {
    if (s.ctrl != io.KeyCtrl || (s.shift != io.KeyShift && !s.any_shift) || !s.in(lecture)) continue;
    if (typing && !s.while_typing) continue;
    if (s.key < 0 || s.key >= IM_ARRAYSIZE(io.KeysDown)) continue;
    if (!ImGui::IsKeyPressed(s.key, s.repeats)) continue;
    // One action per key (Space and Shift+Space share a key).
    if (std::none_of(out.begin(), out.end(), [&](const Pressed& p) { return p.action == s.action && p.arg == s.arg; }))
      out.push_back({s.action, s.arg});
  }
  return out;
}

bool help_typed() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || ImGui::IsAnyItemActive()) return false;
  for (int i = 0; i < io.InputQueueCharacters.Size; ++i)
    if (io.InputQueueCharacters[i] == '?') return true;
  return false;
}

void draw_shortcut_overlay(bool* open, const Translator& tr, float scale, bool lecture) {
  if (*open && !ImGui::IsPopupOpen("##shortcuts")) ImGui::OpenPopup("##shortcuts");
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f},
                          ImGuiCond_Always, {0.5f, 0.5f});
  ImGui::SetNextWindowSizeConstraints({0, 0}, {vp->WorkSize.x * 0.96f, vp->WorkSize.y * 0.96f});
  if (!ImGui::BeginPopupModal("##shortcuts", open, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoTitleBar))
    return;
  if (!*open) {  // closed from outside (Esc)
    ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    return;
  }
  ImGui::TextUnformatted(tr("ui.keys.title").c_str());
  ImGui::Separator();
  // Every row: the keys, what they do.
  std::vector<std::pair<std::string, std::string>> rows;
  for (const Shortcut& s : shortcuts())
    if (s.label && s.in(lecture)) rows.emplace_back(s.keys, tr(s.label));
  for (const char* extra : {"ui.keys.mouse_wheel", "ui.keys.mouse_zoom", "ui.keys.mouse_pan", "ui.keys.mouse_reset",
                            "ui.keys.mouse_menu", "ui.keys.mouse_legend", "ui.keys.ctrl_click"})
    rows.emplace_back(tr(std::string(extra) + ".keys"), tr(extra));
  // Columns of rows that fit the screen (a lecture's large text on 720p
  // too): of 1, 2 or 3 columns, the one that needs the least shrinking of
  // the text, and the text shrunk by that much (never below 60 %).
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeight() + style.CellPadding.y * 2;
  const float room_h = vp->WorkSize.y * 0.94f - ImGui::GetTextLineHeightWithSpacing() * 2 -
                       ImGui::GetFrameHeightWithSpacing() - style.WindowPadding.y * 2 - style.ItemSpacing.y * 3;
  const float room_w = vp->WorkSize.x * 0.96f - style.WindowPadding.x * 2;
  const int n = static_cast<int>(rows.size());
  int cols = 1;
  float fit = 0;
  for (int c = 1; c <= 3; ++c) {
    const int per = (n + c - 1) / c;
    float width = 0;
    for (int k = 0; k < c; ++k) {
      float kw = 0, lw = 0;
      for (int i = k * per; i < std::min(n, (k + 1) * per); ++i) {
        kw = std::max(kw, ImGui::CalcTextSize(rows[static_cast<std::size_t>(i)].first.c_str()).x);
        lw = std::max(lw, ImGui::CalcTextSize(rows[static_cast<std::size_t>(i)].second.c_str()).x);
      }
      width += kw + lw + style.CellPadding.x * 4 + style.ItemSpacing.x;
    }
    const float k = std::min({1.0f, room_h / (line * static_cast<float>(per)), room_w / std::max(1.0f, width)});
    if (k > fit + 1e-3f) fit = k, cols = c;
  }
  ImGui::SetWindowFontScale(std::max(0.6f, fit));
  const int per = (n + cols - 1) / cols;
  if (ImGui::BeginTable("##keys", 2 * cols, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    for (int r = 0; r < per; ++r) {
      ImGui::TableNextRow();
      for (int c = 0; c < cols; ++c) {
        const int i = c * per + r;
        if (i >= n) break;
        ImGui::TableSetColumnIndex(2 * c);
        ImGui::TextUnformatted(rows[static_cast<std::size_t>(i)].first.c_str());
        ImGui::TableSetColumnIndex(2 * c + 1);
        ImGui::TextUnformatted(rows[static_cast<std::size_t>(i)].second.c_str());
      }
    }
    ImGui::EndTable();
  }
  ImGui::SetWindowFontScale(1.0f);
  ImGui::Spacing();
  if (ImGui::Button(tr("ui.common.close").c_str(), {120 * scale, 0})) {
    *open = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace poslab::app::ui
