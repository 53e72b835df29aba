// Counter-based random numbers: the batch form draws the same values, bit for
// bit, as the one-at-a-time form every table and toy is defined by.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "poslab/core/random.hpp"

using namespace poslab::core;

TEST_CASE("random_normals equals random_normal index by index") {
  for (const std::uint64_t seed : {0ULL, 1ULL, 42ULL, (1ULL << 53)})
    for (const std::uint64_t stream : {0ULL, 0x4C4541524E4544ULL, 0x544F590001ULL})
      for (const std::uint64_t first : {0ULL, 1ULL, 8191ULL * 8192ULL, ~0ULL - 300ULL}) {
        std::vector<double> out(257);
        random_normals(seed, stream, first, out);
        CAPTURE(seed);
        CAPTURE(stream);
        CAPTURE(first);
        for (std::size_t j = 0; j < out.size(); ++j) CHECK(out[j] == random_normal(seed, stream, first + j));
      }
  std::vector<double> none;
  random_normals(3, 4, 5, none);  // an empty span draws nothing
  CHECK(none.empty());
}
