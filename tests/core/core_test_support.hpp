#pragma once
// Shared by the core test suites (and by the app and GUI suites, for the
// refusals): how an invalid input is refused, seeded random vectors, and Eigen
// vectors as the spans core's kernels take.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "poslab/core/errors.hpp"
#include "poslab/core/random.hpp"

namespace poslab::test {

/// The key of the InvalidParameter that `call` raises, or "(accepted)" when it
/// raises none.
inline std::string key_of(auto&& call) {
  try {
    call();
  } catch (const core::InvalidParameter& e) {
    return e.key();
  }
  return "(accepted)";
}

/// The InvalidParameter that `call` must raise (to read its wording).
inline core::InvalidParameter raised_by(auto&& call) {
  try {
    call();
  } catch (const core::InvalidParameter& e) {
    return e;
  }
  FAIL("no InvalidParameter raised");
  return core::InvalidParameter("", "", "");
}

/// Checks that `call` raises InvalidParameter naming `key`, and that its
/// message starts with the key ("d = 7: must be …").
inline void rejects(auto&& call, const std::string& key) {
  CAPTURE(key);
  try {
    call();
    FAIL("accepted");
  } catch (const core::InvalidParameter& e) {
    CHECK(e.key() == key);
    CHECK(std::string(e.what()).find(key) == 0);
  }
}

template <class Scalar>
using Vec = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

/// A seeded N(0, 1) vector of length d: entry j is random_normal(seed, stream, j),
/// so each stream is an independent vector.
template <class Scalar = double>
Vec<Scalar> random_vector(int d, std::uint64_t seed, std::uint64_t stream) {
  Vec<Scalar> v(d);
  for (int j = 0; j < d; ++j) v[j] = static_cast<Scalar>(core::random_normal(seed, stream, static_cast<std::uint64_t>(j)));
  return v;
}

inline std::span<const double> as_span(const Eigen::VectorXd& v) {
  return {v.data(), static_cast<std::size_t>(v.size())};
}

}  // namespace poslab::test
