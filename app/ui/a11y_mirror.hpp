#pragma once
// The page's accessible mirror (issue 31, point 4): what the ImGui canvas
// shows, as data a web page turns into real DOM — the lesson and step as
// text (caption, question, the answer once revealed), the step's buttons,
// the sliders and choices of the step with their values, and the figure in
// front with its description (Figure::description) for an ARIA live region.
// A screen reader reads nothing inside a canvas, and ImGui's own keyboard
// navigation would move a highlight the reader cannot announce; so the page
// (web/page.js, the a11y block) draws this as HTML controls and drives the
// App back through a11y_set_* (app/platform/web/main_web.cpp exports them).

#include <string>
#include <string_view>

namespace poslab::app::ui {

class App;

/// The mirror as JSON: {"lang", "lesson", "view", "step", "steps",
/// "indicator", "caption", "question", "answer", "revealed", "hidden",
/// "labels": {…}, "figure": {"id", "title", "description", "updating"},
/// "figures": [{"id", "title"}], "controls": [{"key", "name", "unit",
/// "type", "value", "text", "position", "positions", "min_text",
/// "max_text", "choices": [{"word", "label"}], "step": true|false}]}.
/// Texts are plain (formulas written out), in the App's language.
std::string a11y_state(App& app);

/// Moves numeric slider `key` to `position` of its 0..positions range (the
/// slider's own mapping: log, powers of two), snapped as a drag is. Returns
/// "" or the refusal in the App's language.
std::string a11y_set_position(App& app, std::string_view key, double position);

/// Sets `key` from text as typed (a choice's word, "true"/"false"). Returns
/// "" or the refusal.
std::string a11y_set_text(App& app, std::string_view key, std::string_view text);

/// "prev", "next", "all" (the whole lesson), "step:N" (0-based),
/// "figure:ID". Returns "" or the refusal.
std::string a11y_action(App& app, std::string_view action);

/// Positions of a numeric slider in the mirror (an <input type=range>'s
/// max): arrows move one position, PageUp/PageDown a tenth of them.
inline constexpr int kA11yPositions = 1000;

}  // namespace poslab::app::ui
