#include "app/lessons/layer_mix/setting.hpp"

#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <numbers>
#include <vector>

#include "app/common/assets.hpp"
#include "poslab/core/layer_mix.hpp"
#include "poslab/core/rope.hpp"
#include "poslab/core/scaling.hpp"

namespace poslab::app::layer_mix {

core::AttentionResult<double> sentence(const core::Params& p, bool causal) {
  const auto seed = static_cast<std::uint64_t>(p.integer("seed"));
  const std::vector<int> ids(why_position::kTokenIds.begin(), why_position::kTokenIds.end());
  const core::AttentionHead<double> head = core::toy_attention_head<double>(why_position::kD, seed);
  const core::AttentionMatrix<double> x = core::toy_embeddings<double>(ids, why_position::kD, seed);
  return core::self_attention<double>(x, head, causal);
}

Bases bases(const core::Params& p) {
  Bases b;
  b.d = static_cast<int>(p.integer("d"));
  b.local_base = p.real("local_base");
  b.global_base = p.real("base");
  b.factor = p.real("factor");
  b.window = p.integer("sliding_window");
  b.context = p.integer("seq_len");
  b.local_theta = core::rope_inverse_frequencies(b.d, b.local_base);
  // Linear scaling (position interpolation) through core's scaling table: θ/s.
  const core::ScalingTable t = core::rope_scaling_table(
      {.method = core::ScalingMethod::linear, .d = b.d, .base = b.global_base, .factor = b.factor});
  b.global_unscaled = t.theta;
  b.global_theta = t.scaled_theta;
  return b;
}

int pairs_turning_within(const Eigen::VectorXd& theta, double distance) {
  int n = 0;
  for (Eigen::Index i = 0; i < theta.size(); ++i) n += theta[i] > 0 && 2 * std::numbers::pi / theta[i] <= distance;
  return n;
}

Fraction fraction(const core::Params& p) {
  Fraction f;
  f.d = static_cast<int>(p.integer("d"));
  f.base = p.real("base");
  f.p = p.real("partial_rotary_factor");
  f.rope = core::rope_inverse_frequencies(f.d, f.base);
  f.p_rope = core::proportional_rope_inverse_frequencies(f.d, f.base, f.p);
  f.partial = core::partial_rotary_inverse_frequencies(f.d, f.base, f.p);
  f.kept = core::proportional_rope_pairs(f.d, f.p);
  return f;
}

const Preset& stack_preset(const core::Params& p) {
  // Figures build on worker threads: one lock over the cache; a preset once
  // read stays (four small files at most).
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<const Preset>> cache;
  const std::string id = p.choice("stack_model");
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(id);
  if (it == cache.end()) {
    const auto path = assets_dir() / "presets" / (id + ".json");
    it = cache.emplace(id, std::make_unique<const Preset>(parse_preset(read_text_file(path), path.string()))).first;
  }
  return *it->second;
}

}  // namespace poslab::app::layer_mix
