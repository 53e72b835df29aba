// The tables of docs/CONTRACT.md §3: each reads exactly the keys the contract
// lists and computes every number through poslab_core.

#include <cmath>
#include <numbers>

#include "app/tables/builders.hpp"
#include "poslab/core/alibi.hpp"
#include "poslab/core/decay.hpp"
#include "poslab/core/gaussian.hpp"
#include "poslab/core/rope.hpp"
#include "poslab/core/scaling.hpp"
#include "poslab/core/sinusoidal.hpp"
#include "poslab/core/t5.hpp"

namespace poslab::app::tables {

using core::InvalidParameter;
using core::Params;

namespace {

/// Raises InvalidParameter on `key` when rows would exceed kMaxTableRows.
void check_rows(std::string_view key, double rows) {
  if (rows > static_cast<double>(kMaxTableRows))
    throw InvalidParameter(std::string(key), "(" + core::format_number(rows) + " rows)",
                           "the table would have more than " + std::to_string(kMaxTableRows) +
                               " rows; ask for fewer positions or a smaller d",
                           core::Reason{"max_rows_positions",
                                        {{"max", std::to_string(kMaxTableRows)}, {"n", core::format_number(rows)}}, "rows"});
}

int int_param(const Params& p, std::string_view key) { return static_cast<int>(p.integer(key)); }

}  // namespace

Table sinusoidal(const Params& p) {
  const int d = int_param(p, "d");
  const double base = p.real("base");
  const auto pos = p.list("pos");
  check_rows("pos", static_cast<double>(pos.size()) * d);
  Table t;
  t.columns = {"pos", "i", "value"};
  for (double m : pos)
    for (int i = 0; i < d; ++i) t.add_row({m, static_cast<long long>(i), core::sinusoidal_value(m, i, d, base)});
  return t;
}

Table rope_frequencies(const Params& p) {
  const int d = int_param(p, "d");
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, p.real("base"));
  Table t;
  t.columns = {"pair", "theta", "wavelength"};
  for (Eigen::Index i = 0; i < theta.size(); ++i)
    t.add_row({static_cast<long long>(i), theta[i], 2 * std::numbers::pi / theta[i]});
  return t;
}

Table rope_rotate(const Params& p) {
  const auto v = p.list("vector");
  const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
  const auto pos = p.list("pos");
  check_rows("pos", static_cast<double>(pos.size()) * static_cast<double>(v.size()));
  const core::PairLayout layout = core::parse_pair_layout(p.choice("layout"));
  Table t;
  t.columns = {"pos", "index", "input", "output"};
  for (double m : pos) {
    const Eigen::VectorXd y = core::rope_rotate<double>(x, m, p.real("base"), layout);
    for (Eigen::Index i = 0; i < x.size(); ++i) t.add_row({m, static_cast<long long>(i), x[i], y[i]});
  }
  return t;
}

Table rope_decay(const Params& p) {
  const int d = int_param(p, "d");
  const double base = p.real("base");
  const auto distance = p.list("distance");
  check_rows("distance", static_cast<double>(distance.size()));
  const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, base);
  const std::span<const double> th(theta.data(), static_cast<std::size_t>(theta.size()));
  std::vector<double> bound(distance.size());
  core::rope_decay_bound_curve(distance, th, bound);
  Table t;
  t.columns = {"distance", "bound", "ones_score"};
  for (std::size_t r = 0; r < distance.size(); ++r)
    t.add_row({distance[r], bound[r], core::rope_ones_score(distance[r], th)});
  return t;
}

Table t5_buckets(const Params& p) {
  const auto rel = p.list("relative");
  const bool bidirectional = p.boolean("bidirectional");
  const int buckets = int_param(p, "buckets");
  const int max_distance = int_param(p, "bucket_max_distance");
  Table t;
  t.columns = {"relative_position", "bucket"};
  for (double r : rel) {
    const auto rp = static_cast<long long>(r);
    t.add_row({rp, static_cast<long long>(core::t5_relative_bucket(rp, bidirectional, buckets, max_distance))});
  }
  return t;
}

Table alibi_slopes(const Params& p) {
  const auto slopes = core::alibi_slopes(int_param(p, "heads"));
  Table t;
  t.columns = {"head", "slope"};
  for (std::size_t h = 0; h < slopes.size(); ++h) t.add_row({static_cast<long long>(h + 1), slopes[h]});
  return t;
}

Table rope_scaling(const Params& p) {
  core::ScalingConfig c;
  c.method = core::parse_scaling_method(p.choice("method"));
  c.d = int_param(p, "d");
  c.base = p.real("base");
  c.factor = p.real("factor");
  c.original_context = p.integer("original_context");
  c.seq_len = p.integer("seq_len");
  c.beta_fast = p.real("beta_fast");
  c.beta_slow = p.real("beta_slow");
  c.mscale = p.real("mscale");
  c.mscale_all_dim = p.real("mscale_all_dim");
  c.low_freq_factor = p.real("low_freq_factor");
  c.high_freq_factor = p.real("high_freq_factor");
  c.temperature = p.real("temperature");
  const core::ScalingTable s = core::rope_scaling_table(c);
  Table t;
  t.columns = {"pair", "theta", "scaled_theta", "wavelength", "scaled_wavelength", "ramp"};
  for (Eigen::Index i = 0; i < s.theta.size(); ++i)
    t.add_row({static_cast<long long>(i), s.theta[i], s.scaled_theta[i], s.wavelength[i], s.scaled_wavelength[i],
               s.ramp[i]});
  t.meta.emplace_back("attention_factor", s.attention_factor);
  if (s.correction_low) t.meta.emplace_back("correction_low", *s.correction_low);
  if (s.correction_high) t.meta.emplace_back("correction_high", *s.correction_high);
  if (c.method == core::ScalingMethod::ntk || c.method == core::ScalingMethod::dynamic)
    t.meta.emplace_back("effective_base", s.effective_base);
  // The divisor the ramp interpolates towards (= factor unless a method divides
  // some θ by more, e.g. dynamic NTK at seq_len ≫ L): θ' = ramp·θ + (1 − ramp)·θ/effective_factor.
  t.meta.emplace_back("effective_factor", s.effective_factor);
  return t;
}

Table position_map(const Params& p) {
  const double factor = p.real("factor");
  const double gamma = p.real("gamma");
  const auto L = static_cast<double>(p.integer("original_context"));
  const auto pos = p.list("pos");
  Table t;
  t.columns = {"pos", "linear", "gamma_mapped"};
  for (double m : pos) t.add_row({m, core::position_map_linear(m, factor), core::position_map_gamma(m, factor, gamma)});
  // m·s^(−γ) > L exactly when m > L·s^γ: such positions leave the trained range.
  t.meta.emplace_back("trained_range", L);
  t.meta.emplace_back("gamma_leaves_trained_range_above", core::position_map_gamma_limit(L, factor, gamma));
  return t;
}

Table gaussian_kernel(const Params& p) {
  core::GaussianKernel k{p.real("alpha1"), p.real("alpha2"), p.real("sigma1"), p.real("sigma2")};
  k.check();
  const auto pos = p.list("pos");
  check_rows("pos", static_cast<double>(pos.size()));
  Table t;
  t.columns = {"pos", "kernel"};
  for (double m : pos) t.add_row({m, k(m)});
  const double cutoff = core::gaussian_kernel_cutoff(k, 0.01);
  if (cutoff >= 0) t.meta.emplace_back("below_1_percent_from", cutoff);
  return t;
}

}  // namespace poslab::app::tables
