#include "app/ui/lecture/presenter_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/common/messages.hpp"

namespace poslab::app::ui {

std::string elapsed_text(double seconds) {
  const long s = std::max(0L, static_cast<long>(std::floor(seconds)));
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

PresenterView::~PresenterView() {
  previews_.clear();
  if (imgui_) {
    ImGuiContext* before = ImGui::GetCurrentContext();
    ImGui::DestroyContext(imgui_);
    ImGui::SetCurrentContext(before == imgui_ ? nullptr : before);
  }
}

ImGuiContext* PresenterView::context(ImFontAtlas* atlas) {
  if (imgui_) return imgui_;
  ImGuiContext* before = ImGui::GetCurrentContext();
  imgui_ = ImGui::CreateContext(atlas);
  ImGui::SetCurrentContext(imgui_);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.LogFilename = nullptr;
  io.ConfigInputTextCursorBlink = false;
  ImGui::SetCurrentContext(before);
  return imgui_;
}

void PresenterView::release() { previews_.clear(); }

namespace {

/// The scene's words as the projector shows them: caption, question, and
/// the answer once revealed.
std::string scene_words(const Scene& sc, const Translator& tr, bool revealed) {
  const std::string& lang = tr.lang();
  std::string out = sc.caption.in(lang);
  if (sc.has_question()) {
    out += (out.empty() ? "" : "\n") + labelled(tr("ui.steps.predict"), sc.question.in(lang));
    if (revealed) out += "\n" + labelled(tr("ui.steps.answer"), sc.answer.in(lang));
  }
  return out;
}

void heading(const UiContext& ctx, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ctx.pal.muted);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopStyleColor();
}

}  // namespace

void PresenterView::draw(UiContext& ctx, const PlotEnv& env, const LectureState& lecture, ImVec2 laid_out,
                         double wall, const std::string& local_time, std::vector<Pressed>& actions) {
  previews_.begin_frame();
  shown_ = {};
  const Translator& tr = ctx.tr;
  const AppState& st = ctx.state;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float s = ctx.scale;
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::Begin("##presenter", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);

  const Deck* deck = st.steps();
  const int count = deck ? static_cast<int>(deck->scenes.size()) : 0;
  const int at = st.step();
  const Scene* now = st.current_step();
  const bool revealed = st.step_revealed();
  const std::string& lang = tr.lang();

  // The top line: what is presented, where we are, the blank screen or the
  // number being typed, the clock and the time since the start.
  const std::string title = st.presenting() && st.deck() && !st.deck()->title.empty() ? st.deck()->title.in(lang)
                                                                                      : lesson_title(tr, st.view().id);
  shown_.position = now && count > 0 ? tr.format(st.presenting() ? "ui.deck.position" : "ui.steps.indicator",
                                                 {{"step", std::to_string(at + 1)}, {"count", std::to_string(count)}})
                                     : lesson_title(tr, st.view().id);
  shown_.clock = local_time;
  shown_.elapsed = elapsed_text(wall - lecture.started);
  ImGui::PushFont(ctx.fonts.bold);
  ImGui::TextUnformatted(title.c_str());
  ImGui::PopFont();
  ImGui::SameLine(0, 24 * s);
  ImGui::TextUnformatted(shown_.position.c_str());
  if (lecture.blank != Blank::none) {
    ImGui::SameLine(0, 24 * s);
    ImGui::TextColored(ctx.pal.warn, "%s", tr(lecture.blank == Blank::black ? "ui.presenter.black" : "ui.presenter.white").c_str());
  } else if (!lecture.typed.empty()) {
    ImGui::SameLine(0, 24 * s);
    ImGui::TextColored(ctx.pal.accent, "%s", tr.format("ui.lecture.typed", {{"n", lecture.typed}}).c_str());
  }
  {
    const std::string times = shown_.clock + "   " + tr.format("ui.presenter.elapsed", {{"time", shown_.elapsed}});
    const std::string reset = tr("ui.presenter.reset_timer");
    const float w = ImGui::CalcTextSize(times.c_str()).x + ImGui::CalcTextSize(reset.c_str()).x +
                    ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetStyle().ItemSpacing.x;
    const float line_end = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetStyle().ItemSpacing.x;
    ImGui::SameLine(std::max(line_end, ImGui::GetWindowContentRegionMax().x - w));
    ImGui::TextUnformatted(times.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton(reset.c_str())) actions.push_back({Action::reset_timer, 0});
    shown_.top_line_end = {ImGui::GetItemRectMax().x - vp->Pos.x, ImGui::GetItemRectMax().y - vp->Pos.y};
  }
  ImGui::Separator();

  // Below: the buttons; above them, now (left) and next, notes, answer (right).
  const float buttons_h = ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
  const float body_h = std::max(100.0f, ImGui::GetContentRegionAvail().y - buttons_h);
  int builds_left = 1;
  const ImVec2 shape = laid_out.x > 0 && laid_out.y > 0 ? laid_out : ImVec2{16, 9};
  if (ImGui::BeginTable("##presenter-body", 2, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerV,
                        {0, body_h})) {
    ImGui::TableSetupColumn("now", ImGuiTableColumnFlags_WidthStretch, 0.6f);
    ImGui::TableSetupColumn("next", ImGuiTableColumnFlags_WidthStretch, 0.4f);
    ImGui::TableNextColumn();
    heading(ctx, tr("ui.presenter.now"));
    {
      const float w = ImGui::GetContentRegionAvail().x;
      const ImVec2 box{w, std::min(w * shape.y / shape.x, body_h * 0.62f)};
      const ViewDef& v = st.view();
      const std::string front = st.front_figure();
      const FigureCache::Entry* live = front.empty() ? nullptr : ctx.figures.find(v.id, front);
      if (live && live->error.empty() && live->version != 0) {
        previews_.draw_live(env, live->figure, live->version, box, laid_out.x > 0 ? laid_out : box);
        shown_.now_drawn = true;
      } else if (now) {
        shown_.now_drawn = previews_.draw(ctx, env, *now, revealed, box, laid_out.x > 0 ? laid_out : box, builds_left);
      }
    }
    shown_.now = now ? scene_words(*now, tr, revealed) : std::string();
    if (!shown_.now.empty()) wrapped_text(shown_.now);

    ImGui::TableNextColumn();
    // Next: the answer of an open question, else the next scene, else the end.
    const Scene* next = nullptr;
    bool next_revealed = false;
    if (now && now->has_question() && !revealed) {
      next = now, next_revealed = true;
      heading(ctx, tr("ui.presenter.next_answer"));
    } else if (deck && at >= 0 && at + 1 < count) {
      next = &deck->scenes[static_cast<std::size_t>(at + 1)];
      heading(ctx, tr.format("ui.presenter.next", {{"n", std::to_string(at + 2)}}));
    } else {
      heading(ctx, tr("ui.presenter.next"));
    }
    if (next) {
      const float w = ImGui::GetContentRegionAvail().x;
      const ImVec2 box{w, std::min(w * shape.y / shape.x, body_h * 0.3f)};
      shown_.next_drawn =
          previews_.draw(ctx, env, *next, next_revealed, box, laid_out.x > 0 ? laid_out : box, builds_left);
      shown_.next = next_revealed ? labelled(tr("ui.steps.answer"), next->answer.in(lang)) : scene_words(*next, tr, false);
      if (shown_.next.empty()) shown_.next = lesson_title(tr, next->lesson);
      if (!next_revealed) {  // the answer itself is right below, in full
        ImGui::PushStyleColor(ImGuiCol_Text, ctx.pal.muted);
        wrapped_text(shown_.next);
        ImGui::PopStyleColor();
      }
    } else {
      shown_.next = tr(count > 0 ? "ui.presenter.end" : "ui.presenter.no_scenes");
      ImGui::TextDisabled("%s", shown_.next.c_str());
    }
    ImGui::Spacing();
    ImGui::Separator();
    // The answer the projector does not show yet, then the speaker notes.
    if (now && now->has_question() && !revealed) {
      shown_.answer = now->answer.in(lang);
      heading(ctx, tr("ui.presenter.answer"));
      ImGui::PushStyleColor(ImGuiCol_Text, ctx.pal.accent);
      wrapped_text(shown_.answer);
      ImGui::PopStyleColor();
      ImGui::Spacing();
    }
    heading(ctx, tr("ui.presenter.notes"));
    shown_.notes = now ? now->notes.in(lang) : std::string();
    if (shown_.notes.empty()) ImGui::TextDisabled("%s", tr("ui.presenter.no_notes").c_str());
    else wrapped_text(shown_.notes);
    ImGui::EndTable();
  }

  // The buttons: the clicker's keys, for a mouse on this screen.
  auto button = [&](const char* key, Action a, int arg = 0) {
    if (ImGui::Button(tr(key).c_str())) actions.push_back({a, arg});
    ImGui::SameLine();
  };
  button("ui.presenter.prev", Action::prev_step);
  button(now && now->has_question() && !revealed ? "ui.presenter.reveal" : "ui.presenter.next_button", Action::next_step);
  button("ui.presenter.grid", Action::scene_grid);
  button(lecture.blank == Blank::black ? "ui.presenter.unblank" : "ui.presenter.blank", Action::blank_black);
  button("ui.presenter.close", Action::presenter_view);
  shown_.buttons_end = {ImGui::GetItemRectMax().x - vp->Pos.x, ImGui::GetItemRectMax().y - vp->Pos.y};
  shown_.window = vp->Size;
  ImGui::NewLine();
  ImGui::End();
}

}  // namespace poslab::app::ui
