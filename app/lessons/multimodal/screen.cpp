// The "multimodal" lesson screen: the grid of patches as a canvas where the
// student clicks or drags the query patch; every patch is coloured by its
// axial 2-D RoPE score against the query (multimodal::grid_scores, from
// core::axial_rope_rotate), so the cross of high scores follows the query and
// keeps its shape. Beside the canvas: the readouts; below: the other figures
// (position ids, sections, reach) and the tables. The canvas only draws.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "app/lessons/multimodal/setting.hpp"
#include "app/plot/figure.hpp"
#include "app/plot/figure_text.hpp"
#include "app/plot/render.hpp"
#include "app/ui/lesson_ui.hpp"

namespace poslab::app::ui {

namespace {

ImU32 colour(fig::Color c, float alpha = 1.0f) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a * alpha)); }

/// Every k-th index is written beside the grid, k in 1, 2, 5, 10, 20, 50, …:
/// the smallest that leaves `extent` pixels for each label on cells `cell` wide.
int label_every(float cell, float extent) {
  for (int k = 1;; k *= 10)
    for (int m : {1, 2, 5})
      if (static_cast<float>(k * m) * cell >= extent || k * m >= 1000) return k * m;
}

/// The room the row and column indices take beside and above the grid.
ImVec2 label_room(const multimodal::Grid& g, float scale) {
  const std::string widest = std::to_string(std::max(g.h, g.w) - 1);
  return {ImGui::CalcTextSize(widest.c_str()).x + 6 * scale, ImGui::GetTextLineHeight() + 2 * scale};
}

/// The grid, `side` pixels on its longer edge (cells are square), its rows
/// numbered on the left and its columns on top (0-based, as row and col are);
/// the labels take label_room() more.
void canvas(LessonUi& ui, float side) {
  const auto& tr = ui.tr();
  const multimodal::Grid g = multimodal::grid(ui.params());
  // The scores change only with the parameters: computed once per change, not per frame.
  static std::uint64_t revision = ~std::uint64_t{0};
  static multimodal::GridScores s;
  if (revision != ui.params_revision() || s.along_rows.size() != g.h || s.along_cols.size() != g.w) {
    s = multimodal::grid_scores(g);
    revision = ui.params_revision();
  }
  const double low = std::min(s.floor(), 1 - 1e-9);
  const float scale = ui.ui_scale();
  const float cell = side / static_cast<float>(std::max(g.h, g.w));
  const ImVec2 size(cell * static_cast<float>(g.w), cell * static_cast<float>(g.h));
  const ImVec2 room = label_room(g, scale);
  const ImVec2 corner = ImGui::GetCursorScreenPos();
  const ImVec2 o(corner.x + room.x, corner.y + room.y);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  {
    // Row and column indices: what the sliders, the tooltip and the hint count.
    const ImU32 muted = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const int every_r = label_every(cell, ImGui::GetTextLineHeight()), every_c = label_every(cell, room.x);
    for (int r = 0; r < g.h; r += every_r) {
      const std::string t = std::to_string(r);
      const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
      dl->AddText(ImVec2(o.x - ts.x - 4 * scale, o.y + (static_cast<float>(r) + 0.5f) * cell - ts.y / 2), muted, t.c_str());
    }
    for (int c = 0; c < g.w; c += every_c) {
      const std::string t = std::to_string(c);
      const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
      dl->AddText(ImVec2(o.x + (static_cast<float>(c) + 0.5f) * cell - ts.x / 2, corner.y), muted, t.c_str());
    }
  }
  ImGui::SetCursorScreenPos(o);
  ImGui::InvisibleButton("##multimodal-grid", ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f)));
  const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  // The pointer may be nowhere (ImGui's -FLT_MAX): clamp in floating point before
  // the cast, which is undefined for values an int cannot hold.
  auto cell_of = [cell](float at) {
    const float v = std::floor(at / cell);
    if (!(v >= 0.0f)) return -1;  // NaN too (a zero-sized cell)
    return v > 1.0e6f ? 1000000 : static_cast<int>(v);
  };
  const int mr = cell_of(mouse.y - o.y), mc = cell_of(mouse.x - o.x);
  const bool inside = mr >= 0 && mr < g.h && mc >= 0 && mc < g.w;
  if (hovered) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  // Click or drag: the query follows the pointer (clamped to the grid while dragging).
  if (active && (ImGui::IsMouseDown(ImGuiMouseButton_Left))) {
    const int r = std::clamp(mr, 0, g.h - 1), c = std::clamp(mc, 0, g.w - 1);
    if (r != g.row || c != g.col || g.clamped) {
      ui.set_param("row", static_cast<double>(r));
      ui.set_param("col", static_cast<double>(c));
    }
  }
  const bool lecture = ui.lecture_mode();
  const bool write = cell >= 34 * scale;
  // Cells smaller than 2 pixels (or more than 128 a side) are drawn in blocks
  // of step × step, each the colour of its first cell: what the pixels show.
  const int step = std::max({1, static_cast<int>(std::ceil(2.0f / cell)), (std::max(g.h, g.w) + 127) / 128});
  for (int r = 0; r < g.h; r += step)
    for (int c = 0; c < g.w; c += step) {
      const ImVec2 a(o.x + c * cell, o.y + r * cell);
      const ImVec2 b(o.x + std::min(c + step, g.w) * cell, o.y + std::min(r + step, g.h) * cell);
      const double v = s.at(g, r, c), t = (v - low) / (1 - low);
      dl->AddRectFilled(a, b, colour(fig::colormap_color(fig::Colormap::magnitude, t)));
      if (!write) continue;
      char buf[16];
      std::snprintf(buf, sizeof buf, "%.2f", v);
      std::string text = buf;
      if (text[0] == '-') text = "−" + text.substr(1);
      const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
      dl->AddText(ImVec2(a.x + (cell - ts.x) / 2, a.y + (cell - ts.y) / 2),
                  t > 0.55 ? IM_COL32(29, 29, 31, 255) : IM_COL32(255, 255, 255, 255), text.c_str());
    }
  // Thin lines between the cells when they are large enough to see them.
  if (step == 1 && cell >= 8 * scale) {
    const ImU32 line = IM_COL32(255, 255, 255, 90);
    for (int r = 1; r < g.h; ++r) dl->AddLine(ImVec2(o.x, o.y + r * cell), ImVec2(o.x + size.x, o.y + r * cell), line);
    for (int c = 1; c < g.w; ++c) dl->AddLine(ImVec2(o.x + c * cell, o.y), ImVec2(o.x + c * cell, o.y + size.y), line);
  }
  // The query patch: a thick dark frame with a light edge (seen on any colour).
  const ImVec2 qa(o.x + g.col * cell, o.y + g.row * cell), qb(qa.x + cell, qa.y + cell);
  const float frame = (lecture ? 4.0f : 3.0f) * scale;
  dl->AddRect(ImVec2(qa.x + frame / 2, qa.y + frame / 2), ImVec2(qb.x - frame / 2, qb.y - frame / 2), IM_COL32(20, 20, 22, 255), 0,
              0, frame);
  dl->AddRect(qa, qb, IM_COL32(255, 255, 255, 230), 0, 0, 1.0f * scale);
  if (hovered && inside) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(tr.format("multimodal.canvas.tip", {{"row", fig::num(mr)}, {"col", fig::num(mc)},
                                                             {"drow", fig::num(g.row - mr)}, {"dcol", fig::num(g.col - mc)},
                                                             {"score", fig::num(s.at(g, mr, mc), 4)}})
                               .c_str());
    ImGui::EndTooltip();
  }
  ImGui::SetCursorScreenPos(ImVec2(corner.x, ImGui::GetCursorScreenPos().y));
  ImGui::PushTextWrapPos(0.0f);  // wrapped in the figure's column (lecture mode cut it)
  ImGui::TextDisabled("%s", tr.format("multimodal.canvas.hint", {{"row", fig::num(g.row)}, {"col", fig::num(g.col)}}).c_str());
  ImGui::PopTextWrapPos();
}

void draw(LessonUi& ui) {
  const auto& tr = ui.tr();
  if (!ui.lecture_mode()) {
    ui.paragraph("multimodal.text");
    ImGui::Spacing();
  }
  const float avail = ImGui::GetContentRegionAvail().x;
  const float side = std::clamp(avail * 0.45f, 220.0f * ui.ui_scale(), 520.0f * ui.ui_scale());
  if (ImGui::BeginTable("##multimodal-top", 2, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("grid", ImGuiTableColumnFlags_WidthFixed, side);
    ImGui::TableSetupColumn("numbers", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", tr("multimodal.grid.title").c_str());  // the column is narrower than the title
    const ImVec2 room = label_room(multimodal::grid(ui.params()), ui.ui_scale());
    canvas(ui, std::max(60.0f, side - std::max(room.x, room.y)));
    ImGui::TableNextColumn();
    ui.readouts();
    ImGui::EndTable();
  }
  ImGui::Spacing();
  const ViewDef& v = ui.view();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const bool two = avail >= 980 * ui.ui_scale();
  const float w = two ? std::floor((avail - spacing) / 2) : avail;
  int shown = 0;
  for (const FigureDef& f : v.figures) {
    if (f.id == "grid-score") continue;
    if (two && shown % 2 == 1) ImGui::SameLine();
    ui.figure(f.id, {w, w * 0.62f});
    ++shown;
  }
  for (std::string_view id : v.tables) {
    ImGui::Spacing();
    const std::string header = tr.format("ui.table.header", {{"id", std::string(id)}}) + "##" + std::string(id);
    if (ImGui::CollapsingHeader(header.c_str())) ui.table(id);
  }
}

/// A guided step showing "grid-score": the canvas alone, as large as the room allows, centred.
void draw_grid(LessonUi& ui, std::string_view, ImVec2 size) {
  const multimodal::Grid g = multimodal::grid(ui.params());
  const ImVec2 room = label_room(g, ui.ui_scale());
  const float hint = ImGui::GetTextLineHeightWithSpacing() * 2.5f + room.y;  // the hint may wrap to two lines
  const float longer = static_cast<float>(std::max(g.h, g.w));
  // The longer edge fits the width, the shorter the height left after the hint
  // (each less the row and column indices beside and above the grid).
  const float side = std::max(120.0f, std::min({(size.x - room.x) * longer / static_cast<float>(g.w),
                                                 (size.y - hint) * longer / static_cast<float>(g.h), 900.0f * ui.ui_scale()}));
  const float width = side * static_cast<float>(g.w) / longer + room.x;
  if (size.x > width) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + (size.x - width) / 2);
  canvas(ui, side);
}

}  // namespace

LessonScreen multimodal_screen() { return {"multimodal", draw, {"grid-score"}, draw_grid}; }

}  // namespace poslab::app::ui
