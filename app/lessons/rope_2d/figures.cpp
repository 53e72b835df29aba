// Lesson "rope-2d": RoPE as a rotation of a 2-D query and key (Su et al. 2021,
// "RoFormer", §3.2, eq. 13–16; notes seed 003 §3.2):
//   q′ = R(mθ)·q,  k′ = R(nθ)·k,  R(α) = [[cos α, −sin α], [sin α, cos α]]
//   q′·k′ = qᵀ R(mθ)ᵀ R(nθ) k = qᵀ R((n − m)θ) k = |q||k|·cos(φ_k − φ_q + (n − m)θ)
// so shifting both positions by s leaves q′·k′ unchanged. The complex view
// (RoFormer eq. 12): z = x + i·y, z′ = z·e^{imθ}, and
//   q′·k′ = Re[z_q′ · conj(z_k′)] = Re[z_q · conj(z_k) · e^{i(m − n)θ}].
// Every rotation here is core::rope_rotate with the single frequency θ.
//
// [SECTION] Index
// - Helpers (scores, tolerances, drawing; the setting and the rotation: setting.hpp)
// - Figures: plane, score_shift, complex
// - Readouts
// - The view

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>

#include "app/plot/figure_text.hpp"
#include "app/lessons/lesson.hpp"
#include "app/common/slider_math.hpp"
#include "app/lessons/rope_2d/setting.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::app {

namespace {

using fig::Figure;
using rope_2d::angle_of;
using rope_2d::kMaxPosition;
using rope_2d::rotate;
using rope_2d::Setup;
using rope_2d::setup;
using rope_2d::shift_max;
using rope_2d::shift_min;
using rope_2d::wrap;

constexpr double kPi = std::numbers::pi;
constexpr double kEps = std::numeric_limits<double>::epsilon();

// [SECTION] Helpers

double score(const Setup& s, double m, double n) { return rotate(s.q, m, s.theta).dot(rotate(s.k, n, s.theta)); }

/// How far two evaluations of the same score may differ in double: each angle
/// pos·θ is rounded to within u·|pos·θ| (u = 2^−53), sin and cos add an ulp,
/// the dot product a few more; |q′·k′| changes by at most |q||k| per radian.
/// `angles` are the rotation angles involved.
double tolerance(const Setup& s, std::initializer_list<double> angles) {
  double sum = 0;
  for (double a : angles) sum += std::abs(a);
  return s.q.norm() * s.k.norm() * (1e-12 + 8 * kEps * sum) + std::numeric_limits<double>::denorm_min();
}

/// The scale of the plane figures: the longer of q and k (1 if both vanish).
double radius_of(const Setup& s) {
  const double r = std::max(s.q.norm(), s.k.norm());
  return r > 0 ? r : 1.0;
}

/// A polyline arc of radius r from angle a0 to a1 (radians).
fig::Series arc(double r, double a0, double a1, fig::Color color, float width, fig::LineStyle style) {
  fig::Series s{.kind = fig::SeriesKind::line};
  const int n = std::max(8, static_cast<int>(std::ceil(std::abs(a1 - a0) / (2 * kPi) * 120)));
  for (int i = 0; i <= n; ++i) {
    const double a = a0 + (a1 - a0) * i / n;
    s.x.push_back(r * std::cos(a)), s.y.push_back(r * std::sin(a));
  }
  s.color = color, s.width = width, s.style = style;
  return s;
}

/// An arrow from the origin to `v` with a named shaft series (legend, hover:
/// the tip's coordinates, length and angle) and a label beyond the tip.
void add_vector(Figure& f, const FigureContext& ctx, const Eigen::VectorXd& v, const std::string& name,
                const std::string& label, fig::Color color, bool faded, double R) {
  const auto& tr = ctx.tr;
  fig::Series shaft{.name = name, .kind = fig::SeriesKind::line, .x = {0, v[0]}, .y = {0, v[1]}};
  shaft.color = faded ? color.with_alpha(0.45f) : color;
  shaft.width = faded ? 1.5f : 2.5f;
  shaft.style = faded ? fig::LineStyle::dashed : fig::LineStyle::solid;
  shaft.x_name = tr("rope-2d.readout.x");
  shaft.y_name = tr("rope-2d.readout.y");
  const double len = v.norm();
  shaft.extra = {{tr("rope-2d.readout.length"), "", {0, len}},
                 {tr("rope-2d.readout.angle"), tr("rope-2d.unit.rad"), {0, len > 0 ? angle_of(v) : 0.0}}};
  f.series.push_back(std::move(shaft));
  if (len <= 1e-9 * R) return;  // a zero vector has no direction to draw
  f.arrows.push_back({.x0 = 0, .y0 = 0, .x1 = v[0], .y1 = v[1], .color = faded ? color.with_alpha(0.55f) : color});
  if (label.empty()) return;  // labelled with another vector at the same tip
  const double ux = v[0] / len, uy = v[1] / len;
  f.notes.push_back({.x = v[0] + ux * 0.07 * R, .y = v[1] + uy * 0.07 * R, .text = label,
                     .anchor = ux >= 0 ? fig::Anchor::left : fig::Anchor::right,
                     .color = faded ? color.with_alpha(0.7f) : color});
}

/// "θ = 0.5 rad/token · m = 2 · n = 5 · s = 0" (the shifted positions when s ≠ 0).
std::string positions_subtitle(const FigureContext& ctx, const Setup& s) {
  std::string out = ctx.tr.format("rope-2d.subtitle", {{"theta", fig::num(s.theta)}, {"m", fig::num(s.m)},
                                                       {"n", fig::num(s.n)}, {"s", fig::num(s.shift)}});
  if (s.shift_clamped) out += " · " + ctx.tr("rope-2d.subtitle.clamped");
  return out;
}

/// A figure of a plane at scale R (the plane and complex figures): equal
/// aspect, [−1.45R, 1.45R] × [−1.3R, 1.3R], the positions as subtitle.
Figure plane_frame(const FigureContext& ctx, const Setup& s, double R, const char* title, const char* x_label,
                   const char* y_label) {
  const auto& tr = ctx.tr;
  Figure f;
  f.title = tr(title);
  f.subtitle = positions_subtitle(ctx, s);
  f.x = {.label = tr(x_label), .min = -1.45 * R, .max = 1.45 * R};
  f.y = {.label = tr(y_label), .min = -1.3 * R, .max = 1.3 * R};
  f.equal_aspect = true;
  f.legend = fig::LegendPlace::bottom_left;
  return f;
}

// [SECTION] Figures

/// q and k before (dashed) and after rotation to m + s and n + s, on the
/// circles of their lengths (rotation keeps length), with the turned angles
/// as arcs and the angle between q′ and k′, which depends on n − m only.
Figure plane(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setup s = setup(ctx.params);
  const double R = radius_of(s);
  const fig::Color cq = fig::palette_color(0), ck = fig::palette_color(1), muted = fig::Color::rgb(0x80868b);
  Figure f = plane_frame(ctx, s, R, "rope-2d.plane.title", "rope-2d.axis.first", "rope-2d.axis.second");
  // Circles |x| = |q| and |x| = |k|: where a rotated vector may go.
  for (const auto& [len, c] : {std::pair{s.q.norm(), cq}, std::pair{s.k.norm(), ck}})
    if (len > 1e-9 * R) {
      f.series.push_back(arc(len, 0, 2 * kPi, c.with_alpha(0.3f), 1.0f, fig::LineStyle::dotted));
      f.series.back().decoration = true;  // the lengths are the vectors' own readouts
    }
  // The turned angles m·θ and n·θ (mod 2π) as arcs from the unrotated vectors.
  const double aq = angle_of(s.q), ak = angle_of(s.k);
  const double tq = std::fmod(s.mq * s.theta, 2 * kPi), tk = std::fmod(s.nk * s.theta, 2 * kPi);
  if (s.q.norm() > 1e-9 * R && tq > 1e-3) {
    f.series.push_back(arc(0.28 * R, aq, aq + tq, cq, 1.3f, fig::LineStyle::dotted));
    f.series.back().name = tr.format("rope-2d.plane.turn_q", {{"a", fig::num(tq, 3)}});
  }
  if (s.k.norm() > 1e-9 * R && tk > 1e-3) {
    f.series.push_back(arc(0.36 * R, ak, ak + tk, ck, 1.3f, fig::LineStyle::dotted));
    f.series.back().name = tr.format("rope-2d.plane.turn_k", {{"a", fig::num(tk, 3)}});
  }
  // The angle from q′ to k′: φ_k − φ_q + (n − m)θ, whatever s is.
  const double between = wrap(angle_of(s.k_rot) - angle_of(s.q_rot));
  if (s.q_rot.norm() > 1e-9 * R && s.k_rot.norm() > 1e-9 * R && std::abs(between) > 1e-3) {
    const double a0 = angle_of(s.q_rot);
    f.series.push_back(arc(0.5 * R, a0, a0 + between, muted, 2.0f, fig::LineStyle::solid));
    f.series.back().data_name = tr.format("rope-2d.plane.between", {{"a", fig::num(between, 3)}});
    // Its value in the top-left corner, above every circle: a label beside
    // the arc would cross an arrow at some angles.
    f.notes.push_back({.x = -1.42 * R, .y = 1.2 * R,
                       .text = tr.format("rope-2d.plane.between", {{"a", fig::num(between, 3)}}),
                       .anchor = fig::Anchor::left, .color = muted});
  }
  // At position 0 (or a whole number of turns) a vector and its turned copy
  // coincide: one label "q = q′" at the tip, not two on top of each other.
  auto same = [&](const Eigen::VectorXd& a, const Eigen::VectorXd& b) { return (a - b).norm() <= 1e-6 * R; };
  const bool q_same = same(s.q, s.q_rot), k_same = same(s.k, s.k_rot);
  add_vector(f, ctx, s.q, tr("rope-2d.plane.q"), q_same ? "q = q′" : "q", cq, true, R);
  add_vector(f, ctx, s.k, tr("rope-2d.plane.k"), k_same ? "k = k′" : "k", ck, true, R);
  add_vector(f, ctx, s.q_rot, tr.format("rope-2d.plane.q_rot", {{"pos", fig::num(s.mq)}}), q_same ? "" : "q′", cq, false, R);
  add_vector(f, ctx, s.k_rot, tr.format("rope-2d.plane.k_rot", {{"pos", fig::num(s.nk)}}), k_same ? "" : "k′", ck, false, R);
  f.notes.push_back({.x = 1.42 * R, .y = 1.2 * R,
                     .text = tr.format("rope-2d.plane.score", {{"score", fig::num(s.q_rot.dot(s.k_rot), 5)}}),
                     .anchor = fig::Anchor::right});
  return f;
}

/// q′·k′ against a shift s: both positions moved by s (flat — only n − m
/// counts) and only the key moved (a cosine of period 2π/θ in s).
Figure score_shift(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setup s = setup(ctx.params);
  const double period = 2 * kPi / s.theta;
  // The shifts the slider offers (slider_range: from −min(m, n), no position
  // below 0, to 20 or one period of the key-only cosine past its start when θ
  // is small), with the current shift: the x-axis is the slider's range.
  const double lo_allowed = std::max(shift_min(s.m, s.n), -s.n);
  const double hi_allowed = std::min(shift_max(s.m, s.n), kMaxPosition - s.n);
  auto [lo, hi] = shown_slider_range(core::param_spec("shift"), ctx.params, s.shift);
  lo = std::max(lo_allowed, lo), hi = std::min(hi_allowed, hi);
  // Near position 10¹² the slider's end is past the last allowed shift: one period back from there.
  if (hi - lo < period) lo = std::max(lo_allowed, hi - period);
  const int samples = std::clamp(static_cast<int>(4 * ctx.width), 200, 4000);
  Figure f;
  f.title = tr("rope-2d.score_shift.title");
  f.subtitle = tr.format("rope-2d.score_shift.subtitle", {{"theta", fig::num(s.theta)}, {"m", fig::num(s.m)},
                                                          {"n", fig::num(s.n)}, {"period", fig::num(period)}});
  f.x = {.label = tr("rope-2d.score_shift.axis.x"), .unit = tr("unit.tokens")};
  const double qk = s.q.norm() * s.k.norm();
  // Room above the curves for the legend.
  f.y = {.label = tr("rope-2d.score_shift.axis.y")};
  if (qk > 0) f.y.min = -1.12 * qk, f.y.max = 1.6 * qk;
  // Past ~10⁹ rad a double cannot resolve the angle pos·θ finely: say so when
  // the rounding (u·|angle|, u = 2⁻⁵³) of the largest angle drawn exceeds 10⁻⁶ rad.
  const double largest = std::max({std::abs(s.m + hi), std::abs(s.n + hi), std::abs(s.m), std::abs(s.n)}) * s.theta;
  const bool blurred = largest * kEps / 2 > 1e-6;
  fig::Series both{.name = tr("rope-2d.score_shift.both")}, key_only{.name = tr("rope-2d.score_shift.key_only")};
  both.color = fig::palette_color(2), both.width = 3.0f;
  key_only.color = fig::palette_color(1), key_only.width = 1.8f, key_only.style = fig::LineStyle::dashed;
  for (int i = 0; i < samples; ++i) {
    const double sh = hi > lo ? lo + (hi - lo) * i / (samples - 1) : lo;
    both.x.push_back(sh), both.y.push_back(score(s, s.m + sh, s.n + sh));
    key_only.x.push_back(sh), key_only.y.push_back(score(s, s.m, s.n + sh));
  }
  for (fig::Series* c : {&both, &key_only}) {
    c->x_name = tr("rope-2d.readout.shift");
    c->y_name = "q′·k′";
  }
  f.series = {std::move(key_only), std::move(both)};
  if (qk > 0) {
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = qk, .label = "|q||k|",
                           .style = fig::LineStyle::dotted});
    f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = -qk, .label = "−|q||k|",
                           .style = fig::LineStyle::dotted});
  }
  f.ref_lines.push_back({.value = s.shift, .label = tr.format("rope-2d.score_shift.now", {{"s", fig::num(s.shift)}})});
  fig::Series now{.name = "", .kind = fig::SeriesKind::scatter, .x = {s.shift}, .y = {score(s, s.m + s.shift, s.n + s.shift)}};
  now.color = fig::palette_color(2), now.marker = 6;
  now.x_name = tr("rope-2d.readout.shift"), now.y_name = "q′·k′";
  now.data_name = tr.format("rope-2d.score_shift.now_point", {{"s", fig::num(s.shift)}});
  f.series.push_back(std::move(now));
  f.legend = fig::LegendPlace::top_right;
  if (blurred && qk > 0)
    f.notes.push_back({.x = lo + (hi - lo) * 0.01, .y = -1.05 * qk,
                       .text = tr.format("rope-2d.score_shift.precision", {{"a", fig::num(largest, 2)},
                                                                          {"e", fig::num(largest * kEps / 2, 2)}}),
                       .color = fig::palette_color(3)});
  return f;
}

/// The complex view: w = z_q′·conj(z_k′) = z_q·conj(z_k)·e^{i(m−n)θ}. Its real
/// part is q′·k′; it moves on the circle |w| = |q||k| with m − n alone.
Figure complex_view(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setup s = setup(ctx.params);
  // z′ = x′ + i·y′ from core's rotation; w from the rotated vectors.
  const std::complex<double> zq(s.q_rot[0], s.q_rot[1]), zk(s.k_rot[0], s.k_rot[1]);
  const std::complex<double> w = zq * std::conj(zk);
  const std::complex<double> w0 = std::complex<double>(s.q[0], s.q[1]) * std::conj(std::complex<double>(s.k[0], s.k[1]));
  double R = std::abs(w0);
  if (!(R > 0)) R = 1;
  const fig::Color cw = fig::palette_color(2), muted = fig::Color::rgb(0x80868b);
  Figure f = plane_frame(ctx, s, R, "rope-2d.complex.title", "rope-2d.complex.axis.re", "rope-2d.complex.axis.im");
  f.series.push_back(arc(std::abs(w0), 0, 2 * kPi, cw.with_alpha(0.35f), 1.0f, fig::LineStyle::dotted));
  f.series.back().decoration = true;  // the circle |w| = |w₀| both arrows stay on
  add_vector(f, ctx, Eigen::Vector2d(w0.real(), w0.imag()), tr("rope-2d.complex.w0"), tr("rope-2d.complex.w0_label"),
             muted, true, R);
  add_vector(f, ctx, Eigen::Vector2d(w.real(), w.imag()), tr("rope-2d.complex.w"), "w", cw, false, R);
  // Re w is the score: drop a line from w to the real axis.
  fig::Series drop{.name = tr("rope-2d.complex.re"), .kind = fig::SeriesKind::line, .x = {w.real(), w.real()},
                   .y = {w.imag(), 0}};
  drop.color = fig::palette_color(3), drop.width = 1.5f, drop.style = fig::LineStyle::dashed;
  drop.x_name = "Re w", drop.y_name = "Im w";
  f.series.push_back(std::move(drop));
  fig::Series foot{.name = "", .kind = fig::SeriesKind::scatter, .x = {w.real()}, .y = {0}};
  foot.color = fig::palette_color(3), foot.marker = 5, foot.x_name = "q′·k′ = Re w", foot.y_name = "Im w";
  foot.data_name = tr("rope-2d.complex.foot");
  f.series.push_back(std::move(foot));
  f.ref_lines.push_back({.orientation = fig::Orientation::horizontal, .value = 0, .color = muted,
                         .style = fig::LineStyle::solid});
  f.ref_lines.push_back({.value = 0, .color = muted, .style = fig::LineStyle::solid});
  // The score in the top-left corner, above the circle |w| = |w₀| that both
  // arrows stay on: beside the real axis it crossed an arrow or an axis.
  f.notes.push_back({.x = -1.42 * R, .y = 1.2 * R,
                     .text = tr.format("rope-2d.complex.score", {{"score", fig::num(w.real(), 5)}}),
                     .anchor = fig::Anchor::left, .color = fig::palette_color(3)});
  // Room below the circle |w| = |w₀| for the legend, in a corner that covers
  // neither the circle nor the notes at the top (a fixed corner beside the
  // circle lay on it in a narrow figure, and in a wide one too).
  f.y.min = -1.9 * R;
  f.legend = fig::LegendPlace::automatic;
  f.notes.push_back({.x = 1.42 * R, .y = 1.2 * R,
                     .text = tr.format("rope-2d.complex.turn", {{"a", fig::num(wrap((s.m - s.n) * s.theta), 3)}}),
                     .anchor = fig::Anchor::right});
  return f;
}

// [SECTION] Readouts

std::vector<Readout> readouts(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setup s = setup(ctx.params);
  std::vector<Readout> out;

  // 1. The score at (m, n) and after shifting both by s: equal.
  const double base_score = score(s, s.m, s.n);
  const double shifted = score(s, s.mq, s.nk);
  const double diff = std::abs(shifted - base_score);
  out.push_back({.label = tr("rope-2d.readout.score"), .value = fig::num(base_score, 6), .number = base_score});
  out.push_back({.label = tr.format("rope-2d.readout.shifted", {{"s", fig::num(s.shift)}}),
                 .value = tr.format("rope-2d.readout.shifted_value", {{"score", fig::num(shifted, 6)}, {"diff", fig::num(diff, 2)}}),
                 .number = shifted,
                 .holds = diff <= tolerance(s, {s.m * s.theta, s.n * s.theta, s.mq * s.theta, s.nk * s.theta})});

  // 2. Only the key moved by the same s: the score changes (a measurement).
  if (s.n + s.shift >= 0 && s.n + s.shift <= kMaxPosition) {
    const double key_only = score(s, s.m, s.n + s.shift);
    out.push_back({.label = tr.format("rope-2d.readout.key_only", {{"s", fig::num(s.shift)}}),
                   .value = fig::num(key_only, 6), .number = key_only});
  }

  // 3. The angle from q′ to k′ is φ_k − φ_q + (n − m)θ (mod 2π).
  if (s.q.norm() > 0 && s.k.norm() > 0) {
    const double measured = wrap(angle_of(s.k_rot) - angle_of(s.q_rot));
    const double predicted = wrap(angle_of(s.k) - angle_of(s.q) + (s.n - s.m) * s.theta);
    const double gap = std::abs(wrap(measured - predicted));
    // atan2 of a rotated vector is exact to a few ulp of the rotation angles.
    const double tol =
        1e-9 + 8 * kEps * (std::abs(s.mq * s.theta) + std::abs(s.nk * s.theta) + std::abs((s.n - s.m) * s.theta));
    out.push_back({.label = tr("rope-2d.readout.between"),
                   .value = tr.format("rope-2d.readout.between_value", {{"a", fig::num(measured, 6)},
                                                                         {"deg", fig::num(measured * 180 / kPi, 4)}}),
                   .number = measured, .holds = gap <= tol});
  }

  // 4. q′·k′ = |q||k|·cos(φ_k − φ_q + (n − m)θ): a function of n − m alone.
  const double closed = s.q.norm() * s.k.norm() * std::cos(angle_of(s.k) - angle_of(s.q) + (s.n - s.m) * s.theta);
  out.push_back({.label = tr("rope-2d.readout.closed"), .value = fig::num(closed, 6), .number = closed,
                 .holds = std::abs(closed - base_score) <=
                          tolerance(s, {s.m * s.theta, s.n * s.theta, (s.n - s.m) * s.theta, 2 * kPi})});

  // 5. Rotation keeps length.
  const double stretch = std::abs(s.q_rot.norm() - s.q.norm()) + std::abs(s.k_rot.norm() - s.k.norm());
  out.push_back({.label = tr("rope-2d.readout.norm"),
                 .value = tr.format("rope-2d.readout.norm_value",
                                    {{"q", fig::num(s.q_rot.norm(), 6)}, {"k", fig::num(s.k_rot.norm(), 6)}}),
                 .number = s.q_rot.norm(),
                 .holds = stretch <= 8 * kEps * (s.q.norm() + s.k.norm())});

  // 6. The complex form (x + iy)·e^{imθ} is the rotation R(mθ)(x, y).
  const std::complex<double> zq = std::complex<double>(s.q[0], s.q[1]) * std::polar(1.0, s.mq * s.theta);
  const double cgap = std::abs(zq - std::complex<double>(s.q_rot[0], s.q_rot[1]));
  out.push_back({.label = tr("rope-2d.readout.complex"),
                 .value = tr.format("rope-2d.readout.complex_value", {{"re", fig::num(zq.real(), 6)},
                                                                       {"im", fig::num(zq.imag(), 6)}}),
                 .number = cgap, .holds = cgap <= 8 * kEps * s.q.norm() + std::numeric_limits<double>::denorm_min()});
  return out;
}

}  // namespace

ViewDef rope_2d_view() {
  return {.id = "rope-2d",
          .group = "rotary",
          .keys = {"q", "k", "m", "n", "shift", "theta"},
          .defaults = {{"theta", "0.5"}},
          .figures = {{"plane", plane}, {"score-shift", score_shift}, {"complex", complex_view}},
          .tables = {"rope-2d-shift"},
          .readouts = readouts};
}

}  // namespace poslab::app
