#include "app/ui/table_view.hpp"

#include <imgui.h>

#include <algorithm>

#include "app/common/messages.hpp"
#include "app/export/table_writer.hpp"

namespace poslab::app::ui {

TableView::Entry& TableView::get(UiContext& ctx, std::string_view id) {
  auto it = entries_.find(id);
  if (it == entries_.end()) it = entries_.emplace(std::string(id), Entry{}).first;
  Entry& e = it->second;
  if (e.revision == ctx.state.revision() && e.view == ctx.state.view_index()) return e;
  e.revision = ctx.state.revision();
  e.view = ctx.state.view_index();
  e.error.clear();
  e.table = {};
  const TableDef* def = find_table(id);
  const core::Params* params = ctx.state.resolved();
  if (!def) e.error = ctx.tr.format("ui.table.unknown", {{"id", std::string(id)}});
  else if (!params) e.error = ctx.state.resolve_error();
  else {
    try {
      // A table past what a frame can build waits for `poslab table`
      // (docs/CONTRACT.md §3, budgets): the UI thread never builds it.
      const TableSize size = table_size(*def, *params);
      if (size.cells > kScreenTableCells || size.work > kScreenTableWork)
        e.error = ctx.tr.format("ui.table.too_large", {{"id", std::string(id)},
                                                       {"rows", std::to_string(static_cast<long long>(size.rows))}});
      else
        e.table = build_table(*def, *params);
    } catch (const std::exception& ex) {
      e.error = error_text(ctx.tr, ex);
    }
  }
  return e;
}

std::string TableView::text(UiContext& ctx, std::string_view id, TableFormat format, std::string* error) {
  Entry& e = get(ctx, id);
  if (!e.error.empty()) {
    if (error) *error = e.error;
    return {};
  }
  TableWriteOptions o;
  o.digits = (format == TableFormat::md || format == TableFormat::tex) ? 6 : 0;
  return write_table(e.table, format, o);
}

void TableView::draw(UiContext& ctx, std::string_view id, float height) {
  Entry& e = get(ctx, id);
  ImGui::PushID(id.data(), id.data() + id.size());
  if (!e.error.empty()) {
    wrapped_colored(ctx.pal.error, e.error);
    ImGui::PopID();
    return;
  }
  struct Copy {
    const char* label_key;
    TableFormat format;
  };
  for (const Copy c : {Copy{"ui.table.copy_md", TableFormat::md}, Copy{"ui.table.copy_tex", TableFormat::tex},
                       Copy{"ui.table.copy_csv", TableFormat::csv}}) {
    if (ImGui::SmallButton(ctx.tr(c.label_key).c_str())) {
      ImGui::SetClipboardText(text(ctx, id, c.format).c_str());
      ctx.toasts.push(ctx.tr.format("ui.table.copied", {{"id", std::string(id)}}), ToastKind::success);
    }
    ImGui::SameLine();
  }
  ImGui::TextDisabled("%s", ctx.tr.format("ui.table.rows", {{"n", std::to_string(e.table.rows.size())}}).c_str());
  // The lesson's caption of the table ("<view>.tables.<id>"), when it has one.
  const std::string view(ctx.state.view().id);
  if (const std::string* caption = ctx.tr.find(view + ".tables." + std::string(id))) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", caption->c_str());
    ImGui::PopTextWrapPos();
  }

  const int cols = static_cast<int>(std::clamp<std::size_t>(e.table.columns.size(), 1, 64));
  const float row_h = ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().CellPadding.y;
  if (height <= 0) height = row_h * static_cast<float>(std::min<std::size_t>(e.table.rows.size(), 8) + 1) + 4 * ctx.scale;
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersOuter | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
  if (ImGui::BeginTable("##table", cols, flags, {0, height})) {
    ImGui::TableSetupScrollFreeze(0, 1);
    for (int c = 0; c < cols; ++c) ImGui::TableSetupColumn(e.table.columns[static_cast<std::size_t>(c)].c_str());
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(e.table.rows.size()));
    while (clipper.Step())
      for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
        ImGui::TableNextRow();
        const auto& row = e.table.rows[static_cast<std::size_t>(r)];
        for (int c = 0; c < cols && c < static_cast<int>(row.size()); ++c) {
          ImGui::TableSetColumnIndex(c);
          const std::string cell = format_cell(row[static_cast<std::size_t>(c)], 6);
          // A word cell reads in the user's language ("<view>.cell.<word>");
          // the copies and exports keep the word, shown in the tooltip.
          const std::string* words = std::holds_alternative<std::string>(row[static_cast<std::size_t>(c)])
                                         ? ctx.tr.find(view + ".cell." + cell)
                                         : nullptr;
          ImGui::TextUnformatted(words ? words->c_str() : cell.c_str());
          if (words && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", cell.c_str());
        }
      }
    ImGui::EndTable();
  }
  if (!e.table.meta.empty()) {
    std::string meta;
    for (const auto& [k, v] : e.table.meta) meta += (meta.empty() ? "" : " · ") + k + " = " + format_cell(v, 6);
    ImGui::TextDisabled("%s", meta.c_str());
  }
  ImGui::PopID();
}

}  // namespace poslab::app::ui
