#include "app/common/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <system_error>

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

void rename_into_place(const fs::path& tmp, const fs::path& path) {
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw IoError("cannot write " + path.string() + ": " + reason(err));
  }
}

}  // namespace

void write_file_atomically(const fs::path& path, std::string_view bytes) {
  check_destination(path);
  const fs::path tmp = temp_path_for(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw IoError("cannot write " + path.string() + ": " + reason(errno));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      std::remove(tmp.c_str());
      throw IoError("cannot write " + path.string() + ": " + reason(err));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw IoError("cannot write " + path.string() + ": " + reason(err));
  }
  rename_into_place(tmp, path);
}

void write_path_atomically(const fs::path& path, const std::function<void(const fs::path& tmp)>& write) {
  check_destination(path);
  const fs::path tmp = temp_path_for(path);
  try {
    write(tmp);
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  std::error_code ec;
  if (!fs::exists(tmp, ec)) throw IoError("cannot write " + path.string() + ": nothing was written");
  rename_into_place(tmp, path);
}

}  // namespace poslab::app
