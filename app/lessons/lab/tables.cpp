// The "lab" lesson's tables: none yet (its numbers are the figures' CSV and
// `poslab lab run`'s JSON, docs/CONTRACT.md §7).

#include <vector>

#include "app/lessons/table.hpp"

namespace poslab::app::tables {

std::vector<TableDef> lab_lesson_tables() { return {}; }

}  // namespace poslab::app::tables
