// [SECTION] Index
// - The parameter table (CONTRACT.md §2 plus the keys lessons add)
// - Lookup and description
// - Parsing the `--set` syntax
// - Checking values
// - Formatting
// - Params
// - Relations between parameters

#include "poslab/core/params.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <sstream>

#include "poslab/core/float_text.hpp"

namespace poslab::core {

namespace {

constexpr double kMaxInteger = 9007199254740992.0;  // 2^53: beyond, doubles skip integers
constexpr std::size_t kMaxListItems = 1'048'576;
constexpr double kMaxPosition = 1e12;
/// Lower bounds derived from what the formulas can represent (see the rows).
constexpr double kMinSigma = 1e-3;       // tokens, exclusive
constexpr double kMinRotations = 1e-6;  // YaRN β, inclusive

using T = ParamType;
using S = SliderScale;

// [SECTION] The parameter table
// One row per parameter: key, type, default, bounds, flags, slider range.
// Keep in sync with docs/CONTRACT.md §2 (a test checks that every key here is
// documented there).
const std::array kSpecs = {
    // ---- dimensions and positions
    ParamSpec{.key = "d", .type = T::integer, .default_text = "128", .min = 2, .max = 8192,
              .even = true, .ui_min = 2, .ui_max = 1024, .scale = S::pow2, .unit = "dims"},
    ParamSpec{.key = "base", .type = T::real, .default_text = "10000", .min = 1, .max = 1e12,
              .min_exclusive = true, .ui_min = 2, .ui_max = 1e7, .scale = S::log},
    // Partial rotary (GPT-NeoX rotary_pct, phi partial_rotary_factor, rotary_dim):
    // a head of head_dim dims of which only the first d rotate; 0 = d (all rotate).
    ParamSpec{.key = "head_dim", .type = T::integer, .default_text = "0", .min = 0, .max = 8192,
              .ui_min = 0, .ui_max = 1024, .unit = "dims"},
    ParamSpec{.key = "positions", .type = T::integer, .default_text = "512", .min = 1,
              .max = 1'048'576, .ui_min = 1, .ui_max = 1'048'576, .scale = S::log, .unit = "tokens"},
    ParamSpec{.key = "pos", .type = T::list, .default_text = "", .min = 0, .max = kMaxPosition,
              .min_items = 1, .max_items = kMaxListItems, .ui_min = 0, .ui_max = 4096,
              .unit = "tokens"},
    ParamSpec{.key = "m", .type = T::real, .default_text = "2", .min = 0, .max = kMaxPosition,
              .ui_min = 0, .ui_max = 64, .unit = "tokens"},
    ParamSpec{.key = "n", .type = T::real, .default_text = "5", .min = 0, .max = kMaxPosition,
              .ui_min = 0, .ui_max = 64, .unit = "tokens"},
    ParamSpec{.key = "vector", .type = T::vector, .default_text = "1,2,3,4", .min = -1e12,
              .max = 1e12, .even = true, .min_items = 2, .max_items = 8192},
    ParamSpec{.key = "layout", .type = T::choice, .default_text = "interleaved",
              .choices = "interleaved|half"},
    ParamSpec{.key = "distance", .type = T::list, .default_text = "0:1024", .min = 0,
              .max = kMaxPosition, .min_items = 1, .max_items = kMaxListItems, .ui_min = 0,
              .ui_max = 65536, .unit = "tokens"},
    // ---- Gaussian-kernel RoPE (notes, seed 000)
    ParamSpec{.key = "alpha1", .type = T::real, .default_text = "0.7", .min = -1e6, .max = 1e6,
              .ui_min = -1, .ui_max = 2},
    ParamSpec{.key = "alpha2", .type = T::real, .default_text = "0.3", .min = -1e6, .max = 1e6,
              .ui_min = -1, .ui_max = 2},
    // σ: K(x) divides x² by 2σ². Below σ ≈ 1.5e-154, σ² underflows to 0 and
    // K(0) = exp(0/0) is NaN; the cutoff's 1/(2σ²) overflows. The bound keeps
    // σ² ≥ 1e-6 — far from underflow, and x²/2σ² ≤ 5e29 for every position
    // ≤ 1e12 — and loses nothing a lesson can show: at σ = 0.001 the kernel
    // is already e^(−500000) ≈ 0 one token away.
    ParamSpec{.key = "sigma1", .type = T::real, .default_text = "5", .min = kMinSigma, .max = 1e9,
              .min_exclusive = true, .ui_min = 0.1, .ui_max = 1000, .scale = S::log,
              .unit = "tokens"},
    ParamSpec{.key = "sigma2", .type = T::real, .default_text = "20", .min = kMinSigma, .max = 1e9,
              .min_exclusive = true, .ui_min = 0.1, .ui_max = 1000, .scale = S::log,
              .unit = "tokens"},
    // Retired (docs/CONTRACT.md §2): read by nothing, still accepted for old files.
    ParamSpec{.key = "kernel_mode", .type = T::choice, .default_text = "absolute",
              .choices = "absolute|relative"},
    // ---- relative positions: Shaw, T5, ALiBi
    ParamSpec{.key = "clip", .type = T::integer, .default_text = "4", .min = 0, .max = 1e6,
              .ui_min = 0, .ui_max = 32},
    ParamSpec{.key = "buckets", .type = T::integer, .default_text = "32", .min = 2, .max = 1024,
              .ui_min = 2, .ui_max = 256, .scale = S::pow2},
    ParamSpec{.key = "bucket_max_distance", .type = T::integer, .default_text = "128", .min = 1,
              .max = 1e9, .ui_min = 2, .ui_max = 65536, .scale = S::log, .unit = "tokens"},
    ParamSpec{.key = "bidirectional", .type = T::boolean, .default_text = "true"},
    ParamSpec{.key = "relative", .type = T::list, .default_text = "-300:300", .min = -1e9,
              .max = 1e9, .integral_items = true, .min_items = 1, .max_items = kMaxListItems,
              .ui_min = -4096, .ui_max = 4096, .unit = "tokens"},
    ParamSpec{.key = "heads", .type = T::integer, .default_text = "8", .min = 1, .max = 256,
              .ui_min = 1, .ui_max = 256, .scale = S::log},
    // ---- context extension
    ParamSpec{.key = "method", .type = T::choice, .default_text = "yarn",
              .choices = "none|linear|ntk|dynamic|yarn|yarn-paper|llama3|longrope|notes",
              .choice_aliases = "seed=notes|su=longrope"},
    ParamSpec{.key = "factor", .type = T::real, .default_text = "8", .min = 1, .max = 1024,
              .ui_min = 1, .ui_max = 64, .scale = S::log},
    ParamSpec{.key = "original_context", .type = T::integer, .default_text = "4096", .min = 1,
              .max = 1e9, .ui_min = 128, .ui_max = 1'048'576, .scale = S::log, .unit = "tokens"},
    // The context the extended model runs at, L′; 0 = factor × original_context.
    // Llama 3.1 scales by factor 8 yet runs at 131,072 = 16 × 8,192 tokens
    // (its long-context training went on after the scaling): poslab model
    // sets it from max_position_embeddings where that is not factor × L.
    ParamSpec{.key = "target_context", .type = T::integer, .default_text = "0", .min = 0, .max = 1e9,
              .ui_min = 0, .ui_max = 1'048'576, .unit = "tokens"},
    ParamSpec{.key = "seq_len", .type = T::integer, .default_text = "32768", .min = 1, .max = 1e9,
              .ui_min = 128, .ui_max = 1'048'576, .scale = S::log, .unit = "tokens"},
    // β: YaRN's correction dimension d·ln(L/(2πβ))/(2 ln base) divides by β;
    // below β ≈ 1e-300 the quotient overflows and the ramp, the scaled
    // θ and the wavelengths turn infinite or NaN. β ≥ 1e-6 rotations keeps
    // ln(L/(2πβ)) ≤ 33 for every L ≤ 1e9 (and a ramp that wide is already
    // "every pair interpolated").
    ParamSpec{.key = "beta_fast", .type = T::real, .default_text = "32", .min = kMinRotations, .max = 1e6,
              .ui_min = 0.5, .ui_max = 256, .scale = S::log, .unit = "rotations"},
    ParamSpec{.key = "beta_slow", .type = T::real, .default_text = "1", .min = kMinRotations, .max = 1e6,
              .ui_min = 0.01, .ui_max = 64, .scale = S::log, .unit = "rotations"},
    ParamSpec{.key = "mscale", .type = T::real, .default_text = "0", .min = 0, .max = 1e3,
              .ui_min = 0, .ui_max = 4},
    ParamSpec{.key = "mscale_all_dim", .type = T::real, .default_text = "0", .min = 0, .max = 1e3,
              .ui_min = 0, .ui_max = 4},
    ParamSpec{.key = "low_freq_factor", .type = T::real, .default_text = "1", .min = 0,
              .max = 1e6, .min_exclusive = true, .ui_min = 0.1, .ui_max = 64, .scale = S::log},
    ParamSpec{.key = "high_freq_factor", .type = T::real, .default_text = "4", .min = 0,
              .max = 1e6, .min_exclusive = true, .ui_min = 0.1, .ui_max = 64, .scale = S::log},
    // YaRN's newer options (HF `_compute_yarn_parameters`): the rounding of the
    // correction range and an explicit factor on cos and sin (also LongRoPE's).
    ParamSpec{.key = "truncate", .type = T::boolean, .default_text = "true"},
    ParamSpec{.key = "attention_factor", .type = T::real, .default_text = "0", .min = 0, .max = 1e6,
              .ui_min = 0, .ui_max = 4},
    // LongRoPE (Phi-3): one divisor per pair, d/2 numbers each; unset = 1
    // (short) and factor (long) for every pair. A vector is always written out.
    // Published lists hold 1..~65; below 1e-6 θ/ext would leave the finite
    // range for a fast pair (θ_0 = 1 divided by a denormal is infinite).
    ParamSpec{.key = "short_factor", .type = T::vector, .default_text = "", .min = 1e-6, .max = 1e6,
              .min_items = 1, .max_items = 4096},
    ParamSpec{.key = "long_factor", .type = T::vector, .default_text = "", .min = 1e-6, .max = 1e6,
              .min_items = 1, .max_items = 4096},
    ParamSpec{.key = "gamma", .type = T::real, .default_text = "0.8", .min = 0, .max = 2,
              .ui_min = 0, .ui_max = 2},
    ParamSpec{.key = "temperature", .type = T::real, .default_text = "0.25", .min = 0, .max = 1e3,
              .ui_min = 0, .ui_max = 4},
    // ---- xPos
    ParamSpec{.key = "xpos_gamma", .type = T::real, .default_text = "0.4", .min = 0, .max = 1e3,
              .min_exclusive = true, .ui_min = 0.01, .ui_max = 4, .scale = S::log},
    ParamSpec{.key = "xpos_scale_base", .type = T::real, .default_text = "512", .min = 0,
              .max = 1e9, .min_exclusive = true, .ui_min = 1, .ui_max = 65536, .scale = S::log,
              .unit = "tokens"},
    ParamSpec{.key = "seed", .type = T::integer, .default_text = "0", .min = 0, .max = kMaxInteger,
              .ui_min = 0, .ui_max = 1000},
    // ---- keys the lessons add (docs/CONTRACT.md §2, "extensions")
    ParamSpec{.key = "offset", .type = T::real, .default_text = "3", .min = -1e9, .max = 1e9,
              .ui_min = -64, .ui_max = 64, .unit = "tokens"},
    ParamSpec{.key = "dims", .type = T::list, .default_text = "", .min = 0,
              .max = 8191, .integral_items = true, .min_items = 1, .max_items = 16,
              .ui_min = 0, .ui_max = 1023},
    ParamSpec{.key = "shift", .type = T::real, .default_text = "0", .min = -1e9, .max = 1e9,
              .ui_min = -20, .ui_max = 20, .unit = "tokens"},
    ParamSpec{.key = "theta", .type = T::real, .default_text = "1", .min = 0, .max = 1e3,
              .min_exclusive = true, .ui_min = 0.01, .ui_max = 3.14159, .scale = S::log,
              .unit = "rad/token"},
    ParamSpec{.key = "q", .type = T::vector, .default_text = "1,0.5", .min = -1e6, .max = 1e6,
              .min_items = 2, .max_items = 2},
    ParamSpec{.key = "k", .type = T::vector, .default_text = "0.8,-0.4", .min = -1e6, .max = 1e6,
              .min_items = 2, .max_items = 2},
    ParamSpec{.key = "causal", .type = T::boolean, .default_text = "true"},
    ParamSpec{.key = "head", .type = T::integer, .default_text = "1", .min = 1, .max = 256,
              .ui_min = 1, .ui_max = 256, .ui_max_key = "heads"},
    ParamSpec{.key = "max_length", .type = T::integer, .default_text = "512", .min = 1,
              .max = 1'048'576, .ui_min = 1, .ui_max = 8192, .scale = S::log, .unit = "tokens"},
    ParamSpec{.key = "terms", .type = T::choice, .default_text = "all",
              .choices = "all|transformer-xl|t5|deberta"},
    ParamSpec{.key = "compare", .type = T::choice, .default_text = "all", .choices = "all|pi-ntk-yarn|pi-ntk"},
    ParamSpec{.key = "bases", .type = T::list, .default_text = "10000,500000", .min = 1,
              .max = 1e12, .min_exclusive = true, .min_items = 1, .max_items = 8, .ui_min = 2,
              .ui_max = 1e7},
    ParamSpec{.key = "window", .type = T::integer, .default_text = "64", .min = 1, .max = 1e6,
              .ui_min = 1, .ui_max = 4096, .scale = S::log, .unit = "tokens"},
    ParamSpec{.key = "log_x", .type = T::boolean, .default_text = "false"},
    ParamSpec{.key = "samples", .type = T::integer, .default_text = "64", .min = 1, .max = 10000,
              .ui_min = 1, .ui_max = 1024, .scale = S::log},
    // ---- why-position: the toy sentence of 6 tokens, shuffled (a permutation
    // of its token indices: check_param_relations checks each index once; a
    // vector, so it is always written out in full, never as ranges)
    ParamSpec{.key = "perm", .type = T::vector, .default_text = "0,5,2,3,4,1", .min = 0, .max = 5,
              .integral_items = true, .min_items = 6, .max_items = 6, .ui_min = 0, .ui_max = 5},
    ParamSpec{.key = "encoding", .type = T::choice, .default_text = "none", .choices = "none|sinusoidal"},
    ParamSpec{.key = "pe_scale", .type = T::real, .default_text = "1", .min = 0.1, .max = 10,
              .ui_min = 0.1, .ui_max = 4, .scale = S::log},
    // ---- multimodal: a grid of image or video tokens (in the language
    // model's tokens, after the vision tower's merge) between two text runs,
    // placed by M-RoPE (core/mrope.hpp); the query patch of the axial 2-D
    // figure (clamped to the grid by the lesson)
    ParamSpec{.key = "text_before", .type = T::integer, .default_text = "2", .min = 0, .max = 1'048'576,
              .ui_min = 0, .ui_max = 64, .unit = "tokens"},
    ParamSpec{.key = "text_after", .type = T::integer, .default_text = "2", .min = 0, .max = 1'048'576,
              .ui_min = 0, .ui_max = 64, .unit = "tokens"},
    ParamSpec{.key = "grid_t", .type = T::integer, .default_text = "1", .min = 1, .max = 1024,
              .ui_min = 1, .ui_max = 32},
    ParamSpec{.key = "grid_h", .type = T::integer, .default_text = "4", .min = 1, .max = 1024,
              .ui_min = 1, .ui_max = 64},
    ParamSpec{.key = "grid_w", .type = T::integer, .default_text = "6", .min = 1, .max = 1024,
              .ui_min = 1, .ui_max = 64},
    ParamSpec{.key = "row", .type = T::integer, .default_text = "1", .min = 0, .max = 1023,
              .ui_min = 0, .ui_max = 63},
    ParamSpec{.key = "col", .type = T::integer, .default_text = "2", .min = 0, .max = 1023,
              .ui_min = 0, .ui_max = 63},
    ParamSpec{.key = "video_time", .type = T::choice, .default_text = "index", .choices = "index|absolute"},
    ParamSpec{.key = "tokens_per_second", .type = T::integer, .default_text = "2", .min = 1, .max = 1000,
              .ui_min = 1, .ui_max = 25, .unit = "ids/s"},
    ParamSpec{.key = "second_per_grid", .type = T::real, .default_text = "1", .min = 0, .max = 3600,
              .ui_min = 0, .ui_max = 8, .unit = "s"},
    // [s_t, s_h, s_w]: the pairs each axis drives; together d/2 of the M-RoPE
    // figures (2·(16 + 24 + 24) = 128 for Qwen2-VL)
    ParamSpec{.key = "mrope_section", .type = T::vector, .default_text = "16,24,24", .min = 0, .max = 4096,
              .integral_items = true, .min_items = 3, .max_items = 3, .ui_min = 0, .ui_max = 64},
    ParamSpec{.key = "mrope_interleaved", .type = T::boolean, .default_text = "false"},
    // ---- layer-mix: local (sliding-window) layers with their own base, the
    // fraction of pairs p-RoPE keeps and partial rotary turns
    ParamSpec{.key = "local_base", .type = T::real, .default_text = "10000", .min = 1, .max = 1e12,
              .min_exclusive = true, .ui_min = 2, .ui_max = 1e7, .scale = S::log},
    ParamSpec{.key = "sliding_window", .type = T::integer, .default_text = "1024", .min = 1, .max = 1e9,
              .ui_min = 16, .ui_max = 131072, .scale = S::log, .unit = "tokens"},
    ParamSpec{.key = "partial_rotary_factor", .type = T::real, .default_text = "0.25", .min = 0, .max = 1,
              .min_exclusive = true, .ui_min = 0.05, .ui_max = 1},
    // The fewer-pairs figure draws partial rotary beside p-RoPE (false: p-RoPE
    // alone, for the guided step that introduces it before the other)
    ParamSpec{.key = "show_partial", .type = T::boolean, .default_text = "true"},
    // The layer-stack figure: which model preset's config it reads, as
    // `poslab model` reads it (issue 28: the lesson and the reader show the same)
    ParamSpec{.key = "stack_model", .type = T::choice, .default_text = "llama4-scout",
              .choices = "llama4-scout|smollm3-3b|gemma3-4b|command-r7b"},
    // ---- lab: "Train short, test long" (issue 26; core/lab/lab.hpp). The
    // lesson trains one tiny Transformer per encoding and seed at the lab's
    // defaults (default_lab_config), with `lab_steps` Adam steps.
    ParamSpec{.key = "lab_task", .type = T::choice, .default_text = "lm", .choices = "lm|copy|reverse"},
    ParamSpec{.key = "lab_seeds", .type = T::integer, .default_text = "2", .min = 1, .max = 5,
              .ui_min = 1, .ui_max = 5},
    ParamSpec{.key = "lab_steps", .type = T::integer, .default_text = "1500", .min = 1, .max = 20000,
              .ui_min = 50, .ui_max = 5000, .scale = S::log},
    // Train (true) or show the empty axes to predict on (false): the lesson's
    // Train button sets it; exports train only when it is true.
    ParamSpec{.key = "lab_train", .type = T::boolean, .default_text = "false"},
    ParamSpec{.key = "lab_encoding", .type = T::choice, .default_text = "rope",
              .choices = "nope|learned|sinusoidal|rope|alibi|t5"},
    ParamSpec{.key = "lab_layer", .type = T::integer, .default_text = "1", .min = 1, .max = 2,
              .ui_min = 1, .ui_max = 2},
    ParamSpec{.key = "lab_head", .type = T::integer, .default_text = "1", .min = 1, .max = 4,
              .ui_min = 1, .ui_max = 4},
};

// [SECTION] Lookup and description

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string quote_value(std::string_view text) {
  constexpr std::size_t kShown = 40;  // keep the message one readable line
  std::string out(text.substr(0, kShown));
  if (text.size() > kShown) out += "...";
  if (out.empty()) out = "\"\"";
  return out;
}

std::string bound_phrase(const ParamSpec& s) {
  // "in 2..8192", "> 1 and <= 1e12", ">= 0", "> 0"
  const bool has_min = std::isfinite(s.min);
  const bool has_max = std::isfinite(s.max);
  if (has_min && has_max && !s.min_exclusive && !s.max_exclusive)
    return "in " + format_number(s.min) + ".." + format_number(s.max);
  std::string out;
  if (has_min) out += (s.min_exclusive ? "> " : ">= ") + format_number(s.min);
  if (has_max) {
    if (!out.empty()) out += " and ";
    out += (s.max_exclusive ? "< " : "<= ") + format_number(s.max);
  }
  return out;
}

[[noreturn]] void fail(const ParamSpec& spec, std::string_view text, std::string allowed, Reason reason) {
  throw InvalidParameter(std::string(spec.key), quote_value(text), std::move(allowed), std::move(reason));
}

const char* type_name(T type) {
  switch (type) {
    case T::integer: return "integer";
    case T::real: return "real";
    case T::boolean: return "boolean";
    case T::choice: return "choice";
    case T::list: return "list";
    case T::vector: return "vector";
  }
  return "real";
}

[[noreturn]] void fail_spec(const ParamSpec& spec, std::string_view text) {
  fail(spec, text, describe_allowed(spec), allowed_reason(spec));
}

bool in_bounds(const ParamSpec& s, double x) {
  if (!std::isfinite(x)) return false;
  if (s.min_exclusive ? !(x > s.min) : !(x >= s.min)) return false;
  if (s.max_exclusive ? !(x < s.max) : !(x <= s.max)) return false;
  return true;
}

bool is_whole(double x) { return std::isfinite(x) && std::floor(x) == x; }

// [SECTION] Parsing the `--set` syntax

/// Parses one finite number; nullopt-like via bool.
bool parse_number(std::string_view text, double& out) {
  text = trim(text);
  if (text.empty()) return false;
  if (text.front() == '+') text.remove_prefix(1);
  if (text.empty() || text.front() == '+') return false;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [ptr, ec] = read_double(first, last, out);
  if (ec != std::errc() || ptr != last) return false;
  return std::isfinite(out);
}

/// Appends the items of "a", "a:b" or "a:b:step" to `out`.
void parse_list_item(const ParamSpec& spec, std::string_view whole, std::string_view item,
                     std::vector<double>& out) {
  std::array<double, 3> parts{};
  std::size_t count = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = item.find(':', start);
    const std::string_view part =
        item.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start);
    if (count == 3 || !parse_number(part, parts[count]))
      fail(spec, whole, "must be numbers or ranges like 0:9 or 0:100:10 (" + describe_allowed(spec) + ")",
           Reason{"list_syntax", {}, {}});
    ++count;
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (count == 1) {
    out.push_back(parts[0]);
    return;
  }
  const double a = parts[0];
  const double b = parts[1];
  double step = count == 3 ? parts[2] : (b >= a ? 1.0 : -1.0);
  if (step == 0 || (b - a) * step < 0)
    fail(spec, whole, "a range a:b:step needs a step that goes from a towards b", Reason{"range_step", {}, {}});
  const double steps = std::floor((b - a) / step + 1e-9);
  if (!(steps + 1 <= static_cast<double>(spec.max_items) - static_cast<double>(out.size())))
    fail(spec, whole, "at most " + std::to_string(spec.max_items) + " items",
         Reason{"max_items", {{"n", std::to_string(spec.max_items)}}, {}});
  const auto n = static_cast<std::size_t>(steps) + 1;
  for (std::size_t i = 0; i < n; ++i) out.push_back(a + static_cast<double>(i) * step);
}

}  // namespace

std::span<const ParamSpec> param_specs() { return kSpecs; }

const ParamSpec* find_param(std::string_view key) {
  // Core functions check their arguments on every call, so the lookup is a
  // binary search over the keys sorted once (not a scan of ~50 strings).
  static const auto sorted = [] {
    std::array<const ParamSpec*, kSpecs.size()> v{};
    for (std::size_t i = 0; i < kSpecs.size(); ++i) v[i] = &kSpecs[i];
    std::sort(v.begin(), v.end(), [](const ParamSpec* a, const ParamSpec* b) { return a->key < b->key; });
    return v;
  }();
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), key,
                                   [](const ParamSpec* s, std::string_view k) { return s->key < k; });
  return it != sorted.end() && (*it)->key == key ? *it : nullptr;
}

const ParamSpec& param_spec(std::string_view key) {
  if (const ParamSpec* s = find_param(key)) return *s;
  std::string known;
  for (const auto& s : kSpecs) {
    if (!known.empty()) known += ", ";
    known += s.key;
  }
  throw InvalidParameter(quote_value(key), "?", "unknown parameter; known parameters: " + known,
                         Reason{"unknown_param", {{"known", known}}, {}});
}

std::vector<std::string_view> param_choices(const ParamSpec& spec) {
  std::vector<std::string_view> out;
  std::string_view rest = spec.choices;
  while (!rest.empty()) {
    const std::size_t bar = rest.find('|');
    out.push_back(rest.substr(0, bar));
    if (bar == std::string_view::npos) break;
    rest.remove_prefix(bar + 1);
  }
  return out;
}

Reason allowed_reason(const ParamSpec& spec) { return Reason{"spec", {{"type", type_name(spec.type)}}, {}}; }

std::string describe_allowed(const ParamSpec& s) {
  switch (s.type) {
    case T::integer:
      return std::string("must be ") + (s.even ? "an even integer " : "an integer ") + bound_phrase(s);
    case T::real:
      return "must be a number " + bound_phrase(s);
    case T::boolean:
      return "must be true or false";
    case T::choice: {
      std::string out = "must be one of ";
      const auto choices = param_choices(s);
      for (std::size_t i = 0; i < choices.size(); ++i) {
        if (i) out += ", ";
        out += choices[i];
      }
      return out;
    }
    case T::list:
      return std::string("must be a list of ") + (s.integral_items ? "integers " : "numbers ") +
             bound_phrase(s) + " (ranges a:b or a:b:step allowed), " + std::to_string(s.min_items) +
             ".." + std::to_string(s.max_items) + " items";
    case T::vector: {
      std::string out = "must be a list of " + std::to_string(s.min_items);
      if (s.max_items != s.min_items) out += ".." + std::to_string(s.max_items);
      out += " numbers " + bound_phrase(s);
      if (s.even) out += ", even in length";
      return out;
    }
  }
  return "invalid";
}

ParamValue parse_param_value(const ParamSpec& spec, std::string_view raw) {
  const std::string_view text = trim(raw);
  switch (spec.type) {
    case T::integer:
    case T::real: {
      double x = 0;
      if (!parse_number(text, x)) fail_spec(spec, text);
      ParamValue v = x;
      check_param_value(spec, v);
      return v;
    }
    case T::boolean: {
      if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
      if (text == "false" || text == "0" || text == "no" || text == "off") return false;
      fail_spec(spec, text);
    }
    case T::choice: {
      for (auto c : param_choices(spec))
        if (c == text) return std::string(c);
      for (std::string_view rest = spec.choice_aliases; !rest.empty();) {
        const std::size_t bar = rest.find('|');
        const std::string_view alias = rest.substr(0, bar);
        rest = bar == std::string_view::npos ? std::string_view() : rest.substr(bar + 1);
        const std::size_t eq = alias.find('=');
        if (eq != std::string_view::npos && alias.substr(0, eq) == text) return std::string(alias.substr(eq + 1));
      }
      fail_spec(spec, text);
    }
    case T::list:
    case T::vector: {
      std::vector<double> items;
      if (text.empty()) fail_spec(spec, text);
      std::size_t start = 0;
      while (true) {
        const std::size_t comma = text.find(',', start);
        const std::string_view item = text.substr(
            start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        if (spec.type == T::list) {
          parse_list_item(spec, text, item, items);
        } else {
          double x = 0;
          if (!parse_number(item, x)) fail_spec(spec, text);
          items.push_back(x);
        }
        if (items.size() > spec.max_items) fail_spec(spec, text);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
      }
      ParamValue v = std::move(items);
      try {
        check_param_value(spec, v);
      } catch (const InvalidParameter&) {
        fail_spec(spec, text);  // report what the user typed, not the expansion
      }
      return v;
    }
  }
  fail_spec(spec, text);
}

// [SECTION] Checking values

namespace {

/// The value as the error message shows it (computed only on failure).
std::string shown_value(const ParamValue& value) {
  return std::visit(
      [&](const auto& v) -> std::string {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, double>)
          return std::isfinite(v) ? format_number(v) : (std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
        else if constexpr (std::is_same_v<V, bool>)
          return v ? "true" : "false";
        else if constexpr (std::is_same_v<V, std::string>)
          return v;
        else
          return "[" + std::to_string(v.size()) + " items]";
      },
      value);
}

/// Checks one number against a numeric spec (the hot path of core's argument checks).
bool number_ok(const ParamSpec& spec, double x, bool integer) {
  if (!in_bounds(spec, x)) return false;
  if (integer && (!is_whole(x) || std::fabs(x) > kMaxInteger)) return false;
  if (spec.even && std::fmod(x, 2.0) != 0) return false;
  return true;
}

}  // namespace

void check_param_value(const ParamSpec& spec, const ParamValue& value) {
  switch (spec.type) {
    case T::integer:
    case T::real: {
      const double* x = std::get_if<double>(&value);
      if (!x || !number_ok(spec, *x, spec.type == T::integer)) fail_spec(spec, shown_value(value));
      return;
    }
    case T::boolean:
      if (!std::holds_alternative<bool>(value)) fail_spec(spec, shown_value(value));
      return;
    case T::choice: {
      const std::string* s = std::get_if<std::string>(&value);
      if (s)
        for (auto c : param_choices(spec))
          if (c == *s) return;
      fail_spec(spec, shown_value(value));
    }
    case T::list:
    case T::vector: {
      const auto* items = std::get_if<std::vector<double>>(&value);
      if (!items || items->size() < spec.min_items || items->size() > spec.max_items) fail_spec(spec, shown_value(value));
      if (spec.even && items->size() % 2 != 0) fail_spec(spec, shown_value(value));
      for (double x : *items) {
        if (!in_bounds(spec, x)) fail_spec(spec, format_number(x));
        if (spec.integral_items && !is_whole(x)) fail_spec(spec, format_number(x));
      }
      return;
    }
  }
}

void check_integer(std::string_view key, double value) { check_integer(param_spec(key), value); }

void check_real(std::string_view key, double value) { check_real(param_spec(key), value); }

void check_integer(const ParamSpec& spec, double value) {
  if (number_ok(spec, value, true)) return;
  ParamSpec as_integer = spec;
  as_integer.type = T::integer;
  fail_spec(as_integer, shown_value(ParamValue(value)));
}

void check_real(const ParamSpec& spec, double value) {
  if (number_ok(spec, value, false)) return;
  ParamSpec as_real = spec;
  as_real.type = T::real;
  fail_spec(as_real, shown_value(ParamValue(value)));
}

// [SECTION] Formatting

std::string format_number(double x) {
  std::string out;
  append_number(out, x);
  return out;
}

void append_number(std::string& out, double x) {
  if (std::isnan(x)) return void(out += "nan");
  if (std::isinf(x)) return void(out += x > 0 ? "inf" : "-inf");
  if (x == 0) return void(out += '0');  // also for -0
  // Both shortest round-trip forms; plain digits unless they are much longer
  // ("500000", "0.001", "1048576" — but "1e12", "1e-7", "6.02e23").
  std::array<char, 64> fixed{}, sci{};
  const auto e = write_double(sci.data(), sci.data() + sci.size(), x, std::chars_format::scientific);
  if (e.ec != std::errc()) return void(out += "nan");
  // "1e+12" → "1e12", "1e-07" → "1e-7": the same number, as people write it.
  const char* at = std::find(sci.data(), e.ptr, 'e');
  const bool negative = at[1] == '-';
  const char* exponent = at + 2;
  while (exponent + 1 < e.ptr && *exponent == '0') ++exponent;
  const auto exp_size = static_cast<std::size_t>((at - sci.data()) + 1 + (negative ? 1 : 0) + (e.ptr - exponent));
  const auto f = write_double(fixed.data(), fixed.data() + fixed.size(), x, std::chars_format::fixed);
  if (f.ec == std::errc() && static_cast<std::size_t>(f.ptr - fixed.data()) <= exp_size + 3)
    return void(out.append(fixed.data(), static_cast<std::size_t>(f.ptr - fixed.data())));
  out.append(sci.data(), static_cast<std::size_t>(at - sci.data()));
  out += negative ? "e-" : "e";
  out.append(exponent, static_cast<std::size_t>(e.ptr - exponent));
}

std::string format_param_value(const ParamSpec& spec, const ParamValue& value) {
  return std::visit(
      [&](const auto& v) -> std::string {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, double>) {
          return format_number(v);
        } else if constexpr (std::is_same_v<V, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<V, std::string>) {
          return v;
        } else {
          // Runs of whole numbers with step ±1 collapse to a:b (lists only).
          std::string out;
          std::size_t i = 0;
          while (i < v.size()) {
            std::size_t j = i;
            if (spec.type == T::list && is_whole(v[i])) {
              const double step = (i + 1 < v.size() && v[i + 1] - v[i] == -1.0) ? -1.0 : 1.0;
              while (j + 1 < v.size() && v[j + 1] - v[j] == step) ++j;
            }
            if (!out.empty()) out += ',';
            out += format_number(v[i]);
            if (j >= i + 2) {
              out += ':' + format_number(v[j]);
              i = j + 1;
            } else {
              ++i;
            }
          }
          return out;
        }
      },
      value);
}

// [SECTION] Params

void Params::set(std::string_view key, ParamValue value) {
  const ParamSpec& spec = param_spec(key);
  check_param_value(spec, value);
  auto it = values_.find(key);
  if (it == values_.end())
    values_.emplace(std::string(key), std::move(value));
  else
    it->second = std::move(value);
}

void Params::set_text(std::string_view key, std::string_view text) {
  const ParamSpec& spec = param_spec(trim(key));
  set(spec.key, parse_param_value(spec, text));
}

void Params::set_assignment(std::string_view assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string_view::npos)
    throw InvalidParameter(quote_value(assignment), "?", "expected KEY=VALUE, e.g. base=1e4",
                           Reason{"expected_assignment", {}, {}});
  set_text(assignment.substr(0, eq), assignment.substr(eq + 1));
}

void Params::reset(std::string_view key) {
  const ParamSpec& spec = param_spec(key);
  if (auto it = values_.find(spec.key); it != values_.end()) values_.erase(it);
}

bool Params::is_set(std::string_view key) const {
  note_read(key);
  return values_.find(key) != values_.end();
}

std::vector<std::string> Params::set_keys() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : values_) out.push_back(k);
  return out;
}

ParamValue Params::value(std::string_view key) const {
  note_read(key);
  const ParamSpec& spec = param_spec(key);
  if (auto it = values_.find(key); it != values_.end()) return it->second;
  if (spec.default_text.empty())
    throw InvalidParameter(std::string(spec.key), "(unset)",
                           "has no default here; set it, e.g. --set " + std::string(spec.key) + "=0:9",
                           Reason{"no_default", {}, "unset"});
  return parse_param_value(spec, spec.default_text);
}

namespace {
template <class V>
V get_as(const Params& p, std::string_view key, const char* what) {
  ParamValue v = p.value(key);
  if (V* x = std::get_if<V>(&v)) return std::move(*x);  // a list is copied once, not twice
  throw InvalidParameter(std::string(key), "?", std::string("is not ") + what);
}
}  // namespace

double Params::real(std::string_view key) const { return get_as<double>(*this, key, "a number"); }
long long Params::integer(std::string_view key) const {
  return static_cast<long long>(get_as<double>(*this, key, "a number"));
}
bool Params::boolean(std::string_view key) const { return get_as<bool>(*this, key, "true or false"); }
std::string Params::choice(std::string_view key) const { return get_as<std::string>(*this, key, "a word"); }
std::vector<double> Params::list(std::string_view key) const {
  return get_as<std::vector<double>>(*this, key, "a list");
}
std::vector<double> Params::list_or(std::string_view key, std::string_view fallback) const {
  const ParamSpec& spec = param_spec(key);
  if (!is_set(key) && spec.default_text.empty())
    return std::get<std::vector<double>>(parse_param_value(spec, fallback));
  return list(key);
}

void check_each_key_once(std::span<const std::string> assignments) {
  for (std::size_t i = 0; i < assignments.size(); ++i) {
    const std::size_t eq = assignments[i].find('=');
    if (eq == std::string::npos) continue;
    const std::string_view key = trim(std::string_view(assignments[i]).substr(0, eq));
    for (std::size_t j = 0; j < i; ++j) {
      const std::size_t eq_j = assignments[j].find('=');
      if (eq_j == std::string::npos || trim(std::string_view(assignments[j]).substr(0, eq_j)) != key) continue;
      const std::string both = quote_value(trim(std::string_view(assignments[j]).substr(eq_j + 1))) + ", " +
                               quote_value(trim(std::string_view(assignments[i]).substr(eq + 1)));
      throw InvalidParameter(std::string(key), both, "given twice; set each key once",
                             Reason{"given_twice", {}, {}});
    }
  }
}

// [SECTION] Relations between parameters

void check_permutation(std::string_view key, std::span<const double> items) {
  std::vector<bool> seen(items.size(), false);
  for (double x : items) {
    const bool ok = is_whole(x) && x >= 0 && x < static_cast<double>(items.size()) && !seen[static_cast<std::size_t>(x)];
    if (!ok) {
      std::string text;
      for (double y : items) text += (text.empty() ? "" : ",") + format_number(y);
      const std::string last = std::to_string(static_cast<long long>(items.size()) - 1);
      throw InvalidParameter(std::string(key), text.empty() ? "\"\"" : text,
                             "must be a permutation of 0.." + last + ": every index exactly once, in any order",
                             Reason{"permutation", {{"last", last}}, {}});
    }
    seen[static_cast<std::size_t>(x)] = true;
  }
}

void check_param_relations(const Params& p, std::span<const std::string_view> keys) {
  auto reads = [&](std::string_view k) {
    return keys.empty() || std::find(keys.begin(), keys.end(), k) != keys.end();
  };
  auto number = [](double x) { return format_number(x); };

  if (reads("buckets") && reads("bidirectional") && p.boolean("bidirectional")) {
    const long long b = p.integer("buckets");
    if (b % 2 != 0 || b < 4)
      throw InvalidParameter("buckets", std::to_string(b),
                             "must be even and >= 4 when bidirectional=true (half the buckets "
                             "for each direction, half of those exact)",
                             Reason{"buckets_bidirectional", {}, {}});
  }
  if (reads("buckets") && reads("bucket_max_distance")) {
    const long long b = p.integer("buckets");
    const bool bidir = reads("bidirectional") ? p.boolean("bidirectional") : true;
    const long long max_exact = bidir ? (b / 2) / 2 : b / 2;
    const long long dist = p.integer("bucket_max_distance");
    if (dist <= max_exact)
      throw InvalidParameter("bucket_max_distance", std::to_string(dist),
                             "must be > " + std::to_string(max_exact) +
                                 " (the exact range: buckets/" + (bidir ? "4" : "2") +
                                 ") so the logarithmic buckets have room",
                             Reason{"bucket_room", {{"max_exact", std::to_string(max_exact)}, {"div", bidir ? "4" : "2"}}, {}});
  }
  if (reads("beta_fast") && reads("beta_slow") && !(p.real("beta_fast") > p.real("beta_slow")))
    throw InvalidParameter("beta_fast", number(p.real("beta_fast")),
                           "must be > beta_slow = " + number(p.real("beta_slow")),
                           Reason{"greater_than", {{"other", "beta_slow"}, {"other_value", number(p.real("beta_slow"))}}, {}});
  // Equal factors are allowed: no blend band, a hard step (Llama 4 Scout's 1 and 1).
  if (reads("high_freq_factor") && reads("low_freq_factor") &&
      !(p.real("high_freq_factor") >= p.real("low_freq_factor")))
    throw InvalidParameter("high_freq_factor", number(p.real("high_freq_factor")),
                           "must be ≥ low_freq_factor = " + number(p.real("low_freq_factor")),
                           Reason{"at_least_other",
                                  {{"other", "low_freq_factor"}, {"other_value", number(p.real("low_freq_factor"))}}, {}});
  if (reads("dims") && reads("d") && p.is_set("dims")) {  // unset: the lesson picks dims from d
    const long long d = p.integer("d");
    for (double x : p.list("dims"))
      if (x >= static_cast<double>(d))
        throw InvalidParameter("dims", number(x), "every dimension must be < d = " + std::to_string(d),
                               Reason{"dims_below_d", {{"d", std::to_string(d)}}, {}});
  }
  if (reads("head_dim") && reads("d") && p.integer("head_dim") != 0 && p.integer("head_dim") < p.integer("d"))
    throw InvalidParameter("head_dim", std::to_string(p.integer("head_dim")),
                           "must be 0 (the head is d wide) or >= d = " + std::to_string(p.integer("d")) +
                               " (only the first d dims of a head rotate)",
                           Reason{"head_dim_below_d", {{"d", std::to_string(p.integer("d"))}}, {}});
  if (reads("target_context") && reads("original_context") && p.integer("target_context") != 0 &&
      p.integer("target_context") < p.integer("original_context"))
    throw InvalidParameter("target_context", std::to_string(p.integer("target_context")),
                           "must be 0 (factor × original_context) or >= original_context = " +
                               std::to_string(p.integer("original_context")) + " (the context the model is extended to)",
                           Reason{"target_below_context", {{"context", std::to_string(p.integer("original_context"))}}, {}});
  if (reads("perm")) check_permutation("perm", p.list("perm"));
  // LongRoPE: one divisor per pair (HF only logs a wrong length, then fails
  // multiplying tensors of different sizes). Lists set for another d are kept
  // while another method is shown.
  if (reads("method") && reads("d") && p.choice("method") == "longrope")
    for (std::string_view key : {std::string_view("short_factor"), std::string_view("long_factor")}) {
      if (!reads(key) || !p.is_set(key)) continue;
      const std::size_t pairs = static_cast<std::size_t>(p.integer("d") / 2), n = p.list(key).size();
      if (n != pairs)
        throw InvalidParameter(std::string(key), std::to_string(n) + " numbers",
                               "must hold d/2 = " + std::to_string(pairs) +
                                   " numbers for method=longrope (one divisor per pair)",
                               Reason{"longrope_pairs", {{"pairs", std::to_string(pairs)}, {"n", std::to_string(n)}},
                                      "numbers"});
    }
  // M-RoPE: the sections split the pairs of a head; together at least one
  // pair and at most d/2 = 4096 (core/mrope.hpp).
  if (reads("mrope_section")) {
    double pairs = 0;
    for (double s : p.list("mrope_section")) pairs += s;
    if (pairs < 1 || pairs > 4096)
      throw InvalidParameter("mrope_section", format_param_value(param_spec("mrope_section"), p.value("mrope_section")),
                             "must hold 1..4096 pairs together (s_t + s_h + s_w = d/2)",
                             Reason{"mrope_pairs", {}, {}});
  }
  // Axial 2-D RoPE gives half the pairs to the row and half to the column:
  // d/2 even (the views and tables that place a query patch on a grid).
  if (reads("d") && reads("row") && reads("col") && p.integer("d") % 4 != 0)
    throw InvalidParameter("d", std::to_string(p.integer("d")),
                           "must be a multiple of 4 here (axial 2-D RoPE gives d/4 pairs to the row, d/4 to the column)",
                           Reason{"axial_d", {}, {}});
  if (reads("head") && reads("heads") && p.integer("head") > p.integer("heads"))
    throw InvalidParameter("head", std::to_string(p.integer("head")),
                           "must be <= heads = " + std::to_string(p.integer("heads")),
                           Reason{"at_most", {{"other", "heads"}, {"other_value", std::to_string(p.integer("heads"))}}, {}});
}

}  // namespace poslab::core
