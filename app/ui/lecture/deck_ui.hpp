#pragma once
// The deck editor (Ctrl+D): a teacher prepares a lecture as a list of scenes
// (docs/DECKS.md) — "Add current view as a scene" captures the lesson, its
// parameters, the figure in front, the lecture sliders and the animation;
// each scene's caption is edited in place (English and Chinese); scenes are
// reordered, deleted, clicked to show; the deck is saved and opened as a
// file; "Present" starts lecture mode at the first scene; "Handout" writes
// the PDF `poslab deck export` writes.

#include <string>

#include "app/ui/ui_context.hpp"

namespace poslab::app::ui {

class App;

class DeckUi {
 public:
  bool open = false;
  void draw(UiContext& ctx, App& app);
  /// Captures the current view as a new scene after the one shown (or at
  /// the end); returns its index. The sliders are the lecture's for the lesson.
  int add_current_view(UiContext& ctx);
  /// The deck's handout (one page per scene) into the export folder as
  /// <deck>-handout.pdf, with a toast; returns the path ("" on failure).
  std::string export_handout_pdf(UiContext& ctx);

 private:
  std::string title_en_, title_zh_;
};

}  // namespace poslab::app::ui
