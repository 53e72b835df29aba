#pragma once
// The lessons ("views") and their figures, as docs/CONTRACT.md §4 lists them.
// Each lesson is one folder app/lessons/<name>/ (setting.hpp: its parameters
// read into core configs, once; figures.cpp: its figure builders, readouts and
// ViewDef; tables.cpp; screen.cpp when it draws its own screen), listed once
// in lessons/lessons.inc; its steps are assets/steps/<view>.json. No GL, no ImGui here:
// `poslab export` builds the same figures headless.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/common/i18n.hpp"
#include "app/plot/figure.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app {

/// What a figure builder gets: the parameters (lesson defaults applied and
/// checked), the translations, and the output size in layout units (so
/// builders can size what they sample to the pixels that show it).
struct FigureContext {
  const core::Params& params;
  const Translator& tr;
  double width = 900;
  double height = 560;
};

struct FigureDef {
  std::string_view id;
  fig::Figure (*build)(const FigureContext& ctx);
};

/// A live readout that proves (or measures) a lesson's claim, computed from
/// core at the current parameters, e.g. "q'·k' after shifting both by s" with
/// holds = true when it equals the unshifted score to 1e-9. The GUI shows it
/// with a check or cross; tests/app asserts every `holds` at the defaults and
/// over random parameters.
struct Readout {
  std::string label;            ///< translated
  std::string value;            ///< formatted for display
  double number = 0;            ///< the value itself (for tests)
  std::optional<bool> holds;    ///< set when the readout checks an invariant
  /// A check of the lecture notes (what they print against the right value):
  /// shown in the lesson's "Notes check" panel, not among the lesson's own.
  bool notes = false;
};

/// A lesson: its id, its group in the lesson list, the parameters it reads
/// (its sliders, in display order), its own defaults for unset keys, its
/// figures, the table ids it shows and its live readouts. Its texts are the
/// translation keys "<id>.title" (lesson list), "<id>.text" (2–6 sentences
/// with the key formula and what to try).
struct ViewDef {
  std::string_view id;
  std::string_view group;  ///< absolute | relative | rotary | extension | models
  std::vector<std::string_view> keys;
  std::vector<std::pair<std::string_view, std::string_view>> defaults;
  std::vector<FigureDef> figures;
  std::vector<std::string_view> tables;
  /// Live readouts at the current parameters (may be null).
  std::vector<Readout> (*readouts)(const FigureContext& ctx) = nullptr;
  /// Refuses parameters whose figures or readouts would be over their work
  /// budget however finely they sample (lessons/budget.hpp: decay's samples
  /// × d); run by resolve_view_params, so before any of them is built. Null
  /// when every figure and readout keeps its own budget by sampling what the
  /// pixels need.
  void (*budget)(const core::Params& resolved) = nullptr;
  /// Keys the view also reads that start work rather than shape what is
  /// drawn (the lab's lab_train: train the models, minutes of CPU). No slider
  /// shows them (the lesson's own button sets them) and the tests that try
  /// every key at its edges leave them at their defaults; `poslab export
  /// --set` and deck scenes accept them as the view's keys.
  std::vector<std::string_view> run_keys = {};
};

/// The keys a link to `view` carries: its sliders' and its run keys (a link
/// to the trained lab opens it training, as the sender saw it).
inline std::vector<std::string_view> link_keys(const ViewDef& view) {
  std::vector<std::string_view> keys = view.keys;
  keys.insert(keys.end(), view.run_keys.begin(), view.run_keys.end());
  return keys;
}

/// Every view, in lesson order.
std::span<const ViewDef> view_defs();

/// The view `id`, or nullptr.
const ViewDef* find_view(std::string_view id);

/// The figure `id` of `view`, or nullptr.
const FigureDef* find_figure(const ViewDef& view, std::string_view id);

/// `params` with the view's own defaults applied to unset keys, relations
/// between the view's keys and the view's budget checked. Raises
/// core::InvalidParameter.
core::Params resolve_view_params(const ViewDef& view, const core::Params& params);

/// The readouts of `view` at `params` (resolved first); empty if it has none.
/// With `reads`, the keys the readouts read are appended to it (see
/// core::Params::track_reads): they change only when one of those changes.
std::vector<Readout> view_readouts(const ViewDef& view, const core::Params& params, const Translator& tr,
                                   std::vector<std::string>* reads = nullptr);
/// The same on parameters already resolved for `view` (resolve_view_params).
std::vector<Readout> view_readouts_resolved(const ViewDef& view, const core::Params& resolved, const Translator& tr,
                                            std::vector<std::string>* reads = nullptr);

/// Resolves the parameters, builds the figure and stamps its id. Raises
/// core::InvalidParameter. The result satisfies fig::all_finite. With
/// `reads`, the keys the builder read are appended to it: the figure depends
/// on those (and on the translations and the size) only.
fig::Figure build_figure(const ViewDef& view, const FigureDef& figure, const core::Params& params,
                         const Translator& tr, double width = 900, double height = 560,
                         std::vector<std::string>* reads = nullptr);
/// The same on parameters already resolved for `view` (the GUI resolves once
/// per change, not once per figure).
fig::Figure build_figure_resolved(const ViewDef& view, const FigureDef& figure, const core::Params& resolved,
                                  const Translator& tr, double width = 900, double height = 560,
                                  std::vector<std::string>* reads = nullptr);

}  // namespace poslab::app
