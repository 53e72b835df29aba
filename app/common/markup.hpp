#pragma once
// Text inside XML and HTML: an SVG's <text> and attributes, the <iframe> of
// an embed code.

#include <string>
#include <string_view>

namespace poslab::app {

/// `text` with & < > " escaped: safe as an element's text and inside a
/// double-quoted attribute.
inline std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace poslab::app
