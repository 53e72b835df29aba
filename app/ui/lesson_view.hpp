#pragma once
// The centre of the window: the LessonUi that lesson screens draw with, and
// the default layout (text, readouts, figures in a grid, tables) for lessons
// without a screen of their own (ui/lesson_screens.cpp), and the guided steps.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/common/notation.hpp"
#include "app/model/model_config.hpp"
#include "app/ui/lesson_ui.hpp"
#include "app/ui/table_view.hpp"
#include "app/ui/ui_context.hpp"

namespace poslab::app::ui {

class LessonView final : public LessonUi {
 public:
  /// Draws the current lesson into the current ImGui window (custom screen
  /// or default layout), after a banner when its parameters conflict.
  void draw(UiContext& ctx);

  /// Exports figure `id` of the current lesson in `format` into the export
  /// folder, with a toast. Returns the path written ("" on failure).
  std::string export_figure(UiContext& ctx, std::string_view id, ExportFormat format);

  // ---- LessonUi
  const core::Params& params() const override;
  bool set_param(std::string_view key, const core::ParamValue& value) override;
  const Translator& tr() const override { return ctx_->tr; }
  const ViewDef& view() const override { return ctx_->state.view(); }
  void figure(std::string_view id, ImVec2 size = {0, 0}) override;
  void plot(std::string_view widget_id, const fig::Figure& figure, std::uint64_t version,
            ImVec2 size = {0, 0}) override;
  void table(std::string_view id, float height = 0) override;
  void paragraph(std::string_view key) override;
  void readouts() override;
  void default_layout() override;
  std::uint64_t params_revision() const override { return ctx_->state.revision(); }
  float ui_scale() const override { return ctx_->scale; }
  bool lecture_mode() const override { return ctx_->lecture; }
  void request_redraw() override { ctx_->redraw = true; }
  bool shows_control(std::string_view key) const override;
  bool builds_in_background() const override { return ctx_->figures.background(); }

  TableView& tables() { return tables_; }

  /// The narrow layout (UiContext::narrow): what a step draws after its
  /// words — the sliders the step shows (set by the shell each frame).
  std::function<void()> narrow_sliders;

  /// Figure `id` of the current lesson alone, as a block of `size` (embed
  /// mode: a course page's <iframe>); the conflict banner instead when the
  /// parameters conflict.
  void single_figure(UiContext& ctx, std::string_view id, ImVec2 size);

  /// Lecture mode, figure first: the figures as tabs with their titles (the
  /// one in front selected), the step's or scene's caption and question, and
  /// the figure in front filling the rest of `height` (lecture/lecture.cpp).
  /// `controls` draws on the top line between the tabs and the position.
  void lecture_page(UiContext& ctx, float height, const std::function<void()>& controls = {});
  /// The human title of figure `id` of `view` (tabs, menus): its
  /// "<view>.<id>.title" text, else the title of a built figure, else the id
  /// in words ("score shift").
  std::string figure_title(const ViewDef& view, std::string_view id);
  /// The label of figure `id`'s tab in lecture mode: its "<view>.<id>.tab"
  /// text, else its title's head before a colon, else its title.
  std::string figure_tab(const ViewDef& view, std::string_view id);
  /// Where the last plot was drawn this frame, in screen coordinates (tests
  /// and lecture mode check that the figure fills the screen).
  const ImVec4& last_plot_rect() const { return last_plot_; }
  /// The last figure's whole block: its subtitle and its plot.
  const ImVec4& last_figure_rect() const { return last_figure_; }
  /// How many of the lecture's figure tabs ImGui drew narrower than their
  /// labels (cut with "…") in the last frame.
  int last_tabs_cut() const { return last_tabs_cut_; }
  /// Lecture mode: where we are as the top line showed it last frame ("Scene 3 of 9", "3 / 9").
  const std::string& last_where() const { return last_where_; }
  /// Lecture mode: the step's words stood beside the figure (not above it) last frame.
  bool last_beside() const { return last_beside_; }
  /// Lecture mode: the end of the question (the answer's, once revealed) was
  /// inside the words' column last frame, not scrolled below its edge.
  bool last_words_end_in_view() const { return words_end_in_view_; }
  /// Lecture mode: how far (px) the words beside the figure reached past
  /// their column's right edge last frame (0: none did; a formula is one
  /// unbreakable word, and a long one was cut at the edge).
  float last_words_overflow() const { return words_overflow_; }
  /// Lecture mode: how much (px) of the first line in view in the scrolled
  /// words column was above its top edge last frame (0: a whole line).
  float last_words_top_cut() const { return words_top_cut_; }
  /// The open model's "Layers of this model" as last drawn in its banner
  /// (null before a model with a reading is shown), and the frame it was drawn in.
  const fig::Figure* model_layers_figure() const { return layers_figure_.get(); }
  int model_layers_frame() const { return layers_frame_; }

 private:
  /// Title, subtitle and export button above a plot; returns the plot's size.
  ImVec2 figure_header(const fig::Figure& figure, const std::string& menu_id, ImVec2 size, bool* export_clicked);
  void handle(PlotAction action, std::string_view figure_id);
  /// An animation's axes: held over its sweep while it is on (FigureCache::Entry::hold).
  void hold_axes(FigureCache::Entry& e, const ViewDef& v, const FigureDef& def, ImVec2 size);
  void conflict_banner();
  void model_banner();
  void base_standin_note(const ModelReading& reading);
  /// The lesson without steps: its custom screen or the default layout.
  void whole_page();
  /// A guided step: the step bar, its caption and question, its figure in
  /// front, and the rest of the lesson folded below.
  void step_layout(const Scene& step);
  void step_bar(const Deck& steps);
  /// The narrow layout's step (issue 33): big Back and Next around where we
  /// are, the figure at full width on the first screen, the words, the sliders.
  void narrow_step(const Scene& step);
  void narrow_step_bar(const Deck& steps);
  /// The narrow layout's lesson without steps: its figures as tabs, one at full width.
  void narrow_figures();
  /// The height of a figure block at the cursor in the narrow layout: the
  /// figure's top and bottom on the screen (above the fold), not taller than
  /// its width allows.
  float narrow_figure_height(float width) const;
  /// The folded "Notes check" panel: the lesson's notes_check text and the
  /// readouts that check the notes.
  void notes_check();
  /// A tooltip listing the notation symbols `text` uses and what each means.
  void symbol_tooltip(const std::string& text);

  UiContext* ctx_ = nullptr;
  ImVec4 last_plot_{0, 0, 0, 0};  ///< x0, y0, x1, y1
  ImVec4 last_figure_{0, 0, 0, 0};
  std::string last_tab_front_;    ///< the figure the lecture tabs last showed in front
  int last_tabs_cut_ = 0;
  std::string last_where_;
  bool last_beside_ = false;
  bool words_end_in_view_ = true;
  float words_overflow_ = 0;
  float words_top_cut_ = 0;
  std::string words_scrolled_for_;  ///< lecture mode: the scene and reveal the words column last scrolled for
  int words_scroll_frames_ = 0;     ///< frames the column still follows them
  float words_scroll_set_ = -1;     ///< where it last put the column (-1: nowhere); it follows on while there
  /// Lecture mode: the figure's header takes at least this height (a
  /// revealed answer's figure has another title: the plot stays put).
  float min_header_ = 0;
  /// Lecture mode: the figure's title and subtitle were drawn above the words and the figure (figure_header draws none).
  bool header_above_ = false;
  float lecture_controls_w_ = 0;  ///< the top line's controls, last frame
  std::map<std::string, std::string, std::less<>> titles_;  ///< built titles, by "lang/view/figure"
  TableView tables_;
  std::map<std::string, std::unique_ptr<PlotWidget>, std::less<>> custom_plots_;
  /// The rows last drawn, kept by the figure cache (no copy per frame).
  const std::vector<Readout>* readouts_ = nullptr;
  bool notes_readouts_ = false;
  std::vector<NotationEntry> notation_;  ///< the card, read once for the tooltips
  bool words_revealed_ = false;  ///< the step words_step_'s answer was shown last frame (scrolled to once)
  int words_step_ = -1;
  /// The height a lesson's step controls took last frame (the lab's Train
  /// line wraps to two lines), for the view `controls_view_`.
  float controls_h_ = 0;
  std::string controls_view_;
  bool words_scroll_ = false;
  /// figure() draws the figure's frame only (a step's hide_figure before its answer).
  bool hide_figure_data_ = false;  ///< the step's words box scrolls to its end (the answer)
  bool notation_loaded_ = false;  ///< readouts() draws the notes' checks (true) or the lesson's own
  /// The open model's "Layers of this model", built once per model and language.
  std::unique_ptr<fig::Figure> layers_figure_;
  std::uint64_t layers_key_ = 0;
  int layers_frame_ = -1;  ///< ImGui's frame count when the banner last drew it
  /// The narrow layout: the font scale a step's words need to fit the
  /// column (a formula is one unbreakable word), by view, step, answer, language and width.
  std::map<std::string, float, std::less<>> words_scale_;
  /// The narrow layout's step: the view, step and reveal its figure tabs
  /// were last drawn for (a new one selects the step's own figure again).
  std::string narrow_tabs_for_;
};

}  // namespace poslab::app::ui
