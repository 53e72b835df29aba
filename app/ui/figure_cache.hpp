#pragma once
// Figures of the lessons, built when a parameter they read changes (or the
// widget's size) and kept with their plot widget (zoom, hover, GL textures)
// while they are on screen. Each build records the keys the builder read
// (core::Params::track_reads), so dragging `m` rebuilds the figures that
// read m and leaves the heatmap that does not alone. Nothing is rebuilt
// while the app is idle.
//
// In the interactive app (set_background) a rebuild that is not done within
// kWaitMs runs on a worker thread while the widget keeps showing the previous
// figure, marked `updating` (issue 16: at d = 8192 a figure takes 20–70 ms;
// the window must not freeze while a slider is dragged). A first build, and
// every build without background, happens in place: screenshots, exports and
// tests see the figure of the state they asked for.
//
// In the page (one thread, no worker thread) set_remote hands slow builds to
// the page's Web Worker instead (app/ui/remote_builds.hpp): a build whose
// recent runs took longer than what is left of this frame's kWaitMs (the
// slowest of them, each older one counting 2 % less) goes there,
// even a first one (an empty plot marked updating shows meanwhile); a fast
// one is built in place, as before. The frame never waits for the worker.

#include <imgui.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/common/i18n.hpp"
#include "app/lessons/lesson.hpp"
#include "app/ui/app_state.hpp"
#include "app/ui/build_worker.hpp"
#include "app/ui/plot_widget.hpp"
#include "app/ui/remote_builds.hpp"

namespace poslab::app::ui {

class FigureCache {
 public:
  /// How long the UI thread waits, in all, in one frame for background
  /// builds before it shows the previous figures instead (fast builds appear
  /// in the same frame).
  static constexpr double kWaitMs = 4;

  /// A build's inputs and results, shared with the worker thread.
  struct Build;

  struct Entry {
    fig::Figure figure;
    std::string error;      ///< why the figure cannot be built ("" when fine)
    std::string error_key;  ///< the parameter to blame, when known
    std::uint64_t version = 0;  ///< unique per build
    PlotWidget widget;
    // what it was built from
    std::uint64_t revision = 0;   ///< the state's revision it is current for
    std::vector<std::string> reads;  ///< the keys the builder read (sorted, unique)
    bool reads_known = false;     ///< false after a failed build: any change rebuilds
    int width = 0, height = 0;
    std::uint64_t last_frame = 0;
    /// A build on the worker (the figure shown is older), or null.
    std::shared_ptr<Build> pending;
    /// Since when the figure shown is out of date: the first frame after the
    /// move it does not show yet (none: it is the state's, or a first build).
    std::optional<std::chrono::steady_clock::time_point> stale_since;
    /// True while the figure shown is not the state's: a newer one is being built.
    bool updating() const { return pending != nullptr; }
    /// While an animation of a key it reads plays: the union of its ranges
    /// over the sweep (both ends, then every figure shown), held by the widget.
    std::optional<fig::ViewRange> hold;
    std::string hold_for;            ///< the animation it was made for
    std::uint64_t hold_version = 0;  ///< the figure's version last added to it
  };

  /// The view's live readouts, kept like a figure: rebuilt when a key they
  /// read changes, in the background when that is slow (the rows shown are
  /// then the previous ones).
  struct ReadoutsBuild;
  struct Readouts {
    std::vector<Readout> rows;
    std::string error;  ///< why they cannot be computed ("" when fine)
    int view = -1;      ///< the state's view index they are for
    std::uint64_t revision = 0;
    std::vector<std::string> reads;
    bool reads_known = false;
    std::shared_ptr<ReadoutsBuild> pending;
    std::uint64_t last_frame = 0;
    bool updating() const { return pending != nullptr; }
  };
  const Readouts& readouts(const AppState& state, const Translator& tr);

  FigureCache();
  ~FigureCache();
  FigureCache(const FigureCache&) = delete;
  FigureCache& operator=(const FigureCache&) = delete;

  /// Builds that are slow go to a worker thread (the interactive app).
  void set_background(bool on);
  bool background() const { return worker_ != nullptr; }
  /// The page's worker (null: none). Must outlive this cache.
  void set_remote(RemoteBuilds* remote) { remote_ = remote; }
  RemoteBuilds* remote() const { return remote_; }
  /// Builds sent to the page's worker whose reply has not landed.
  int remote_in_flight() const;
  /// The UI thread's wait per frame (kWaitMs; 0 in tests: every background
  /// build lands in a later frame).
  void set_wait_ms(double ms) { wait_ms_ = wait_left_ms_ = ms; }

  /// The figure `def` of `view` at the state's parameters and this size
  /// (points), rebuilt only when a key it read or the size changed.
  Entry& get(const ViewDef& view, const FigureDef& def, const AppState& state, const Translator& tr, ImVec2 size);

  /// Starts a frame: entries not drawn during the previous frame are dropped
  /// (their GL textures released; their builds cancelled), and so are
  /// readouts nobody asked for (a guided step folds them).
  void begin_frame();
  void clear();
  /// Every figure's zoom and pan undone (R in lecture mode).
  void reset_views();

  int builds() const { return builds_; }
  /// Figures being built on the worker (the app keeps drawing frames meanwhile).
  int updating() const;
  /// Waits for every background build (tests, the bench); the next get()
  /// shows their figures.
  void wait_idle();
  /// Each figure and readouts taken in since the last call, in order, for
  /// the bench; then forgets them (past 100,000 unread, the older half goes).
  struct Taken {
    std::string key;        ///< "view/figure" or "view/#readouts"
    bool readouts = false;  ///< the view's readouts, not a figure
    bool remote = false;    ///< built in the page's worker
    /// The build's own run: in place or on the desktop's worker thread (not
    /// its wait in line), in the page's worker without the trip.
    double own_ms = 0;
    /// From the build's start to its result landing: in the page, from its
    /// request, the worker's queue and the trip included; elsewhere own_ms.
    double wall_ms = 0;
    /// The UI thread's time to take a page worker's bytes in (between two
    /// frames, the page's one thread is busy with it); 0 for others.
    double land_ms = 0;
    /// How far it trailed the slider: from the first frame after a move its
    /// figure did not show (the move seen) to the frame that took in a figure
    /// showing that move or a later one — queueing, building and landing
    /// included, on every side alike. -1: it trailed no move (always for
    /// readouts).
    double trail_ms = -1;
  };
  std::vector<Taken> take_taken();
  /// The slowest build run in place, in the frame, since the last call — its
  /// "view/figure" (or "view/#readouts") and wall ms — then forgets it (the
  /// bench: what a frame spent building when the worker was up).
  std::pair<std::string, double> take_slowest_in_place();
  /// True when no key in `reads` (nor everything) changed after `revision`.
  static bool still_current(const std::vector<std::string>& reads, std::uint64_t revision, const AppState& state);
  std::size_t size() const { return entries_.size(); }
  /// The entry of view/figure if it exists (tests).
  Entry* find(std::string_view view, std::string_view figure);

 private:
  void start(Entry& e, const std::string& key, const ViewDef& view, const FigureDef& def, const AppState& state,
             const Translator& tr, int w, int h);
  /// A build expected to take `predicted_ms` goes to the page's worker.
  bool goes_remote(double predicted_ms) const;
  /// Nobody waits for this build any more (the page worker's job too).
  void cancel(Ticket& ticket, std::uint64_t remote_job);
  void adopt(Entry& e, const AppState& state);
  void adopt(Readouts& r);
  /// Runs `job` on the worker; true when it finished within this frame's wait.
  bool hand_over(const std::shared_ptr<Ticket>& ticket, std::function<void()> job);
  const Translator& worker_texts(const Translator& tr);

  std::map<std::string, std::unique_ptr<Entry>, std::less<>> entries_;
  Readouts readouts_;
  std::uint64_t frame_ = 0;
  std::uint64_t next_version_ = 1;
  int builds_ = 0;
  std::vector<Taken> taken_;
  std::pair<std::string, double> slowest_in_place_;
  /// The last build's own time of each "view/figure" (and "view/#readouts"):
  /// what the next one is expected to take.
  std::map<std::string, double, std::less<>> build_ms_by_key_;
  RemoteBuilds* remote_ = nullptr;
  double wait_ms_ = kWaitMs;
  double wait_left_ms_ = kWaitMs;  ///< of this frame's waiting
  /// The texts for the worker: a copy, as the app's Translator changes with the language.
  std::shared_ptr<const Translator> worker_tr_;
  std::unique_ptr<BuildWorker> worker_;  // last: joined before the rest goes
};

}  // namespace poslab::app::ui
