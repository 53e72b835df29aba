#pragma once
// Miniatures of a deck's scenes for the grid of scenes (G) and the presenter
// view (its current and next scene): each scene's figure built at the
// scene's own parameters — not the screen's — laid out at the projector's
// plot size, as the projector would show it, and drawn shrunk into its box.
// A miniature is built once (at most a few per frame) and kept while it is
// shown; a scene edited in the Deck window is another miniature.

#include <imgui.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/decks/deck.hpp"
#include "app/ui/imgui_painter.hpp"
#include "app/ui/plot_widget.hpp"
#include "app/ui/ui_context.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::ui {

/// The figure `scene` brings forward (its reveal's once revealed), else its
/// lesson's first; "" when the lesson has no figure.
std::string scene_figure(const Scene& scene, bool revealed);

/// The scene's parameters as AppState::apply_scene sets them (its lesson's
/// defaults, the scene's values, the reveal's when `revealed`), resolved for
/// its lesson. Raises core::InvalidParameter.
core::Params scene_params(const Scene& scene, bool revealed);

/// Draws `recording`, laid out for a box of `laid_out` (points), shrunk to
/// fit `box` at `origin` on `list` (text, lines and heatmaps alike).
void replay_shrunk(const FigureRecording& recording, ImDrawList* list, ImVec2 origin, ImVec2 laid_out, ImVec2 box,
                   HeatmapSink& sink);

class ScenePreviews {
 public:
  ScenePreviews() = default;
  ~ScenePreviews();
  ScenePreviews(const ScenePreviews&) = delete;
  ScenePreviews& operator=(const ScenePreviews&) = delete;

  /// Draws scene `scene` (its answer's state when `revealed`) in a box of
  /// `box` at the cursor, laid out as on a plot of `laid_out`. Built here
  /// when missing and `builds_left` > 0 (then decremented); otherwise a
  /// placeholder is drawn, ctx.redraw is set and false returned.
  bool draw(UiContext& ctx, const PlotEnv& env, const Scene& scene, bool revealed, ImVec2 box, ImVec2 laid_out,
            int& builds_left);
  /// Draws the live figure `figure` (already built: the projector's) the same way.
  void draw_live(const PlotEnv& env, const fig::Figure& figure, std::uint64_t version, ImVec2 box, ImVec2 laid_out);
  /// Starts a frame: the miniatures not drawn in the previous frame go.
  void begin_frame();
  /// Drops every miniature (their heatmap slots released).
  void clear();
  std::size_t size() const { return entries_.size(); }
  /// Miniatures built so far (tests).
  int builds() const { return builds_; }

 private:
  struct Entry {
    fig::Figure figure;
    std::string error;
    bool built = false;
    // the recording and what it was laid out for
    FigureRecording recording;
    std::vector<std::uint32_t> slots;
    HeatmapSink* sink = nullptr;
    std::uint64_t style_key = 0;
    std::uint64_t version = 0;         ///< 0: lay out again
    std::uint64_t figure_version = 0;  ///< the live figure's version laid out
    ImVec2 laid_out{0, 0};
    std::uint64_t last_frame = 0;
    void release();
    ~Entry() { release(); }
  };
  void show(Entry& e, const fig::Figure& figure, const PlotEnv& env, ImVec2 box, ImVec2 laid_out);

  std::map<std::string, std::unique_ptr<Entry>, std::less<>> entries_;
  std::uint64_t frame_ = 0;
  int builds_ = 0;
};

}  // namespace poslab::app::ui
