#pragma once
// Figure pieces that more than one lesson draws the same way, written once:
// an encoding table E[pos, i] as a heatmap (lessons sinusoidal and learned),
// and any matrix as a heatmap written the way a matrix is: row 0 at the top.

#include <string>

#include <Eigen/Dense>

#include "app/common/i18n.hpp"
#include "app/plot/figure.hpp"

namespace poslab::app::lessons {

/// The texts of an encoding-table figure: translation keys of the lesson.
struct EncodingKeys {
  const char* axis_dim;  ///< x axis, e.g. "sinusoidal.axis.dim"
  const char* axis_pos;  ///< y axis
  const char* dim;       ///< hover names of a cell's dimension, position and value
  const char* pos;
  const char* value;
};

/// A number as a step's text writes it: fig::num, but a tiny or huge one as
/// "1.1×10⁻¹⁶" rather than "1.1e-16" (the guided steps cite what the
/// subtitles print, in one notation).
std::string text_number(double v, int significant = 4);

/// The frame of `f` without what it draws, for a guided step that asks about
/// it (hide_figure): title, subtitle, axes with the ranges the data gave them
/// and their tick labels, and `note` in the middle — no series, heatmap,
/// line, band, label or arrow, so nothing on it answers the question.
fig::Figure hidden_figure(const fig::Figure& f, const std::string& note);

/// Integer, tight axes of a matrix figure: columns along x, rows down y
/// (row 0 at the top, as a matrix or a table is written).
void matrix_axes(fig::Figure& f, std::string x_label, std::string y_label);

/// The entries of `m` as heatmap cells: entry (r, c) covers [c, c + 1] × [r, r + 1]
/// (with matrix_axes, row 0 at the top); colours and names are the caller's.
fig::Heatmap matrix_heatmap(const Eigen::MatrixXd& m);

/// Integer, tight axes for an encoding table: dimensions along x, positions
/// down y (position 0 at the top, like every matrix).
void encoding_axes(fig::Figure& f, const EncodingKeys& keys, const Translator& tr);

/// The cells of an encoding table over dimensions 0..d−1 (x) × positions
/// 0..rows−1 (y), one per (dimension, position), in signed colours over
/// [−range, range]. The caller sets its sampler.
fig::Heatmap encoding_heatmap(int d, long long rows, double range, const EncodingKeys& keys, const Translator& tr);

/// PE[pos, i] of the sinusoidal encoding (core::sinusoidal_grid) over
/// positions 0..positions−1, sampled at the pixels that show it (a
/// 1,048,576 × 1024 table is never built).
fig::Heatmap sinusoidal_heatmap(int d, double base, long long positions, const EncodingKeys& keys,
                                const Translator& tr);

}  // namespace poslab::app::lessons
