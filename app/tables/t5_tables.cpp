// The tables the "t5" lesson shows beyond docs/CONTRACT.md §3.

#include "app/tables/builders.hpp"

namespace poslab::app::tables {

std::vector<TableDef> t5_lesson_tables() { return {}; }

}  // namespace poslab::app::tables
