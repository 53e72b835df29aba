#pragma once
// The deck editor (Ctrl+D): a teacher prepares a lecture as a list of scenes
// (docs/DECKS.md) — "Add current view as a scene" captures the lesson, its
// parameters, the figure in front, the lecture sliders and the animation,
// with a short caption proposed (the step's first sentence); each scene's
// caption is edited in place (English and Chinese), and under "More" what
// else a deck file can hold: a question and its answer, what the answer
// shows (the current view captured as the reveal), speaker notes, and the
// animation; scenes are reordered, deleted, clicked to show; the deck is
// saved and opened as a file; "Present" starts lecture mode at the first
// scene; "Handout" writes the PDF `poslab deck export` writes. A deck that
// could not be opened (`gui --deck` with a typo in the file) is said in a
// window of its own, with a button to read the file again.

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
  /// The scene's question, answer, reveal, notes and animation (under "More").
  void scene_details(UiContext& ctx, int index);

  std::string title_en_, title_zh_;
};

/// The first sentence of `text` (to its first ". ", "。", "! ", "? " …), cut
/// at a word near 140 characters with "…" when even that is longer: what a
/// caption proposed from a guided step's paragraph keeps.
std::string first_sentence(const std::string& text);

}  // namespace poslab::app::ui
