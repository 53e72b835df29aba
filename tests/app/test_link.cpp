// app/common/link.hpp: the state of a lesson in a link (the browser's
// address, the desktop's "Copy link").
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "app/common/link.hpp"

using namespace poslab::app;

TEST_CASE("link: percent-encoding round-trips every byte string") {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string s(static_cast<std::size_t>(rng() % 24), '\0');
    for (char& c : s) c = static_cast<char>(rng() % 256);
    const std::string e = url_encode(s);
    for (const char c : e)  // only characters a fragment carries as they are
      CHECK(std::string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~,:()%").find(c) !=
            std::string::npos);
    std::string back;
    REQUIRE(url_decode(e, back));
    CHECK(back == s);
  }
  std::string out;
  CHECK(url_decode("a+b%2C%3a", out));
  CHECK(out == "a b,:");
  CHECK_FALSE(url_decode("%4", out));
  CHECK_FALSE(url_decode("%zz", out));
  CHECK_FALSE(url_decode("abc%", out));
  CHECK(url_encode("0:9,100") == "0:9,100");
  CHECK(url_encode("a b&c=d#") == "a%20b%26c%3Dd%23");
}

TEST_CASE("link: a fragment names the lesson, its parameters and the page's options") {
  const LinkRequest r = parse_link("#view=scaling&factor=32&method=llama3&pos=0%3A9%2C100&step=2&theme=light&lang=zh");
  CHECK(r.error.empty());
  CHECK(r.view == "scaling");
  REQUIRE(r.params.size() == 3);
  CHECK(r.params[0] == std::pair<std::string, std::string>{"factor", "32"});
  CHECK(r.params[1] == std::pair<std::string, std::string>{"method", "llama3"});
  CHECK(r.params[2] == std::pair<std::string, std::string>{"pos", "0:9,100"});
  CHECK(r.step == 2);
  CHECK(r.theme == "light");
  CHECK(r.lang == "zh");
  const Session s = link_session(r);
  CHECK(s.lesson == "scaling");
  CHECK(s.params.front().first == "factor");  // sorted by key, as a Session keeps them

  CHECK(parse_link("").empty());
  CHECK(parse_link("#").empty());
  CHECK(parse_link("view=rope&&").view == "rope");
}

TEST_CASE("link: what is malformed is named, the rest still read") {
  LinkRequest r = parse_link("view=rope&base");
  CHECK(r.view == "rope");
  CHECK(r.error.find("base") != std::string::npos);
  r = parse_link("view=rope&base=%G0");
  CHECK(r.error.find("%") != std::string::npos);
  r = parse_link("view=rope&step=0");
  CHECK(r.error.find("step") != std::string::npos);
  r = parse_link("view=rope&step=2x");
  CHECK(r.error.find("step") != std::string::npos);
}

TEST_CASE("link: the state string form") {
  const LinkRequest r = parse_link("state=poslab%3A1%20lesson%3Drope%20base%3D500000");
  CHECK(r.error.empty());
  const Session s = link_session(r);
  CHECK(s.lesson == "rope");
  REQUIRE(s.params.size() == 1);
  CHECK(s.params[0] == std::pair<std::string, std::string>{"base", "500000"});
  CHECK_THROWS(link_session(parse_link("state=nonsense")));
}

TEST_CASE("link: the page's fragment reads back as the same session (random sessions)") {
  std::mt19937 rng(5);
  const std::vector<std::string_view> keys = {"base", "d", "factor", "method", "pos"};
  const std::vector<std::string> values = {"500000", "128", "0:9,100", "llama3", "1e-7", "a b&c", "π/2"};
  for (int trial = 0; trial < 500; ++trial) {
    Session s;
    s.lesson = trial % 2 ? "scaling" : "rope-2d";
    for (std::string_view k : keys)
      if (rng() % 2) s.params.emplace_back(std::string(k), values[rng() % values.size()]);
    if (rng() % 3 == 0) s.params.emplace_back("zeta_not_read", "1");  // a key the lesson does not read
    const std::string f = link_fragment(s, keys);
    CHECK(f.rfind("view=" + s.lesson, 0) == 0);
    CHECK(f.find("zeta_not_read") == std::string::npos);
    const Session back = link_session(parse_link(f));
    Session want = s;
    std::erase_if(want.params, [](const auto& p) { return p.first == "zeta_not_read"; });
    CHECK(back.lesson == want.lesson);
    CHECK(back.params == want.params);
  }
}

TEST_CASE("link: an embed names one figure and its sliders; its fragment reads back") {
  LinkRequest r = parse_link("#embed&view=rope&figure=frequencies&sliders=d,base&d=128&theme=light&lang=zh");
  CHECK(r.error.empty());
  CHECK(r.embed);
  CHECK(r.view == "rope");
  CHECK(r.figure == "frequencies");
  CHECK(r.sliders == std::vector<std::string>{"d", "base"});
  REQUIRE(r.params.size() == 1);  // figure, sliders, theme and lang are not parameters
  CHECK(r.params[0] == std::pair<std::string, std::string>{"d", "128"});
  CHECK(r.theme == "light");
  CHECK(r.lang == "zh");
  CHECK(parse_link("embed=1&view=rope").embed);
  CHECK_FALSE(parse_link("view=rope").embed);
  CHECK(parse_link("embed&sliders=,d,,base,").sliders == std::vector<std::string>{"d", "base"});
  CHECK(parse_link("embed&sliders=").sliders.empty());
  CHECK_FALSE(parse_link("embed=maybe").embed);  // (then a parameter "embed", which no lesson has: refused by name)

  // Written and read back, random sessions and options.
  std::mt19937 rng(41);
  const std::vector<std::string_view> keys = {"base", "d", "factor", "method", "pos"};
  const std::vector<std::string> values = {"500000", "128", "0:9,100", "llama3", "a b&c", "π/2"};
  for (int trial = 0; trial < 300; ++trial) {
    Session s;
    s.lesson = "scaling";
    for (std::string_view k : keys)
      if (rng() % 2) s.params.emplace_back(std::string(k), values[rng() % values.size()]);
    EmbedOptions e;
    if (rng() % 2) e.figure = "ratio";
    for (std::string_view k : keys)
      if (rng() % 3 == 0) e.sliders.emplace_back(k);
    if (rng() % 2) e.theme = "projector";
    if (rng() % 2) e.lang = "zh";
    const std::string fragment = embed_fragment(s, keys, e);
    CHECK(fragment.rfind("embed&view=scaling", 0) == 0);
    const LinkRequest back = parse_link(fragment);
    CHECK(back.error.empty());
    CHECK(back.embed);
    CHECK(back.figure == e.figure);
    CHECK(back.sliders == e.sliders);
    CHECK(back.theme == e.theme);
    CHECK(back.lang == e.lang);
    CHECK(link_session(back).params == s.params);
  }
}

TEST_CASE("link: the embed snippet is one <iframe> line with its attributes escaped") {
  const std::string code = embed_snippet("https://x.org/p/index.html#embed&view=rope&a=\"<b>\"", "poslab: RoPE & \"you\"", 800, 500);
  CHECK(code == "<iframe src=\"https://x.org/p/index.html#embed&amp;view=rope&amp;a=&quot;&lt;b&gt;&quot;\" width=\"800\" "
                "height=\"500\" title=\"poslab: RoPE &amp; &quot;you&quot;\" style=\"border:0;max-width:100%\" "
                "loading=\"lazy\" allow=\"fullscreen; clipboard-write\"></iframe>");
}
