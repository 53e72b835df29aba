#include "app/lessons/lesson.hpp"

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "app/plot/figure_describe.hpp"

namespace poslab::app {

const ViewDef* find_view(std::string_view id) {
  for (const ViewDef& v : view_defs())
    if (v.id == id) return &v;
  return nullptr;
}

const FigureDef* find_figure(const ViewDef& view, std::string_view id) {
  for (const FigureDef& f : view.figures)
    if (f.id == id) return &f;
  return nullptr;
}

namespace {

/// A view default parsed once: "0:65536" is 65,537 numbers, and the GUI
/// resolves a lesson's parameters on every slider move.
const core::ParamValue& parsed_default(std::string_view key, std::string_view text) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, core::ParamValue, std::less<>> parsed;
  const std::lock_guard lock(mutex);
  auto k = std::pair{std::string(key), std::string(text)};
  auto it = parsed.find(k);
  if (it == parsed.end()) it = parsed.emplace(std::move(k), core::parse_param_value(core::param_spec(key), text)).first;
  return it->second;
}

}  // namespace

core::Params resolve_view_params(const ViewDef& view, const core::Params& params) {
  core::Params resolved = params;
  for (const auto& [key, text] : view.defaults)
    if (!resolved.is_set(key)) resolved.set(key, parsed_default(key, text));
  core::check_param_relations(resolved, view.keys);
  if (view.budget) view.budget(resolved);
  return resolved;
}

std::vector<Readout> view_readouts(const ViewDef& view, const core::Params& params, const Translator& tr,
                                   std::vector<std::string>* reads) {
  if (!view.readouts) return {};
  return view_readouts_resolved(view, resolve_view_params(view, params), tr, reads);
}

std::vector<Readout> view_readouts_resolved(const ViewDef& view, const core::Params& resolved, const Translator& tr,
                                            std::vector<std::string>* reads) {
  if (!view.readouts) return {};
  resolved.track_reads(reads);
  struct Detach {
    const core::Params& p;
    ~Detach() { p.track_reads(nullptr); }
  } detach{resolved};
  return view.readouts(FigureContext{resolved, tr});
}

fig::Figure build_figure(const ViewDef& view, const FigureDef& figure, const core::Params& params,
                         const Translator& tr, double width, double height, std::vector<std::string>* reads) {
  return build_figure_resolved(view, figure, resolve_view_params(view, params), tr, width, height, reads);
}

fig::Figure build_figure_resolved(const ViewDef& view, const FigureDef& figure, const core::Params& resolved,
                                  const Translator& tr, double width, double height, std::vector<std::string>* reads) {
  resolved.track_reads(reads);
  struct Detach {
    const core::Params& p;
    ~Detach() { p.track_reads(nullptr); }
  } detach{resolved};
  fig::Figure f = figure.build(FigureContext{resolved, tr, width, height});
  f.id = std::string(figure.id);
  if (!fig::all_finite(f))
    throw std::logic_error("figure " + std::string(view.id) + "/" + std::string(figure.id) +
                           " holds a NaN or infinity");  // a bug: builders must never let one through
  f.description = fig::describe_figure(f, tr);  // its text alternative, from what it shows
  return f;
}

}  // namespace poslab::app
