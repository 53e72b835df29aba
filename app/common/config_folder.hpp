#pragma once
// The folder poslab keeps its settings and autosave in, and the rules that
// keep what is there safe:
//
// - Where: $XDG_CONFIG_HOME/poslab, else $HOME/.config/poslab — only when
//   that path is private (see is_private_path): never a predictable path in a
//   folder other users can write (HOME unset used to mean /tmp/.config/poslab).
//   No usable folder: the app runs without saving and says so.
// - One writer: a process writes there only while it holds an exclusive
//   flock(2) on <folder>/poslab.lock (ConfigLock). A second instance sharing
//   the folder reads but never writes, and says so.
// - Nothing lost: a settings or autosave file that cannot be read, or that a
//   newer poslab wrote, is renamed aside (keep_aside) rather than replaced.
//
// No ImGui: the GUI shell (app/ui/app.cpp) and the tests use it.

#include <filesystem>
#include <optional>
#include <string>

namespace poslab::app {

/// The config folder from the environment, or why there is none (an English
/// phrase for stderr and logs; the GUI says it with ui.config.no_folder).
struct ConfigLocation {
  std::filesystem::path dir;  ///< empty: no usable folder
  std::string why_none;
};
ConfigLocation find_config_dir();

/// $HOME when it names a private folder (absolute, existing, is_private_path), else nullopt.
std::optional<std::filesystem::path> private_home_dir();

/// True when no other user can replace or plant entries along `dir`: every
/// existing folder on the way belongs to this user or root and is writable
/// by no one else (not by others; not by its group, unless the group is this
/// user's private group), except sticky folders (/tmp) whose next component
/// exists and belongs to this user (or root); `dir` itself, if it exists,
/// is not writable by others. Parts that do not exist yet are created by
/// this user, inside a private parent. `why` names the offending folder.
bool is_private_path(const std::filesystem::path& dir, std::string* why = nullptr);

/// An exclusive advisory lock on <dir>/poslab.lock, held while the object
/// lives (flock(2), released by the kernel if the process dies). Creates the
/// folder (mode 0700) if needed.
class ConfigLock {
 public:
  ConfigLock() = default;
  /// Tries once, without waiting. held() says whether it got the lock; if not,
  /// `busy()` tells another process holds it, else `error()` says why the
  /// folder or the lock file cannot be written.
  explicit ConfigLock(const std::filesystem::path& dir);
  ~ConfigLock();
  ConfigLock(ConfigLock&& other) noexcept;
  ConfigLock& operator=(ConfigLock&& other) noexcept;
  ConfigLock(const ConfigLock&) = delete;
  ConfigLock& operator=(const ConfigLock&) = delete;

  bool held() const { return fd_ >= 0; }
  bool busy() const { return busy_; }
  const std::string& error() const { return error_; }

 private:
  int fd_ = -1;
  bool busy_ = false;
  std::string error_;
};

/// Renames `file` to <file>.unreadable-YYYYMMDD-HHMMSS (then -2, -3, … if
/// taken), never over an existing file, and returns the new path. Raises
/// IoError when it cannot.
std::filesystem::path keep_aside(const std::filesystem::path& file);

}  // namespace poslab::app
