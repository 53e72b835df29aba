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

void light_colors(ImGuiStyle& s) {
  ImGui::StyleColorsLight(&s);
  ImVec4* c = s.Colors;
  c[ImGuiCol_WindowBg] = rgb(0xf6f7f9);
  c[ImGuiCol_ChildBg] = rgb(0xffffff, 0.0f);
  c[ImGuiCol_PopupBg] = rgb(0xffffff);
  c[ImGuiCol_Text] = rgb(0x1d1d1f);
  c[ImGuiCol_TextDisabled] = rgb(0x6b7078);
  c[ImGuiCol_Border] = rgb(0xc9cdd3);
  c[ImGuiCol_FrameBg] = rgb(0xe6e9ee);
  c[ImGuiCol_FrameBgHovered] = rgb(0xd9dee6);
  c[ImGuiCol_FrameBgActive] = rgb(0xcfd6e0);
  c[ImGuiCol_Header] = rgb(0x2f6fd6, 0.18f);
  c[ImGuiCol_HeaderHovered] = rgb(0x2f6fd6, 0.28f);
  c[ImGuiCol_HeaderActive] = rgb(0x2f6fd6, 0.38f);
  c[ImGuiCol_SliderGrab] = rgb(0x2f6fd6);
  c[ImGuiCol_SliderGrabActive] = rgb(0x1f56b0);
  c[ImGuiCol_CheckMark] = rgb(0x1f56b0);
  c[ImGuiCol_Button] = rgb(0xe1e5eb);
  c[ImGuiCol_ButtonHovered] = rgb(0xcfd7e3);
  c[ImGuiCol_ButtonActive] = rgb(0xbfcbdc);
  c[ImGuiCol_MenuBarBg] = rgb(0xeceef2);
}

void dark_colors(ImGuiStyle& s) {
  ImGui::StyleColorsDark(&s);
  ImVec4* c = s.Colors;
  c[ImGuiCol_WindowBg] = rgb(0x1b1c1f);
  c[ImGuiCol_ChildBg] = rgb(0x000000, 0.0f);
  c[ImGuiCol_PopupBg] = rgb(0x25262a);
  c[ImGuiCol_Text] = rgb(0xe8eaed);
  c[ImGuiCol_TextDisabled] = rgb(0x9aa0a6);
  c[ImGuiCol_Border] = rgb(0x3a3d42);
  c[ImGuiCol_FrameBg] = rgb(0x2c2e33);
  c[ImGuiCol_FrameBgHovered] = rgb(0x363940);
  c[ImGuiCol_FrameBgActive] = rgb(0x40444c);
  c[ImGuiCol_Header] = rgb(0x4d8ff0, 0.22f);
  c[ImGuiCol_HeaderHovered] = rgb(0x4d8ff0, 0.32f);
  c[ImGuiCol_HeaderActive] = rgb(0x4d8ff0, 0.42f);
  c[ImGuiCol_SliderGrab] = rgb(0x6aa3f5);
  c[ImGuiCol_SliderGrabActive] = rgb(0x8db8f7);
  c[ImGuiCol_CheckMark] = rgb(0x8db8f7);
  c[ImGuiCol_Button] = rgb(0x33363c);
  c[ImGuiCol_ButtonHovered] = rgb(0x3f434a);
  c[ImGuiCol_ButtonActive] = rgb(0x4a4f57);
  c[ImGuiCol_MenuBarBg] = rgb(0x222327);
  c[ImGuiCol_TitleBg] = rgb(0x222327);
  c[ImGuiCol_TitleBgActive] = rgb(0x2a2c31);
}

void projector_colors(ImGuiStyle& s) {
  light_colors(s);
  ImVec4* c = s.Colors;
  c[ImGuiCol_WindowBg] = rgb(0xffffff);
  c[ImGuiCol_PopupBg] = rgb(0xffffff);
  c[ImGuiCol_Text] = rgb(0x000000);
  c[ImGuiCol_TextDisabled] = rgb(0x303134);
  c[ImGuiCol_Border] = rgb(0x000000, 0.85f);
  c[ImGuiCol_FrameBg] = rgb(0xffffff);
  c[ImGuiCol_FrameBgHovered] = rgb(0xe8eefb);
  c[ImGuiCol_FrameBgActive] = rgb(0xd6e2f8);
  c[ImGuiCol_SliderGrab] = rgb(0x0b3d91);
  c[ImGuiCol_SliderGrabActive] = rgb(0x000000);
  c[ImGuiCol_CheckMark] = rgb(0x000000);
  c[ImGuiCol_Button] = rgb(0xffffff);
  c[ImGuiCol_ButtonHovered] = rgb(0xe8eefb);
  c[ImGuiCol_ButtonActive] = rgb(0xd6e2f8);
  c[ImGuiCol_Header] = rgb(0x0b3d91, 0.16f);
  c[ImGuiCol_HeaderHovered] = rgb(0x0b3d91, 0.26f);
  c[ImGuiCol_HeaderActive] = rgb(0x0b3d91, 0.36f);
  s.FrameBorderSize = 1.5f;
  s.WindowBorderSize = 1.5f;
  s.GrabMinSize = 18;
}

}  // namespace

void apply_style(std::string_view name, float scale) {
  ImGuiStyle s;
  common_sizes(s);
  if (name == "light") light_colors(s);
  else if (name == "projector") projector_colors(s);
  else dark_colors(s);
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
