#include "app/figures/views.hpp"

#include <stdexcept>

namespace poslab::app {

namespace {

std::vector<ViewDef> all_views() {
  std::vector<ViewDef> v;
  for (auto make : {sinusoidal_view, learned_view, relative_view, t5_view, alibi_view, rope_2d_view, rope_view,
                    decay_view, gaussian_view, scaling_view}) {
    ViewDef def = make();
    if (!def.figures.empty()) v.push_back(std::move(def));  // a lesson without figures is not listed yet
  }
  return v;
}

}  // namespace

std::span<const ViewDef> view_defs() {
  static const std::vector<ViewDef> views = all_views();
  return views;
}

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

core::Params resolve_view_params(const ViewDef& view, const core::Params& params) {
  core::Params resolved = params;
  for (const auto& [key, text] : view.defaults)
    if (!resolved.is_set(key)) resolved.set_text(key, text);
  core::check_param_relations(resolved, view.keys);
  return resolved;
}

std::vector<Readout> view_readouts(const ViewDef& view, const core::Params& params, const Translator& tr,
                                   std::vector<std::string>* reads) {
  if (!view.readouts) return {};
  const core::Params resolved = resolve_view_params(view, params);
  resolved.track_reads(reads);
  return view.readouts(FigureContext{resolved, tr});
}

fig::Figure build_figure(const ViewDef& view, const FigureDef& figure, const core::Params& params,
                         const Translator& tr, double width, double height, std::vector<std::string>* reads) {
  const core::Params resolved = resolve_view_params(view, params);
  resolved.track_reads(reads);
  fig::Figure f = figure.build(FigureContext{resolved, tr, width, height});
  f.id = std::string(figure.id);
  if (!fig::all_finite(f))
    throw std::logic_error("figure " + std::string(view.id) + "/" + std::string(figure.id) +
                           " holds a NaN or infinity");  // a bug: builders must never let one through
  return f;
}

}  // namespace poslab::app
