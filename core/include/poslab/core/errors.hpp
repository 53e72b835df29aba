#pragma once
// The one error type core raises for bad input.

#include <stdexcept>
#include <string>

namespace poslab::core {

/// Raised when a parameter value is outside what CONTRACT.md allows.
/// `what()` is one English line naming the parameter, the value and what is
/// allowed, e.g. "d = 7: must be an even integer in 2..8192".
/// `key()`, `value()` and `allowed()` let a UI format it in another language.
class InvalidParameter : public std::invalid_argument {
 public:
  InvalidParameter(std::string key, std::string value, std::string allowed)
      : std::invalid_argument(key + " = " + value + ": " + allowed),
        key_(std::move(key)),
        value_(std::move(value)),
        allowed_(std::move(allowed)) {}

  const std::string& key() const { return key_; }
  const std::string& value() const { return value_; }
  const std::string& allowed() const { return allowed_; }

 private:
  std::string key_;
  std::string value_;
  std::string allowed_;
};

}  // namespace poslab::core
