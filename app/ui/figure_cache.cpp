#include "app/ui/figure_cache.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "app/common/messages.hpp"

namespace poslab::app::ui {

struct FigureCache::Build : Ticket {
  // what is built
  std::string view_id;
  std::uint64_t revision = 0;
  int width = 0, height = 0;
  // what came out
  fig::Figure figure;
  std::string error, error_key;
  std::vector<std::string> reads;
  bool reads_known = false;
};

struct FigureCache::ReadoutsBuild : Ticket {
  int view = -1;
  std::uint64_t revision = 0;
  std::vector<Readout> rows;
  std::string error;
  std::vector<std::string> reads;
  bool reads_known = false;
};

namespace {

void sort_unique(std::vector<std::string>& keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
}

std::string key_of(std::string_view view, std::string_view figure) {
  return std::string(view) + "/" + std::string(figure);
}

/// Builds `def` into `b` at `params` (`resolved`: resolve_view_params already
/// applied; otherwise building raises the conflict): the figure, or the
/// error and the key to blame; the keys read, sorted. `for_screen` (device
/// pixels per point, 0: no): long lines get their ScreenPoints and sampler
/// heatmaps their ScreenRaster (the worker's builds: the UI thread then only
/// draws what the pixels need).
void build_into(FigureCache::Build& b, const ViewDef& view, const FigureDef& def, const core::Params& params,
                bool resolved, const Translator& tr, double for_screen = 0) {
  try {
    b.figure = resolved ? build_figure_resolved(view, def, params, tr, b.width, b.height, &b.reads)
                        : build_figure(view, def, params, tr, b.width, b.height, &b.reads);
    if (for_screen > 0) fig::prepare_for_screen(b.figure, b.width, b.height, for_screen);
    sort_unique(b.reads);
    b.reads_known = true;
  } catch (const core::InvalidParameter& ex) {
    b.figure = {};
    b.error = error_text(tr, ex);
    b.error_key = ex.key();
  } catch (const std::exception& ex) {
    b.figure = {};
    b.error = error_text(tr, ex);
  }
}

/// The readouts of `view` into `b` (as build_into for a figure).
void readouts_into(FigureCache::ReadoutsBuild& b, const ViewDef& view, const core::Params& params, bool resolved,
                   const Translator& tr) {
  try {
    b.rows = resolved ? view_readouts_resolved(view, params, tr, &b.reads) : view_readouts(view, params, tr, &b.reads);
    sort_unique(b.reads);
    b.reads_known = true;
  } catch (const std::exception& ex) {
    b.rows.clear();
    b.error = error_text(tr, ex);
  }
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

FigureCache::FigureCache() = default;
FigureCache::~FigureCache() = default;

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

FigureCache::Entry& FigureCache::get(const ViewDef& view, const FigureDef& def, const AppState& state,
                                     const Translator& tr, ImVec2 size) {
  const std::string key = key_of(view.id, def.id);
  auto it = entries_.find(key);
  if (it == entries_.end()) it = entries_.emplace(key, std::make_unique<Entry>()).first;
  Entry& e = *it->second;
  e.last_frame = frame_;
  if (e.pending && e.pending->done.load(std::memory_order_acquire)) adopt(e, state);
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
  if (!e.pending) start(e, view, def, state, tr, w, h);
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
    r.pending->cancelled = true;  // another lesson's: never shown for this one
    r.pending.reset();
  }
  if (r.pending) return r;  // the next build starts when this one lands
  auto b = std::make_shared<ReadoutsBuild>();
  b->view = state.view_index();
  b->revision = state.revision();
  const core::Params* resolved = state.resolved();
  const ViewDef& view = state.view();
  r.pending = b;
  if (!worker_ || !same_view) {
    // In place: no worker, or no rows of this view to show meanwhile.
    const auto t0 = std::chrono::steady_clock::now();
    readouts_into(*b, view, resolved ? *resolved : state.params(), resolved != nullptr, tr);
    b->ms = ms_since(t0);
    b->done = true;
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

void FigureCache::start(Entry& e, const ViewDef& view, const FigureDef& def, const AppState& state,
                        const Translator& tr, int w, int h) {
  auto b = std::make_shared<Build>();
  b->view_id = view.id;
  b->revision = state.revision();
  b->width = w, b->height = h;
  ++builds_;
  const core::Params* resolved = state.resolved();
  e.pending = b;
  if (!worker_ || e.version == 0) {
    // In place: no worker, or nothing to show meanwhile.
    const auto t0 = std::chrono::steady_clock::now();
    build_into(*b, view, def, resolved ? *resolved : state.params(), resolved != nullptr, tr);
    b->ms = ms_since(t0);
    b->done = true;
    adopt(e, state);
    return;
  }
  (void)worker_texts(tr);
  // The job owns copies of everything it reads; view and def are the
  // registry's, alive for the whole program.
  const float scale = ImGui::GetCurrentContext() ? ImGui::GetIO().DisplayFramebufferScale.x : 1.0f;
  const double density = scale > 0 ? scale : 1.0;  // as the plot widget's painter
  if (hand_over(b, [b, &view, &def, params = resolved ? *resolved : state.params(), is_resolved = resolved != nullptr,
                    texts = worker_tr_, density] { build_into(*b, view, def, params, is_resolved, *texts, density); }))
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
  build_ms_.push_back(b.ms);
  e.pending.reset();
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
      if (it->second->pending) it->second->pending->cancelled = true;
      it = entries_.erase(it);
    } else {
      ++it;
    }
  if (readouts_.last_frame < frame_ && readouts_.pending) {
    readouts_.pending->cancelled = true;  // asked for again: built anew
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
    if (e->pending) e->pending->cancelled = true;
  entries_.clear();
  if (readouts_.pending) readouts_.pending->cancelled = true;
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

std::vector<double> FigureCache::take_build_ms() { return std::exchange(build_ms_, {}); }

FigureCache::Entry* FigureCache::find(std::string_view view, std::string_view figure) {
  auto it = entries_.find(key_of(view, figure));
  return it == entries_.end() ? nullptr : it->second.get();
}

}  // namespace poslab::app::ui
