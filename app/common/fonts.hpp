#pragma once
// Fonts found through fontconfig: a clear sans with Greek and math symbols
// (DejaVu Sans) for English, and a face with CJK glyphs for Chinese.

#include <filesystem>
#include <string>

namespace poslab::app {

struct FontChoice {
  std::string family;           ///< for cairo and SVG, e.g. "DejaVu Sans"
  std::filesystem::path file;   ///< for ImGui's atlas
  std::filesystem::path bold_file;
};

/// The font for `lang` ("en" or "zh"). Raises IoError when fontconfig finds no
/// font that covers the language's sample text (θ λ γ σ ≤ · ² for English;
/// also 位置编码 for Chinese).
FontChoice find_font(const std::string& lang);

/// Releases cairo's and fontconfig's process-wide caches. Called once before
/// exit so LeakSanitizer sees only poslab's own allocations; nothing may use
/// cairo or fontconfig afterwards.
void release_font_caches();

}  // namespace poslab::app
