#include "app/ui/notation_card.hpp"

#include <imgui.h>

#include "app/common/messages.hpp"
#include "app/ui/ui_context.hpp"

namespace poslab::app::ui {

void NotationCard::draw(const std::filesystem::path& assets, const Translator& tr, float scale) {
  if (!open_) return;
  if (!loaded_) {
    loaded_ = true;
    try {
      entries_ = load_notation(assets);
    } catch (const std::exception& e) {
      error_ = error_text(tr, e);
    }
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f},
                          ImGuiCond_Appearing, {0.5f, 0.5f});
  ImGui::SetNextWindowSize({std::min(760.0f * scale, vp->WorkSize.x * 0.9f), vp->WorkSize.y * 0.8f}, ImGuiCond_Appearing);
  if (!ImGui::Begin((tr("ui.notation.title") + "###notation").c_str(), &open_, ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  wrapped_text(tr("ui.notation.intro"));
  if (!error_.empty()) wrapped_text(error_);
  if (ImGui::BeginTable("##notation", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("symbol", ImGuiTableColumnFlags_WidthFixed, 110.0f * scale);
    ImGui::TableSetupColumn("meaning", ImGuiTableColumnFlags_WidthStretch);
    for (const NotationEntry& e : entries_) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      wrapped_text(e.symbol);
      ImGui::TableSetColumnIndex(1);
      wrapped_text(tr.lang() == "zh" && !e.zh.empty() ? e.zh : e.en);
      if (!e.key.empty()) ImGui::TextDisabled("--set %s=…", e.key.c_str());
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace poslab::app::ui
