#pragma once
// Shared by the fuzz targets that read JSON files (model, deck): the one
// reader (app/common/json_input.hpp) and nlohmann::json agree on every input
// — what one refuses as broken the other refuses, what one reads the other
// reads the same — and a refusal always says where.

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

#include "app/common/json_input.hpp"

namespace poslab::fuzz {

inline void check_json_agreement(std::string_view text) {
  using poslab::app::JsonInputError;
  using poslab::app::JsonProblem;
  bool ours = true;
  nlohmann::json value;
  try {
    value = poslab::app::parse_json_input(text);
  } catch (const JsonInputError& e) {
    ours = false;
    if (e.problem() == JsonProblem::syntax && !e.place().known()) {
      std::fprintf(stderr, "poslab fuzz: a JSON refusal without its place: %s\n", e.what());
      std::abort();
    }
    if (e.problem() != JsonProblem::syntax) return;  // depth, a key twice, 1e999: nlohmann may read those
  }
  // nlohmann's lexer takes a NUL byte for the end of the input and reads
  // "2002\0garbage" as 2002; JSON (RFC 8259) allows no NUL anywhere, not even
  // inside a string, and the one reader refuses it as broken.
  if (text.find('\0') != std::string_view::npos) {
    if (ours) {
      std::fprintf(stderr, "poslab fuzz: json_input reads a text with a NUL byte\n");
      std::abort();
    }
    return;
  }
  const bool theirs = nlohmann::json::accept(text.begin(), text.end());
  if (ours != theirs) {
    std::fprintf(stderr, "poslab fuzz: json_input %s what nlohmann %s\n", ours ? "reads" : "refuses",
                 theirs ? "reads" : "refuses");
    std::abort();
  }
  if (ours && value != nlohmann::json::parse(text.begin(), text.end())) {
    std::fprintf(stderr, "poslab fuzz: json_input and nlohmann read different values\n");
    std::abort();
  }
}

}  // namespace poslab::fuzz
