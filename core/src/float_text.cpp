#include "poslab/core/float_text.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>

namespace poslab::core {

namespace portable {

namespace {

/// The shortest digits d₀d₁…dₙ₋₁ and exponent e with x = ±0.d₀d₁… × 10^(e+1)
/// ("%.*e" at increasing precision until it reads back as x; printf rounds
/// correctly, so the first that does is also the closest of that length).
struct Digits {
  bool negative = false;
  std::string digits;  ///< no leading or trailing zeros (x ≠ 0)
  int exponent = 0;    ///< of the first digit
};

template <typename T>
Digits shortest(T x) {
  Digits d;
  d.negative = std::signbit(x);
  const double v = std::fabs(static_cast<double>(x));
  char buf[64];
  for (int precision = 0; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision, v);
    const bool same = sizeof(T) == sizeof(float) ? std::strtof(buf, nullptr) == static_cast<float>(v)
                                                 : std::strtod(buf, nullptr) == v;
    if (same || precision == 17) break;
  }
  const char* e = std::strchr(buf, 'e');
  for (const char* p = buf; p < e; ++p)
    if (*p != '.') d.digits += *p;
  d.exponent = std::atoi(e + 1);
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
  return d;
}

/// Fixed notation of the shortest digits; an integer too long for them is
/// written exactly instead ("%.0f"), as std::to_chars does (1e23 →
/// 99999999999999991611392, 80207104.f → 80207104).
std::string fixed_text(const Digits& d, double exact) {
  std::string s = d.negative ? "-" : "";
  const int n = static_cast<int>(d.digits.size());
  if (d.exponent + 1 > n) {
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.0f", std::fabs(exact));
    return s + buf;
  }
  if (d.exponent < 0) {
    s += "0." + std::string(static_cast<std::size_t>(-d.exponent - 1), '0') + d.digits;
  } else if (d.exponent + 1 == n) {
    s += d.digits;
  } else {
    s += d.digits.substr(0, static_cast<std::size_t>(d.exponent + 1)) + "." +
         d.digits.substr(static_cast<std::size_t>(d.exponent + 1));
  }
  return s;
}

std::string scientific_text(const Digits& d) {
  std::string s = d.negative ? "-" : "";
  s += d.digits.substr(0, 1);
  if (d.digits.size() > 1) s += "." + d.digits.substr(1);
  char exp[16];
  std::snprintf(exp, sizeof exp, "e%c%02d", d.exponent < 0 ? '-' : '+', d.exponent < 0 ? -d.exponent : d.exponent);
  return s + exp;
}

std::to_chars_result put(char* first, char* last, const std::string& s) {
  if (static_cast<std::size_t>(last - first) < s.size()) return {last, std::errc::value_too_large};
  std::memcpy(first, s.data(), s.size());
  return {first + s.size(), std::errc()};
}

template <typename T>
std::string special(T x, bool& is_special) {
  is_special = true;
  if (std::isnan(x)) return std::signbit(x) ? "-nan" : "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  if (x == 0) return std::signbit(x) ? "-0" : "0";
  is_special = false;
  return {};
}

}  // namespace

std::from_chars_result read_double(const char* first, const char* last, double& out) {
  const std::string text(first, last);
  const char* s = text.c_str();
  const char* body = s + (*s == '-' ? 1 : 0);
  // strtod also takes what from_chars refuses: blanks, '+', hexadecimal.
  if (!*body || std::isspace(static_cast<unsigned char>(*body)) || *body == '+' ||
      (body[0] == '0' && (body[1] == 'x' || body[1] == 'X')))
    return {first, std::errc::invalid_argument};
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s, &end);
  if (end == s) return {first, std::errc::invalid_argument};
  const char* ptr = first + (end - s);
  if (errno == ERANGE && (std::isinf(v) || v == 0)) return {ptr, std::errc::result_out_of_range};
  out = v;
  return {ptr, std::errc()};
}

std::to_chars_result write_double(char* first, char* last, double x, std::chars_format format) {
  bool is_special = false;
  const std::string sp = special(x, is_special);
  if (is_special) return put(first, last, format == std::chars_format::scientific && sp.back() == '0' ? sp + "e+00" : sp);
  const Digits d = shortest(x);
  return put(first, last, format == std::chars_format::scientific ? scientific_text(d) : fixed_text(d, x));
}

std::to_chars_result write_float(char* first, char* last, float x) {
  bool is_special = false;
  const std::string sp = special(x, is_special);
  if (is_special) return put(first, last, sp);
  const Digits d = shortest(x);
  const std::string f = fixed_text(d, x), e = scientific_text(d);
  return put(first, last, f.size() <= e.size() ? f : e);
}

}  // namespace portable

#if defined(__cpp_lib_to_chars)

std::from_chars_result read_double(const char* first, const char* last, double& out) {
  return std::from_chars(first, last, out, std::chars_format::general);
}

std::to_chars_result write_double(char* first, char* last, double x, std::chars_format format) {
  return std::to_chars(first, last, x, format);
}

std::to_chars_result write_float(char* first, char* last, float x) { return std::to_chars(first, last, x); }

#else

std::from_chars_result read_double(const char* first, const char* last, double& out) {
  return portable::read_double(first, last, out);
}

std::to_chars_result write_double(char* first, char* last, double x, std::chars_format format) {
  return portable::write_double(first, last, x, format);
}

std::to_chars_result write_float(char* first, char* last, float x) { return portable::write_float(first, last, x); }

#endif

}  // namespace poslab::core
