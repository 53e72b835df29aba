// Fuzz target: the `--set` value parser (numbers, lists, ranges, vectors,
// words) against every parameter spec. Invariants: it either rejects with
// InvalidParameter or returns a value that passes its own check, holds only
// finite numbers, and round-trips through format_param_value.

#include <cmath>
#include <cstdlib>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  poslab::fuzz::Input in(data, size);
  const auto specs = poslab::core::param_specs();
  const auto& spec = specs[in.byte() % specs.size()];
  const std::string_view text = in.line();
  poslab::core::ParamValue v;
  try {
    v = poslab::core::parse_param_value(spec, text);
  } catch (const poslab::core::InvalidParameter& e) {
    if (e.key() != spec.key) std::abort();  // the message must name the parameter
    return 0;
  }
  poslab::core::check_param_value(spec, v);  // throws (→ crash report) if the parser let a bad value through
  if (const double* x = std::get_if<double>(&v); x && !std::isfinite(*x)) std::abort();
  if (const auto* items = std::get_if<std::vector<double>>(&v))
    for (double x : *items)
      if (!std::isfinite(x)) std::abort();
  const std::string again = poslab::core::format_param_value(spec, v);
  if (!(poslab::core::parse_param_value(spec, again) == v)) std::abort();
  // The same text through a whole assignment must agree.
  poslab::core::Params p;
  p.set_assignment(std::string(spec.key) + "=" + std::string(text));
  if (!(p.value(spec.key) == v)) std::abort();
  return 0;
}
