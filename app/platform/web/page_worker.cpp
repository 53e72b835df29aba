#include "app/platform/web/page_worker.hpp"

#include <utility>
#include <vector>

extern "C" {
int poslab_js_worker_post(double id, const char* kind, const char* bytes, int length, int rank, double replaces);
void poslab_js_worker_cancel(double id);
}

namespace poslab::app::web {

PageWorker& page_worker() {
  static PageWorker worker;  // lives as long as the page
  return worker;
}

/// Jobs other than figures and readouts (the lab's) wait behind both.
constexpr int kRankOther = 2;

bool PageWorker::post(std::uint64_t id, const std::string& kind, const std::string& request, int rank,
                      std::uint64_t replaces) {
  if (fifo_) rank = 0, replaces = 0;
  if (replaces) jobs_.erase(replaces), waiting_.erase(replaces);  // the worker drops it
  if (!ready_ || !poslab_js_worker_post(static_cast<double>(id), kind.c_str(), request.data(),
                                        static_cast<int>(request.size()), rank, static_cast<double>(replaces)))
    return false;
  if (!fifo_) waiting_.insert(id);
  return true;
}

std::uint64_t PageWorker::run(std::string_view kind, std::string request, Callbacks callbacks) {
  const std::uint64_t id = next_id_++;
  if (!post(id, std::string(kind), request, kRankOther, 0)) {
    if (callbacks.failed) callbacks.failed("the page's worker is not running");
    return id;
  }
  jobs_.emplace(id, std::move(callbacks));
  return id;
}

std::uint64_t PageWorker::submit(std::string request, std::function<void(std::string_view reply)> land, int rank,
                                 std::uint64_t replaces) {
  const std::uint64_t id = next_id_++;
  Callbacks c;
  c.failed = [land](std::string_view) { land({}); };
  c.done = std::move(land);
  // (submit never lands from within itself: the figure cache submits only when ready)
  if (!post(id, "build", request, rank, replaces)) {
    c.failed("the page's worker is not running");
    return id;
  }
  jobs_.emplace(id, std::move(c));
  return id;
}

void PageWorker::cancel(std::uint64_t id) {
  waiting_.erase(id);
  if (jobs_.erase(id)) poslab_js_worker_cancel(static_cast<double>(id));
}

bool PageWorker::started(std::uint64_t id) const { return !waiting_.count(id); }

void PageWorker::began(std::uint64_t id) { waiting_.erase(id); }

void PageWorker::set_ready(bool ready) { ready_ = ready; }

void PageWorker::landed(std::uint64_t id, std::string_view reply) {
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) return;  // cancelled meanwhile
  Callbacks c = std::move(it->second);
  jobs_.erase(it);
  waiting_.erase(id);
  if (c.done) c.done(reply);
  if (on_landed) on_landed();
}

void PageWorker::progressed(std::uint64_t id, const ui::JobProgress& progress) {
  const auto it = jobs_.find(id);
  if (it != jobs_.end() && it->second.progress) it->second.progress(progress);
  if (it != jobs_.end() && on_progress) on_progress();
}

void PageWorker::failed(std::uint64_t id, std::string_view why) {
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) return;
  Callbacks c = std::move(it->second);
  jobs_.erase(it);
  waiting_.erase(id);
  if (c.failed) c.failed(why);
  if (on_landed) on_landed();
}

void PageWorker::died(std::string_view why) {
  ready_ = false;
  std::vector<std::uint64_t> ids;
  for (const auto& [id, c] : jobs_) ids.push_back(id);
  for (std::uint64_t id : ids) failed(id, why);
}

}  // namespace poslab::app::web
