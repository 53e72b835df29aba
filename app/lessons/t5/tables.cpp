// The tables the "t5" lesson shows beyond docs/CONTRACT.md §3:
// - t5-bucket-ranges: every bucket with the relative positions key − query it
//   covers (core::t5_bucket_ranges: exact, found by bisection on the reference
//   bucket function), how many that is, and which regime it belongs to.

#include <climits>
#include <cmath>
#include <limits>

#include "app/lessons/common/setting.hpp"
#include "app/lessons/table.hpp"
#include "poslab/core/t5.hpp"

namespace poslab::app::tables {

namespace {

using core::Params;

/// One row per bucket a relative position can reach. An open end has no
/// number: it is written as the word "-inf" / "inf" (and its size as "inf"),
/// so no non-finite number reaches a file; `kind` is exact (a single distance below max_exact),
/// logarithmic, or open_ended (no farthest member: the clamp at the last
/// bucket of a side, or, causal, bucket 0 holding the present and the future).
Table t5_bucket_ranges(const core::Params& p) {
  const lessons::T5Buckets b = lessons::t5_buckets(p);
  const int side = b.side(), max_exact = b.max_exact();
  Table t;
  t.columns = {"bucket", "first", "last", "size", "kind"};
  long long last_from = 0;
  const auto ranges = core::t5_bucket_ranges(b.bidirectional, b.buckets, b.max_distance);
  for (const core::T5BucketRange& r : ranges) {
    const bool open = r.first == LLONG_MIN || r.last == LLONG_MAX;
    const Cell first = r.first == LLONG_MIN ? Cell(std::string("-inf")) : Cell(r.first);
    const Cell last = r.last == LLONG_MAX ? Cell(std::string("inf")) : Cell(r.last);
    const Cell size = open ? Cell(std::string("inf")) : Cell(r.last - r.first + 1);
    const int within_side = r.bucket % side;
    const char* kind = open ? "open_ended" : (within_side < max_exact ? "exact" : "logarithmic");
    t.add_row({static_cast<long long>(r.bucket), first, last, size, std::string(kind)});
    if (r.first == LLONG_MIN) last_from = -r.last;
  }
  t.meta.emplace_back("max_exact", static_cast<long long>(max_exact));
  t.meta.emplace_back("buckets_reachable", static_cast<long long>(ranges.size()));
  t.meta.emplace_back("last_bucket_from_distance", last_from);
  return t;
}

// docs/CONTRACT.md §3
Table t5_buckets(const Params& p) {
  const auto rel = p.list("relative");
  const lessons::T5Buckets b = lessons::t5_buckets(p);
  Table t;
  t.columns = {"relative_position", "bucket"};
  for (double r : rel) {
    const auto rp = static_cast<long long>(r);
    t.add_row({rp, static_cast<long long>(core::t5_relative_bucket(rp, b.bidirectional, b.buckets, b.max_distance))});
  }
  return t;
}

TableCost t5_buckets_cost(const Params&) { return rows_of("relative", 2); }
/// Each bucket's ends are found by bisection: about 64 bucket evaluations.
TableCost t5_bucket_ranges_cost(const Params& p) {
  return fixed_rows(static_cast<double>(p.integer("buckets")), 5, 64, "64");
}

}  // namespace

std::vector<TableDef> t5_lesson_tables() {
  return {
      {"t5-buckets", "T5 bucket of each relative position key − query = −r",
       {"buckets", "bucket_max_distance", "bidirectional", "relative"}, {}, t5_buckets, t5_buckets_cost},
      {"t5-bucket-ranges", "every T5 bucket with the range of key − query = −r it covers",
           {"buckets", "bucket_max_distance", "bidirectional"}, {}, t5_bucket_ranges, t5_bucket_ranges_cost}};
}

}  // namespace poslab::app::tables
