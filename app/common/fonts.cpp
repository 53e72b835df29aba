#include "app/common/fonts.hpp"

namespace poslab::app {

std::vector<std::string> split_font_families(std::string_view families) {
  std::vector<std::string> out;
  while (!families.empty()) {
    const std::size_t comma = families.find(',');
    std::string_view f = families.substr(0, comma);
    while (!f.empty() && f.front() == ' ') f.remove_prefix(1);
    while (!f.empty() && f.back() == ' ') f.remove_suffix(1);
    if (!f.empty()) out.emplace_back(f);
    if (comma == std::string_view::npos) break;
    families.remove_prefix(comma + 1);
  }
  return out;
}

bool is_cjk(char32_t c) {
  return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF);
}

std::vector<TextRun> split_cjk_runs(std::string_view s) {
  std::vector<TextRun> runs;
  std::size_t start = 0, i = 0;
  bool run_cjk = false;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
    char32_t c = n == 1 ? b : b & (0x7F >> n);
    for (std::size_t k = 1; k < n && i + k < s.size(); ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    const bool cjk = n > 1 && is_cjk(c);
    if (i > start && cjk != run_cjk) {
      runs.push_back({s.substr(start, i - start), run_cjk});
      start = i;
    }
    run_cjk = cjk;
    i += n;
  }
  if (start < s.size()) runs.push_back({s.substr(start), run_cjk});
  return runs;
}

}  // namespace poslab::app
