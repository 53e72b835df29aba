#pragma once
// The animation controls under the parameters: which numeric parameter to
// play, play/pause, step, speed, loop / back-and-forth / once, and its range.

#include "app/ui/ui_context.hpp"

namespace poslab::app::ui {

void draw_animation_panel(UiContext& ctx);

/// One step of the animation forward (+1) or back (−1), applied to the state.
void step_animation(UiContext& ctx, int direction);

}  // namespace poslab::app::ui
