#include "app/ui/figure_cache.hpp"

#include <algorithm>
#include <cmath>

#include "app/common/messages.hpp"

namespace poslab::app::ui {

namespace {
std::string key_of(std::string_view view, std::string_view figure) {
  return std::string(view) + "/" + std::string(figure);
}
}  // namespace

FigureCache::Entry& FigureCache::get(const ViewDef& view, const FigureDef& def, const AppState& state,
                                     const Translator& tr, ImVec2 size) {
  const std::string key = key_of(view.id, def.id);
  auto it = entries_.find(key);
  if (it == entries_.end()) it = entries_.emplace(key, std::make_unique<Entry>()).first;
  Entry& e = *it->second;
  e.last_frame = frame_;
  const int w = std::max(1, static_cast<int>(std::lround(size.x)));
  const int h = std::max(1, static_cast<int>(std::lround(size.y)));
  if (e.version != 0 && e.width == w && e.height == h) {
    if (e.revision == state.revision()) return e;
    if (e.reads_known && still_current(e.reads, e.revision, state)) {
      e.revision = state.revision();  // what changed is nothing this figure reads
      return e;
    }
  }
  e.revision = state.revision();
  e.width = w, e.height = h;
  e.version = next_version_++;
  e.error.clear();
  e.error_key.clear();
  e.reads.clear();
  e.reads_known = false;
  ++builds_;
  try {
    const core::Params* resolved = state.resolved();
    e.figure = resolved ? build_figure_resolved(view, def, *resolved, tr, w, h, &e.reads)
                        : build_figure(view, def, state.params(), tr, w, h, &e.reads);  // raises the conflict
    if (const auto& model = state.model(); model && model->view == view.id)
      e.figure.subtitle = model_subtitle(model->name, e.figure.subtitle);  // a new or closed model invalidates
    std::sort(e.reads.begin(), e.reads.end());
    e.reads.erase(std::unique(e.reads.begin(), e.reads.end()), e.reads.end());
    e.reads_known = true;
  } catch (const core::InvalidParameter& ex) {
    e.figure = {};
    e.error = error_text(tr, ex);
    e.error_key = ex.key();
  } catch (const std::exception& ex) {
    e.figure = {};
    e.error = error_text(tr, ex);
  }
  return e;
}

bool FigureCache::still_current(const std::vector<std::string>& reads, std::uint64_t revision, const AppState& state) {
  if (state.everything_changed_at() > revision) return false;  // everything changed since (lesson, preset, language, …)
  for (const std::string& key : reads)
    if (state.changed_at(key) > revision) return false;
  return true;
}

void FigureCache::begin_frame() {
  for (auto it = entries_.begin(); it != entries_.end();)
    if (it->second->last_frame < frame_) it = entries_.erase(it);  // not drawn last frame
    else ++it;
  ++frame_;
}

FigureCache::Entry* FigureCache::find(std::string_view view, std::string_view figure) {
  auto it = entries_.find(key_of(view, figure));
  return it == entries_.end() ? nullptr : it->second.get();
}

}  // namespace poslab::app::ui
