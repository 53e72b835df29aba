#pragma once
// A lesson's table on screen: built at the current parameters when they
// change (not per frame), shown scrollable (only visible rows are drawn),
// with "Copy as Markdown / LaTeX / CSV" buttons that put exactly what
// `poslab table ID --format md|tex|csv` prints on the clipboard.

#include <map>
#include <string>
#include <string_view>

#include "app/export/table_writer.hpp"
#include "app/lessons/table.hpp"
#include "app/ui/ui_context.hpp"

namespace poslab::app::ui {

class TableView {
 public:
  /// Draws table `id` (height <= 0: up to 8 rows).
  void draw(UiContext& ctx, std::string_view id, float height);
  /// The table text in `format` at the state's parameters ("" when the
  /// table cannot be built; `error` then says why). Also what the buttons copy.
  std::string text(UiContext& ctx, std::string_view id, TableFormat format, std::string* error = nullptr);

 private:
  struct Entry {
    Table table;
    std::string error;
    std::uint64_t revision = 0;
    int view = -1;
  };
  Entry& get(UiContext& ctx, std::string_view id);
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace poslab::app::ui
