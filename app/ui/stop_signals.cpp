#include "app/ui/stop_signals.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <system_error>

namespace poslab::app::ui {

namespace {

constexpr int kSignals[] = {SIGTERM, SIGINT, SIGHUP};
constexpr int kSignalCount = sizeof kSignals / sizeof kSignals[0];

// A signal handler can reach only globals. The pipe lives as long as the
// process: a handler still running on another thread while a StopSignals is
// destroyed never writes to a closed (or reused) descriptor.
int g_pipe[2] = {-1, -1};
std::atomic<int> g_received{0};
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may touch lock-free atomics only");
struct sigaction g_previous[kSignalCount];
bool g_installed[kSignalCount] = {};

extern "C" void on_stop_signal(int sig) {
  int none = 0;
  if (!g_received.compare_exchange_strong(none, sig)) {
    // Asked again while shutting down: the default action (end the process) now.
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  const int saved = errno;
  const unsigned char byte = static_cast<unsigned char>(sig);
  [[maybe_unused]] const ssize_t n = ::write(g_pipe[1], &byte, 1);
  errno = saved;
}

}  // namespace

StopSignals::StopSignals(std::function<void(int)> on_signal) : on_signal_(std::move(on_signal)) {
  if (g_pipe[0] < 0 && ::pipe2(g_pipe, O_CLOEXEC) != 0)
    throw std::system_error(errno, std::generic_category(), "cannot watch for SIGTERM/SIGINT");
  g_received = 0;
  watcher_ = std::thread([this] {
    for (;;) {
      unsigned char byte = 0;
      const ssize_t n = ::read(g_pipe[0], &byte, 1);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 || byte == 0) return;  // 0: the destructor says stop
      on_signal_(byte);
    }
  });
  struct sigaction action = {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (int i = 0; i < kSignalCount; ++i) {
    struct sigaction previous = {};
    // A signal ignored at start stays ignored (nohup, a background job's SIGINT).
    if (::sigaction(kSignals[i], nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
    g_installed[i] = ::sigaction(kSignals[i], &action, &g_previous[i]) == 0;
  }
}

StopSignals::~StopSignals() {
  for (int i = 0; i < kSignalCount; ++i)
    if (g_installed[i]) {
      ::sigaction(kSignals[i], &g_previous[i], nullptr);
      g_installed[i] = false;
    }
  const unsigned char stop = 0;
  while (::write(g_pipe[1], &stop, 1) < 0 && errno == EINTR) {
  }
  watcher_.join();
}

int StopSignals::received() const { return g_received.load(); }

}  // namespace poslab::app::ui
