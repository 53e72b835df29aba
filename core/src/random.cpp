#include "poslab/core/random.hpp"

#include <cmath>
#include <numbers>

namespace poslab::core {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

namespace {

/// The key of a (seed, stream) pair; a uniform is then one mix of key ^ index.
std::uint64_t stream_key(std::uint64_t seed, std::uint64_t stream) { return splitmix64(splitmix64(seed) ^ stream); }

double uniform_of(std::uint64_t key, std::uint64_t index) {
  return static_cast<double>(splitmix64(key ^ index) >> 11) * 0x1.0p-53;
}

double normal_of(std::uint64_t key, std::uint64_t index) {
  // Box–Muller with u1 in (0, 1] so the log is finite.
  const double u1 = 1.0 - uniform_of(key, 2 * index);
  const double u2 = uniform_of(key, 2 * index + 1);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace

double random_uniform(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return uniform_of(stream_key(seed, stream), index);
}

double random_normal(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return normal_of(stream_key(seed, stream), index);
}

void random_normals(std::uint64_t seed, std::uint64_t stream, std::uint64_t first, std::span<double> out) {
  const std::uint64_t key = stream_key(seed, stream);
  for (std::size_t j = 0; j < out.size(); ++j) out[j] = normal_of(key, first + j);
}

}  // namespace poslab::core
