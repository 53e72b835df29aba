#pragma once
// `poslab bench --lab` (issue 26): the length-generalisation lab's training
// speed. tests/bench/lab_compare.py reads it and times numpy's float32 matrix
// products of the same shapes (and torch's forward/backward) in the same run.

#include <nlohmann/json.hpp>

namespace poslab::app::bench {

/// Fills report["lab"]:
///   gflops[encoding]   training throughput of the default lm model: the
///                      matrix-product FLOPs of a step (core::lab::training_step_flops)
///                      over its time, best of 3 rounds of 20 steps
///   step_ms[encoding]  the time of one such step
///   model_seconds      {lm, copy}: one default model (rope) trained to its last step
///   gemms              the matrix products of one default lm step: [{m, k, n, count}]
///                      (C[m×n] = A[m×k]·B[k×n]), forward and backward
///   reference          a tiny model's loss and gradients per encoding (float32
///                      engine) on a fixed batch, weights w_i = 0.5·sin(0.37·i + 0.1)
///                      (tests/bench/lab_reference.py's model) for the torch check
void run_lab_bench(nlohmann::ordered_json& report);

}  // namespace poslab::app::bench
