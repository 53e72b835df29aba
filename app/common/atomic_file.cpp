#include "app/common/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

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

fs::path temp_path_for(const fs::path& path) {
  // Same folder, so the final rename never crosses file systems.
  std::random_device rd;
  const auto tag = std::to_string(rd()) + std::to_string(::getpid());
  return path.parent_path() / ("." + path.filename().string() + ".tmp-" + tag);
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

void rename_into_place(const fs::path& tmp, const fs::path& path) {
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw IoError("cannot write " + path.string() + ": " + reason(err));
  }
}

}  // namespace

void write_file_atomically(const fs::path& destination, std::string_view bytes) {
  check_destination(destination);
  const fs::path path = resolved(destination);
  check_destination(path);
  if (is_special(path)) return write_in_place(path, bytes);
  const fs::path tmp = temp_path_for(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
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

}  // namespace poslab::app
