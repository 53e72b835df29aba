#pragma once
// The page's side of its Web Worker (web/worker.js: a second instance of
// poslab.wasm, started by web/page.js). Jobs go out as bytes with a kind
// ("build": a figure or readouts; "lab_model": one of the lab's models,
// app/lessons/lab/screen.cpp, through ui::job_runner()) and come back
// as bytes, through the callbacks given with them, on the page's one
// thread between frames. The messages themselves are in web/worker.js.
//
// Until the worker says it is ready — and for good when it cannot start or
// dies — ready() is false and the figure cache builds everything in place,
// as the page did before it had a worker. Jobs in flight when the worker
// dies fail (their `failed` callback), so nothing waits for ever.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "app/ui/remote_builds.hpp"
#include "app/ui/worker_jobs.hpp"

namespace poslab::app::web {

class PageWorker final : public ui::RemoteBuilds, public ui::JobRunner {
 public:
  using Callbacks = ui::JobRunner::Callbacks;

  /// Sends a job of `kind` to the worker; returns its id (never 0). When the
  /// worker is not ready it fails at once (`failed`, called from here).
  std::uint64_t run(std::string_view kind, std::string request, Callbacks callbacks) override;

  // RemoteBuilds: "build" jobs; a failure lands as an empty reply (the
  // figure cache then builds that figure in place). (ready and cancel are
  // JobRunner's too.)
  bool ready() const override { return ready_; }
  std::uint64_t submit(std::string request, std::function<void(std::string_view reply)> land) override;
  void cancel(std::uint64_t id) override;
  int in_flight() const override { return static_cast<int>(jobs_.size()); }

  // From web/page.js (through main_web.cpp's exports).
  void set_ready(bool ready);
  void landed(std::uint64_t id, std::string_view reply);
  void progressed(std::uint64_t id, const ui::JobProgress& progress);
  void failed(std::uint64_t id, std::string_view why);
  /// The worker stopped (an error it could not catch, memory): every job in flight fails.
  void died(std::string_view why);

  /// Called after anything landed (the page wakes to draw it).
  std::function<void()> on_landed;
  /// Called after a job's progress note (the page draws a frame, at most a few a second).
  std::function<void()> on_progress;

 private:
  bool ready_ = false;
  std::uint64_t next_id_ = 1;
  std::map<std::uint64_t, Callbacks> jobs_;
};

/// The page's one worker.
PageWorker& page_worker();

}  // namespace poslab::app::web
