// The registry: every lesson of lessons.inc, its view and its tables. The
// tables of docs/CONTRACT.md §3 come first, in the contract's order, then
// each lesson's own in lesson order (what `poslab list tables` prints).

#include <algorithm>
#include <array>
#include <string_view>

#include "app/lessons/lesson.hpp"
#include "app/lessons/table.hpp"

namespace poslab::app {

#define POSLAB_LESSON(name) ViewDef name##_view();
#define POSLAB_LESSON_WITH_SCREEN(name) POSLAB_LESSON(name)
#include "app/lessons/lessons.inc"
#undef POSLAB_LESSON
#undef POSLAB_LESSON_WITH_SCREEN

namespace tables {
#define POSLAB_LESSON(name) std::vector<TableDef> name##_lesson_tables();
#define POSLAB_LESSON_WITH_SCREEN(name) POSLAB_LESSON(name)
#include "app/lessons/lessons.inc"
#undef POSLAB_LESSON
#undef POSLAB_LESSON_WITH_SCREEN
}  // namespace tables

namespace {

/// docs/CONTRACT.md §3, in its order.
constexpr std::array<std::string_view, 10> kContractTables = {
    "sinusoidal",   "rope-frequencies", "rope-rotate",  "rope-decay",      "t5-buckets",
    "alibi-slopes", "rope-scaling",     "position-map", "gaussian-kernel", "mrope-positions",
};

std::size_t contract_rank(std::string_view id) {
  return static_cast<std::size_t>(std::find(kContractTables.begin(), kContractTables.end(), id) -
                                  kContractTables.begin());
}

std::vector<ViewDef> all_views() {
  std::vector<ViewDef> v;
#define POSLAB_LESSON(name) v.push_back(name##_view());
#define POSLAB_LESSON_WITH_SCREEN(name) POSLAB_LESSON(name)
#include "app/lessons/lessons.inc"
#undef POSLAB_LESSON
#undef POSLAB_LESSON_WITH_SCREEN
  return v;
}

std::vector<TableDef> all_tables() {
  std::vector<TableDef> all;
  auto add = [&all](std::vector<TableDef> defs) {
    for (TableDef& def : defs) all.push_back(std::move(def));
  };
#define POSLAB_LESSON(name) add(tables::name##_lesson_tables());
#define POSLAB_LESSON_WITH_SCREEN(name) POSLAB_LESSON(name)
#include "app/lessons/lessons.inc"
#undef POSLAB_LESSON
#undef POSLAB_LESSON_WITH_SCREEN
  // Contract tables first in the contract's order; the rest keep lesson order.
  std::stable_sort(all.begin(), all.end(), [](const TableDef& a, const TableDef& b) {
    return std::min(contract_rank(a.id), kContractTables.size()) < std::min(contract_rank(b.id), kContractTables.size());
  });
  return all;
}

}  // namespace

std::span<const ViewDef> view_defs() {
  static const std::vector<ViewDef> views = all_views();
  return views;
}

std::span<const TableDef> table_defs() {
  static const std::vector<TableDef> defs = all_tables();
  return defs;
}

}  // namespace poslab::app
