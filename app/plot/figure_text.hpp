#pragma once
// Small helpers figure builders share for text: numbers as a caption shows
// them ("10,000", "3.2e-4") and "key = value" subtitles.

#include <string>
#include <string_view>
#include <vector>

#include "app/common/utf8.hpp"
#include "app/plot/render.hpp"

namespace poslab::app::fig {

/// A number for captions: integers with thousands separators, others with
/// `significant` digits (the hover readout style).
inline std::string num(double v, int significant = 4) { return format_readout(v, significant); }

/// "a · b · c": parts joined by a middle dot, empty parts skipped (no space
/// before the dot after a full-width mark: "YaRN（代码）· YaRN（论文）").
inline std::string join_dot(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) {
    if (p.empty()) continue;
    if (!out.empty()) out += utf8::ends_full_width(out) ? "· " : " · ";
    out += p;
  }
  return out;
}

}  // namespace poslab::app::fig
