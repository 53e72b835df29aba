// Fuzz target: the deck reader (parse_deck, what `deck check`, `deck
// export`, `gui --deck` and the Deck window's Open read) on any bytes.
// Invariants:
//   - bad input raises core::InvalidParameter("deck", …) naming the file,
//     nothing else: no nlohmann exception, no deep recursion, no number
//     conversion escaping;
//   - an accepted deck is whole: every scene's lesson, figure and sliders
//     exist, its state (and its revealed state) are valid parameters;
//   - what is accepted is written back by write_deck and reads back equal;
//   - the JSON reader agrees with nlohmann (json_agreement.hpp).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "app/decks/deck.hpp"
#include "app/lessons/lesson.hpp"
#include "json_agreement.hpp"
#include "poslab/core/errors.hpp"

namespace {

[[noreturn]] void fail(const char* what, std::string_view input) {
  std::fprintf(stderr, "poslab fuzz deck: %s for input \"%.*s\"\n", what,
               static_cast<int>(std::min<std::size_t>(input.size(), 200)), input.data());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > poslab::app::kMaxDeckBytes + 16) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  poslab::fuzz::check_json_agreement(text);
  poslab::app::Deck deck;
  try {
    deck = poslab::app::parse_deck(text, "fuzz.json");
  } catch (const poslab::core::InvalidParameter& e) {
    if (e.key() != "deck") fail("a deck refusal that does not say \"deck\"", text);
    if (std::string_view(e.what()).find("fuzz.json") == std::string_view::npos) fail("a refusal without the file", text);
    return 0;
  }
  // Outside the try: any exception from here on is a finding.
  if (deck.scenes.empty()) fail("a deck without scenes", text);
  for (const poslab::app::Scene& s : deck.scenes) {
    const poslab::app::ViewDef* view = poslab::app::find_view(s.lesson);
    if (!view) fail("an unknown lesson accepted", text);
    if (!s.figure.empty() && !poslab::app::find_figure(*view, s.figure)) fail("an unknown figure accepted", text);
    (void)poslab::app::resolve_view_params(*view, s.session(false).to_params());
    (void)poslab::app::resolve_view_params(*view, s.session(true).to_params());
  }
  if (!(poslab::app::parse_deck(poslab::app::write_deck(deck), "again.json") == deck))
    fail("a deck round trip differs", text);
  return 0;
}
