#include "app/ui/figure_cache.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "app/common/messages.hpp"

namespace poslab::app::ui {

struct FigureCache::Build : Ticket, FigureResult {
  // what is built
  std::string view_id;
  std::uint64_t revision = 0;
  int width = 0, height = 0;
  std::string key;  ///< "view/figure"
  std::uint64_t remote_job = 0;  ///< the page worker's job (0: built here or on the thread)
  double worker_ms = 0;          ///< the build's own time in the page worker
  double land_ms = 0;            ///< the UI thread's time to take the worker's bytes in
  bool build_here = false;       ///< the worker could not send it: build it in place
  /// The first frame that saw a move this build does not show (none: none yet).
  std::optional<std::chrono::steady_clock::time_point> stale_after;
};

struct FigureCache::ReadoutsBuild : Ticket, ReadoutsResult {
  int view = -1;
  std::uint64_t revision = 0;
  std::string key;  ///< "view/#readouts"
  std::uint64_t remote_job = 0;
  double worker_ms = 0;
  double land_ms = 0;
};

namespace {

std::string key_of(std::string_view view, std::string_view figure) {
  return std::string(view) + "/" + std::string(figure);
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// What the next build of a figure is expected to take: the slowest of its
/// recent builds, each older one counting 2 % less per build (a slow build
/// is remembered for some 50–150 builds) — not the last one alone. Figures that share a memo (relative's five term figures
/// share one toy, scaling's and decay's their curves) are fast when another
/// figure filled the memo and slow when they fill it themselves, and the
/// page's memo is not the worker's: predicted from the last build, the slow
/// one was built in the frame (relative at the maxima: 70–80 ms frames while
/// the seed is dragged). Forgotten faster (10 % a build), a term figure that
/// had not built the toy for 15 builds was built in the frame again (30 ms).
/// Negative: built here, always (kept).
constexpr double kForgetPerBuild = 0.98;
constexpr double kBuildHere = -1;

void remember(std::map<std::string, double, std::less<>>& ms_by_key, const std::string& key, double ms) {
  const auto [it, fresh] = ms_by_key.try_emplace(key, ms);
  if (!fresh && it->second >= 0) it->second = std::max(ms, it->second * kForgetPerBuild);
}

/// Appends to the builds taken in, which only the bench takes (and empties):
/// in the app nobody does, so past 100,000 the older half goes.
void keep(std::vector<FigureCache::Taken>& list, FigureCache::Taken taken) {
  if (list.size() >= 100000) list.erase(list.begin(), list.begin() + 50000);
  list.push_back(std::move(taken));
}

/// True when a figure of `view` is being built in the page's worker: the
/// view's other out-of-date figures go there too, whatever they took last —
/// they changed with it and may share its memo, which is the worker's, not
/// the page's (relative's score, always fast in the worker after the term
/// figure that built the toy, took 87 ms in the frame at the maxima).
template <class Entries>
bool view_in_worker(const Entries& entries, std::string_view view) {
  for (const auto& [key, e] : entries)
    if (e->pending && e->pending->remote_job && e->pending->view_id == view) return true;
  return false;
}

}  // namespace

FigureCache::FigureCache() = default;

FigureCache::~FigureCache() {
  clear();  // the page worker's jobs for these entries are cancelled
}

void FigureCache::set_background(bool on) {
  if (on == background()) return;
  if (on) {
    worker_ = std::make_unique<BuildWorker>(true);
    if (!worker_->threaded()) worker_.reset();  // no threads here: build in place
    return;
  }
  worker_->drain();  // what is running lands at the next get()
  worker_.reset();
}

bool FigureCache::goes_remote(double predicted_ms) const {
  return remote_ && remote_->ready() && !(predicted_ms <= wait_left_ms_);
}

FigureCache::Entry& FigureCache::get(const ViewDef& view, const FigureDef& def, const AppState& state,
                                     const Translator& tr, ImVec2 size) {
  const std::string key = key_of(view.id, def.id);
  auto it = entries_.find(key);
  if (it == entries_.end()) it = entries_.emplace(key, std::make_unique<Entry>()).first;
  Entry& e = *it->second;
  e.last_frame = frame_;
  if (e.pending && e.pending->done.load(std::memory_order_acquire)) {
    if (e.pending->build_here) {
      build_ms_by_key_[key] = kBuildHere;  // the worker cannot send this figure: built here from now on
      e.pending.reset();
    } else {
      adopt(e, state);
    }
  }
  const int w = std::max(1, static_cast<int>(std::lround(size.x)));
  const int h = std::max(1, static_cast<int>(std::lround(size.y)));
  if (e.version != 0 && e.width == w && e.height == h) {
    if (e.revision == state.revision()) return e;
    if (e.reads_known && still_current(e.reads, e.revision, state)) {
      e.revision = state.revision();  // what changed is nothing this figure reads
      return e;
    }
  }
  // Out of date. While a build runs the figure shown stays; the next build
  // starts when it lands (dragging: the figure follows as fast as it builds).
  const auto now = std::chrono::steady_clock::now();
  if (e.version != 0 && !e.stale_since) e.stale_since = now;  // the move seen (Taken::trail_ms)
  if (e.pending && !e.pending->stale_after && e.pending->revision != state.revision() &&
      !(e.reads_known && still_current(e.reads, e.pending->revision, state)))
    e.pending->stale_after = now;  // a move the build under way will not show
  if (!e.pending) start(e, key, view, def, state, tr, w, h);
  return e;
}

const FigureCache::Readouts& FigureCache::readouts(const AppState& state, const Translator& tr) {
  Readouts& r = readouts_;
  r.last_frame = frame_;
  if (r.pending && r.pending->done.load(std::memory_order_acquire)) adopt(r);
  const bool same_view = r.view == state.view_index();
  if (same_view && (r.revision == state.revision() || (r.reads_known && still_current(r.reads, r.revision, state)))) {
    r.revision = state.revision();
    return r;
  }
  if (r.pending && !same_view) {
    cancel(*r.pending, r.pending->remote_job);  // another lesson's: never shown for this one
    r.pending.reset();
  }
  if (r.pending) return r;  // the next build starts when this one lands
  auto b = std::make_shared<ReadoutsBuild>();
  b->view = state.view_index();
  b->revision = state.revision();
  const core::Params* resolved = state.resolved();
  const ViewDef& view = state.view();
  r.pending = b;
  const std::string key = key_of(view.id, "#readouts");
  b->key = key;
  const auto known = build_ms_by_key_.find(key);
  if (known != build_ms_by_key_.end() && goes_remote(known->second)) {
    // To the page's worker; the rows shown meanwhile are the previous ones.
    BuildRequest q;
    q.kind = BuildRequest::Kind::readouts;
    q.view = view.id;
    q.params = resolved ? *resolved : state.params();
    q.resolved = resolved != nullptr;
    q.lang = tr.lang();
    const auto t0 = std::chrono::steady_clock::now();
    b->remote_job = remote_->submit(encode_request(q), [b, t0](std::string_view bytes) {
      const auto landing = std::chrono::steady_clock::now();
      try {
        ReadoutsReply reply = decode_readouts_reply(bytes);
        static_cast<ReadoutsResult&>(*b) = std::move(reply.result);
        b->worker_ms = reply.ms;
      } catch (const std::exception& e) {
        b->error = e.what();
      }
      b->land_ms = ms_since(landing);
      b->ms = ms_since(t0);
      b->done.store(true, std::memory_order_release);
    });
    return r;
  }
  if (!worker_ || !same_view) {
    // In place: no worker, or no rows of this view to show meanwhile.
    const auto t0 = std::chrono::steady_clock::now();
    readouts_into(*b, view, resolved ? *resolved : state.params(), resolved != nullptr, tr);
    b->ms = ms_since(t0);
    if (b->ms > slowest_in_place_.second) slowest_in_place_ = {key, b->ms};
    b->done = true;
    wait_left_ms_ -= b->ms;
    adopt(r);
    return r;
  }
  (void)worker_texts(tr);
  if (hand_over(b, [b, &view, params = resolved ? *resolved : state.params(), is_resolved = resolved != nullptr,
                    texts = worker_tr_] { readouts_into(*b, view, params, is_resolved, *texts); }))
    adopt(r);
  return r;
}

void FigureCache::adopt(Readouts& r) {
  ReadoutsBuild& b = *r.pending;
  r.rows = std::move(b.rows);
  r.error = std::move(b.error);
  r.reads = std::move(b.reads);
  r.reads_known = b.reads_known;
  r.view = b.view;
  r.revision = b.revision;
  const double own = b.remote_job ? b.worker_ms : b.ms;
  remember(build_ms_by_key_, b.key, own);
  keep(taken_, {b.key, true, b.remote_job != 0, own, b.ms, b.remote_job ? b.land_ms : 0});
  r.pending.reset();
}

const Translator& FigureCache::worker_texts(const Translator& tr) {
  if (!worker_tr_ || worker_tr_->lang() != tr.lang()) worker_tr_ = std::make_shared<const Translator>(tr);
  return *worker_tr_;
}

bool FigureCache::hand_over(const std::shared_ptr<Ticket>& ticket, std::function<void()> job) {
  worker_->run(ticket, std::move(job));
  const auto t0 = std::chrono::steady_clock::now();
  const bool done = wait_left_ms_ > 0 && worker_->wait(*ticket, wait_left_ms_);
  wait_left_ms_ -= ms_since(t0);
  return done;
}

void FigureCache::start(Entry& e, const std::string& key, const ViewDef& view, const FigureDef& def,
                        const AppState& state, const Translator& tr, int w, int h) {
  auto b = std::make_shared<Build>();
  b->view_id = view.id;
  b->revision = state.revision();
  b->width = w, b->height = h;
  b->key = key;
  ++builds_;
  const core::Params* resolved = state.resolved();
  e.pending = b;
  // The pixels per point of the plot widget's painter.
  const float scale = ImGui::GetCurrentContext() ? ImGui::GetIO().DisplayFramebufferScale.x : 1.0f;
  const double density = scale > 0 ? scale : 1.0;
  // The page's worker takes a build that took longer than this frame has
  // left the last time (a first one too: an empty plot, marked updating,
  // shows meanwhile — the frame never waits for it).
  const auto known = build_ms_by_key_.find(key);
  if (known != build_ms_by_key_.end() && known->second >= 0 &&
      (goes_remote(known->second) || (goes_remote(1e300) && view_in_worker(entries_, view.id)))) {
    BuildRequest q;
    q.view = view.id;
    q.figure = def.id;
    q.params = resolved ? *resolved : state.params();
    q.resolved = resolved != nullptr;
    q.lang = tr.lang();
    q.width = w, q.height = h;
    q.density = density;
    const auto t0 = std::chrono::steady_clock::now();
    b->remote_job = remote_->submit(encode_request(q), [b, t0](std::string_view bytes) {
      const auto landing = std::chrono::steady_clock::now();
      try {
        FigureReply reply = decode_figure_reply(bytes);
        static_cast<FigureResult&>(*b) = std::move(reply.result);
        b->build_here = reply.build_here;
        b->worker_ms = reply.ms;
      } catch (const std::exception&) {
        b->build_here = true;  // bytes from another build: this one builds it
      }
      b->land_ms = ms_since(landing);
      b->ms = ms_since(t0);
      b->done.store(true, std::memory_order_release);
    });
    return;
  }
  if (!worker_ || e.version == 0) {
    // In place: no worker, or nothing to show meanwhile.
    const auto t0 = std::chrono::steady_clock::now();
    build_figure_into(*b, view, def, resolved ? *resolved : state.params(), resolved != nullptr, tr, w, h);
    b->ms = ms_since(t0);
    if (b->ms > slowest_in_place_.second) slowest_in_place_ = {key, b->ms};
    b->done = true;
    wait_left_ms_ -= b->ms;  // (what the page worker is spared this frame)
    adopt(e, state);
    return;
  }
  (void)worker_texts(tr);
  // The job owns copies of everything it reads; view and def are the
  // registry's, alive for the whole program.
  if (hand_over(b, [b, &view, &def, params = resolved ? *resolved : state.params(), is_resolved = resolved != nullptr,
                    texts = worker_tr_, w, h, density] {
        build_figure_into(*b, view, def, params, is_resolved, *texts, w, h, density);
      }))
    adopt(e, state);
}

void FigureCache::adopt(Entry& e, const AppState& state) {
  Build& b = *e.pending;
  e.figure = std::move(b.figure);
  if (const auto& model = state.model(); model && model->view == b.view_id && b.error.empty())
    e.figure.subtitle = model_subtitle(model->name, e.figure.subtitle);  // a new or closed model invalidates
  e.error = std::move(b.error);
  e.error_key = std::move(b.error_key);
  e.reads = std::move(b.reads);
  e.reads_known = b.reads_known;
  e.revision = b.revision;
  e.width = b.width, e.height = b.height;
  e.version = next_version_++;
  const double own = b.remote_job ? b.worker_ms : b.ms;
  keep(taken_, {b.key, false, b.remote_job != 0, own, b.ms, b.remote_job ? b.land_ms : 0,
                e.stale_since ? ms_since(*e.stale_since) : -1});
  e.stale_since = b.stale_after;
  // What the next build of this figure is expected to take: the build's own
  // time (over there, without the trip).
  remember(build_ms_by_key_, b.key, own);
  e.pending.reset();
}

void FigureCache::cancel(Ticket& ticket, std::uint64_t remote_job) {
  ticket.cancelled = true;
  if (remote_job && remote_ && !ticket.done.load(std::memory_order_acquire)) remote_->cancel(remote_job);
}

bool FigureCache::still_current(const std::vector<std::string>& reads, std::uint64_t revision, const AppState& state) {
  if (state.everything_changed_at() > revision) return false;  // everything changed since (lesson, preset, language, …)
  for (const std::string& key : reads)
    if (state.changed_at(key) > revision) return false;
  return true;
}

void FigureCache::begin_frame() {
  for (auto it = entries_.begin(); it != entries_.end();)
    if (it->second->last_frame < frame_) {  // not drawn last frame
      if (const auto& p = it->second->pending) cancel(*p, p->remote_job);
      it = entries_.erase(it);
    } else {
      ++it;
    }
  if (readouts_.last_frame < frame_ && readouts_.pending) {
    cancel(*readouts_.pending, readouts_.pending->remote_job);  // asked for again: built anew
    readouts_ = {};
  }
  ++frame_;
  wait_left_ms_ = wait_ms_;
}

void FigureCache::reset_views() {
  for (auto& [key, e] : entries_) e->widget.reset_view();
}

void FigureCache::clear() {
  for (auto& [key, e] : entries_)
    if (e->pending) cancel(*e->pending, e->pending->remote_job);
  entries_.clear();
  if (readouts_.pending) cancel(*readouts_.pending, readouts_.pending->remote_job);
  readouts_ = {};
}

int FigureCache::updating() const {
  int n = 0;
  for (const auto& [key, e] : entries_) n += e->pending != nullptr;
  return n + (readouts_.pending != nullptr);
}

void FigureCache::wait_idle() {
  if (worker_) worker_->drain();
}

int FigureCache::remote_in_flight() const { return remote_ ? remote_->in_flight() : 0; }

std::vector<FigureCache::Taken> FigureCache::take_taken() { return std::exchange(taken_, {}); }

std::pair<std::string, double> FigureCache::take_slowest_in_place() { return std::exchange(slowest_in_place_, {}); }

FigureCache::Entry* FigureCache::find(std::string_view view, std::string_view figure) {
  auto it = entries_.find(key_of(view, figure));
  return it == entries_.end() ? nullptr : it->second.get();
}

}  // namespace poslab::app::ui
