// The lecture hall, round 2 (issue 29), in blind mode through the App's key
// queue, one case per point of the issue:
// - 1 no key leaves the deck: every key of the keyboard pressed in a deck
//   keeps it presented; ↑ ↓ act as ← →; "N, Enter" lands on scene N; the
//   grid of scenes (G) picks one; Esc keeps the place
// - 2 text: captions and every text of the laid-out plot at 3.5 % of the
//   screen's height or more at every projector size; Ctrl+= re-lays out
// - 3 a deck's own Chinese (and any script) is baked into the atlas
// - 4 the presenter view: now, next, notes, the answer, clock, elapsed
// - 5 a deck that cannot be opened: said in a window, read again
// - 6 B / . black, W / , white, any key brings the figure back
// - 7 one layout per scene, revealed or not, 720p like 1080p, the counter always shown
// - 8 the idle pointer hides with its crosshair; R undoes a zoom; animation axes hold
// - 10 the Deck window writes questions, answers, reveals, notes, animations
//
// [SECTION] Index
// - Helpers
// - 1 Keys never leave the deck
// - 6 Blank screen
// - 2, 7 Text and layout at every projector size
// - 3 Glyphs users bring
// - 4 The presenter view
// - 5 A deck that cannot be opened
// - 8 Pointer, zoom, animation axes
// - 10 The Deck window

#include <doctest/doctest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "app/decks/deck.hpp"
#include "app/ui/key_events.hpp"
#include "app/ui/request.hpp"
#include "gui_test_support.hpp"
#include "test_lecture_decks.hpp"

using namespace poslab;
namespace ui = poslab::app::ui;
namespace fs = std::filesystem;

// [SECTION] Helpers

namespace {

using test::check_scene_shown;
using test::ten_scenes;

struct QueuedApp : test::BlindApp {
  QueuedApp() { platform.key_events = true; }
  void tap(int key, int mods = 0, int frames_after = 1) {
    app->key_event(key, ui::kKeyPress, mods);
    app->key_event(key, ui::kKeyRelease, mods);
    frames(frames_after);
  }
  /// "12", Enter: as a lecturer types it.
  void type_scene(int n) {
    for (char c : std::to_string(n)) app->key_event(GLFW_KEY_0 + (c - '0'), ui::kKeyPress, 0);
    app->key_event(GLFW_KEY_ENTER, ui::kKeyPress, 0);
    frames(1);
  }
};

/// The ten-scene deck presented in lecture mode.
void present(QueuedApp& b, const app::Deck& deck = ten_scenes()) {
  REQUIRE(b.state().open_deck(deck, "ten.json").empty());
  b.app->set_lecture(true);
  b.frames(2);
}

/// Still in the deck: presented, at a scene of it, showing that scene's lesson.
void check_in_deck(const ui::AppState& st, const app::Deck& deck) {
  REQUIRE(st.presenting());
  REQUIRE(st.scene() >= 0);
  REQUIRE(st.scene() < static_cast<int>(deck.scenes.size()));
  CHECK(st.view().id == deck.scenes[static_cast<std::size_t>(st.scene())].lesson);
  CHECK(st.step() == st.scene());
}

/// The recording of the figure in front, as the projector drew it.
const ui::FigureRecording* front_recording(test::BlindApp& b) {
  ui::FigureCache::Entry* e = b.app->figures().find(b.state().view().id, b.state().front_figure());
  return e ? &e->widget.recording() : nullptr;
}

}  // namespace

// [SECTION] 1 Keys never leave the deck

TEST_CASE("lecture: every key of the keyboard pressed in a deck keeps it presented; Esc and F5 keep the place") {
  QueuedApp b;
  const app::Deck deck = ten_scenes();
  present(b, deck);
  REQUIRE(b.state().go_to_step(4).empty());
  b.frames(1);
  // Every key GLFW names, alone and with Shift, one at a time (Ctrl chords
  // open windows and files: the app's own, not a stray key).
  std::vector<int> keys;
  for (int k = GLFW_KEY_SPACE; k <= GLFW_KEY_LAST; ++k)
    if (k < GLFW_KEY_LEFT_SHIFT || k > GLFW_KEY_RIGHT_SUPER) keys.push_back(k);
  int pressed = 0;
  for (int mods : {0, ui::kModShift})
    for (int k : keys) {
      CAPTURE(k);
      CAPTURE(mods);
      b.tap(k, mods);
      ++pressed;
      // Keys that leave lecture mode (Esc, F5) keep the deck and its scene: F5 comes back there.
      if (!b.app->lecture()) {
        check_in_deck(b.state(), deck);
        const int at = b.state().scene();
        b.tap(GLFW_KEY_F5);
        REQUIRE(b.app->lecture());
        CHECK(b.state().scene() == at);
      }
      if (b.app->help_open()) b.tap(GLFW_KEY_ESCAPE);
      if (b.app->lecture_state().grid) b.tap(GLFW_KEY_ESCAPE);
      check_in_deck(b.state(), deck);
    }
  CHECK(pressed > 200);
  CHECK(b.app->lecture());
}

TEST_CASE("lecture: ↑ ↓ act as ← →, and outside lecture mode they still go through the lessons") {
  QueuedApp b;
  const app::Deck deck = ten_scenes();
  present(b, deck);
  b.tap(GLFW_KEY_DOWN);
  CHECK(b.state().scene() == 1);
  b.tap(GLFW_KEY_DOWN);
  CHECK(b.state().scene() == 2);
  b.tap(GLFW_KEY_UP);
  CHECK(b.state().scene() == 1);
  check_scene_shown(b.state(), deck.scenes[1]);
  // Outside lecture mode ↓ is the next lesson, as before.
  b.app->set_lecture(false);
  b.frames(1);
  const int lesson = b.state().view_index();
  b.tap(GLFW_KEY_DOWN);
  CHECK(b.state().view_index() == lesson + 1);
}

TEST_CASE("lecture: N, Enter lands on scene N; a number out of range, Esc and another key forget it") {
  QueuedApp b;
  const app::Deck deck = ten_scenes();
  present(b, deck);
  for (int n : {5, 1, 10, 3, 7}) {
    CAPTURE(n);
    b.type_scene(n);
    CHECK(b.state().scene() == n - 1);
    check_scene_shown(b.state(), deck.scenes[static_cast<std::size_t>(n - 1)]);
    CHECK(b.app->lecture_state().typed.empty());
  }
  // The keypad too.
  b.app->key_event(GLFW_KEY_KP_2, ui::kKeyPress, 0);
  b.app->key_event(GLFW_KEY_KP_ENTER, ui::kKeyPress, 0);
  b.frames(1);
  CHECK(b.state().scene() == 1);
  // 11 does not exist: said, and nothing moves.
  b.type_scene(11);
  CHECK(b.state().scene() == 1);
  CHECK(b.app->toasts().last().find("11") != std::string::npos);
  // "5" typed, then Esc: forgotten, lecture mode stays; then Enter does nothing.
  b.tap(GLFW_KEY_5);
  CHECK(b.app->lecture_state().typed == "5");
  b.tap(GLFW_KEY_ESCAPE);
  CHECK(b.app->lecture_state().typed.empty());
  CHECK(b.app->lecture());
  b.tap(GLFW_KEY_ENTER);
  CHECK(b.state().scene() == 1);
  // "5" then → : the digit is dropped, → goes on as usual.
  b.tap(GLFW_KEY_5);
  b.tap(GLFW_KEY_RIGHT);
  CHECK(b.state().scene() == 2);
  CHECK(b.app->lecture_state().typed.empty());
}

TEST_CASE("lecture: G shows every scene as a miniature; the arrows and Enter, or a click, pick one") {
  QueuedApp b;
  const app::Deck deck = ten_scenes();
  present(b, deck);
  b.tap(GLFW_KEY_G);
  REQUIRE(b.app->lecture_state().grid);
  b.frames(8);  // a few miniatures a frame
  CHECK(b.app->grid_previews().builds() == 10);
  CHECK(b.app->grid_previews().size() == 10);
  b.tap(GLFW_KEY_RIGHT);
  b.tap(GLFW_KEY_RIGHT);
  CHECK(b.state().scene() == 0);  // the grid's choice moves, not the scene
  CHECK(b.app->lecture_state().grid_pick == 2);
  b.tap(GLFW_KEY_ENTER);
  CHECK_FALSE(b.app->lecture_state().grid);
  CHECK(b.state().scene() == 2);
  check_scene_shown(b.state(), deck.scenes[2]);
  // Esc closes it and keeps the scene; a number typed with it open goes there.
  b.tap(GLFW_KEY_G);
  b.tap(GLFW_KEY_ESCAPE);
  CHECK_FALSE(b.app->lecture_state().grid);
  CHECK(b.app->lecture());
  CHECK(b.state().scene() == 2);
  b.tap(GLFW_KEY_G);
  b.type_scene(9);
  CHECK_FALSE(b.app->lecture_state().grid);
  CHECK(b.state().scene() == 8);
}

// [SECTION] 6 Blank screen

TEST_CASE("lecture: B and . black the screen, W and , white it; any key brings the figure back and does nothing else") {
  QueuedApp b;
  const app::Deck deck = ten_scenes();
  present(b, deck);
  REQUIRE(b.state().animation().playing());
  b.tap(GLFW_KEY_P);  // paused: a step of the animation would show in its phase
  const double phase = b.state().animation().phase();
  for (const auto& kb : {std::pair{GLFW_KEY_B, ui::Blank::black}, std::pair{GLFW_KEY_PERIOD, ui::Blank::black},
                         std::pair{GLFW_KEY_W, ui::Blank::white}, std::pair{GLFW_KEY_COMMA, ui::Blank::white}}) {
    const int key = kb.first;  // not a structured binding: clang 14 cannot CAPTURE one
    const ui::Blank blank = kb.second;
    CAPTURE(key);
    b.tap(key);
    CHECK(b.app->lecture_state().blank == blank);
    CHECK(b.state().animation().phase() == doctest::Approx(phase));  // a clicker's "." never steps the animation
    b.tap(GLFW_KEY_RIGHT);  // brings the figure back, and only that
    CHECK(b.app->lecture_state().blank == ui::Blank::none);
    CHECK(b.state().scene() == 0);
  }
  // The same key again brings it back too; so does a click.
  b.tap(GLFW_KEY_B);
  b.tap(GLFW_KEY_B);
  CHECK(b.app->lecture_state().blank == ui::Blank::none);
  b.tap(GLFW_KEY_B);
  ImGuiIO& io = ImGui::GetIO();
  io.MouseDown[0] = true;
  b.frames(1);
  io.MouseDown[0] = false;
  b.frames(1);
  CHECK(b.app->lecture_state().blank == ui::Blank::none);
  // < and > step the paused animation in lecture mode.
  b.tap(GLFW_KEY_PERIOD, ui::kModShift);
  CHECK(b.state().animation().phase() > phase);
  CHECK(b.app->lecture_state().blank == ui::Blank::none);
}

// [SECTION] 2, 7 Text and layout at every projector size

TEST_CASE("lecture: at every projector size, caption and every text of the laid-out plot at ≥ 3.5 % of the height; one layout per scene, revealed or not") {
  test::BlindApp b;
  auto& st = b.state();
  const auto decks = app::builtin_decks();
  const auto course = std::find_if(decks.begin(), decks.end(), [](const auto& d) { return d.first == "course"; });
  REQUIRE(course != decks.end());
  const app::Deck& deck = course->second;
  std::map<int, std::vector<std::pair<bool, ImVec4>>> layouts;  // height → per scene (beside, plot / height)
  for (const ImVec2 display : {ImVec2{1024, 768}, ImVec2{1280, 720}, ImVec2{1280, 800}, ImVec2{1920, 1080}, ImVec2{3840, 2160}}) {
    CAPTURE(display.x);
    CAPTURE(display.y);
    b.display = display;
    REQUIRE(st.open_deck(deck).empty());
    b.app->set_lecture(true);
    b.frames(2);
    const float least = 0.035f * display.y;
    CHECK(b.app->fonts().size >= least);  // captions, tabs, the counter
    auto& per_scene = layouts[static_cast<int>(display.y)];
    for (int i = 0; i < static_cast<int>(deck.scenes.size()); ++i) {
      CAPTURE(i);
      REQUIRE(st.go_to_step(i).empty());
      b.frames(3);
      CHECK_FALSE(b.app->lesson_view().last_where().empty());  // the counter never drops
      CHECK(b.app->lesson_view().last_tabs_cut() == 0);
      const ImVec4 plot = b.app->lesson_view().last_plot_rect();
      CHECK(plot.w <= display.y + 0.5f);
      CHECK(plot.z <= display.x + 0.5f);
      if (const ui::FigureRecording* rec = front_recording(b)) {
        int texts = 0;
        for (const auto& op : rec->ops)
          if (op.kind == ui::FigureRecording::Kind::text) {
            ++texts;
            // A formula's exponents and subscripts are set at 0.7 of their base, as
            // TeX's script style and every textbook set them: the base text meets
            // the floor, its scripts 0.7 of it (less a pixel of rounding).
            const auto& f = b.app->fonts();
            const bool script = op.font != nullptr && (op.font == f.script || op.font == f.bold_script);
            CHECK(op.width >= (script ? 0.7f * least - 1.0f : least - 0.01f));
          }
        CHECK(texts > 0);
      }
      per_scene.push_back({b.app->lesson_view().last_beside(),
                           {plot.x / display.x, plot.y / display.y, plot.z / display.x, plot.w / display.y}});
      const app::Scene& sc = deck.scenes[static_cast<std::size_t>(i)];
      if (sc.has_question()) {  // revealed: the same place, the same size
        REQUIRE(st.next_step().empty());
        b.frames(3);
        const ImVec4 after = b.app->lesson_view().last_plot_rect();
        CHECK(after.x == doctest::Approx(plot.x).epsilon(0.002));
        CHECK(after.y == doctest::Approx(plot.y).epsilon(0.002));
        CHECK(after.z == doctest::Approx(plot.z).epsilon(0.002));
        CHECK(after.w == doctest::Approx(plot.w).epsilon(0.002));
      }
    }
    b.app->set_lecture(false);
    st.close_deck();
  }
  // 720p and 1080p (and 2160p) lay every scene out alike.
  for (int h : {1080, 2160}) {
    CAPTURE(h);
    const auto& a = layouts[720];
    const auto& c = layouts[h];
    REQUIRE(a.size() == c.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      CAPTURE(i);
      CHECK(a[i].first == c[i].first);
      CHECK(std::abs(a[i].second.w - c[i].second.w) < 0.03f);
      CHECK(std::abs(a[i].second.z - c[i].second.z) < 0.03f);
    }
  }
}

TEST_CASE("lecture: a thick line never turns back in one polyline (no miter spike), every lesson and step at 1024×768") {
  // ImGui joins a thick polyline with an unlimited miter: multimodal's
  // sawtooth of w ids (7 → 2 → 3) drew spikes below 2 that read as data and
  // reached under the legend (a student's review). The painter cuts a thick
  // line at any turn sharper than 120° and rounds the cut.
  test::BlindApp b;
  auto& st = b.state();
  b.display = {1024, 768};
  b.app->set_lecture(true);
  b.frames(2);
  int thick = 0;
  for (int i = 0; i < static_cast<int>(st.views().size()); ++i) {
    st.open_lesson(i);
    const int steps = st.steps() ? static_cast<int>(st.steps()->scenes.size()) : 0;
    for (int s = -1; s < steps; ++s) {
      if (s >= 0) REQUIRE(st.go_to_step(s).empty());
      b.frames(3);
      const ui::FigureRecording* rec = front_recording(b);
      if (!rec) continue;
      CAPTURE(st.view().id);
      CAPTURE(s);
      for (const auto& op : rec->ops) {
        if (op.kind != ui::FigureRecording::Kind::polyline || op.width < 2.0f) continue;
        ++thick;
        for (std::uint32_t k = 1; k + 1 < op.count; ++k) {
          const ImVec2 a = rec->points[op.first + k - 1], m = rec->points[op.first + k], c = rec->points[op.first + k + 1];
          const double ux = m.x - a.x, uy = m.y - a.y, vx = c.x - m.x, vy = c.y - m.y;
          const double nu = std::hypot(ux, uy), nv = std::hypot(vx, vy);
          if (nu > 0 && nv > 0) CHECK((ux * vx + uy * vy) / (nu * nv) >= -0.5);
        }
      }
    }
  }
  CHECK(thick > 50);
  MESSAGE(thick << " thick polylines checked");
  // The words beside the figure stay inside their column, answers revealed
  // too: a formula is one unbreakable word, and rope's rotate_half(q) ran
  // past the edge at this size, cut there; it is drawn smaller now.
  int columns = 0;
  for (int i = 0; i < static_cast<int>(st.views().size()); ++i) {
    st.open_lesson(i);
    const int steps = st.steps() ? static_cast<int>(st.steps()->scenes.size()) : 0;
    for (int s = 0; s < steps; ++s) {
      REQUIRE(st.go_to_step(s).empty());
      for (int k = 0; k < 2; ++k) {
        b.frames(3);
        CAPTURE(st.view().id);
        CAPTURE(s);
        CAPTURE(st.step_revealed());
        if (b.app->lesson_view().last_beside()) {
          ++columns;
          CHECK(b.app->lesson_view().last_words_overflow() <= 1.0f);
          // Scrolled to the question or the answer, from a line's top: the
          // first line in view is whole (rope's step 5 showed a sliver of
          // one) — within six frames, while the column settles.
          if (b.app->lesson_view().last_words_top_cut() > 1.0f) b.frames(3);
          CHECK(b.app->lesson_view().last_words_top_cut() <= 1.0f);
        }
        const app::Scene* step = st.current_step();
        if (!step || !step->has_question() || st.step_revealed()) break;
        REQUIRE(st.next_step().empty());
      }
    }
  }
  CHECK(columns > 20);
}

TEST_CASE("lecture: Ctrl+= two and three times re-lays the figure out: a large plot, every named tick, no words over each other, the counter and whole tabs") {
  for (const int presses : {2, 3}) {
  CAPTURE(presses);
  QueuedApp b;
  auto& st = b.state();
  b.display = {1280, 720};
  REQUIRE(st.select_view("why-position"));
  st.open_lesson(st.view_index());
  b.app->set_lecture(true);
  b.frames(2);
  // Two presses: text at 4.6 % of the height (33 px at 720p), more than the
  // issue's three presses gave from the old 2.5 % (3.9 %). A third (5.2 %)
  // dropped why-position's named ticks on its matrices at 720p and printed
  // its step 5 block titles over each other; the words then head the
  // column beside the figure, the ticks shrink, the titles are fitted.
  for (int i = 0; i < presses; ++i) b.tap(GLFW_KEY_EQUAL, ui::kModControl, 2);
  CHECK(b.app->ui_scale() > b.app->lecture_base_scale() * 1.25f);
  CHECK(b.app->fonts().size >= 0.045f * b.display.y);
  const int steps = static_cast<int>(st.steps()->scenes.size());
  for (int s = 0; s < steps; ++s) {
    CAPTURE(s);
    REQUIRE(st.go_to_step(s).empty());
    b.frames(3);
    CHECK_FALSE(b.app->lesson_view().last_where().empty());
    CHECK(b.app->lesson_view().last_tabs_cut() == 0);
    const ImVec4 plot = b.app->lesson_view().last_plot_rect();
    CHECK((plot.w - plot.y) >= (presses == 2 ? 0.45f : 0.40f) * b.display.y);
    // Every named tick of the figure is drawn (none dropped for room).
    ui::FigureCache::Entry* e = b.app->figures().find(st.view().id, st.front_figure());
    if (!e) continue;
    std::multiset<std::string> drawn;
    const ui::FigureRecording& rec = e->widget.recording();
    for (const auto& op : rec.ops)
      if (op.kind == ui::FigureRecording::Kind::text) drawn.insert(rec.text.substr(op.first, op.count));
    for (const auto* axis : {&e->figure.x, &e->figure.y})
      for (const auto& tick : axis->ticks) {
        const auto& label = tick.second;  // not a structured binding: CAPTURE's lambda captures it (clang 14)
        CAPTURE(label);
        CHECK(drawn.count(label) >= 1);
      }
    // No text over another (a matrix's cell values printed over each other
    // at this size, a colour bar's labels, why-position's block titles "y:
    // as given" / "y: shuffled, put back" / "difference" over its step 5
    // matrices): boxes of the unrotated texts overlap by < 15 %.
    std::vector<std::pair<ImVec4, std::string>> boxes;
    for (const auto& op : rec.ops)
      if (op.kind == ui::FigureRecording::Kind::text && !op.rotated && op.font) {
        const std::string t = rec.text.substr(op.first, op.count);
        if (t.find_first_not_of(' ') == std::string::npos) continue;
        const ImVec2 sz = op.font->CalcTextSizeA(op.width, FLT_MAX, 0, t.c_str());
        boxes.push_back({{op.a.x, op.a.y, op.a.x + sz.x, op.a.y + sz.y}, t});
      }
    int overlapping = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i)
      for (std::size_t j = i + 1; j < boxes.size(); ++j) {
        const ImVec4 &a = boxes[i].first, &c = boxes[j].first;
        const float w = std::min(a.z, c.z) - std::max(a.x, c.x), h = std::min(a.w, c.w) - std::max(a.y, c.y);
        const float least = std::min((a.z - a.x) * (a.w - a.y), (c.z - c.x) * (c.w - c.y));
        if (w > 0 && h > 0 && w * h > 0.15f * least) {
          ++overlapping;
          MESSAGE("\"" << boxes[i].second << "\" over \"" << boxes[j].second << "\"");
        }
      }
    CHECK(overlapping == 0);
  }
  }
}

// [SECTION] 3 Glyphs users bring

TEST_CASE("a lecturer's own Chinese captions, typed and loaded: every character is in the atlas, in an English UI too") {
  QueuedApp b;
  const std::string own = "今天我们讨论举例黑板台签教学划线业";
  app::Deck deck = ten_scenes();
  deck.scenes[0].caption = {"Today: " + own.substr(0, 12), own};
  deck.scenes[1].notes = {"备注：" + own.substr(12), ""};
  deck.title = {"讲座", ""};
  for (const std::string lang : {"en", "zh"}) {
    CAPTURE(lang);
    REQUIRE(b.app->set_lang(lang).empty());
    present(b, deck);
    b.frames(2);
    auto baked = [&](const std::string& text) {
      for (const char* p = text.c_str(); *p;) {
        unsigned int c = 0;
        p += ImTextCharFromUtf8(&c, p, nullptr);
        if (c < 0x80) continue;
        CAPTURE(c);
        CHECK(b.app->fonts().regular->FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr);
        CHECK(b.app->fonts().bold->FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr);
      }
    };
    baked(own);
    baked("备注讲座");
    // Typed into a field (an input method's characters arrive as these).
    ImGui::GetIO().AddInputCharacterUTF16(0x9F99);  // 龙
    b.frames(2);
    baked("龙");
    b.app->set_lecture(false);
  }
}

// [SECTION] 4 The presenter view

TEST_CASE("presenter view: the scene now and next, its notes, the answer before it is shown, clock and elapsed time; the clicker drives both") {
  QueuedApp b;
  app::Deck deck = ten_scenes();
  deck.scenes[0].notes = {"Ask who has seen sin/cos before.", "先问谁见过 sin/cos。"};
  deck.scenes[3].notes = {"Wait for a show of hands.", ""};
  present(b, deck);
  b.app->set_presenter_view(true);
  REQUIRE(b.app->presenter_view());
  CHECK(b.platform.presenter);
  auto frame = [&] {
    b.frames(1);
    for (int i = 0; i < 4; ++i) b.app->presenter_blind_frame();
  };
  frame();
  const ui::PresenterView::Shown* s = &b.app->presenter_panel().shown();
  CHECK(s->position == "Scene 1 of 10");
  CHECK(s->notes == "Ask who has seen sin/cos before.");
  CHECK(s->now.find("PE rows at d = 500") != std::string::npos);
  CHECK(s->next_drawn);
  CHECK(s->now_drawn);
  CHECK(s->answer.empty());
  CHECK(s->clock.size() == 5);
  CHECK(s->clock[2] == ':');
  CHECK(s->elapsed == "0:00");
  // 65 s later, two scenes on (the clicker's taps reach the one queue).
  b.clock += 65;
  b.tap(GLFW_KEY_PAGE_DOWN);
  b.tap(GLFW_KEY_PAGE_DOWN);
  b.tap(GLFW_KEY_PAGE_DOWN);
  frame();
  CHECK(b.state().scene() == 3);
  CHECK(s->position == "Scene 4 of 10");
  CHECK(s->elapsed == "1:05");
  CHECK(s->notes == "Wait for a show of hands.");
  CHECK(s->answer == "The first ones.");  // not on the projector yet
  CHECK(s->next.find("The first ones.") != std::string::npos);  // next: the answer
  b.tap(GLFW_KEY_RIGHT);
  frame();
  CHECK(b.state().step_revealed());
  CHECK(s->answer.empty());
  CHECK(s->now.find("The first ones.") != std::string::npos);
  // The last scene: nothing next.
  b.tap(GLFW_KEY_END);
  frame();
  CHECK(s->next == "This is the last scene.");
  // Chinese notes in Chinese.
  REQUIRE(b.app->set_lang("zh").empty());
  b.tap(GLFW_KEY_HOME);
  frame();
  CHECK(s->notes == "先问谁见过 sin/cos。");
  // V closes it; Esc leaves lecture mode and F5 brings both back.
  b.tap(GLFW_KEY_V);
  CHECK_FALSE(b.app->presenter_view());
  CHECK_FALSE(b.platform.presenter);
  b.tap(GLFW_KEY_V);
  CHECK(b.platform.presenter);
  b.tap(GLFW_KEY_ESCAPE);
  CHECK_FALSE(b.app->lecture());
  CHECK_FALSE(b.platform.presenter);
  b.tap(GLFW_KEY_F5);
  CHECK(b.platform.presenter);
  // A platform with one screen opens it there and says so.
  b.tap(GLFW_KEY_V);
  b.platform.presenter_place = ui::Platform::PresenterPlace::same_screen;
  b.tap(GLFW_KEY_V);
  CHECK(b.app->presenter_view());
}

TEST_CASE("presenter view: a platform without a second window says so and stays as it was") {
  QueuedApp b;
  present(b);
  b.platform.presenter_place = ui::Platform::PresenterPlace::none;
  b.tap(GLFW_KEY_V);
  CHECK_FALSE(b.app->presenter_view());
  CHECK(b.app->toasts().last_kind() == ui::ToastKind::error);
  CHECK(b.app->lecture());
}

// [SECTION] 5 A deck that cannot be opened

TEST_CASE("lecture: an idle pointer hides after 2 s with the figure's crosshair and readout; a move brings them back") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.select_view("sinusoidal"));
  REQUIRE(st.go_to_step(-1).empty());
  st.set_figure("heatmap");  // a readout wherever the pointer is
  b.app->set_lecture(true);
  b.frames(3);
  const ImVec4 r = b.app->lesson_view().last_plot_rect();
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = {(r.x + r.z) / 2, (r.y + r.w) / 2};
  b.frames(2);
  REQUIRE(b.app->figures().find("sinusoidal", "heatmap") != nullptr);
  ui::PlotWidget& w = b.app->figures().find("sinusoidal", "heatmap")->widget;
  CHECK_FALSE(w.readout().empty());
  CHECK_FALSE(b.app->pointer_idle());
  CHECK(b.app->seconds_until_wake() <= 2.0);  // it wakes to hide the pointer
  b.frames(3, 1.0);                            // 3 s, the pointer still
  CHECK(b.app->pointer_idle());
  CHECK(w.readout().empty());
  io.MousePos.x += 5;
  b.frames(2);
  CHECK_FALSE(b.app->pointer_idle());
  CHECK_FALSE(w.readout().empty());
}

TEST_CASE("lecture: R undoes a wheel zoom as well as the scene's sliders") {
  QueuedApp b;
  present(b);
  ui::FigureCache::Entry* e = b.app->figures().find(b.state().view().id, b.state().front_figure());
  REQUIRE(e != nullptr);
  e->widget.zoom_at({200, 200}, 0.5);
  REQUIRE(e->widget.zoomed());
  b.tap(GLFW_KEY_R);
  e = b.app->figures().find(b.state().view().id, b.state().front_figure());
  REQUIRE(e != nullptr);
  CHECK_FALSE(e->widget.zoomed());
}

TEST_CASE("an animation's axes hold the range of its whole sweep: they never re-range mid-sweep") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.select_view("rope"));
  REQUIRE(st.go_to_step(-1).empty());
  b.frames(2);
  st.animation().choose("m", st.params());
  st.animation().play();
  b.frames(3);
  ui::FigureCache::Entry* e = nullptr;
  for (const app::FigureDef& f : st.view().figures)
    if (auto* x = b.app->figures().find("rope", f.id); x && x->widget.hold()) e = x;
  REQUIRE(e != nullptr);
  // Every frame of two sweeps (5 s each) lies within the held range; it was
  // built from the sweep's values when the animation started, so it does not move.
  const app::fig::ViewRange held = *e->widget.hold();
  int moved = 0;
  for (int i = 0; i < 100; ++i) {
    b.frames(1, 0.1);
    REQUIRE(e->widget.hold().has_value());
    moved += !(*e->widget.hold() == held);
    const app::fig::ViewRange hold = *e->widget.hold();
    const app::fig::ViewRange now = app::fig::default_view(e->figure);
    CHECK(now.x_min >= hold.x_min - 1e-9);
    CHECK(now.x_max <= hold.x_max + 1e-9);
    CHECK(std::min(now.y_min, now.y_max) >= std::min(hold.y_min, hold.y_max) - 1e-9);
    CHECK(std::max(now.y_min, now.y_max) <= std::max(hold.y_min, hold.y_max) + 1e-9);
  }
  CHECK(moved == 0);
  st.animation().clear();
  b.frames(2);
  CHECK_FALSE(e->widget.hold());
}

TEST_CASE("an animation's held axes widen in decades on a log axis: rope's frequencies swept over b keep the θ curve") {
  // The 5 % margin was taken in data units: 5 % of 10⁵ below 10⁻⁴ is
  // negative, and the held log axis started at 10^0.5 — the θ curve gone.
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.select_view("rope"));
  REQUIRE(st.go_to_step(-1).empty());
  b.frames(2);
  st.animation().choose("base", st.params());
  st.animation().play();
  b.frames(3);
  ui::FigureCache::Entry* e = b.app->figures().find("rope", "frequencies");
  REQUIRE(e != nullptr);
  REQUIRE(e->figure.y.scale == app::fig::AxisScale::log);
  REQUIRE(e->widget.hold().has_value());
  for (int i = 0; i < 20; ++i) {
    b.frames(1, 0.1);
    const app::fig::ViewRange hold = *e->widget.hold();
    CHECK(hold.y_min > 0);
    double lowest = INFINITY, highest = 0;
    for (const auto& s : e->figure.series)
      for (double y : s.y) lowest = std::min(lowest, y), highest = std::max(highest, y);
    CHECK(lowest >= hold.y_min);
    CHECK(highest <= hold.y_max);
    // The sweep's lowest θ, at its largest b: θ_{d/2−1} = b^{−(d−2)/d}; the
    // room below it is a small share of the decades shown (the 5 % margin
    // and the figure's own padding), not data units.
    const double d = st.params().real("d"), b_hi = std::max(st.animation().config().from, st.animation().config().to);
    const double sweep_lowest = std::pow(b_hi, -(d - 2) / d);
    CHECK(hold.y_min <= sweep_lowest);
    CHECK(std::log10(sweep_lowest / hold.y_min) < 0.1 * std::log10(hold.y_max / hold.y_min));
  }
  st.animation().clear();
}

// [SECTION] 10 The Deck window

TEST_CASE("the Deck window writes what a deck file can: a short caption, question, answer, reveal, notes, animation") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.select_view("rope-2d"));
  REQUIRE(st.go_to_step(2).empty());  // a guided step with a paragraph for its caption
  const std::string paragraph = st.current_step()->caption.en;
  ui::UiContext ctx = b.app->context();
  REQUIRE(b.app->deck_ui().add_current_view(ctx) == 0);
  const app::Scene first = st.deck()->scenes[0];
  CHECK(first.caption.en.size() <= paragraph.size());
  CHECK(first.caption.en.size() <= 160);
  CHECK(paragraph.rfind(first.caption.en.substr(0, first.caption.en.size() - 3), 0) == 0);  // its beginning
  CHECK(ui::first_sentence("One idea. Then another.") == "One idea.");
  CHECK(ui::first_sentence("e.g. this one. Not this.") == "e.g. this one.");
  CHECK(ui::first_sentence("旋转不改变长度。再看下一步。") == "旋转不改变长度。");
  CHECK(ui::first_sentence(std::string(300, 'a')).ends_with("…"));
  // Question, answer, reveal, notes and animation, as the window sets them.
  app::Scene sc = first;
  sc.question = {"Does q·k change?", "q·k 会变吗？"};
  sc.answer = {"No.", "不会。"};
  sc.reveal_params = {{"m", "7"}};
  sc.notes = {"Let them guess first.", ""};
  sc.animation = app::SessionAnimation{"n", 0, 10, 1, app::PlayMode::bounce, true};
  REQUIRE(st.set_scene(0, sc));
  const fs::path file = b.dir / "written.deck.json";
  REQUIRE(b.app->save_deck(file).empty());
  const app::Deck back = app::load_deck_file(file);
  REQUIRE(back.scenes.size() == 1);
  CHECK(back.scenes[0] == st.deck()->scenes[0]);
  CHECK(back.scenes[0].notes.en == "Let them guess first.");
  // A question without its answer is not written, and the message names the scene.
  sc.answer = {};
  REQUIRE(st.set_scene(0, sc));
  const std::string why = b.app->save_deck(b.dir / "half.deck.json");
  CHECK(why.find("scene 1") != std::string::npos);
  CHECK_FALSE(fs::exists(b.dir / "half.deck.json"));
  // The window itself draws with all of it folded open (no assertion in ImGui).
  b.app->deck_ui().open = true;
  b.frames(3);
}
