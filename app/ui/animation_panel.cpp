#include "app/ui/animation_panel.hpp"

#include <imgui.h>

#include <cfloat>

#include "app/ui/params_panel.hpp"
#include "app/ui/slider_math.hpp"

namespace poslab::app::ui {

void step_animation(UiContext& ctx, int direction) {
  Animation& a = ctx.state.animation();
  if (!a.active()) return;
  a.pause();
  const std::string why = ctx.state.set_param(a.config().key, a.step(direction));
  if (!why.empty()) ctx.toasts.push(ctx.tr.format("ui.params.refused", {{"message", why}}), ToastKind::error);
}

void draw_animation_panel(UiContext& ctx) {
  Animation& a = ctx.state.animation();
  const ViewDef& v = ctx.state.view();
  ImGui::PushID("animation");
  ImGui::PushFont(ctx.fonts.bold);
  ImGui::TextUnformatted(ctx.tr("ui.anim.title").c_str());
  ImGui::PopFont();
  ImGui::SameLine();
  help_marker(ctx.tr("ui.anim.help").c_str());
  ImGui::Separator();

  const std::string current = a.active() ? param_name(ctx.tr, a.config().key) : ctx.tr("ui.anim.none");
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::BeginCombo("##key", current.c_str())) {
    if (ImGui::Selectable(ctx.tr("ui.anim.none").c_str(), !a.active())) a.clear();
    for (std::string_view key : v.keys) {
      const core::ParamSpec* spec = core::find_param(key);
      if (!spec || !is_numeric(*spec)) continue;
      if (ImGui::Selectable(param_name(ctx.tr, key).c_str(), a.config().key == key)) a.choose(key, ctx.state.params());
    }
    ImGui::EndCombo();
  }
  if (!a.active()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", ctx.tr("ui.anim.choose").c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopID();
    return;
  }
  const float s = ctx.scale;
  if (ImGui::Button(ctx.tr(a.playing() ? "ui.anim.pause" : "ui.anim.play").c_str(), {90 * s, 0})) a.toggle();
  ImGui::SameLine();
  if (ImGui::Button("◀")) step_animation(ctx, -1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("ui.keys.step_back").c_str());
  ImGui::SameLine();
  if (ImGui::Button("▶")) step_animation(ctx, +1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("ui.keys.step_forward").c_str());
  ImGui::SameLine();
  const std::string value = fig::format_readout(a.value());
  ImGui::ProgressBar(static_cast<float>(a.phase()), {-FLT_MIN, 0}, value.c_str());

  float speed = static_cast<float>(a.config().speed);
  ImGui::SetNextItemWidth(-FLT_MIN);
  const std::string speed_fmt = ctx.tr("ui.anim.speed") + " ×%.2f";
  if (ImGui::SliderFloat("##speed", &speed, 0.05f, 20.0f, speed_fmt.c_str(), ImGuiSliderFlags_Logarithmic))
    a.set_speed(speed);
  int mode = static_cast<int>(a.config().mode);
  bool mode_changed = ImGui::RadioButton(ctx.tr("ui.anim.loop").c_str(), &mode, static_cast<int>(PlayMode::loop));
  ImGui::SameLine();
  mode_changed |= ImGui::RadioButton(ctx.tr("ui.anim.bounce").c_str(), &mode, static_cast<int>(PlayMode::bounce));
  ImGui::SameLine();
  mode_changed |= ImGui::RadioButton(ctx.tr("ui.anim.once").c_str(), &mode, static_cast<int>(PlayMode::once));
  if (mode_changed) a.set_mode(static_cast<PlayMode>(mode));
  double from = a.config().from, to = a.config().to;
  const float half = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) / 2;
  ImGui::SetNextItemWidth(half);
  bool apply = ImGui::InputDouble("##from", &from, 0, 0, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue);
  apply |= ImGui::IsItemDeactivatedAfterEdit();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("ui.anim.from").c_str());
  ImGui::SameLine();
  ImGui::SetNextItemWidth(half);
  apply |= ImGui::InputDouble("##to", &to, 0, 0, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue);
  apply |= ImGui::IsItemDeactivatedAfterEdit();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("ui.anim.to").c_str());
  if (apply) a.set_range(from, to);
  ImGui::PopID();
}

}  // namespace poslab::app::ui
