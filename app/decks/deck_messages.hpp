// The sentences a deck's refusals are made of, as translation keys
// ("error.deck_not_a_lesson", "error.value.deck_where",
// "error.phrase.deck_scene", …) with their English: the command line prints
// the English (CONTRACT: "deck = <where>: <why>"), the app the same reason in
// its language; assets/i18n/en/deck.json holds the same texts
// (tests/app/test_i18n.cpp checks).

#pragma once

#include <string>
#include <utility>
#include <vector>

namespace poslab::app {

std::vector<std::pair<std::string, std::string>> deck_sentences();

}  // namespace poslab::app
