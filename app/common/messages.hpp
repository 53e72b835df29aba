#pragma once
// Error messages in the user's language. core::InvalidParameter carries a
// core::Reason (an id and named arguments); this turns it into one line from
// the translations:
//
//   error.line          "{key} = {value}: {allowed}"
//   error.<id>          the allowed phrase of each reason, e.g.
//                       error.greater_than = "must be > {other} = {other_value}"
//   error.value.<id>    a value that holds words ("({n} rows)")
//   error.phrase.<id>   a part chosen among a few: the argument {"@name", id}
//                       fills {name} with this phrase (its own {…} filled
//                       from the arguments), e.g. what a JSON reader expected
//                       (app/common/json_input.hpp)
//   error.spec.*, error.bound.*
//                       describe_allowed(spec) rebuilt from the ParamSpec
//
// Every template may use the reason's arguments plus {key}, {value} and
// {spec} (the allowed phrase of the key's ParamSpec, when the key is one).
// In English the result is byte-identical to what() (tests/app/test_i18n.cpp
// checks every id); an exception without a reason shows what().

#include <exception>
#include <string>

#include "app/common/i18n.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app {

/// The one-line message of `e` in tr's language (what() when it has no reason
/// or its id has no text).
std::string error_text(const Translator& tr, const std::exception& e);

/// core::describe_allowed(spec) in tr's language, e.g. "必须是偶数，取值范围 2..8192".
std::string allowed_text(const Translator& tr, const core::ParamSpec& spec);

/// The English texts (loaded once from assets_dir()), for code that must say
/// something before a language is chosen; empty when the assets are missing
/// (error_text then shows what()).
const Translator& english_translator();

/// The texts of `lang` ("" = the system language) for a message that comes
/// before the language is checked; English when `lang` is neither en nor zh
/// or its files cannot be read.
Translator translator_for(std::string_view lang);

}  // namespace poslab::app
