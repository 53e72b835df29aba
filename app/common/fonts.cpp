#include "app/common/fonts.hpp"

#include <cstdint>
#include <fstream>

namespace poslab::app {

double em_share_of_height(const std::filesystem::path& file, int index) {
  // An sfnt file (OpenType spec, "Font file" and "TTC header"): a table
  // directory, or for a collection a list of offsets to one per face.
  std::ifstream in(file, std::ios::binary);
  auto read = [&](std::uint32_t at, int bytes) -> std::int64_t {
    unsigned char b[4] = {};
    in.seekg(at);
    if (!in.read(reinterpret_cast<char*>(b), bytes)) return -1;
    std::uint32_t v = 0;
    for (int k = 0; k < bytes; ++k) v = (v << 8) | b[k];
    return v;
  };
  const auto as_int16 = [](std::int64_t v) { return static_cast<std::int16_t>(static_cast<std::uint16_t>(v)); };
  if (!in || index < 0) return 0;
  std::int64_t directory = 0;
  if (read(0, 4) == 0x74746366) {  // 'ttcf'
    const std::int64_t faces = read(8, 4);
    if (faces < 0 || index >= faces) return 0;
    directory = read(12 + 4 * static_cast<std::uint32_t>(index), 4);
  } else if (index != 0) {
    return 0;
  }
  const std::int64_t tables = directory < 0 ? -1 : read(static_cast<std::uint32_t>(directory) + 4, 2);
  if (tables < 0 || tables > 4096) return 0;
  std::int64_t head = -1, hhea = -1;
  for (std::int64_t t = 0; t < tables; ++t) {
    const auto record = static_cast<std::uint32_t>(directory + 12 + 16 * t);
    const std::int64_t tag = read(record, 4);
    if (tag == 0x68656164) head = read(record + 8, 4);  // 'head'
    if (tag == 0x68686561) hhea = read(record + 8, 4);  // 'hhea'
  }
  if (head < 0 || hhea < 0) return 0;
  const std::int64_t units_per_em = read(static_cast<std::uint32_t>(head) + 18, 2);
  const std::int64_t ascender = read(static_cast<std::uint32_t>(hhea) + 4, 2);
  const std::int64_t descender = read(static_cast<std::uint32_t>(hhea) + 6, 2);
  if (units_per_em <= 0 || ascender < 0 || descender < 0) return 0;
  const int height = as_int16(ascender) - as_int16(descender);
  return height > 0 ? static_cast<double>(units_per_em) / height : 0;
}

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
