// The registry of tables: id, summary, the keys read, the builder.
// docs/CONTRACT.md §3 lists the contract tables; lessons add more.

#include <algorithm>

#include "app/tables/builders.hpp"

namespace poslab::app {

namespace {

std::vector<TableDef> contract_tables() {
  return {
      {"sinusoidal", "PE[pos, i] of the sinusoidal encoding", {"d", "base", "pos"}, {{"pos", "0:9"}}, tables::sinusoidal},
      {"rope-frequencies", "RoPE frequency theta_i and wavelength per pair", {"d", "base"}, {},
       tables::rope_frequencies},
      {"rope-rotate", "a vector rotated by RoPE at each position", {"vector", "base", "pos", "layout"},
       {{"pos", "0:4"}}, tables::rope_rotate},
      {"rope-decay", "RoFormer's long-term decay bound and the all-ones score", {"d", "base", "distance"}, {},
       tables::rope_decay},
      {"t5-buckets", "T5 relative-position bucket of each relative position",
       {"buckets", "bucket_max_distance", "bidirectional", "relative"}, {}, tables::t5_buckets},
      {"alibi-slopes", "ALiBi slope of each head", {"heads"}, {}, tables::alibi_slopes},
      {"rope-scaling", "per-pair frequencies under a context-extension method",
       {"method", "d", "base", "factor", "original_context", "seq_len", "beta_fast", "beta_slow", "mscale",
        "mscale_all_dim", "low_freq_factor", "high_freq_factor", "temperature"},
       {}, tables::rope_scaling},
      {"position-map", "target positions mapped by PI (linear) and by the notes' gamma formula",
       {"original_context", "factor", "gamma", "pos"},
       {{"pos", "100,1000,4096,8192,16384,30000,32768"}}, tables::position_map},
      {"gaussian-kernel", "the notes' multi-scale Gaussian kernel K(pos)",
       {"alpha1", "alpha2", "sigma1", "sigma2", "pos"}, {{"pos", "0:64"}}, tables::gaussian_kernel},
  };
}

const std::vector<TableDef>& registry() {
  static const std::vector<TableDef> defs = [] {
    std::vector<TableDef> all = contract_tables();
    for (auto lesson : {tables::sinusoidal_lesson_tables, tables::learned_lesson_tables, tables::relative_lesson_tables,
                        tables::t5_lesson_tables, tables::alibi_lesson_tables, tables::rope_2d_lesson_tables,
                        tables::rope_lesson_tables, tables::decay_lesson_tables, tables::gaussian_lesson_tables,
                        tables::scaling_lesson_tables})
      for (TableDef& def : lesson()) all.push_back(std::move(def));
    return all;
  }();
  return defs;
}

}  // namespace

std::span<const TableDef> table_defs() { return registry(); }

const TableDef* find_table(std::string_view id) {
  for (const TableDef& def : registry())
    if (def.id == id) return &def;
  return nullptr;
}

Table build_table(const TableDef& def, const core::Params& params) {
  core::Params resolved = params;
  for (const auto& [key, text] : def.defaults)
    if (!resolved.is_set(key)) resolved.set_text(key, text);
  core::check_param_relations(resolved, def.keys);
  Table t = def.build(resolved);
  t.id = std::string(def.id);
  t.params.clear();
  for (std::string_view key : def.keys) t.params.emplace_back(std::string(key), resolved.value(key));
  return t;
}

}  // namespace poslab::app
