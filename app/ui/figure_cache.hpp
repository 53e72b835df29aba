#pragma once
// Figures of the lessons, built when a parameter they read changes (or the
// widget's size) and kept with their plot widget (zoom, hover, GL textures)
// while they are on screen. Each build records the keys the builder read
// (core::Params::track_reads), so dragging `m` rebuilds the figures that
// read m and leaves the heatmap that does not alone. Nothing is rebuilt
// while the app is idle.

#include <imgui.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/common/i18n.hpp"
#include "app/lessons/lesson.hpp"
#include "app/ui/app_state.hpp"
#include "app/ui/plot_widget.hpp"

namespace poslab::app::ui {

class FigureCache {
 public:
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
  };

  /// The figure `def` of `view` at the state's parameters and this size
  /// (points), rebuilt only when a key it read or the size changed.
  Entry& get(const ViewDef& view, const FigureDef& def, const AppState& state, const Translator& tr, ImVec2 size);

  /// Starts a frame: entries not drawn during the previous frame are dropped
  /// (their GL textures released).
  void begin_frame();
  void clear() { entries_.clear(); }

  int builds() const { return builds_; }
  /// True when no key in `reads` (nor everything) changed after `revision`.
  static bool still_current(const std::vector<std::string>& reads, std::uint64_t revision, const AppState& state);
  std::size_t size() const { return entries_.size(); }
  /// The entry of view/figure if it exists (tests).
  Entry* find(std::string_view view, std::string_view figure);

 private:
  std::map<std::string, std::unique_ptr<Entry>, std::less<>> entries_;
  std::uint64_t frame_ = 0;
  std::uint64_t next_version_ = 1;
  int builds_ = 0;
};

}  // namespace poslab::app::ui
