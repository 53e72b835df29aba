// The tables the "gaussian" lesson shows beyond docs/CONTRACT.md §3.

#include "app/tables/builders.hpp"

namespace poslab::app::tables {

std::vector<TableDef> gaussian_lesson_tables() { return {}; }

}  // namespace poslab::app::tables
