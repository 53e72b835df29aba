#include "app/platform/web/page_worker.hpp"

#include <utility>
#include <vector>

extern "C" {
int poslab_js_worker_post(double id, const char* kind, const char* bytes, int length);
void poslab_js_worker_cancel(double id);
}

namespace poslab::app::web {

PageWorker& page_worker() {
  static PageWorker worker;  // lives as long as the page
  return worker;
}

std::uint64_t PageWorker::run(std::string_view kind, std::string request, Callbacks callbacks) {
  const std::uint64_t id = next_id_++;
  const std::string k(kind);
  if (!ready_ || !poslab_js_worker_post(static_cast<double>(id), k.c_str(), request.data(), static_cast<int>(request.size()))) {
    if (callbacks.failed) callbacks.failed("the page's worker is not running");
    return id;
  }
  jobs_.emplace(id, std::move(callbacks));
  return id;
}

std::uint64_t PageWorker::submit(std::string request, std::function<void(std::string_view reply)> land) {
  Callbacks c;
  c.failed = [land](std::string_view) { land({}); };
  c.done = std::move(land);
  // (submit never lands from within itself: the figure cache submits only when ready)
  return run("build", std::move(request), std::move(c));
}

void PageWorker::cancel(std::uint64_t id) {
  if (jobs_.erase(id)) poslab_js_worker_cancel(static_cast<double>(id));
}

void PageWorker::set_ready(bool ready) { ready_ = ready; }

void PageWorker::landed(std::uint64_t id, std::string_view reply) {
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) return;  // cancelled meanwhile
  Callbacks c = std::move(it->second);
  jobs_.erase(it);
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
