#pragma once
// `poslab bench --extremes`: every view's figures and readouts built at the
// largest sizes the parameters accept (docs/CONTRACT.md §3 "Budgets"), alone
// and together, timed in thread CPU time. What the budgets promise, measured:
// no build past the figure budget's ~100 ms, and which inputs are refused.

#include <nlohmann/json.hpp>

namespace poslab::app::bench {

/// For each view, each parameter set tried: the CPU ms of the whole view
/// (every figure at 1600×1000, then the readouts), the slowest part, or the
/// refusal. Fills report["extremes"].
void run_extremes_bench(nlohmann::ordered_json& report);

}  // namespace poslab::app::bench
