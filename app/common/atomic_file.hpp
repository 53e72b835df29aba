#pragma once
// Every file poslab writes (exports, tables, sessions, settings, autosave) goes
// through here: written to a temporary file in the destination folder, flushed,
// then renamed into place. A failure at any step removes the temporary file and
// leaves an existing destination untouched.
//
// A symbolic link is followed (its target is replaced, the link stays); a
// link whose target does not exist yet is followed too (the target is
// created, as a shell's `> link` does; its folder must exist); a loop of
// links is refused (IoError "Too many levels of symbolic links"). An
// existing destination that is not a regular file (/dev/stdout, /dev/null, a
// FIFO) is written in place: renaming over it would replace the device node.
// It is opened without waiting: a FIFO no process reads from is refused at
// once (IoError "no process is reading from this FIFO"), never a hang.

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace poslab::app {

/// An I/O failure (exit code 1 on the command line), with a message that names
/// the path and the reason, e.g. "cannot write /x/y.png: No such file or directory".
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Writes `bytes` to `path` atomically. Raises IoError.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

/// Calls `write(tmp_path)` to produce the file at a temporary path next to
/// `path`, then renames it into place. If `write` throws or the rename fails,
/// the temporary file is removed and the exception propagates (IoError for
/// I/O). Use it for writers that need a path (cairo's PNG/SVG/PDF surfaces).
void write_path_atomically(const std::filesystem::path& path,
                           const std::function<void(const std::filesystem::path& tmp)>& write);

}  // namespace poslab::app
