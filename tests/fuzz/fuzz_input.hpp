#pragma once
// Turning fuzz bytes into poslab inputs: a small reader over the byte string.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "poslab/core/params.hpp"

namespace poslab::fuzz {

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : s_(reinterpret_cast<const char*>(data), size) {}
  bool empty() const { return pos_ >= s_.size(); }
  /// One byte (0 when exhausted).
  std::uint8_t byte() { return empty() ? 0 : static_cast<std::uint8_t>(s_[pos_++]); }
  /// The text up to the next newline (or the end).
  std::string_view line() {
    const std::size_t end = s_.find('\n', pos_);
    const std::string_view out = s_.substr(pos_, end == std::string_view::npos ? std::string_view::npos : end - pos_);
    pos_ = end == std::string_view::npos ? s_.size() : end + 1;
    return out;
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
};

/// Applies "value" lines to keys picked by a byte from `keys`, skipping
/// invalid values (they must be rejected cleanly, which is what is tested)
/// and lists longer than `max_items` (to keep each run fast).
inline core::Params fuzzed_params(Input& in, const std::vector<std::string_view>& keys, std::size_t max_items) {
  core::Params p;
  for (int n = 0; n < 6 && !in.empty() && !keys.empty(); ++n) {
    const std::string_view key = keys[in.byte() % keys.size()];
    const std::string_view text = in.line();
    try {
      const core::ParamSpec& spec = core::param_spec(key);
      const core::ParamValue v = core::parse_param_value(spec, text);
      if (const auto* list = std::get_if<std::vector<double>>(&v); list && list->size() > max_items) continue;
      p.set(key, v);
    } catch (const core::InvalidParameter&) {
    }
  }
  return p;
}

/// Prints what was being tested, then aborts (the fuzzer saves the input).
[[noreturn]] inline void fail(std::string_view what, std::string_view where, const core::Params& p) {
  std::string set;
  for (const auto& k : p.set_keys()) set += " " + k + "=" + core::format_param_value(core::param_spec(k), p.value(k));
  std::fprintf(stderr, "poslab fuzz: %.*s in %.*s with%s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(where.size()), where.data(), set.c_str());
  std::abort();
}

}  // namespace poslab::fuzz
