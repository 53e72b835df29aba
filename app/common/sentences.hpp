// English sentences of refusals kept beside the code that raises them, and
// the one filler that turns a core::Reason into its English what():
// json_input.cpp (the JSON reader) and decks/deck.cpp (a deck's fields) keep
// their sentences as tables; assets/i18n/en holds the same texts under
// "error.<id>" / "error.phrase.<id>" (tests/app/test_i18n.cpp checks), and
// messages.cpp's error_text formats the same reason in the UI's language.

#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "poslab/core/errors.hpp"

namespace poslab::app {

struct Sentence {
  const char* id;
  const char* text;
};

/// Fills {name} from `args` as Translator::format does (the innermost
/// braces; a name that is no argument stays as written).
std::string fill_sentence(std::string_view text, const std::vector<std::pair<std::string, std::string>>& args);

/// The English text of `r` from `sentences` (by r.id) and `phrases` (its
/// "@name" arguments hold phrase ids, filled first, as error_text does);
/// "" when r.id is not among `sentences`.
std::string english_sentence(const core::Reason& r, std::span<const Sentence> sentences,
                             std::span<const Sentence> phrases);

/// `r`'s value_id filled the same way ("" when it is not among `sentences`).
std::string english_value(const core::Reason& r, std::span<const Sentence> values, std::span<const Sentence> phrases);

/// `r` with `nested`'s key, value, English and reason in its arguments
/// ("nested_key", …, "nested:<name>"), so that a UI can say the inner
/// refusal in its own language too (a deck's "invalid parameter: d = 7: must
/// be an even integer …"); error_text fills {detail} with it.
core::Reason with_nested(core::Reason r, const core::InvalidParameter& nested);

/// The refusal `with_nested` put in `r`, if any.
std::optional<core::InvalidParameter> nested_in(const core::Reason& r);

}  // namespace poslab::app
