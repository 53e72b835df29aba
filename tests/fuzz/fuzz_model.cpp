// Fuzz target: `poslab model`'s reader (read_model_config_text, what the
// CLI, `--model` and File → Open model config read) on any bytes.
// Invariants:
//   - bad input raises core::InvalidParameter, nothing else: no std::stod or
//     out_of_range escaping (issue 32: subnormals, 1e999), no nlohmann
//     exception, no deep recursion (the depth is bounded while parsing);
//   - an accepted config gives parameters poslab accepts together, and its
//     three reports (json, text, md) are made without an exception; text and
//     md hold no control character but the newline (no ESC, BEL, NUL from a
//     model_type reaches the terminal) and md no '<' (no HTML survives);
//   - the JSON reader agrees with nlohmann (json_agreement.hpp).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "app/model/model_config.hpp"
#include "json_agreement.hpp"
#include "poslab/core/errors.hpp"
#include "poslab/core/params.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  poslab::fuzz::check_json_agreement(text);
  poslab::app::ModelReading reading;
  try {
    reading = poslab::app::read_model_config_text(text);
  } catch (const poslab::core::InvalidParameter& e) {
    if (std::string_view(e.what()).empty()) std::abort();
    return 0;
  }
  // Outside the try: any exception from here on is a finding.
  poslab::core::Params params;
  for (const std::string& a : poslab::app::model_assignments(reading)) params.set_assignment(a);
  (void)poslab::app::model_reading_json(reading).dump();
  const std::string text_out = poslab::app::model_reading_text(reading);
  const std::string md_out = poslab::app::model_reading_md(reading);
  for (const std::string* out : {&text_out, &md_out})
    for (char c : *out)
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7F) std::abort();
  if (md_out.find('<') != std::string::npos) std::abort();
  return 0;
}
