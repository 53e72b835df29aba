// The "rope" lesson screen: a live grid of clock dials, one per pair (up to
// 64, evenly sampled), hand i at angle m·θ_i, θ_i = base^(−2i/d) from
// core::rope_inverse_frequencies. A play button turns m continuously at a
// chosen number of tokens per second, far past the slider's range, so the
// fast hands blur while the slow ones creep. Below: the view's figures in a
// grid (the exportable "dials" figure among them) and its tables.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "app/lessons/rope/setting.hpp"
#include "app/plot/figure.hpp"
#include "app/plot/figure_text.hpp"
#include "app/ui/lesson_ui.hpp"

namespace poslab::app::ui {

namespace {

constexpr double kPi = std::numbers::pi;

ImU32 colour(fig::Color c, float alpha = 1.0f) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a * alpha)); }

struct Clock {
  bool playing = false;
  float rate = 20.0f;  ///< tokens per second
};

/// The dial grid at position m, in a region `width` wide.
void dial_grid(LessonUi& ui, float width) {
  const core::Params& p = ui.params();
  const auto& tr = ui.tr();
  const rope::Frequencies fr = rope::frequencies(p);
  const Eigen::VectorXd& theta = fr.theta;
  const double m = p.real("m"), L = rope::trained_context(p);
  const std::vector<int> pairs = rope::dial_pairs(fr.d / 2);
  const auto count = static_cast<int>(pairs.size());
  const float scale = ui.ui_scale();
  const float cell = std::clamp(width / std::max(8, std::min(count, 16)), 44.0f * scale, 110.0f * scale);
  const int cols = std::max(1, static_cast<int>(width / cell));
  const int rows = (count + cols - 1) / cols;
  const float label_h = ImGui::GetTextLineHeight();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(width, rows * (cell + label_h)));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 rim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const fig::Color fast = fig::palette_color(0), slow = fig::palette_color(1);
  for (int k = 0; k < count; ++k) {
    const int i = pairs[static_cast<std::size_t>(k)];
    const ImVec2 c(o.x + (k % cols + 0.5f) * cell, o.y + (k / cols) * (cell + label_h) + cell / 2);
    const float r = cell * 0.42f;
    const double a = std::fmod(m * theta[i], 2 * kPi);
    const fig::Color col = 2 * kPi / theta[i] < L ? fast : slow;
    dl->AddCircle(c, r, rim, 40, 1.0f);
    dl->AddLine(ImVec2(c.x + r * 0.8f, c.y), ImVec2(c.x + r, c.y), rim, 1.0f);  // angle 0, 3 o'clock
    if (a > 1e-3) {  // how far the hand turned this round
      dl->PathArcTo(c, r * 0.45f, 0.0f, static_cast<float>(-a), 24);
      dl->PathStroke(colour(col, 0.6f), false, 1.2f * scale);
    }
    const ImVec2 tip(c.x + r * 0.88f * static_cast<float>(std::cos(a)), c.y - r * 0.88f * static_cast<float>(std::sin(a)));
    dl->AddLine(c, tip, colour(col), 2.2f * scale);
    dl->AddCircleFilled(tip, 2.5f * scale, colour(col));
    const std::string label = std::to_string(i);
    const float tw = ImGui::CalcTextSize(label.c_str()).x;
    dl->AddText(ImVec2(c.x - tw / 2, c.y + cell / 2 - 2 * scale), colour(col), label.c_str());
  }
  ImGui::TextColored(ImVec4(fast.r, fast.g, fast.b, 1), "%s", tr.format("rope.dials.key_fast", {{"L", fig::num(L)}}).c_str());
  ImGui::TextColored(ImVec4(slow.r, slow.g, slow.b, 1), "%s", tr.format("rope.dials.key_slow", {{"L", fig::num(L)}}).c_str());
}

/// Starts the next control on the same line when `width` more pixels fit
/// there, else on a new line: a narrow column wraps the row instead of
/// cutting off its last control.
void same_line_if_fits(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  ImGui::SameLine();
  if (ImGui::GetCursorScreenPos().x + width > right) ImGui::NewLine();
}

/// The live clock (play/pause, speed, the current position) and the dial grid.
void clock_and_dials(LessonUi& ui) {
  static Clock clock;
  const auto& tr = ui.tr();
  const double m = ui.params().real("m");
  const ImGuiStyle& style = ImGui::GetStyle();
  auto button_w = [&](const std::string& label) { return ImGui::CalcTextSize(label.c_str()).x + 2 * style.FramePadding.x; };
  const std::string play = clock.playing ? tr("rope.clock.pause") : tr("rope.clock.play");
  if (ImGui::Button(play.c_str())) clock.playing = !clock.playing;
  const std::string reset = tr("rope.clock.reset");
  same_line_if_fits(button_w(reset));
  if (ImGui::Button(reset.c_str())) {
    clock.playing = false;
    ui.set_param("m", 0.0);
  }
  const std::string position = tr.format("rope.clock.position", {{"m", fig::num(m, 6)}});
  same_line_if_fits(ImGui::CalcTextSize(position.c_str()).x);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(position.c_str());
  // The speed: its name, the slider, and the rate beside it, as in the
  // parameter panel (text inside the slider's frame would sit under the
  // handle wherever the handle is). Together on one line, wrapped as a unit.
  const std::string speed = tr("rope.clock.speed");
  const std::string rate = tr.format("rope.clock.rate", {{"rate", fig::num(clock.rate, 4)}});
  const float slider_w = 160 * ui.ui_scale();
  same_line_if_fits(ImGui::CalcTextSize(speed.c_str()).x + slider_w + ImGui::CalcTextSize(rate.c_str()).x +
                    2 * style.ItemSpacing.x);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(speed.c_str());
  ImGui::SameLine();
  ImGui::SetNextItemWidth(slider_w);
  ImGui::SliderFloat("##rope-rate", &clock.rate, 0.1f, 100000.0f, " ",
                     ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_NoInput | ImGuiSliderFlags_NoRoundToFormat);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("rope.clock.speed_help").c_str());
  ImGui::SameLine();
  ImGui::TextUnformatted(rate.c_str());
  if (clock.playing) {
    const double next = m + static_cast<double>(clock.rate) * ImGui::GetIO().DeltaTime;
    if (next > 1e12 || !ui.set_param("m", next)) clock.playing = false;
    ui.request_redraw();
  }
  dial_grid(ui, ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize);
}

void draw(LessonUi& ui) {
  const auto& tr = ui.tr();
  if (!ui.lecture_mode()) {
    ui.paragraph("rope.text");
    ImGui::Spacing();
    ui.readouts();
    ImGui::Spacing();
  }
  clock_and_dials(ui);
  ImGui::Spacing();

  // The figures two per row (the dials figure is the exportable twin of the grid above).
  const ViewDef& v = ui.view();
  const float avail = ImGui::GetContentRegionAvail().x, spacing = ImGui::GetStyle().ItemSpacing.x;
  const bool two = avail >= 980 * ui.ui_scale();
  const float w = two ? std::floor((avail - spacing) / 2) : avail;
  const LessonScreen* screen = lesson_screen(v.id);
  int shown = 0;
  for (const FigureDef& f : v.figures) {
    if (screen && std::find(screen->replaces.begin(), screen->replaces.end(), f.id) != screen->replaces.end()) continue;
    if (two && shown % 2 == 1) ImGui::SameLine();
    ui.figure(f.id, {w, w * 0.62f});
    ++shown;
  }
  for (std::string_view id : v.tables) {
    ImGui::Spacing();
    const std::string header = tr.format("ui.table.header", {{"id", std::string(id)}}) + "##" + std::string(id);
    if (ImGui::CollapsingHeader(header.c_str())) ui.table(id);
  }
}

void draw_dials(LessonUi& ui, std::string_view, ImVec2) { clock_and_dials(ui); }

}  // namespace

LessonScreen rope_screen() { return {"rope", draw, {"dials"}, draw_dials}; }

}  // namespace poslab::app::ui
