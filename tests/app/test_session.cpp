// Session files and state strings (app/common/session): round trips, and
// every kind of bad input refused with a clear message and nothing half-read.

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/common/atomic_file.hpp"
#include "app/common/session.hpp"

using namespace poslab;
using app::Session;
using app::SessionAnimation;

namespace {

Session sample() {
  Session s;
  s.lesson = "rope";
  s.preset = "llama3.1-8b";
  s.theme = "projector";
  s.params = {{"base", "500000"}, {"d", "64"}, {"layout", "half"}, {"pos", "0:9,100"}};
  s.animation = SessionAnimation{.key = "m", .from = 0, .to = 64, .speed = 2, .mode = app::PlayMode::bounce, .playing = true};
  return s;
}

/// The message of the InvalidParameter `f` raises ("" if none).
template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const core::InvalidParameter& e) {
    return e.what();
  }
  return {};
}

std::filesystem::path temp_dir() {
  auto d = std::filesystem::temp_directory_path() / ("poslab-session-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("a session survives writing and reading") {
  const Session s = sample();
  const Session back = app::parse_session(app::write_session(s), "test");
  CHECK(back == s);
  CHECK(back.to_params().integer("d") == 64);
  CHECK(back.to_params().list("pos").size() == 11);
}

TEST_CASE("set_params keeps exactly the explicitly set keys, typed") {
  core::Params p;
  p.set_text("base", "1e6");
  p.set_text("relative", "-3:3");
  Session s;
  s.lesson = "t5";
  s.set_params(p);
  REQUIRE(s.params.size() == 2);
  CHECK(s.params[0] == std::pair<std::string, std::string>{"base", "1000000"});
  CHECK(s.params[1] == std::pair<std::string, std::string>{"relative", "-3:3"});
  CHECK(s.to_params() == p);
}

TEST_CASE("a session file round trip goes through the disk atomically") {
  const auto dir = temp_dir();
  const auto path = dir / "s.poslab.json";
  app::save_session_file(path, sample());
  CHECK(app::load_session_file(path) == sample());
  // no temporary file left behind
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
  CHECK(files == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hand-written sessions may give numbers and booleans, not other types") {
  const Session s = app::parse_session(
      R"({"format": "poslab-session", "version": 1, "lesson": "t5", "params": {"buckets": 16, "bidirectional": false}})",
      "hand");
  CHECK(s.to_params().integer("buckets") == 16);
  CHECK_FALSE(s.to_params().boolean("bidirectional"));
  CHECK(refusal([] {
          app::parse_session(R"({"format":"poslab-session","version":1,"lesson":"t5","params":{"d":[1,2]}})", "x");
        }).find("must be text as typed") != std::string::npos);
  CHECK(refusal([] {
          app::parse_session(R"({"format":"poslab-session","version":1,"lesson":"t5","params":{"d":{"a":1}}})", "x");
        }) != "");
}

TEST_CASE("bad session files are refused with a reason") {
  struct Case {
    const char* text;
    const char* reason;
  };
  const Case cases[] = {
      {"", "is empty"},
      {"   \n", "is empty"},
      {R"({"format": "poslab-session", "version": 1, "lesson": "ro)", "never closed with a double quote"},  // truncated
      {"\x01\x02garbage", "line 1, column 1: expected a value"},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope",})", "line 1, column 60: a ',' before '}'"},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "parms": {}})", "did you mean \"params\""},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "params": {"d": 64, "d": 32}})",
       "the key \"d\" is given twice"},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "params": {"bsae": 64}})", "did you mean \"base\""},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "animation": {"key": "m", "from": 0, "to": 1, "sped": 2}})",
       "did you mean \"speed\""},
      {R"([1, 2, 3])", "not a poslab session"},
      {R"({"id": "llama3.1-8b", "params": {}})", "not a poslab session"},  // a preset, not a session
      {R"({"format": "poslab-session", "lesson": "rope"})", "no version"},
      {R"({"format": "poslab-session", "version": "1", "lesson": "rope"})", "no version"},
      {R"({"format": "poslab-session", "version": 2, "lesson": "rope"})", "newer poslab"},
      {R"({"format": "poslab-session", "version": 1})", "needs a \"lesson\""},
      {R"({"format": "poslab-session", "version": 1, "lesson": 7})", "needs a \"lesson\""},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "params": []})", "must be an object"},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "params": {"nope": "1"}})", "unknown parameter"},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "params": {"d": "7"}})", "d = 7"},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "theme": "neon"})", "theme must be"},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "theme": 3})", "must be text"},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "animation": 5})", "must be an object"},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "animation": {"key": "layout", "from": 0, "to": 1}})",
       "numeric parameter"},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "animation": {"key": "m", "from": 0}})",
       "needs \"to\""},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "animation": {"key": "m", "from": 0, "to": 1, "mode": "spin"}})",
       "mode"},
      {R"({"format": "poslab-session", "version": 1, "lesson": "rope", "animation": {"key": "m", "from": 0, "to": 1, "speed": 1e9}})",
       "speed"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const std::string why = refusal([&] { app::parse_session(c.text, "bad.json"); });
    CHECK(why.find(c.reason) != std::string::npos);
    CHECK(why.find("bad.json") != std::string::npos);  // names the file
  }
}

TEST_CASE("hostile sessions: deep nesting, huge arrays, huge files") {
  // Nesting far beyond what the format needs is refused before parsing.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  CHECK(refusal([&] { app::parse_session(deep, "deep"); }).find("nested deeper than 8 levels") != std::string::npos);
  const std::string deep_obj = R"({"format":"poslab-session","version":1,"lesson":"rope","x":)" +
                               std::string(5000, '[') + std::string(5000, ']') + "}";
  CHECK(refusal([&] { app::parse_session(deep_obj, "deep"); }).find("nested deeper than 8 levels") != std::string::npos);
  // Brackets inside strings do not count as nesting: this is refused for its mode, not its depth.
  CHECK(refusal([] {
          app::parse_session(R"({"format":"poslab-session","version":1,"lesson":"rope",)"
                             R"("animation":{"key":"m","from":0,"to":1,"mode":"[[[[[[[[[[[[[[[["}})",
                             "s");
        }).find("mode = [[[[") != std::string::npos);
  // A huge array where a value belongs.
  std::string huge = R"({"format":"poslab-session","version":1,"lesson":"rope","params":{"pos":[)";
  for (int i = 0; i < 200000; ++i) huge += "1,";
  huge += "1]}}";
  CHECK(refusal([&] { app::parse_session(huge, "huge"); }).find("must be text") != std::string::npos);
  // More than kMaxSessionBytes is refused unread.
  CHECK(refusal([] { app::parse_session(std::string(app::kMaxSessionBytes + 1, ' '), "big"); }).find("too large") !=
        std::string::npos);
  const auto dir = temp_dir();
  {
    std::ofstream big(dir / "big.json");
    big << std::string(app::kMaxSessionBytes + 10, ' ');
  }
  CHECK(refusal([&] { app::load_session_file(dir / "big.json"); }).find("too large") != std::string::npos);
  CHECK_THROWS_AS(app::load_session_file(dir / "missing.json"), app::IoError);
  std::filesystem::remove_all(dir);
}

TEST_CASE("lesson and preset ids must be words that can be written back") {
  // Found by fuzz_session: a state string with control bytes and invalid UTF-8
  // in its lesson id was accepted, and writing that session back (autosave,
  // Ctrl+S) then threw from the JSON writer. Ids are now checked on the way in.
  const std::string bad_ids[] = {"sca lin", std::string("scalin\0\x81", 8), "r\xff", "a=b", "x\"y", "\t", std::string(65, 'r')};
  for (const std::string& id : bad_ids) {
    CAPTURE(id);
    CHECK(refusal([&] { app::parse_state_string("poslab:1 lesson=" + id); }) != "");
    CHECK(refusal([&] { app::parse_state_string("poslab:1 lesson=rope preset=" + id); }) != "");
    // In a file the id is a JSON string (escaped); the JSON parser itself refuses invalid UTF-8.
    std::string quoted;
    for (char c : id) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
      quoted += (c == '"' || static_cast<unsigned char>(c) < 0x20) ? std::string(buf) : std::string(1, c);
    }
    const std::string file = R"({"format":"poslab-session","version":1,"lesson":")" + quoted + R"("})";
    const std::string preset = R"({"format":"poslab-session","version":1,"lesson":"rope","preset":")" + quoted + R"("})";
    const bool utf8 = id.find('\xff') == std::string::npos && id.find('\x81') == std::string::npos;
    CHECK(refusal([&] { app::parse_session(file, "ids.json"); }).find(utf8 ? "invalid lesson id" : "not valid UTF-8") != std::string::npos);
    CHECK(refusal([&] { app::parse_session(preset, "ids.json"); }).find(utf8 ? "invalid preset id" : "not valid UTF-8") != std::string::npos);
  }
  CHECK(refusal([] { app::parse_state_string("poslab:1 lesson=rope lesson=t5"); }).find("given twice") != std::string::npos);
  // Every real lesson and preset id passes, and what passes writes back.
  const Session s = app::parse_state_string("poslab:1 lesson=rope-2d preset=llama3.1-8b");
  CHECK(app::parse_session(app::write_session(s), "back") == s);
  CHECK(app::parse_state_string(app::session_state_string(s)) == s);
}

TEST_CASE("state strings: compact, readable, round trip") {
  Session s = sample();
  s.theme.clear();
  s.animation.reset();  // the state string carries lesson, preset and parameters
  const std::string text = app::session_state_string(s);
  CHECK(text == "poslab:1 lesson=rope preset=llama3.1-8b base=500000 d=64 layout=half pos=0:9,100");
  CHECK(app::parse_state_string(text) == s);
  CHECK(app::parse_state_string("\n  " + text + "  \r\n") == s);  // pasted with blanks around
}

TEST_CASE("bad state strings are refused with a reason") {
  struct Case {
    std::string text, reason;
  };
  const Case cases[] = {
      {"", "not a poslab state"},
      {"hello world", "not a poslab state"},
      {"poslab:9 lesson=rope", "newer poslab"},
      {"poslab:x lesson=rope", "unknown version"},
      {"poslab:1 base=10", "names no lesson"},
      {"poslab:1 lesson=rope base", "KEY=VALUE"},
      {"poslab:1 lesson=rope =5", "KEY=VALUE"},
      {"poslab:1 lesson=rope base=0.5", "base = 0.5"},
      {"poslab:1 lesson=rope wat=1", "unknown parameter"},
      {"poslab:1 lesson=rope d=64 d=32", "given twice"},
      {"poslab:1 lesson=rope " + std::string(2u << 20, 'x'), "too long"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text.substr(0, 60));
    CHECK(refusal([&] { app::parse_state_string(c.text); }).find(c.reason) != std::string::npos);
  }
}

TEST_CASE("play modes by name") {
  for (auto m : {app::PlayMode::loop, app::PlayMode::bounce, app::PlayMode::once})
    CHECK(app::parse_play_mode(app::play_mode_name(m)) == m);
  CHECK_THROWS_AS(app::parse_play_mode("spin"), core::InvalidParameter);
}
