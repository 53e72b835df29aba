#pragma once
// What lecture mode keeps beside the App's state (issue 29): the blanked
// screen (B black, W white, as PowerPoint), the scene number being typed
// ("5", Enter), the grid of scenes (G), the idle pointer (hidden after
// kPointerIdleSeconds), the lecture's start (the presenter view's elapsed
// time) and whether the presenter view is open.

#include <string>

namespace poslab::app::ui {

enum class Blank { none, black, white };

/// The pointer, its crosshair and its tooltip hide after this long without a move.
inline constexpr double kPointerIdleSeconds = 2.0;
/// "N, Enter" takes at most this many digits (a deck has at most 500 scenes).
inline constexpr std::size_t kMaxTypedDigits = 3;

struct LectureState {
  Blank blank = Blank::none;
  std::string typed;       ///< the digits of "N, Enter" typed so far
  bool grid = false;       ///< the grid of scenes (G) is open
  int grid_pick = 0;       ///< the scene the grid's keys are on, 0-based
  bool grid_scroll = false;  ///< the grid scrolls to grid_pick on its next frame
  double pointer_moved = 0;  ///< wall seconds of the pointer's last move or click
  double started = 0;        ///< wall seconds when lecture mode started (or the timer was reset)
  bool presenter_view = false;  ///< the presenter's own window (V, --presenter)

  /// Lecture mode starts (or stops) at wall-clock second `now`.
  void restart(double now) {
    const bool presenter = presenter_view;
    *this = LectureState{};
    presenter_view = presenter;
    pointer_moved = started = now;
  }
};

}  // namespace poslab::app::ui
