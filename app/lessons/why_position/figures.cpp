// Lesson "why-position": why a Transformer needs position information.
// One toy attention head (core/attention.hpp; Vaswani et al. 2017 eq. 1)
// reads "the dog bit the old man" and the same words shuffled. Without
// positions, attention is permutation equivariant, Y(P·X) = P·Y(X): every
// word gets exactly the same output wherever it stands, so the head cannot
// tell "the dog bit the old man" from "the man bit the old dog". With
// x + pe_scale·PE(p) (§3.5) added after the order is fixed, the outputs change.
// The embeddings and weights are seeded random numbers, not a trained model.
//
// [SECTION] Index
// - Labels and the attention heatmap
// - Figures: embeddings, attention, output, output-shuffled, attention-shuffled, outputs, change
// - Readouts
// - The view

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/lessons/common/figures.hpp"
#include "app/lessons/lesson.hpp"
#include "app/lessons/why_position/setting.hpp"
#include "app/plot/figure_text.hpp"

namespace poslab::app {

namespace {

using fig::Figure;
using why_position::kD;
using why_position::kTokens;
using why_position::Setting;

/// Readout (1) holds when the outputs agree to this (rounding is ~1e-16).
constexpr double kEquivarianceTolerance = 1e-12;
/// Readout (2) explains a change below this when the softmax is saturated.
constexpr double kBreaksAbove = 1e-3;

// [SECTION] Labels and the attention heatmap

/// "the₀": a word with its position as a subscript.
std::string labelled(std::string_view word, int position) {
  static const char* digits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
  return std::string(word) + digits[position % 10];
}

/// "x + PE(p)", "x + 0.5·PE(p)": what the embeddings become with positions.
std::string pe_text(double scale) { return scale == 1 ? "x + PE(p)" : "x + " + fig::num(scale) + "·PE(p)"; }

std::string encoding_text(const Setting& s, const Translator& tr) {
  return s.positions ? pe_text(s.pe_scale) : tr("why-position.encoding.none");
}

/// "0.33", "−0.33" (a minus sign, as every number on screen; "0.00" for a
/// negative that rounds to 0).
std::string two_decimals(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", std::abs(v));
  const bool negative = v < 0 && std::string_view(buf) != "0.00";
  return (negative ? "−" : "") + std::string(buf);
}

/// A matrix as a heatmap, cell (r, c) at y = r, x = x_offset + c (on a reversed
/// y axis row 0 is at the top), one labelled tick
/// per row and column, and the value written in each cell.
void add_matrix(Figure& f, const Eigen::MatrixXd& a, double x_offset, fig::Colormap map, double vmax,
                const std::string& value_name, const std::string& x_name, const std::string& y_name,
                bool write_values) {
  const auto rows = static_cast<int>(a.rows()), cols = static_cast<int>(a.cols());
  fig::Heatmap h;
  h.x0 = x_offset - 0.5, h.x1 = x_offset + cols - 0.5, h.y0 = -0.5, h.y1 = rows - 0.5;
  h.cols = cols, h.rows = rows;
  h.values.resize(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      h.values[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)] =
          static_cast<float>(a(r, c));
  // Exports: each block's own column index j and row index, in double.
  for (int c = 0; c < cols; ++c) h.x_index.push_back(c);
  for (int r = 0; r < rows; ++r) h.y_index.push_back(r);
  h.exact = [copy = std::make_shared<const Eigen::MatrixXd>(a), x_offset](std::span<const double> xs, std::span<const double> ys,
                                                                           std::span<double> out) {
    for (std::size_t r = 0; r < ys.size(); ++r)
      for (std::size_t c = 0; c < xs.size(); ++c)
        out[r * xs.size() + c] = (*copy)(std::clamp<Eigen::Index>(std::lround(ys[r]), 0, copy->rows() - 1),
                                         std::clamp<Eigen::Index>(std::lround(xs[c] - x_offset), 0, copy->cols() - 1));
  };
  h.colormap = map;
  h.vmin = map == fig::Colormap::signed_ ? -vmax : 0.0;
  h.vmax = vmax;
  h.value_name = value_name;
  h.x_name = x_name;
  h.y_name = y_name;
  f.heatmaps.push_back(std::move(h));
  if (!write_values) return;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const double t = a(r, c) / vmax;  // the magnitude map is light above ~0.55, dark below
      f.notes.push_back({.x = x_offset + c, .y = static_cast<double>(r), .text = two_decimals(a(r, c)),
                         .anchor = fig::Anchor::center,
                         .color = t > 0.55 ? fig::Color::rgb(0x1d1d1f) : fig::Color::rgb(0xffffff)});
    }
}

/// The attention weights of one order of the words: row m = query m, column
/// n = key n, words labelled with their positions in that order.
Figure attention_figure(const Eigen::MatrixXd& a, const std::vector<std::string>& labels, double vmax,
                        const Translator& tr) {
  Figure f;
  f.x = {.label = tr("why-position.axis.key"), .tight = true};
  f.y = {.label = tr("why-position.axis.query"), .tight = true, .reversed = true};  // query 0 at the top
  // Cells fill the plot area (no equal aspect): a square matrix would leave empty margins.
  add_matrix(f, a, 0, fig::Colormap::magnitude, vmax, tr("why-position.readout.weight"),
             tr("why-position.readout.key"), tr("why-position.readout.query"), true);
  for (int j = 0; j < kTokens; ++j) f.x.ticks.emplace_back(j, labels[static_cast<std::size_t>(j)]);
  for (int j = 0; j < kTokens; ++j) f.y.ticks.emplace_back(j, labels[static_cast<std::size_t>(j)]);
  f.legend = fig::LegendPlace::none;
  return f;
}

/// One colour range for both attention maps, so equal weights look equal.
double weight_range(const core::ShuffleTest<double>& t) {
  return std::max({t.original.weights.maxCoeff(), t.shuffled.weights.maxCoeff(), 1e-9});
}

std::vector<std::string> original_labels() {
  std::vector<std::string> out;
  for (int i = 0; i < kTokens; ++i) out.push_back(labelled(Setting::word(i), i));
  return out;
}

// [SECTION] Figures

/// One row of d numbers per word, the words in their original order, each
/// entry written in its cell: the embeddings X (what the head reads) or the
/// outputs Y. Rows of a repeated word are equal without positions.
Figure word_vectors(const Eigen::MatrixXd& rows, const std::string& value_name, const Translator& tr,
                    const std::vector<std::string>& labels = original_labels(),
                    const char* word_axis = "why-position.outputs.axis.word") {
  Figure f;
  f.x = {.label = tr("why-position.vectors.axis.dim"), .tight = true};
  f.y = {.label = tr(word_axis), .tight = true, .reversed = true};  // word 0 at the top
  const double vmax = std::max(rows.cwiseAbs().maxCoeff(), 1e-9);
  add_matrix(f, rows, 0, fig::Colormap::signed_, vmax, value_name, tr("why-position.readout.dim"),
             tr("why-position.readout.word"), false);
  // The value in each cell: white on the dark (negative) end of the signed map, dark elsewhere.
  for (int r = 0; r < rows.rows(); ++r)
    for (int c = 0; c < rows.cols(); ++c)
      f.notes.push_back({.x = static_cast<double>(c), .y = static_cast<double>(r), .text = two_decimals(rows(r, c)),
                         .anchor = fig::Anchor::center,
                         .color = rows(r, c) / vmax < -0.3 ? fig::Color::rgb(0xffffff) : fig::Color::rgb(0x1d1d1f)});
  for (int j = 0; j < kD; ++j) f.x.ticks.emplace_back(j, std::to_string(j));
  for (int j = 0; j < kTokens; ++j) f.y.ticks.emplace_back(j, labels[static_cast<std::size_t>(j)]);
  f.legend = fig::LegendPlace::none;
  return f;
}

/// X: each word's embedding x, the sentence as given (x + s·PE(p) when the
/// encoding is on: what the head reads).
Figure embeddings(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = why_position::shown_setting(ctx.params);
  const std::vector<int> ids(why_position::kTokenIds.begin(), why_position::kTokenIds.end());
  Eigen::MatrixXd x = core::toy_embeddings<double>(ids, kD, s.seed);
  if (s.positions) x = core::add_sinusoidal_positions<double>(x, s.pe_scale, why_position::kBase);
  Figure f = word_vectors(x, tr(s.positions ? "why-position.readout.input" : "why-position.readout.embedding"), tr);
  f.title = tr(s.positions ? "why-position.embeddings.title_positions" : "why-position.embeddings.title");
  f.subtitle = tr.format("why-position.embeddings.subtitle", {{"sentence", Setting::original_sentence()},
                                                              {"encoding", encoding_text(s, tr)},
                                                              {"seed", std::to_string(s.seed)}});
  return f;
}

/// Y: each word's output y = Σₙ A(m, n)·vₙ, the sentence as given.
Figure output(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = why_position::shown_setting(ctx.params);
  const core::ShuffleTest<double> t = s.shown();
  Figure f = word_vectors(t.original.output, tr("why-position.readout.output"), tr);
  f.title = tr("why-position.output.title");
  f.subtitle = tr.format("why-position.output.subtitle", {{"sentence", Setting::original_sentence()},
                                                          {"encoding", encoding_text(s, tr)}});
  return f;
}

/// Y for the shuffled sentence, its words in their new places (row i: the
/// word now at place i): what the head outputs for the sentence a step reads
/// out, before the outputs are put back and compared (figure outputs).
Figure output_shuffled(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = why_position::shown_setting(ctx.params);
  const core::ShuffleTest<double> t = s.shown();
  std::vector<std::string> labels;
  for (int i = 0; i < kTokens; ++i) labels.push_back(labelled(s.shuffled_word(i), i));
  Figure f = word_vectors(t.shuffled.output, tr("why-position.readout.output"), tr, labels,
                          "why-position.output_shuffled.axis.word");
  f.title = tr("why-position.output_shuffled.title");
  f.subtitle = tr.format("why-position.output_shuffled.subtitle", {{"sentence", s.shuffled_sentence()},
                                                                   {"perm", s.perm_text()},
                                                                   {"encoding", encoding_text(s, tr)}});
  return f;
}

/// A = softmax(Q·Kᵀ/√d) for the sentence as given.
Figure attention(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = why_position::shown_setting(ctx.params);
  const core::ShuffleTest<double> t = s.shown();
  Figure f = attention_figure(t.original.weights, original_labels(), weight_range(t), tr);
  f.title = tr("why-position.attention.title");
  f.subtitle = tr.format("why-position.attention.subtitle", {{"sentence", Setting::original_sentence()},
                                                             {"encoding", encoding_text(s, tr)},
                                                             {"seed", std::to_string(s.seed)}});
  return f;
}

/// The same for the shuffled sentence: its words in their new places.
Figure attention_shuffled(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = why_position::shown_setting(ctx.params);
  const core::ShuffleTest<double> t = s.shown();
  std::vector<std::string> labels;
  for (int i = 0; i < kTokens; ++i) labels.push_back(labelled(s.shuffled_word(i), i));
  Figure f = attention_figure(t.shuffled.weights, labels, weight_range(t), tr);
  f.title = tr("why-position.shuffled.title");
  f.subtitle = tr.format("why-position.shuffled.subtitle", {{"sentence", s.shuffled_sentence()},
                                                            {"perm", s.perm_text()},
                                                            {"encoding", encoding_text(s, tr)},
                                                            {"gap", lessons::text_number(t.gap, 2)}});
  return f;
}

/// Each word's output y (a row of d numbers), three blocks side by side:
/// Y for the sentence as given, Pᵀ·Y(shuffled) (each shuffled output put
/// back at its word's original row), and their difference.
Figure outputs(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = why_position::shown_setting(ctx.params);
  const core::ShuffleTest<double> t = s.shown();
  // The signed colormap tells +1e-16 from −1e-16 by a shade of grey: below
  // kEquivarianceTolerance a difference is rounding and is drawn as 0 (the
  // subtitle gives the largest one).
  const Eigen::MatrixXd diff = (t.shuffled_back - t.original.output).unaryExpr([](double v) {
    return std::abs(v) <= kEquivarianceTolerance ? 0.0 : v;
  });
  const double vmax = std::max({t.original.output.cwiseAbs().maxCoeff(), t.shuffled_back.cwiseAbs().maxCoeff(), 1e-9});
  constexpr double kGap = 1.5;  // columns between blocks
  const double block = kD + kGap;
  Figure f;
  f.title = tr("why-position.outputs.title");
  f.subtitle = tr.format(t.gap <= kEquivarianceTolerance ? "why-position.outputs.subtitle_rounding" : "why-position.outputs.subtitle",
                         {{"encoding", encoding_text(s, tr)}, {"gap", lessons::text_number(t.gap, 2)}});
  f.x = {.label = tr("why-position.outputs.axis.dim"), .tight = true};
  // Reversed: word 0 at the top, the block titles above it (y = −0.9).
  f.y = {.label = tr("why-position.outputs.axis.word"), .min = -1.3, .max = kTokens - 0.5, .tight = true, .reversed = true};
  const std::string value = tr("why-position.readout.output");
  const std::string dim = tr("why-position.readout.dim"), word = tr("why-position.readout.word");
  add_matrix(f, t.original.output, 0, fig::Colormap::signed_, vmax, value, dim, word, false);
  add_matrix(f, t.shuffled_back, block, fig::Colormap::signed_, vmax, value, dim, word, false);
  add_matrix(f, diff, 2 * block, fig::Colormap::signed_, vmax, tr("why-position.readout.difference"), dim, word, false);
  const char* names[] = {"why-position.outputs.block_original", "why-position.outputs.block_shuffled",
                         "why-position.outputs.block_difference"};
  for (int b = 0; b < 3; ++b) {
    f.notes.push_back({.x = b * block + (kD - 1) / 2.0, .y = -0.9, .text = tr(names[b]), .anchor = fig::Anchor::center});
    for (int j = 0; j < kD; j += kD - 1) f.x.ticks.emplace_back(b * block + j, std::to_string(j));
  }
  const std::vector<std::string> labels = original_labels();
  for (int j = 0; j < kTokens; ++j) f.y.ticks.emplace_back(j, labels[static_cast<std::size_t>(j)]);
  f.legend = fig::LegendPlace::none;
  return f;
}

/// Per word: the largest change of its output under the shuffle, without
/// positions (0 up to rounding) and with x + pe_scale·PE(p) — always both.
Figure change(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = why_position::setting(ctx.params);
  const core::ShuffleTest<double> none = s.test(0.0), with = s.test(s.pe_scale);
  Figure f;
  f.title = tr("why-position.change.title");
  f.subtitle = tr.format("why-position.change.subtitle", {{"sentence", s.shuffled_sentence()}, {"perm", s.perm_text()}});
  f.x = {.label = tr("why-position.change.axis.word"), .min = -0.6, .max = kTokens - 0.4};
  f.y = {.label = tr("why-position.change.axis.change"), .min = 0.0};
  const std::vector<std::string> labels = original_labels();
  for (int j = 0; j < kTokens; ++j) f.x.ticks.emplace_back(j, labels[static_cast<std::size_t>(j)]);
  fig::Series bars{.name = tr.format("why-position.change.series_positions", {{"pe", pe_text(s.pe_scale)}}),
                   .kind = fig::SeriesKind::bars};
  fig::Series dots{.name = tr("why-position.change.series_none"), .kind = fig::SeriesKind::scatter};
  bars.color = fig::palette_color(1);
  dots.color = fig::palette_color(0);
  dots.marker = 5;
  std::vector<double> moved;
  double top = 0;
  for (int i = 0; i < kTokens; ++i) {
    const double c_with = (with.shuffled_back.row(i) - with.original.output.row(i)).cwiseAbs().maxCoeff();
    const double c_none = (none.shuffled_back.row(i) - none.original.output.row(i)).cwiseAbs().maxCoeff();
    bars.x.push_back(i), bars.y.push_back(c_with);
    dots.x.push_back(i), dots.y.push_back(c_none);
    int at = 0;  // the word's new position
    while (s.perm[static_cast<std::size_t>(at)] != i) ++at;
    moved.push_back(at);
    top = std::max(top, c_with);
  }
  for (fig::Series* ser : {&bars, &dots}) {
    ser->x_name = tr("why-position.readout.word");
    ser->y_name = tr("why-position.readout.change");
    ser->extra = {{tr("why-position.readout.new_position"), "", moved}};
  }
  f.y.max = std::max(top * 1.6, 1e-3);  // the top third stays free for the legend
  f.series = {std::move(bars), std::move(dots)};
  f.legend = fig::LegendPlace::top_left;  // above the bars: y.max leaves room
  return f;
}

// [SECTION] Readouts

/// The place every query of both runs attends to with weight ≥ 0.999 (the
/// softmax saturated on one key), or −1 when the attention is spread.
int saturated_on(const core::ShuffleTest<double>& t) {
  int place = -1;
  for (const auto* w : {&t.original.weights, &t.shuffled.weights})
    for (Eigen::Index q = 0; q < w->rows(); ++q) {
      Eigen::Index k = 0;
      if (w->row(q).maxCoeff(&k) < 0.999 || (place >= 0 && k != place)) return -1;
      place = static_cast<int>(k);
    }
  return place;
}

std::vector<Readout> readouts(const FigureContext& ctx) {
  const auto& tr = ctx.tr;
  const Setting s = why_position::setting(ctx.params);
  std::vector<Readout> out;
  int moved = 0;
  for (int i = 0; i < kTokens; ++i) moved += s.perm[static_cast<std::size_t>(i)] != i;
  out.push_back({tr("why-position.readout.sentence_label"), s.shuffled_sentence(), static_cast<double>(moved), std::nullopt});

  // (1) No positions: Y(P·X) = P·Y(X) up to rounding.
  const core::ShuffleTest<double> none = s.test(0.0);
  out.push_back({tr("why-position.readout.none_label"), lessons::text_number(none.gap, 2), none.gap, none.gap <= kEquivarianceTolerance});

  // (2) With x + pe_scale·PE(p): by how much the symmetry breaks (nothing to break
  // when the order did not change).
  const core::ShuffleTest<double> with = s.test(s.pe_scale);
  const std::string with_label = tr.format("why-position.readout.positions_label", {{"pe", pe_text(s.pe_scale)}});
  const int focus = saturated_on(with);
  if (s.identity())
    out.push_back({with_label, tr("why-position.readout.identity"), with.gap, std::nullopt});
  else if (with.gap <= kBreaksAbove && focus >= 0)
    // A large scale saturates the softmax: every word attends to one place only.
    // When the shuffle left that place's word where it was, every output is
    // that word's value before and after: nothing left to break (a result, not
    // a failed check).
    out.push_back({with_label,
                   tr.format("why-position.readout.saturated",
                             {{"gap", lessons::text_number(with.gap, 2)}, {"place", labelled(s.shuffled_word(focus), focus)}}),
                   with.gap, std::nullopt});
  else
    // Broken beyond rounding: the claim. How far depends on the head: a
    // softmax that nearly saturates on unmoved places changes little.
    out.push_back({with_label, lessons::text_number(with.gap, 3), with.gap, with.gap > kEquivarianceTolerance});

  // (3) Without positions the two "the" (places 0 and 3) are the same input,
  // so they get the same output: the head cannot tell them apart.
  const double same = (none.original.output.row(0) - none.original.output.row(3)).cwiseAbs().maxCoeff();
  out.push_back({tr.format("why-position.readout.twins_label", {{"a", labelled(Setting::word(0), 0)}, {"b", labelled(Setting::word(3), 3)}}),
                 lessons::text_number(same, 2), same, same <= kEquivarianceTolerance});
  return out;
}

}  // namespace

// [SECTION] The view

ViewDef why_position_view() {
  return {.id = "why-position",
          .group = "absolute",
          .keys = {"perm", "encoding", "pe_scale", "seed"},
          .defaults = {},
          .figures = {{"embeddings", embeddings}, {"attention", attention}, {"output", output},
                      {"output-shuffled", output_shuffled}, {"attention-shuffled", attention_shuffled}, {"outputs", outputs}, {"change", change}},
          .tables = {"why-position-shuffle"},
          .readouts = readouts};
}

}  // namespace poslab::app
