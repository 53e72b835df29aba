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
//
// An existing file keeps its mode (0600 stays 0600); one with other hard
// links, or an owner or group this user cannot give a new file, is rewritten
// in place instead of replaced, so every link sees the new content and
// nothing about the file changes but its bytes. Temporary names fit in 255
// bytes whatever the file's name; a temporary file left by a killed process
// is named ".<name>.tmp-<tag>" (remove_stale_temporaries).

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

/// Several files written into one folder as a set (a deck's pages, a
/// lesson's figures, a sweep's frames): each goes into a temporary folder as
/// it is made, so memory holds one at a time, and they move into `folder`
/// only at commit(). A set that fails or is dropped before commit() leaves
/// the folder as it was. `folder` may exist (files of the same names are
/// replaced, others stay) or not; then only it is created (its parent must
/// exist, as for every --out) and appears whole, with one rename.
class FileSet {
 public:
  /// Raises IoError when `folder` is not a folder or cannot be created.
  explicit FileSet(std::filesystem::path folder);
  ~FileSet();  ///< removes what was not committed
  FileSet(const FileSet&) = delete;
  FileSet& operator=(const FileSet&) = delete;

  /// Writes the file `name` (a name, no folder) of the set. Raises IoError.
  void write(const std::string& name, std::string_view bytes);
  /// As write_path_atomically: `write(path)` produces the file at a path in the set.
  void write_with(const std::string& name, const std::function<void(const std::filesystem::path& tmp)>& write);
  /// Moves every file into the folder and returns their paths. If one cannot
  /// be put in place (a rare I/O error after everything was written), IoError
  /// says which files were written and which were not.
  std::vector<std::filesystem::path> commit();

  const std::filesystem::path& folder() const { return folder_; }

 private:
  std::filesystem::path folder_, staging_;
  bool folder_is_new_ = false, committed_ = false;
  std::vector<std::string> names_;
};

/// Removes the temporary files (".<name>.tmp-<tag>") and sets a killed
/// poslab left in `dir`; call it only while no other poslab writes there
/// (the config folder's lock held). Returns how many were removed.
int remove_stale_temporaries(const std::filesystem::path& dir);

/// Creates the folder `dir` for an --out: one level, its parent must exist
/// ("folder /a/b does not exist" otherwise, as for files). An existing
/// folder is fine; anything else there is refused. Raises IoError.
void create_out_folder(const std::filesystem::path& dir);

}  // namespace poslab::app
