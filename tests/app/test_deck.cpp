// Decks and guided steps (app/decks/deck.hpp, docs/DECKS.md): what is
// accepted, what is refused (naming the scene and the reason, nothing half
// read), the round trip through write_deck, and every lesson's steps file.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include "app/common/atomic_file.hpp"
#include "app/decks/deck.hpp"
#include "app/common/assets.hpp"
#include "app/common/i18n.hpp"
#include "app/common/messages.hpp"
#include "app/decks/deck_messages.hpp"
#include "app/lessons/common/figures.hpp"
#include "app/lessons/lesson.hpp"
#include "poslab/core/errors.hpp"

using namespace poslab;
using namespace poslab::app;

namespace {

std::string deck_with(const std::string& scenes, const std::string& head = R"("format": "poslab-deck", "version": 1)") {
  return "{" + head + R"(, "title": {"en": "T", "zh": "题"}, "scenes": [)" + scenes + "]}";
}

/// The message parse_deck raises for `text` ("" when it is accepted).
std::string refusal(const std::string& text) {
  try {
    (void)parse_deck(text, "d.json");
  } catch (const core::InvalidParameter& e) {
    CHECK(e.key() == "deck");
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("deck: a full scene is read with every field") {
  const Deck d = parse_deck(deck_with(R"({"lesson": "rope", "params": {"d": 64, "base": 500000, "layout": "half"},
      "figure": "frequencies", "sliders": ["d", "base"], "caption": {"en": "c", "zh": "字"},
      "question": "q?", "answer": {"en": "a", "zh": "答"}, "reveal": {"params": {"d": 8}, "figure": "layouts"},
      "animation": {"key": "base", "from": 100, "to": 10000, "speed": 1, "mode": "bounce", "playing": true}})"),
                            "d.json");
  REQUIRE(d.scenes.size() == 1);
  const Scene& s = d.scenes[0];
  CHECK(d.title.in("en") == "T");
  CHECK(d.title.in("zh") == "题");
  CHECK(s.lesson == "rope");
  CHECK(s.params == std::vector<std::pair<std::string, std::string>>{{"base", "500000"}, {"d", "64"}, {"layout", "half"}});
  CHECK(s.figure == "frequencies");
  CHECK(s.sliders == std::vector<std::string>{"d", "base"});
  CHECK(s.caption.in("zh") == "字");
  CHECK(s.question.in("zh") == "q?");  // one string serves both languages
  CHECK(s.answer.in("en") == "a");
  CHECK(s.reveal_figure == "layouts");
  REQUIRE(s.animation.has_value());
  CHECK(s.animation->mode == PlayMode::bounce);
  // The reveal's params go over the scene's.
  const Session revealed = s.session(true);
  CHECK(revealed.params == std::vector<std::pair<std::string, std::string>>{{"base", "500000"}, {"d", "8"}, {"layout", "half"}});
  CHECK(s.session(false).params == s.params);
}

TEST_CASE("deck: write_deck and parse_deck round-trip") {
  const Deck d = parse_deck(deck_with(R"({"lesson": "sinusoidal", "params": {"d": 500}, "figure": "heatmap",
      "caption": {"en": "one", "zh": "一"}}, {"lesson": "t5", "question": "q", "answer": "a"},
      {"lesson": "alibi", "params": {"heads": 112}})"),
                            "d.json");
  const Deck again = parse_deck(write_deck(d), "again.json");
  CHECK(again == d);
  CHECK(again.scenes.size() == 3);
}

TEST_CASE("deck: bad decks are refused naming the scene and what is wrong") {
  CHECK(refusal(deck_with(R"({"lesson": "rope"})")).empty());
  // the file as a whole
  CHECK(refusal("").find("is empty") != std::string::npos);
  CHECK(refusal(R"({"format": "poslab-deck", "version": 1, "scenes": [)").find("line 1, column 52 (in scenes[0]): expected a value") !=
        std::string::npos);
  CHECK(refusal(R"({"format": "poslab-session", "version": 1, "scenes": []})").find("not a poslab deck") != std::string::npos);
  CHECK(refusal(deck_with(R"({"lesson": "rope"})", R"("format": "poslab-deck", "version": 2)")).find("newer poslab") !=
        std::string::npos);
  CHECK(refusal(deck_with("")).find("has no scenes") != std::string::npos);
  CHECK(refusal("[1, 2]").find("not a poslab deck") != std::string::npos);
  // one scene, named by its 1-based index
  const std::string second = "d.json, scene 2";
  auto refused_in_second = [&](const std::string& scene, const std::string& why) {
    const std::string msg = refusal(deck_with(R"({"lesson": "rope"}, )" + scene));
    CHECK_MESSAGE(msg.find(second) != std::string::npos, msg);
    CHECK_MESSAGE(msg.find(why) != std::string::npos, msg);
  };
  refused_in_second(R"({"lesson": "nope"})", "is not a lesson");
  refused_in_second(R"({"params": {}})", "needs a \"lesson\"");
  refused_in_second(R"({"lesson": "rope", "params": {"d": 7}})", "d = 7");
  refused_in_second(R"({"lesson": "rope", "params": {"nonsense": 1}})", "unknown parameter");
  refused_in_second(R"({"lesson": "rope", "params": {"heads": 8}})", "\"heads\" is not a parameter of rope");
  refused_in_second(R"({"lesson": "rope", "figure": "heatmap"})", "is not a figure of rope");
  refused_in_second(R"({"lesson": "rope", "sliders": ["heads"]})", "slider \"heads\"");
  refused_in_second(R"({"lesson": "rope", "question": "q"})", "needs an \"answer\"");
  refused_in_second(R"({"lesson": "rope", "reveal": {"figure": "dials"}})", "needs a \"question\"");
  refused_in_second(R"({"lesson": "rope", "caption": {"fr": "x"}})", "language");
  refused_in_second(R"({"lesson": "rope", "caption": 3})", "must be text");
  refused_in_second(R"({"lesson": "t5", "params": {"buckets": 32, "bucket_max_distance": 8}})", "invalid parameter");
  refused_in_second(R"({"lesson": "rope", "animation": {"key": "heads", "from": 1, "to": 8}})", "animation");
  // a formula that does not parse is named, with why, in either language
  refused_in_second(R"({"lesson": "rope", "caption": "turn by $\\hat{θ}$"})", "unknown command \\hat");
  refused_in_second(R"({"lesson": "rope", "caption": {"en": "ok", "zh": "$x^{2$"}})", "\"caption\".\"zh\" has a formula");
  // dollars that open no formula are words: a price, or an escaped dollar
  CHECK(refusal(deck_with(R"({"lesson": "rope", "caption": "costs $5 or $10, \\$x\\$ and $x^2$"})")).empty());
  refused_in_second(R"({"lesson": "rope", "hide_figure": true})", "\"hide_figure\" needs a \"question\"");
  refused_in_second(R"({"lesson": "rope", "question": "q", "answer": "a", "hide_figure": 1})", "true or false");
}

TEST_CASE("deck: hide_figure — read, written back, and the frame it shows has no data to answer with") {
  const Deck d = parse_deck(deck_with(R"({"lesson": "sinusoidal", "figure": "dot", "question": "q?", "answer": "a.",
                                          "hide_figure": true, "params": {"m": 5, "n": 8}})"),
                            "d.json");
  REQUIRE(d.scenes.size() == 1);
  CHECK(d.scenes[0].hide_figure);
  CHECK(parse_deck(write_deck(d), "again.json") == d);
  CHECK_FALSE(parse_deck(deck_with(R"({"lesson": "rope"})"), "d.json").scenes[0].hide_figure);
  // The frame: title, subtitle, axes at the data's range, one note; nothing drawn.
  const ViewDef* v = find_view("sinusoidal");
  REQUIRE(v != nullptr);
  core::Params p;
  p.set("m", 5.0);
  p.set("n", 8.0);
  const fig::Figure f = build_figure(*v, *find_figure(*v, "dot"), p, Translator::load(assets_dir(), "en"), 900, 500);
  REQUIRE_FALSE(f.series.empty());
  const fig::Figure frame = lessons::hidden_figure(f, "hidden");
  CHECK(frame.title == f.title);
  CHECK(frame.subtitle == f.subtitle);
  CHECK(frame.series.empty());
  CHECK(frame.heatmaps.empty());
  CHECK(frame.ref_lines.empty());
  CHECK(frame.bands.empty());
  CHECK(frame.arrows.empty());
  REQUIRE(frame.notes.size() == 1);
  CHECK(frame.notes[0].text == "hidden");
  const fig::DataRange r = fig::data_range(f);
  CHECK(frame.x.min == r.x_min);
  CHECK(frame.x.max == r.x_max);
  CHECK(frame.y.min == r.y_min);
  CHECK(frame.y.max == r.y_max);
  // the steps that use it: sinusoidal 6 and relative 4 ask about the figure they hide
  for (const char* lesson : {"sinusoidal", "relative"}) {
    bool hides = false;
    for (const Scene& s : lesson_steps(lesson)->scenes) hides = hides || s.hide_figure;
    CHECK(hides);
  }
}

TEST_CASE("deck: a missing or unreadable file is an I/O error, a folder too") {
  const auto dir = std::filesystem::temp_directory_path() / ("poslab-test-deck-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  CHECK_THROWS_AS(load_deck_file(dir / "missing.json"), IoError);
  CHECK_THROWS_AS(load_deck_file(dir), IoError);
  save_deck_file(dir / "ok.json", parse_deck(deck_with(R"({"lesson": "rope"})"), "x"));
  CHECK(load_deck_file(dir / "ok.json").scenes.size() == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("steps: every lesson has 3–6 steps that load, belong to it, and have texts in both languages") {
  for (const ViewDef& v : view_defs()) {
    CAPTURE(v.id);
    const Deck* steps = lesson_steps(v.id);  // raises on a broken file
    REQUIRE(steps);  // every lesson is taught in steps
    // 3–6 steps: enough to build the idea, few enough to keep one idea each.
    CHECK(steps->scenes.size() >= 3);
    CHECK(steps->scenes.size() <= 6);
    for (const Scene& s : steps->scenes) {
      CHECK(s.lesson == v.id);
      CHECK_FALSE(s.caption.en.empty());
      CHECK_FALSE(s.caption.zh.empty());
      if (s.has_question()) {
        CHECK_FALSE(s.question.zh.empty());
        CHECK_FALSE(s.answer.zh.empty());
      }
      CHECK_FALSE(s.figure.empty());  // every step brings a figure forward
    }
  }
}

TEST_CASE("deck: every refusal reads in English as the command line prints it, and wholly in Chinese in a Chinese UI") {
  // A lecturer with a Chinese UI saw an English sentence inside the Chinese
  // frame ("无法打开讲稿：deck = d.json, scene 2, …: "captoin" is not a field
  // …"). Every deck refusal carries a reason the app formats in its language;
  // in English it must stay exactly what `poslab deck check` prints.
  const Translator& en = english_translator();
  const Translator zh = translator_for("zh");
  REQUIRE(zh.lang() == "zh");
  const std::string big(kMaxDeckBytes + 1, ' ');
  const std::vector<std::string> decks = {
      "",
      "[1, 2]",
      deck_with(R"({"lesson": "rope"})", R"("format": "poslab-deck", "version": 2)"),
      deck_with(R"({"lesson": "rope"})", R"("format": "poslab-deck", "version": 0)"),
      deck_with(R"({"lesson": "rope"})", R"("format": "poslab-deck")"),
      R"({"format": "poslab-deck", "version": 1})",
      deck_with(""),
      deck_with(R"({"lesson": "rope"})", R"("format": "poslab-deck", "version": 1, "titel": "x")"),
      deck_with(R"(3)"),
      deck_with(R"({"params": {}})"),
      deck_with(R"({"lesson": "nope"})"),
      deck_with(R"({"lesson": "rope", "captoin": "x"})"),
      deck_with(R"({"lesson": "rope", "zzzzzzzzzz": "x"})"),
      deck_with(R"({"lesson": "rope", "params": {"d": 7}})"),
      deck_with(R"({"lesson": "rope", "params": {"d": 1e999}})"),
      deck_with(R"({"lesson": "rope", "params": {"heads": 8}})"),
      deck_with(R"({"lesson": "rope", "figure": "heatmap"})"),
      deck_with(R"({"lesson": "rope", "figure": 3})"),
      deck_with(R"({"lesson": "rope", "sliders": "d"})"),
      deck_with(R"({"lesson": "rope", "sliders": ["heads"]})"),
      deck_with(R"({"lesson": "rope", "question": "q"})"),
      deck_with(R"({"lesson": "rope", "reveal": 3, "question": "q", "answer": "a"})"),
      deck_with(R"({"lesson": "rope", "reveal": {"figure": "dials"}})"),
      deck_with(R"({"lesson": "rope", "reveal": {"figuer": "dials"}, "question": "q", "answer": "a"})"),
      deck_with(R"({"lesson": "rope", "caption": {"fr": "x"}})"),
      deck_with(R"({"lesson": "rope", "caption": {"en": 3}})"),
      deck_with(R"({"lesson": "rope", "caption": {"zh": "只有中文"}})"),
      deck_with(R"({"lesson": "rope", "caption": 3})"),
      deck_with(R"({"lesson": "rope", "caption": "turn by $\\hat{θ}$"})"),
      deck_with(R"({"lesson": "t5", "params": {"buckets": 32, "bucket_max_distance": 8}})"),
      deck_with(R"({"lesson": "rope", "animation": {"key": "heads", "from": 1, "to": 8}})"),
      deck_with(R"({"lesson": "rope", "animation": {"kee": "d"}})"),
      deck_with(R"({"lesson": "rope", "hide_figure": true})"),
      deck_with(R"({"lesson": "rope", "question": "q", "answer": "a", "hide_figure": 1})"),
      big,
      [] {
        std::string many;
        for (std::size_t i = 0; i <= kMaxScenes; ++i) many += std::string(i ? ", " : "") + R"({"lesson": "rope"})";
        return deck_with(many);
      }(),
  };
  std::set<std::string> ids;
  for (const std::string& text : decks) {
    CAPTURE(text.substr(0, 120));
    try {
      (void)parse_deck(text, "d.json");
      FAIL("accepted");
    } catch (const core::InvalidParameter& e) {
      ids.insert(e.reason().id);
      const std::string in_en = error_text(en, e), in_zh = error_text(zh, e);
      CAPTURE(in_zh);
      CHECK(in_en == e.what());
      CHECK(in_zh != in_en);
      // No English sentence left: none of the words the English sentences
      // are made of (the user's own names and JSON's words stay as written).
      for (const char* word : {"is not", "must be", "needs", "scene ", "line ", "column", "has no", "invalid", "should"})
        CHECK_MESSAGE(in_zh.find(word) == std::string::npos, word);
      static const std::regex placeholder(R"(\{[a-z_:]+\})");
      CHECK_FALSE(std::regex_search(in_zh, placeholder));  // no {name} left unfilled
    }
  }
  // Every sentence a deck file can trigger was triggered above.
  for (const auto& [key, english] : deck_sentences()) {
    if (!key.starts_with("error.deck_")) continue;
    const std::string id = key.substr(6);
    if (id == "deck_step_lesson" || id == "deck_session") continue;  // the lessons' own step files; session-level refusals
    CHECK_MESSAGE(ids.count(id) == 1, id);
  }
}
