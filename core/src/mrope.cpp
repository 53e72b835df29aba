// [SECTION] Index
// - Axial 2-D RoPE (the Qwen2-VL vision tower; Heo et al. 2024, RoPE-Axial)
// - M-RoPE: which pairs each axis drives (contiguous, interleaved)
// - M-RoPE: the position ids (transformers' get_rope_index, v4)
//
// The formulas and their sources are in mrope.hpp. The position ids are
// checked against a transcription of get_rope_index run in torch
// (tests/fixtures/mrope/get_rope_index.py, cases.json).

#include "poslab/core/mrope.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"
#include "poslab/core/rope.hpp"

namespace poslab::core {

namespace {

/// (x_a, x_b) → (x_a cos α − x_b sin α, x_a sin α + x_b cos α) on pair i of
/// the half layout (i, i + d/2), α in double, the result rounded once.
template <class Scalar>
void turn_half_pair(Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& y, const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& x,
                    Eigen::Index i, Eigen::Index half, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  const double a = static_cast<double>(x[i]), b = static_cast<double>(x[i + half]);
  y[i] = static_cast<Scalar>(a * c - b * s);
  y[i + half] = static_cast<Scalar>(a * s + b * c);
}

/// Every entry within the `vector` spec (finite, |x| <= 1e12).
template <class Scalar>
void check_finite_vector(const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& x) {
  const std::vector<double> items(x.data(), x.data() + x.size());
  check_real_items("vector", items);
}

/// A refusal a user's parameters can reach (its sentence translated as
/// "error.<id>"); the others, from callers inside the program, are English only.
[[noreturn]] void refuse(const std::string& key, const std::string& value, const std::string& allowed,
                         const std::string& id = {}) {
  throw InvalidParameter(key, value, allowed, id.empty() ? Reason{} : Reason{id, {}, {}});
}

}  // namespace

// [SECTION] Axial 2-D RoPE

Eigen::VectorXd axial_rope_frequencies(int d, double base) {
  check_integer("d", d);
  if (d % 4 != 0)
    refuse("d", std::to_string(d),
           "must be a multiple of 4 here (axial 2-D RoPE gives d/4 pairs to the row, d/4 to the column)", "axial_d");
  // RoPE's frequencies over d/2 dims: base^(−2j/(d/2)) = base^(−4j/d).
  return rope_inverse_frequencies(d / 2, base);
}

template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, 1> axial_rope_rotate(const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& x,
                                                           double row, double col, double base) {
  const Eigen::VectorXd theta = axial_rope_frequencies(static_cast<int>(x.size()), base);
  check_real("m", row);
  check_real("m", col);
  check_finite_vector(x);
  const Eigen::Index half = x.size() / 2, quarter = x.size() / 4;
  Eigen::Matrix<Scalar, Eigen::Dynamic, 1> y(x.size());
  for (Eigen::Index j = 0; j < quarter; ++j) {
    turn_half_pair(y, x, j, half, row * theta[j]);
    turn_half_pair(y, x, quarter + j, half, col * theta[j]);
  }
  return y;
}

double axial_rope_score(const Eigen::VectorXd& q, const Eigen::VectorXd& k, double row_q, double col_q, double row_k,
                        double col_k, double base) {
  if (q.size() != k.size())
    refuse("vector", std::to_string(k.size()) + " numbers", "k must be as long as q");
  return axial_rope_rotate<double>(q, row_q, col_q, base).dot(axial_rope_rotate<double>(k, row_k, col_k, base));
}

// [SECTION] M-RoPE: which pairs each axis drives

const char* mrope_axis_name(MropeAxis axis) {
  switch (axis) {
    case MropeAxis::temporal: return "t";
    case MropeAxis::height: return "h";
    case MropeAxis::width: return "w";
  }
  return "t";
}

void check_mrope_sections(const MropeSections& s) {
  const std::vector<double> items(s.begin(), s.end());
  check_param_value(param_spec("mrope_section"), items);
  const long long pairs = static_cast<long long>(s[0]) + s[1] + s[2];
  if (pairs < 1 || pairs > 4096)
    refuse("mrope_section", std::to_string(s[0]) + "," + std::to_string(s[1]) + "," + std::to_string(s[2]),
           "must hold 1..4096 pairs together (s_t + s_h + s_w = d/2)", "mrope_pairs");
}

MropeAxis mrope_pair_axis(int pair, const MropeSections& s, bool interleaved) {
  check_mrope_sections(s);
  const int pairs = s[0] + s[1] + s[2];
  if (pair < 0 || pair >= pairs)
    throw InvalidParameter("pair", std::to_string(pair), "must be in 0.." + std::to_string(pairs - 1));
  if (interleaved) {
    // apply_interleaved_mrope: start from t everywhere, then overwrite
    // freqs[..., 1:3·s_h:3] with h and freqs[..., 2:3·s_w:3] with w.
    if (pair % 3 == 1 && pair < 3 * s[1]) return MropeAxis::height;
    if (pair % 3 == 2 && pair < 3 * s[2]) return MropeAxis::width;
    return MropeAxis::temporal;
  }
  // apply_multimodal_rotary_pos_emb: cos split by [s_t, s_h, s_w] (twice, for
  // the two halves), chunk c taken from axis c mod 3.
  if (pair < s[0]) return MropeAxis::temporal;
  if (pair < s[0] + s[1]) return MropeAxis::height;
  return MropeAxis::width;
}

std::vector<MropeAxis> mrope_pair_axes(const MropeSections& s, bool interleaved) {
  check_mrope_sections(s);
  std::vector<MropeAxis> out;
  const int pairs = s[0] + s[1] + s[2];
  for (int i = 0; i < pairs; ++i) out.push_back(mrope_pair_axis(i, s, interleaved));
  return out;
}

template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, 1> mrope_rotate(const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& x, double t,
                                                      double h, double w, double base, const MropeSections& sections,
                                                      bool interleaved) {
  const std::vector<MropeAxis> axes = mrope_pair_axes(sections, interleaved);
  const auto pairs = static_cast<Eigen::Index>(axes.size());
  if (x.size() != 2 * pairs)
    refuse("vector", std::to_string(x.size()) + " numbers",
           "must hold 2·(s_t + s_h + s_w) = " + std::to_string(2 * pairs) + " numbers");
  for (double pos : {t, h, w}) check_real("m", pos);
  check_finite_vector(x);
  const Eigen::VectorXd theta = rope_inverse_frequencies(static_cast<int>(2 * pairs), base);
  const double ids[3] = {t, h, w};
  Eigen::Matrix<Scalar, Eigen::Dynamic, 1> y(x.size());
  for (Eigen::Index i = 0; i < pairs; ++i)
    turn_half_pair(y, x, i, pairs, ids[static_cast<int>(axes[static_cast<std::size_t>(i)])] * theta[i]);
  return y;
}

// [SECTION] M-RoPE: the position ids

const char* token_kind_name(TokenKind kind) {
  switch (kind) {
    case TokenKind::text: return "text";
    case TokenKind::image: return "image";
    case TokenKind::video: return "video";
  }
  return "text";
}

VideoTime parse_video_time(std::string_view word) {
  if (word == "index") return VideoTime::index;
  if (word == "absolute") return VideoTime::absolute;
  check_param_value(param_spec("video_time"), std::string(word));  // raises with the allowed words
  return VideoTime::index;
}

const char* video_time_name(VideoTime time) { return time == VideoTime::absolute ? "absolute" : "index"; }

long long mrope_temporal_offset(long long k, TokenKind kind, double second_per_grid, const MropeTiming& timing) {
  if (kind != TokenKind::video || timing.time == VideoTime::index) return k;
  // Qwen2.5-VL: torch.as_tensor(second_per_grid_t, dtype=int64) truncates the
  // seconds before the product; the product of integers is exact.
  return k * static_cast<long long>(std::trunc(second_per_grid)) * timing.tokens_per_second;
}

namespace {

constexpr long long kMaxTokens = 1LL << 40;
constexpr long long kMaxId = 1LL << 53;

void check_segment(const MropeSegment& s) {
  if (s.kind == TokenKind::text) {
    if (s.count < 0 || s.count > (1LL << 40))
      refuse("text_before", std::to_string(s.count), "must be a number of tokens >= 0");
    return;
  }
  check_integer("grid_t", static_cast<double>(s.grid_t));
  check_integer("grid_h", static_cast<double>(s.grid_h));
  check_integer("grid_w", static_cast<double>(s.grid_w));
  if (s.kind == TokenKind::image && s.grid_t != 1)
    refuse("grid_t", std::to_string(s.grid_t), "must be 1 for an image (a video has more temporal patches)");
  if (s.kind == TokenKind::video) check_real("second_per_grid", s.second_per_grid);
}

}  // namespace

MropeLayout::MropeLayout(std::vector<MropeSegment> segments, MropeTiming timing) : timing_(timing) {
  check_integer("tokens_per_second", static_cast<double>(timing.tokens_per_second));
  long long next = 0;  // the id the next run starts at: the largest id so far + 1
  for (const MropeSegment& s : segments) {
    check_segment(s);
    Run run{s, tokens_, next, 0};
    if (s.kind == TokenKind::text) {
      run.tokens = s.count;
      next += s.count;
    } else {
      run.tokens = s.grid_t * s.grid_h * s.grid_w;
      // The largest id of the grid: on t at its last temporal patch, on h and
      // w at the last row and column; the text after it starts one above.
      const long long last_t = mrope_temporal_offset(s.grid_t - 1, s.kind, s.second_per_grid, timing_);
      next += std::max({last_t, s.grid_h - 1, s.grid_w - 1}) + 1;
    }
    tokens_ += run.tokens;
    if (tokens_ > kMaxTokens || next > kMaxId)
      refuse("grid_t", std::to_string(tokens_) + " tokens", "the sequence must stay below 2^40 tokens and ids below 2^53");
    if (run.tokens > 0) runs_.push_back(run);
  }
  next_id_ = next;
}

MropePosition MropeLayout::position(long long index) const {
  if (index < 0 || index >= tokens_)
    throw InvalidParameter("index", std::to_string(index), "must be in 0.." + std::to_string(tokens_ - 1));
  // The last run starting at or before `index`.
  const auto it = std::upper_bound(runs_.begin(), runs_.end(), index,
                                   [](long long i, const Run& r) { return i < r.first_token; }) - 1;
  const Run& r = *it;
  const long long local = index - r.first_token;
  if (r.segment.kind == TokenKind::text) return {TokenKind::text, r.start_id + local, r.start_id + local, r.start_id + local};
  // Grid order: temporal patch, then row, then column (t_index, h_index, w_index).
  const long long per_frame = r.segment.grid_h * r.segment.grid_w;
  const long long k = local / per_frame, row = (local % per_frame) / r.segment.grid_w, col = local % r.segment.grid_w;
  return {r.segment.kind, r.start_id + mrope_temporal_offset(k, r.segment.kind, r.segment.second_per_grid, timing_),
          r.start_id + row, r.start_id + col};
}

std::vector<MropePosition> MropeLayout::positions(long long limit) const {
  if (tokens_ > limit)
    refuse("grid_t", std::to_string(tokens_) + " tokens", "at most " + std::to_string(limit) + " tokens are listed at once");
  std::vector<MropePosition> out;
  out.reserve(static_cast<std::size_t>(tokens_));
  for (const Run& r : runs_)
    for (long long i = 0; i < r.tokens; ++i) out.push_back(position(r.first_token + i));
  return out;
}

std::vector<MropePosition> mrope_position_ids(std::span<const MropeSegment> segments, const MropeTiming& timing) {
  return MropeLayout(std::vector<MropeSegment>(segments.begin(), segments.end()), timing).positions();
}

#define POSLAB_MROPE_INSTANTIATE(Scalar)                                                                           \
  template Eigen::Matrix<Scalar, Eigen::Dynamic, 1> axial_rope_rotate<Scalar>(                                    \
      const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>&, double, double, double);                                    \
  template Eigen::Matrix<Scalar, Eigen::Dynamic, 1> mrope_rotate<Scalar>(                                          \
      const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>&, double, double, double, double, const MropeSections&, bool);

POSLAB_MROPE_INSTANTIATE(float)
POSLAB_MROPE_INSTANTIATE(double)
#undef POSLAB_MROPE_INSTANTIATE

}  // namespace poslab::core
