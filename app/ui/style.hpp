#pragma once
// ImGui styles that match the plot themes of fig::Theme: dark, light, and
// "projector" (high contrast light for lecture halls: black on white, strong
// borders, larger grabs). Sizes are scaled by the UI scale × the monitor's
// content scale; fonts are rebuilt at that size separately (font_atlas).

#include <imgui.h>

#include <string_view>

#include "app/plot/render.hpp"

namespace poslab::app::ui {

/// Sets ImGui's style for theme `name` at `scale`.
void apply_style(std::string_view name, float scale);

/// Colours the shell uses besides ImGui's own (messages, checks, crosses).
struct Palette {
  ImVec4 error, ok, warn, muted, accent;
};
Palette palette(std::string_view name);

}  // namespace poslab::app::ui
