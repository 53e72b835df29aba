// [SECTION] Index
// - Names, units, help
// - The panel
// - One parameter: name line, numeric slider, typed entry, text entry
// - Context menu (reset, animate, lecture)

#include "app/ui/params_panel.hpp"

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "app/common/messages.hpp"
#include "app/ui/slider_math.hpp"

namespace poslab::app::ui {

// [SECTION] Names, units, help

std::string unit_text(const Translator& tr, std::string_view unit) {
  std::string key = "ui.unit.";
  for (char c : unit) key += c == '/' ? std::string("_per_") : std::string(1, c);
  const std::string& t = tr(key);
  return t == key ? std::string(unit) : t;
}

std::string param_unit(const Translator& tr, const core::ParamSpec& spec) {
  if (spec.unit.empty()) return {};
  if (const std::string* own = tr.find("param." + std::string(spec.key) + ".unit")) return *own;
  return unit_text(tr, spec.unit);
}

std::string param_name(const Translator& tr, std::string_view key, std::string_view group) {
  // A lesson group may name a key its own way: d is the head dimension in the
  // rotary lessons, the model (embedding) dimension in the absolute ones.
  if (!group.empty())
    if (const std::string* own = tr.find("param." + std::string(key) + ".name_" + std::string(group))) return *own;
  const std::string k = "param." + std::string(key) + ".name";
  const std::string& t = tr(k);
  return t == k ? std::string(key) : t;
}

std::string choice_text(const Translator& tr, std::string_view key, std::string_view word) {
  const std::string* t = tr.find("param." + std::string(key) + ".choice." + std::string(word));
  return t ? *t : std::string(word);
}

namespace {

std::string number(double v) { return fig::format_readout(v, 6); }

std::string bound_text(const core::ParamSpec& s, bool low) {
  const double b = low ? s.min : s.max;
  if (!std::isfinite(b)) return low ? "−∞" : "∞";
  const bool exclusive = low ? s.min_exclusive : s.max_exclusive;
  return (exclusive ? (low ? "> " : "< ") : "") + number(b);
}

std::string help_text(const Translator& tr, const core::ParamSpec& s, std::string_view group) {
  const std::string key = "param." + std::string(s.key) + ".help";
  const std::string* own = group.empty() ? nullptr : tr.find(key + "_" + std::string(group));
  std::string out = own ? *own : tr(key) == key ? std::string() : tr(key);
  if (is_numeric(s)) {
    if (!out.empty()) out += "\n\n";
    out += tr.format("ui.params.range", {{"min", number(s.ui_min)}, {"max", number(s.ui_max)}});
    out += "\n" + tr.format("ui.params.typed_range", {{"min", bound_text(s, true)}, {"max", bound_text(s, false)}});
    if (s.type == core::ParamType::integer) out += "\n" + tr(s.even ? "ui.params.even_integer" : "ui.params.integer");
    if (s.scale == core::SliderScale::log) out += "\n" + tr("ui.params.log_slider");
    if (s.scale == core::SliderScale::pow2) out += "\n" + tr("ui.params.pow2_slider");
    out += "\n" + tr("ui.params.ctrl_click");
  } else if (s.type == core::ParamType::list || s.type == core::ParamType::vector) {
    if (!out.empty()) out += "\n\n";
    out += tr(s.type == core::ParamType::list ? "ui.params.list_syntax" : "ui.params.vector_syntax");
    out += "\n" + tr.format("ui.params.allowed", {{"allowed", allowed_text(tr, s)}});
  }
  return out;
}

}  // namespace

// [SECTION] The panel

const std::string& ParamsPanel::message(std::string_view key) const {
  static const std::string none;
  auto it = messages_.find(key);
  return it == messages_.end() ? none : it->second;
}

const std::string& ParamsPanel::shown_text(UiContext& ctx, const core::ParamSpec& spec) {
  if (shown_revision_ != ctx.state.revision() || shown_view_ != ctx.state.view_index()) {
    shown_.clear();
    shown_revision_ = ctx.state.revision();
    shown_view_ = ctx.state.view_index();
  }
  auto it = shown_.find(spec.key);
  if (it != shown_.end()) return it->second;
  const core::Params* resolved = ctx.state.resolved();
  const core::Params& p = resolved ? *resolved : ctx.state.params();
  std::string text;
  // A key with no value and no default shows an empty box — found without
  // Params::value's exception: while a slider is dragged the texts are made
  // anew every frame, and in the page each throw is a slow unwind (scaling's
  // three list keys: ~0.5 ms a frame).
  if (!p.is_set(spec.key) && spec.default_text.empty()) return shown_.emplace(std::string(spec.key), std::string()).first->second;
  try {
    text = core::format_param_value(spec, p.value(spec.key));
  } catch (const core::InvalidParameter&) {
    text.clear();  // no default here: the box starts empty
  }
  return shown_.emplace(std::string(spec.key), std::move(text)).first->second;
}

void ParamsPanel::set(UiContext& ctx, std::string_view key, const core::ParamValue& value) {
  const std::string why = ctx.state.set_param(key, value);
  if (why.empty()) messages_.erase(std::string(key));
  else messages_[std::string(key)] = ctx.tr.format("ui.params.refused", {{"message", why}});
}

std::string ParamsPanel::type_value(UiContext& ctx, std::string_view key, std::string_view text) {
  const core::ParamSpec* spec = core::find_param(key);
  const std::string old = spec ? shown_text(ctx, *spec) : std::string();
  const std::string why = ctx.state.set_param_text(key, text);
  if (why.empty()) {
    messages_.erase(std::string(key));
    return {};
  }
  std::string msg = ctx.tr.format("ui.params.refused_kept", {{"message", why}, {"old", old}});
  messages_[std::string(key)] = msg;
  return msg;
}

void ParamsPanel::draw(UiContext& ctx) {
  drawn_.clear();
  const ViewDef& v = ctx.state.view();
  ImGui::PushFont(ctx.fonts.bold);
  ImGui::TextUnformatted(ctx.tr("ui.params.title").c_str());
  ImGui::PopFont();
  const std::string reset = ctx.tr("ui.params.reset_lesson");
  ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(reset.c_str()).x -
                  ImGui::GetStyle().FramePadding.x * 2);
  const Scene* step = ctx.state.current_step();
  if (ImGui::SmallButton(reset.c_str())) {
    // In a guided step "reset" means: back to what this step set.
    const std::string why = step ? ctx.state.go_to_step(ctx.state.step()) : std::string();
    if (!step) ctx.state.reset_view();
    if (!why.empty()) ctx.toasts.push(why, ToastKind::error);
    messages_.clear();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", ctx.tr(step ? "ui.keys.reset_step" : "ui.params.reset_lesson_help").c_str());
  ImGui::Separator();
  if (!ctx.state.resolve_error().empty()) wrapped_colored(ctx.pal.error, ctx.state.resolve_error());
  // A guided step shows the sliders that move its idea; the rest wait behind a fold.
  auto shown_by_step = [step](std::string_view key) {
    return !step || step->sliders.empty() ||
           std::find(step->sliders.begin(), step->sliders.end(), key) != step->sliders.end();
  };
  for (std::string_view key : v.keys)
    if (const core::ParamSpec* spec = core::find_param(key); spec && shown_by_step(key)) {
      draw_param(ctx, *spec, false);
      ImGui::Spacing();
    }
  if (step && !step->sliders.empty() && step->sliders.size() < v.keys.size() &&
      ImGui::CollapsingHeader(ctx.tr("ui.steps.more_params").c_str()))
    for (std::string_view key : v.keys)
      if (const core::ParamSpec* spec = core::find_param(key); spec && !shown_by_step(key)) {
        draw_param(ctx, *spec, false);
        ImGui::Spacing();
      }
}

void ParamsPanel::draw_compact(UiContext& ctx, std::span<const std::string> keys, int columns) {
  drawn_.clear();
  const int n = static_cast<int>(keys.size());
  if (n == 0) return;
  const int cols = std::clamp(std::min(n, columns), 1, 8);
  if (ImGui::BeginTable("##lecture-params", cols, ImGuiTableFlags_SizingStretchSame)) {
    for (const std::string& key : keys) {
      const core::ParamSpec* spec = core::find_param(key);
      if (!spec) continue;
      ImGui::TableNextColumn();
      draw_param(ctx, *spec, true);
    }
    ImGui::EndTable();
  }
}

// [SECTION] One parameter

void ParamsPanel::name_line(UiContext& ctx, const core::ParamSpec& spec, bool compact) {
  const std::string name = param_name(ctx.tr, spec.key, ctx.state.view().group);
  ImGui::TextUnformatted(name.c_str());
  note_item(ctx, "text", spec.key);
  context_menu(ctx, spec);
  if (const std::string unit_word = param_unit(ctx.tr, spec); !unit_word.empty()) {
    // Full-width parentheses in Chinese, as units are written in its running
    // text; their glyph carries its own space, so no gap is added before it.
    const std::string unit = ctx.tr.format("ui.params.unit", {{"unit", unit_word}});
    ImGui::SameLine(0, unit.rfind("（", 0) == 0 ? 0 : 4 * ctx.scale);
    ImGui::TextDisabled("%s", unit.c_str());
    note_item(ctx, "text", spec.key);
  }
  const std::string help = help_text(ctx.tr, spec, ctx.state.view().group);
  if (!help.empty()) {
    ImGui::SameLine();
    help_marker(help.c_str());
  }
  if (compact) return;
  // Right side: reset, play.
  const bool numeric_spec = is_numeric(spec);
  const ImGuiStyle& st = ImGui::GetStyle();
  const char* play_label = (ctx.state.animation().config().key == spec.key && ctx.state.animation().playing()) ? "■" : "▶";
  const float button_w = ImGui::CalcTextSize("↺").x + st.FramePadding.x * 2;
  const float play_w = numeric_spec ? ImGui::CalcTextSize(play_label).x + st.FramePadding.x * 2 + st.ItemSpacing.x : 0;
  const float x = ImGui::GetWindowContentRegionMax().x - button_w - play_w;
  ImGui::SameLine(std::max(x, ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + st.ItemSpacing.x));
  ImGui::BeginDisabled(!ctx.state.params().is_set(spec.key));
  if (ImGui::SmallButton("↺")) {
    ctx.state.reset_param(spec.key);
    messages_.erase(std::string(spec.key));
  }
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", ctx.tr("ui.params.reset_one").c_str());
  if (numeric_spec) {
    ImGui::SameLine();
    if (ImGui::SmallButton(play_label)) {
      Animation& a = ctx.state.animation();
      if (a.config().key == spec.key) a.toggle();
      else a.choose(spec.key, ctx.state.params()), a.play();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("ui.params.play_one").c_str());
  }
}

void ParamsPanel::draw_param(UiContext& ctx, const core::ParamSpec& spec, bool compact) {
  drawn_.emplace_back(spec.key);
  ImGui::PushID(spec.key.data(), spec.key.data() + spec.key.size());
  const core::Params* resolved = ctx.state.resolved();
  const core::Params& p = resolved ? *resolved : ctx.state.params();
  switch (spec.type) {
    case core::ParamType::boolean: {
      bool b = false;
      try {
        b = p.boolean(spec.key);
      } catch (const core::InvalidParameter&) {
      }
      if (ImGui::Checkbox("##v", &b)) set(ctx, spec.key, b);
      ImGui::SameLine();
      name_line(ctx, spec, compact);
      break;
    }
    case core::ParamType::choice: {
      name_line(ctx, spec, compact);
      const std::string& current = shown_text(ctx, spec);
      ImGui::SetNextItemWidth(-FLT_MIN);
      if (ImGui::BeginCombo("##v", choice_text(ctx.tr, spec.key, current).c_str())) {
        for (std::string_view c : core::param_choices(spec)) {
          const std::string word(c);
          const std::string label = choice_text(ctx.tr, spec.key, word) + "##" + word;
          if (ImGui::Selectable(label.c_str(), word == current)) set(ctx, spec.key, word);
        }
        ImGui::EndCombo();
      }
      break;
    }
    case core::ParamType::integer:
    case core::ParamType::real: {
      name_line(ctx, spec, compact);
      double value = spec.ui_min;
      try {
        value = p.real(spec.key);
      } catch (const core::InvalidParameter&) {
      }
      numeric(ctx, spec, value, compact);
      break;
    }
    case core::ParamType::list:
    case core::ParamType::vector:
      name_line(ctx, spec, compact);
      text_entry(ctx, spec, shown_text(ctx, spec));
      break;
  }
  if (const std::string& m = message(spec.key); !m.empty()) wrapped_colored(ctx.pal.error, m);
  ImGui::PopID();
}

void ParamsPanel::numeric(UiContext& ctx, const core::ParamSpec& spec, double value, bool compact) {
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const ImVec2 max(pos.x + w, pos.y + ImGui::GetFrameHeight());
  // Ctrl+click: type an exact value instead of dragging.
  if (typing_key_ != spec.key && io.KeyCtrl && ImGui::IsMouseClicked(ImGuiMouseButton_Left) &&
      ImGui::IsMouseHoveringRect(pos, max) && ImGui::IsWindowHovered()) {
    typing_key_ = std::string(spec.key);
    typing_buf_ = core::format_number(value);
    typing_focus_ = true;
  }
  if (typing_key_ == spec.key) {
    if (typing_focus_) ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(-FLT_MIN);
    const bool enter = ImGui::InputText("##typed", &typing_buf_,
                                        ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    // The on-screen keyboard took the bottom of the page: the field scrolls above it.
    if (ctx.narrow && !ImGui::IsItemVisible()) ImGui::SetScrollHereY(0.5f);
    note_item(ctx, "field", spec.key);
    const bool focused_now = typing_focus_;
    typing_focus_ = false;
    if (enter) {
      if (type_value(ctx, spec.key, typing_buf_).empty()) typing_key_.clear();
      else typing_focus_ = true;  // stay in the box to correct it
    } else if (!focused_now && ImGui::IsItemDeactivated()) {
      typing_key_.clear();  // Esc or a click elsewhere: the old value stays
    }
    ImGui::TextDisabled("%s", ctx.tr("ui.params.typing_hint").c_str());
    return;
  }
  // The value beside the slider, never under its handle: the slider keeps
  // the width the widest usual value leaves it.
  // An index past its count (row 9 on a grid of 8 rows, left from a larger
  // grid or typed) is taken as the last: the panel says so, not only the figure.
  std::string shown_value = number(value);
  if (!index_bound_key(spec.key).empty()) {
    const double last = slider_range(spec, ctx.state.params()).second;
    if (value > last) shown_value += " → " + number(last);
  }
  // Likewise a value below what the lesson takes (rope-2d's shift under
  // −min(m, n), left from larger m and n or typed): “−20 → −2”.
  if (const std::optional<double> floor = lesson_floor(spec.key, ctx.state.params()); floor && value < *floor)
    shown_value += " → " + number(*floor);
  // A 0 that stands for another value (head_dim 0 = d): “0 → 128”.
  if (value == 0)
    if (const std::optional<double> taken = zero_taken_as(spec.key, ctx.state.params())) shown_value += " → " + number(*taken);
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float value_w = std::max(ImGui::CalcTextSize("0.000000").x, ImGui::CalcTextSize(shown_value.c_str()).x);
  ImGui::SetNextItemWidth(std::max(40.0f * ctx.scale, w - value_w - spacing));
  const ImGuiSliderFlags flags = ImGuiSliderFlags_NoInput | ImGuiSliderFlags_NoRoundToFormat;
  const char* no_text = " ";  // the slider's own text stays empty
  // A value past the slider's usual range widens it (shown_slider_range),
  // held while the handle is dragged.
  std::optional<std::pair<double, double>> held;
  if (const auto it = drag_range_.find(spec.key); it != drag_range_.end()) held = it->second;
  auto [lo, hi] = shown_slider_range(spec, ctx.state.params(), value, held);
  if (spec.scale == core::SliderScale::pow2) {
    int kmin = pow2_min_exponent(spec), kmax = pow2_max_exponent(spec);
    const int kv = static_cast<int>(std::lround(std::log2(std::max(1.0, value))));
    kmin = std::min(kmin, static_cast<int>(std::lround(std::log2(std::max(1.0, lo)))));  // widened, or held while dragged
    kmax = std::max(kmax, static_cast<int>(std::lround(std::log2(std::max(1.0, hi)))));
    int k = std::clamp(kv, kmin, kmax);
    if (ImGui::SliderInt("##v", &k, kmin, kmax, no_text, flags)) set(ctx, spec.key, snap(spec, std::exp2(k), true));
  } else {
    double v = value;
    const bool log = spec.scale == core::SliderScale::log && lo > 0;
    // A token position dragged lands on a token (m = 48, not 48.7197);
    // typed (Ctrl+click), it may still be any number the key allows.
    const bool whole = spec.unit == "tokens";
    if (ImGui::SliderScalar("##v", ImGuiDataType_Double, &v, &lo, &hi, no_text,
                            flags | (log ? ImGuiSliderFlags_Logarithmic : 0)) &&
        v != value) {
      // (rounded inside the slider: rope-2d's shift starts at −min(m, n), −2.5 at n = 2.5)
      const double whole_v = std::round(v) < lo ? std::ceil(lo) : std::round(v);
      const double dragged = snap(spec, whole ? whole_v : v, false);
      if (dragged != value) set(ctx, spec.key, dragged);
    }
  }
  if (ImGui::IsItemActive()) drag_range_[std::string(spec.key)] = {lo, hi};
  else if (const auto it = drag_range_.find(spec.key); it != drag_range_.end()) drag_range_.erase(it);
  note_item(ctx, "slider", spec.key);
  if (ImGui::IsItemHovered() && !ImGui::IsItemActive()) ImGui::SetTooltip("%s", ctx.tr("ui.params.ctrl_click").c_str());
  ImGui::SameLine(0, spacing);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(shown_value.c_str());
  note_item(ctx, "text", spec.key);
  // A click (a tap: no Ctrl on a phone) on the number types an exact value.
  if (ImGui::IsItemHovered()) {
    ImGui::SetMouseCursor(ImGuiMouseCursor_TextInput);
    ImGui::SetTooltip("%s", ctx.tr("ui.params.value_tap").c_str());
  }
  if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) {
    typing_key_ = std::string(spec.key);
    typing_buf_ = core::format_number(value);
    typing_focus_ = true;
  }
  if (compact) return;
  // The slider's range under its two ends, small and muted.
  const std::string lo_text = number(lo);
  const std::string hi_text = number(hi);
  ImGui::PushFont(ctx.fonts.small);
  ImGui::PushStyleColor(ImGuiCol_Text, ctx.pal.muted);
  const float x0 = ImGui::GetCursorPosX();
  ImGui::TextUnformatted(lo_text.c_str());
  ImGui::SameLine(std::max(x0, x0 + w - value_w - spacing - ImGui::CalcTextSize(hi_text.c_str()).x));
  ImGui::TextUnformatted(hi_text.c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

void ParamsPanel::text_entry(UiContext& ctx, const core::ParamSpec& spec, const std::string& shown) {
  auto it = list_bufs_.find(spec.key);
  if (it == list_bufs_.end()) it = list_bufs_.emplace(std::string(spec.key), shown).first;
  std::string& buf = it->second;
  const ImGuiID id = ImGui::GetID("##v");
  if (ImGui::GetActiveID() != id && buf != shown) buf = shown;  // not being edited: show the value
  ImGui::SetNextItemWidth(-FLT_MIN);
  // No value of its own (the lesson picks one, e.g. dims from d): say so in the empty box.
  const bool enter = ImGui::InputTextWithHint("##v", ctx.tr("ui.params.automatic").c_str(), &buf,
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  if (enter || ImGui::IsItemDeactivatedAfterEdit()) {
    if (buf != shown) type_value(ctx, spec.key, buf);
  }
}

// [SECTION] Context menu

void ParamsPanel::context_menu(UiContext& ctx, const core::ParamSpec& spec) {
  if (!ImGui::BeginPopupContextItem("##param-menu")) return;
  if (ImGui::MenuItem(ctx.tr("ui.params.reset_one").c_str(), nullptr, false, ctx.state.params().is_set(spec.key)))
    ctx.state.reset_param(spec.key), messages_.erase(std::string(spec.key));
  if (is_numeric(spec) && ImGui::MenuItem(ctx.tr("ui.params.play_one").c_str())) {
    ctx.state.animation().choose(spec.key, ctx.state.params());
    ctx.state.animation().play();
  }
  const std::string view(ctx.state.view().id);
  std::vector<std::string>& chosen = ctx.settings.lecture_keys[view];
  const bool shown = chosen.empty() || std::find(chosen.begin(), chosen.end(), spec.key) != chosen.end();
  if (ImGui::MenuItem(ctx.tr("ui.params.in_lecture").c_str(), nullptr, shown)) {
    if (chosen.empty())
      for (std::string_view k : ctx.state.view().keys) chosen.emplace_back(k);
    if (shown) chosen.erase(std::remove(chosen.begin(), chosen.end(), spec.key), chosen.end());
    else chosen.emplace_back(spec.key);
    if (chosen.empty()) chosen.emplace_back("-");  // none: a placeholder no parameter is called
  }
  ImGui::EndPopup();
}

}  // namespace poslab::app::ui
