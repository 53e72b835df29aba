#include "app/common/config_folder.hpp"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>  // renameat2, RENAME_NOREPLACE (glibc >= 2.28)
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "app/common/atomic_file.hpp"

namespace poslab::app {

namespace fs = std::filesystem;

namespace {

bool set_why(std::string* why, std::string text) {
  if (why) *why = std::move(text);
  return false;
}

/// A group that only `user` is in: the "user private group" of Debian and
/// Fedora (named as the user, the user's primary group, no other members),
/// where umask 002 makes folders group-writable without sharing them.
bool group_is_private(gid_t gid, uid_t user) {
  struct passwd pw {};
  struct passwd* pw_found = nullptr;
  std::vector<char> buf(16384);
  if (::getpwuid_r(user, &pw, buf.data(), buf.size(), &pw_found) != 0 || !pw_found || pw.pw_gid != gid) return false;
  const std::string name = pw.pw_name;
  struct group gr {};
  struct group* gr_found = nullptr;
  std::vector<char> gbuf(65536);
  if (::getgrgid_r(gid, &gr, gbuf.data(), gbuf.size(), &gr_found) != 0 || !gr_found) return false;
  if (name != gr.gr_name) return false;
  for (char** m = gr.gr_mem; m && *m; ++m)
    if (name != *m) return false;
  return true;
}

/// rename(2) that never replaces an existing `to`; false with errno EEXIST when taken.
bool rename_no_replace(const fs::path& from, const fs::path& to) {
#ifdef RENAME_NOREPLACE
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return true;
  if (errno != EINVAL && errno != ENOSYS) return false;  // EINVAL/ENOSYS: the file system cannot; fall back
#endif
  // A hard link fails on an existing name, as RENAME_NOREPLACE does.
  if (::link(from.c_str(), to.c_str()) != 0) return false;
  ::unlink(from.c_str());
  return true;
}

}  // namespace

bool is_private_path(const fs::path& dir, std::string* why) {
  if (!dir.is_absolute()) return set_why(why, dir.string() + " is not an absolute path");
  const fs::path normal = dir.lexically_normal();
  const uid_t me = ::getuid();
  fs::path prefix;
  bool inside_shared = false;  // the previous folder is sticky and writable by everyone (/tmp)
  for (const fs::path& part : normal) {
    if (part.empty()) continue;
    prefix /= part;
    struct stat st {};
    if (::stat(prefix.c_str(), &st) != 0) {
      // Not there yet: this user creates it — unless another user could create it first.
      if (inside_shared) return set_why(why, prefix.parent_path().string() + " is a folder every user can write");
      return true;
    }
    if (!S_ISDIR(st.st_mode)) return set_why(why, prefix.string() + " is not a folder");
    // Whoever owns a folder can rename and replace what is in it: only this
    // user and root may own the folders on the way (a team share owned by a
    // colleague would let their settings.json send this user's files away).
    if (st.st_uid != me && st.st_uid != 0) return set_why(why, prefix.string() + " belongs to another user");
    const bool others_write = (st.st_mode & S_IWOTH) != 0;
    const bool group_writes = (st.st_mode & S_IWGRP) != 0 && !group_is_private(st.st_gid, me);
    inside_shared = false;
    if (others_write) {
      if (!(st.st_mode & S_ISVTX) || prefix == normal) return set_why(why, prefix.string() + " is writable by every user");
      inside_shared = true;
    } else if (group_writes && !(st.st_mode & S_ISVTX)) {
      return set_why(why, prefix.string() + " is writable by the members of its group");
    } else if (group_writes) {
      inside_shared = true;  // sticky and group-writable: like /tmp for the group
    }
  }
  if (inside_shared) return set_why(why, normal.string() + " is a folder other users can write");
  return true;
}

std::optional<fs::path> private_home_dir() {
  const char* h = std::getenv("HOME");
  if (!h || !*h) return std::nullopt;
  const fs::path home(h);
  std::error_code ec;
  if (!home.is_absolute() || !fs::is_directory(home, ec) || !is_private_path(home)) return std::nullopt;
  return home;
}

ConfigLocation find_config_dir() {
  std::string xdg_why;
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) {
    const fs::path dir = fs::path(x) / "poslab";
    if (fs::path(x).is_absolute() && is_private_path(dir, &xdg_why)) return {dir, {}};
    if (xdg_why.empty()) xdg_why = std::string("XDG_CONFIG_HOME (") + x + ") is not an absolute path";
  }
  std::string home_why;
  const char* h = std::getenv("HOME");
  if (!h || !*h) {
    home_why = "HOME is not set";
  } else if (!fs::path(h).is_absolute()) {
    home_why = std::string("HOME (") + h + ") is not an absolute path";
  } else {
    const fs::path dir = fs::path(h) / ".config" / "poslab";
    if (is_private_path(dir, &home_why)) return {dir, {}};
  }
  return {{}, xdg_why.empty() ? home_why : xdg_why + "; " + home_why};
}

// [SECTION] The lock

ConfigLock::ConfigLock(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    fs::create_directories(dir.parent_path(), ec);
    if (ec || (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)) {
      error_ = "cannot create " + dir.string() + ": " + (ec ? ec.message() : std::strerror(errno));
      return;
    }
  }
  const fs::path file = dir / "poslab.lock";
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    error_ = "cannot write " + file.string() + ": " + std::strerror(errno);
    return;
  }
  // The lock file opens; the folder must also take new files (the atomic writer's temporaries).
  if (::access(dir.c_str(), W_OK) != 0) {
    error_ = "cannot write in " + dir.string() + ": " + std::strerror(errno);
    ::close(fd);
    return;
  }
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK) busy_ = true;
    else error_ = "cannot lock " + file.string() + ": " + std::strerror(errno);
    ::close(fd);
    return;
  }
  fd_ = fd;
}

ConfigLock::~ConfigLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

ConfigLock::ConfigLock(ConfigLock&& other) noexcept
    : fd_(other.fd_), busy_(other.busy_), error_(std::move(other.error_)) {
  other.fd_ = -1;
}

ConfigLock& ConfigLock::operator=(ConfigLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_, busy_ = other.busy_, error_ = std::move(other.error_);
    other.fd_ = -1;
  }
  return *this;
}

// [SECTION] Keeping unreadable files

fs::path keep_aside(const fs::path& file) {
  const std::time_t t = std::time(nullptr);
  std::tm local{};
  ::localtime_r(&t, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  const std::string base = file.string() + ".unreadable-" + stamp;
  for (int n = 1; n < 1000; ++n) {
    const fs::path to = n == 1 ? fs::path(base) : fs::path(base + "-" + std::to_string(n));
    if (rename_no_replace(file, to)) return to;
    if (errno != EEXIST) throw IoError("cannot keep " + file.string() + " as " + to.string() + ": " + std::strerror(errno));
  }
  throw IoError("cannot keep " + file.string() + ": too many unreadable copies next to it");
}

}  // namespace poslab::app
