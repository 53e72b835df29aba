#pragma once
// One background thread for work that may take longer than a frame (issue
// 16: a figure at d = 8192 takes 20–70 ms to build). The UI thread hands it a
// job and keeps drawing what it has; it picks the result up in a later frame.
// Jobs run one at a time in the order given, on one thread that lives as long
// as the worker (so the builders' per-thread caches stay warm). A job whose
// ticket was cancelled before it started is skipped.
//
// Without threads (the single-threaded browser build) every job runs in place
// when it is handed over: the same code, the old behaviour.

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace poslab::app::ui {

/// A job's state, shared by the UI thread and the worker.
struct Ticket {
  std::atomic<bool> done{false};       ///< the job ran (or was skipped); its results may be read
  std::atomic<bool> cancelled{false};  ///< nobody waits for it any more: skip it if not started
  double ms = 0;                       ///< the job's wall time (read after done)
};

class BuildWorker {
 public:
  /// threaded = false: run() runs each job at once on the calling thread.
  explicit BuildWorker(bool threaded);
  ~BuildWorker();  // finishes the running job, skips the queued ones, joins
  BuildWorker(const BuildWorker&) = delete;
  BuildWorker& operator=(const BuildWorker&) = delete;

  bool threaded() const { return thread_.joinable(); }
  /// Queues `job`; `ticket` is marked done after it ran (or was skipped).
  void run(std::shared_ptr<Ticket> ticket, std::function<void()> job);
  /// Waits until `ticket` is done or `ms` passed; true when done.
  bool wait(const Ticket& ticket, double ms);
  /// Waits until every queued job is done (tests, screenshots, the bench).
  void drain();
  /// Jobs queued or running.
  int busy() const { return busy_.load(); }

 private:
  struct Job {
    std::shared_ptr<Ticket> ticket;
    std::function<void()> work;
  };
  void loop();
  static void execute(Job& job);

  std::mutex mutex_;
  std::condition_variable wake_;  ///< a job was queued, or stop
  std::condition_variable done_;  ///< a job finished
  std::deque<Job> queue_;
  std::atomic<int> busy_{0};
  bool stop_ = false;
  std::thread thread_;  // last: started after the rest exists
};

}  // namespace poslab::app::ui
