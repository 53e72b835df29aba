#pragma once
// Where poslab's assets (presets, lesson texts, translations, icon) live.

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>

#include "app/common/atomic_file.hpp"

namespace poslab::app {

/// The assets folder, found in this order: $POSLAB_ASSETS; next to an
/// installed binary (<prefix>/share/poslab/assets); the build tree's copy
/// (<exe dir>/assets); the source tree it was built from. Raises IoError if
/// none exists.
std::filesystem::path assets_dir();

/// Reads a whole file. Raises IoError naming the path and the reason.
std::string read_text_file(const std::filesystem::path& path);

/// Reads a file a user chose (a dropped or opened model config): at most
/// `limit` bytes, so a huge file or an endless one (a pipe, /dev/zero) is
/// refused instead of read into memory; IoError "… is larger than … — too
/// large to be `what`".
std::string read_text_file(const std::filesystem::path& path, std::size_t limit, std::string_view what);

/// The same for a stream (standard input): at most `limit` bytes, else
/// IoError "<name> is larger than … — too large to be `what`".
std::string read_text_stream(std::istream& in, std::size_t limit, std::string_view name, std::string_view what);

/// What the capped readers raise for a file over their limit.
class TooLargeError : public IoError {
 public:
  using IoError::IoError;
};

/// "<name> is larger than 16 MiB — too large to be a model config".
std::string too_large_message(const std::string& name, std::size_t limit, std::string_view what);

}  // namespace poslab::app
