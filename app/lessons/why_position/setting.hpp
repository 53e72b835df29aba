#pragma once
// The "why-position" lesson's setting, written once for its figures, readouts
// and table: the toy sentence "the dog bit the old man" (six tokens, "the"
// twice), its word order `perm`, the position encoding and the seed, mapped
// to core's toy attention head (core/attention.hpp).

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "poslab/core/attention.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::why_position {

/// The head dimension of the toy (small enough to show every output entry).
inline constexpr int kD = 8;
/// The base b of the sinusoidal PE(p) added to the embeddings.
inline constexpr double kBase = 10000;
/// The sentence as token ids into kWords: the dog bit the old man.
inline constexpr std::array<int, 6> kTokenIds = {0, 1, 2, 0, 3, 4};
inline constexpr std::array<std::string_view, 5> kWords = {"the", "dog", "bit", "old", "man"};
inline constexpr int kTokens = static_cast<int>(kTokenIds.size());

struct Setting {
  std::vector<int> perm;  ///< position i of the shuffled sentence holds word perm[i]
  bool positions;         ///< encoding = sinusoidal: x + s·PE(p)
  double pe_scale;        ///< s
  std::uint64_t seed;

  bool identity() const {
    for (int i = 0; i < kTokens; ++i)
      if (perm[static_cast<std::size_t>(i)] != i) return false;
    return true;
  }
  /// The word at original position `index`.
  static std::string_view word(int index) { return kWords[static_cast<std::size_t>(kTokenIds[static_cast<std::size_t>(index)])]; }
  /// The word at position `index` of the shuffled sentence.
  std::string_view shuffled_word(int index) const { return word(perm[static_cast<std::size_t>(index)]); }
  /// "the man bit the old dog"
  std::string shuffled_sentence() const {
    std::string out;
    for (int i = 0; i < kTokens; ++i) out += (i ? " " : "") + std::string(shuffled_word(i));
    return out;
  }
  static std::string original_sentence() {
    std::string out;
    for (int i = 0; i < kTokens; ++i) out += (i ? " " : "") + std::string(word(i));
    return out;
  }
  /// "0,5,2,3,4,1"
  std::string perm_text() const {
    std::string out;
    for (int i : perm) out += (out.empty() ? "" : ",") + std::to_string(i);
    return out;
  }
  /// The shuffle test through core at scale s of the position encoding (0: none).
  core::ShuffleTest<double> test(double scale) const {
    const core::AttentionHead<double> head = core::toy_attention_head<double>(kD, seed);
    const core::AttentionMatrix<double> x = core::toy_embeddings<double>(kTokenIds, kD, seed);
    return core::shuffle_test<double>(x, perm, head, scale, kBase);
  }
  /// The test the figures show: with positions when `encoding` asks for them.
  core::ShuffleTest<double> shown() const { return test(positions ? pe_scale : 0.0); }
};

/// Reads perm, pe_scale and seed (perm checked a permutation by
/// resolve_view_params through core::check_param_relations). `positions`
/// stays false: only what the figures show depends on `encoding`.
inline Setting setting(const core::Params& p) {
  Setting s{{}, false, p.real("pe_scale"), static_cast<std::uint64_t>(p.integer("seed"))};
  for (double x : p.list("perm")) s.perm.push_back(static_cast<int>(std::lround(x)));
  return s;
}

/// The same and `encoding`: what the attention and output figures show.
inline Setting shown_setting(const core::Params& p) {
  Setting s = setting(p);
  s.positions = p.choice("encoding") == "sinusoidal";
  return s;
}

}  // namespace poslab::app::why_position
