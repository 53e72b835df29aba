#pragma once
// ALiBi (Press, Smith, Lewis 2022, "Train Short, Test Long"): a per-head linear
// bias −m·distance added to attention scores, with head slopes from the
// authors' `get_slopes(n)`:
//   powers of two: start = 2^(−2^−(log2 n − 3)), slopes = start^1 .. start^n
//   otherwise: get_slopes(p) + get_slopes(2p)[0::2][: n − p], p = 2^⌊log2 n⌋

#include <vector>

#include <span>
#include <vector>

#include <Eigen/Dense>

namespace poslab::core {

/// The `heads` slopes in head order (head 1 first). Checks heads (1..256).
std::vector<double> alibi_slopes(int heads);

/// Bias of query i on key j for a head with `slope`:
///   causal:    −slope·(i − j) for j ≤ i; the future (j > i) is masked: −∞
///   symmetric: −slope·|i − j|
double alibi_bias(double slope, long long i, long long j, bool causal);

/// alibi_bias at every (rows[r], cols[c]) into out[r·cols.size() + c] — the
/// same numbers, the arguments checked once instead of per cell (a heatmap
/// sampled at its pixels). Checks out.size() = rows.size()·cols.size().
void alibi_bias_grid(double slope, std::span<const long long> rows, std::span<const long long> cols, bool causal,
                     std::span<double> out);

/// n × n bias matrix (masked entries −∞ in causal mode).
Eigen::MatrixXd alibi_bias_matrix(double slope, int n, bool causal);

/// Row-wise softmax; −∞ entries get weight 0. Rows that are all −∞ are all 0.
Eigen::MatrixXd softmax_rows(const Eigen::MatrixXd& scores);

}  // namespace poslab::core
