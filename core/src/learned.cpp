// Learned absolute position embeddings (BERT: Devlin et al. 2019 §3; GPT-2),
// at initialisation: a max_length × d table with entries ~ N(0, 0.02²), as HF
// transformers' BertPreTrainedModel._init_weights does for
// `position_embeddings` (normal_(mean=0.0, std=config.initializer_range),
// initializer_range = 0.02). The table has no row for pos >= max_length: a
// model with max_position_embeddings = 512 cannot look up position 512.
//
// Entry (pos, dim) = 0.02 · random_normal(seed, kLearnedStream, pos·8192 + dim).
// The index does not depend on d or max_length, so a wider or longer table
// keeps the entries of the smaller one (8192 = the largest d allowed).

#include "poslab/core/learned.hpp"

#include <string>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/random.hpp"

namespace poslab::core {

namespace {

/// The random stream of learned tables ("LEARNED" in ASCII), distinct from the
/// streams other toy inputs use.
constexpr std::uint64_t kLearnedStream = 0x4C4541524E4544ULL;
constexpr std::uint64_t kMaxD = 8192;

void check_table(int max_length, int d, std::uint64_t seed) {
  check_integer("max_length", max_length);
  check_integer("d", d);
  // Compare as an integer first: the cast to double rounds seeds above 2^53.
  if (seed > (std::uint64_t{1} << 53))
    throw InvalidParameter("seed", std::to_string(seed), describe_allowed(param_spec("seed")),
                           allowed_reason(param_spec("seed")));
  check_integer("seed", static_cast<double>(seed));
}

double entry(long long pos, int dim, std::uint64_t seed) {
  const std::uint64_t index = static_cast<std::uint64_t>(pos) * kMaxD + static_cast<std::uint64_t>(dim);
  return kLearnedInitStddev * random_normal(seed, kLearnedStream, index);
}

}  // namespace

std::optional<double> learned_value(long long pos, int dim, int max_length, int d, std::uint64_t seed) {
  check_table(max_length, d, seed);
  if (dim < 0 || dim >= d)
    throw InvalidParameter("dims", std::to_string(dim), "must be a dimension in 0..d-1 = 0.." + std::to_string(d - 1),
                           Reason{"dims_in_range", {{"last", std::to_string(d - 1)}}, {}});
  if (pos < 0 || pos >= max_length) return std::nullopt;
  return entry(pos, dim, seed);
}

std::optional<Eigen::VectorXd> learned_row(long long pos, int max_length, int d, std::uint64_t seed) {
  check_table(max_length, d, seed);
  if (pos < 0 || pos >= max_length) return std::nullopt;
  Eigen::VectorXd row(d);
  random_normals(seed, kLearnedStream, static_cast<std::uint64_t>(pos) * kMaxD, {row.data(), static_cast<std::size_t>(d)});
  row *= kLearnedInitStddev;  // entry(pos, dim, seed) for every dim
  return row;
}

}  // namespace poslab::core
