#pragma once
// The "learned" lesson's parameters as core reads them, written once for its
// figures, readouts and tables: the learned table P (max_length rows of
// width d, drawn from `seed`).

#include <cstdint>
#include <optional>

#include <Eigen/Dense>

#include "poslab/core/params.hpp"

namespace poslab::app::learned {

/// The learned table at initialisation (core/learned.hpp): `d`, `max_length`, `seed`.
struct Embedding {
  int d;
  long long max_length;
  std::uint64_t seed;
  /// Row P[pos] (core::learned_row), or nothing for pos >= max_length.
  std::optional<Eigen::VectorXd> row(long long pos) const;
};
Embedding embedding(const core::Params& p);

}  // namespace poslab::app::learned
