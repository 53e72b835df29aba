#include "app/ui/lecture/scene_previews.hpp"

#include <algorithm>
#include <cmath>

#include "app/common/messages.hpp"
#include "app/lessons/lesson.hpp"

namespace poslab::app::ui {

std::string scene_figure(const Scene& scene, bool revealed) {
  if (revealed && !scene.reveal_figure.empty()) return scene.reveal_figure;
  if (!scene.figure.empty()) return scene.figure;
  const ViewDef* view = find_view(scene.lesson);
  return view && !view->figures.empty() ? std::string(view->figures.front().id) : std::string();
}

core::Params scene_params(const Scene& scene, bool revealed) {
  const ViewDef* view = find_view(scene.lesson);
  if (!view) throw core::InvalidParameter("lesson", scene.lesson, "is not a lesson");
  core::Params p;
  for (const auto& [key, text] : scene.session(revealed).params) p.set_text(key, text);
  return resolve_view_params(*view, p);
}

namespace {

/// Heatmaps drawn into a miniature: placed where the shrunk plot puts them.
/// The vertices a sink adds itself (its CPU fallback's image) are already
/// shrunk; replay_shrunk leaves them alone.
class ShrinkingSink final : public HeatmapSink {
 public:
  ShrinkingSink(HeatmapSink& inner, ImVec2 origin, float k) : inner_(inner), origin_(origin), k_(k) {}
  std::uint32_t upload(std::uint32_t slot, const fig::ScalarRaster& raster) override { return inner_.upload(slot, raster); }
  void release(std::uint32_t slot) override { inner_.release(slot); }
  void draw(ImDrawList* list, std::uint32_t slot, ImVec2 min, ImVec2 max, ImVec2 uv0, ImVec2 uv1) override {
    const int before = list->VtxBuffer.Size;
    inner_.draw(list, slot, shrink(min), shrink(max), uv0, uv1);
    own_.emplace_back(before, list->VtxBuffer.Size);
  }
  ImVec2 shrink(ImVec2 p) const { return {origin_.x + (p.x - origin_.x) * k_, origin_.y + (p.y - origin_.y) * k_}; }
  /// Vertex ranges [from, to) the inner sink added.
  std::vector<std::pair<int, int>> own_;

 private:
  HeatmapSink& inner_;
  ImVec2 origin_;
  float k_;
};

}  // namespace

void replay_shrunk(const FigureRecording& recording, ImDrawList* list, ImVec2 origin, ImVec2 laid_out, ImVec2 box,
                   HeatmapSink& sink) {
  if (laid_out.x <= 0 || laid_out.y <= 0) return;
  const float k = std::min(box.x / laid_out.x, box.y / laid_out.y);
  ShrinkingSink shrinking(sink, origin, k);
  // Everything is drawn at full size inside a clip of the full size, then
  // every vertex and clip rectangle added is pulled towards the origin.
  list->PushClipRect(origin, {origin.x + laid_out.x, origin.y + laid_out.y}, false);
  const int first_cmd = list->CmdBuffer.Size - 1, first_vtx = list->VtxBuffer.Size;
  replay(recording, list, origin, shrinking);
  std::size_t own = 0;
  for (int i = first_vtx; i < list->VtxBuffer.Size; ++i) {
    while (own < shrinking.own_.size() && i >= shrinking.own_[own].second) ++own;
    if (own < shrinking.own_.size() && i >= shrinking.own_[own].first) continue;
    list->VtxBuffer[i].pos = shrinking.shrink(list->VtxBuffer[i].pos);
  }
  const ImVec2 end{origin.x + laid_out.x * k, origin.y + laid_out.y * k};
  for (int c = std::max(0, first_cmd); c < list->CmdBuffer.Size; ++c) {
    ImVec4& r = list->CmdBuffer[c].ClipRect;
    const ImVec2 a = shrinking.shrink({r.x, r.y}), b = shrinking.shrink({r.z, r.w});
    r = {std::max(a.x, origin.x), std::max(a.y, origin.y), std::min(b.x, end.x), std::min(b.y, end.y)};
  }
  list->PopClipRect();
}

ScenePreviews::~ScenePreviews() { clear(); }

void ScenePreviews::Entry::release() {
  if (sink)
    for (std::uint32_t s : slots) sink->release(s);
  slots.clear();
  recording.clear();
  version = 0;
}

void ScenePreviews::begin_frame() {
  ++frame_;
  for (auto it = entries_.begin(); it != entries_.end();)
    it = it->second->last_frame + 1 < frame_ ? entries_.erase(it) : std::next(it);
}

void ScenePreviews::clear() { entries_.clear(); }

void ScenePreviews::show(Entry& e, const fig::Figure& figure, const PlotEnv& env, ImVec2 box, ImVec2 laid_out) {
  if (e.sink != env.sink) {
    e.release();
    e.sink = env.sink;
  }
  laid_out = {std::max(120.0f, std::floor(laid_out.x)), std::max(90.0f, std::floor(laid_out.y))};
  if (e.version == 0 || e.style_key != env.style_key || e.laid_out.x != laid_out.x || e.laid_out.y != laid_out.y) {
    e.recording.clear();
    fig::RenderStyle style;
    style.theme = env.theme;
    style.font_size = env.fonts->size;
    style.show_title = false;  // as the projector's plot: its title is above it
    style.min_text = env.min_text;
    const double density = ImGui::GetIO().DisplayFramebufferScale.x > 0 ? ImGui::GetIO().DisplayFramebufferScale.x : 1.0;
    ImGuiPainter painter(e.recording, *env.fonts, *env.sink, e.slots, density);
    (void)fig::render_figure(figure, painter, fig::Rect{0, 0, laid_out.x, laid_out.y}, style);
    e.style_key = env.style_key;
    e.laid_out = laid_out;
    e.version = 1;
  }
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float k = std::min(box.x / laid_out.x, box.y / laid_out.y);
  const ImVec2 drawn{laid_out.x * k, laid_out.y * k};
  ImDrawList* list = ImGui::GetWindowDrawList();
  list->AddRectFilled(at, {at.x + drawn.x, at.y + drawn.y}, to_imgui(env.theme.background));
  replay_shrunk(e.recording, list, at, laid_out, drawn, *env.sink);
  ImGui::Dummy(drawn);
}

bool ScenePreviews::draw(UiContext& ctx, const PlotEnv& env, const Scene& scene, bool revealed, ImVec2 box,
                         ImVec2 laid_out, int& builds_left) {
  const std::string figure = scene_figure(scene, revealed);
  std::string key = ctx.tr.lang() + "|" + scene.lesson + "|" + figure + "|";
  for (const auto& [k, v] : scene.session(revealed).params) key += k + "=" + v + ";";
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    if (builds_left <= 0) {
      const ImVec2 at = ImGui::GetCursorScreenPos();
      const float k = laid_out.x > 0 && laid_out.y > 0 ? std::min(box.x / laid_out.x, box.y / laid_out.y) : 1.0f;
      const ImVec2 drawn{std::max(8.0f, laid_out.x * k), std::max(8.0f, laid_out.y * k)};
      ImGui::GetWindowDrawList()->AddRectFilled(at, {at.x + drawn.x, at.y + drawn.y}, ImGui::GetColorU32(ImGuiCol_FrameBg));
      ImGui::Dummy(drawn);
      ctx.redraw = true;
      return false;
    }
    --builds_left;
    ++builds_;
    auto e = std::make_unique<Entry>();
    try {
      const ViewDef* view = find_view(scene.lesson);
      const FigureDef* def = view ? find_figure(*view, figure) : nullptr;
      if (!view || !def) throw core::InvalidParameter("figure", figure, "is not a figure of " + scene.lesson);
      e->figure = build_figure_resolved(*view, *def, scene_params(scene, revealed), ctx.tr,
                                        std::max(240.0f, laid_out.x), std::max(160.0f, laid_out.y));
    } catch (const std::exception& ex) {
      e->error = error_text(ctx.tr, ex);
    }
    e->built = true;
    it = entries_.emplace(key, std::move(e)).first;
  }
  Entry& e = *it->second;
  e.last_frame = frame_;
  if (!e.error.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + box.x);
    ImGui::TextDisabled("%s", e.error.c_str());
    ImGui::PopTextWrapPos();
    return true;
  }
  show(e, e.figure, env, box, laid_out);
  return true;
}

void ScenePreviews::draw_live(const PlotEnv& env, const fig::Figure& figure, std::uint64_t version, ImVec2 box,
                              ImVec2 laid_out) {
  auto it = entries_.find("live");
  if (it == entries_.end()) it = entries_.emplace("live", std::make_unique<Entry>()).first;
  Entry& e = *it->second;
  e.last_frame = frame_;
  // The live figure moves with every slider and animation frame: laid out
  // again whenever its version does (not copied: drawn from the cache's).
  if (e.figure_version != version) e.version = 0;
  e.figure_version = version;
  show(e, figure, env, box, laid_out);
}

}  // namespace poslab::app::ui
