#include "app/ui/lecture/deck_ui.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

#include "app/common/messages.hpp"
#include "app/export/handout.hpp"
#include "app/ui/app.hpp"

namespace poslab::app::ui {

namespace fs = std::filesystem;

int DeckUi::add_current_view(UiContext& ctx) {
  std::vector<std::string> sliders;
  const auto it = ctx.settings.lecture_keys.find(std::string(ctx.state.view().id));
  if (it != ctx.settings.lecture_keys.end())
    for (const std::string& k : it->second)
      if (core::find_param(k)) sliders.push_back(k);
  const Scene scene = ctx.state.capture_scene(ctx.state.front_figure(), std::move(sliders));
  const int at = ctx.state.presenting() ? ctx.state.scene() + 1 : -1;
  const int index = ctx.state.add_scene(scene, at);
  ctx.toasts.push(ctx.tr.format("ui.deck.added", {{"n", std::to_string(index + 1)}}), ToastKind::success);
  return index;
}

std::string DeckUi::export_handout_pdf(UiContext& ctx) {
  const Deck* deck = ctx.state.deck();
  if (!deck) return {};
  std::string stem = ctx.state.deck_source().empty() ? std::string("lecture") : fs::path(ctx.state.deck_source()).stem().string();
  if (stem.size() > 5 && stem.ends_with(".deck")) stem.resize(stem.size() - 5);
  const fs::path out = ctx.export_choice.dir / (stem + "-handout.pdf");
  try {
    std::error_code ec;
    fs::create_directories(ctx.export_choice.dir, ec);
    HandoutOptions o;
    o.font_family = ctx.export_choice.options.font_family;
    export_handout(*deck, stem, ExportFormat::pdf, out, ctx.tr, o);
    ctx.toasts.push(ctx.tr.format("ui.export.wrote_one", {{"path", short_file_name(out, true)}}), ToastKind::success);
    return out.string();
  } catch (const std::exception& e) {
    ctx.toasts.push(ctx.tr.format("ui.export.failed", {{"message", without_full_path(error_text(ctx.tr, e), out)}}),
                    ToastKind::error);
    return {};
  }
}

void DeckUi::draw(UiContext& ctx, App& app) {
  if (!open) return;
  const float s = ctx.scale;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowSize({std::min(760 * s, vp->WorkSize.x * 0.9f), std::min(560 * s, vp->WorkSize.y * 0.85f)},
                           ImGuiCond_Appearing);
  ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.45f},
                          ImGuiCond_Appearing, {0.5f, 0.5f});
  const std::string title = ctx.tr("ui.deck.title") + "###deck";
  if (!ImGui::Begin(title.c_str(), &open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  AppState& st = ctx.state;
  const Deck* deck = st.deck();
  const fs::path folder = ctx.export_choice.dir;

  // The deck's file and its buttons.
  if (deck) {
    // A built-in deck (gui --deck course) has no file: its title, not "New deck".
    const std::string name = !st.deck_source().empty() ? short_file_name(st.deck_source())
                             : deck->title.empty()     ? ctx.tr("ui.deck.unsaved")
                                                       : deck->title.in(ctx.tr.lang());
    ImGui::TextUnformatted((name + (st.deck_modified() ? " *" : "")).c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("%s", ctx.tr.format("ui.deck.count", {{"count", std::to_string(deck->scenes.size())}}).c_str());
  } else {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", ctx.tr("ui.deck.empty_hint").c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::BeginDisabled(!st.resolved());
  if (ImGui::Button(ctx.tr("ui.deck.add").c_str())) add_current_view(ctx);
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(ctx.tr("ui.deck.open").c_str()) && !app.pick_file()) {
    const fs::path suggested = st.deck_source().empty() ? folder / "lecture.deck.json" : fs::path(st.deck_source());
    app.show_prompt(SessionUi::Prompt::open_deck, suggested, folder, ctx.settings.recent_decks);
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!deck);
  if (ImGui::Button(ctx.tr("ui.deck.save").c_str())) {
    const fs::path suggested = st.deck_source().empty() ? folder / "lecture.deck.json" : fs::path(st.deck_source());
    app.show_prompt(SessionUi::Prompt::save_deck, suggested, folder, ctx.settings.recent_decks);
  }
  ImGui::SameLine();
  if (ImGui::Button(ctx.tr("ui.deck.present").c_str())) {
    const std::string why = st.go_to_scene(0);
    if (!why.empty()) ctx.toasts.push(why, ToastKind::error);
    else {
      app.set_lecture(true);
      open = false;
    }
  }
  ImGui::SameLine();
  if (ImGui::Button(ctx.tr("ui.deck.handout").c_str())) export_handout_pdf(ctx);
  ImGui::SameLine();
  if (ImGui::Button(ctx.tr("ui.deck.close").c_str())) st.close_deck();
  ImGui::EndDisabled();
  deck = st.deck();
  if (!deck) {
    ImGui::End();
    return;
  }
  ImGui::Separator();

  // One row per scene: number, lesson and figure, captions, move and delete.
  const bool zh = ctx.tr.lang() == "zh";
  int go = -1, up = -1, down = -1, remove = -1;
  if (ImGui::BeginTable("##scenes", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp |
                                           ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerH)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn(ctx.tr("ui.deck.scene").c_str(), ImGuiTableColumnFlags_WidthStretch, 2.0f);
    ImGui::TableSetupColumn(ctx.tr("ui.deck.caption").c_str(), ImGuiTableColumnFlags_WidthStretch, 4.0f);
    ImGui::TableSetupColumn("##buttons", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableHeadersRow();
    for (int i = 0; i < static_cast<int>(deck->scenes.size()); ++i) {
      const Scene& sc = deck->scenes[static_cast<std::size_t>(i)];
      ImGui::PushID(i);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      const bool shown = st.presenting() && st.scene() == i;
      if (ImGui::Selectable(std::to_string(i + 1).c_str(), shown)) go = i;
      ImGui::TableSetColumnIndex(1);
      ImGui::PushTextWrapPos(0);
      ImGui::TextUnformatted(lesson_title(ctx.tr, sc.lesson).c_str());
      std::string detail = sc.figure.empty() ? std::string() : sc.figure;
      for (const auto& [k, v] : sc.params) detail += (detail.empty() ? "" : " · ") + k + " = " + v;
      if (!detail.empty()) ImGui::TextDisabled("%s", detail.c_str());
      ImGui::PopTextWrapPos();
      ImGui::TableSetColumnIndex(2);
      // The language in use first; Chinese only when Chinese is shown (the
      // font atlas bakes Chinese glyphs for the Chinese UI alone).
      LocalText caption = sc.caption;
      bool changed = false;
      for (int l = 0; l < (zh ? 2 : 1); ++l) {
        const bool is_zh = (l == 0) == zh;
        std::string& text = is_zh ? caption.zh : caption.en;
        ImGui::SetNextItemWidth(-FLT_MIN);
        const char* hint = is_zh ? "中文" : "English";
        if (ImGui::InputTextWithHint(is_zh ? "##zh" : "##en", hint, &text)) changed = true;
      }
      if (changed) {
        if (caption.en.empty()) caption.en = caption.zh;  // English is required: the one text serves both
        st.set_caption(i, caption);
      }
      ImGui::TableSetColumnIndex(3);
      ImGui::BeginDisabled(i == 0);
      if (ImGui::SmallButton("↑")) up = i;
      ImGui::EndDisabled();
      ImGui::SameLine();
      ImGui::BeginDisabled(i + 1 == static_cast<int>(deck->scenes.size()));
      if (ImGui::SmallButton("↓")) down = i;
      ImGui::EndDisabled();
      ImGui::SameLine();
      if (ImGui::SmallButton("✕")) remove = i;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("ui.deck.delete").c_str());
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  // Changes after the table, so the rows drawn were the deck's.
  if (go >= 0) {
    const std::string why = st.go_to_scene(go);
    if (!why.empty()) ctx.toasts.push(why, ToastKind::error);
  }
  if (up > 0) st.move_scene(up, up - 1);
  if (down >= 0) st.move_scene(down, down + 1);
  if (remove >= 0) st.delete_scene(remove);
  ImGui::End();
}

}  // namespace poslab::app::ui
