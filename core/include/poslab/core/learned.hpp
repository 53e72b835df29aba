#pragma once
// Learned absolute position embeddings (BERT, GPT-2): a trainable table of
// max_length rows × d columns, initialised N(0, 0.02²) as BERT/HF do
// (`initializer_range = 0.02`). Rows exist only for positions
// 0 .. max_length − 1: there is no row for any position past the table.
//
// The "table" here is a counter-based random function of (seed, pos, dim), so
// any entry can be sampled without storing max_length × d numbers.

#include <cstdint>
#include <optional>

#include <Eigen/Dense>

namespace poslab::core {

inline constexpr double kLearnedInitStddev = 0.02;

/// The entry (pos, dim) of a freshly initialised learned table, or nullopt
/// when pos >= max_length (no row exists) or pos < 0.
std::optional<double> learned_value(long long pos, int dim, int max_length, int d, std::uint64_t seed);

/// The row for pos, or nullopt past the table.
std::optional<Eigen::VectorXd> learned_row(long long pos, int max_length, int d, std::uint64_t seed);

}  // namespace poslab::core
