// Lesson "relative": relative positions inside attention.
// - Shaw, Uszkoreit, Vaswani 2018 §3.2: key j seen from query i uses the learned
//   vector w_{clip(j − i, k)}, clip(x, k) = max(−k, min(k, x)): 2k + 1 vectors
//   serve every distance.
// - The four terms of an absolute-PE score (the source notes 《position embedding
//   概述》 §2.3 and 《旋转位置编码》 eq. 6):
//   q_i·k_j = x_i W_q W_kᵀ x_jᵀ + x_i W_q W_kᵀ p_jᵀ + p_i W_q W_kᵀ x_jᵀ + p_i W_q W_kᵀ p_jᵀ,
//   and what Transformer-XL, T5 and DeBERTa keep, replace or drop
//   (core/relative.hpp documents each variant term by term).
//
// [SECTION] Index
// - Helpers (the toy, the variant, colour ranges)
// - Figures: index, the four terms, score
// - Readouts
// - The view

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#include "app/plot/figure_text.hpp"
#include "app/lessons/common/memo.hpp"
#include "app/lessons/common/figures.hpp"
#include "app/lessons/lesson.hpp"
#include "app/lessons/relative/setting.hpp"
#include "poslab/core/relative.hpp"

namespace poslab::app {

namespace {

using fig::Figure;
using relative::ToyKey;

/// The toy is tokens × width with width × width weights, O(tokens·width² +
/// tokens²·width) to build and decompose. These caps keep it to a few
/// milliseconds at any slider setting (the subtitles say when they apply):
/// 128 tokens is a cell of 3+ pixels in a lesson panel, and width 128 is the
/// default d, so the default toy is never capped.
constexpr int kToyMaxTokens = 128;
constexpr int kToyMaxWidth = 128;
/// Toys remembered (the five term figures and the readouts of one setting
/// share one; a few more keep an undo or a toggled menu instant).
constexpr std::size_t kToyMemoEntries = 4;
/// Shaw's index of relative positions up to this far is looked up, not asked
/// of core per pixel.
constexpr long long kLookupReach = 1 << 16;
/// Shaw's index is written in every cell up to this many tokens.
constexpr long long kIndexWrittenUpTo = 24;

// [SECTION] Helpers

struct Toy {
  int tokens, width;
  std::uint64_t seed;
  core::ToyAttention inputs;
  core::FourTerms terms;
  Eigen::MatrixXd score;   ///< terms.sum()
  Eigen::MatrixXd direct;  ///< variant all: core::absolute_attention_scores, to check the sum against
};

std::shared_ptr<const Toy> compute_toy(const ToyKey& key) {
  auto toy = std::make_shared<Toy>();
  toy->tokens = key.tokens, toy->width = key.width, toy->seed = key.seed;
  toy->inputs = relative::toy_attention(key);
  toy->terms = core::four_term_decomposition(toy->inputs, key.variant);
  toy->score = toy->terms.sum();
  if (key.variant == core::TermVariant::all) toy->direct = core::absolute_attention_scores(toy->inputs);
  return toy;
}

/// The toy at the current parameters, computed once per setting: a memo of a
/// pure function (the same key gives the same numbers, remembered or not),
/// most recently used first. Thread-safe.
std::shared_ptr<const Toy> make_toy(const core::Params& p) {
  static lessons::Memo<ToyKey, Toy, kToyMemoEntries> memo;
  const ToyKey key = relative::toy_key(p, kToyMaxTokens, kToyMaxWidth);
  return memo.get(key, [&] { return compute_toy(key); });
}

enum class Term { content_content, content_position, position_content, position_position, score };
constexpr std::array kTermIds = {"content_content", "content_position", "position_content", "position_position",
                                 "score"};

const Eigen::MatrixXd& term_matrix(const Toy& toy, Term t) {
  switch (t) {
    case Term::content_content: return toy.terms.content_content;
    case Term::content_position: return toy.terms.content_position;
    case Term::position_content: return toy.terms.position_content;
    case Term::position_position: return toy.terms.position_position;
    case Term::score: break;
  }
  return toy.score;
}

/// max over i, j of |M(i + 1, j + 1) − M(i, j)|: 0 exactly when M(i, j) is a
/// function of i − j alone (a Toeplitz matrix).
double toeplitz_deviation(const Eigen::MatrixXd& m) {
  const Eigen::Index n = m.rows();
  if (n < 2) return 0;
  return (m.bottomRightCorner(n - 1, n - 1) - m.topLeftCorner(n - 1, n - 1)).cwiseAbs().maxCoeff();
}

/// Shaw's index clip(j − i, −k, k) for every relative position r = j − i with
/// |r| <= reach, from core (reach = min(n − 1, k + 1): beyond k + 1 the index no
/// longer changes, which is the point of clipping; the sampler looks r up there).
std::vector<int> shaw_lookup(long long reach, long long k) {
  std::vector<int> out(static_cast<std::size_t>(2 * reach + 1));
  for (long long r = -reach; r <= reach; ++r)
    out[static_cast<std::size_t>(r + reach)] =
        static_cast<int>(core::shaw_relative_index(std::max(0LL, -r), std::max(0LL, r), k));
  return out;
}

std::string toy_subtitle(const FigureContext& ctx, const Toy& toy, double range) {
  const auto& tr = ctx.tr;
  std::string s = tr.format("relative.terms.subtitle", {{"n", std::to_string(toy.tokens)}, {"w", std::to_string(toy.width)},
                                                        {"seed", std::to_string(toy.seed)}, {"range", fig::num(range, 3)}});
  if (ctx.params.integer("positions") > kToyMaxTokens || ctx.params.integer("d") > kToyMaxWidth)
    s += " · " + tr.format("relative.terms.capped", {{"n", std::to_string(kToyMaxTokens)}, {"w", std::to_string(kToyMaxWidth)}});
  return s;
}

// [SECTION] Figures

/// The n × n matrix of Shaw's vectors, each cell showing the clipped distance
/// r = m − n of its pair (the paper numbers them by n − m = −r: the same
/// table, sign flipped); dashed staircases along the cell borders mark where
/// clipping starts (from |r| = c on, every key reuses the vector of ±c).
Figure index(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  const long long n = p.integer("positions");
  const long long k = p.integer("clip");
  const long long reach = std::min(n - 1, k + 1);
  Figure f;
  f.title = tr("relative.index.title");
  // With c >= N − 1 no key lies beyond ±c: nothing is shared, and the
  // figure speaks of distances only (the first step, before c is taught).
  const bool clipped = k < n - 1;
  f.subtitle = tr.format(clipped ? "relative.index.subtitle" : "relative.index.subtitle_unclipped",
                         {{"k", fig::num(static_cast<double>(k))}, {"n", fig::num(static_cast<double>(n))},
                          {"v", fig::num(static_cast<double>(2 * std::min(k, n - 1) + 1))}});
  lessons::matrix_axes(f, tr("relative.axis.key"), tr("relative.axis.query"));
  f.legend = fig::LegendPlace::none;
  fig::Heatmap h;
  h.x0 = 0, h.x1 = static_cast<double>(n), h.y0 = 0, h.y1 = static_cast<double>(n);
  h.cols = h.rows = static_cast<int>(n);
  h.x_cells = h.y_cells = true;
  h.colormap = fig::Colormap::signed_;
  // The colours span the values that occur: ±c, or ±(N − 1) when c reaches past the sequence.
  const auto extent = static_cast<double>(std::max(std::min(k, n - 1), 1LL));
  h.vmin = -extent, h.vmax = extent;
  h.value_name = tr(clipped ? "relative.index.value" : "relative.index.value_unclipped");
  h.x_name = tr("relative.readout.key");
  h.y_name = tr("relative.readout.query");
  // The lookup covers |r| <= kLookupReach (a figure builds in bounded time
  // at n = k = 10^6); a pixel farther out asks core itself.
  const long long near = std::min(reach, kLookupReach);
  h.sampler = [lookup = shaw_lookup(near, k), near, reach, k](std::span<const double> xs, std::span<const double> ys,
                                                              std::span<float> out) {
    for (std::size_t r = 0; r < ys.size(); ++r) {
      const auto i = static_cast<long long>(std::floor(ys[r]));
      for (std::size_t c = 0; c < xs.size(); ++c) {
        const long long rel = std::clamp(static_cast<long long>(std::floor(xs[c])) - i, -reach, reach);
        // core numbers by key − query (Shaw's paper); the cell shows r = m − n, clipped: the negative.
        out[r * xs.size() + c] =
            -(rel >= -near && rel <= near
                  ? static_cast<float>(lookup[static_cast<std::size_t>(rel + near)])
                  : static_cast<float>(core::shaw_relative_index(std::max(0LL, -rel), std::max(0LL, rel), k)));
      }
    }
  };
  // Small matrices carry their index in every cell.
  if (n <= kIndexWrittenUpTo) {
    const std::vector<int> lookup = shaw_lookup(reach, k);
    for (long long i = 0; i < n; ++i)
      for (long long j = 0; j < n; ++j) {
        const int v = -lookup[static_cast<std::size_t>(std::clamp(j - i, -reach, reach) + reach)];  // r = i − j, clipped
        f.notes.push_back({.x = static_cast<double>(j) + 0.5, .y = static_cast<double>(i) + 0.5,
                           .text = fig::num(v), .anchor = fig::Anchor::center,
                           .color = fig::Color::rgb(v < -0.3 * extent ? 0xffffff : 0x1d1d1f)});
      }
  }
  f.heatmaps.push_back(std::move(h));
  // The edges of the regions j − i >= k and i − j >= k, where sharing
  // begins: staircases along cell borders, so they never cross a number.
  for (int sign : {1, -1}) {
    if (k == 0 || !clipped) continue;
    fig::Series s{.name = tr(sign > 0 ? "relative.index.line_plus" : "relative.index.line_minus"),
                  .style = fig::LineStyle::dashed};
    // Along the diagonal of the region's first cells (i, i + k): the left
    // edge of each, then across its bottom to the next row's left edge
    // (mirrored, x ↔ y, for i − j >= k).
    std::vector<double> across, down;
    for (long long i = 0; i + k < n; ++i) {
      const double a = static_cast<double>(i + k), b = static_cast<double>(i);
      across.push_back(a), down.push_back(b);
      across.push_back(a), down.push_back(b + 1);
      if (i + k + 1 < n) across.push_back(a + 1), down.push_back(b + 1);
    }
    s.x = sign > 0 ? across : down;
    s.y = sign > 0 ? down : across;
    s.color = fig::palette_color(4);  // reddish purple: visible on the dark blue and the light yellow ends
    s.width = 2.0f;
    s.x_name = tr("relative.readout.key");
    s.y_name = tr("relative.readout.query");
    f.series.push_back(std::move(s));
  }
  return f;
}

/// One term (or their sum) of the toy score as a tokens × tokens heatmap,
/// query m down from the top, key n to the right. A term that straddles 0
/// gets a signed range symmetric about 0; one whose entries share a sign
/// (Transformer-XL's position–position term at seed 0 lies in about
/// [−22, −3]) gets its own [min, max] on the magnitude map, or its diagonals
/// would all look the same blue.
Figure term_figure(const FigureContext& ctx, Term term) {
  const auto& tr = ctx.tr;
  const std::string variant = ctx.params.choice("terms");
  const std::shared_ptr<const Toy> shared = make_toy(ctx.params);
  const Toy& toy = *shared;
  const Eigen::MatrixXd& m = term_matrix(toy, term);
  const double peak = m.cwiseAbs().maxCoeff();
  const bool dropped = peak == 0 && term != Term::score;
  const double range = peak > 0 ? peak : 1.0;
  const std::string id = kTermIds[static_cast<std::size_t>(term)];
  Figure f;
  f.title = tr("relative." + id + "." + variant);
  f.subtitle = toy_subtitle(ctx, toy, peak);
  lessons::matrix_axes(f, tr("relative.axis.key"), tr("relative.axis.query"));
  const int n = toy.tokens;
  fig::Heatmap h = lessons::matrix_heatmap(m);
  const double lo = m.minCoeff(), hi = m.maxCoeff();
  if (peak > 0 && (lo > 0 || hi < 0) && hi > lo) {
    h.colormap = fig::Colormap::magnitude;
    h.vmin = lo, h.vmax = hi;
  } else {
    h.colormap = fig::Colormap::signed_;
    h.vmin = -range, h.vmax = range;
  }
  h.value_name = tr("relative.value." + id);
  h.x_name = tr("relative.readout.key");
  h.y_name = tr("relative.readout.query");
  f.heatmaps.push_back(std::move(h));
  if (dropped)
    f.notes.push_back({.x = n / 2.0, .y = n / 2.0, .text = tr("relative.dropped." + variant), .anchor = fig::Anchor::center});
  return f;
}

Figure content_content(const FigureContext& ctx) { return term_figure(ctx, Term::content_content); }
Figure content_position(const FigureContext& ctx) { return term_figure(ctx, Term::content_position); }
Figure position_content(const FigureContext& ctx) { return term_figure(ctx, Term::position_content); }
Figure position_position(const FigureContext& ctx) { return term_figure(ctx, Term::position_position); }
Figure score(const FigureContext& ctx) { return term_figure(ctx, Term::score); }

// [SECTION] Readouts

std::vector<Readout> readouts(const FigureContext& ctx) {
  const auto& p = ctx.params;
  const auto& tr = ctx.tr;
  std::vector<Readout> out;

  // Shaw: n tokens use 2·min(k, n − 1) + 1 vectors, counted in core's matrix.
  const long long n = p.integer("positions");
  const long long k = p.integer("clip");
  const auto expected = static_cast<double>(2 * std::min(k, n - 1) + 1);
  const long long side = std::min(n, k + 2);  // one token past the clip shows the sharing
  std::optional<bool> counted_ok;
  double counted = expected;
  if (side <= 1024) {
    const Eigen::MatrixXi idx = core::shaw_index_matrix(static_cast<int>(side), static_cast<int>(k));
    std::vector<char> seen(static_cast<std::size_t>(2 * side + 1), 0);  // indices lie in [−(side − 1), side − 1]
    for (Eigen::Index e = 0; e < idx.size(); ++e) seen[static_cast<std::size_t>(idx.data()[e] + side)] = 1;
    counted = static_cast<double>(std::count(seen.begin(), seen.end(), 1));
    counted_ok = counted == expected;
  }
  out.push_back({tr.format("relative.readout.vectors", {{"n", fig::num(static_cast<double>(n))}, {"k", fig::num(static_cast<double>(k))}}),
                 tr.format("relative.readout.vectors_value", {{"v", fig::num(counted)}, {"all", fig::num(2.0 * static_cast<double>(n) - 1)}}),
                 counted, counted_ok});

  const std::shared_ptr<const Toy> shared = make_toy(p);
  const Toy& toy = *shared;
  const core::TermVariant variant = relative::variant(p);
  const double scale = 1 + toy.score.cwiseAbs().maxCoeff();
  const double tol = 1e-12 * scale * toy.width;

  if (variant == core::TermVariant::all) {
    const double err = (toy.score - toy.direct).cwiseAbs().maxCoeff();
    out.push_back({tr("relative.readout.sum"), tr.format("relative.readout.within", {{"v", fig::num(err, 2)}, {"tol", fig::num(tol, 2)}}),
                   err, err <= tol});
  }
  // Does position–position depend on i − j alone?
  const double dev = toeplitz_deviation(toy.terms.position_position);
  const bool relative_pp = variant != core::TermVariant::all;
  out.push_back({tr(relative_pp ? "relative.readout.pp_relative" : "relative.readout.pp_absolute"),
                 fig::num(dev, 3), dev, relative_pp ? std::optional<bool>(dev <= tol) : std::nullopt});

  switch (variant) {
    case core::TermVariant::transformer_xl: {
      // (c) = u W_kᵀ x_jᵀ: no query position, the same in every row.
      const Eigen::MatrixXd& pc = toy.terms.position_content;
      const double spread = (pc.rowwise() - pc.row(0)).cwiseAbs().maxCoeff();
      out.push_back({tr("relative.readout.xl_rows"), fig::num(spread, 3), spread, spread <= tol});
      break;
    }
    case core::TermVariant::t5: {
      const double dropped =
          std::max(toy.terms.content_position.cwiseAbs().maxCoeff(), toy.terms.position_content.cwiseAbs().maxCoeff());
      out.push_back({tr("relative.readout.t5_dropped"), fig::num(dropped), dropped, dropped == 0});
      break;
    }
    case core::TermVariant::deberta: {
      const double pp = toy.terms.position_position.cwiseAbs().maxCoeff();
      out.push_back({tr("relative.readout.deberta_dropped"), fig::num(pp), pp, pp == 0});
      // c2p(i, j) for keys j >= i + k all use P_0 (δ clipped), so they agree.
      double spread = 0;
      const Eigen::MatrixXd& cp = toy.terms.content_position;
      for (int i = 0; i < toy.tokens; ++i)
        for (int j = i + core::kDebertaSpan; j < toy.tokens; ++j)
          spread = std::max(spread, std::abs(cp(i, j) - cp(i, std::min(i + core::kDebertaSpan, toy.tokens - 1))));
      out.push_back({tr.format("relative.readout.deberta_clip", {{"k", std::to_string(core::kDebertaSpan)}}),
                     fig::num(spread, 3), spread, spread <= tol});
      break;
    }
    case core::TermVariant::all:
      break;
  }
  return out;
}

}  // namespace

// [SECTION] The view

ViewDef relative_view() {
  return {.id = "relative",
          .group = "relative",
          .keys = {"clip", "positions", "terms", "d", "seed", "base"},
          .defaults = {{"positions", "16"}},
          .figures = {{"index", index},
                      {"content_content", content_content},
                      {"content_position", content_position},
                      {"position_content", position_content},
                      {"position_position", position_position},
                      {"score", score}},
          .tables = {"shaw-clip", "four-terms"},
          .readouts = readouts};
}

}  // namespace poslab::app
