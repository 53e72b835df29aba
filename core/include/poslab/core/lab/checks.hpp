#pragma once
// The lab's argument checks: one line naming the key, the value and the
// allowed range, as core::InvalidParameter (translated by the app through the
// reason ids "integer_in", "number_in", "one_of", "lab_head_size", "at_least").

#include <string>
#include <string_view>

namespace poslab::core::lab {

/// Raises InvalidParameter(key, …, "must be an integer in min..max") unless min <= value <= max.
void check_integer_in(std::string_view key, long long value, long long min, long long max);
/// Raises InvalidParameter(key, …, "must be a number in min..max") unless value is finite and in range.
void check_number_in(std::string_view key, double value, double min, double max);
/// Raises InvalidParameter(key, word, "must be one of <choices>").
[[noreturn]] void refuse_choice(std::string_view key, std::string_view word, std::string_view choices);

}  // namespace poslab::core::lab
