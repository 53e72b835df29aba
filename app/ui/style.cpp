#include "app/ui/style.hpp"

namespace poslab::app::ui {

namespace {

ImVec4 rgb(unsigned hex, float a = 1.0f) {
  return {((hex >> 16) & 0xff) / 255.0f, ((hex >> 8) & 0xff) / 255.0f, (hex & 0xff) / 255.0f, a};
}

void common_sizes(ImGuiStyle& s) {
  s.WindowPadding = {10, 10};
  s.FramePadding = {7, 4};
  s.ItemSpacing = {8, 6};
  s.ItemInnerSpacing = {6, 4};
  s.ScrollbarSize = 13;
  s.GrabMinSize = 12;
  s.WindowRounding = 4;
  s.ChildRounding = 4;
  s.FrameRounding = 4;
  s.PopupRounding = 4;
  s.GrabRounding = 3;
  s.TabRounding = 4;
  s.WindowBorderSize = 1;
  s.FrameBorderSize = 0;
  s.IndentSpacing = 16;
}

/// A colour of one theme: RGB and alpha, or `kBase` = the colour ImGui's base
/// style gives (StyleColorsLight for light and projector, StyleColorsDark for dark).
struct Shade {
  unsigned hex = 0;
  float alpha = 1.0f;
  bool base = false;
};
constexpr Shade kBase{0, 1.0f, true};

/// The themes side by side: one row per ImGui colour they set.
struct ColourRow {
  ImGuiCol colour;
  Shade light, dark, projector;
};

constexpr ColourRow kColours[] = {
    // ImGui colour             light               dark                projector (black on white)
    {ImGuiCol_WindowBg,         {0xf6f7f9},         {0x1b1c1f},         {0xffffff}},
    {ImGuiCol_ChildBg,          {0xffffff, 0.0f},   {0x000000, 0.0f},   {0xffffff, 0.0f}},
    {ImGuiCol_PopupBg,          {0xffffff},         {0x25262a},         {0xffffff}},
    {ImGuiCol_Text,             {0x1d1d1f},         {0xe8eaed},         {0x000000}},
    {ImGuiCol_TextDisabled,     {0x6b7078},         {0x9aa0a6},         {0x303134}},
    {ImGuiCol_Border,           {0xc9cdd3},         {0x3a3d42},         {0x000000, 0.85f}},
    {ImGuiCol_FrameBg,          {0xe6e9ee},         {0x2c2e33},         {0xffffff}},
    {ImGuiCol_FrameBgHovered,   {0xd9dee6},         {0x363940},         {0xe8eefb}},
    {ImGuiCol_FrameBgActive,    {0xcfd6e0},         {0x40444c},         {0xd6e2f8}},
    {ImGuiCol_Header,           {0x2f6fd6, 0.18f},  {0x4d8ff0, 0.22f},  {0x0b3d91, 0.16f}},
    {ImGuiCol_HeaderHovered,    {0x2f6fd6, 0.28f},  {0x4d8ff0, 0.32f},  {0x0b3d91, 0.26f}},
    {ImGuiCol_HeaderActive,     {0x2f6fd6, 0.38f},  {0x4d8ff0, 0.42f},  {0x0b3d91, 0.36f}},
    {ImGuiCol_SliderGrab,       {0x2f6fd6},         {0x6aa3f5},         {0x0b3d91}},
    {ImGuiCol_SliderGrabActive, {0x1f56b0},         {0x8db8f7},         {0x000000}},
    {ImGuiCol_CheckMark,        {0x1f56b0},         {0x8db8f7},         {0x000000}},
    {ImGuiCol_Button,           {0xe1e5eb},         {0x33363c},         {0xffffff}},
    {ImGuiCol_ButtonHovered,    {0xcfd7e3},         {0x3f434a},         {0xe8eefb}},
    {ImGuiCol_ButtonActive,     {0xbfcbdc},         {0x4a4f57},         {0xd6e2f8}},
    {ImGuiCol_MenuBarBg,        {0xeceef2},         {0x222327},         {0xeceef2}},
    {ImGuiCol_TitleBg,          kBase,              {0x222327},         kBase},
    {ImGuiCol_TitleBgActive,    kBase,              {0x2a2c31},         kBase},
};

}  // namespace

void apply_style(std::string_view name, float scale) {
  ImGuiStyle s;
  common_sizes(s);
  const bool light = name == "light", projector = name == "projector";  // anything else: dark
  if (light || projector) ImGui::StyleColorsLight(&s);
  else ImGui::StyleColorsDark(&s);
  const Shade ColourRow::*theme = light ? &ColourRow::light : projector ? &ColourRow::projector : &ColourRow::dark;
  for (const ColourRow& row : kColours) {
    const Shade& shade = row.*theme;
    if (!shade.base) s.Colors[row.colour] = rgb(shade.hex, shade.alpha);
  }
  if (projector) {  // strong borders, larger grabs
    s.FrameBorderSize = 1.5f;
    s.WindowBorderSize = 1.5f;
    s.GrabMinSize = 18;
  }
  s.ScaleAllSizes(scale);
  ImGui::GetStyle() = s;
}

Palette palette(std::string_view name) {
  if (name == "dark")
    return {rgb(0xff7b72), rgb(0x56d364), rgb(0xe3b341), rgb(0x9aa0a6), rgb(0x6aa3f5)};
  if (name == "projector")
    return {rgb(0xb00020), rgb(0x006400), rgb(0x8a5a00), rgb(0x303134), rgb(0x0b3d91)};
  return {rgb(0xc62828), rgb(0x1b7f3a), rgb(0x9a6700), rgb(0x5f6368), rgb(0x1f56b0)};
}

}  // namespace poslab::app::ui
