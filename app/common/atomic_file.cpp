#include "app/common/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <random>
#include <system_error>

#include "app/common/assets.hpp"

namespace poslab::app {

namespace fs = std::filesystem;

namespace {

std::string reason(int err) { return std::strerror(err); }

/// Longest file name most file systems take (NAME_MAX).
constexpr std::size_t kMaxNameBytes = 255;

/// A random tag for temporary names: a stale one (a process killed mid-write)
/// is recognised by ".tmp-" (remove_stale_temporaries).
std::string temp_tag() {
  std::random_device rd;
  return std::to_string(rd()) + std::to_string(::getpid());
}

/// "." + `name` + ".tmp-" + tag, the name shortened (at a character
/// boundary) when the whole would be longer than a file name may be: a legal
/// 243-byte name still gets a temporary name.
std::string temp_name_for(const std::string& name) {
  const std::string suffix = ".tmp-" + temp_tag();
  std::string stem = name;
  const std::size_t room = kMaxNameBytes - 1 - suffix.size();
  if (stem.size() > room) {
    std::size_t cut = room;
    while (cut > 0 && (static_cast<unsigned char>(stem[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    stem.resize(cut);
  }
  return "." + stem + suffix;
}

fs::path temp_path_for(const fs::path& path) {
  // Same folder, so the final rename never crosses file systems.
  return path.parent_path() / temp_name_for(path.filename().string());
}

void check_destination(const fs::path& path) {
  if (path.empty()) throw IoError("cannot write an empty path");
  const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw IoError("cannot write " + path.string() + ": folder " + dir.string() + " does not exist");
  if (fs::is_directory(path, ec))
    throw IoError("cannot write " + path.string() + ": it is a folder");
}

/// Symbolic links followed before a path is given up as a loop (Linux's own limit).
constexpr int kMaxSymlinkHops = 40;

/// Where the bytes really go: a symbolic link's final target (so the link
/// stays a link and its target is written), else the path itself. A link
/// whose target does not exist yet is followed too — the target is created,
/// as `> link` does in a shell (check_destination then wants its folder). A
/// loop of links is refused (IoError), nothing written.
fs::path resolved(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_symlink(path, ec)) return path;
  if (fs::exists(fs::status(path, ec))) {
    // The target exists. /dev/stdout → /proc/self/fd/1 → "pipe:[…]" has no
    // canonical path: the link itself then (a pipe, written in place).
    const fs::path target = fs::canonical(path, ec);
    return ec ? path : target;
  }
  // A dangling link or a loop: follow one link at a time.
  fs::path p = path;
  for (int hops = 0; fs::is_symlink(p, ec); ++hops) {
    if (hops == kMaxSymlinkHops) throw IoError("cannot write " + path.string() + ": " + reason(ELOOP));
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) throw IoError("cannot write " + path.string() + ": " + ec.message());
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  return p;
}

/// An existing destination that is not a regular file (a device such as
/// /dev/stdout or /dev/null, a FIFO): written in place. Renaming a temporary
/// file over it would replace the device node itself, and there is no file
/// content there to keep intact.
bool is_special(const fs::path& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  return !ec && fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st);
}

/// Writes all of `bytes` to `fd`; returns 0 or the errno of the failure.
int write_all(int fd, std::string_view bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

/// Opens an existing special destination for writing without ever waiting
/// for it: a FIFO no process reads from is refused at once (ENXIO) instead of
/// blocking forever; once open, writes block as usual (a slow reader is fine).
int open_special(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int err = errno;
    if (err == ENXIO) throw IoError("cannot write " + path.string() + ": no process is reading from this FIFO");
    throw IoError("cannot write " + path.string() + ": " + reason(err));
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

void write_in_place(const fs::path& path, std::string_view bytes) {
  const int fd = open_special(path);
  int err = write_all(fd, bytes);
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) throw IoError("cannot write " + path.string() + ": " + reason(err));
}

/// Copies the finished temporary file into `path` in place (the same inode:
/// its links, owner, group and mode stay), then removes it.
void copy_into_place(const fs::path& tmp, const fs::path& path) {
  std::string bytes;
  try {
    bytes = read_text_file(tmp);
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  std::remove(tmp.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) throw IoError("cannot write " + path.string() + ": " + reason(errno));
  int err = write_all(fd, bytes);
  if (err == 0 && ::ftruncate(fd, static_cast<off_t>(bytes.size())) != 0) err = errno;
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) throw IoError("cannot write " + path.string() + ": " + reason(err));
}

/// Puts the finished temporary file `tmp` (in `path`'s folder) in place of
/// `path`. A new file keeps the mode the umask gives. An existing regular
/// file keeps what a rename would lose: its mode (0600 stays 0600) and, when
/// it has other hard links or an owner or group this user cannot give the
/// new file, its inode — then it is rewritten in place, as an editor does, so
/// every link sees the new content.
void rename_into_place(const fs::path& tmp, const fs::path& path) {
  struct stat old {};
  if (::lstat(path.c_str(), &old) == 0 && S_ISREG(old.st_mode)) {
    bool in_place = old.st_nlink > 1;
    if (!in_place && (old.st_uid != ::geteuid() || old.st_gid != ::getegid())) {
      // Only the owner (or root) can give the new file the old owner; the group
      // too, when this user belongs to it.
      in_place = ::chown(tmp.c_str(), old.st_uid, old.st_gid) != 0;
    }
    if (in_place) return copy_into_place(tmp, path);
    if (::chmod(tmp.c_str(), old.st_mode & 07777) != 0) return copy_into_place(tmp, path);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    if (err == EXDEV) {  // a set's file whose name links to another file system
      std::string bytes;
      try {
        bytes = read_text_file(tmp);
      } catch (...) {
        std::remove(tmp.c_str());
        throw;
      }
      std::remove(tmp.c_str());
      return write_file_atomically(path, bytes);
    }
    std::remove(tmp.c_str());
    throw IoError("cannot write " + path.string() + ": " + reason(err));
  }
}

/// Puts the finished file `tmp` in place of `destination`, which is followed
/// and checked as write_file_atomically does.
void place_file(const fs::path& tmp, const fs::path& destination) {
  check_destination(destination);
  const fs::path path = resolved(destination);
  check_destination(path);
  if (is_special(path)) {
    std::string bytes;
    try {
      bytes = read_text_file(tmp);
    } catch (...) {
      std::remove(tmp.c_str());
      throw;
    }
    std::remove(tmp.c_str());
    return write_in_place(path, bytes);
  }
  rename_into_place(tmp, path);
}

}  // namespace

void write_file_atomically(const fs::path& destination, std::string_view bytes) {
  check_destination(destination);
  const fs::path path = resolved(destination);
  check_destination(path);
  if (is_special(path)) return write_in_place(path, bytes);
  const fs::path tmp = temp_path_for(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // the umask applies
  if (fd < 0) throw IoError("cannot write " + path.string() + ": " + reason(errno));
  if (const int err = write_all(fd, bytes); err != 0) {
    ::close(fd);
    std::remove(tmp.c_str());
    throw IoError("cannot write " + path.string() + ": " + reason(err));
  }
  // A full disk may only show at fsync (delayed allocation); the descriptor is closed either way.
  int err = ::fsync(fd) != 0 ? errno : 0;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) {
    std::remove(tmp.c_str());
    throw IoError("cannot write " + path.string() + ": " + reason(err));
  }
  rename_into_place(tmp, path);
}

void write_path_atomically(const fs::path& destination, const std::function<void(const fs::path& tmp)>& write) {
  std::error_code ec;
  check_destination(destination);
  const fs::path path = resolved(destination);
  check_destination(path);
  if (is_special(path)) {
    // Opened first without waiting (a FIFO with no reader is refused); the
    // writer fills a private temporary file, whose bytes then go through.
    const int fd = open_special(path);
    const fs::path tmp = fs::temp_directory_path(ec) / "poslab-out-XXXXXX";
    std::string name = tmp.string();
    const int tmp_fd = ::mkstemp(name.data());
    if (tmp_fd < 0) {
      const int err = errno;
      ::close(fd);
      throw IoError("cannot write " + path.string() + ": " + reason(err));
    }
    ::close(tmp_fd);
    int err = 0;
    try {
      write(name);
      err = write_all(fd, read_text_file(name));
    } catch (...) {
      ::close(fd);
      std::remove(name.c_str());
      throw;
    }
    std::remove(name.c_str());
    if (::close(fd) != 0 && err == 0) err = errno;
    if (err != 0) throw IoError("cannot write " + path.string() + ": " + reason(err));
    return;
  }
  const fs::path tmp = temp_path_for(path);
  try {
    write(tmp);
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  if (!fs::exists(tmp, ec)) throw IoError("cannot write " + path.string() + ": nothing was written");
  rename_into_place(tmp, path);
}

// [SECTION] Sets of files

void create_out_folder(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return;
  if (fs::exists(fs::symlink_status(dir, ec)) && !fs::is_directory(dir, ec))
    throw IoError("cannot write into " + dir.string() + ": it is not a folder");
  const fs::path parent = dir.parent_path().empty() ? fs::path(".") : dir.parent_path();
  if (!fs::is_directory(parent, ec))
    throw IoError("cannot create folder " + dir.string() + ": folder " + parent.string() + " does not exist");
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST)
    throw IoError("cannot create folder " + dir.string() + ": " + reason(errno));
}

FileSet::FileSet(fs::path folder) : folder_(std::move(folder)) {
  std::error_code ec;
  if (folder_.empty()) throw IoError("cannot write into an empty path");
  if (fs::exists(fs::symlink_status(folder_, ec)) && !fs::is_directory(folder_, ec))
    throw IoError("cannot write into " + folder_.string() + ": it is not a folder");
  folder_is_new_ = !fs::is_directory(folder_, ec);
  fs::path parent = folder_is_new_ ? folder_.parent_path() : folder_;
  if (parent.empty()) parent = ".";
  if (folder_is_new_ && !fs::is_directory(parent, ec))
    throw IoError("cannot create folder " + folder_.string() + ": folder " + parent.string() + " does not exist");
  // The staging folder: beside a new folder (renamed into it at the end), or
  // inside an existing one (the same file system for every rename).
  const std::string base = folder_is_new_ ? folder_.filename().string() : std::string("poslab-set");
  for (int attempt = 0;; ++attempt) {
    staging_ = parent / temp_name_for(base.empty() ? std::string("poslab-set") : base);
    if (::mkdir(staging_.c_str(), 0777) == 0) break;  // the umask applies: what the folder will be
    const int err = errno;
    if (err != EEXIST || attempt == 8) {
      staging_.clear();
      throw IoError("cannot write into " + folder_.string() + ": " + reason(err));
    }
  }
}

FileSet::~FileSet() {
  if (staging_.empty() || committed_) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

void FileSet::write(const std::string& name, std::string_view bytes) {
  write_with(name, [&](const fs::path& tmp) { write_file_atomically(tmp, bytes); });
}

void FileSet::write_with(const std::string& name, const std::function<void(const fs::path& tmp)>& write) {
  if (committed_) throw IoError("cannot write " + name + ": the set was written already");
  const fs::path path = staging_ / name;
  write(path);
  std::error_code ec;
  if (!fs::exists(path, ec)) throw IoError("cannot write " + (folder_ / name).string() + ": nothing was written");
  if (std::find(names_.begin(), names_.end(), name) == names_.end()) names_.push_back(name);
}

std::vector<fs::path> FileSet::commit() {
  std::vector<fs::path> written;
  std::error_code ec;
  committed_ = true;
  if (folder_is_new_ && std::rename(staging_.c_str(), folder_.c_str()) == 0) {
    for (const std::string& n : names_) written.push_back(folder_ / n);
    return written;
  }
  if (folder_is_new_) create_out_folder(folder_);  // someone made it meanwhile, or the rename failed: file by file
  for (std::size_t i = 0; i < names_.size(); ++i) {
    try {
      place_file(staging_ / names_[i], folder_ / names_[i]);
    } catch (const IoError& e) {
      fs::remove_all(staging_, ec);
      std::string done;
      for (std::size_t k = 0; k < i && k < 5; ++k) done += (done.empty() ? "" : ", ") + names_[k];
      if (i > 5) done += ", … " + names_[i - 1];
      throw IoError(std::string(e.what()) + "; wrote " + std::to_string(i) + " of " + std::to_string(names_.size()) +
                    " files into " + folder_.string() + (i > 0 ? " (" + done + ")" : std::string()) +
                    ", the others were not written");
    }
    written.push_back(folder_ / names_[i]);
  }
  fs::remove(staging_, ec);
  return written;
}

int remove_stale_temporaries(const fs::path& dir) {
  int removed = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() < 7 || name[0] != '.' || name.find(".tmp-") == std::string::npos) continue;
    const std::string tag = name.substr(name.rfind(".tmp-") + 5);
    if (tag.empty() || !std::all_of(tag.begin(), tag.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
    std::error_code rm;
    if (fs::is_symlink(entry.path(), rm)) continue;  // never followed, never ours
    if (fs::remove_all(entry.path(), rm) > 0 && !rm) ++removed;
  }
  return removed;
}

}  // namespace poslab::app
