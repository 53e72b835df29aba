#include "app/lessons/scaling/setting.hpp"

namespace poslab::app::scaling {

core::ScalingMethod selected_method(const core::Params& p) { return core::parse_scaling_method(p.choice("method")); }

double trained_context(const core::Params& p) { return static_cast<double>(p.integer("original_context")); }

double target_context(const core::Params& p) {
  const long long set = p.integer("target_context");  // 0: factor × L
  return set > 0 ? static_cast<double>(set) : p.real("factor") * trained_context(p);
}

core::ScalingConfig scaling_config(const core::Params& p, core::ScalingMethod method) {
  core::ScalingConfig c;
  c.method = method;
  c.d = static_cast<int>(p.integer("d"));
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
  c.truncate = p.boolean("truncate");
  c.attention_factor = p.real("attention_factor");
  if (p.is_set("short_factor")) c.short_factor = p.list("short_factor");
  if (p.is_set("long_factor")) c.long_factor = p.list("long_factor");
  return c;
}

Extension extension(const core::Params& p) {
  Extension e{selected_method(p), p.real("factor"), trained_context(p), 0};
  e.L_target = target_context(p);
  return e;
}

PositionMaps position_maps(const core::Params& p) {
  PositionMaps m{p.real("factor"), p.real("gamma"), trained_context(p), 0};
  m.L_target = target_context(p);
  return m;
}

}  // namespace poslab::app::scaling
