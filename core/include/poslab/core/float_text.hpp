#pragma once
// Floating-point numbers to and from text, exactly: the shortest text that
// reads back as the same number, and reading as std::from_chars does
// (no leading blanks or '+', no hex, the "C" locale whatever the machine's).
//
// std::to_chars / std::from_chars for double and float where the C++
// library has them (libstdc++ 11+: __cpp_lib_to_chars); a portable
// equivalent built on snprintf/strtod where it has not (libc++ before 17,
// which emscripten 3.1.6 ships: the browser build). tests/core/test_float_text.cpp
// checks that both give the same text.

#include <charconv>
#include <string_view>

namespace poslab::core {

/// As std::from_chars(first, last, out, std::chars_format::general).
std::from_chars_result read_double(const char* first, const char* last, double& out);

/// As std::to_chars(first, last, x, format) for format fixed or scientific:
/// the shortest digits that read back as x.
std::to_chars_result write_double(char* first, char* last, double x, std::chars_format format);

/// As std::to_chars(first, last, x): the shorter of the fixed and scientific
/// shortest round-trip forms (fixed on a tie).
std::to_chars_result write_float(char* first, char* last, float x);

namespace portable {
// The snprintf/strtod versions, used when the library lacks the std ones;
// always built, so the tests compare them with the std ones where both exist.
std::from_chars_result read_double(const char* first, const char* last, double& out);
std::to_chars_result write_double(char* first, char* last, double x, std::chars_format format);
std::to_chars_result write_float(char* first, char* last, float x);
}  // namespace portable

}  // namespace poslab::core
