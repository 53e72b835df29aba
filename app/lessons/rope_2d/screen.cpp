// The "rope-2d" lesson screen: a 2-D canvas where the student drags the tips
// of q and k; the rotated q′ = R((m+s)θ)q and k′ = R((n+s)θ)k, the angle
// between them and q′·k′ follow live (RoFormer eq. 13–16). The m, n, shift
// and θ sliders (and their ▶ animation) live in the parameter panel. Beside
// the canvas: the view's readouts; below: the score-vs-shift and complex
// figures and the rope-2d-shift table. Every number comes from
// core::rope_rotate; the canvas only draws.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "app/lessons/rope_2d/setting.hpp"
#include "app/plot/figure.hpp"
#include "app/plot/figure_text.hpp"
#include "app/plot/render.hpp"
#include "app/ui/lesson_ui.hpp"

namespace poslab::app::ui {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kMaxComponent = 1e6;  // the `q`/`k` spec bounds

ImU32 colour(fig::Color c, float alpha = 1.0f) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a * alpha)); }

/// Drag state of the canvas: which tip is held (0 none, 1 q, 2 k) and the
/// scale frozen while dragging so the canvas does not zoom under the mouse.
struct Drag {
  int tip = 0;
  double extent = 0;
};

void arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 col, float width) {
  const float dx = to.x - from.x, dy = to.y - from.y, len = std::sqrt(dx * dx + dy * dy);
  if (len < 1.0f) return;
  const float ux = dx / len, uy = dy / len, head = std::min(12.0f * width / 2.5f, len * 0.4f);
  dl->AddLine(from, ImVec2(to.x - ux * head * 0.8f, to.y - uy * head * 0.8f), col, width);
  dl->AddTriangleFilled(to, ImVec2(to.x - ux * head - uy * head * 0.45f, to.y - uy * head + ux * head * 0.45f),
                        ImVec2(to.x - ux * head + uy * head * 0.45f, to.y - uy * head - ux * head * 0.45f), col);
}

/// The top-left corner of a label of `size` just beyond the tip of the arrow
/// from `from` to `tip`, `gap` pixels clear of the tip along the arrow's
/// direction whatever that is, so the label never lies on the arrowhead or
/// the shaft (the box's centre is pushed out by its half extent along the
/// direction). `sideways`: beside the tip, to the arrow's left, instead.
ImVec2 label_beyond_tip(ImVec2 from, ImVec2 tip, ImVec2 size, float gap, bool sideways) {
  float ux = tip.x - from.x, uy = tip.y - from.y;
  const float len = std::sqrt(ux * ux + uy * uy);
  if (len < 1e-3f) ux = 1, uy = 0;
  else ux /= len, uy /= len;
  if (sideways) {
    const float px = uy, py = -ux;  // a quarter turn
    ux = px, uy = py;
  }
  const float reach = gap + std::abs(ux) * size.x / 2 + std::abs(uy) * size.y / 2;
  return ImVec2(tip.x + ux * reach - size.x / 2, tip.y + uy * reach - size.y / 2);
}

/// True if the segment a–b passes through the box [lo, hi] (Liang–Barsky clipping).
bool segment_meets_box(ImVec2 a, ImVec2 b, ImVec2 lo, ImVec2 hi) {
  float t0 = 0, t1 = 1;
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float p[4] = {-dx, dx, -dy, dy}, qv[4] = {a.x - lo.x, hi.x - a.x, a.y - lo.y, hi.y - a.y};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (qv[i] < 0) return false;  // parallel to this edge and outside it
      continue;
    }
    const float t = qv[i] / p[i];
    if (p[i] < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

/// The canvas: a square of side `side` pixels.
void canvas(LessonUi& ui, float side) {
  static Drag drag;
  const auto& tr = ui.tr();
  const rope_2d::Setup s = rope_2d::setup(ui.params());
  const Eigen::VectorXd &q = s.q, &k = s.k, &qr = s.q_rot, &kr = s.k_rot;
  const float scale = ui.ui_scale();

  const ImVec2 origin_px = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##rope2d-canvas", ImVec2(side, side));
  const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
  if (drag.tip == 0 || drag.extent <= 0) drag.extent = std::max(1.2, 1.3 * std::max(q.norm(), k.norm()));
  const double extent = drag.extent;
  const ImVec2 c(origin_px.x + side / 2, origin_px.y + side / 2);
  const double px = side / 2 / extent;  // pixels per unit
  auto to_px = [&](double x, double y) { return ImVec2(c.x + static_cast<float>(x * px), c.y - static_cast<float>(y * px)); };
  auto from_px = [&](ImVec2 v) { return std::pair{(v.x - c.x) / px, (c.y - v.y) / px}; };

  // Picking and dragging a tip: q or k (the vectors before rotation).
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  auto near = [&](const Eigen::VectorXd& v) {
    const ImVec2 t = to_px(v[0], v[1]);
    return std::hypot(t.x - mouse.x, t.y - mouse.y) < 14.0f * scale;
  };
  if (ImGui::IsItemActivated()) drag.tip = near(q) ? 1 : near(k) ? 2 : 0;
  if (!active) drag.tip = 0;
  if (hovered && (near(q) || near(k) || drag.tip)) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  if (active && drag.tip) {
    auto [x, y] = from_px(mouse);
    x = std::clamp(std::round(x * 100) / 100, -kMaxComponent, kMaxComponent);
    y = std::clamp(std::round(y * 100) / 100, -kMaxComponent, kMaxComponent);
    ui.set_param(drag.tip == 1 ? "q" : "k", std::vector<double>{x, y});
  }

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 bg = ImGui::GetColorU32(ImGuiCol_FrameBg), grid = ImGui::GetColorU32(ImGuiCol_Border);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), muted = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  dl->AddRectFilled(origin_px, ImVec2(origin_px.x + side, origin_px.y + side), bg, 4.0f * scale);
  dl->PushClipRect(origin_px, ImVec2(origin_px.x + side, origin_px.y + side), true);
  dl->AddLine(ImVec2(origin_px.x, c.y), ImVec2(origin_px.x + side, c.y), grid);
  dl->AddLine(ImVec2(c.x, origin_px.y), ImVec2(c.x, origin_px.y + side), grid);
  // On a projector (lecture mode) the colours darken to 4.5:1 on white and the circles thicken.
  const bool lecture = ui.lecture_mode();
  const fig::Theme ink = lecture ? fig::Theme::projector() : fig::Theme::light();
  const fig::Color cq = ink.ink(fig::palette_color(0)), ck = ink.ink(fig::palette_color(1));
  // Rotation keeps length: q′ stays on the circle |q|, k′ on |k|.
  const float ring = lecture ? 2.0f * scale : 1.0f;
  dl->AddCircle(c, static_cast<float>(q.norm() * px), colour(cq, lecture ? 0.6f : 0.35f), 96, ring);
  dl->AddCircle(c, static_cast<float>(k.norm() * px), colour(ck, lecture ? 0.6f : 0.35f), 96, ring);
  // Every label's box is decided before anything is drawn, so the label of
  // the angle can keep clear of the arrows and of the names at their tips.
  struct Tip {
    const Eigen::VectorXd* v;
    fig::Color col;
    std::string name;
    bool handle;
  };
  // A vector still lying under its turned copy (position 0, or whole turns)
  // shares one name at the tip, "q = q′": two names there printed over each
  // other (the student's rope-2d-5.png).
  auto same_tip = [&](const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
    const ImVec2 pa = to_px(a[0], a[1]), pb = to_px(b[0], b[1]);
    return std::hypot(pa.x - pb.x, pa.y - pb.y) < ImGui::GetTextLineHeight() * 1.5f;
  };
  const bool q_shared = same_tip(q, qr), k_shared = same_tip(k, kr);
  const Tip tips[] = {{&q, cq, q_shared ? "" : "q", true},
                      {&k, ck, k_shared ? "" : "k", true},
                      {&qr, cq, q_shared ? "q = q′" : "q′", false},
                      {&kr, ck, k_shared ? "k = k′" : "k′", false}};
  ImVec2 name_at[4];
  for (int t = 0; t < 4; ++t) {
    const Eigen::VectorXd& v = *tips[t].v;
    const ImVec2 tip = to_px(v[0], v[1]);
    name_at[t] = label_beyond_tip(c, tip, ImGui::CalcTextSize(tips[t].name.c_str()),
                                  (tips[t].handle || tips[t].name.size() > 4 ? 11.0f : 6.0f) * scale, false);
  }
  const std::string score = tr.format("rope-2d.plane.score", {{"score", fig::num(qr.dot(kr), 5)}});
  const std::string hint = tr("rope-2d.canvas.hint");
  const float line_h = ImGui::GetTextLineHeight(), pad = 6 * scale;
  const ImVec2 score_at(origin_px.x + 8 * scale, origin_px.y + pad);
  const ImVec2 hint_at(origin_px.x + 8 * scale, origin_px.y + side - line_h - pad);
  // The angle from q′ to k′ as an arc, its value beside the arc's middle where
  // that box crosses no arrow and no name, else in a free corner of the canvas.
  if (qr.norm() > 0 && kr.norm() > 0) {
    const double a0 = std::atan2(qr[1], qr[0]);
    double between = std::remainder(std::atan2(kr[1], kr[0]) - a0, 2 * kPi);
    const float r = static_cast<float>(0.45 * std::min(qr.norm(), kr.norm()) * px);
    // Screen y points down: angles flip sign.
    dl->PathArcTo(c, r, static_cast<float>(-a0), static_cast<float>(-(a0 + between)), 32);
    dl->PathStroke(muted, false, 2.0f * scale);
    const double mid = a0 + between / 2;
    const std::string label = tr.format("rope-2d.plane.between", {{"a", fig::num(between, 3)}});
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    std::vector<std::pair<ImVec2, ImVec2>> taken;  // boxes (min, max) the label may not touch
    for (int t = 0; t < 4; ++t) {
      const ImVec2 at = name_at[t], sz = ImGui::CalcTextSize(tips[t].name.c_str());
      taken.push_back({at, ImVec2(at.x + sz.x, at.y + sz.y)});
    }
    const ImVec2 score_size = ImGui::CalcTextSize(score.c_str()), hint_size = ImGui::CalcTextSize(hint.c_str());
    taken.push_back({score_at, ImVec2(score_at.x + score_size.x, score_at.y + score_size.y)});
    taken.push_back({hint_at, ImVec2(hint_at.x + hint_size.x, hint_at.y + hint_size.y)});
    const float gap = 3 * scale;
    auto clear = [&](ImVec2 at) {
      const ImVec2 lo(at.x - gap, at.y - gap), hi(at.x + size.x + gap, at.y + size.y + gap);
      if (at.x < origin_px.x + 2 || at.y < origin_px.y + 2 || at.x + size.x > origin_px.x + side - 2 ||
          at.y + size.y > origin_px.y + side - 2)
        return false;
      for (const auto& [blo, bhi] : taken)
        if (lo.x < bhi.x && blo.x < hi.x && lo.y < bhi.y && blo.y < hi.y) return false;
      for (const Tip& t : tips)
        if (segment_meets_box(c, to_px((*t.v)[0], (*t.v)[1]), lo, hi)) return false;
      // nor across a circle (|q|, |k|) or the arc itself (the zh review: two
      // circles ran through "angle q′→k′ = −2.43 rad" on step 3)
      const float nx = std::clamp(c.x, lo.x, hi.x) - c.x, ny = std::clamp(c.y, lo.y, hi.y) - c.y;
      const float nearest = std::hypot(nx, ny);
      const float farthest = std::hypot(std::max(std::abs(lo.x - c.x), std::abs(hi.x - c.x)),
                                        std::max(std::abs(lo.y - c.y), std::abs(hi.y - c.y)));
      for (const float radius : {static_cast<float>(q.norm() * px), static_cast<float>(k.norm() * px), r})
        if (nearest < radius && radius < farthest) return false;
      return true;
    };
    std::vector<ImVec2> places;
    // Beyond the arc's middle, the text on the side away from the centre, at
    // a few distances; then the four corners left free by the score and hint.
    for (float extra : {10.0f, 24.0f, 40.0f}) {
      const float tx = c.x + static_cast<float>(std::cos(mid)) * (r + extra * scale);
      const float ty = c.y - static_cast<float>(std::sin(mid)) * (r + extra * scale);
      places.emplace_back(std::cos(mid) < 0 ? tx - size.x : tx, std::sin(mid) > 0 ? ty - size.y : ty);
    }
    const float left = origin_px.x + 8 * scale, right = origin_px.x + side - size.x - 8 * scale;
    places.emplace_back(left, score_at.y + line_h + 2 * scale);
    places.emplace_back(right, origin_px.y + pad);
    places.emplace_back(right, hint_at.y);
    places.emplace_back(left, hint_at.y - line_h - 2 * scale);
    ImVec2 chosen = places[3];  // below the score: never over it, whatever else
    for (const ImVec2& at : places)
      if (clear(at)) {
        chosen = at;
        break;
      }
    dl->AddText(chosen, muted, label.c_str());
  }
  arrow(dl, c, to_px(q[0], q[1]), colour(cq, 0.5f), 1.6f * scale);
  arrow(dl, c, to_px(k[0], k[1]), colour(ck, 0.5f), 1.6f * scale);
  arrow(dl, c, to_px(qr[0], qr[1]), colour(cq), 3.0f * scale);
  arrow(dl, c, to_px(kr[0], kr[1]), colour(ck), 3.0f * scale);
  // Handles on the draggable tips, names beyond every tip.
  for (int t = 0; t < 4; ++t) {
    const Eigen::VectorXd& v = *tips[t].v;
    if (tips[t].handle) dl->AddCircle(to_px(v[0], v[1]), 7.0f * scale, colour(tips[t].col), 24, 2.0f * scale);
    if (!tips[t].name.empty()) dl->AddText(name_at[t], colour(tips[t].col, tips[t].handle ? 0.7f : 1.0f), tips[t].name.c_str());
  }
  dl->AddText(score_at, text, score.c_str());
  dl->AddText(hint_at, muted, hint.c_str());
  dl->PopClipRect();
}

void draw(LessonUi& ui) {
  if (!ui.lecture_mode()) {
    ui.paragraph("rope-2d.text");
    ImGui::Spacing();
  }
  const float avail = ImGui::GetContentRegionAvail().x;
  const float side = std::clamp(avail * 0.48f, 240.0f * ui.ui_scale(), 560.0f * ui.ui_scale());
  if (ImGui::BeginTable("##rope2d-top", 2, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("canvas", ImGuiTableColumnFlags_WidthFixed, side);
    ImGui::TableSetupColumn("numbers", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableNextColumn();
    canvas(ui, side);
    ImGui::TableNextColumn();
    ui.readouts();
    ImGui::EndTable();
  }
  ImGui::Spacing();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const bool two = avail >= 980 * ui.ui_scale();
  const float w = two ? std::floor((avail - spacing) / 2) : avail;
  ui.figure("score-shift", {w, w * 0.62f});
  if (two) ImGui::SameLine();
  ui.figure("complex", {w, w * 0.62f});
  ImGui::Spacing();
  const std::string header = ui.tr().format("ui.table.header", {{"id", "rope-2d-shift"}}) + "##rope-2d-shift";
  if (ImGui::CollapsingHeader(header.c_str())) ui.table("rope-2d-shift");
}

/// A guided step showing "plane": the canvas alone, as large as the step allows.
void draw_plane(LessonUi& ui, std::string_view, ImVec2 size) {
  // Never larger than the room given: a canvas taller than it was cut off at the bottom.
  const float side = std::max(120.0f, std::min({size.x, size.y, 720.0f * ui.ui_scale()}));
  // Centred in the room (a lecture's figure area is wide: the circle sat at its left).
  if (size.x > side) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + (size.x - side) / 2);
  canvas(ui, side);
}

}  // namespace

LessonScreen rope_2d_screen() { return {"rope-2d", draw, {"plane"}, draw_plane}; }

}  // namespace poslab::app::ui
