#pragma once
// Benchmarks of core's kernels (issue "Performance"), timed as best of N
// runs in one process. tests/bench/compare.py runs the same kernels in numpy
// and torch and reads these numbers from `poslab bench --json`.

#include <string>
#include <vector>

namespace poslab::app::bench {

struct KernelResult {
  std::string name;
  double ms = 0;             ///< best of the repeats
  double items = 0;          ///< elements produced or processed
  double bytes = 0;          ///< bytes read + written (memory-bound kernels), else 0
  double gbps() const { return bytes > 0 ? bytes / (ms * 1e6) : 0; }
  double gitems_per_s() const { return items / (ms * 1e6); }
};

/// Runs every kernel `repeats` times and returns the best time of each:
///   sinusoidal_table        PE for 32768 positions × 1024 dims, float32
///   rope_cos_sin_table      cos/sin for 4096 positions × 64 pairs
///   rope_apply_interleaved  RoPE on a [4096, 32, 128] float32 tensor in place
///   rope_apply_half         the same, half-split layout
///   rope_table_and_apply    both: the tables, then the interleaved rotation
///   memcpy_rope_tensor      a plain copy of that tensor (the bandwidth bound)
///   decay_bound_curve       RoFormer's bound for d = 128 at 65,536 distances
///   decay_bound_direct      the same, rope_decay_bound once per distance
///   t5_bucket_matrix        4096 × 4096 buckets (32 buckets, max distance 128)
///   scaling_<method>        the per-pair table of every context-extension method, d = 128
std::vector<KernelResult> run_kernel_benchmarks(int repeats = 7);

}  // namespace poslab::app::bench
