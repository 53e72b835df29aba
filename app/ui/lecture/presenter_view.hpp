#pragma once
// The presenter view (issue 29, as PowerPoint's and Keynote's): while the
// projector shows the figure, the lecturer's own screen shows the scene now
// and the one that comes next (the answer, when a question is still open),
// the scene's speaker notes, the answer before it is revealed, the clock and
// the time since the lecture started. It is a second window (the platform's,
// on another screen when there is one) drawn by its own ImGui context that
// shares the App's font atlas; its keys go to the App's one key queue, so
// the clicker drives both. Its buttons queue the same actions the keys do.

#include <imgui.h>

#include <string>
#include <vector>

#include "app/ui/lecture/lecture_state.hpp"
#include "app/ui/lecture/scene_previews.hpp"
#include "app/ui/shortcuts.hpp"
#include "app/ui/ui_context.hpp"

namespace poslab::app::ui {

class PresenterView {
 public:
  PresenterView() = default;
  ~PresenterView();
  PresenterView(const PresenterView&) = delete;
  PresenterView& operator=(const PresenterView&) = delete;

  /// Its ImGui context, created on first use with `atlas` (the App's, shared).
  ImGuiContext* context(ImFontAtlas* atlas);
  bool has_context() const { return imgui_ != nullptr; }
  /// Drops the miniatures (before the window whose textures they use goes).
  void release();

  /// What the last frame showed, in words (tests check it blind).
  struct Shown {
    std::string position;  ///< "Scene 3 of 9"
    std::string now;       ///< the current scene's caption (and question)
    std::string next;      ///< the next scene's caption, "the answer", or the end
    std::string notes;     ///< the current scene's speaker notes
    std::string answer;    ///< the answer not revealed yet ("" once shown, or none)
    std::string clock;     ///< "14:05"
    std::string elapsed;   ///< "12:34"
    bool now_drawn = false, next_drawn = false;  ///< the miniatures were drawn
    /// The window's size and where its top line and its buttons end (pixels
    /// from its top-left corner): inside it at any screen size.
    ImVec2 window{0, 0}, top_line_end{0, 0}, buttons_end{0, 0};
  };
  const Shown& shown() const { return shown_; }

  /// Draws the whole view into the current (its own) ImGui context, inside
  /// NewFrame/Render. `laid_out` is the projector's plot size (the
  /// miniatures are laid out as it is); `wall` the wall clock in seconds;
  /// `local_time` the time of day ("14:05"). Buttons append to `actions`.
  void draw(UiContext& ctx, const PlotEnv& env, const LectureState& lecture, ImVec2 laid_out, double wall,
            const std::string& local_time, std::vector<Pressed>& actions);

 private:
  ImGuiContext* imgui_ = nullptr;
  ScenePreviews previews_;
  Shown shown_;
};

/// "12:34" (or "1:02:03" past an hour) for a number of seconds.
std::string elapsed_text(double seconds);

}  // namespace poslab::app::ui
