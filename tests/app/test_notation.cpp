// The notation card (assets/notation.json) and its page (docs/NOTATION.md)
// agree, every symbol means one thing, and every parameter it names exists.

#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <string_view>
#include <sstream>

#include "app/common/assets.hpp"
#include "app/common/notation.hpp"
#include "poslab/core/params.hpp"

using namespace poslab;

TEST_CASE("notation: the card loads, symbols are unique, both languages, known parameters") {
  const auto card = app::load_notation(app::assets_dir());
  CHECK(card.size() >= 30);
  std::set<std::string> seen;
  for (const app::NotationEntry& e : card) {
    CAPTURE(e.symbol);
    CHECK(seen.insert(e.symbol).second);
    CHECK_FALSE(e.en.empty());
    CHECK_FALSE(e.zh.empty());
    if (!e.key.empty()) CHECK(core::find_param(e.key) != nullptr);
    CHECK(e.en.find("_{") == std::string::npos);  // never TeX source
    CHECK(e.en.find("^{") == std::string::npos);
  }
}

TEST_CASE("notation: the symbols a caption uses are found, a letter only as a word") {
  const auto card = app::load_notation(app::assets_dir());
  auto names = [&](std::string_view text) {
    std::set<std::string> out;
    for (const app::NotationEntry* e : app::symbols_in(text, card)) out.insert(e->symbol);
    return out;
  };
  const auto found = names("The score of q′ against k′ depends on r = m − n and θᵢ only");
  CHECK(found.count("m") == 1);
  CHECK(found.count("n") == 1);
  CHECK(found.count("r") == 1);
  CHECK(found.count("θᵢ") == 1);
  CHECK(found.count("q′, k′") == 1);
  CHECK(found.count("q, k, v") == 0);  // q′ is not q: the prime makes it another symbol
  CHECK(names("the mean of many numbers").empty());  // no m, n, s inside words
}

TEST_CASE("notation: docs/NOTATION.md lists every symbol of the card with its meaning") {
  std::ifstream in(std::string(POSLAB_SOURCE_DIR) + "/docs/NOTATION.md");
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  for (const app::NotationEntry& e : app::load_notation(app::assets_dir())) {
    CAPTURE(e.symbol);
    CHECK(doc.find("| " + e.symbol + " |") != std::string::npos);
    CHECK(doc.find(e.en) != std::string::npos);
    CHECK(doc.find(e.zh) != std::string::npos);
  }
}
