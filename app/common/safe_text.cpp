#include "app/common/safe_text.hpp"

#include <cstdint>

#include "app/common/utf8.hpp"

namespace poslab::app {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

/// Decodes the UTF-8 character at s[i] and advances i; invalid bytes (a lone
/// continuation byte, an overlong form, a surrogate, past U+10FFFF, a cut
/// sequence) decode to U+FFFD one byte at a time.
char32_t next_char(std::string_view s, std::size_t& i) {
  const auto at = [&](std::size_t k) -> unsigned { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  const auto cont = [](unsigned b) { return (b & 0xC0) == 0x80; };
  const unsigned c = at(0);
  if (c < 0x80) {
    ++i;
    return c;
  }
  std::size_t n = 0;
  char32_t cp = 0, min = 0;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07, min = 0x10000;
  for (std::size_t k = 1; k < n; ++k) {
    if (!cont(at(k))) {
      n = 0;
      break;
    }
    cp = (cp << 6) | (at(k) & 0x3F);
  }
  if (n == 0 || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return kReplacement;
  }
  i += n;
  return cp;
}

using utf8::append;

std::string hex(std::uint32_t v, int digits) {
  static const char* kDigits = "0123456789ABCDEF";
  std::string out(static_cast<std::size_t>(digits), '0');
  for (int k = digits - 1; k >= 0; --k, v >>= 4) out[static_cast<std::size_t>(k)] = kDigits[v & 0xF];
  return out;
}

bool is_c0_or_del(char32_t c) { return c < 0x20 || c == 0x7F; }
bool is_c1(char32_t c) { return c >= 0x80 && c <= 0x9F; }

/// Characters that reorder or split what a reader sees without being seen.
bool is_invisible_control(char32_t c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) ||
         c == 0x2028 || c == 0x2029;
}

bool is_word(char32_t c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

}  // namespace

std::string for_terminal(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char32_t c = next_char(text, i);
    if (is_c0_or_del(c)) {
      switch (c) {
        case '\n': out += keep_newlines ? "\n" : "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case 0: out += "\\0"; break;
        case 0x1B: out += "\\e"; break;
        default: out += "\\x" + hex(c, 2);
      }
    } else if (is_c1(c) || is_invisible_control(c)) {
      out += "\\u" + hex(c, 4);
    } else {
      append(out, c);
    }
  }
  return out;
}

std::string for_xml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char32_t c = next_char(text, i);
    switch (c) {
      case '&': out += "&amp;"; continue;
      case '<': out += "&lt;"; continue;
      case '>': out += "&gt;"; continue;
      case '"': out += "&quot;"; continue;
      case '\'': out += "&apos;"; continue;
      default: break;
    }
    // XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
    const bool allowed = c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
                         (c >= 0x10000 && c <= 0x10FFFF);
    append(out, allowed ? c : kReplacement);
  }
  return out;
}

std::string for_markdown(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char32_t previous = ' ';
  for (std::size_t i = 0; i < text.size();) {
    const char32_t c = next_char(text, i);
    std::size_t peek = i;
    const char32_t next = i < text.size() ? next_char(text, peek) : ' ';
    switch (c) {
      case '\n':
      case '\r':
      case '\t': out += ' '; break;
      case '|':
      case '`':
      case '\\':
      case '*':
      case '[':
      case ']':
        out += '\\';
        out += static_cast<char>(c);
        break;
      case '_':  // intraword (rope_type, gpt_neox) is never emphasis; elsewhere it could be
        if (!(is_word(previous) && is_word(next))) out += '\\';
        out += '_';
        break;
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      default:
        if (is_c0_or_del(c) || is_c1(c) || is_invisible_control(c)) append(out, kReplacement);
        else append(out, c);
    }
    previous = c;
  }
  return out;
}

}  // namespace poslab::app
