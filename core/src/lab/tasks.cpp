// The synthetic language (its exact entropy rate) and the copy / reverse data.

#include "poslab/core/lab/tasks.hpp"

#include <algorithm>
#include <cmath>

#include "poslab/core/lab/checks.hpp"
#include "poslab/core/random.hpp"

namespace poslab::core::lab {

namespace {

std::int64_t power(int base, int exponent) {
  std::int64_t out = 1;
  for (int i = 0; i < exponent; ++i) out *= base;
  return out;
}

double entropy(const double* p, std::int64_t n) {
  double h = 0;
  for (std::int64_t i = 0; i < n; ++i)
    if (p[i] > 0) h -= p[i] * std::log(p[i]);
  return h;
}

/// The index of the first cumulative probability above u (the last index when
/// rounding leaves u above the total).
int draw(const double* p, int n, double u) {
  double acc = 0;
  for (int i = 0; i < n; ++i) {
    acc += p[i];
    if (u < acc) return i;
  }
  return n - 1;
}

}  // namespace

double MarkovLanguage::floor_at(int position) const {
  return floor_by_position[static_cast<std::size_t>(std::min(position, order - 1))];
}

MarkovLanguage make_markov_language(int vocab, int order, double sharpness, std::uint64_t seed) {
  check_integer_in("lm_vocab", vocab, 2, 64);
  check_integer_in("lm_order", order, 1, 3);
  check_number_in("lm_sharpness", sharpness, 0, 8);
  MarkovLanguage L;
  L.vocab = vocab;
  L.order = order;
  const std::int64_t contexts = power(vocab, order);
  // E_j[a, y] ~ N(0, sharpness²), j = 0 (the newest symbol) … order − 1
  std::vector<double> E(static_cast<std::size_t>(order) * vocab * vocab);
  random_normals(seed, 0x4d61726bULL, 0, E);
  L.transition.assign(static_cast<std::size_t>(contexts * vocab), 0.0);
  for (std::int64_t ctx = 0; ctx < contexts; ++ctx) {
    double* row = &L.transition[static_cast<std::size_t>(ctx * vocab)];
    double max = -1e300;
    for (int y = 0; y < vocab; ++y) {
      double z = 0;
      std::int64_t rest = ctx;
      for (int j = 0; j < order; ++j) {  // j = 0: the newest symbol (the last digit)
        const int symbol = static_cast<int>(rest % vocab);
        rest /= vocab;
        z += sharpness * E[static_cast<std::size_t>((j * vocab + symbol) * vocab + y)];
      }
      row[y] = z;
      max = std::max(max, z);
    }
    double sum = 0;
    for (int y = 0; y < vocab; ++y) sum += row[y] = std::exp(row[y] - max);
    for (int y = 0; y < vocab; ++y) row[y] /= sum;
  }
  // Stationary distribution of the context chain: π'(ctx·y) = Σ π(ctx)·P(y | ctx),
  // where ctx·y drops the oldest symbol and appends y. Power iteration from uniform.
  std::vector<double> pi(static_cast<std::size_t>(contexts), 1.0 / static_cast<double>(contexts)), next(pi.size());
  const std::int64_t keep = contexts / vocab;  // vocab^(order−1)
  for (int it = 0; it < 100000; ++it) {
    std::fill(next.begin(), next.end(), 0.0);
    for (std::int64_t ctx = 0; ctx < contexts; ++ctx) {
      const double w = pi[static_cast<std::size_t>(ctx)];
      const std::int64_t shifted = (ctx % keep) * vocab;
      for (int y = 0; y < vocab; ++y)
        next[static_cast<std::size_t>(shifted + y)] += w * L.transition[static_cast<std::size_t>(ctx * vocab + y)];
    }
    double change = 0;
    for (std::size_t i = 0; i < pi.size(); ++i) change += std::fabs(next[i] - pi[i]);
    pi.swap(next);
    if (change < 1e-15) break;
  }
  L.stationary = pi;
  for (std::int64_t ctx = 0; ctx < contexts; ++ctx)
    L.entropy_rate += pi[static_cast<std::size_t>(ctx)] * entropy(&L.transition[static_cast<std::size_t>(ctx * vocab)], vocab);
  // H_m: entropy of m consecutive symbols (the marginal of the newest m of a context);
  // the floor at position p < order − 1 is H_{p+2} − H_{p+1}.
  std::vector<double> H(static_cast<std::size_t>(order) + 1, 0.0);
  for (int m = 1; m <= order; ++m) {
    const std::int64_t size = power(vocab, m);
    std::vector<double> marginal(static_cast<std::size_t>(size), 0.0);
    for (std::int64_t ctx = 0; ctx < contexts; ++ctx) marginal[static_cast<std::size_t>(ctx % size)] += pi[static_cast<std::size_t>(ctx)];
    H[static_cast<std::size_t>(m)] = entropy(marginal.data(), size);
  }
  for (int p = 0; p + 1 < order; ++p)
    L.floor_by_position.push_back(H[static_cast<std::size_t>(p) + 2] - H[static_cast<std::size_t>(p) + 1]);
  L.floor_by_position.push_back(L.entropy_rate);
  return L;
}

double MarkovLanguage::true_loss(const int* seq, int position) const {
  if (position >= order - 1) {  // a full context: the transition table
    std::int64_t ctx = 0;
    for (int j = position - order + 1; j <= position; ++j) ctx = ctx * vocab + seq[j];
    return -std::log(transition[static_cast<std::size_t>(ctx * vocab + seq[position + 1])]);
  }
  // fewer symbols than the order: P(x_0 … x_{p+1}) / P(x_0 … x_p) from the stationary marginals
  auto marginal = [&](int m) {  // P(x_0 … x_{m−1}) = Σ over the older order − m symbols of π
    const std::int64_t size = power(vocab, m);
    std::int64_t tail = 0;
    for (int j = 0; j < m; ++j) tail = tail * vocab + seq[j];
    double sum = 0;
    for (std::int64_t ctx = tail; ctx < static_cast<std::int64_t>(stationary.size()); ctx += size)
      sum += stationary[static_cast<std::size_t>(ctx)];
    return sum;
  };
  return -std::log(marginal(position + 2) / marginal(position + 1));
}

std::vector<int> sample_markov(const MarkovLanguage& L, int count, int length, std::uint64_t seed,
                               std::uint64_t stream) {
  std::vector<int> out(static_cast<std::size_t>(count) * static_cast<std::size_t>(length));
  const int V = L.vocab, k = L.order;
  for (int b = 0; b < count; ++b) {
    int* seq = &out[static_cast<std::size_t>(b) * static_cast<std::size_t>(length)];
    const std::uint64_t first = static_cast<std::uint64_t>(b) * static_cast<std::uint64_t>(length + 1);
    // the first `order` symbols together, from the stationary distribution
    const double u0 = random_uniform(seed, stream, first);
    std::int64_t ctx = 0;
    {
      double acc = 0;
      const std::int64_t n = static_cast<std::int64_t>(L.stationary.size());
      for (ctx = 0; ctx < n - 1; ++ctx) {
        acc += L.stationary[static_cast<std::size_t>(ctx)];
        if (u0 < acc) break;
      }
    }
    std::int64_t rest = ctx;
    for (int j = k - 1; j >= 0; --j) {
      if (j < length) seq[j] = static_cast<int>(rest % V);
      rest /= V;
    }
    const std::int64_t keep = static_cast<std::int64_t>(L.stationary.size()) / V;
    for (int t = k; t < length; ++t) {
      const int y = draw(&L.transition[static_cast<std::size_t>(ctx * V)], V,
                         random_uniform(seed, stream, first + static_cast<std::uint64_t>(t)));
      seq[t] = y;
      ctx = (ctx % keep) * V + y;
    }
  }
  return out;
}

Batch lm_batch(const std::vector<int>& sequences, int B, int T) {
  Batch batch;
  batch.B = B;
  batch.T = T;
  const std::size_t N = static_cast<std::size_t>(B) * static_cast<std::size_t>(T);
  batch.tokens.resize(N);
  batch.targets.resize(N);
  batch.positions.resize(N);
  batch.weights.assign(N, 1.0);
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const std::size_t n = static_cast<std::size_t>(b) * static_cast<std::size_t>(T) + static_cast<std::size_t>(t);
      const std::size_t s = static_cast<std::size_t>(b) * static_cast<std::size_t>(T + 1) + static_cast<std::size_t>(t);
      batch.tokens[n] = sequences[s];
      batch.targets[n] = sequences[s + 1];
      batch.positions[n] = t;
    }
  return batch;
}

Batch copy_batch(const CopyTask& task, const std::vector<int>& lengths, std::uint64_t seed, std::uint64_t stream) {
  Batch batch;
  batch.B = static_cast<int>(lengths.size());
  const int longest = *std::max_element(lengths.begin(), lengths.end());
  batch.T = 2 * longest;
  const std::size_t N = static_cast<std::size_t>(batch.B) * static_cast<std::size_t>(batch.T);
  batch.tokens.assign(N, task.separator());
  batch.targets.assign(N, task.separator());
  batch.weights.assign(N, 0.0);
  batch.positions.resize(N);
  std::vector<int> x, pool(static_cast<std::size_t>(task.alphabet));
  for (int b = 0; b < batch.B; ++b) {
    const int n = lengths[static_cast<std::size_t>(b)];
    const std::uint64_t first = static_cast<std::uint64_t>(b) * 4096;
    x.resize(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < pool.size(); ++i) pool[i] = static_cast<int>(i);
    for (int i = 0; i < n; ++i) {
      const double u = random_uniform(seed, stream, first + static_cast<std::uint64_t>(i));
      if (task.distinct) {  // a partial Fisher–Yates shuffle: n symbols without replacement
        const int j = i + std::min(static_cast<int>(u * (task.alphabet - i)), task.alphabet - i - 1);
        std::swap(pool[static_cast<std::size_t>(i)], pool[static_cast<std::size_t>(j)]);
        x[static_cast<std::size_t>(i)] = pool[static_cast<std::size_t>(i)];
      } else {
        x[static_cast<std::size_t>(i)] = std::min(static_cast<int>(u * task.alphabet), task.alphabet - 1);
      }
    }
    // the full sequence x_1 … x_n SEP y_1 … y_n (2n + 1 symbols); row = its first 2n
    std::vector<int> seq(x);
    seq.push_back(task.separator());
    for (int i = 0; i < n; ++i) seq.push_back(x[static_cast<std::size_t>(task.reverse ? n - 1 - i : i)]);
    int* tokens = &batch.tokens[static_cast<std::size_t>(b) * static_cast<std::size_t>(batch.T)];
    int* targets = &batch.targets[static_cast<std::size_t>(b) * static_cast<std::size_t>(batch.T)];
    double* weights = &batch.weights[static_cast<std::size_t>(b) * static_cast<std::size_t>(batch.T)];
    for (int t = 0; t < 2 * n; ++t) {
      tokens[t] = seq[static_cast<std::size_t>(t)];
      targets[t] = seq[static_cast<std::size_t>(t) + 1];
      weights[t] = t >= n ? 1.0 : 0.0;  // the answers: predicted at SEP … y_{n−1}
    }
    for (int t = 0; t < batch.T; ++t) batch.positions[static_cast<std::size_t>(b) * static_cast<std::size_t>(batch.T) + static_cast<std::size_t>(t)] = t;
  }
  return batch;
}

}  // namespace poslab::core::lab
