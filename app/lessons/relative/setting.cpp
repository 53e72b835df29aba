#include "app/lessons/relative/setting.hpp"

#include <algorithm>
#include <string>

namespace poslab::app::relative {

core::TermVariant variant(const core::Params& p) {
  const std::string v = p.choice("terms");
  if (v == "transformer-xl") return core::TermVariant::transformer_xl;
  if (v == "t5") return core::TermVariant::t5;
  if (v == "deberta") return core::TermVariant::deberta;
  return core::TermVariant::all;
}

ToyKey toy_key(const core::Params& p, long long max_tokens, long long max_width) {
  return {static_cast<int>(std::min(p.integer("positions"), max_tokens)), static_cast<int>(std::min(p.integer("d"), max_width)),
          static_cast<std::uint64_t>(p.integer("seed")), p.real("base"), variant(p)};
}

core::ToyAttention toy_attention(const ToyKey& key) {
  return core::toy_attention(key.tokens, key.width, key.width, key.base, key.seed);
}

}  // namespace poslab::app::relative
