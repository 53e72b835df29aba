// [SECTION] Index
// - Drawing a lesson (a guided step, custom screen or default layout)
// - A guided step
// - LessonUi: parameters
// - LessonUi: figures and plots
// - LessonUi: text, readouts, tables
// - The default layout

#include "app/ui/lesson_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/common/assets.hpp"
#include "app/common/messages.hpp"
#include "app/common/notation.hpp"
#include "app/common/slider_math.hpp"
#include "app/lessons/common/figures.hpp"
#include "app/model/layer_stack.hpp"
#include "app/plot/figure_text.hpp"
#include "app/plot/formula.hpp"

namespace poslab::app::ui {

// [SECTION] Drawing a lesson

void LessonView::conflict_banner() {
  UiContext& c = *ctx_;
  const std::string& key = c.state.resolve_error_key();
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(c.pal.error.x, c.pal.error.y, c.pal.error.z, 0.10f));
  ImGui::BeginChild("##conflict", {0, ImGui::GetTextLineHeightWithSpacing() * 4.5f}, true);
  wrapped_colored(c.pal.error, c.tr.format("ui.lesson.conflict", {{"message", c.state.resolve_error()}}));
  if (core::find_param(key) && c.state.params().is_set(key)) {
    if (ImGui::Button(c.tr.format("ui.lesson.reset_key", {{"key", key}}).c_str())) c.state.reset_param(key);
    ImGui::SameLine();
  }
  if (ImGui::Button(c.tr("ui.params.reset_lesson").c_str())) c.state.reset_view();
  ImGui::EndChild();
  ImGui::PopStyleColor();
}

/// The model a config.json put here, on its lesson (on any lesson, for a
/// model no lesson shows): its name, where it came from, its layers as a
/// figure ("Layers of this model") and every warning the reader raised (what
/// the config says, what transformers does with it, what the author meant),
/// folded on a click.
void LessonView::model_banner() {
  UiContext& c = *ctx_;
  const auto& m = c.state.model();
  if (!m || (!m->view.empty() && m->view != c.state.view().id)) return;
  const std::string header =
      c.tr.format(m->warnings.empty()       ? "ui.model.banner_clean"
                  : m->warnings.size() == 1 ? "ui.model.banner_one"
                                            : "ui.model.banner",
                  {{"model", m->name}, {"count", std::to_string(m->warnings.size())}}) + "##model-banner";
  if (ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::Indent();
    ImGui::PushStyleColor(ImGuiCol_Text, c.pal.muted);
    const std::string& source = c.tr.lang() == "zh" && !m->source_zh.empty() ? m->source_zh : m->source;
    std::string from = c.tr.format("ui.model.source", {{"source", source}});
    if (m->reading && !m->reading->config_part.empty())
      from += " · " + c.tr.format("ui.model.part", {{"part", m->reading->config_part}});
    wrapped_text(from);
    ImGui::PopStyleColor();
    if (m->reading) {
      // Rebuilt when the model or the language changes; the widget caches by version.
      const std::uint64_t key = std::hash<std::string>{}(m->source + "|" + m->name + "|" + c.tr.lang());
      if (!layers_figure_ || key != layers_key_) {
        layers_figure_ = std::make_unique<fig::Figure>(layer_stack_figure(*m->reading, c.tr));
        layers_key_ = key;
      }
      const float h = std::min(250.0f * c.scale, ImGui::GetIO().DisplaySize.y * 0.3f);
      plot("model-layers", *layers_figure_, key, {0, h});
      layers_frame_ = ImGui::GetFrameCount();
      base_standin_note(*m->reading);
    }
    // The first warnings in full, the others folded: five warnings of four
    // lines each would push the lesson's figure below the window. Up to
    // three are all shown (folding a single one saves nothing).
    const std::size_t kShownWarnings = m->warnings.size() <= 3 ? 3 : 2;
    auto show = [&](const ModelWarning& w) {
      ImGui::PushFont(c.fonts.bold);
      ImGui::TextUnformatted(w.id.c_str());
      ImGui::PopFont();
      wrapped_text(model_warning_text(c.tr, w));
    };
    for (std::size_t i = 0; i < m->warnings.size() && i < kShownWarnings; ++i) show(m->warnings[i]);
    if (m->warnings.size() > kShownWarnings) {
      std::string ids;
      for (std::size_t i = kShownWarnings; i < m->warnings.size(); ++i) ids += (ids.empty() ? "" : ", ") + m->warnings[i].id;
      const std::string more = c.tr.format("ui.model.more_warnings", {{"count", std::to_string(m->warnings.size() - kShownWarnings)},
                                                                      {"ids", ids}}) + "##model-more";
      if (ImGui::TreeNode(more.c_str())) {
        for (std::size_t i = kShownWarnings; i < m->warnings.size(); ++i) show(m->warnings[i]);
        ImGui::TreePop();
      }
    }
    if (ImGui::SmallButton(c.tr("ui.model.close").c_str())) c.state.close_model();
    ImGui::Unindent();
  }
  ImGui::Separator();
}

/// p-RoPE (Gemma 4): the lesson's base is a stand-in (b' = b^(d/h) over the
/// rotating dims gives the model's frequencies); the panel says so, beside
/// the model's own base.
void LessonView::base_standin_note(const ModelReading& reading) {
  UiContext& c = *ctx_;
  const auto base = reading.params.find("base");
  if (base == reading.params.end() || !base->is_number()) return;
  for (const LayerGroup& g : reading.layers) {
    if (g.kind != "rope" || g.method != "proportional" || !g.base || !g.rotary_dim || !g.head_dim) continue;
    const double stand_in = base->get<double>();
    if (stand_in == *g.base) return;
    ImGui::PushStyleColor(ImGuiCol_Text, c.pal.muted);
    wrapped_text(c.tr.format("ui.model.base_standin", {{"b2", fig::num(stand_in, 6)}, {"b", fig::num(*g.base, 6)},
                                                       {"head", std::to_string(*g.head_dim)},
                                                       {"d", std::to_string(*g.rotary_dim)}}));
    ImGui::PopStyleColor();
    return;
  }
}

void LessonView::draw(UiContext& ctx) {
  ctx_ = &ctx;
  if (!ctx.lecture) model_banner();
  if (!ctx.state.resolved()) {
    conflict_banner();
    return;
  }
  if (const Scene* step = ctx.state.current_step()) {
    step_layout(*step);
    return;
  }
  whole_page();
}

void LessonView::single_figure(UiContext& ctx, std::string_view id, ImVec2 size) {
  ctx_ = &ctx;
  if (!ctx.state.resolved()) {
    conflict_banner();
    return;
  }
  figure(id, size);
}

void LessonView::whole_page() {
  if (const Deck* steps = ctx_->state.steps()) {
    const std::string label =
        ctx_->tr.format("ui.steps.start", {{"count", std::to_string(steps->scenes.size())}}) + "##guided";
    if (ImGui::Button(label.c_str())) {
      const std::string why = ctx_->state.go_to_step(0);
      if (!why.empty()) ctx_->toasts.push(why, ToastKind::error);
    }
  }
  const LessonScreen* screen = lesson_screen(ctx_->state.view().id);
  if (screen && screen->draw) {
    screen->draw(*this);
    if (ctx_->narrow && narrow_sliders) narrow_sliders();  // the screen's own layout; its sliders below it
  } else {
    default_layout();
  }
  if (!ctx_->lecture) notes_check();
}

// [SECTION] A guided step

namespace {
/// Outside lecture mode, a guided step's plot keeps at least this share of
/// the window's height, however long the step's words are (its answer too).
constexpr float kStepPlotShare = 0.46f;  // 0.45 and a little room for rounding
}  // namespace

void LessonView::step_bar(const Deck& steps) {
  UiContext& c = *ctx_;
  const int n = static_cast<int>(steps.scenes.size());
  const int at = c.state.step();
  ImGui::AlignTextToFramePadding();
  const char* indicator = c.state.presenting() ? "ui.deck.position" : "ui.steps.indicator";
  ImGui::TextUnformatted(c.tr.format(indicator, {{"step", std::to_string(at + 1)}, {"count", std::to_string(n)}}).c_str());
  const std::string back = c.tr("ui.steps.back"), next = c.tr("ui.steps.next"), all = c.tr("ui.steps.show_all");
  const ImGuiStyle& st = ImGui::GetStyle();
  const float w = ImGui::CalcTextSize(back.c_str()).x + ImGui::CalcTextSize(next.c_str()).x +
                  ImGui::CalcTextSize(all.c_str()).x + st.FramePadding.x * 6 + st.ItemSpacing.x * 2;
  // One dot per step, when they fit beside the buttons: filled up to the
  // current one; a click goes there.
  const float dot_w = ImGui::CalcTextSize("●").x + st.FramePadding.x * 2 + st.ItemSpacing.x;
  const float room = ImGui::GetWindowContentRegionMax().x - w - ImGui::GetItemRectMax().x + ImGui::GetWindowPos().x;
  const bool dots = dot_w * static_cast<float>(n) <= room;
  for (int i = 0; dots && i < n; ++i) {
    ImGui::SameLine();
    ImGui::PushID(i);
    const ImVec4 col = i <= at ? c.pal.accent : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    ImGui::PushStyleColor(ImGuiCol_Text, col);
    if (ImGui::SmallButton(i <= at ? "●" : "○")) {
      const std::string why = c.state.go_to_step(i);
      if (!why.empty()) c.toasts.push(why, ToastKind::error);
    }
    ImGui::PopStyleColor();
    ImGui::PopID();
  }
  ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - w));
  auto report = [&c](const std::string& why) {
    if (!why.empty()) c.toasts.push(why, ToastKind::error);
  };
  if (ImGui::Button(back.c_str())) report(c.state.prev_step());
  ImGui::SameLine();
  if (ImGui::Button(next.c_str())) report(c.state.next_step());
  ImGui::SameLine();
  if (ImGui::Button(all.c_str())) report(c.state.go_to_step(-1));
}

void LessonView::symbol_tooltip(const std::string& text) {
  if (!notation_loaded_) {
    notation_loaded_ = true;
    try {
      notation_ = load_notation(assets_dir());
    } catch (const std::exception&) {
      // no card, no tooltips; Help → Notation says why
    }
  }
  const auto used = symbols_in(fig::plain_text(text), notation_);  // θ_i in a formula is θᵢ
  if (used.empty()) return;
  const bool zh = ctx_->tr.lang() == "zh";
  ImGui::BeginTooltip();
  const float wrap = ImGui::GetFontSize() * 34.0f;
  for (const NotationEntry* e : used) wrapped_text(e->symbol + "  —  " + (zh && !e->zh.empty() ? e->zh : e->en), wrap);
  ImGui::EndTooltip();
}

void LessonView::step_layout(const Scene& step) {
  UiContext& c = *ctx_;
  if (c.narrow) {
    narrow_step(step);
    return;
  }
  const ViewDef& v = c.state.view();
  const std::string& lang = c.tr.lang();
  if (const Deck* steps = c.state.steps()) step_bar(*steps);
  ImGui::Separator();
  // The step's words; hovering them lists what each symbol in them means.
  // When they are long (a revealed answer) they scroll in a box of their own
  // so that the plot keeps kStepPlotShare of the window's height; the answer,
  // just revealed, is scrolled into view.
  std::string_view fig_id = c.state.step_revealed() && !step.reveal_figure.empty() ? std::string_view(step.reveal_figure)
                                                                                    : std::string_view(step.figure);
  if (fig_id.empty() && !v.figures.empty()) fig_id = v.figures.front().id;
  const LessonScreen* screen = lesson_screen(v.id);
  const float width = ImGui::GetContentRegionAvail().x, spacing_y = ImGui::GetStyle().ItemSpacing.y;
  const std::string hint = c.tr("ui.steps.reveal_hint");
  const std::string question = step.has_question() ? labelled(c.tr("ui.steps.predict"), step.question.in(lang)) : "";
  const std::string answer = c.state.step_revealed() ? labelled(c.tr("ui.steps.answer"), step.answer.in(lang)) : "";
  float words_h = wrapped_height(nullptr, step.caption.in(lang), width) + spacing_y;
  if (step.has_question())
    words_h += 2 * spacing_y + wrapped_height(c.fonts.bold, question, width - ImGui::GetFontSize()) +
               wrapped_height(nullptr, answer.empty() ? hint : answer, width);
  const FigureCache::Entry* built = fig_id.empty() ? nullptr : c.figures.find(v.id, fig_id);
  const float header_h = built ? wrapped_height(c.fonts.bold, built->figure.title, width - 60 * c.scale) +
                                     wrapped_height(nullptr, built->figure.subtitle, width) + 2 * spacing_y
                               : 3 * ImGui::GetTextLineHeightWithSpacing();
  const float plot_min = kStepPlotShare * ImGui::GetMainViewport()->Size.y;
  // The step controls' height: one line of buttons, or what they took last
  // frame (the lab's Train line wraps to two; the figure ran 4 px off the
  // window at 1280×720).
  const float controls_h =
      screen && screen->step_controls
          ? std::max(ImGui::GetFrameHeightWithSpacing() + spacing_y, controls_view_ == v.id ? controls_h_ : 0.0f)
          : 0.0f;
  const float words_room = std::max(4 * ImGui::GetTextLineHeightWithSpacing(),
                                    ImGui::GetContentRegionAvail().y - controls_h - header_h - plot_min - 3 * spacing_y);
  const bool boxed = words_h > words_room;
  if (c.state.step_revealed() && !(words_revealed_ && words_step_ == c.state.step())) words_scroll_ = true;
  words_revealed_ = c.state.step_revealed();
  words_step_ = c.state.step();
  if (boxed) ImGui::BeginChild("##step-words", {0, words_room}, false);
  ImGui::BeginGroup();
  std::string shown = step.caption.in(lang);
  if (!step.caption.empty()) wrapped_text(shown);
  if (step.has_question()) {
    ImGui::Spacing();
    ImGui::PushFont(c.fonts.bold);
    // One em short of the edge: the bold Chinese question's last glyph ran
    // under the scrollbar ("……还是慢的（i", the zh review).
    ImGui::PushStyleColor(ImGuiCol_Text, c.pal.accent);
    wrapped_text(question, ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x - ImGui::GetFontSize());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    shown += " " + step.question.in(lang);
    if (c.state.step_revealed()) {
      wrapped_text(answer);
      shown += " " + step.answer.in(lang);
    } else {
      wrapped_colored(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), hint);
    }
  }
  ImGui::EndGroup();
  if (ImGui::IsItemHovered()) symbol_tooltip(shown);
  if (boxed) {
    // Scrolled to the end until it gets there (ImGui clamps a scroll to the
    // previous frame's content, so one request may stop short), then kept
    // there while the box changes size, until the student scrolls up.
    const bool at_end = ImGui::GetScrollMaxY() > 0 && ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 0.5f;
    if (at_end) words_scroll_ = false;
    if (c.state.step_revealed() && (words_scroll_ || at_end)) ImGui::SetScrollHereY(1.0f);
    ImGui::EndChild();
  }
  ImGui::Spacing();

  // The figure this step brings forward, as large as the window allows.
  const bool screen_draws_it =
      screen && std::find(screen->replaces.begin(), screen->replaces.end(), fig_id) != screen->replaces.end();
  if (screen && screen->step_controls) {
    const float top = ImGui::GetCursorPosY();
    screen->step_controls(*this);
    ImGui::Spacing();
    controls_h_ = ImGui::GetCursorPosY() - top;
    controls_view_ = std::string(v.id);
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float below = ImGui::GetFrameHeightWithSpacing() * (c.lecture ? 1.5f : 4.5f);
  const float least = std::max(260.0f * c.scale, header_h + plot_min);  // the readouts' folds may go below the fold
  const float h = std::clamp(avail.y - below, least, std::max(least, avail.x * 0.62f));
  const ImVec2 at = ImGui::GetCursorScreenPos();
  if (screen_draws_it && screen->draw_replaced) {
    screen->draw_replaced(*this, fig_id, {avail.x, h});  // that figure in the lesson's own form (a canvas, dials)
    last_plot_ = last_figure_ = {at.x, at.y, at.x + avail.x, at.y + h};
  } else if (screen_draws_it) {
    screen->draw(*this);
  } else if (!fig_id.empty()) {
    hide_figure_data_ = step.hide_figure && !c.state.step_revealed();
    figure(fig_id, {avail.x, h});
    hide_figure_data_ = false;
  }
  // The rest of the lesson, one click away.
  if (v.readouts && ImGui::CollapsingHeader(c.tr("ui.lesson.readouts").c_str())) readouts();
  if (c.lecture) return;
  if (ImGui::CollapsingHeader(c.tr("ui.steps.reference").c_str())) paragraph(std::string(v.id) + ".text");
  notes_check();
}

// [SECTION] The narrow layout (issue 33): a phone, a tablet, a narrow window

float LessonView::narrow_figure_height(float width) const {
  // Measured from the top of the page (not the scrolled cursor): scrolling
  // must not resize, and so rebuild, the figure.
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float top = ImGui::GetCursorScreenPos().y + ImGui::GetScrollY();
  const float room = vp->WorkPos.y + vp->WorkSize.y - top - ImGui::GetStyle().WindowPadding.y - ImGui::GetStyle().ItemSpacing.y;
  // A low screen (a phone on its side) gives the figure what is left, down to 100 pt.
  // Upright, at least 70 % of the room (the title, subtitle and legend of a
  // figure no wider than a phone take much of a square block).
  const float h = room >= 160.0f * ctx_->scale ? std::min(room, std::max(width * 0.95f, room * 0.7f))
                                               : std::max(room, 100.0f * ctx_->scale);
  return std::floor(std::max(h, 100.0f * ctx_->scale));
}

void LessonView::narrow_step_bar(const Deck& steps) {
  UiContext& c = *ctx_;
  const int n = static_cast<int>(steps.scenes.size());
  const std::string where =
      c.tr.format("ui.steps.indicator", {{"step", std::to_string(c.state.step() + 1)}, {"count", std::to_string(n)}});
  const std::string back = c.tr("ui.steps.back"), next = c.tr("ui.steps.next");
  const ImGuiStyle& st = ImGui::GetStyle();
  const float w = ImGui::GetContentRegionAvail().x;
  // Big buttons a thumb hits: a third of the width each (at least their words).
  const float bw = std::max({ImGui::CalcTextSize(back.c_str()).x + 2 * st.FramePadding.x,
                             ImGui::CalcTextSize(next.c_str()).x + 2 * st.FramePadding.x, std::floor(w / 3)});
  const float where_w = ImGui::CalcTextSize(where.c_str()).x;
  const bool one_row = 2 * bw + where_w + 2 * st.ItemSpacing.x <= w;
  if (!one_row) {
    ImGui::TextUnformatted(where.c_str());
    note_item(c, "text", "step");
  }
  auto report = [&c](const std::string& why) {
    if (!why.empty()) c.toasts.push(why, ToastKind::error);
  };
  const float x0 = ImGui::GetCursorPosX();
  if (ImGui::Button(back.c_str(), {bw, 0})) report(c.state.prev_step());
  note_item(c, "button", "back");
  if (one_row) {
    ImGui::SameLine(x0 + std::floor((w - where_w) / 2));
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(where.c_str());
    note_item(c, "text", "step");
  }
  ImGui::SameLine(x0 + w - bw);
  if (ImGui::Button(next.c_str(), {bw, 0})) report(c.state.next_step());
  note_item(c, "button", "next");
}

void LessonView::narrow_step(const Scene& step) {
  UiContext& c = *ctx_;
  const ViewDef& v = c.state.view();
  const std::string& lang = c.tr.lang();
  if (const Deck* steps = c.state.steps()) narrow_step_bar(*steps);
  // The figure first, at full width, wholly on the first screen.
  std::string_view fig_id = c.state.step_revealed() && !step.reveal_figure.empty() ? std::string_view(step.reveal_figure)
                                                                                    : std::string_view(step.figure);
  if (fig_id.empty() && !v.figures.empty()) fig_id = v.figures.front().id;
  const LessonScreen* screen = lesson_screen(v.id);
  auto replaced = [screen](std::string_view id) {
    return screen && std::find(screen->replaces.begin(), screen->replaces.end(), id) != screen->replaces.end();
  };
  const bool screen_draws_it = replaced(fig_id);
  const auto tabbed = std::count_if(v.figures.begin(), v.figures.end(), [&](const FigureDef& f) { return !replaced(f.id); });
  // A screen's own step controls (why-position's Shuffle row) go above the
  // figure, or below it when the lesson's other figures are behind tabs: a
  // 320 × 568 phone has no room for the step bar, the controls, the tabs and
  // the figure on its first screen, and the controls act on the figure above them.
  const bool controls_below = screen && screen->step_controls && tabbed > 1 && !screen_draws_it;
  if (screen && screen->step_controls && !controls_below) {
    screen->step_controls(*this);
    ImGui::Spacing();
  }
  const float w = ImGui::GetContentRegionAvail().x;
  const float h = narrow_figure_height(w);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  if (screen_draws_it && screen->draw_replaced) {
    screen->draw_replaced(*this, fig_id, {w, h});
    last_plot_ = last_figure_ = {at.x, at.y, at.x + w, at.y + h};
  } else if (screen_draws_it) {
    screen->draw(*this);
  } else if (!fig_id.empty() && tabbed > 1) {
    // The lesson's other figures behind tabs, as without steps (a reader on
    // a phone may look at another one too); each step opens on its own.
    const std::string tabs_for = std::string(v.id) + "/" + std::to_string(c.state.step()) + (c.state.step_revealed() ? "/a" : "/q");
    const bool select = narrow_tabs_for_ != tabs_for;
    narrow_tabs_for_ = tabs_for;
    std::string_view drawn = fig_id;
    if (ImGui::BeginTabBar("##narrow-step-figures", ImGuiTabBarFlags_FittingPolicyScroll)) {
      for (const FigureDef& f : v.figures) {
        if (replaced(f.id)) continue;  // the lesson's own screen draws it, in its own steps
        const std::string label = figure_tab(v, f.id) + "###" + std::string(f.id);
        if (ImGui::BeginTabItem(label.c_str(), nullptr, select && f.id == fig_id ? ImGuiTabItemFlags_SetSelected : 0)) {
          drawn = f.id;
          const float tab_w = ImGui::GetContentRegionAvail().x;
          hide_figure_data_ = f.id == fig_id && step.hide_figure && !c.state.step_revealed();
          figure(f.id, {tab_w, narrow_figure_height(tab_w)});
          hide_figure_data_ = false;
          ImGui::EndTabItem();
        }
      }
      ImGui::EndTabBar();
    }
    fig_id = drawn;
  } else if (!fig_id.empty()) {
    hide_figure_data_ = step.hide_figure && !c.state.step_revealed();
    figure(fig_id, {w, h});
    hide_figure_data_ = false;
  }
  if (c.laid_out) c.laid_out->push_back({"figure", std::string(fig_id), last_figure_});
  ImGui::Spacing();
  if (controls_below) {
    screen->step_controls(*this);
    ImGui::Spacing();
  }

  // The step's words below it, the whole width, no box of their own. A
  // formula wider than a phone (one unbreakable word) makes them smaller,
  // down to 70 %, rather than run off the screen; measured in the frame before.
  const std::string hint = c.tr("ui.steps.reveal_hint");
  std::string shown = step.caption.in(lang);
  const float width = ImGui::GetContentRegionAvail().x;
  const std::string scale_key = std::string(v.id) + "/" + std::to_string(c.state.step()) + "/" +
                                (c.state.step_revealed() ? "a/" : "q/") + lang + "/" + std::to_string(std::lround(width));
  float& words_scale = words_scale_.try_emplace(scale_key, 1.0f).first->second;
  ImGui::SetWindowFontScale(words_scale);
  ImGui::BeginGroup();
  if (!step.caption.empty()) {
    ImGui::BeginGroup();
    wrapped_text(shown);
    ImGui::EndGroup();
    note_item(c, "text", "caption");
  }
  if (step.has_question()) {
    ImGui::Spacing();
    ImGui::BeginGroup();
    ImGui::PushFont(c.fonts.bold);
    ImGui::PushStyleColor(ImGuiCol_Text, c.pal.accent);
    wrapped_text(labelled(c.tr("ui.steps.predict"), step.question.in(lang)),
                 ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x - ImGui::GetFontSize());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    ImGui::EndGroup();
    note_item(c, "text", "question");
    shown += " " + step.question.in(lang);
    ImGui::BeginGroup();
    if (c.state.step_revealed()) {
      wrapped_text(labelled(c.tr("ui.steps.answer"), step.answer.in(lang)));
      shown += " " + step.answer.in(lang);
    } else {
      wrapped_colored(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), hint);
    }
    ImGui::EndGroup();
    note_item(c, "text", c.state.step_revealed() ? "answer" : "hint");
  }
  ImGui::EndGroup();
  ImGui::SetWindowFontScale(1.0f);
  if (const float drawn = ImGui::GetItemRectSize().x; drawn > width + 0.5f && words_scale > 0.7f) {
    words_scale = std::max(0.7f, std::floor(words_scale * width / drawn * 100.0f) / 100.0f);
    c.redraw = true;
  }
  if (ImGui::IsItemHovered()) symbol_tooltip(shown);
  ImGui::Spacing();
  // The sliders this step shows, then the rest of the lesson folded below.
  if (narrow_sliders) narrow_sliders();
  ImGui::Spacing();
  if (ImGui::Button(c.tr("ui.steps.show_all").c_str())) {
    const std::string why = c.state.go_to_step(-1);
    if (!why.empty()) c.toasts.push(why, ToastKind::error);
  }
  if (v.readouts && ImGui::CollapsingHeader(c.tr("ui.lesson.readouts").c_str())) readouts();
  if (ImGui::CollapsingHeader(c.tr("ui.steps.reference").c_str())) paragraph(std::string(v.id) + ".text");
  notes_check();
}

void LessonView::narrow_figures() {
  UiContext& c = *ctx_;
  const ViewDef& v = c.state.view();
  // One figure at a time at full width; tabs switch between them.
  const float w = ImGui::GetContentRegionAvail().x;
  if (v.figures.size() > 1 && ImGui::BeginTabBar("##narrow-figures", ImGuiTabBarFlags_FittingPolicyScroll)) {
    for (const FigureDef& f : v.figures) {
      const std::string label = figure_tab(v, f.id) + "###" + std::string(f.id);
      if (ImGui::BeginTabItem(label.c_str())) {
        figure(f.id, {w, narrow_figure_height(w)});
        if (c.laid_out) c.laid_out->push_back({"figure", std::string(f.id), last_figure_});
        ImGui::EndTabItem();
      }
    }
    ImGui::EndTabBar();
  } else if (v.figures.size() == 1) {
    figure(v.figures.front().id, {w, narrow_figure_height(w)});
    if (c.laid_out) c.laid_out->push_back({"figure", std::string(v.figures.front().id), last_figure_});
  }
  ImGui::Spacing();
  if (narrow_sliders) narrow_sliders();
  ImGui::Spacing();
  paragraph(std::string(v.id) + ".text");
  ImGui::Spacing();
  readouts();
  for (std::string_view id : v.tables) {
    ImGui::Spacing();
    const std::string header = c.tr.format("ui.table.header", {{"id", std::string(id)}}) + "##" + std::string(id);
    if (ImGui::CollapsingHeader(header.c_str())) table(id);
  }
}

// [SECTION] LessonUi: parameters

const core::Params& LessonView::params() const {
  const core::Params* resolved = ctx_->state.resolved();
  return resolved ? *resolved : ctx_->state.params();
}

bool LessonView::set_param(std::string_view key, const core::ParamValue& value) {
  const std::string why = ctx_->state.set_param(key, value);
  if (why.empty()) return true;
  ctx_->toasts.push(ctx_->tr.format("ui.params.refused", {{"message", why}}), ToastKind::error);
  return false;
}

// [SECTION] LessonUi: figures and plots

ImVec2 LessonView::figure_header(const fig::Figure& f, const std::string& menu_id, ImVec2 size, bool* export_clicked) {
  UiContext& c = *ctx_;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float w = size.x > 0 ? size.x : avail;
  const float start_y = ImGui::GetCursorPosY();
  const float x0 = ImGui::GetCursorPosX();
  if (c.lecture && header_above_) return {w, std::max(size.y > 0 ? size.y : w * 0.58f, 120.0f * c.scale)};
  // Lecture mode shows the title too: the figure tabs share one line and cut
  // most titles to a word at 720p ("Frequency…"). Wrapped by wrapped_text, not
  // ImGui, so that no number ("largest |entry| 7.72") breaks across lines.
  if (!f.title.empty()) {
    ImGui::PushFont(c.fonts.bold);
    wrapped_text(f.title, x0 + w - ImGui::CalcTextSize(c.tr("ui.plot.export_button").c_str()).x - 30 * c.scale);
    ImGui::PopFont();
  }
  if (export_clicked) {
    ImGui::SameLine(x0 + w - ImGui::CalcTextSize(c.tr("ui.plot.export_button").c_str()).x -
                    ImGui::GetStyle().FramePadding.x * 2);
    *export_clicked = ImGui::SmallButton((c.tr("ui.plot.export_button") + "##" + menu_id).c_str());
  }
  if (!f.subtitle.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, c.pal.muted);
    wrapped_text(f.subtitle, x0 + w);
    ImGui::PopStyleColor();
  }
  float header = ImGui::GetCursorPosY() - start_y;
  if (c.lecture && header < min_header_) {
    ImGui::SetCursorPosY(start_y + min_header_);
    header = min_header_;
  }
  float h = size.y > 0 ? size.y - header : w * 0.58f;
  return {w, std::max(h, 120.0f * c.scale)};
}

void LessonView::handle(PlotAction action, std::string_view figure_id) {
  switch (action) {
    case PlotAction::none: return;
    case PlotAction::export_png: export_figure(*ctx_, figure_id, ExportFormat::png); return;
    case PlotAction::export_svg: export_figure(*ctx_, figure_id, ExportFormat::svg); return;
    case PlotAction::export_pdf: export_figure(*ctx_, figure_id, ExportFormat::pdf); return;
    case PlotAction::export_csv: export_figure(*ctx_, figure_id, ExportFormat::csv); return;
  }
}

std::string LessonView::export_figure(UiContext& c, std::string_view id, ExportFormat format) {
  const ViewDef& v = c.state.view();
  const FigureDef* def = find_figure(v, id);
  if (!def) return {};
  try {
    const auto path = export_figure_file(v, *def, c.state.params(), c.tr, format, c.export_choice, shown_model(c.state));
    c.toasts.push(c.tr.format("ui.export.wrote_one", {{"path", path.string()}}), ToastKind::success);
    return path.string();
  } catch (const std::exception& e) {
    c.toasts.push(c.tr.format("ui.export.failed", {{"message", error_text(c.tr, e)}}), ToastKind::error);
    return {};
  }
}

void LessonView::figure(std::string_view id, ImVec2 size) {
  UiContext& c = *ctx_;
  const ViewDef& v = c.state.view();
  const FigureDef* def = find_figure(v, id);
  if (!def) {
    wrapped_colored(c.pal.error, c.tr.format("ui.lesson.no_figure", {{"id", std::string(id)}}));
    return;
  }
  ImGui::PushID(id.data(), id.data() + id.size());
  ImGui::BeginGroup();
  // The figure is built for the whole block (so its title's height never
  // feeds back into its size); the plot gets what the header leaves.
  const float block_w = size.x > 0 ? size.x : ImGui::GetContentRegionAvail().x;
  const float block_h = size.y > 0 ? size.y : block_w * 0.62f;
  const float block_top = ImGui::GetCursorScreenPos().y;
  FigureCache::Entry& e = c.figures.get(v, *def, c.state, c.tr, {block_w, block_h});
  const std::string menu_id = "##export-menu";
  bool export_clicked = false;
  const ImVec2 plot_size = figure_header(e.figure, menu_id, {block_w, block_h}, c.lecture || c.embed ? nullptr : &export_clicked);
  if (export_clicked) ImGui::OpenPopup(menu_id.c_str());
  if (ImGui::BeginPopup(menu_id.c_str())) {
    for (ExportFormat f : {ExportFormat::png, ExportFormat::svg, ExportFormat::pdf, ExportFormat::csv}) {
      std::string label = export_extension(f);
      std::transform(label.begin(), label.end(), label.begin(), [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
      if (ImGui::MenuItem(label.c_str())) export_figure(c, id, f);
    }
    ImGui::TextDisabled("%s", c.export_choice.dir.string().c_str());
    ImGui::EndPopup();
  }
  if (!e.error.empty()) {
    ImGui::BeginChild("##figure-error", plot_size, true);
    wrapped_colored(c.pal.error, e.error);
    if (core::find_param(e.error_key) && c.state.params().is_set(e.error_key) &&
        ImGui::Button(c.tr.format("ui.lesson.reset_key", {{"key", e.error_key}}).c_str()))
      c.state.reset_param(e.error_key);
    ImGui::EndChild();
  } else {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    last_plot_ = {at.x, at.y, at.x + plot_size.x, at.y + plot_size.y};
    last_figure_ = {at.x, block_top, at.x + plot_size.x, at.y + plot_size.y};
    hold_axes(e, v, *def, {block_w, block_h});
    if (hide_figure_data_) {
      // The question asks about what the figure draws: its frame only, until the answer.
      const fig::Figure frame = lessons::hidden_figure(e.figure, c.tr("ui.steps.hidden_figure"));
      handle(e.widget.draw("##plot", frame, e.version | (std::uint64_t{1} << 63), plot_size, c.plot), id);
    } else {
      handle(e.widget.draw("##plot", e.figure, e.version, plot_size, c.plot), id);
    }
    // The figure shown is a frame behind while an animation plays: no note
    // then (it flickered on every frame); a slider's slow rebuild says so.
    if (e.updating() && !c.state.animation().playing()) {
      // The figure shown is the previous one while the new one is built.
      const std::string& note = c.tr("ui.lesson.updating");
      const ImVec2 ts = ImGui::CalcTextSize(note.c_str());
      const ImVec2 p{at.x + plot_size.x - ts.x - 6, at.y + 4};
      ImDrawList* dl = ImGui::GetWindowDrawList();
      dl->AddRectFilled({p.x - 4, p.y - 2}, {p.x + ts.x + 4, p.y + ts.y + 2}, ImGui::GetColorU32(ImGuiCol_WindowBg, 0.85f), 4);
      dl->AddText(p, ImGui::GetColorU32(ImGuiCol_TextDisabled), note.c_str());
    }
  }
  ImGui::EndGroup();
  ImGui::PopID();
}

void LessonView::hold_axes(FigureCache::Entry& e, const ViewDef& v, const FigureDef& def, ImVec2 size) {
  // While an animation of a key the figure reads is on, its axes hold the
  // range of the whole sweep (both ends built once when it starts, then
  // every figure shown): they never re-range mid-sweep (issue 29).
  const Animation& a = ctx_->state.animation();
  const bool reads = a.active() && std::binary_search(e.reads.begin(), e.reads.end(), a.config().key);
  if (!reads || !e.error.empty()) {
    if (e.hold) e.hold.reset(), e.hold_for.clear(), e.widget.set_hold(std::nullopt);
    return;
  }
  const SessionAnimation& cfg = a.config();
  const std::string id = cfg.key + "=" + core::format_number(cfg.from) + ":" + core::format_number(cfg.to);
  // A side the sweep moves gets 5 % of the span more room than the values
  // seen gave: a curve sampled at other points between them peaks a hair
  // higher, and the axes must not creep on every frame (measured on rope's
  // m sweep: it grew on each of 100 frames without the margin).
  // The 5 % are taken on the axis as drawn: on a log axis in decades (in
  // data units rope's frequencies, 10⁻⁴ … 10⁵ swept over b, lost 3·10⁴ below
  // 10⁻⁴: the axis started at 10^0.5 and the θ curve was gone).
  const fig::AxisScale xs = e.figure.x.scale, ys = e.figure.y.scale;
  auto widen = [xs, ys](const fig::ViewRange& before, const fig::ViewRange& after) {
    auto fx = [xs](double u) { return fig::axis_forward(u, xs); };
    auto fy = [ys](double u) { return fig::axis_forward(u, ys); };
    auto keep = [](double widened, double was) { return std::isfinite(widened) ? widened : was; };
    fig::ViewRange w = after;
    const double dx = (fx(after.x_max) - fx(after.x_min)) * 0.05, dy = std::abs(fy(after.y_max) - fy(after.y_min)) * 0.05;
    const double up = after.y_max >= after.y_min ? 1.0 : -1.0;  // a reversed y: bottom first
    if (after.x_min < before.x_min) w.x_min = keep(fig::axis_inverse(fx(after.x_min) - dx, xs), after.x_min);
    if (after.x_max > before.x_max) w.x_max = keep(fig::axis_inverse(fx(after.x_max) + dx, xs), after.x_max);
    if (up * (after.y_min - before.y_min) < 0) w.y_min = keep(fig::axis_inverse(fy(after.y_min) - up * dy, ys), after.y_min);
    if (up * (after.y_max - before.y_max) > 0) w.y_max = keep(fig::axis_inverse(fy(after.y_max) + up * dy, ys), after.y_max);
    return w;
  };
  if (e.hold_for != id) {
    e.hold_for = id;
    const fig::ViewRange first = fig::default_view(e.figure);
    fig::ViewRange all = first;
    // Both ends and seven values between, as the slider moves (a range need
    // not grow with the key: a period, a peak in the middle).
    const core::ParamSpec& spec = core::param_spec(cfg.key);
    for (int i = 0; i <= 8; ++i) {
      try {
        core::Params p = ctx_->state.params();
        p.set(cfg.key, snap(spec, interpolate(spec, cfg.from, cfg.to, i / 8.0), false));
        all = fig::union_view(all, fig::default_view(build_figure(v, def, p, ctx_->tr, size.x, size.y)));
      } catch (const std::exception&) {
        // a value the lesson refuses: the frames shown widen the range instead
      }
    }
    e.hold = widen(first, all);
    e.hold_version = e.version;
  } else if (e.hold_version != e.version) {
    const fig::ViewRange grown = fig::union_view(*e.hold, fig::default_view(e.figure));
    if (!(grown == *e.hold)) e.hold = widen(*e.hold, grown);
    e.hold_version = e.version;
  }
  e.widget.set_hold(e.hold);
}

void LessonView::plot(std::string_view widget_id, const fig::Figure& figure, std::uint64_t version, ImVec2 size) {
  UiContext& c = *ctx_;
  auto it = custom_plots_.find(widget_id);
  if (it == custom_plots_.end()) it = custom_plots_.emplace(std::string(widget_id), std::make_unique<PlotWidget>()).first;
  ImGui::PushID(widget_id.data(), widget_id.data() + widget_id.size());
  ImGui::BeginGroup();
  const ImVec2 plot_size = figure_header(figure, {}, size, nullptr);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  last_plot_ = {at.x, at.y, at.x + plot_size.x, at.y + plot_size.y};
  const PlotAction action = it->second->draw("##plot", figure, version, plot_size, c.plot);
  if (action != PlotAction::none) {
    // A lesson-built figure is exported as it is on screen.
    const ExportFormat f = action == PlotAction::export_png   ? ExportFormat::png
                           : action == PlotAction::export_svg ? ExportFormat::svg
                           : action == PlotAction::export_pdf ? ExportFormat::pdf
                                                              : ExportFormat::csv;
    try {
      std::error_code ec;
      std::filesystem::create_directories(c.export_choice.dir, ec);
      const auto path = c.export_choice.dir / (std::string(c.state.view().id) + "-" + std::string(widget_id) + "." +
                                               export_extension(f));
      app::export_figure(figure, f, path, c.export_choice.options);
      c.toasts.push(c.tr.format("ui.export.wrote_one", {{"path", path.string()}}), ToastKind::success);
    } catch (const std::exception& e) {
      c.toasts.push(c.tr.format("ui.export.failed", {{"message", error_text(c.tr, e)}}), ToastKind::error);
    }
  }
  ImGui::EndGroup();
  ImGui::PopID();
}

// [SECTION] LessonUi: text, readouts, tables

void LessonView::paragraph(std::string_view key) {
  const std::string& text = ctx_->tr(key);
  if (text == key) return;  // the lesson has no text yet
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find("\n\n", start);
    if (end == std::string::npos) end = text.size();
    wrapped_text(std::string_view(text).substr(start, end - start));
    if (end < text.size()) ImGui::Spacing();
    start = end + 2;
  }
}

void LessonView::readouts() {
  UiContext& c = *ctx_;
  if (!c.state.view().readouts) return;
  const FigureCache::Readouts& built = c.figures.readouts(c.state, c.tr);
  readouts_ = &built.rows;
  if (!built.error.empty()) wrapped_colored(c.pal.error, built.error);
  if (readouts_->empty()) return;
  if (built.updating()) ImGui::TextDisabled("%s", c.tr("ui.lesson.updating").c_str());
  // Every row in the page itself: a scroll area inside the scrolling page
  // would hide the last readouts (guided steps fold the readouts instead).
  const ImGuiTableFlags flags = ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg;
  if (ImGui::BeginTable("##readouts", 3, flags)) {
    ImGui::TableSetupColumn("mark", ImGuiTableColumnFlags_WidthFixed);
    // Both texts wrap in their columns, so a long claim never hides its value.
    ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 2.0f);
    for (const Readout& r : *readouts_) {
      if (r.notes != notes_readouts_) continue;
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      if (r.holds) {
        ImGui::PushStyleColor(ImGuiCol_Text, *r.holds ? c.pal.ok : c.pal.error);
        ImGui::TextUnformatted(*r.holds ? "✓" : "✗");
        ImGui::PopStyleColor();
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s", c.tr(*r.holds ? "ui.readout.holds" : "ui.readout.fails").c_str());
      }
      ImGui::TableSetColumnIndex(1);
      wrapped_text(r.label);
      ImGui::TableSetColumnIndex(2);
      wrapped_text(r.value);
    }
    ImGui::EndTable();
  }
}

void LessonView::table(std::string_view id, float height) { tables_.draw(*ctx_, id, height); }

bool LessonView::shows_control(std::string_view key) const { return ctx_->state.step_shows(key); }

void LessonView::notes_check() {
  UiContext& c = *ctx_;
  const std::string key = std::string(c.state.view().id) + ".notes_check";
  const bool any_readout =
      readouts_ && std::any_of(readouts_->begin(), readouts_->end(), [](const Readout& r) { return r.notes; });
  if (!c.tr.has(key) && !any_readout) return;
  if (!ImGui::CollapsingHeader(c.tr("ui.steps.notes_check").c_str())) return;
  // Whose notes, and that a learner does not need them: said before any correction.
  paragraph("ui.steps.notes_intro");
  ImGui::Spacing();
  paragraph(key);
  if (!any_readout) return;
  notes_readouts_ = true;
  readouts();
  notes_readouts_ = false;
}

// [SECTION] The default layout

void LessonView::default_layout() {
  UiContext& c = *ctx_;
  const ViewDef& v = c.state.view();
  if (c.narrow && !c.lecture) {
    narrow_figures();
    return;
  }
  if (!c.lecture) {
    paragraph(std::string(v.id) + ".text");
    ImGui::Spacing();
    readouts();
  }
  const int n = static_cast<int>(v.figures.size());
  if (c.lecture && n > 1) {
    // On slides one figure at a time fills the screen; tabs switch between them.
    if (ImGui::BeginTabBar("##lecture-figures", ImGuiTabBarFlags_FittingPolicyResizeDown)) {
      for (const FigureDef& f : v.figures) {
        const std::string title = figure_title(v, f.id);
        if (ImGui::BeginTabItem((title + "###" + std::string(f.id)).c_str())) {
          const float below = v.readouts ? ImGui::GetFrameHeightWithSpacing() : 0;
          const ImVec2 avail = ImGui::GetContentRegionAvail();
          figure(f.id, {avail.x, std::max(200.0f * c.scale, avail.y - below)});
          ImGui::EndTabItem();
        }
      }
      ImGui::EndTabBar();
    }
  } else if (n > 0) {
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const int cols = (n > 1 && avail.x >= 980 * c.scale) ? 2 : 1;
    const int rows = (n + cols - 1) / cols;
    const float w = std::floor((avail.x - spacing * static_cast<float>(cols - 1)) / static_cast<float>(cols));
    float h = w * 0.6f;
    if (c.lecture) {
      const float below = v.readouts ? ImGui::GetFrameHeightWithSpacing() : 0;  // the checks' header
      h = std::max(220.0f * c.scale,
                   (avail.y - below - ImGui::GetStyle().ItemSpacing.y * static_cast<float>(rows)) / static_cast<float>(rows));
    } else if (rows == 1) {
      // One row: use the height there is, within a readable aspect.
      h = std::clamp(avail.y - ImGui::GetStyle().ItemSpacing.y, std::max(300.0f * c.scale, w * 0.42f), std::max(300.0f * c.scale, w * 0.7f));
    }
    for (int i = 0; i < n; ++i) {
      if (i % cols != 0) ImGui::SameLine();
      figure(v.figures[static_cast<std::size_t>(i)].id, {w, h});
    }
  }
  if (c.lecture) {
    // On slides the figures come first; the checks are one click away.
    if (v.readouts && ImGui::CollapsingHeader(c.tr("ui.lesson.readouts").c_str())) readouts();
    return;
  }
  for (std::string_view id : v.tables) {
    ImGui::Spacing();
    const std::string header = c.tr.format("ui.table.header", {{"id", std::string(id)}}) + "##" + std::string(id);
    if (ImGui::CollapsingHeader(header.c_str())) table(id);
  }
}

}  // namespace poslab::app::ui
