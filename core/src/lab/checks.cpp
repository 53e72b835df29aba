#include "poslab/core/lab/checks.hpp"

#include <cmath>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"

namespace poslab::core::lab {

void check_integer_in(std::string_view key, long long value, long long min, long long max) {
  if (value >= min && value <= max) return;
  const std::string lo = std::to_string(min), hi = std::to_string(max);
  throw InvalidParameter(std::string(key), std::to_string(value), "must be an integer in " + lo + ".." + hi,
                         Reason{"integer_in", {{"min", lo}, {"max", hi}}, {}});
}

void check_number_in(std::string_view key, double value, double min, double max) {
  if (std::isfinite(value) && value >= min && value <= max) return;
  const std::string lo = format_number(min), hi = format_number(max);
  throw InvalidParameter(std::string(key), format_number(value), "must be a number in " + lo + ".." + hi,
                         Reason{"number_in", {{"min", lo}, {"max", hi}}, {}});
}

void refuse_choice(std::string_view key, std::string_view word, std::string_view choices) {
  throw InvalidParameter(std::string(key), std::string(word), "must be one of " + std::string(choices),
                         Reason{"one_of", {{"choices", std::string(choices)}}, {}});
}

}  // namespace poslab::core::lab
