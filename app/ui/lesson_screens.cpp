// Lessons that draw their own screen: the POSLAB_LESSON_WITH_SCREEN lines of
// lessons/lessons.inc. Such a lesson's folder has a screen.cpp defining
// `LessonScreen <name>_screen()` (its view id, a draw function composing
// ui.figure(), ui.plot(), ui.table(), ui.readouts(), ui.paragraph(),
// ui.default_layout() and plain ImGui calls, and the figures it replaces).
// Lessons with no screen get LessonUi::default_layout().

#include <vector>

#include "app/ui/lesson_ui.hpp"

namespace poslab::app::ui {

#define POSLAB_LESSON(name)
#define POSLAB_LESSON_WITH_SCREEN(name) LessonScreen name##_screen();
#include "app/lessons/lessons.inc"
#undef POSLAB_LESSON
#undef POSLAB_LESSON_WITH_SCREEN

std::span<const LessonScreen> lesson_screens() {
  static const std::vector<LessonScreen> screens = {
#define POSLAB_LESSON(name)
#define POSLAB_LESSON_WITH_SCREEN(name) name##_screen(),
#include "app/lessons/lessons.inc"
#undef POSLAB_LESSON
#undef POSLAB_LESSON_WITH_SCREEN
  };
  return screens;
}

const LessonScreen* lesson_screen(std::string_view view_id) {
  for (const LessonScreen& s : lesson_screens())
    if (s.view_id == view_id) return &s;
  return nullptr;
}

}  // namespace poslab::app::ui
