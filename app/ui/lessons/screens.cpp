// Lessons that draw their own screen. A lesson author writes
// ui/lessons/<view>_lesson.cpp with a function `void draw_<view>_lesson(LessonUi& ui)`
// (composing ui.figure(), ui.plot(), ui.table(), ui.readouts(), ui.paragraph(),
// ui.default_layout() and plain ImGui calls), declares it below and adds one
// row to the list. Lessons not listed get LessonUi::default_layout().

#include <vector>

#include "app/ui/lesson.hpp"

namespace poslab::app::ui {

// Declarations of the lesson screens (one line per lesson file), e.g.
// void draw_rope_2d_lesson(LessonUi& ui);
void draw_rope_2d_lesson(LessonUi& ui);
void draw_rope_lesson(LessonUi& ui);

std::span<const LessonScreen> lesson_screens() {
  static const std::vector<LessonScreen> screens = {
      {"rope-2d", draw_rope_2d_lesson, {"plane"}},
      {"rope", draw_rope_lesson, {"dials"}},
  };
  return screens;
}

const LessonScreen* lesson_screen(std::string_view view_id) {
  for (const LessonScreen& s : lesson_screens())
    if (s.view_id == view_id) return &s;
  return nullptr;
}

}  // namespace poslab::app::ui
