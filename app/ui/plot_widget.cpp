#include "app/ui/plot_widget.hpp"

#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

namespace poslab::app::ui {

namespace {

/// Axis value → the space zoom and pan work in (log10 for log axes).
double fwd(double v, fig::AxisScale s) { return fig::axis_forward(v, s); }
double inv(double v, fig::AxisScale s) { return fig::axis_inverse(v, s); }

}  // namespace

LayoutLog& layout_log() {
  static LayoutLog log;  // the UI thread's only
  return log;
}

PlotWidget::~PlotWidget() { release_slots(); }

int PlotWidget::warm(const fig::Figure& figure, ImVec2 size, const PlotEnv& env) {
  PlotEnv quiet = env;
  quiet.pacing = nullptr;  // not this frame's layouts
  PlotWidget widget;       // its destructor releases the heatmaps' slots
  {
    // Not a layout of the screen's: kept out of the layout log (restored even if the layout raises).
    struct Quiet {
      bool& on;
      bool was;
      ~Quiet() { on = was; }
    } quiet_log{layout_log().on, std::exchange(layout_log().on, false)};
    widget.record(figure, size, quiet);
  }
  ImDrawList list(ImGui::GetDrawListSharedData());
  list._ResetForNewFrame();
  list.PushTextureID(ImGui::GetIO().Fonts->TexID);
  list.PushClipRect({0, 0}, size, false);
  replay(widget.recording_, &list, {0, 0}, *quiet.sink);
  return list.CmdBuffer.Size;
}

void PlotWidget::release_slots() {
  if (sink_)
    for (std::uint32_t s : slots_) sink_->release(s);
  slots_.clear();
}

void PlotWidget::record(const fig::Figure& figure, ImVec2 size, const PlotEnv& env) {
  if (sink_ != env.sink) {
    release_slots();
    sink_ = env.sink;
  }
  // A recording made for a much larger plot (a window dragged huge and back)
  // gives its capacity back; otherwise it is reused and allocates nothing.
  if (static_cast<double>(size.x) * size.y * 4 < static_cast<double>(rec_size_.x) * rec_size_.y)
    recording_ = FigureRecording{};
  else
    recording_.clear();
  fig::RenderStyle style;
  style.theme = env.theme;
  style.font_size = env.fonts->size;
  style.show_title = false;  // the title is in the widget's header (LessonView)
  style.highlight = highlight_;
  style.hold = hold_;
  style.min_text = env.min_text;
  const double density = ImGui::GetIO().DisplayFramebufferScale.x > 0 ? ImGui::GetIO().DisplayFramebufferScale.x : 1.0;
  ImGuiPainter painter(recording_, *env.fonts, *env.sink, slots_, density);
  LayoutLog& log = layout_log();
  const auto t0 = std::chrono::steady_clock::now();
  layout_ = fig::render_figure(figure, painter, fig::Rect{0, 0, size.x, size.y}, style, view_);
  layout_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (env.pacing) env.pacing->spent_ms += layout_ms_;
  if (log.on) log.entries.emplace_back(figure.title, layout_ms_);
  ++layouts_;
  recorded_ = true;
}

void PlotWidget::zoom_at(ImVec2 local, double factor, bool zx, bool zy) {
  if (!recorded_ || !(factor > 0)) return;
  fig::ViewRange r = layout_.range;
  auto zoom = [&](double& lo, double& hi, double px_frac, fig::AxisScale log) {
    const double a = fwd(lo, log), b = fwd(hi, log);
    const double c = a + (b - a) * px_frac;
    double na = c + (a - c) * factor, nb = c + (b - c) * factor;
    if (!(std::abs(nb - na) > 1e-12 * std::max(1.0, std::abs(c))) || !std::isfinite(na) || !std::isfinite(nb)) return;
    if (log != fig::AxisScale::linear && (nb - na > 300 || na < -300 || nb > 300)) return;  // beyond doubles
    lo = inv(na, log), hi = inv(nb, log);
  };
  const fig::Rect& p = layout_.plot;
  if (zx) zoom(r.x_min, r.x_max, std::clamp((local.x - p.x) / p.w, 0.0, 1.0), layout_.x_scale);
  if (zy) zoom(r.y_min, r.y_max, std::clamp((p.bottom() - local.y) / p.h, 0.0, 1.0), layout_.y_scale);
  view_ = r;
}

void PlotWidget::pan(ImVec2 delta) {
  if (!recorded_ || (delta.x == 0 && delta.y == 0)) return;
  fig::ViewRange r = view_ ? *view_ : layout_.range;
  const fig::Rect& p = layout_.plot;
  auto shift = [](double& lo, double& hi, double frac, fig::AxisScale log) {
    const double a = fwd(lo, log), b = fwd(hi, log), d = (b - a) * frac;
    lo = inv(a + d, log), hi = inv(b + d, log);
  };
  shift(r.x_min, r.x_max, -delta.x / p.w, layout_.x_scale);
  shift(r.y_min, r.y_max, delta.y / p.h, layout_.y_scale);
  view_ = r;
}

std::string PlotWidget::readout_at(const fig::Figure& figure, ImVec2 local, const Translator* tr) const {
  if (!recorded_) return {};
  fig::ReadoutWords words;
  if (tr) words = {.named = (*tr)("ui.plot.readout_named"), .value = (*tr)("ui.plot.readout_value")};
  return fig::hover_readout(figure, layout_, {local.x, local.y}, 12, words);
}

PlotAction PlotWidget::draw(const char* id, const fig::Figure& figure, std::uint64_t version, ImVec2 size,
                            const PlotEnv& env) {
  PlotAction action = PlotAction::none;
  size.x = std::max(size.x, 120.0f);
  size.y = std::max(size.y, 90.0f);
  size = {std::floor(size.x), std::floor(size.y)};
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::PushID(id);
  ImGui::InvisibleButton("##plot", size, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  const bool hovered = ImGui::IsItemHovered();
  const bool active = ImGui::IsItemActive();
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 local(io.MousePos.x - origin.x, io.MousePos.y - origin.y);

  // A legend entry under the pointer: a click highlights its series (and fades
  // the rest); a second click, or a click on another, changes it.
  int entry = -1;
  if (hovered && recorded_)
    for (const auto& [series, box] : layout_.legend)
      if (box.contains({local.x, local.y})) entry = series;
  if (entry >= 0) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  if (entry >= 0 && ImGui::IsItemClicked(ImGuiMouseButton_Left)) highlight_ = highlight_ == entry ? -1 : entry;
  if (hovered) {
    if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) focused_ = true;
    // The wheel scrolls the page; it zooms here with Ctrl held, or once the
    // plot was clicked (until the pointer leaves it).
    if (io.KeyCtrl || focused_) {
      ImGui::SetItemUsingMouseWheel();
      if (io.MouseWheel != 0) {
        const bool only_x = io.KeyShift, only_y = io.KeyAlt;
        zoom_at(local, std::pow(1.18, -io.MouseWheel), !only_y || only_x, !only_x || only_y);
      }
    }
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) reset_view();
  } else if (!active) {
    focused_ = false;
  }
  if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f)) {
    pan(io.MouseDelta);
    ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeAll);
  }

  if (highlight_ >= static_cast<int>(figure.series.size())) highlight_ = -1;  // another figure now
  const bool stale = !recorded_ || version != rec_version_ || env.style_key != rec_style_ || size.x != rec_size_.x ||
                     size.y != rec_size_.y || view_ != rec_view_ || highlight_ != rec_highlight_ || hold_ != rec_hold_;
  // A plot scrolled out of its window is not laid out (a lesson's page
  // stacks its figures below the text; a slider drag re-lays out only what
  // is on screen); it is, once scrolled back. What it recorded for the old
  // figure is of no more use: its memory and heatmap slots go.
  const bool visible =
      layout_log().hidden_too || ImGui::IsRectVisible(origin, {origin.x + size.x, origin.y + size.y});
  if (!visible && stale && recorded_) {
    recording_ = FigureRecording{};
    release_slots();
    recorded_ = false;
  }
  // Only a newer figure (nothing the user did to this plot): with layouts
  // paced and this frame's share spent, the previous picture stays a frame
  // longer (at most LayoutPacing::kMaxDeferredFrames in a row).
  const bool only_newer = recorded_ && version != rec_version_ && env.style_key == rec_style_ && size.x == rec_size_.x &&
                          size.y == rec_size_.y && view_ == rec_view_ && highlight_ == rec_highlight_ && hold_ == rec_hold_;
  const bool defer = visible && only_newer && env.pacing && env.pacing->spent_ms > 0 &&
                     env.pacing->spent_ms + layout_ms_ > env.pacing->ms &&
                     deferred_frames_ < LayoutPacing::kMaxDeferredFrames;
  if (defer) {
    ++deferred_frames_;
    ++env.pacing->deferred;
  } else if (visible && stale) {
    deferred_frames_ = 0;
    record(figure, size, env);
    rec_version_ = version, rec_style_ = env.style_key, rec_size_ = size, rec_view_ = view_, rec_highlight_ = highlight_, rec_hold_ = hold_;
    last_mouse_ = {-1e9f, -1e9f};
  }
  ImDrawList* list = ImGui::GetWindowDrawList();
  list->PushClipRect(origin, {origin.x + size.x, origin.y + size.y}, true);
  if (visible) replay(recording_, list, origin, *env.sink);

  // Hover: crosshair and the exact readout.
  const bool in_plot = visible && hovered && env.hover && recorded_ && layout_.plot.contains({local.x, local.y});
  if (in_plot) {
    if (local.x != last_mouse_.x || local.y != last_mouse_.y) {
      readout_ = readout_at(figure, local, env.tr);
      last_mouse_ = local;
    }
    const ImU32 hair = to_imgui(env.theme.text.with_alpha(0.6f));  // visible over heatmaps too
    const auto& p = layout_.plot;
    list->AddLine({origin.x + static_cast<float>(p.x), io.MousePos.y},
                  {origin.x + static_cast<float>(p.right()), io.MousePos.y}, hair, 1.0f);
    list->AddLine({io.MousePos.x, origin.y + static_cast<float>(p.y)},
                  {io.MousePos.x, origin.y + static_cast<float>(p.bottom())}, hair, 1.0f);
    if (!readout_.empty() && !active) {
      ImGui::BeginTooltip();
      ImGui::TextUnformatted(readout_.c_str());
      ImGui::EndTooltip();
    }
  } else if (!hovered || !env.hover) {
    readout_.clear();
    last_mouse_ = {-1e9f, -1e9f};
  }
  list->PopClipRect();

  // Right-click menu.
  if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) menu_readout_ = readout_;
  if (ImGui::BeginPopupContextItem("##plot-menu")) {
    const Translator& tr = *env.tr;
    if (ImGui::BeginMenu(tr("ui.plot.export").c_str())) {
      if (ImGui::MenuItem("PNG")) action = PlotAction::export_png;
      if (ImGui::MenuItem("SVG")) action = PlotAction::export_svg;
      if (ImGui::MenuItem("PDF")) action = PlotAction::export_pdf;
      if (ImGui::MenuItem("CSV")) action = PlotAction::export_csv;
      ImGui::EndMenu();
    }
    if (ImGui::MenuItem(tr("ui.plot.copy_readout").c_str(), nullptr, false, !menu_readout_.empty()))
      ImGui::SetClipboardText(menu_readout_.c_str());
    if (ImGui::MenuItem(tr("ui.plot.reset_view").c_str(), tr("ui.plot.double_click").c_str(), false, zoomed()))
      reset_view();
    ImGui::EndPopup();
  }
  ImGui::PopID();
  return action;
}

}  // namespace poslab::app::ui
