// Fuzz target: the session-file loader (parse_session, what Ctrl+O, `poslab
// gui --session` and the autosave read) and the state-string parser
// (parse_state_string, what "Paste state" reads), both on every input.
// Invariants:
//   - bad input raises InvalidParameter naming "session" / "state", nothing else;
//   - an accepted session is whole: a lesson, its parameters sorted, unique and
//     valid together, an animation in range;
//   - what is accepted can be written back (file and state string) and reads
//     back the same, so a session once opened can always be saved and copied;
//   - a session naming a real lesson resolves for it or is refused cleanly
//     (what the GUI does before applying it).

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

#include "app/common/session.hpp"
#include "app/lessons/lesson.hpp"
#include "fuzz_input.hpp"

namespace {

using poslab::app::Session;

[[noreturn]] void fail(const char* what, std::string_view input) {
  std::fprintf(stderr, "poslab fuzz: %s for input \"%.*s\"\n", what, static_cast<int>(std::min<std::size_t>(input.size(), 200)),
               input.data());
  std::abort();
}

/// What must hold of any session either parser accepted.
void check_accepted(const Session& s, std::string_view input) {
  if (s.lesson.empty()) fail("a session without a lesson", input);
  for (std::size_t i = 0; i < s.params.size(); ++i) {
    if (i > 0 && !(s.params[i - 1].first < s.params[i].first)) fail("parameters not sorted and unique", input);
    const poslab::core::ParamSpec* spec = poslab::core::find_param(s.params[i].first);
    if (!spec) fail("an unknown parameter accepted", input);
    (void)poslab::core::parse_param_value(*spec, s.params[i].second);  // throws → crash report
  }
  const poslab::core::Params params = s.to_params();  // valid together, or it throws
  if (s.animation) {
    const auto& a = *s.animation;
    if (!std::isfinite(a.from) || !std::isfinite(a.to) || !(a.speed >= 0.05 && a.speed <= 20))
      fail("an animation out of range accepted", input);
  }
  // Written as a file, it reads back identical. (Any exception from here on
  // is a finding: what was accepted must be writable and readable again.)
  if (!(poslab::app::parse_session(poslab::app::write_session(s), "again") == s)) fail("a session file round trip differs", input);
  // Copied as a state string, lesson, preset and parameters read back identical.
  const Session pasted = poslab::app::parse_state_string(poslab::app::session_state_string(s));
  if (pasted.lesson != s.lesson || pasted.preset != s.preset || pasted.params != s.params)
    fail("a state string round trip differs", input);
  // What the GUI does before applying it: resolve the lesson's parameters.
  for (const auto& view : poslab::app::view_defs())
    if (view.id == s.lesson) {
      try {
        (void)poslab::app::resolve_view_params(view, params);
      } catch (const poslab::core::InvalidParameter&) {
      }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > poslab::app::kMaxSessionBytes + 16) return 0;  // the size check itself is in the corpus
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::optional<Session> file, state;
  try {
    file = poslab::app::parse_session(text, "fuzz.json");
  } catch (const poslab::core::InvalidParameter& e) {
    if (e.key() != "session") fail("a session refusal that does not say \"session\"", text);
    if (std::string(e.what()).find("fuzz.json") == std::string::npos) fail("a session refusal that does not name the file", text);
  }
  try {
    state = poslab::app::parse_state_string(text);
  } catch (const poslab::core::InvalidParameter& e) {
    if (e.key() != "state") fail("a state refusal that does not say \"state\"", text);
  }
  // Outside the try blocks: any exception here is a finding, not a refusal.
  if (file) check_accepted(*file, text);
  if (state) check_accepted(*state, text);
  return 0;
}
