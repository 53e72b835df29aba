#include "app/ui/ui_context.hpp"

#include <imgui.h>

#include <cfloat>

#include "app/common/fonts.hpp"

namespace poslab::app::ui {

std::string lesson_title(const Translator& tr, std::string_view view_id) {
  const std::string key = std::string(view_id) + ".title";
  const std::string& t = tr(key);
  return t == key ? std::string(view_id) : t;
}

namespace {

/// The code point at s[i] and its length in bytes (invalid bytes: one byte each).
char32_t decode(std::string_view s, std::size_t i, std::size_t& n) {
  const auto b = static_cast<unsigned char>(s[i]);
  n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
  if (i + n > s.size()) n = 1;
  char32_t c = n == 1 ? b : b & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return c;
}

bool closing(char32_t c) {
  return std::u32string_view(U"，。、；：？！）」』”’》】,.;:?!)").find(c) != std::u32string_view::npos;
}
bool opening(char32_t c) { return std::u32string_view(U"（「『“‘《【(").find(c) != std::u32string_view::npos; }

/// One line of `text` (no '\n') broken greedily at `width`.
void wrap_line(std::string_view line, float width) {
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  auto measure = [&](std::size_t a, std::size_t b) {
    return font->CalcTextSizeA(size, FLT_MAX, 0.0f, line.data() + a, line.data() + b).x;
  };
  std::size_t start = 0, cut = std::string_view::npos, resume = 0;
  float w = 0;
  char32_t prev = 0;
  for (std::size_t i = 0; i < line.size();) {
    std::size_t n = 1;
    const char32_t c = decode(line, i, n);
    // A break may come before c: at a space (dropped), or between characters
    // when either side is CJK, unless c closes or prev opens.
    if (i > start) {
      if (c == U' ') cut = i, resume = i + 1;
      else if ((is_cjk(c) || is_cjk(prev)) && prev != U' ' && !closing(c) && !opening(prev)) cut = i, resume = i;
    }
    const float cw = measure(i, i + n);
    if (w + cw > width && cut != std::string_view::npos && cut > start) {
      ImGui::TextUnformatted(line.data() + start, line.data() + cut);
      start = resume;
      cut = std::string_view::npos;
      w = start < i ? measure(start, i) : 0;
    }
    w += cw;
    prev = c;
    i += n;
  }
  ImGui::TextUnformatted(line.data() + start, line.data() + line.size());
}

}  // namespace

void wrapped_text(std::string_view text, float wrap_pos_x) {
  bool cjk = false;
  for (const TextRun& r : split_cjk_runs(text)) cjk = cjk || r.cjk;
  if (!cjk) {
    ImGui::PushTextWrapPos(wrap_pos_x);
    ImGui::TextUnformatted(text.data(), text.data() + text.size());
    ImGui::PopTextWrapPos();
    return;
  }
  const float width = wrap_pos_x > 0 ? wrap_pos_x - ImGui::GetCursorPosX() : ImGui::GetContentRegionAvail().x;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    wrap_line(text.substr(start, end - start), width);
    start = end + 1;
  }
}

void help_marker(const char* text) {
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
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
