// The tables the "rope-2d" lesson shows beyond docs/CONTRACT.md §3.

#include "app/tables/builders.hpp"

namespace poslab::app::tables {

std::vector<TableDef> rope_2d_lesson_tables() { return {}; }

}  // namespace poslab::app::tables
