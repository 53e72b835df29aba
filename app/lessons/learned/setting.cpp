#include "app/lessons/learned/setting.hpp"

#include "poslab/core/learned.hpp"

namespace poslab::app::learned {

std::optional<Eigen::VectorXd> Embedding::row(long long pos) const {
  return core::learned_row(pos, static_cast<int>(max_length), d, seed);
}

Embedding embedding(const core::Params& p) {
  return {static_cast<int>(p.integer("d")), p.integer("max_length"), static_cast<std::uint64_t>(p.integer("seed"))};
}

}  // namespace poslab::app::learned
