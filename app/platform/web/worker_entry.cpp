// The worker's side of poslab.wasm: what web/worker.js calls. The page and
// its worker run the same poslab.wasm; in the worker main() never runs
// (noInitialRun) and these run the jobs of app/ui/worker_jobs.hpp, one
// slice per call, so worker.js returns to its event loop between slices
// (a cancel, another job's turn) and reports progress.
//
//   h = poslab_job_start(kind, bytes, length)    a job (handle > 0)
//   poslab_job_step(h, budget_ms)                1 finished, 0 not yet, -1 failed
//   poslab_job_reply(h) / _reply_size(h)         its answer (after 1)
//   poslab_job_error(h)                          why it failed (after -1)
//   poslab_job_progress(h, which)                done (0) or total (1) so far
//   poslab_job_note(h)                           the progress note
//   poslab_job_part(h) / _part_size(h)           bytes handed out by the last step
//                                                (WorkerJob::take_part; size 0: none)
//   poslab_job_end(h)                            forgets it (done, failed or cancelled)

#include <emscripten/emscripten.h>

#include <exception>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "app/ui/worker_jobs.hpp"

namespace {

struct Running {
  std::unique_ptr<poslab::app::ui::WorkerJob> job;
  poslab::app::ui::JobProgress progress;
  std::string reply;
  std::string error;
  std::string part;  ///< the last step's take_part()
};

std::map<int, Running>& running() {
  static std::map<int, Running> jobs;
  return jobs;
}

const poslab::app::ui::WorkerJobs& kinds() {
  static const poslab::app::ui::WorkerJobs jobs("/assets");  // poslab.data, mounted as in the page
  return jobs;
}

Running* find(int handle) {
  const auto it = running().find(handle);
  return it == running().end() ? nullptr : &it->second;
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE int poslab_job_start(const char* kind, const char* bytes, int length) {
  static int next = 1;
  const int handle = next++;
  Running& r = running()[handle];
  try {
    r.job = kinds().start(kind ? kind : "", std::string_view(bytes, length > 0 ? static_cast<std::size_t>(length) : 0));
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return handle;
}

EMSCRIPTEN_KEEPALIVE int poslab_job_step(int handle, double budget_ms) {
  Running* r = find(handle);
  if (!r) return -1;
  if (!r->job) {
    if (r->error.empty()) r->error = "no such job";
    return -1;
  }
  try {
    const bool finished = r->job->step(budget_ms);
    r->progress = r->job->progress();
    r->part = r->job->take_part();
    if (!finished) return 0;
    r->reply = r->job->reply();
    r->job.reset();
    return 1;
  } catch (const std::exception& e) {
    r->error = e.what();
    r->job.reset();
    return -1;
  }
}

EMSCRIPTEN_KEEPALIVE const char* poslab_job_reply(int handle) {
  const Running* r = find(handle);
  return r ? r->reply.data() : nullptr;
}

EMSCRIPTEN_KEEPALIVE int poslab_job_reply_size(int handle) {
  const Running* r = find(handle);
  return r ? static_cast<int>(r->reply.size()) : 0;
}

EMSCRIPTEN_KEEPALIVE const char* poslab_job_error(int handle) {
  const Running* r = find(handle);
  return r ? r->error.c_str() : "no such job";
}

EMSCRIPTEN_KEEPALIVE double poslab_job_progress(int handle, int which) {
  const Running* r = find(handle);
  if (!r) return 0;
  return which == 0 ? r->progress.done : r->progress.total;
}

EMSCRIPTEN_KEEPALIVE const char* poslab_job_note(int handle) {
  const Running* r = find(handle);
  return r ? r->progress.note.c_str() : "";
}

EMSCRIPTEN_KEEPALIVE const char* poslab_job_part(int handle) {
  const Running* r = find(handle);
  return r ? r->part.data() : nullptr;
}

EMSCRIPTEN_KEEPALIVE int poslab_job_part_size(int handle) {
  const Running* r = find(handle);
  return r ? static_cast<int>(r->part.size()) : 0;
}

EMSCRIPTEN_KEEPALIVE void poslab_job_end(int handle) { running().erase(handle); }

}  // extern "C"
