#pragma once
// The "alibi" lesson's parameters as core reads them, written once for its
// figures, readouts and tables: the heads, the head shown, causal or
// symmetric, and the positions.

#include <vector>

#include "poslab/core/params.hpp"

namespace poslab::app::alibi {

/// p = 2^⌊log2 H⌋: get_slopes(H) takes heads 1..p from get_slopes(p) and the
/// rest from get_slopes(2p).
int largest_power_of_two(int heads);

struct Setting {
  int heads, head;
  bool causal;
  long long positions;
  std::vector<double> slopes;  ///< core::alibi_slopes(heads), head 1 first
  int power() const { return largest_power_of_two(heads); }  ///< p = 2^⌊log2 H⌋
  double slope() const { return slopes[static_cast<std::size_t>(head - 1)]; }
  /// The query whose attention row the figures, readouts and tables show: the
  /// last one (causal: it sees every key) or the middle one (symmetric).
  long long query() const { return causal ? positions - 1 : (positions - 1) / 2; }
};

/// `heads`, `head`, `causal`, `positions`, and the slopes of the heads.
Setting setting(const core::Params& p);

}  // namespace poslab::app::alibi
