#include "app/ui/worker_jobs.hpp"

#include <stdexcept>

#include "app/ui/remote_builds.hpp"

namespace poslab::app::ui {

namespace {

/// A figure or the readouts: one slice (a build cannot be split).
class BuildJob final : public WorkerJob {
 public:
  BuildJob(std::string request, std::filesystem::path assets) : request_(std::move(request)), assets_(std::move(assets)) {}
  bool step(double) override {
    reply_ = serve_build_request(request_, assets_);
    return true;
  }
  JobProgress progress() const override { return {reply_.empty() ? 0.0 : 1.0, 1.0, {}}; }
  std::string reply() override { return std::move(reply_); }

 private:
  std::string request_;
  std::filesystem::path assets_;
  std::string reply_;
};

}  // namespace

WorkerJobs::WorkerJobs(std::filesystem::path assets) {
  add("build", [assets = std::move(assets)](std::string_view request) {
    return std::make_unique<BuildJob>(std::string(request), assets);
  });
}

void WorkerJobs::add(std::string kind, Factory factory) { kinds_[std::move(kind)] = std::move(factory); }

std::unique_ptr<WorkerJob> WorkerJobs::start(std::string_view kind, std::string_view request) const {
  const auto it = kinds_.find(kind);
  if (it == kinds_.end()) throw std::invalid_argument("the page's worker knows no job \"" + std::string(kind) + "\"");
  return it->second(request);
}

}  // namespace poslab::app::ui
