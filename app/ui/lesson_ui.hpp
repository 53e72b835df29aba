#pragma once
// [SECTION] What a lesson's screen can use.
//
// The shell (ui/app.*) owns the window: the lesson list on the left, the
// parameter panel on the right (built from ViewDef::keys), the toolbar. The
// centre belongs to the lesson. A lesson with no custom screen gets the
// default layout: its text ("<id>.text"), its readouts, its figures in a grid,
// its tables. A lesson that needs more (rope-2d's draggable canvas, rope's
// clock dials) registers a draw function in ui/lessons/<view>_lesson.cpp and
// composes the same pieces through LessonUi plus plain ImGui calls.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>
#include <string>
#include <string_view>

#include <imgui.h>

#include "app/common/i18n.hpp"
#include "app/lessons/lesson.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::ui {

class LessonUi {
 public:
  virtual ~LessonUi() = default;

  /// The view's parameters with its defaults applied (what the figures use).
  virtual const core::Params& params() const = 0;
  /// Sets a parameter after validation (the shell shows a message and keeps
  /// the old value when invalid; returns false then). Shared keys (d, base…)
  /// change for every lesson.
  virtual bool set_param(std::string_view key, const core::ParamValue& value) = 0;
  virtual const Translator& tr() const = 0;
  virtual const ViewDef& view() const = 0;

  /// The view's figure `id` in the plot widget (hover readout, zoom, pan,
  /// right-click export). size.x <= 0: the available width; size.y <= 0: a
  /// height proportional to the width. The size is the whole block: the
  /// figure's title and subtitle lines above the plot are inside it. The
  /// figure is rebuilt only when a parameter or this size changes.
  virtual void figure(std::string_view id, ImVec2 size = {0, 0}) = 0;
  /// A figure the lesson builds itself (e.g. from a dragged vector), in the
  /// same plot widget. `widget_id` names the widget (unique in the lesson);
  /// `version` must change whenever the figure's content changes — the widget
  /// lays the figure out again only then (e.g. pass params_revision() mixed
  /// with your own state). size as for figure().
  virtual void plot(std::string_view widget_id, const fig::Figure& figure, std::uint64_t version,
                    ImVec2 size = {0, 0}) = 0;
  /// Table `id` at the current parameters, scrollable, with "Copy as
  /// Markdown / LaTeX / CSV" buttons. height <= 0: fit up to a few rows.
  virtual void table(std::string_view id, float height = 0) = 0;
  /// The translated text of `key` as wrapped paragraphs (blank lines split).
  virtual void paragraph(std::string_view key) = 0;
  /// Every readout of the view, each with a check or cross when it proves a claim.
  virtual void readouts() = 0;
  /// The default layout for this view (text, readouts, figures, tables), for
  /// lessons that add something above or below it.
  virtual void default_layout() = 0;

  /// Changes whenever a parameter (or the language) changes: a key for the
  /// lesson's own caches.
  virtual std::uint64_t params_revision() const = 0;

  /// UI scale × the monitor's content scale: multiply sizes in points by it.
  virtual float ui_scale() const = 0;
  virtual bool lecture_mode() const = 0;
  /// Asks for another frame soon (a lesson animating on its own).
  virtual void request_redraw() = 0;
  /// Whether the control of `key` belongs on screen now: always on the whole
  /// lesson page; on a guided step (or deck scene) only when the step shows
  /// that key's slider (or every slider). A lesson's own buttons that set a
  /// key follow this, as the parameter panel does.
  virtual bool shows_control(std::string_view key) const = 0;
  /// Whether slow figures are built on a worker while the frame goes on (the
  /// interactive desktop window); false where a figure is built in place
  /// (screenshots, tests, the browser).
  virtual bool builds_in_background() const { return false; }
};

/// A lesson with its own screen.
struct LessonScreen {
  std::string_view view_id;
  void (*draw)(LessonUi& ui);
  /// Figures of the view this screen shows in another form (e.g. rope-2d's
  /// "plane" as a draggable canvas); they are still exported from the builder.
  std::vector<std::string_view> replaces = {};
  /// Draws only the replaced figure `figure` in its own form, within `size`
  /// (a guided step brings that one figure forward); null = draw the screen.
  void (*draw_replaced)(LessonUi& ui, std::string_view figure, ImVec2 size) = nullptr;
  /// Controls a guided step shows above its figure (e.g. a Shuffle button); may be null.
  void (*step_controls)(LessonUi& ui) = nullptr;
};

/// The screen of a view, or nullptr for the default layout.
const LessonScreen* lesson_screen(std::string_view view_id);

/// Lessons that draw their own screen (the rest use LessonUi::default_layout).
std::span<const LessonScreen> lesson_screens();

}  // namespace poslab::app::ui
