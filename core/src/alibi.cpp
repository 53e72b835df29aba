// ALiBi: linear biases on attention scores (Press, Smith, Lewis 2022, "Train
// Short, Test Long: Attention with Linear Biases Enables Input Length
// Extrapolation", §3), with the head slopes of the authors' `get_slopes`
// (github.com/ofirpress/attention_with_linear_biases, also HF BLOOM's
// `build_alibi_tensor`):
//
//   def get_slopes(n):
//       def get_slopes_power_of_2(n):
//           start = (2**(-2**-(math.log2(n)-3)))
//           ratio = start
//           return [start*ratio**i for i in range(n)]
//       if math.log2(n).is_integer(): return get_slopes_power_of_2(n)
//       else:
//           closest_power_of_2 = 2**math.floor(math.log2(n))
//           return get_slopes_power_of_2(closest_power_of_2) + get_slopes(2*closest_power_of_2)[0::2][:n-closest_power_of_2]

#include "poslab/core/alibi.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"

namespace poslab::core {

namespace {

constexpr int kMaxMatrixSide = 4096;

/// get_slopes_power_of_2(n) for n = 2^log2n, with the reference's arithmetic:
/// start = 2^(−2^(−(log2 n − 3))) (Python's float ** float is C pow), and slope
/// i (0-based) = start · ratio^i with ratio = start (float ** int is pow too).
/// math.log2 of a power of two is exact, so log2n is passed as an integer.
std::vector<double> slopes_power_of_2(int n, int log2n) {
  const double start = std::pow(2.0, -std::pow(2.0, -(static_cast<double>(log2n) - 3.0)));
  const double ratio = start;
  std::vector<double> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = start * std::pow(ratio, static_cast<double>(i));
  return out;
}

std::vector<double> get_slopes(int n) {
  const auto un = static_cast<unsigned>(n);
  const int log2p = std::bit_width(un) - 1;  // floor(log2 n)
  if (std::has_single_bit(un)) return slopes_power_of_2(n, log2p);
  // Not a power of two: the slopes of the closest lower power of two p, then
  // every other slope of 2p (its even-indexed ones) until n are filled.
  const int p = 1 << log2p;
  std::vector<double> out = slopes_power_of_2(p, log2p);
  const std::vector<double> doubled = get_slopes(2 * p);
  for (int k = 0; k < n - p; ++k) out.push_back(doubled[static_cast<std::size_t>(2 * k)]);
  return out;
}

void check_slope(double slope) {
  if (!(std::isfinite(slope) && slope >= 0 && slope <= 1))
    throw InvalidParameter("slope", std::isnan(slope) ? "nan" : format_number(slope),
                           "must be a number in 0..1 (ALiBi slopes lie in (0, 1))");
}

void check_side(int n) {
  check_integer("positions", n);
  if (n > kMaxMatrixSide)
    throw InvalidParameter("positions", std::to_string(n),
                           "must be <= " + std::to_string(kMaxMatrixSide) + " for a bias matrix",
                           Reason{"max_bias_matrix", {{"max", std::to_string(kMaxMatrixSide)}}, {}});
}

}  // namespace

std::vector<double> alibi_slopes(int heads) {
  check_integer("heads", heads);
  return get_slopes(heads);
}

/// causal: −slope·(i − j) for keys j <= i, −∞ for the future j > i (the causal
/// mask the bias is added to); symmetric: −slope·|i − j| (the bidirectional
/// variant the ALiBi README suggests for encoders). Positions are checked
/// against `pos` (0..1e12), so the result is finite unless masked. A bias of
/// zero is +0, never −0.
double alibi_bias(double slope, long long i, long long j, bool causal) {
  check_slope(slope);
  check_real("pos", static_cast<double>(i));
  check_real("pos", static_cast<double>(j));
  if (causal) {
    if (j > i) return -std::numeric_limits<double>::infinity();
    return slope * static_cast<double>(j - i);  // = −slope·(i − j)
  }
  const long long distance = i > j ? i - j : j - i;
  return slope * static_cast<double>(-distance);
}

void alibi_bias_grid(double slope, std::span<const long long> rows, std::span<const long long> cols, bool causal,
                     std::span<double> out) {
  check_slope(slope);
  if (out.size() != rows.size() * cols.size())
    throw InvalidParameter("pos", std::to_string(out.size()) + " outputs",
                           "the output must hold rows × cols = " + std::to_string(rows.size() * cols.size()) + " values");
  const ParamSpec& pos = param_spec("pos");  // (looked up once: a grid checks thousands of positions)
  for (const std::span<const long long> positions : {rows, cols})
    for (long long p : positions) check_real(pos, static_cast<double>(p));
  constexpr double kMasked = -std::numeric_limits<double>::infinity();
  std::size_t k = 0;
  for (const long long i : rows)
    for (const long long j : cols) {
      if (causal)
        out[k++] = j > i ? kMasked : slope * static_cast<double>(j - i);
      else
        out[k++] = slope * static_cast<double>(-(i > j ? i - j : j - i));
    }
}

Eigen::MatrixXd alibi_bias_matrix(double slope, int n, bool causal) {
  check_slope(slope);
  check_side(n);
  Eigen::MatrixXd out(n, n);
  constexpr double kMasked = -std::numeric_limits<double>::infinity();
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (causal && j > i)
        out(i, j) = kMasked;
      else
        out(i, j) = slope * static_cast<double>(causal ? j - i : -std::abs(i - j));
    }
  return out;
}

/// softmax(s)_ij = exp(s_ij − max_k s_ik) / Σ_k exp(s_ik − max_k s_ik), per row;
/// −∞ entries get exactly 0, a row of only −∞ is all 0 (nothing to attend
/// to). Scores must otherwise be finite: NaN or +∞ raise InvalidParameter
/// ("scores").
Eigen::MatrixXd softmax_rows(const Eigen::MatrixXd& scores) {
  constexpr double kNegInf = -std::numeric_limits<double>::infinity();
  for (Eigen::Index c = 0; c < scores.cols(); ++c)
    for (Eigen::Index r = 0; r < scores.rows(); ++r) {
      const double s = scores(r, c);
      if (std::isnan(s) || s == std::numeric_limits<double>::infinity())
        throw InvalidParameter("scores", std::isnan(s) ? "nan" : "inf",
                               "must be finite numbers or -inf (masked)");
    }
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(scores.rows(), scores.cols());
  for (Eigen::Index r = 0; r < scores.rows(); ++r) {
    const double row_max = scores.cols() > 0 ? scores.row(r).maxCoeff() : kNegInf;
    if (row_max == kNegInf) continue;  // all masked
    double total = 0;
    for (Eigen::Index c = 0; c < scores.cols(); ++c) {
      const double s = scores(r, c);
      const double e = s == kNegInf ? 0.0 : std::exp(s - row_max);
      out(r, c) = e;
      total += e;
    }
    out.row(r) /= total;  // total >= 1: the maximum contributes exp(0)
  }
  return out;
}

}  // namespace poslab::core
