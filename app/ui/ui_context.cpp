#include "app/ui/ui_context.hpp"

#include <imgui.h>

#include <cfloat>

#include "app/common/text_wrap.hpp"

namespace poslab::app::ui {

std::string lesson_title(const Translator& tr, std::string_view view_id) {
  const std::string key = std::string(view_id) + ".title";
  const std::string& t = tr(key);
  return t == key ? std::string(view_id) : t;
}

namespace {

/// One line of `text` (no '\n') broken at `width` (app/common/text_wrap.hpp).
void draw_wrapped_line(std::string_view line, float width) {
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  auto measure = [&](std::string_view piece) {
    return font->CalcTextSizeA(size, FLT_MAX, 0.0f, piece.data(), piece.data() + piece.size()).x;
  };
  for (const auto& [a, b] : wrap_line(line, width, measure)) ImGui::TextUnformatted(line.data() + a, line.data() + b);
}

}  // namespace

void wrapped_text(std::string_view text, float wrap_pos_x) {
  // Never ImGui's own wrapping: it breaks after '.' and ',' inside a word, so
  // "0.894427" or "500,000" could end one line and start the next.
  const float width = wrap_pos_x > 0 ? wrap_pos_x - ImGui::GetCursorPosX() : ImGui::GetContentRegionAvail().x;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    draw_wrapped_line(text.substr(start, end - start), width);
    start = end + 1;
  }
}

float wrapped_height(ImFont* font, std::string_view text, float width) {
  if (font) ImGui::PushFont(font);
  ImFont* f = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  auto measure = [&](std::string_view piece) {
    return f->CalcTextSizeA(size, FLT_MAX, 0.0f, piece.data(), piece.data() + piece.size()).x;
  };
  std::size_t lines = 0, start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines += wrap_line(text.substr(start, end - start), width, measure).size();
    start = end + 1;
  }
  const float h = static_cast<float>(lines) * ImGui::GetTextLineHeight() +
                  static_cast<float>(lines > 0 ? lines - 1 : 0) * ImGui::GetStyle().ItemSpacing.y;
  if (font) ImGui::PopFont();
  return text.empty() ? 0.0f : h;
}

void help_marker(const char* text) {
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    // Above the marker, not under the mouse: a parameter's help would cover
    // its slider and the value on it (the line below the marker).
    // (Where there is room above it; else ImGui's place beside the mouse.)
    const ImVec2 at = ImGui::GetItemRectMin();
    const float tall = wrapped_height(nullptr, text, ImGui::GetFontSize() * 24.0f) + 2 * ImGui::GetStyle().WindowPadding.y;
    if (at.y - ImGui::GetStyle().ItemSpacing.y - tall >= ImGui::GetMainViewport()->Pos.y)
      ImGui::SetNextWindowPos({at.x, at.y - ImGui::GetStyle().ItemSpacing.y}, ImGuiCond_Always, {0.0f, 1.0f});
    ImGui::BeginTooltip();
    wrapped_text(text, ImGui::GetFontSize() * 24.0f);
    ImGui::EndTooltip();
  }
}

void wrapped_colored(const ImVec4& color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  wrapped_text(text);
  ImGui::PopStyleColor();
}

}  // namespace poslab::app::ui
