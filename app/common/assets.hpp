#pragma once
// Where poslab's assets (presets, lesson texts, translations, icon) live.

#include <filesystem>

namespace poslab::app {

/// The assets folder, found in this order: $POSLAB_ASSETS; next to an
/// installed binary (<prefix>/share/poslab/assets); the build tree's copy
/// (<exe dir>/assets); the source tree it was built from. Raises IoError if
/// none exists.
std::filesystem::path assets_dir();

/// Reads a whole file. Raises IoError naming the path and the reason.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace poslab::app
