#pragma once
// The one error type core raises for bad input.

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace poslab::core {

/// The parts of an InvalidParameter's sentence, for a UI that shows it in
/// another language: `id` names the sentence, `args` fill its {name}
/// placeholders. The app looks up "error.<id>" in its translations (see
/// app/common/messages.hpp); English what() is built by core from the same
/// parts, and tests/app/test_i18n.cpp checks that the app's English rendering
/// of every id is byte-identical to what().
///
/// id "spec" is special: the allowed phrase is describe_allowed() of the
/// parameter's ParamSpec, which the app rebuilds from the spec itself (arg
/// "type" when the check used another type than the spec's, see check_integer).
/// `value_id`, when set, names a phrase ("error.value.<value_id>") that
/// replaces value() because value() holds words ("12 items", "(5e6 rows)").
/// An empty id means: no translation, show what().
struct Reason {
  std::string id;
  std::vector<std::pair<std::string, std::string>> args;
  std::string value_id;
};

/// Raised when a parameter value is outside what CONTRACT.md allows.
/// `what()` is one English line naming the parameter, the value and what is
/// allowed, e.g. "d = 7: must be an even integer in 2..8192".
/// `key()`, `value()`, `allowed()` and `reason()` let a UI format it in
/// another language.
class InvalidParameter : public std::invalid_argument {
 public:
  InvalidParameter(std::string key, std::string value, std::string allowed, Reason reason = {})
      : std::invalid_argument(key + " = " + value + ": " + allowed),
        key_(std::move(key)),
        value_(std::move(value)),
        allowed_(std::move(allowed)),
        reason_(std::move(reason)) {}

  const std::string& key() const { return key_; }
  const std::string& value() const { return value_; }
  const std::string& allowed() const { return allowed_; }
  const Reason& reason() const { return reason_; }

 private:
  std::string key_;
  std::string value_;
  std::string allowed_;
  Reason reason_;
};

}  // namespace poslab::core
