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

double random_uniform(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  const std::uint64_t h = splitmix64(splitmix64(splitmix64(seed) ^ stream) ^ index);
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

double random_normal(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  // Box–Muller with u1 in (0, 1] so the log is finite.
  const double u1 = 1.0 - random_uniform(seed, stream, 2 * index);
  const double u2 = random_uniform(seed, stream, 2 * index + 1);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace poslab::core
