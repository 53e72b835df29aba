#pragma once
// The builders behind table_defs(), one per table id. Grouped by lesson in
// tables/<topic>_tables.cpp; registered in tables/registry.cpp.

#include "app/tables/table.hpp"

namespace poslab::app::tables {

// docs/CONTRACT.md §3
Table sinusoidal(const core::Params& p);
Table rope_frequencies(const core::Params& p);
Table rope_rotate(const core::Params& p);
Table rope_decay(const core::Params& p);
Table t5_buckets(const core::Params& p);
Table alibi_slopes(const core::Params& p);
Table rope_scaling(const core::Params& p);
Table position_map(const core::Params& p);
Table gaussian_kernel(const core::Params& p);

// Each lesson's own tables (tables/<view>_tables.cpp), appended to the registry.
std::vector<TableDef> sinusoidal_lesson_tables();
std::vector<TableDef> learned_lesson_tables();
std::vector<TableDef> relative_lesson_tables();
std::vector<TableDef> t5_lesson_tables();
std::vector<TableDef> alibi_lesson_tables();
std::vector<TableDef> rope_2d_lesson_tables();
std::vector<TableDef> rope_lesson_tables();
std::vector<TableDef> decay_lesson_tables();
std::vector<TableDef> gaussian_lesson_tables();
std::vector<TableDef> scaling_lesson_tables();

}  // namespace poslab::app::tables
