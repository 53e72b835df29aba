#pragma once
// SIGTERM, SIGINT and SIGHUP (a logout, `kill`, Ctrl+C in the terminal, the
// terminal closed) end the desktop app the way closing its window does: the
// event loop stops, then the settings and the autosave session are written.
// Without this the default action would kill the process mid-lecture and
// lose every change since the last explicit save.
//
// How: a handler that only write()s the signal number to a pipe (all a
// signal handler may safely do), and a watcher thread that reads the pipe
// and calls `on_signal` — from that thread, so `on_signal` must be
// thread-safe (Window::close_from_any_thread is). A second signal while the
// first is being handled restores the default action and re-raises it, so a
// hung shutdown can still be interrupted (files are written atomically, so
// that never leaves a half-written one).

#include <functional>
#include <thread>

namespace poslab::app::ui {

class StopSignals {
 public:
  /// Installs the handlers (the previous ones come back on destruction).
  explicit StopSignals(std::function<void(int signal)> on_signal);
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// 0, or the first signal received.
  int received() const;

 private:
  std::function<void(int)> on_signal_;
  std::thread watcher_;
};

}  // namespace poslab::app::ui
