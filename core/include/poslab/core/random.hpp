#pragma once
// Deterministic, platform-independent random numbers for toy vectors and
// weights. std::normal_distribution differs between standard libraries, so a
// seed would not give students the same numbers everywhere; these do.
//
// Counter-based: every value is a pure function of (seed, stream, index), so a
// figure can sample any entry of a "random table" without storing the table.

#include <cstdint>
#include <span>

namespace poslab::core {

/// SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mix.
std::uint64_t splitmix64(std::uint64_t x);

/// Uniform in [0, 1) with 53 random bits, from (seed, stream, index).
double random_uniform(std::uint64_t seed, std::uint64_t stream, std::uint64_t index);

/// Standard normal N(0, 1) from (seed, stream, index), by Box–Muller on two
/// independent uniforms. Finite for every input.
double random_normal(std::uint64_t seed, std::uint64_t stream, std::uint64_t index);

/// out[j] = random_normal(seed, stream, first + j), bit for bit, with the
/// (seed, stream) mixing done once instead of per value (a row of a random
/// table in one call).
void random_normals(std::uint64_t seed, std::uint64_t stream, std::uint64_t first, std::span<double> out);

}  // namespace poslab::core
