#pragma once
// The "multimodal" lesson's parameters as core reads them, written once for
// its figures, readouts, tables and screen: the grid of patches with its query
// patch (axial 2-D RoPE of the vision tower), the sequence of text and image
// or video tokens the language model sees (M-RoPE's position ids), and the
// sections that split a head's pairs among the three axes.

#include <Eigen/Dense>

#include "poslab/core/mrope.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::multimodal {

/// Qwen2-VL's vision tower turns its patches with RoPE's usual 10,000: its
/// VisionRotaryEmbedding(dim, theta=10000.0) is not set by the config.
inline constexpr double kVisionBase = 10000;

/// The grid of patches (grid_h × grid_w) and the query patch (row, col),
/// clamped into the grid (a smaller grid keeps the query on its last row or
/// column; `clamped` says so); d and the vision base of axial 2-D RoPE.
struct Grid {
  int h = 1, w = 1;
  int row = 0, col = 0;
  bool clamped = false;
  int d = 64;
  double base = kVisionBase;
};
Grid grid(const core::Params& p);

/// The score of the query patch against patch (r, c) over |q|·|k|, q = k =
/// (1, …, 1): 1 at the query itself. Through core::axial_rope_rotate.
double grid_score(const Grid& g, int r, int c);

/// The normalised scores of the whole grid, from its two parts: the row
/// pairs see only Δrow, the column pairs only Δcol (core/mrope.hpp), so
///   score(Δrow, Δcol) = along_rows[|Δrow|] + along_cols[|Δcol|] − 1,
/// along_rows[Δ] = the score of a key Δ rows from the query in its column
/// (q = k = ones: each pair adds 2·cos(Δ·θᵢ), an even function of Δ). Each
/// through core::axial_rope_rotate: (h + w)·d/2 pair turns, not h·w·d/2.
struct GridScores {
  Eigen::VectorXd along_rows;  ///< Δrow = 0 … h − 1
  Eigen::VectorXd along_cols;  ///< Δcol = 0 … w − 1
  /// The score of patch (r, c) against the query.
  double at(const Grid& g, int r, int c) const;
  /// The lowest score any query can have on this grid: the colour scale's
  /// bottom, the same wherever the query is (so the picture only moves).
  double floor() const { return along_rows.minCoeff() + along_cols.minCoeff() - 1; }
};
GridScores grid_scores(const Grid& g);

/// The sequence: text_before text tokens, one grid of grid_t × grid_h ×
/// grid_w tokens (an image when grid_t = 1, else a video), text_after tokens;
/// video_time, tokens_per_second and second_per_grid time the video.
core::MropeLayout sequence(const core::Params& p);
/// image when grid_t = 1, else video.
core::TokenKind grid_kind(const core::Params& p);
/// The sizes of the sequence's three runs.
struct SequenceShape {
  long long before, t, h, w, after;
};
SequenceShape shape(const core::Params& p);

/// mrope_section, mrope_interleaved and base: which axis drives each pair and
/// at which frequency (d = 2·(s_t + s_h + s_w)).
struct Sections {
  core::MropeSections s{};
  bool interleaved = false;
  double base = 1e6;
  int pairs() const { return s[0] + s[1] + s[2]; }
  int d() const { return 2 * pairs(); }
};
Sections sections(const core::Params& p);

}  // namespace poslab::app::multimodal
