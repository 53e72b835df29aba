// The tables of the "layer-mix" lesson (docs/CONTRACT.md §3).
//
// nope-count: y_m, the first token's marker in token m's output, for a head
//   that attends evenly, with the causal mask (1/(m + 1)) and without (1/N)
//   (Kazemnejad et al. 2023, Theorem 1), through core's self_attention.
// layer-bases: per pair, the local layers' θ and λ (b = local_base), the
//   global layers' θ/s and λ·s (b = base, linear by s = factor), and how many
//   turns each makes within its reach: W (the window) and ℓ (the context).
// p-rope: per pair, RoPE's θ, p-RoPE's (kept or 0) and partial rotary's (the
//   same count of pairs, spread over r = p·d dims).

#include <numbers>
#include <string>

#include "app/lessons/layer_mix/setting.hpp"
#include "app/lessons/table.hpp"
#include "poslab/core/layer_mix.hpp"

namespace poslab::app::tables {

namespace {

constexpr double kPi = std::numbers::pi;

Table nope_count(const core::Params& p) {
  const int n = static_cast<int>(p.integer("positions"));
  const Eigen::VectorXd causal = core::even_attention_marker<double>(n, true);
  const Eigen::VectorXd both = core::even_attention_marker<double>(n, false);
  Table t;
  t.columns = {"position", "causal", "bidirectional"};
  for (int m = 0; m < n; ++m) t.add_row({static_cast<long long>(m), causal[m], both[m]});
  return t;
}

/// positions rows, each a row of the N × N weights.
TableCost nope_count_cost(const core::Params& p) {
  return rows_of("positions", 3, static_cast<double>(p.integer("positions")), "positions");
}

Table layer_bases(const core::Params& p) {
  const layer_mix::Bases b = layer_mix::bases(p);
  Table t;
  t.columns = {"pair", "local_theta", "local_wavelength", "local_turns", "global_theta", "global_wavelength", "global_turns"};
  for (Eigen::Index i = 0; i < b.local_theta.size(); ++i) {
    const double ll = 2 * kPi / b.local_theta[i], gl = 2 * kPi / b.global_theta[i];
    t.add_row({static_cast<long long>(i), b.local_theta[i], ll, static_cast<double>(b.local_reach()) / ll, b.global_theta[i], gl,
               static_cast<double>(b.global_reach()) / gl});
  }
  t.meta.emplace_back("local_reach", b.local_reach());
  t.meta.emplace_back("global_reach", b.global_reach());
  t.meta.emplace_back("local_pairs_turning", static_cast<long long>(layer_mix::pairs_turning_within(b.local_theta, static_cast<double>(b.window))));
  t.meta.emplace_back("global_pairs_turning",
                      static_cast<long long>(layer_mix::pairs_turning_within(b.global_theta, static_cast<double>(b.context))));
  return t;
}

TableCost layer_bases_cost(const core::Params& p) { return fixed_rows(static_cast<double>(p.integer("d")) / 2, 7); }

Table p_rope(const core::Params& p) {
  const layer_mix::Fraction f = layer_mix::fraction(p);
  Table t;
  t.columns = {"pair", "rope_theta", "p_rope_theta", "partial_theta"};
  for (int i = 0; i < f.d / 2; ++i)
    t.add_row({static_cast<long long>(i), f.rope[i], f.p_rope[i], i < f.partial.size() ? f.partial[i] : 0.0});
  t.meta.emplace_back("kept_pairs", static_cast<long long>(f.kept));
  t.meta.emplace_back("partial_rotary_dims", static_cast<long long>(2 * f.partial.size()));
  if (f.kept > 0) {
    t.meta.emplace_back("p_rope_slowest_wavelength", 2 * kPi / f.p_rope[f.kept - 1]);
    t.meta.emplace_back("partial_slowest_wavelength", 2 * kPi / f.partial[f.partial.size() - 1]);
  }
  return t;
}

TableCost p_rope_cost(const core::Params& p) { return fixed_rows(static_cast<double>(p.integer("d")) / 2, 4); }

}  // namespace

std::vector<TableDef> layer_mix_lesson_tables() {
  return {
      {"nope-count", "NoPE: the first token's marker in each token's output, a head attending evenly, causal and bidirectional",
       {"positions"},
       {{"positions", "16"}},
       nope_count,
       nope_count_cost},
      {"layer-bases", "local (sliding-window) and global (scaled) layers: θ, λ and turns within W and ℓ per pair",
       {"d", "local_base", "base", "factor", "sliding_window", "seq_len"},
       {{"base", "1000000"}, {"seq_len", "131072"}},
       layer_bases,
       layer_bases_cost},
      {"p-rope", "p-RoPE (the fastest p·d/2 pairs kept) against partial rotary (p·d dims, frequencies spread): θ per pair",
       {"d", "base", "partial_rotary_factor"},
       {{"base", "1000000"}},
       p_rope,
       p_rope_cost},
  };
}

}  // namespace poslab::app::tables
