// [SECTION] Index
// - Lecture mode (F5): the screen
// - The lesson in lecture mode: figure first
// - Figure titles
// - Presenter tools
//
// Lecture mode: the projector theme, fullscreen on the screen the window is
// on, text in proportion to the screen's height, and the figure in front
// taking most of the screen. Above it, the lesson's figures as tabs ([ and ]
// switch them) and the step's caption; below it, a one-line strip with the
// animation, which S opens into the sliders. → / ← / Space / PgDn / PgUp go
// through the steps (or a deck's scenes), R resets one, Esc leaves.

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <functional>

#include "app/common/messages.hpp"
#include "app/common/text_wrap.hpp"
#include "app/ui/app.hpp"

namespace poslab::app::ui {

// [SECTION] Lecture mode: the screen

namespace {

/// The sliders lecture mode shows: the scene's, else those chosen for the
/// lesson (right-click a parameter → "Show in lecture mode"), else all.
std::vector<std::string> lecture_keys(const UiContext& ctx) {
  const ViewDef& v = ctx.state.view();
  std::vector<std::string> keys;
  if (const Scene* step = ctx.state.current_step(); step && !step->sliders.empty()) return step->sliders;
  const auto it = ctx.settings.lecture_keys.find(std::string(v.id));
  if (it != ctx.settings.lecture_keys.end() && !it->second.empty()) {
    for (const std::string& k : it->second)
      if (core::find_param(k)) keys.push_back(k);
    return keys;
  }
  for (std::string_view k : v.keys) keys.emplace_back(k);
  return keys;
}

/// The plot (axes, ticks and labels, below the figure's title) takes at least
/// this share of the screen's height in lecture mode, every step (issue 12).
constexpr float kPlotShare = 0.76f;  // 0.75 and a little room for rounding

}  // namespace

void App::draw_lecture(UiContext& ctx) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float s = ctx.scale;
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, {12 * s, 4 * s});
  ImGui::Begin("##lecture", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleVar(3);
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, {ImGui::GetStyle().ItemSpacing.x, 3 * s});

  // The sliders below the figure when S opened them (at most a third of the screen).
  const std::vector<std::string> keys = lecture_keys(ctx);
  const float row_h = ImGui::GetFrameHeightWithSpacing() + ImGui::GetTextLineHeightWithSpacing() + 2 * s;
  const int cols = std::clamp(static_cast<int>(keys.size()), 1, 4);
  const int rows = static_cast<int>((keys.size() + static_cast<std::size_t>(cols) - 1) / static_cast<std::size_t>(cols));
  const float avail = ImGui::GetContentRegionAvail().y;
  const float sliders_h =
      lecture_sliders_ && !keys.empty() ? std::min(static_cast<float>(rows) * row_h + 4 * s, avail / 3) : 0.0f;

  // The controls of the top line, beside the figures' tabs: the sliders'
  // switch and the animation.
  auto controls = [&] {
    const std::string toggle = tr_(lecture_sliders_ ? "ui.lecture.hide_sliders" : "ui.lecture.show_sliders");
    if (ImGui::SmallButton(toggle.c_str())) lecture_sliders_ = !lecture_sliders_;
    Animation& a = state_.animation();
    if (!a.active()) return;
    ImGui::SameLine();
    if (ImGui::SmallButton(a.playing() ? "■##lecture-play" : "▶##lecture-play")) a.toggle();
    ImGui::SameLine();
    const std::string value = param_name(tr_, a.config().key) + " = " + fig::format_readout(a.value());
    ImGui::ProgressBar(static_cast<float>(a.phase()), {std::max(180.0f * s, ImGui::CalcTextSize(value.c_str()).x + 16 * s), ImGui::GetFrameHeight() * 0.8f},
                       value.c_str());
  };
  lesson_view_.lecture_page(ctx, std::max(100.0f * s, avail - sliders_h), controls);

  if (sliders_h > 0) {
    ImGui::SetCursorPosY(std::max(ImGui::GetCursorPosY(), ImGui::GetWindowHeight() - ImGui::GetStyle().WindowPadding.y - sliders_h));
    ImGui::BeginChild("##lecture-params", {0, sliders_h}, false);
    params_panel_.draw_compact(ctx, keys, cols);
    ImGui::EndChild();
  }
  ImGui::PopStyleVar();
  ImGui::End();
}

// [SECTION] The lesson in lecture mode: figure first

void LessonView::lecture_page(UiContext& ctx, float height, const std::function<void()>& controls) {
  ctx_ = &ctx;
  UiContext& c = ctx;
  const ViewDef& v = c.state.view();
  const float top = ImGui::GetCursorPosY();
  if (!c.state.resolved()) {
    conflict_banner();
    return;
  }
  const Scene* step = c.state.current_step();
  const std::string front = c.state.front_figure();

  // The figures as tabs (their short labels), and where we are, on one line.
  // The tabs come first: where we are yields its lesson title, then its step
  // (the step also shows below), rather than a tab's label be cut to "Wher…".
  std::string step_text;
  if (const Deck* d = c.state.steps(); d && step)
    step_text = c.tr.format(c.state.presenting() ? "ui.deck.position" : "ui.steps.indicator",
                            {{"step", std::to_string(c.state.step() + 1)}, {"count", std::to_string(d->scenes.size())}});
  const ImGuiStyle& style = ImGui::GetStyle();
  float tabs_w = 0;  // as ImGui's tab bar measures its tabs
  for (const FigureDef& f : v.figures)
    tabs_w += ImGui::CalcTextSize(figure_tab(v, f.id).c_str()).x + 2 * style.FramePadding.x + style.ItemInnerSpacing.x;
  const float room = ImGui::GetContentRegionAvail().x - tabs_w - lecture_controls_w_ - 4 * style.CellPadding.x - 2 * style.ItemSpacing.x;
  std::string where;
  for (const std::string& candidate :
       {step_text.empty() ? lesson_title(c.tr, v.id) : lesson_title(c.tr, v.id) + "  ·  " + step_text, step_text})
    if (ImGui::CalcTextSize(candidate.c_str()).x <= room) {
      where = candidate;
      break;
    }
  if (ImGui::BeginTable("##lecture-head", 3, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("tabs", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("controls", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("where", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize(where.c_str()).x);
    ImGui::TableNextColumn();
    const bool forced = front != last_tab_front_;
    std::string selected;
    last_tabs_cut_ = 0;
    if (ImGui::BeginTabBar("##lecture-figures", ImGuiTabBarFlags_FittingPolicyResizeDown)) {
      for (const FigureDef& f : v.figures) {
        // A short label (the whole line shared by 5–7 tabs cut titles to
        // "How each m…"); the full title on hover and above the figure.
        const std::string label = figure_tab(v, f.id) + "###" + std::string(f.id);
        const ImGuiTabItemFlags flags = forced && f.id == front ? ImGuiTabItemFlags_SetSelected : 0;
        const bool open = ImGui::BeginTabItem(label.c_str(), nullptr, flags);
        if (const ImGuiTabBar* bar = ImGui::GetCurrentContext()->CurrentTabBar) {
          // ImGui shrinks a tab below its label's width when they do not all fit ("Wher…").
          const ImGuiTabItem* tab = ImGui::TabBarFindTabByID(const_cast<ImGuiTabBar*>(bar), ImGui::GetItemID());
          if (tab && tab->Width + 0.5f < tab->ContentWidth) ++last_tabs_cut_;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", figure_title(v, f.id).c_str());
        if (open) {
          selected = std::string(f.id);
          ImGui::EndTabItem();
        }
      }
      ImGui::EndTabBar();
    }
    if (!forced && !selected.empty() && selected != front) c.state.set_figure(selected);  // a tab clicked
    last_tab_front_ = c.state.front_figure();
    ImGui::TableNextColumn();
    ImGui::AlignTextToFramePadding();
    const float controls_x = ImGui::GetCursorScreenPos().x;
    if (controls) controls();
    lecture_controls_w_ = ImGui::GetItemRectMax().x - controls_x;
    ImGui::TableNextColumn();
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", where.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.tr("ui.lecture.strip_hint").c_str());
    ImGui::EndTable();
  }

  // The step's words: its caption, its question, its answer once revealed.
  // Above the figure when the plot still gets its share of the screen
  // (kPlotShare, issue 12); else, on a wide screen, beside it in a column as
  // wide as the words need, so that they are not made smaller.
  const std::string& lang = c.tr.lang();
  std::vector<std::pair<std::string, int>> words;  // text, 0 plain / 1 question
  if (step) {
    if (!step->caption.empty()) words.emplace_back(step->caption.in(lang), 0);
    if (step->has_question()) {
      words.emplace_back(labelled(c.tr("ui.steps.predict"), step->question.in(lang)), 1);
      if (c.state.step_revealed()) words.emplace_back(labelled(c.tr("ui.steps.answer"), step->answer.in(lang)), 0);
    }
  }
  auto draw_words = [&] {
    for (const auto& [text, kind] : words) {
      if (kind == 1) {
        ImGui::PushFont(c.fonts.bold);
        wrapped_colored(c.pal.accent, text);
        ImGui::PopFont();
      } else {
        wrapped_text(text);
      }
    }
  };
  const float width = ImGui::GetContentRegionAvail().x;
  const float spacing_y = ImGui::GetStyle().ItemSpacing.y;
  auto words_height = [&](float wrap) {
    float h = 0;
    for (const auto& [text, kind] : words)
      h += wrapped_height(kind == 1 ? c.fonts.bold : nullptr, text, wrap) + spacing_y;
    return h;
  };
  // The figure's own title and subtitle above its plot, as figure_header draws them.
  const FigureCache::Entry* built = front.empty() ? nullptr : c.figures.find(v.id, front);
  auto header_height = [&](float w) {
    if (!built) return 3 * ImGui::GetTextLineHeightWithSpacing();  // not built yet: a title and two lines
    return wrapped_height(c.fonts.bold, built->figure.title, w - 60 * c.scale) +
           wrapped_height(nullptr, built->figure.subtitle, w) + 2 * spacing_y;
  };
  const LessonScreen* screen = lesson_screen(v.id);
  const bool controls_above = step && screen && screen->step_controls;
  const float controls_h = controls_above ? ImGui::GetFrameHeightWithSpacing() : 0.0f;
  const float screen_h = ImGui::GetMainViewport()->Size.y;
  const float above_top = ImGui::GetCursorPosY() - top;
  const float plot_above = height - above_top - words_height(width) - controls_h - header_height(width) - spacing_y;
  const bool beside = !words.empty() && plot_above < kPlotShare * screen_h && width > height;
  float column_w = 0;
  if (beside) {  // the narrowest column (30 … 45 % of the width) whose words fit beside the figure
    const float column_h = height - above_top - controls_h;
    for (float share : {0.30f, 0.35f, 0.40f, 0.45f}) {
      column_w = std::floor(width * share);
      if (words_height(column_w - ImGui::GetStyle().ScrollbarSize) <= column_h) break;
    }
  }
  if (!beside) {
    ImGui::BeginGroup();
    draw_words();
    ImGui::EndGroup();
  }
  // The lesson's own controls of the step (why-position's Shuffle and the
  // sentence it gives) keep the whole width: a column would cut their line.
  if (controls_above) screen->step_controls(*this);

  // The figure in front, in what is left.
  const float used = ImGui::GetCursorPosY() - top;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const ImVec2 size{beside ? width - column_w - spacing : width, std::max(120.0f * c.scale, height - used)};
  const bool screen_draws_it =
      screen && std::find(screen->replaces.begin(), screen->replaces.end(), front) != screen->replaces.end();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::BeginGroup();
  if (screen_draws_it && screen->draw_replaced) {
    ImGui::BeginChild("##lecture-screen", size, false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    screen->draw_replaced(*this, front, size);
    ImGui::EndChild();
    last_plot_ = last_figure_ = {at.x, at.y, at.x + size.x, at.y + size.y};
  } else if (screen_draws_it) {
    ImGui::BeginChild("##lecture-screen", size, false);
    screen->draw(*this);
    ImGui::EndChild();
    last_plot_ = last_figure_ = {at.x, at.y, at.x + size.x, at.y + size.y};
  } else if (!front.empty()) {
    // A step that asks about its figure shows its frame only, until the answer.
    hide_figure_data_ = step && step->hide_figure && !c.state.step_revealed() && front == step->figure;
    figure(front, size);
    hide_figure_data_ = false;
  }
  ImGui::EndGroup();
  if (beside) {
    ImGui::SameLine(0, spacing);
    ImGui::BeginChild("##lecture-words", {column_w, size.y}, false);
    draw_words();
    ImGui::EndChild();
  }
}

// [SECTION] Figure titles

std::string LessonView::figure_title(const ViewDef& v, std::string_view id) {
  const Translator& tr = ctx_->tr;
  const std::string key = std::string(v.id) + "." + std::string(id) + ".title";
  // A title with placeholders ("Penalty of head {h}") is filled by the
  // figure itself: take the figure's title as built, at the current values.
  if (tr.has(key)) {
    std::string t = tr(key);
    if (t.find('{') == std::string::npos) return t;
  }
  if (const FigureCache::Entry* e = ctx_->figures.find(v.id, id); e && !e->figure.title.empty()) return e->figure.title;
  const std::string cache_key = tr.lang() + "/" + std::string(v.id) + "/" + std::string(id);
  if (auto it = titles_.find(cache_key); it != titles_.end()) return it->second;
  std::string title;
  if (const FigureDef* def = find_figure(v, id)) {
    try {  // once per figure and language: its title at the current parameters, small
      title = build_figure(v, *def, ctx_->state.params(), tr, 240, 160).title;
    } catch (const std::exception&) {
    }
  }
  if (title.empty()) {  // the id in words
    title = std::string(id);
    std::replace(title.begin(), title.end(), '-', ' ');
    std::replace(title.begin(), title.end(), '_', ' ');
    if (!title.empty() && title[0] >= 'a' && title[0] <= 'z') title[0] = static_cast<char>(title[0] - 'a' + 'A');
  }
  return titles_.emplace(cache_key, title).first->second;
}

std::string LessonView::figure_tab(const ViewDef& v, std::string_view id) {
  const Translator& tr = ctx_->tr;
  const std::string key = std::string(v.id) + "." + std::string(id) + ".tab";
  if (tr.has(key)) return tr(key);
  // Else the title's head before a colon ("Mixing the two layouts: the score …"),
  // when it says something on its own.
  std::string title = figure_title(v, id);
  for (std::string_view colon : {": ", "："}) {
    const std::size_t at = title.find(colon);
    if (at != std::string::npos && at >= 6) return title.substr(0, at);
  }
  return title;
}

// [SECTION] Presenter tools

void App::draw_presenter_tools(UiContext& ctx) {
  PresenterTools& p = presenter_;
  const ImGuiIO& io = ImGui::GetIO();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float s = ctx.scale;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const bool mouse_in = io.MousePos.x >= vp->Pos.x && io.MousePos.y >= vp->Pos.y &&
                        io.MousePos.x < vp->Pos.x + vp->Size.x && io.MousePos.y < vp->Pos.y + vp->Size.y;
  auto to_screen = [&](PresenterTools::Point q) {
    return ImVec2(vp->Pos.x + q.x * vp->Size.x, vp->Pos.y + q.y * vp->Size.y);
  };

  // The pen: a window over everything takes the mouse while the pen is on.
  if (p.pen) {
    ImGui::SetNextWindowPos(vp->Pos);
    ImGui::SetNextWindowSize(vp->Size);
    ImGui::SetNextWindowBgAlpha(0.0f);
    ImGui::Begin("##pen", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoFocusOnAppearing);
    ImGui::InvisibleButton("##pen-canvas", vp->Size);
    const bool down = ImGui::IsItemActive();
    if (down && mouse_in) {
      const PresenterTools::Point q{(io.MousePos.x - vp->Pos.x) / vp->Size.x, (io.MousePos.y - vp->Pos.y) / vp->Size.y};
      if (!p.drawing) p.strokes.emplace_back();
      if (p.strokes.back().size() < 20000) p.strokes.back().push_back(q);
    }
    p.drawing = down;
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    ImGui::End();
  } else {
    p.drawing = false;
  }
  const ImU32 ink = IM_COL32(220, 30, 30, 255);
  for (const auto& stroke : p.strokes) {
    std::vector<ImVec2> pts;
    pts.reserve(stroke.size());
    for (const PresenterTools::Point& q : stroke) pts.push_back(to_screen(q));
    if (pts.size() == 1) dl->AddCircleFilled(pts[0], 3.0f * s, ink);
    else dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), ink, 0, 4.0f * s);
  }

  // The spotlight: everything but a circle around the pointer dimmed.
  if (p.spotlight && mouse_in) {
    const float r = std::min(vp->Size.x, vp->Size.y) * 0.18f;
    const float far = std::hypot(vp->Size.x, vp->Size.y) * 2;
    dl->AddCircle(io.MousePos, r + far / 2, IM_COL32(0, 0, 0, 170), 96, far);
  }
  // The laser: a red dot with a soft ring while L is held.
  if (p.laser && mouse_in) {
    dl->AddCircleFilled(io.MousePos, 14.0f * s, IM_COL32(255, 0, 0, 60), 32);
    dl->AddCircleFilled(io.MousePos, 6.0f * s, IM_COL32(255, 20, 20, 235), 24);
  }
  if (p.laser || p.spotlight) ImGui::SetMouseCursor(ImGuiMouseCursor_None);
}

}  // namespace poslab::app::ui
