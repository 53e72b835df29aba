#include "app/bench/kernel_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "poslab/core/decay.hpp"
#include "poslab/core/rope.hpp"
#include "poslab/core/scaling.hpp"
#include "poslab/core/sinusoidal.hpp"
#include "poslab/core/t5.hpp"

namespace poslab::app::bench {

namespace {

/// Best wall time in ms of `repeats` calls; `sink` keeps results observable.
template <class F>
double best_ms(int repeats, F&& f) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return best;
}

volatile double g_sink = 0;

/// A copy with non-temporal stores (no read of the destination's lines
/// before they are written): on large tensors often faster than memcpy, so
/// the memory bound is the faster of the two (issue 16).
void stream_copy(float* dst, const float* src, std::size_t n) {
#if defined(__SSE2__)
  std::size_t i = 0;
  for (; i < n && (reinterpret_cast<std::uintptr_t>(dst + i) & 15u) != 0; ++i) dst[i] = src[i];
  for (; i + 16 <= n; i += 16) {
    _mm_stream_ps(dst + i, _mm_loadu_ps(src + i));
    _mm_stream_ps(dst + i + 4, _mm_loadu_ps(src + i + 4));
    _mm_stream_ps(dst + i + 8, _mm_loadu_ps(src + i + 8));
    _mm_stream_ps(dst + i + 12, _mm_loadu_ps(src + i + 12));
  }
  for (; i < n; ++i) dst[i] = src[i];
  _mm_sfence();
#else
  std::memcpy(dst, src, n * sizeof(float));
#endif
}

}  // namespace

std::vector<KernelResult> run_kernel_benchmarks(int repeats) {
  std::vector<KernelResult> out;

  {  // the sinusoid table
    const std::int64_t positions = 32768;
    const int d = 1024;
    std::vector<float> table(static_cast<std::size_t>(positions) * d);
    const double ms = best_ms(repeats, [&] { core::sinusoidal_table(table, positions, d, 10000); });
    g_sink = g_sink + table[12345];
    out.push_back({"sinusoidal_table", ms, static_cast<double>(table.size()), 0});
  }

  {  // RoPE on [4096 tokens, 32 heads, 128 dims], both layouts, against a copy
    const std::int64_t tokens = 4096;
    const int heads = 32, d = 128;
    const Eigen::VectorXd theta = core::rope_inverse_frequencies(d, 10000);
    const std::span<const double> th(theta.data(), static_cast<std::size_t>(theta.size()));
    std::vector<float> data(static_cast<std::size_t>(tokens) * heads * d), copy(data.size());
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>((i * 2654435761u) % 1000) / 1000.0f - 0.5f;
    std::vector<float> c(static_cast<std::size_t>(tokens) * d / 2), s(c.size());
    const double bytes = 2.0 * static_cast<double>(data.size()) * sizeof(float);
    double ms = best_ms(repeats, [&] { core::rope_cos_sin_table(c, s, tokens, th); });
    out.push_back({"rope_cos_sin_table", ms, static_cast<double>(c.size()), 0});
    // RoPE in both layouts and the memory bound — the same tensor copied into
    // warm pages (written once before timing, so no page faults) by memcpy
    // and by streaming stores, the faster of the two — take turns, round
    // after round, each keeping its best: a slow stretch of the machine's
    // memory bandwidth (a shared VM's) then falls on all of them alike, not
    // on whichever happened to run in it.
    std::memcpy(copy.data(), data.data(), data.size() * sizeof(float));
    struct Turn {
      const char* name;
      std::function<void()> run;
      double best = 1e300;
    };
    Turn turns[] = {
        {"rope_apply_interleaved", [&] { core::rope_apply(data, tokens, heads, d, c, s, core::PairLayout::interleaved); }},
        {"memcpy_rope_tensor", [&] { std::memcpy(copy.data(), data.data(), data.size() * sizeof(float)); }},
        {"rope_apply_half", [&] { core::rope_apply(data, tokens, heads, d, c, s, core::PairLayout::half); }},
        {"stream_copy_rope_tensor", [&] { stream_copy(copy.data(), data.data(), data.size()); }},
    };
    for (int r = 0; r < std::max(repeats, 9); ++r)
      for (Turn& t : turns) t.best = std::min(t.best, best_ms(1, t.run));
    g_sink = g_sink + copy[777] + data[999];
    for (const Turn& t : turns) out.push_back({t.name, t.best, static_cast<double>(data.size()), bytes});
    ms = best_ms(repeats, [&] {
      core::rope_cos_sin_table(c, s, tokens, th);
      core::rope_apply(data, tokens, heads, d, c, s, core::PairLayout::interleaved);
    });
    out.push_back({"rope_table_and_apply", ms, static_cast<double>(data.size()), bytes});
    out.push_back({"copy_bound_rope_tensor", std::min(turns[1].best, turns[3].best), static_cast<double>(data.size()), bytes});
  }

  {  // RoFormer's decay bound
    const Eigen::VectorXd theta = core::rope_inverse_frequencies(128, 10000);
    const std::span<const double> th(theta.data(), static_cast<std::size_t>(theta.size()));
    std::vector<double> distances(65536), bound(distances.size());
    for (std::size_t r = 0; r < distances.size(); ++r) distances[r] = static_cast<double>(r);
    double ms = best_ms(repeats, [&] { core::rope_decay_bound_curve(distances, th, bound); });
    g_sink = g_sink + bound[4000];
    out.push_back({"decay_bound_curve", ms, static_cast<double>(distances.size()), 0});
    // The same bound one distance at a time (d/2 sin/cos each): what the
    // blocked kernel saves.
    ms = best_ms(std::max(1, repeats / 3), [&] {
      for (std::size_t r = 0; r < distances.size(); ++r) bound[r] = core::rope_decay_bound(distances[r], th);
    });
    g_sink = g_sink + bound[4000];
    out.push_back({"decay_bound_direct", ms, static_cast<double>(distances.size()), 0});
  }

  {  // T5 buckets for a 4096-token sequence
    Eigen::MatrixXi m;
    const double ms = best_ms(repeats, [&] { m = core::t5_bucket_matrix(4096, 4096, true, 32, 128); });
    g_sink = g_sink + m(100, 3000);
    out.push_back({"t5_bucket_matrix", ms, 4096.0 * 4096.0, 0});
  }

  for (auto method : {core::ScalingMethod::none, core::ScalingMethod::linear, core::ScalingMethod::ntk,
                      core::ScalingMethod::dynamic, core::ScalingMethod::yarn, core::ScalingMethod::yarn_paper,
                      core::ScalingMethod::llama3, core::ScalingMethod::seed}) {
    core::ScalingConfig c;
    c.method = method;
    c.d = 128;
    double ms = best_ms(repeats, [&] {
      for (int k = 0; k < 100; ++k) g_sink = g_sink + core::rope_scaling_table(c).scaled_theta[63];
    });
    ms /= 100;
    std::string name = std::string("scaling_") + core::scaling_method_name(method);
    std::replace(name.begin(), name.end(), '-', '_');
    out.push_back({name, ms, 64, 0});
  }
  return out;
}

}  // namespace poslab::app::bench
