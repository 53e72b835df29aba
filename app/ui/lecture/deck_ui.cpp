#include "app/ui/lecture/deck_ui.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

#include "app/common/messages.hpp"
#include "app/export/handout.hpp"
#include "app/ui/app.hpp"

namespace poslab::app::ui {

namespace fs = std::filesystem;

std::string first_sentence(const std::string& text) {
  constexpr std::size_t kMaxChars = 140;
  std::size_t chars = 0, cut = std::string::npos, last_space = std::string::npos;
  for (std::size_t i = 0; i < text.size(); ++chars) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    const std::string_view ch(text.data() + i, std::min(n, text.size() - i));
    const bool next_space = i + n >= text.size() || text[i + n] == ' ' || text[i + n] == '\n';
    // ". " ends a sentence, not "e.g. " or "i.e. " nor "3.5"; "。！？" always do.
    const bool latin_end = (ch == "." || ch == "!" || ch == "?") && next_space &&
                           !(i >= 3 && (text.compare(i - 3, 4, "e.g.") == 0 || text.compare(i - 3, 4, "i.e.") == 0));
    if (latin_end || ch == "。" || ch == "！" || ch == "？") return text.substr(0, i + n);
    if (ch == " ") last_space = i;
    if (chars == kMaxChars) {
      cut = n > 1 && last_space == std::string::npos ? i : (last_space != std::string::npos ? last_space : i);
      break;
    }
    i += n;
  }
  if (cut == std::string::npos) return text;
  std::string out = text.substr(0, cut);
  while (!out.empty() && (out.back() == ' ' || out.back() == ',' || out.back() == ';' || out.back() == ':')) out.pop_back();
  return out + "…";
}

int DeckUi::add_current_view(UiContext& ctx) {
  std::vector<std::string> sliders;
  const auto it = ctx.settings.lecture_keys.find(std::string(ctx.state.view().id));
  if (it != ctx.settings.lecture_keys.end())
    for (const std::string& k : it->second)
      if (core::find_param(k)) sliders.push_back(k);
  Scene scene = ctx.state.capture_scene(ctx.state.front_figure(), std::move(sliders));
  // A caption to read from the back of a hall: the step's first sentence, not its paragraph.
  scene.caption = {first_sentence(scene.caption.en), first_sentence(scene.caption.zh)};
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
    ImGui::TextDisabled("%s", ctx.tr.format(deck->scenes.size() == 1 ? "ui.deck.count_one" : "ui.deck.count",
                                            {{"count", std::to_string(deck->scenes.size())}})
                                  .c_str());
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
      scene_details(ctx, i);
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

// [SECTION] A scene's question, answer, reveal, notes and animation

namespace {

/// A text field for one language of `text`; true when edited.
bool text_field(const char* id, const char* hint, std::string& text, bool multiline, float lines) {
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (!multiline) return ImGui::InputTextWithHint(id, hint, &text);
  const bool edited = ImGui::InputTextMultiline(id, &text, {-FLT_MIN, ImGui::GetTextLineHeight() * lines + 8});
  if (text.empty() && !ImGui::IsItemActive()) {  // a hint, as the one-line fields have
    const ImVec2 at = ImGui::GetItemRectMin();
    ImGui::GetWindowDrawList()->AddText({at.x + 4, at.y + 4}, ImGui::GetColorU32(ImGuiCol_TextDisabled), hint);
  }
  return edited;
}

/// `text` in the language shown, then (Chinese UI) the other: true when edited.
bool local_fields(const char* id, const std::string& label, LocalText& text, bool zh, bool multiline = false) {
  ImGui::TextDisabled("%s", label.c_str());
  bool changed = false;
  ImGui::PushID(id);
  for (int l = 0; l < (zh ? 2 : 1); ++l) {
    const bool is_zh = (l == 0) == zh;
    changed |= text_field(is_zh ? "##zh" : "##en", is_zh ? "中文" : "English", is_zh ? text.zh : text.en, multiline, 3);
  }
  ImGui::PopID();
  if (changed && text.en.empty()) text.en = text.zh;  // English is required: the one text serves both
  return changed;
}

std::string params_text(const std::vector<std::pair<std::string, std::string>>& params) {
  std::string out;
  for (const auto& [k, v] : params) out += (out.empty() ? "" : " · ") + k + " = " + v;
  return out;
}

}  // namespace

void DeckUi::scene_details(UiContext& ctx, int index) {
  AppState& st = ctx.state;
  const Deck* deck = st.deck();
  if (!deck || index < 0 || index >= static_cast<int>(deck->scenes.size())) return;
  Scene sc = deck->scenes[static_cast<std::size_t>(index)];
  const Translator& tr = ctx.tr;
  const bool zh = tr.lang() == "zh";
  // What the scene holds besides its caption, said on the folded line.
  std::vector<std::string> has;
  if (sc.has_question()) has.push_back(tr("ui.deck.has_question"));
  if (!sc.notes.empty()) has.push_back(tr("ui.deck.has_notes"));
  if (sc.animation) has.push_back(tr("ui.deck.has_animation"));
  std::string summary;
  for (const std::string& h : has) summary += (summary.empty() ? "" : " · ") + h;
  const std::string label = tr("ui.deck.more") + (summary.empty() ? "" : " (" + summary + ")") + "###more";
  if (!ImGui::TreeNode(label.c_str())) return;
  bool changed = false;
  changed |= local_fields("question", tr("ui.deck.question"), sc.question, zh);
  changed |= local_fields("answer", tr("ui.deck.answer"), sc.answer, zh);
  if (sc.question.empty() != sc.answer.empty()) ImGui::TextColored(ctx.pal.warn, "%s", tr("ui.deck.question_needs_answer").c_str());
  // What the answer shows: the view as it is now, captured.
  if (sc.has_question()) {
    ImGui::TextDisabled("%s", tr("ui.deck.reveal").c_str());
    std::string shows = params_text(sc.reveal_params);
    if (!sc.reveal_figure.empty()) shows += (shows.empty() ? "" : " · ") + sc.reveal_figure;
    ImGui::TextWrapped("%s", shows.empty() ? tr("ui.deck.reveal_none").c_str() : shows.c_str());
    const bool here = st.view().id == sc.lesson;
    ImGui::BeginDisabled(!here || !st.resolved());
    if (ImGui::SmallButton(tr("ui.deck.reveal_capture").c_str())) {
      const Scene now = st.capture_scene(st.front_figure());
      sc.reveal_params.clear();
      for (const auto& kv : now.params)
        if (std::find(sc.params.begin(), sc.params.end(), kv) == sc.params.end()) sc.reveal_params.push_back(kv);
      // A key the scene sets that is back at its default now: the answer sets it so.
      for (const auto& set : sc.params)  // (not a structured binding: clang 14 cannot capture one)
        if (const std::string& k = set.first;
            std::none_of(now.params.begin(), now.params.end(), [&](const auto& kv) { return kv.first == k; }))
          if (const core::ParamSpec* spec = core::find_param(k)) sc.reveal_params.emplace_back(k, std::string(spec->default_text));
      sc.reveal_figure = now.figure != sc.figure ? now.figure : std::string();
      changed = true;
    }
    ImGui::EndDisabled();
    if (!here && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", tr.format("ui.deck.reveal_other_lesson", {{"lesson", lesson_title(tr, sc.lesson)}}).c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton(tr("ui.deck.reveal_clear").c_str())) {
      sc.reveal_params.clear();
      sc.reveal_figure.clear();
      changed = true;
    }
  }
  changed |= local_fields("notes", tr("ui.deck.notes"), sc.notes, zh, true);
  // The animation: the one playing now, or none.
  ImGui::TextDisabled("%s", tr("ui.deck.animation").c_str());
  if (sc.animation) {
    const SessionAnimation& a = *sc.animation;
    ImGui::Text("%s: %s → %s, %s%s", a.key.c_str(), core::format_number(a.from).c_str(), core::format_number(a.to).c_str(),
                play_mode_name(a.mode), a.playing ? "" : (" (" + tr("ui.deck.paused") + ")").c_str());
  } else {
    ImGui::TextUnformatted(tr("ui.deck.no_animation").c_str());
  }
  const Animation& anim = st.animation();
  const bool can = anim.active() && st.view().id == sc.lesson;
  ImGui::BeginDisabled(!can);
  if (ImGui::SmallButton(tr("ui.deck.animation_capture").c_str())) {
    sc.animation = anim.config();
    sc.animation->playing = anim.playing();
    changed = true;
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!sc.animation);
  if (ImGui::SmallButton(tr("ui.deck.animation_clear").c_str())) {
    sc.animation.reset();
    changed = true;
  }
  ImGui::EndDisabled();
  if (changed) {
    if (!sc.has_question()) sc.reveal_params.clear(), sc.reveal_figure.clear();  // a reveal answers a question
    st.set_scene(index, std::move(sc));
  }
  ImGui::TreePop();
}

}  // namespace poslab::app::ui
