#pragma once
// UTF-8 by hand, one copy for the app: reading a code point (lenient — an
// invalid lead byte or a cut sequence is read as one byte, itself, so text
// measurement and wrapping never stall) and appending one. Strict validation
// of files is json_input's (it refuses what is not UTF-8).

#include <cstddef>
#include <string>
#include <string_view>

namespace poslab::app::utf8 {

/// The code point at s[i] and its length in bytes `n` (an invalid byte: itself, one byte).
inline char32_t decode(std::string_view s, std::size_t i, std::size_t& n) {
  const auto b = static_cast<unsigned char>(s[i]);
  n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
  if (i + n > s.size()) n = 1;
  char32_t c = n == 1 ? b : b & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return c;
}

/// True if `s` ends in a full-width closing mark (）」》：，；。、), whose glyph
/// carries its own space: Chinese sets "（代码）· 论文" and "（代码）混合",
/// not "（代码） · 论文" (fig::join_dot, fill_sentence).
inline bool ends_full_width(std::string_view s) {
  for (std::string_view mark : {"）", "」", "》", "：", "，", "；", "。", "、"})
    if (s.ends_with(mark)) return true;
  return false;
}

/// Appends `cp` to `out` as UTF-8 (1–4 bytes).
inline void append(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace poslab::app::utf8
