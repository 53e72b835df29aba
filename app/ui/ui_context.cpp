#include "app/ui/ui_context.hpp"

#include <imgui.h>

#include <cfloat>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "app/common/text_wrap.hpp"
#include "app/plot/formula.hpp"
#include "app/ui/imgui_painter.hpp"

namespace poslab::app::ui {

void note_item(UiContext& ctx, std::string_view kind, std::string_view id) {
  if (!ctx.laid_out || !ctx.narrow) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  ctx.laid_out->push_back({std::string(kind), std::string(id), {a.x, a.y, b.x, b.y}});
}

std::string lesson_title(const Translator& tr, std::string_view view_id) {
  const std::string key = std::string(view_id) + ".title";
  const std::string& t = tr(key);
  return t == key ? std::string(view_id) : t;
}

namespace {

/// The faces text is measured and drawn in: the App's (bind_ui_fonts), or the
/// current font for every size when none is bound (a test's bare context).
UiFonts text_fonts() {
  if (const UiFonts* f = bound_ui_fonts(); f && f->regular) return *f;
  UiFonts f;
  f.regular = f.small = f.bold = f.title = ImGui::GetFont();
  f.size = ImGui::GetFontSize();
  return f;
}

/// A line of words and formulas (plot/formula.hpp), painted in the current
/// font, size and text colour with the figures' ImGui painter.
class RichLinePainter {
 public:
  RichLinePainter()
      : fonts_(text_fonts()), painter_(recording_, fonts_, sink_, slots_, 1.0) {
    const ImFont* f = ImGui::GetFont();
    const bool bold = f == fonts_.bold || f == fonts_.title || f == fonts_.bold_small || f == fonts_.bold_script;
    const ImVec4 c = ImGui::ColorConvertU32ToFloat4(ImGui::GetColorU32(ImGuiCol_Text));
    style_ = fig::TextStyle{ImGui::GetFontSize(), bold, fig::Color{c.x, c.y, c.z, c.w}};
  }

  float width(std::string_view piece) { return static_cast<float>(fig::rich_measure(painter_, piece, style_).w); }

  /// The line's height: the font's, or more when a formula reaches higher or lower.
  float height(std::string_view piece, float width) {
    fig::TextStyle st = style_;
    const fig::RichLine line = fitted(piece, width, st);
    return std::max(ImGui::GetTextLineHeight(), static_cast<float>(line.box.ascent + line.box.descent));
  }

  /// Draws the line at the cursor as one item (its baseline as low as its
  /// tallest formula needs).
  void draw(std::string_view piece, float width) {
    fig::TextStyle st = style_;
    const fig::RichLine line = fitted(piece, width, st);
    recording_.clear();
    fig::draw_rich(painter_, {0, line.box.ascent}, line, st, fig::Anchor::left, fig::VAnchor::baseline);
    replay(recording_, ImGui::GetWindowDrawList(), ImGui::GetCursorScreenPos(), sink_);
    const auto h = std::max(ImGui::GetTextLineHeight(), static_cast<float>(line.box.ascent + line.box.descent));
    ImGui::Dummy({static_cast<float>(line.box.advance), h});
  }

 private:
  /// The line laid out in `st`, made smaller (down to 60 %) when it is wider
  /// than `width`: a formula is one unbreakable word, and a long one alone on
  /// its line ran past the column's edge, cut there (rope's rotate_half(q) in
  /// lecture mode at 1024×768).
  fig::RichLine fitted(std::string_view piece, float width, fig::TextStyle& st) {
    fig::RichLine line = fig::layout_rich(painter_, piece, st);
    if (width > 0 && line.box.advance > width) {
      st.size *= std::max(0.6, static_cast<double>(width) / line.box.advance * 0.98);
      line = fig::layout_rich(painter_, piece, st);
    }
    return line;
  }

  UiFonts fonts_;
  FigureRecording recording_;
  NullHeatmapSink sink_;
  std::vector<std::uint32_t> slots_;
  ImGuiPainter painter_;
  fig::TextStyle style_;
};

/// The width of `piece` in the current font, through `rich` when it holds markup.
float piece_width(std::string_view piece, std::optional<RichLinePainter>& rich) {
  if (fig::has_markup(piece)) {
    if (!rich) rich.emplace();
    return rich->width(piece);
  }
  return ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, 0.0f, piece.data(), piece.data() + piece.size()).x;
}

using Breaks = std::vector<std::pair<std::size_t, std::size_t>>;

/// wrap_line's breaks of `line` at `width` in the current font, remembered:
/// a lesson's paragraphs are drawn every frame, and while a slider is dragged
/// every frame is drawn — measuring each word again was ~2 ms of a frame in
/// the page. Keyed by the ImGui context, the face, its size, the fonts'
/// bake (ui_fonts_generation) and the width; forgotten wholesale past
/// kMaxBreaks lines (a window being resized makes new widths every frame).
/// Only with the App's fonts bound (a bare test context measures each time).
const Breaks& line_breaks(std::string_view line, float width, std::optional<RichLinePainter>& rich) {
  static Breaks scratch;
  auto measure = [&](std::string_view piece) { return piece_width(piece, rich); };
  if (!bound_ui_fonts()) return scratch = wrap_line(line, width, measure);
  constexpr std::size_t kMaxBreaks = 512;
  static std::unordered_map<std::string, Breaks> cache;
  struct Key {
    const void* context;
    const void* font;
    float size, width;
    std::uint64_t generation;
  } k{ImGui::GetCurrentContext(), ImGui::GetFont(), ImGui::GetFontSize(), width, ui_fonts_generation()};
  std::string key(reinterpret_cast<const char*>(&k), sizeof k);
  key.append(line);
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  if (cache.size() >= kMaxBreaks) cache.clear();
  return cache.emplace(std::move(key), wrap_line(line, width, measure)).first->second;
}

std::vector<float>* line_tops = nullptr;  // collect_line_tops

/// One line of `text` (no '\n') broken at `width` (app/common/text_wrap.hpp).
void draw_wrapped_line(std::string_view whole, float width) {
  std::string storage;
  const std::string_view line = breakable_matrix_rows(whole, storage);
  std::optional<RichLinePainter> rich;
  for (const auto& [a, b] : line_breaks(line, width, rich)) {
    const std::string_view piece = line.substr(a, b - a);
    if (line_tops) line_tops->push_back(ImGui::GetCursorPosY());
    if (fig::has_markup(piece)) {
      if (!rich) rich.emplace();  // (the breaks may come from line_breaks' memory, nothing measured)
      rich->draw(piece, width);
    } else {
      ImGui::TextUnformatted(piece.data(), piece.data() + piece.size());
    }
  }
}

}  // namespace

void collect_line_tops(std::vector<float>* sink) { line_tops = sink; }

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
  std::optional<RichLinePainter> rich;
  float h = 0;
  std::size_t lines = 0, start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string storage;
    const std::string_view line = breakable_matrix_rows(text.substr(start, end - start), storage);
    for (const auto& [a, b] : line_breaks(line, width, rich)) {
      const std::string_view piece = line.substr(a, b - a);
      if (fig::has_markup(piece) && !rich) rich.emplace();
      h += rich && fig::has_markup(piece) ? rich->height(piece, width) : ImGui::GetTextLineHeight();
      ++lines;
    }
    start = end + 1;
  }
  h += static_cast<float>(lines > 0 ? lines - 1 : 0) * ImGui::GetStyle().ItemSpacing.y;
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
