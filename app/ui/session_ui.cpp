#include "app/ui/session_ui.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <cstdlib>

namespace poslab::app::ui {

namespace fs = std::filesystem;

std::filesystem::path suggested_session_path(const UiContext& ctx) {
  return ctx.export_choice.dir / (std::string(ctx.state.view().id) + ".poslab.json");
}

std::string short_file_name(const fs::path& path, bool with_folder) {
  std::string name = path.filename().string();
  if (name.empty()) name = path.parent_path().filename().string();
  if (!with_folder) return name;
  const std::string folder = path.parent_path().filename().string();
  return folder.empty() ? name : name + " — " + folder;
}

std::string without_full_path(std::string message, const fs::path& path) {
  const std::string full = path.string(), name = short_file_name(path);
  auto replace_all = [&message](const std::string& what, const std::string& with) {
    if (what.empty() || what == with) return;
    for (std::size_t at = message.find(what); at != std::string::npos; at = message.find(what, at + with.size()))
      message.replace(at, what.size(), with);
  };
  replace_all(full, name);
  if (const std::string dir = path.parent_path().string(); dir.size() > 1)
    replace_all(dir, path.parent_path().filename().string());
  return message;
}

void SessionUi::show(Prompt prompt, const fs::path& suggested, const fs::path& folder, std::vector<std::string> recent) {
  prompt_ = prompt;
  folder_ = folder;
  recent_ = std::move(recent);
  if (prompt == Prompt::paste) text_.clear();
  else if (!folder.empty() && suggested.parent_path() == folder) text_ = suggested.filename().string();
  else text_ = suggested.string();
  error_.clear();
  just_opened_ = true;
}

fs::path SessionUi::chosen_path() const {
  std::string t = text_;
  while (!t.empty() && (t.back() == ' ' || t.back() == '\n' || t.back() == '\r')) t.pop_back();
  if (t.rfind("~/", 0) == 0)
    if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / t.substr(2);
  const fs::path p(t);
  if (p.is_absolute() || folder_.empty() || t.empty()) return p;
  return folder_ / p;
}

void SessionUi::draw(UiContext& ctx, const std::function<std::string(Prompt, const std::string&)>& confirm) {
  if (prompt_ == Prompt::none) {
    if (ImGui::IsPopupOpen("##session-prompt")) {  // closed from outside (Esc)
      if (ImGui::BeginPopupModal("##session-prompt", nullptr, ImGuiWindowFlags_NoTitleBar)) {
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
      }
    }
    return;
  }
  const char* id = "##session-prompt";
  if (just_opened_) ImGui::OpenPopup(id);
  const float s = ctx.scale;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float width = std::min(620 * s, vp->WorkSize.x * 0.9f);
  ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.3f},
                          ImGuiCond_Appearing, {0.5f, 0.5f});
  // Auto-resized in height, so an error message never pushes the buttons out.
  ImGui::SetNextWindowSizeConstraints({width, 0}, {width, vp->WorkSize.y * 0.95f});
  bool open = true;
  if (!ImGui::BeginPopupModal(id, &open, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize)) {
    if (!just_opened_) prompt_ = Prompt::none;
    return;
  }
  const bool paste = prompt_ == Prompt::paste;
  const bool deck = prompt_ == Prompt::open_deck || prompt_ == Prompt::save_deck;
  const bool saving = prompt_ == Prompt::save || prompt_ == Prompt::save_deck;
  const char* title = prompt_ == Prompt::open        ? "ui.session.open_title"
                      : prompt_ == Prompt::save      ? "ui.session.save_title"
                      : prompt_ == Prompt::model     ? "ui.model.open_title"
                      : prompt_ == Prompt::open_deck ? "ui.deck.open_title"
                      : prompt_ == Prompt::save_deck ? "ui.deck.save_title"
                                                     : "ui.session.paste_title";
  ImGui::PushFont(ctx.fonts.bold);
  ImGui::TextUnformatted(ctx.tr(title).c_str());
  ImGui::PopFont();
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", ctx.tr(paste                     ? "ui.session.paste_hint"
                                   : prompt_ == Prompt::model ? "ui.model.path_hint"
                                   : deck                     ? "ui.deck.path_hint"
                                                              : "ui.session.path_hint").c_str());
  if (!paste && !folder_.empty())
    ImGui::TextDisabled("%s", ctx.tr.format("ui.files.folder", {{"folder", short_file_name(folder_)}}).c_str());
  ImGui::PopTextWrapPos();
  if (just_opened_) ImGui::SetKeyboardFocusHere();
  just_opened_ = false;
  ImGui::SetNextItemWidth(-FLT_MIN);
  const bool enter = ImGui::InputText("##path", &text_, ImGuiInputTextFlags_EnterReturnsTrue);
  bool chosen = false;
  if (!paste && !recent_.empty()) {
    ImGui::TextDisabled("%s", ctx.tr("ui.files.recent").c_str());
    for (std::size_t i = 0; i < recent_.size(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      const fs::path p(recent_[i]);
      if (ImGui::Selectable(short_file_name(p, true).c_str(), false, ImGuiSelectableFlags_AllowDoubleClick)) {
        text_ = p.string();
        chosen = !saving && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
      }
      ImGui::PopID();
    }
  }
  if (!error_.empty()) wrapped_colored(ctx.pal.error, error_);
  const char* ok = saving ? "ui.session.save" : paste ? "ui.session.apply" : "ui.session.open";
  bool close = false;
  if (ImGui::Button(ctx.tr(ok).c_str(), {120 * s, 0}) || enter || chosen) {
    const std::string target = paste ? text_ : chosen_path().string();
    error_ = confirm(prompt_, target);
    if (!paste) error_ = without_full_path(error_, target);
    close = error_.empty();
  }
  ImGui::SameLine();
  if (ImGui::Button(ctx.tr("ui.common.cancel").c_str(), {120 * s, 0}) || !open) close = true;
  if (close) {
    prompt_ = Prompt::none;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace poslab::app::ui
