// [SECTION] Index
// - Lecture mode (F5): the screen
// - The lesson in lecture mode: figure first
// - Figure titles
// - Presenter tools
// - Blank screen, "N, Enter", the grid of scenes
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
#include <vector>

#include "app/common/messages.hpp"
#include "app/common/text_wrap.hpp"
#include "app/plot/formula.hpp"
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

/// The shape (width / height) a figure is best drawn at: a matrix's own
/// (with room for its colour bar), else that of a usual plot.
float figure_aspect(const fig::Figure* f) {
  if (f && f->equal_aspect && f->x.tight && f->y.tight) {
    const fig::ViewRange r = fig::default_view(*f);
    const double dx = std::abs(r.x_max - r.x_min), dy = std::abs(r.y_max - r.y_min);
    if (dx > 0 && dy > 0) return static_cast<float>(std::clamp(dx / dy, 0.25, 4.0) * (f->heatmaps.empty() ? 1.1 : 1.35));
  }
  return 1.6f;
}

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
    // The value the figure is drawn at: a paused animation that has not
    // moved yet is at its start (b = 100) while the scene's figure still
    // shows b = 10,000 — the chip said the first.
    double shown = a.value();
    try {
      if (!a.playing()) shown = state_.params().real(a.config().key);
    } catch (const core::InvalidParameter&) {
    }
    const std::string value = param_name(tr_, a.config().key) + " = " + fig::format_readout(shown);
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

  // The top line: the figures as tabs (their short labels), the controls,
  // and where we are — never dropped (issue 29): the lesson's title goes
  // first, then "Scene n of N" shrinks to "n / N"; the tabs get what is
  // left, and when that is too little, only the figure in front shows,
  // between ‹ and › (as [ and ] do).
  std::string step_text, step_short;
  if (const Deck* d = c.state.steps(); d && step) {
    step_text = c.tr.format(c.state.presenting() ? "ui.deck.position" : "ui.steps.indicator",
                            {{"step", std::to_string(c.state.step() + 1)}, {"count", std::to_string(d->scenes.size())}});
    step_short = std::to_string(c.state.step() + 1) + " / " + std::to_string(d->scenes.size());
  }
  const ImGuiStyle& style = ImGui::GetStyle();
  auto tab_w = [&](const std::string& label) {  // as ImGui's tab bar measures a tab
    return ImGui::CalcTextSize(label.c_str()).x + 2 * style.FramePadding.x + style.ItemInnerSpacing.x;
  };
  float tabs_w = 0;
  for (const FigureDef& f : v.figures) tabs_w += tab_w(figure_tab(v, f.id));
  const float line_w = ImGui::GetContentRegionAvail().x - lecture_controls_w_ - 4 * style.CellPadding.x - 2 * style.ItemSpacing.x;
  const std::string title = lesson_title(c.tr, v.id);
  std::string where = step_text.empty() ? title : step_short;
  for (const std::string& candidate : {step_text.empty() ? title : title + "  ·  " + step_text, step_text})
    if (!candidate.empty() && ImGui::CalcTextSize(candidate.c_str()).x <= line_w - tabs_w) {
      where = candidate;
      break;
    }
  const float where_w = ImGui::CalcTextSize(where.c_str()).x;
  const bool compact_tabs = v.figures.size() > 1 && tabs_w > line_w - where_w;
  if (ImGui::BeginTable("##lecture-head", 3, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("tabs", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("controls", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("where", ImGuiTableColumnFlags_WidthFixed, where_w);
    ImGui::TableNextColumn();
    const bool forced = front != last_tab_front_;
    std::string selected;
    last_tabs_cut_ = 0;
    if (ImGui::BeginTabBar("##lecture-figures", ImGuiTabBarFlags_FittingPolicyResizeDown)) {
      if (compact_tabs && ImGui::TabItemButton("‹##prev-figure", ImGuiTabItemFlags_Leading)) c.state.cycle_figure(-1);
      for (const FigureDef& f : v.figures) {
        if (compact_tabs && f.id != front) continue;
        // A short label (the whole line shared by 5–7 tabs cut titles to
        // "How each m…"); the full title on hover and above the figure.
        const std::string label = figure_tab(v, f.id) + "###" + std::string(f.id);
        const ImGuiTabItemFlags flags = (forced || compact_tabs) && f.id == front ? ImGuiTabItemFlags_SetSelected : 0;
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
      if (compact_tabs && ImGui::TabItemButton("›##next-figure", ImGuiTabItemFlags_Trailing)) c.state.cycle_figure(+1);
      ImGui::EndTabBar();
    }
    if (!forced && !compact_tabs && !selected.empty() && selected != front) c.state.set_figure(selected);  // a tab clicked
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
  last_where_ = where;

  // The step's words: its caption, its question, its answer once revealed.
  // One layout per scene, revealed or not (issue 29): the place is chosen
  // for all the words a scene will show, and the answer's room is kept
  // while it is hidden, so the figure never moves on →. Above the figure
  // when the plot still gets its share of the screen (kPlotShare, issue 12);
  // else, on a wide screen, beside it in a column as wide as the words
  // need, so that they are not made smaller.
  const std::string& lang = c.tr.lang();
  struct Words {
    std::string text;
    int kind;    // 0 plain, 1 question
    bool shown;  // false: the answer not revealed yet (its room is kept)
  };
  std::vector<Words> words;
  if (step) {
    if (!step->caption.empty()) words.push_back({step->caption.in(lang), 0, true});
    if (step->has_question()) {
      words.push_back({labelled(c.tr("ui.steps.predict"), step->question.in(lang)), 1, true});
      words.push_back({labelled(c.tr("ui.steps.answer"), step->answer.in(lang)), 0, c.state.step_revealed()});
    }
  }
  const float spacing_y = ImGui::GetStyle().ItemSpacing.y;
  auto words_height = [&](float wrap) {
    float h = 0;
    for (const Words& w : words) h += wrapped_height(w.kind == 1 ? c.fonts.bold : nullptr, w.text, wrap) + spacing_y;
    return h;
  };
  // Where the question and the revealed answer sit in what draw_words drew
  // (y from its start; -1: none): a column too short for all the words
  // scrolls to them (below).
  float question_bottom = -1, answer_bottom = -1;
  auto draw_words = [&](float wrap_x) {
    const float start = ImGui::GetCursorPosY();
    for (const Words& w : words) {
      if (!w.shown) continue;
      if (w.kind == 1) {
        ImGui::PushFont(c.fonts.bold);
        ImGui::PushStyleColor(ImGuiCol_Text, c.pal.accent);
        wrapped_text(w.text, wrap_x);
        ImGui::PopStyleColor();
        ImGui::PopFont();
      } else {
        wrapped_text(w.text, wrap_x);
      }
      if (w.kind == 1) question_bottom = ImGui::GetCursorPosY() - start;
      else if (question_bottom >= 0) answer_bottom = ImGui::GetCursorPosY() - start;
    }
    return start;
  };
  const float width = ImGui::GetContentRegionAvail().x;
  // The figure's own title and subtitle above its plot, as figure_header
  // draws them; room for two lines of subtitle when the answer brings
  // another figure forward (its header is not known before it is built).
  const FigureCache::Entry* built = front.empty() ? nullptr : c.figures.find(v.id, front);
  const bool other_figure = step && step->has_question() && !step->reveal_figure.empty() && step->reveal_figure != step->figure;
  auto header_height = [&](float w) {
    const float line = ImGui::GetTextLineHeight() + spacing_y;
    float h = !built ? 3 * line  // not built yet: a title and two lines
                     : wrapped_height(c.fonts.bold, built->figure.title, w - 60 * c.scale) +
                           wrapped_height(nullptr, built->figure.subtitle, w) + 2 * spacing_y;
    if (other_figure) h = std::max(h, 3 * line);
    return h;
  };
  const LessonScreen* screen = lesson_screen(v.id);
  const bool controls_above = step && screen && screen->step_controls;
  const float controls_h = controls_above ? ImGui::GetFrameHeightWithSpacing() : 0.0f;
  const float screen_h = ImGui::GetMainViewport()->Size.y;
  const float above_top = ImGui::GetCursorPosY() - top;
  const float words_above = words_height(width);
  const float plot_above = height - above_top - words_above - controls_h - header_height(width) - spacing_y;
  // Beside: the narrowest column (30 … 45 % of the width) whose words fit
  // beside the figure, under the figure's title, which keeps the whole width.
  const float column_h = height - above_top - controls_h - header_height(width);
  float column_w = 0;
  for (float share : {0.30f, 0.35f, 0.40f, 0.45f}) {
    column_w = std::floor(width * share);
    if (words_height(column_w - ImGui::GetStyle().ScrollbarSize) <= column_h) break;
  }
  // Above while the plot keeps its share of the screen (kPlotShare, issue
  // 12); else the layout that draws the figure larger at its own shape (a
  // matrix is square, a curve about 16:10): beside it on a wide screen, above
  // it on a 4:3 one, where a column would leave a narrow figure.
  const float aspect = figure_aspect(built ? &built->figure : nullptr);
  auto drawn_width = [&](float w, float h) { return std::min(w, aspect * h); };
  const float above_w = drawn_width(width, plot_above);
  const float beside_w = drawn_width(width - column_w - ImGui::GetStyle().ItemSpacing.x, column_h);
  // A curve above would be a strip: tick labels, axis titles and a legend row
  // take about three lines of the box, and what is left for the data is under
  // 35 % of the screen while beside gives it half as much again — a long step
  // at 1024×768 (layer-mix step 6 drew its curve 100 px high, half the screen
  // beside it unused). A heatmap keeps the rule above (its colour bar and
  // cell numbers take width, not height: why-position step 3).
  const bool curves = built && built->figure.heatmaps.empty();
  const float chrome_h = 3 * ImGui::GetTextLineHeightWithSpacing();
  const bool strip = curves && plot_above - chrome_h < 0.35f * screen_h &&
                     column_h - chrome_h > 1.5f * std::max(plot_above - chrome_h, 1.0f);
  const bool beside = !words.empty() && width > height && plot_above < kPlotShare * screen_h &&
                      (beside_w > above_w * 1.04f || strip);
  if (!beside && !words.empty()) {
    const float start = draw_words(0);
    // The answer's room, kept while it is hidden.
    ImGui::SetCursorPosY(std::max(ImGui::GetCursorPosY(), start + words_above));
  }
  // The lesson's own controls of the step (why-position's Shuffle and the
  // sentence it gives) keep the whole width: a column would cut their line.
  if (controls_above) screen->step_controls(*this);

  const bool screen_draws_it =
      screen && std::find(screen->replaces.begin(), screen->replaces.end(), front) != screen->replaces.end();
  // Words beside the figure: its title and subtitle still take the whole
  // width above both, so that the plot keeps the height (a column's width
  // would wrap them to four lines).
  header_above_ = beside && !screen_draws_it && !front.empty();
  // Words that overflow even the widest column (Ctrl+= pressed a few times
  // at 720p) scroll there anyway: then the figure's title and subtitle head
  // that column too, and the figure takes the whole height beside it —
  // above, they took half the screen and left the plot a strip (issue 29).
  const bool header_in_column = header_above_ && words_height(column_w - ImGui::GetStyle().ScrollbarSize) > column_h;
  auto draw_header = [&] {
    const std::string figure_name = built ? built->figure.title : figure_title(v, front);
    ImGui::PushFont(c.fonts.bold);
    wrapped_text(figure_name);
    ImGui::PopFont();
    if (built && !built->figure.subtitle.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, c.pal.muted);
      wrapped_text(built->figure.subtitle);
      ImGui::PopStyleColor();
    }
  };
  if (header_above_ && !header_in_column) {
    const float start = ImGui::GetCursorPosY();
    draw_header();
    if (other_figure) ImGui::SetCursorPosY(std::max(ImGui::GetCursorPosY(), start + header_height(width)));
  }

  // The figure in front, in what is left.
  const float used = ImGui::GetCursorPosY() - top;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const ImVec2 size{beside ? width - column_w - spacing : width, std::max(120.0f * c.scale, height - used)};
  const ImVec2 at = ImGui::GetCursorScreenPos();
  min_header_ = other_figure && !header_above_ ? header_height(size.x) : 0.0f;
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
  min_header_ = 0;
  header_above_ = false;
  last_beside_ = beside;
  words_end_in_view_ = true;  // words above the figure are never scrolled
  words_overflow_ = 0;
  words_top_cut_ = 0;
  if (beside) {
    ImGui::SameLine(0, spacing);
    ImGui::BeginGroup();
    // The figure's title and subtitle heading the column stay put above the
    // words, which scroll to the question and the answer below (else the
    // room lost what the figure plots) — unless they take more than 40 % of
    // it (Ctrl+= pressed a few times): then they scroll with the words.
    const float pinned_h = header_in_column ? header_height(column_w - ImGui::GetStyle().ScrollbarSize) : 0.0f;
    const bool pin_header = header_in_column && pinned_h <= 0.4f * size.y;
    float words_h = size.y;
    if (pin_header) {  // in the group, wrapped at the window's edge: the column's
      const float y0 = ImGui::GetCursorPosY();
      draw_header();
      ImGui::Spacing();  // apart from a line the words' scrolling cuts
      words_h = std::max(ImGui::GetTextLineHeight(), size.y - (ImGui::GetCursorPosY() - y0));
    }
    ImGui::BeginChild("##lecture-words", {column_w, words_h}, false);
    if (header_in_column && !pin_header) {
      draw_header();
      ImGui::Spacing();
    }
    std::vector<float> tops;  // each line's top, to scroll to one (below)
    collect_line_tops(&tops);
    const float words_top = draw_words(0);
    collect_line_tops(nullptr);
    // Room below words longer than the column (which scroll anyway; words
    // that fit get no scrollbar for it): scrolled to the answer, the column
    // can still start at a line's top (below), not stop mid-line.
    if (!tops.empty() && ImGui::GetCursorPosY() > ImGui::GetWindowHeight())
      ImGui::Dummy({1.0f, 3 * ImGui::GetTextLineHeightWithSpacing()});
    {
      // What reached past the column's right edge (ImGui clips it there).
      const ImGuiWindow* column = ImGui::GetCurrentWindow();
      words_overflow_ = std::max(0.0f, column->DC.CursorMaxPos.x - column->WorkRect.Max.x);
    }
    // Words longer than the column scroll; a projector's audience cannot
    // scroll, and a clicker does not. So the column shows the question when
    // the step opens and the answer when it is revealed (multimodal's step 4
    // at 1280×720 left its answer below the edge): once per scene and
    // reveal, so a lecturer's own scrolling stays where it is put — for a
    // few frames after it changes, while the column settles (a scrollbar
    // appearing narrows it, and its words take more lines).
    const std::string scroll_for = std::string(v.id) + "/" + last_where_ + (c.state.step_revealed() ? "/answer" : "/question");
    const float visible = ImGui::GetWindowHeight();
    // (the cursor after the last line is a line's spacing below its foot)
    const float bottom = (c.state.step_revealed() && answer_bottom >= 0 ? answer_bottom : question_bottom) - spacing_y;
    words_end_in_view_ = bottom < 0 || words_top + bottom - ImGui::GetScrollY() <= visible + spacing_y;  // (rounding)
    if (scroll_for != words_scrolled_for_) words_scrolled_for_ = scroll_for, words_scroll_frames_ = 8;
    // After those frames it goes on following them while nobody scrolls it
    // (its words rewrapped a little later had left a line cut at the top).
    // (ImGui holds the scroll within the words' height)
    const bool untouched =
        words_scroll_set_ >= 0 && std::abs(ImGui::GetScrollY() - std::min(words_scroll_set_, ImGui::GetScrollMaxY())) < 0.5f;
    if (words_scroll_frames_ > 0 || untouched) {
      if (words_scroll_frames_ > 0) --words_scroll_frames_;
      float target = 0;
      if (bottom >= 0 && words_top + bottom > visible) {  // its end at the column's foot, as much above it as fits
        target = words_top + bottom - visible + ImGui::GetStyle().WindowPadding.y;
        // … from the top of a line: the first line in view had been cut in
        // half. The next line's top, so that the end stays in view.
        const auto line = std::lower_bound(tops.begin(), tops.end(), target - 0.5f);
        if (line != tops.end()) target = *line;
      }
      target = std::max(0.0f, target);
      ImGui::SetScrollY(target);
      words_scroll_set_ = words_scroll_frames_ > 0 || untouched ? target : -1;
    }
    // How much of the first line in view is above the column's top edge
    // (none when the column is scrolled to a line's top or not at all).
    words_top_cut_ = 0;
    const float scrolled = ImGui::GetScrollY();
    if (scrolled > 0.5f) {
      const auto after = std::upper_bound(tops.begin(), tops.end(), scrolled + 0.5f);
      // (an edge in the gap below a line, between two paragraphs, cuts none)
      if (after != tops.begin() && scrolled < *std::prev(after) + ImGui::GetTextLineHeight())
        words_top_cut_ = scrolled - *std::prev(after);
    }
    ImGui::EndChild();
    ImGui::EndGroup();
  }
}

// [SECTION] Figure titles

// A title here labels a tab or a tooltip: ImGui's plain text, so its formulas
// are written out (fig::plain_text); the figure's header typesets them.
std::string LessonView::figure_title(const ViewDef& v, std::string_view id) {
  const Translator& tr = ctx_->tr;
  const std::string key = std::string(v.id) + "." + std::string(id) + ".title";
  // A title with placeholders ("Penalty of head {h}") is filled by the
  // figure itself: take the figure's title as built, at the current values.
  if (tr.has(key)) {
    std::string t = tr(key);
    if (t.find('{') == std::string::npos) return fig::plain_text(t);
  }
  if (const FigureCache::Entry* e = ctx_->figures.find(v.id, id); e && !e->figure.title.empty())
    return fig::plain_text(e->figure.title);
  const std::string cache_key = tr.lang() + "/" + std::string(v.id) + "/" + std::string(id);
  if (auto it = titles_.find(cache_key); it != titles_.end()) return it->second;
  std::string title;
  if (const FigureDef* def = find_figure(v, id)) {
    try {  // once per figure and language: its title at the current parameters, small
      title = fig::plain_text(build_figure(v, *def, ctx_->state.params(), tr, 240, 160).title);
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
  if (tr.has(key)) return fig::plain_text(tr(key));
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

// [SECTION] Blank screen, "N, Enter", the grid of scenes

void App::draw_blank(UiContext&) {
  // Over everything, the toasts too: the hall sees black (or white) only.
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const ImU32 fill = lecture_ui_.blank == Blank::white ? IM_COL32(255, 255, 255, 255) : IM_COL32(0, 0, 0, 255);
  ImGui::GetForegroundDrawList()->AddRectFilled(vp->Pos, {vp->Pos.x + vp->Size.x, vp->Pos.y + vp->Size.y}, fill);
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) lecture_ui_.blank = Blank::none;  // a click brings it back too
  ImGui::SetMouseCursor(ImGuiMouseCursor_None);
}

void App::draw_typed(UiContext& ctx) {
  if (lecture_ui_.typed.empty()) return;
  // Small, in the corner: the lecturer sees what was typed; Esc forgets it.
  const std::string text = tr_.format("ui.lecture.typed", {{"n", lecture_ui_.typed}});
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const float pad = 8 * ctx.scale;
  const ImVec2 max{vp->Pos.x + vp->Size.x - pad, vp->Pos.y + vp->Size.y - pad};
  const ImVec2 min{max.x - size.x - 2 * pad, max.y - size.y - 2 * pad};
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  dl->AddRectFilled(min, max, ImGui::GetColorU32(ImGuiCol_PopupBg), 6 * ctx.scale);
  dl->AddRect(min, max, ImGui::GetColorU32(ImGuiCol_Border), 6 * ctx.scale);
  dl->AddText({min.x + pad, min.y + pad}, ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
}

void App::draw_scene_grid(UiContext& ctx) {
  const Deck* steps = state_.steps();
  const int n = steps ? static_cast<int>(steps->scenes.size()) : 0;
  if (n == 0) {
    lecture_ui_.grid = false;
    return;
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float s = ctx.scale;
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::SetNextWindowFocus();
  ImGui::Begin("##scene-grid", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  ImGui::TextDisabled("%s", tr_("ui.lecture.grid_title").c_str());
  // Every miniature laid out as the projector's plot is, shrunk: the most
  // columns that still show every scene without scrolling, else 6.
  const ImVec4 plot = lesson_view_.last_plot_rect();
  const ImVec2 laid_out = plot.z - plot.x > 100 && plot.w - plot.y > 60 ? ImVec2{plot.z - plot.x, plot.w - plot.y}
                                                                        : ImVec2{vp->Size.x, vp->Size.y * 0.75f};
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const float gap = 12 * s, text_h = ImGui::GetTextLineHeightWithSpacing() * 2;
  int cols = 6;
  for (int k = 1; k <= 6; ++k) {
    const float cell_w = (room.x - gap * static_cast<float>(k - 1)) / static_cast<float>(k);
    const float cell_h = cell_w * laid_out.y / laid_out.x + text_h + gap;
    if (static_cast<float>((n + k - 1) / k) * cell_h <= room.y) {
      cols = k;
      break;
    }
  }
  grid_columns_ = cols;
  const float cell_w = std::floor((room.x - gap * static_cast<float>(cols - 1) - ImGui::GetStyle().ScrollbarSize) / static_cast<float>(cols));
  const ImVec2 box{cell_w, cell_w * laid_out.y / laid_out.x};
  ImGui::BeginChild("##scene-grid-cells", {0, 0}, false);
  int builds_left = 2;  // a few miniatures a frame: the grid fills in while it shows
  const std::string& lang = tr_.lang();
  for (int i = 0; i < n; ++i) {
    const Scene& sc = steps->scenes[static_cast<std::size_t>(i)];
    if (i % cols != 0) ImGui::SameLine(0, gap);
    ImGui::PushID(i);
    ImGui::BeginGroup();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    grid_previews_.draw(ctx, ctx.plot, sc, false, box, laid_out, builds_left);
    std::string label = std::to_string(i + 1) + "  " + (sc.caption.empty() ? lesson_title(tr_, sc.lesson) : sc.caption.in(lang));
    // Two lines at most, cut with "…" at a character (the third line was cut through its glyphs).
    // Broken as the captions are (wrapped_text: next to any CJK character too).
    const float two_lines = 2 * ImGui::GetFontSize() + ImGui::GetStyle().ItemSpacing.y + 0.5f;
    if (wrapped_height(nullptr, label, cell_w) > two_lines) {
      std::vector<std::size_t> ends;  // where each UTF-8 character ends
      for (std::size_t k = 0; k < label.size(); ++k)
        if (k + 1 == label.size() || (static_cast<unsigned char>(label[k + 1]) & 0xC0) != 0x80) ends.push_back(k + 1);
      std::size_t lo = 0, hi = ends.size();  // the longest prefix whose "…" still fits
      while (lo + 1 < hi) {
        const std::size_t mid = (lo + hi) / 2;
        const std::string cut = label.substr(0, ends[mid - 1]) + "…";
        (wrapped_height(nullptr, cut, cell_w) <= two_lines ? lo : hi) = mid;
      }
      label = label.substr(0, lo > 0 ? ends[lo - 1] : 0) + "…";
    }
    const float line_end = ImGui::GetCursorPosX() + cell_w;
    ImGui::PushClipRect(ImGui::GetCursorScreenPos(), {ImGui::GetCursorScreenPos().x + cell_w, ImGui::GetCursorScreenPos().y + text_h}, true);
    wrapped_text(label, line_end);
    ImGui::PopClipRect();
    ImGui::SetCursorScreenPos({at.x, at.y + box.y});
    ImGui::Dummy({cell_w, text_h});
    ImGui::EndGroup();
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    ImGui::SetCursorScreenPos(min);
    if (ImGui::InvisibleButton("##pick", {max.x - min.x, max.y - min.y})) {
      lecture_ui_.grid = false;
      const std::string why = state_.go_to_step(i);
      if (!why.empty()) toasts_.push(why, ToastKind::error);
    }
    if (ImGui::IsItemHovered()) lecture_ui_.grid_pick = i;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (i == state_.step()) dl->AddRect(min, max, ImGui::GetColorU32(ImGuiCol_Border), 0, 0, 2 * s);
    if (i == lecture_ui_.grid_pick) {
      dl->AddRect({min.x - 4 * s, min.y - 4 * s}, {max.x + 4 * s, max.y + 4 * s}, ImGui::ColorConvertFloat4ToU32(ctx.pal.accent), 4 * s, 0, 4 * s);
      if (lecture_ui_.grid_scroll) ImGui::SetScrollHereY(0.5f);
    }
    ImGui::PopID();
  }
  lecture_ui_.grid_scroll = false;
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace poslab::app::ui
