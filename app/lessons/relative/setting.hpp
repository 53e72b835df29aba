#pragma once
// The "relative" lesson's parameters as core reads them, written once for its
// figures, readouts and tables: the variant of the four-term decomposition and
// the seeded toy it decomposes.

#include <cstdint>

#include "poslab/core/params.hpp"
#include "poslab/core/relative.hpp"

namespace poslab::app::relative {

/// `terms` as a core::TermVariant.
core::TermVariant variant(const core::Params& p);

/// What the toy is computed from: `positions` tokens (at most max_tokens) of
/// width `d` (at most max_width), `seed`, `base`, and the variant `terms`.
struct ToyKey {
  int tokens, width;
  std::uint64_t seed;
  double base;
  core::TermVariant variant;
  bool operator==(const ToyKey&) const = default;
};
ToyKey toy_key(const core::Params& p, long long max_tokens, long long max_width);

/// The toy's inputs: core::toy_attention with width × width weights.
core::ToyAttention toy_attention(const ToyKey& key);

}  // namespace poslab::app::relative
