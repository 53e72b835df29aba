// `poslab screenshot` renders the real window (under Xvfb here) for every
// view and writes a PNG of the requested size that is not blank; bad input
// exits with 2 and one line, no display with 1 and a pointer to the headless
// commands.

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "app/decks/deck.hpp"
#include "app/lessons/lesson.hpp"
#include "app/ui/image.hpp"
#include "gui_test_support.hpp"

using namespace poslab;
using app::Deck;
using app::Scene;
namespace fs = std::filesystem;

namespace {

using test::Run;

Run run(const std::string& args, const std::string& env = {}) { return test::run_poslab(args, env); }

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int distinct_colours(const app::ui::Image& img) {
  std::set<std::uint32_t> seen;
  for (int y = 0; y < img.height; y += 7)
    for (int x = 0; x < img.width; x += 7) seen.insert(img.pixels[static_cast<std::size_t>(y) * img.width + x]);
  return static_cast<int>(seen.size());
}

bool have_display() { return std::getenv("DISPLAY") && *std::getenv("DISPLAY"); }

fs::path out_dir() {
  const fs::path d = fs::temp_directory_path() / ("poslab-shots-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("poslab screenshot of every view: a PNG of the requested size, not blank") {
  if (!have_display()) {
    MESSAGE("no display (run under xvfb-run): skipped");
    return;
  }
  const fs::path dir = out_dir();
  for (const app::ViewDef& v : app::view_defs()) {
    CAPTURE(v.id);
    const fs::path png = dir / (std::string(v.id) + ".png");
    const Run r = run("screenshot --view " + std::string(v.id) + " --out " + png.string() + " --size 1280x800");
    CHECK_MESSAGE(r.code == 0, r.err);
    REQUIRE(fs::exists(png));
    const app::ui::Image img = app::ui::decode_png(read(png));
    CHECK(img.width == 1280);
    CHECK(img.height == 800);
    CHECK(distinct_colours(img) > 30);
  }
  // Other sizes, themes and settings.
  const fs::path small = dir / "small.png";
  CHECK(run("screenshot --view " + std::string(app::view_defs().front().id) + " --out " + small.string() +
            " --size 800x600 --theme projector --lang en")
            .code == 0);
  const app::ui::Image img = app::ui::decode_png(read(small));
  CHECK(img.width == 800);
  CHECK(img.height == 600);
  CHECK(img.pixels[static_cast<std::size_t>(img.width) * 300 + 5] == 0xffffffffu);  // projector: white
  fs::remove_all(dir);
}

TEST_CASE("poslab screenshot --lecture and --deck: the lecture screen at 1280×720 and 1920×1080") {
  if (!have_display()) {
    MESSAGE("no display (run under xvfb-run): skipped");
    return;
  }
  const fs::path dir = out_dir();
  for (const std::string size : {"1280x720", "1920x1080"}) {
    CAPTURE(size);
    const fs::path png = dir / ("lecture-" + size + ".png");
    const Run r = run("screenshot --deck course --lecture --out " + png.string() + " --size " + size);
    CHECK_MESSAGE(r.code == 0, r.err);
    REQUIRE(fs::exists(png));
    const app::ui::Image img = app::ui::decode_png(read(png));
    CHECK(img.width == (size == "1280x720" ? 1280 : 1920));
    CHECK(distinct_colours(img) > 30);
    CHECK(img.pixels[static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height - 2) + 2] ==
          0xffffffffu);  // the projector's white, to the edge: no panels
  }
  // --step N of a deck is its scene N (it always showed scene 1, and N was
  // checked against the steps of the deck's first lesson, why-position's 6).
  const fs::path one = dir / "scene-1.png", two = dir / "scene-2.png", ten = dir / "scene-10.png";
  CHECK(run("screenshot --deck course --step 1 --out " + one.string() + " --size 1280x720").code == 0);
  CHECK(run("screenshot --deck course --step 2 --out " + two.string() + " --size 1280x720").code == 0);
  const Run tenth = run("screenshot --deck course --step 10 --out " + ten.string() + " --size 1280x720");
  CHECK_MESSAGE(tenth.code == 0, tenth.err);
  REQUIRE(fs::exists(one));
  REQUIRE(fs::exists(two));
  CHECK(read(one) != read(two));
  CHECK(read(two) != read(ten));
  const Run past = run("screenshot --deck course --step 99 --out " + (dir / "y.png").string());
  CHECK(past.code == 2);
  CHECK(past.err.find("scenes of the deck course") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "y.png"));
  const Run bad = run("screenshot --deck no-such-deck --out " + (dir / "x.png").string());
  CHECK(bad.code == 1);
  CHECK(bad.err.find("no-such-deck") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "x.png"));
  fs::remove_all(dir);
}

TEST_CASE("poslab screenshot: bad input exits 2 with one line, nothing written") {
  const fs::path dir = out_dir();
  const fs::path png = dir / "x.png";
  const std::string view = std::string(app::view_defs().front().id);
  struct Case {
    std::string args, says;
  };
  const Case cases[] = {
      {"screenshot --view nowhere --out " + png.string(), "unknown view 'nowhere'"},
      {"screenshot --view " + view + " --out " + png.string() + " --set bogus=1", "unknown parameter"},
      {"screenshot --view " + view + " --out " + png.string() + " --set d=7", "d = 7"},
      {"screenshot --view " + view + " --out " + png.string() + " --size 10x10", "size = 10x10"},
      {"screenshot --view " + view + " --out " + png.string() + " --theme neon", "theme = neon"},
      {"screenshot --view " + view + " --out " + png.string() + " --lang fr", "lang = fr"},
      {"screenshot --view " + view + " --out " + png.string() + " --preset nothing", "preset = nothing"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    const Run r = run(c.args);
    CHECK(r.code == 2);
    CHECK(r.err.find(c.says) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(png));
  }
  fs::remove_all(dir);
}

TEST_CASE("poslab screenshot without a display or with an unwritable path exits 1") {
  const fs::path dir = out_dir();
  const std::string view = std::string(app::view_defs().front().id);
  const Run no_display = run("screenshot --view " + view + " --out " + (dir / "x.png").string(), "env -u DISPLAY -u WAYLAND_DISPLAY");
  CHECK(no_display.code == 1);
  CHECK(no_display.err.find("poslab export") != std::string::npos);  // points to the headless commands
  CHECK_FALSE(fs::exists(dir / "x.png"));
  if (have_display()) {
    const Run unwritable = run("screenshot --view " + view + " --out /nonexistent-dir/x.png");
    CHECK(unwritable.code == 1);
    CHECK(unwritable.err.find("/nonexistent-dir") != std::string::npos);
  }
  fs::remove_all(dir);
}

TEST_CASE("poslab screenshot --step N --reveal: the step's answer on screen; without --step or on a step that asks nothing, exit 2") {
  const fs::path dir = out_dir();
  // decay's first step asks a question; its reveal widens the distances to 65,536 on a log axis.
  const Scene* asked = nullptr;
  int asked_step = 0, plain_step = 0;
  const Deck* steps = app::lesson_steps("decay");
  REQUIRE(steps != nullptr);
  for (std::size_t i = 0; i < steps->scenes.size(); ++i) {
    if (steps->scenes[i].has_question() && !asked) {
      asked = &steps->scenes[i];
      asked_step = static_cast<int>(i) + 1;
    }
    if (!steps->scenes[i].has_question() && !plain_step) plain_step = static_cast<int>(i) + 1;
  }
  REQUIRE(asked != nullptr);
  REQUIRE(plain_step > 0);
  const fs::path none = dir / "none.png";
  for (const std::string& args :
       {"screenshot --view decay --reveal --out " + none.string(),
        "screenshot --view decay --step " + std::to_string(plain_step) + " --reveal --out " + none.string()}) {
    CAPTURE(args);
    const Run r = run(args);
    CHECK(r.code == 2);
    CHECK(r.err.find("--reveal") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(none));
  }
  if (!have_display()) {
    MESSAGE("no display (run under xvfb-run): the screenshots skipped");
    fs::remove_all(dir);
    return;
  }
  const std::string step = " --view decay --step " + std::to_string(asked_step) + " --size 1280x720 --lang en --theme light";
  const fs::path question = dir / "question.png", answer = dir / "answer.png", by_hand = dir / "by-hand.png";
  REQUIRE(run("screenshot" + step + " --out " + question.string()).code == 0);
  REQUIRE(run("screenshot" + step + " --reveal --out " + answer.string()).code == 0);
  const app::ui::Image q = app::ui::decode_png(read(question)), a = app::ui::decode_png(read(answer));
  REQUIRE(q.width == a.width);
  REQUIRE(q.height == a.height);
  // The answer is a paragraph of text under the question: more ink in the
  // middle column's upper part (rows of text that were not there before).
  auto ink_rows = [](const app::ui::Image& img) {
    int rows = 0;
    for (int y = 60; y < img.height / 2; ++y) {
      int dark = 0;
      for (int x = img.width / 5; x < img.width * 7 / 10; ++x) {
        const std::uint32_t p = img.pixels[static_cast<std::size_t>(y) * img.width + x];
        const int lum = static_cast<int>((p & 0xff) + ((p >> 8) & 0xff) + ((p >> 16) & 0xff));
        dark += lum < 3 * 110;
      }
      rows += dark > 3;
    }
    return rows;
  };
  CHECK(ink_rows(a) > ink_rows(q) + 10);
  // The reveal's parameters are applied too: with the step's own values typed
  // back over them (same words on screen), the figure differs.
  std::string sets;
  for (const auto& [k, v] : asked->reveal_params)
    for (const auto& [k0, v0] : asked->params)
      if (k0 == k && v0 != v) sets += " --set " + k0 + "=" + v0;
  REQUIRE_FALSE(sets.empty());
  REQUIRE(run("screenshot" + step + " --reveal" + sets + " --out " + by_hand.string()).code == 0);
  const app::ui::Image h = app::ui::decode_png(read(by_hand));
  REQUIRE(h.pixels.size() == a.pixels.size());
  std::size_t figure_differs = 0;
  for (std::size_t i = 0; i < a.pixels.size(); ++i) figure_differs += a.pixels[i] != h.pixels[i];
  CHECK(figure_differs > a.pixels.size() / 100);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.pixels.size(); ++i) differ += a.pixels[i] != q.pixels[i];
  CHECK(differ > a.pixels.size() / 50);
  fs::remove_all(dir);
}

TEST_CASE("poslab screenshot --keys replays a clicker's presses before the shot; --presenter writes the presenter view beside it") {
  if (!have_display()) {
    MESSAGE("no display (run under xvfb-run): skipped");
    return;
  }
  const fs::path dir = out_dir();
  auto shot = [&](const std::string& name, const std::string& extra) {
    const fs::path png = dir / (name + ".png");
    const Run r = run("screenshot --deck course --lecture --size 1024x768 --out " + png.string() + " " + extra);
    CHECK_MESSAGE(r.code == 0, r.err);
    return read(png);
  };
  // Next Next Down then "5" Return lands on scene 5, as "5 Return" from the start does.
  const std::string clicked = shot("clicked", "--keys \"Next Next Down 5 Return\"");
  const std::string direct = shot("direct", "--keys \"Home Home Home 5 Return\"");  // as many frames
  const std::string first = shot("first", "");
  const std::string third = shot("third", "--keys \"Next Next\"");
  CHECK(clicked == direct);
  CHECK(clicked != first);
  CHECK(third != first);
  CHECK(third != clicked);
  // An unknown key name: exit 2 naming it and the names known, nothing written.
  const fs::path none = dir / "none.png";
  const Run bad = run("screenshot --deck course --lecture --keys \"Next Nxt\" --out " + none.string());
  CHECK(bad.code == 2);
  CHECK(bad.err.find("Nxt") != std::string::npos);
  CHECK(bad.err.find("Prior") != std::string::npos);
  CHECK_FALSE(fs::exists(none));
  // --presenter: the projector's shot and the presenter's, the same size, neither blank.
  const fs::path out = dir / "talk.png";
  const Run p = run("screenshot --deck course --presenter --keys \"Next\" --size 1280x720 --out " + out.string());
  CHECK_MESSAGE(p.code == 0, p.err);
  REQUIRE(fs::exists(dir / "talk-presenter.png"));
  const app::ui::Image projector = app::ui::decode_png(read(out));
  const app::ui::Image presenter = app::ui::decode_png(read(dir / "talk-presenter.png"));
  CHECK(presenter.width == 1280);
  CHECK(presenter.height == 720);
  CHECK(distinct_colours(presenter) > 20);
  CHECK(distinct_colours(projector) > 20);
  CHECK(read(out) != read(dir / "talk-presenter.png"));
}

TEST_CASE("a child is run again only when LeakSanitizer's own tracer crashed, never for a leak it reports") {
  const std::string crash =
      "Tracer caught signal 11: addr=0x53c8 pc=0x55a53c39bd1a sp=0x7f804a7fdd40\n"
      "==15074==LeakSanitizer has encountered a fatal error.\n";
  CHECK(test::sanitizer_tracer_crashed({134, crash}));
  CHECK_FALSE(test::sanitizer_tracer_crashed({0, crash}));  // exited 0: nothing to rerun
  CHECK_FALSE(test::sanitizer_tracer_crashed({1, "==1==ERROR: LeakSanitizer: detected memory leaks\n" + crash}));
  CHECK_FALSE(test::sanitizer_tracer_crashed({2, "poslab: view 'nope' does not exist\n"}));
}
