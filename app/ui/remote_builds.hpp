#pragma once
// Figures and readouts built in another instance of the program: the page's
// Web Worker, a second instance of the same wasm (the browser build has one
// thread; issue 31). The figure cache hands a slow build over as a request —
// bytes naming the lesson, the figure, the parameters, the language and the
// size — and the worker answers with the built figure as bytes
// (app/plot/figure_wire.hpp). Nothing but bytes crosses: the worker reads no
// state of the page and the page runs no code of the worker's.
//
//   page (FigureCache)                      worker (web/worker.js + this file)
//   encode_request(BuildRequest) ──────────▶ serve_build_request(bytes)
//        RemoteBuilds::submit                  build_figure + prepare_for_screen
//   decode_figure_reply(bytes) ◀──────────── encode_reply(…)
//
// The same build code runs on both sides (build_figure_into, readouts_into):
// in place, on the desktop's worker thread, or in the page's worker.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/common/i18n.hpp"
#include "app/lessons/lesson.hpp"
#include "app/plot/figure.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::ui {

/// A figure built, or why not, and the keys it read (sorted, unique).
struct FigureResult {
  fig::Figure figure;
  std::string error;      ///< "" when built
  std::string error_key;  ///< the parameter to blame, when known
  std::vector<std::string> reads;
  bool reads_known = false;
};

/// A view's readouts computed, or why not, and the keys they read.
struct ReadoutsResult {
  std::vector<Readout> rows;
  std::string error;
  std::vector<std::string> reads;
  bool reads_known = false;
};

/// Builds `def` into `out` at `params` (`resolved`: resolve_view_params
/// already applied). `density` > 0 (device pixels per point): long lines get
/// their ScreenPoints and sampler heatmaps their ScreenRaster
/// (fig::prepare_for_screen), so the UI thread only draws what the pixels need.
void build_figure_into(FigureResult& out, const ViewDef& view, const FigureDef& def, const core::Params& params,
                       bool resolved, const Translator& tr, int width, int height, double density = 0);
/// The readouts of `view` into `out` (as build_figure_into).
void readouts_into(ReadoutsResult& out, const ViewDef& view, const core::Params& params, bool resolved,
                   const Translator& tr);

/// What the page asks the worker for.
struct BuildRequest {
  enum class Kind : std::uint8_t { figure, readouts };
  Kind kind = Kind::figure;
  std::string view;    ///< a view id
  std::string figure;  ///< a figure id of the view (kind figure)
  core::Params params;
  bool resolved = false;  ///< params are resolve_view_params' result
  std::string lang = "en";
  int width = 0, height = 0;  ///< the figure's size in points
  double density = 1;         ///< device pixels per point
};

/// The request as bytes (magic "PLQ1"); decode_request raises
/// std::runtime_error on bytes that are not one, core::InvalidParameter on a
/// parameter this build does not accept.
std::string encode_request(const BuildRequest& request);
BuildRequest decode_request(std::string_view bytes);

/// A reply: a FigureResult or a ReadoutsResult, the build's own time, and —
/// for a figure that cannot cross as bytes (a sampler heatmap the worker
/// could not sample ahead) — `build_here`: the page builds it itself.
struct FigureReply {
  FigureResult result;
  bool build_here = false;
  double ms = 0;  ///< the build's wall time in the worker
};
struct ReadoutsReply {
  ReadoutsResult result;
  double ms = 0;
};
FigureReply decode_figure_reply(std::string_view bytes);
ReadoutsReply decode_readouts_reply(std::string_view bytes);

/// The worker's side: runs one request and returns the reply's bytes. Texts
/// are loaded from `assets` once per language and kept. A request that
/// cannot be read is answered with an error reply of its kind (or raises
/// std::runtime_error when even the kind is unreadable).
std::string serve_build_request(std::string_view request, const std::filesystem::path& assets);

/// Where requests go: the page's Web Worker (app/platform/web/page_worker.*);
/// tests use one that runs them on a queue. Replies land on the UI thread
/// between frames, each through the callback given with its request.
class RemoteBuilds {
 public:
  virtual ~RemoteBuilds() = default;
  /// The worker is up and answers (until then everything builds in place).
  virtual bool ready() const = 0;
  /// Sends `request`; `land(reply)` runs later on the UI thread, never from
  /// within submit. Returns the job's id.
  virtual std::uint64_t submit(std::string request, std::function<void(std::string_view reply)> land) = 0;
  /// Nobody waits for job `id` any more: skipped when not started, its reply dropped.
  virtual void cancel(std::uint64_t id) = 0;
  /// Jobs submitted whose reply has not landed (nor been cancelled).
  virtual int in_flight() const = 0;
};

}  // namespace poslab::app::ui
