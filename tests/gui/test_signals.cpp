// `poslab gui` ended by SIGTERM or SIGINT (logout, kill, Ctrl+C) closes as
// its window's close button does: exit code 0, settings and the autosave
// written — the lesson and the parameters it was started with come back next
// time. Needs a display (Xvfb under ctest).

#include <doctest/doctest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "app/common/session.hpp"

extern char** environ;

using namespace poslab;
namespace fs = std::filesystem;

namespace {

bool have_display() { return std::getenv("DISPLAY") && *std::getenv("DISPLAY"); }

/// The process's caught-signal mask from /proc (SigCgt), 0 when unreadable.
unsigned long long caught_signals(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("SigCgt:", 0) == 0) return std::stoull(line.substr(7), nullptr, 16);
  return 0;
}

bool catches(pid_t pid, int sig) { return (caught_signals(pid) >> (sig - 1)) & 1u; }

/// Starts `poslab gui ARGS` with its own config folder; default signal
/// actions (the test runner may have started us with SIGINT ignored).
pid_t start_gui(const fs::path& xdg, const std::vector<std::string>& args) {
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e)
    if (std::string(*e).rfind("XDG_CONFIG_HOME=", 0) != 0) env_text.emplace_back(*e);
  env_text.push_back("XDG_CONFIG_HOME=" + xdg.string());
  std::vector<char*> envp;
  for (auto& s : env_text) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_text = {POSLAB_BINARY, "gui"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_text) argv.push_back(s.data());
  argv.push_back(nullptr);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int s : {SIGTERM, SIGINT, SIGHUP}) sigaddset(&defaults, s);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  pid_t pid = -1;
  const int err = posix_spawn(&pid, POSLAB_BINARY, nullptr, &attr, argv.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  return err == 0 ? pid : -1;
}

/// waitpid with a deadline; kills the process when it is not done in time.
int wait_for(pid_t pid, double seconds, bool* timed_out) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > until) {
      *timed_out = true;
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return status;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return status;
}

}  // namespace

TEST_CASE("SIGTERM and SIGINT close the app like its window: exit 0, autosave written") {
  if (!have_display()) {
    MESSAGE("no display: skipped (ctest runs this under xvfb-run)");
    return;
  }
  const fs::path dir = fs::temp_directory_path() / ("poslab-signal-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  struct Case {
    int sig;
    std::vector<std::string> args;
    std::string lesson, key, value;
  };
  const Case cases[] = {
      {SIGTERM, {"--view", "t5", "--set", "buckets=16"}, "t5", "buckets", "16"},
      {SIGINT, {"--view", "alibi", "--set", "heads=4"}, "alibi", "heads", "4"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.sig);
    const fs::path xdg = dir / std::to_string(c.sig);
    fs::create_directories(xdg);
    const pid_t pid = start_gui(xdg, c.args);
    REQUIRE(pid > 0);
    // The handlers are installed once the window is up; ASan and a software
    // renderer can take a while to get there.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!catches(pid, c.sig) && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    REQUIRE_MESSAGE(catches(pid, c.sig), "poslab gui never installed its signal handlers");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // a few frames into the event loop
    REQUIRE(::kill(pid, c.sig) == 0);
    bool timed_out = false;
    const int status = wait_for(pid, 60, &timed_out);
    CHECK_FALSE(timed_out);
    REQUIRE_MESSAGE(WIFEXITED(status), "ended by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0));
    CHECK(WEXITSTATUS(status) == 0);

    const fs::path config = xdg / "poslab";
    CHECK(fs::exists(config / "settings.json"));
    REQUIRE(fs::exists(config / "autosave.json"));
    const app::Session s = app::load_session_file(config / "autosave.json");
    CHECK(s.lesson == c.lesson);
    bool found = false;
    for (const auto& kv : s.params) found = found || (kv.first == c.key && kv.second == c.value);
    CHECK_MESSAGE(found, "the autosave lacks " << c.key << "=" << c.value);
    for (const auto& e : fs::directory_iterator(config))  // nothing half-written left behind
      CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
  }
  fs::remove_all(dir);
}
