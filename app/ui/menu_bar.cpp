// The menu bar: File (sessions, state, export, screenshot), Lesson, Presets
// (with their one-line notes), View (theme, scale, language, lecture,
// fullscreen, layout) and Help. Every item calls the same App function as
// its shortcut.

#include <imgui.h>

#include <cmath>
#include <filesystem>

#include "app/ui/app.hpp"

namespace poslab::app::ui {

namespace {

bool item(const Translator& tr, const char* key, const char* keys = nullptr, bool selected = false, bool enabled = true) {
  return ImGui::MenuItem(tr(key).c_str(), keys, selected, enabled);
}

}  // namespace

void App::draw_menu_bar(UiContext& ctx) {
  if (!ImGui::BeginMenuBar()) return;
  const Translator& tr = tr_;
  if (ImGui::BeginMenu(tr("ui.menu.file").c_str())) {
    if (item(tr, "ui.keys.open", "Ctrl+O")) run(Action::open_session);
    if (item(tr, "ui.keys.save", "Ctrl+S")) run(Action::save_session);
    if (item(tr, "ui.model.open") && !platform_.pick_file()) show_prompt(SessionUi::Prompt::model, export_choice_.dir / "config.json", export_choice_.dir);
    ImGui::Separator();
    if (item(tr, "ui.keys.copy_state", "Ctrl+Shift+C")) run(Action::copy_state);
    if (item(tr, "ui.keys.paste_state", "Ctrl+Shift+V")) run(Action::paste_state);
    if (item(tr, "ui.keys.copy_link")) run(Action::copy_link);
    if (item(tr, "ui.keys.copy_embed")) run(Action::copy_embed);
    ImGui::Separator();
    if (item(tr, "ui.keys.export", "Ctrl+E")) run(Action::export_dialog);
    if (item(tr, "ui.export.all")) export_lesson();
    if (item(tr, "ui.keys.screenshot", "F12")) run(Action::screenshot);
    ImGui::Separator();
    if (item(tr, "ui.keys.quit", "Ctrl+Q")) run(Action::quit);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(tr("ui.menu.lesson").c_str())) {
    if (item(tr, "ui.keys.next_step", "→")) run(Action::next_step);
    if (item(tr, "ui.keys.prev_step", "←")) run(Action::prev_step);
    if (item(tr, "ui.keys.prev_lesson", "↑", false, state_.view_index() > 0)) run(Action::prev_lesson);
    if (item(tr, "ui.keys.next_lesson", "↓", false, state_.view_index() + 1 < static_cast<int>(state_.views().size())))
      run(Action::next_lesson);
    if (item(tr, "ui.params.reset_lesson")) state_.reset_view();
    ImGui::Separator();
    const auto views = state_.views();
    for (std::size_t i = 0; i < views.size(); ++i) {
      const std::string keys = i < 9 ? std::to_string(i + 1) : std::string();
      const std::string label = lesson_title(tr, views[i].id) + "##menu-" + std::string(views[i].id);
      if (ImGui::MenuItem(label.c_str(), keys.empty() ? nullptr : keys.c_str(), static_cast<int>(i) == state_.view_index()))
        state_.open_lesson(static_cast<int>(i));
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(tr("ui.menu.presets").c_str())) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26);
    for (const Preset& p : state_.presets()) {
      const std::string label = p.name + "##preset-" + p.id;
      if (ImGui::MenuItem(label.c_str(), nullptr, p.id == state_.preset_id())) apply_preset(p.id);
      if (!p.note.empty()) {
        ImGui::Indent();
        ImGui::PushStyleColor(ImGuiCol_Text, ctx.pal.muted);
        ImGui::TextUnformatted(p.note.c_str());
        ImGui::PopStyleColor();
        ImGui::Unindent();
      }
    }
    ImGui::PopTextWrapPos();
    ImGui::Separator();
    ImGui::TextDisabled("%s", tr("ui.preset.resets").c_str());
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(tr("ui.menu.view").c_str())) {
    if (ImGui::BeginMenu(tr("ui.menu.theme").c_str())) {
      for (const char* t : {"dark", "light", "projector"})
        if (ImGui::MenuItem(tr(std::string("ui.theme.") + t).c_str(), nullptr, state_.theme() == t)) set_theme(t);
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr("ui.menu.scale").c_str())) {
      if (item(tr, "ui.keys.scale_up", "Ctrl+=")) run(Action::scale_up);
      if (item(tr, "ui.keys.scale_down", "Ctrl+-")) run(Action::scale_down);
      ImGui::Separator();
      for (int pct : {75, 100, 125, 150, 175, 200, 250, 300}) {
        const std::string label = std::to_string(pct) + " %";
        if (ImGui::MenuItem(label.c_str(), pct == 100 ? "Ctrl+0" : nullptr, std::lround(ui_scale() * 100) == pct))
          set_ui_scale(static_cast<float>(pct) / 100.0f);
      }
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr("ui.menu.language").c_str())) {
      for (const char* l : {"en", "zh"}) {
        std::error_code ec;
        const bool available = std::string(l) == "en" || std::filesystem::is_directory(options_.assets / "i18n" / l, ec);
        if (ImGui::MenuItem(tr(std::string("ui.lang.") + l).c_str(), nullptr, tr_.lang() == l, available)) set_lang(l);
      }
      ImGui::EndMenu();
    }
    ImGui::Separator();
    if (item(tr, "ui.keys.lecture", "F5", lecture_)) run(Action::lecture);
    if (item(tr, "ui.keys.deck_panel", "Ctrl+D", deck_ui_.open)) run(Action::deck_panel);
    if (item(tr, "ui.keys.fullscreen", "F11", platform_.fullscreen())) run(Action::fullscreen);
    if (item(tr, "ui.menu.reset_layout")) reset_layout();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(tr("ui.menu.help").c_str())) {
    if (item(tr, "ui.keys.help", "?")) run(Action::help);
    if (item(tr, "ui.keys.notation", "F2")) run(Action::notation);
    ImGui::Separator();
    ImGui::TextDisabled("%s", tr.format("ui.about", {{"version", POSLAB_VERSION}}).c_str());
    for (const std::string& line : platform_.about_lines(tr)) ImGui::TextDisabled("%s", line.c_str());  // the page: its version, offline
    ImGui::EndMenu();
  }
  // A phone on its side: the drawers' buttons here, not in a row of their own (shell.cpp).
  if (narrow_ && narrow_low_) draw_drawer_buttons(ctx, true);
  // Right side: the preset in use.
  else if (!state_.preset_id().empty()) {
    const std::string p = tr.format("ui.preset.current", {{"id", state_.preset_id()}});
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(p.c_str()).x);
    ImGui::TextDisabled("%s", p.c_str());
  }
  ImGui::EndMenuBar();
}

}  // namespace poslab::app::ui
