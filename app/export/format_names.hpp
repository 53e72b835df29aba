#pragma once
// The words that name file formats (--format png, --format md) and the one
// error a word outside them gives, shared by figure and table exports.

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "poslab/core/params.hpp"

namespace poslab::app {

/// A format's word on the command line (and its file extension), with its value.
template <class Format>
struct FormatName {
  const char* word;
  Format format;
};

/// The format `word` names. Raises core::InvalidParameter("format", word,
/// "must be one of a, b, c") listing the words in their order.
template <class Format, std::size_t N>
Format parse_format(std::string_view word, const std::array<FormatName<Format>, N>& names) {
  std::string choices;
  for (const FormatName<Format>& n : names) {
    if (word == n.word) return n.format;
    choices += (choices.empty() ? "" : ", ") + std::string(n.word);
  }
  throw core::InvalidParameter("format", std::string(word), "must be one of " + choices,
                               core::Reason{"one_of", {{"choices", choices}}, {}});
}

/// The word of `format` ("" when `names` lacks it).
template <class Format, std::size_t N>
const char* format_word(Format format, const std::array<FormatName<Format>, N>& names) {
  for (const FormatName<Format>& n : names)
    if (n.format == format) return n.word;
  return "";
}

}  // namespace poslab::app
