#include "app/common/link.hpp"

#include <algorithm>
#include <charconv>

#include "app/common/markup.hpp"

namespace poslab::app {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool url_decode(std::string_view in, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = hex_digit(in[i + 1]), lo = hex_digit(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += c;
    }
  }
  return true;
}

std::string url_encode(std::string_view in) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const char ch : in) {
    const auto c = static_cast<unsigned char>(ch);
    const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                       c == '_' || c == '.' || c == '~' || c == ',' || c == ':' || c == '(' || c == ')';
    if (plain) out += static_cast<char>(c);
    else out += '%', out += hex[c >> 4], out += hex[c & 15];
  }
  return out;
}

LinkRequest parse_link(std::string_view fragment) {
  LinkRequest r;
  if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
  while (!fragment.empty()) {
    const std::size_t amp = fragment.find('&');
    const std::string_view part = fragment.substr(0, amp);
    fragment = amp == std::string_view::npos ? std::string_view{} : fragment.substr(amp + 1);
    if (part.empty()) continue;
    const std::size_t eq = part.find('=');
    std::string key, value;
    if (!url_decode(part.substr(0, eq), key) ||
        !url_decode(eq == std::string_view::npos ? std::string_view{} : part.substr(eq + 1), value)) {
      r.error = "the link has a broken %-escape in \"" + std::string(part.substr(0, 80)) + "\"";
      continue;
    }
    if (key == "embed" && (eq == std::string_view::npos || value == "1" || value == "true")) {
      r.embed = true;
      continue;
    }
    if (eq == std::string_view::npos) {
      r.error = "\"" + key.substr(0, 80) + "\" in the link has no value (write KEY=VALUE)";
      continue;
    }
    if (key == "view" || key == "lesson") r.view = value;
    else if (key == "state") r.state = value;
    else if (key == "theme") r.theme = value;
    else if (key == "lang") r.lang = value;
    else if (key == "figure") r.figure = value;
    else if (key == "sliders") {
      r.sliders.clear();
      for (std::string_view rest = value; !rest.empty();) {
        const std::size_t comma = rest.find(',');
        if (const std::string_view k = rest.substr(0, comma); !k.empty()) r.sliders.emplace_back(k);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      }
    }
    else if (key == "step") {
      int n = 0;
      const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || ptr != value.data() + value.size() || n < 1)
        r.error = "step = " + value.substr(0, 40) + ": must be a step number 1, 2, …";
      else r.step = n;
    } else {
      r.params.emplace_back(std::move(key), std::move(value));
    }
  }
  return r;
}

std::string link_fragment(const Session& s, const std::vector<std::string_view>& lesson_keys) {
  std::string out = "view=" + url_encode(s.lesson);
  for (const auto& [key, value] : s.params)  // Session keeps them sorted by key
    if (std::find(lesson_keys.begin(), lesson_keys.end(), key) != lesson_keys.end())
      out += "&" + url_encode(key) + "=" + url_encode(value);
  return out;
}

std::string embed_fragment(const Session& s, const std::vector<std::string_view>& lesson_keys, const EmbedOptions& e) {
  const std::string state = link_fragment(s, lesson_keys);  // view=ID&KEY=VALUE…
  const std::size_t amp = state.find('&');
  std::string out = "embed&" + state.substr(0, amp);
  if (!e.figure.empty()) out += "&figure=" + url_encode(e.figure);
  if (!e.sliders.empty()) {
    out += "&sliders=";
    for (std::size_t i = 0; i < e.sliders.size(); ++i) out += (i ? "," : "") + url_encode(e.sliders[i]);
  }
  if (amp != std::string::npos) out += state.substr(amp);
  if (!e.theme.empty()) out += "&theme=" + url_encode(e.theme);
  if (!e.lang.empty()) out += "&lang=" + url_encode(e.lang);
  return out;
}

std::string embed_snippet(std::string_view src, std::string_view title, int width, int height) {
  return "<iframe src=\"" + xml_escape(src) + "\" width=\"" + std::to_string(width) + "\" height=\"" +
         std::to_string(height) + "\" title=\"" + xml_escape(title) +
         "\" style=\"border:0;max-width:100%\" loading=\"lazy\" allow=\"fullscreen; clipboard-write\"></iframe>";
}

Session link_session(const LinkRequest& link) {
  if (!link.state.empty()) return parse_state_string(link.state);
  Session s;
  s.lesson = link.view;
  s.params = link.params;
  std::sort(s.params.begin(), s.params.end());
  return s;
}

}  // namespace poslab::app
