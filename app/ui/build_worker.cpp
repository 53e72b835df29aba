#include "app/ui/build_worker.hpp"

#include <chrono>
#include <exception>

namespace poslab::app::ui {

BuildWorker::BuildWorker(bool threaded) {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  threaded = false;  // one thread in the page: jobs run in place
#endif
  if (threaded) thread_ = std::thread([this] { loop(); });
}

BuildWorker::~BuildWorker() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
    for (Job& j : queue_) j.ticket->cancelled = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  for (Job& j : queue_) j.ticket->done = true;  // skipped
}

void BuildWorker::execute(Job& job) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!job.ticket->cancelled.load()) {
    try {
      job.work();
    } catch (...) {
      // The job stores its own errors; one that escapes is a bug, but the
      // worker must outlive it.
    }
  }
  job.ticket->ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  job.ticket->done.store(true, std::memory_order_release);
}

void BuildWorker::run(std::shared_ptr<Ticket> ticket, std::function<void()> job) {
  Job j{std::move(ticket), std::move(job)};
  if (!threaded()) {
    execute(j);
    return;
  }
  ++busy_;
  {
    const std::lock_guard lock(mutex_);
    queue_.push_back(std::move(j));
  }
  wake_.notify_one();
}

void BuildWorker::loop() {
  for (;;) {
    Job j;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      j = std::move(queue_.front());
      queue_.pop_front();
    }
    execute(j);
    {
      const std::lock_guard lock(mutex_);
      --busy_;
    }
    done_.notify_all();
  }
}

bool BuildWorker::wait(const Ticket& ticket, double ms) {
  if (ticket.done.load(std::memory_order_acquire)) return true;
  std::unique_lock lock(mutex_);
  done_.wait_for(lock, std::chrono::duration<double, std::milli>(ms),
                 [&] { return ticket.done.load(std::memory_order_acquire); });
  return ticket.done.load(std::memory_order_acquire);
}

void BuildWorker::drain() {
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return busy_.load() == 0; });
}

}  // namespace poslab::app::ui
