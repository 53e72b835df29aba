#pragma once
// Positions in images and video: axial 2-D RoPE and multimodal RoPE (M-RoPE).
//
// Axial 2-D RoPE (Heo et al. 2024, "Rotary Position Embedding for Vision
// Transformer", arXiv 2403.13298, RoPE-Axial; HF transformers' Qwen2-VL vision
// tower, `VisionRotaryEmbedding(head_dim // 2)` and `rot_pos_emb`): a patch at
// (row, col) of a grid, d dims in the half layout (pair i = (i, i + d/2)):
//   θ_j = base^(−4j/d),  j = 0 … d/4 − 1   (RoPE's frequencies over d/2 dims)
//   pair j         turns by row·θ_j,   pair d/4 + j   turns by col·θ_j.
// Each pair's score depends on its own offset only, so
//   q′·k′ = Σ_j f_j(Δrow) + Σ_j g_j(Δcol):  a function of (Δrow, Δcol) alone.
//
// M-RoPE (Wang et al. 2024, "Qwen2-VL", arXiv 2409.12191 §2.1; HF transformers
// `get_rope_index`, `apply_multimodal_rotary_pos_emb`): every token of the
// language model gets three position ids (t, h, w), and the d/2 = s_t + s_h +
// s_w pairs of a head are split among the three axes by `mrope_section`
// [s_t, s_h, s_w]: pair i turns by id_axis(i)·θ_i with RoPE's own
// θ_i = base^(−2i/d). Which axis drives pair i:
//   contiguous (Qwen2-VL, Qwen2.5-VL): pairs 0 … s_t−1 → t, the next s_h → h,
//     the last s_w → w (HF splits cos/sin by mrope_section·2, chunk c → axis c mod 3);
//   interleaved (Qwen3-VL, `apply_interleaved_mrope`): pair i → h when
//     i mod 3 = 1 and i < 3·s_h, → w when i mod 3 = 2 and i < 3·s_w, else → t.
//
// The position ids (get_rope_index, transformers v4, Qwen2-VL and Qwen2.5-VL):
// text tokens count up and get the same id on all three axes; a grid of
// t × h × w tokens (in the language model's tokens, after the vision tower
// merges 2 × 2 patches) starting at id s gets
//   (s + τ(k), s + row, s + col)   for temporal patch k, row, col
// with τ(k) = k (Qwen2-VL) or τ(k) = k·⌊second_per_grid⌋·tokens_per_second
// (Qwen2.5-VL: ids in absolute time; transformers casts the seconds per
// temporal patch to an integer before multiplying, so 0.5 s becomes 0 and 1.5 s
// becomes 1). The next text starts at the largest id used so far + 1.

#include <array>
#include <span>
#include <string_view>
#include <vector>

#include <Eigen/Dense>

namespace poslab::core {

// [SECTION] Axial 2-D RoPE

/// θ_j = base^(−4j/d), j = 0 … d/4 − 1: the frequencies each of the two axes
/// uses. Checks d (a multiple of 4 here: half the pairs per axis) and base.
Eigen::VectorXd axial_rope_frequencies(int d, double base);

/// x (d dims, half layout) turned to patch (row, col): pair j by row·θ_j,
/// pair d/4 + j by col·θ_j. Checks d = x.size() (a multiple of 4), base,
/// and row, col against the position range.
template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, 1> axial_rope_rotate(const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& x,
                                                           double row, double col, double base);

/// ⟨f(q, row_q, col_q), f(k, row_k, col_k)⟩ for axial_rope_rotate f.
double axial_rope_score(const Eigen::VectorXd& q, const Eigen::VectorXd& k, double row_q, double col_q, double row_k,
                        double col_k, double base);

// [SECTION] M-RoPE: which pairs each axis drives

enum class MropeAxis { temporal = 0, height = 1, width = 2 };
const char* mrope_axis_name(MropeAxis axis);  ///< "t", "h", "w"

/// [s_t, s_h, s_w]: pairs per axis as a config's `mrope_section` gives them.
using MropeSections = std::array<int, 3>;

/// Raises InvalidParameter (key `mrope_section`) unless each section is >= 0
/// and they hold 1 … 4096 pairs together.
void check_mrope_sections(const MropeSections& sections);

/// The axis that drives pair i (0 <= i < s_t + s_h + s_w), contiguous or
/// interleaved as above. Checks the sections and i.
MropeAxis mrope_pair_axis(int pair, const MropeSections& sections, bool interleaved);

/// The axis of every pair, i = 0 … s_t + s_h + s_w − 1.
std::vector<MropeAxis> mrope_pair_axes(const MropeSections& sections, bool interleaved);

/// x (d = 2·(s_t + s_h + s_w) dims, half layout as HF's rotate_half) turned
/// by M-RoPE at ids (t, h, w): pair i by id_axis(i)·θ_i, θ_i = base^(−2i/d).
/// With t = h = w = p this is 1-D RoPE at position p.
template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, 1> mrope_rotate(const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& x, double t,
                                                      double h, double w, double base, const MropeSections& sections,
                                                      bool interleaved);

// [SECTION] M-RoPE: the position ids

enum class TokenKind { text, image, video };
const char* token_kind_name(TokenKind kind);  ///< "text", "image", "video"

/// How a video's temporal ids count: `index` τ(k) = k (Qwen2-VL), `absolute`
/// τ(k) = k·⌊second_per_grid⌋·tokens_per_second (Qwen2.5-VL).
enum class VideoTime { index, absolute };
VideoTime parse_video_time(std::string_view word);  ///< raises InvalidParameter("video_time", …)
const char* video_time_name(VideoTime time);

/// One run of a sequence: `count` text tokens, or one grid of t × h × w
/// language-model tokens (an image has t = 1).
struct MropeSegment {
  TokenKind kind = TokenKind::text;
  long long count = 0;                        ///< text: the number of tokens (0 allowed)
  long long grid_t = 1, grid_h = 1, grid_w = 1;  ///< image, video
  double second_per_grid = 1.0;               ///< video, absolute time: seconds per temporal patch
};

struct MropeTiming {
  VideoTime time = VideoTime::index;
  long long tokens_per_second = 2;  ///< Qwen2.5-VL's vision_config.tokens_per_second
};

/// The ids of one token.
struct MropePosition {
  TokenKind kind = TokenKind::text;
  long long t = 0, h = 0, w = 0;
  bool operator==(const MropePosition&) const = default;
};

/// τ(k): the temporal id of patch k of a grid, relative to the grid's start.
long long mrope_temporal_offset(long long k, TokenKind kind, double second_per_grid, const MropeTiming& timing);

/// A sequence laid out once, O(segments): the id of any token in O(segments),
/// without building the whole list (a figure samples a long one).
class MropeLayout {
 public:
  /// Checks every segment (grids at least 1 × 1 × 1, an image one frame,
  /// seconds per patch >= 0, tokens_per_second >= 1) and the total (at most
  /// 2^40 tokens, ids below 2^53). Raises InvalidParameter naming the key.
  MropeLayout(std::vector<MropeSegment> segments, MropeTiming timing);

  long long tokens() const { return tokens_; }
  /// The ids of token `index` (0 <= index < tokens()).
  MropePosition position(long long index) const;
  /// Every token's ids, in order (what get_rope_index returns). At most
  /// `limit` tokens: raises InvalidParameter above it.
  std::vector<MropePosition> positions(long long limit = 1 << 24) const;
  /// The largest id of any axis + 1: where text after the sequence would start
  /// (transformers' rope_deltas + sequence length).
  long long next_id() const { return next_id_; }

  struct Run {
    MropeSegment segment;
    long long first_token = 0;  ///< index of its first token in the sequence
    long long start_id = 0;     ///< s: its first id
    long long tokens = 0;
  };
  const std::vector<Run>& runs() const { return runs_; }

 private:
  std::vector<Run> runs_;
  MropeTiming timing_;
  long long tokens_ = 0, next_id_ = 0;
};

/// The ids of every token of `segments` (MropeLayout(...).positions()).
std::vector<MropePosition> mrope_position_ids(std::span<const MropeSegment> segments, const MropeTiming& timing);

}  // namespace poslab::core
