#include "app/common/assets.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "app/common/atomic_file.hpp"

namespace poslab::app {

namespace fs = std::filesystem;

namespace {

fs::path executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

bool usable(const fs::path& dir) {
  std::error_code ec;
  return !dir.empty() && fs::is_directory(dir / "presets", ec);
}

}  // namespace

fs::path assets_dir() {
  if (const char* env = std::getenv("POSLAB_ASSETS"); env && *env) {
    if (usable(env)) return env;
    throw IoError(std::string("POSLAB_ASSETS=") + env + " is not a poslab assets folder (no presets/ inside)");
  }
  const fs::path exe_dir = executable_dir();
  const fs::path candidates[] = {
      exe_dir / ".." / POSLAB_INSTALL_DATADIR / "poslab" / "assets",
      exe_dir / "assets",
      fs::path(POSLAB_ASSETS_SOURCE_DIR),
  };
  for (const fs::path& c : candidates)
    if (usable(c)) return fs::weakly_canonical(c);
  throw IoError("cannot find poslab's assets folder (looked next to the binary and in " +
                std::string(POSLAB_ASSETS_SOURCE_DIR) + "); set POSLAB_ASSETS");
}

namespace {

/// A folder opens as a stream on Linux and reads as nothing: say what it is.
void refuse_folder(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw IoError("cannot read " + path.string() + ": it is a folder");
}

}  // namespace

std::string read_text_file(const fs::path& path) {
  refuse_folder(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot read " + path.string() + ": " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw IoError("cannot read " + path.string());
  return ss.str();
}

std::string read_text_file(const fs::path& path, std::size_t limit, std::string_view what) {
  refuse_folder(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot read " + path.string() + ": " + std::strerror(errno));
  std::string out;
  char chunk[1 << 16];
  while (in && out.size() <= limit) {
    in.read(chunk, sizeof chunk);
    out.append(chunk, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw IoError("cannot read " + path.string());
  if (out.size() > limit) throw TooLargeError(too_large_message(path.filename().string(), limit, what));
  return out;
}

std::string too_large_message(const std::string& name, std::size_t limit, std::string_view what) {
  const std::string size = limit >= (1u << 20) ? std::to_string(limit >> 20) + " MiB" : std::to_string(limit >> 10) + " KiB";
  return name + " is larger than " + size + " — too large to be " + std::string(what);
}

std::string read_text_stream(std::istream& in, std::size_t limit, std::string_view name, std::string_view what) {
  std::string out;
  char chunk[1 << 16];
  while (in && out.size() <= limit) {
    in.read(chunk, sizeof chunk);
    out.append(chunk, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw IoError("cannot read " + std::string(name));
  if (out.size() > limit) throw TooLargeError(too_large_message(std::string(name), limit, what));
  return out;
}

}  // namespace poslab::app
