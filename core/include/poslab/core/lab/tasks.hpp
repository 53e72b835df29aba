#pragma once
// The lab's two kinds of task, generated from seeds (counter-based random
// numbers, core/random.hpp: the same seed gives the same data everywhere).
//
// (a) A synthetic language: a Markov chain of `order` over `vocab` symbols whose
//     next-symbol distribution is log-linear in the last `order` symbols,
//       P(y | x_{t−order+1} … x_t) ∝ exp(Σ_j E_j[x_{t−j}, y]),  E_j ~ N(0, sharpness²),
//     so the right answer depends on nearby tokens only, and its entropy rate —
//     the best loss any model can reach — is computed exactly (the chain's
//     stationary distribution by power iteration).
// (b) copy / reverse: x_1 … x_n SEP y_1 … y_n with y = x or y = reversed x; only
//     the n answers are scored. With `distinct` the symbols of one sequence are
//     drawn without replacement, so the answer is unambiguous at every length.

#include <cstdint>
#include <vector>

#include "poslab/core/lab/model.hpp"

namespace poslab::core::lab {

struct MarkovLanguage {
  int vocab = 0, order = 0;
  /// P(y | context): (vocab^order, vocab); context = (x_{t−order+1}, …, x_t) as a
  /// base-vocab number, the oldest symbol first.
  std::vector<double> transition;
  /// The stationary distribution of `order` consecutive symbols (vocab^order).
  std::vector<double> stationary;
  /// H = Σ_ctx π(ctx)·H(P(·|ctx)), in nats per token.
  double entropy_rate = 0;
  /// The best expected loss at each position p (predicting x_{p+1} from x_0 … x_p):
  /// H(X_{p+1} | X_0 … X_p) for p < order − 1 (fewer symbols than the order
  /// seen), the entropy rate from p = order − 1 on. Holds `order` entries; the
  /// last one is the entropy rate.
  std::vector<double> floor_by_position;
  /// floor_by_position[min(p, order − 1)].
  double floor_at(int position) const;
  /// −ln P(seq[p + 1] | seq[0 … p]) under the true chain (stationary start).
  double true_loss(const int* seq, int position) const;
};

/// The language of `seed`: checks vocab (2..64), order (1..3), sharpness (0..8).
MarkovLanguage make_markov_language(int vocab, int order, double sharpness, std::uint64_t seed);

/// `count` sequences of `length` symbols from the stationary chain, row after
/// row, from (seed, stream): sequence b uses indices b·length … .
std::vector<int> sample_markov(const MarkovLanguage& language, int count, int length, std::uint64_t seed,
                               std::uint64_t stream);

/// A language-model batch: B sequences of T + 1 symbols; tokens are the first
/// T, targets the next T, every weight 1, positions 0 … T − 1.
Batch lm_batch(const std::vector<int>& sequences, int B, int T);

struct CopyTask {
  bool reverse = false;
  int alphabet = 48;     ///< symbols 0 … alphabet − 1; SEP = alphabet; vocab = alphabet + 1
  bool distinct = true;  ///< symbols of one sequence drawn without replacement
  int vocab() const { return alphabet + 1; }
  int separator() const { return alphabet; }
};

/// B copy/reverse sequences, sequence b of input length lengths[b], padded to
/// T = 2·max(lengths) tokens: tokens x SEP y (the last y not fed), positions
/// 0 … T − 1, targets the next token, weight 1 on the n answers, 0 elsewhere
/// (padding after the end changes nothing before it: the attention is causal).
Batch copy_batch(const CopyTask& task, const std::vector<int>& lengths, std::uint64_t seed, std::uint64_t stream);

}  // namespace poslab::core::lab
