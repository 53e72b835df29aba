#pragma once
// `poslab gui|screenshot --view --preset --session --set --theme` applied to
// an AppState: checked before any window opens, so bad input exits with
// code 2 and one clear line even without a display.

#include <string>

#include "app/cli/cli.hpp"
#include "app/ui/app_state.hpp"

namespace poslab::app::ui {

/// Applies, in this order: the session file, the preset, the model config
/// (--model: its lesson and params), the view, the step (and its answer with
/// --reveal: refused on a step that asks nothing), the deck (its first
/// scene), the --set assignments (all-or-nothing), the theme. Returns "" or one line
/// naming what is wrong and what is allowed. When the session file cannot be
/// read (missing, a folder, no permission) `*io_failure` is set: that is exit
/// code 1 (I/O), not 2 (bad input).
std::string apply_window_request(AppState& state, const WindowRequest& request, bool* io_failure = nullptr);

/// `request` without its deck (and the --step and --reveal that name the
/// deck's scenes): what `gui` opens when only the deck is bad.
WindowRequest without_deck(WindowRequest request);

/// "sinusoidal, learned, …": the lessons that exist.
std::string known_views();

}  // namespace poslab::app::ui
