// A scripted session: every lesson, every parameter of every view across its
// range (slider ends, middle), an invalid typed value refused with the old
// value kept, relation rules refused inline, conflicts between lessons shown
// and fixable — asserting the state after each step.

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cmath>

#include "app/ui/lesson_ui.hpp"
#include "app/ui/params_panel.hpp"
#include "app/ui/slider_math.hpp"
#include "gui_test_support.hpp"

using namespace poslab;
namespace ui = poslab::app::ui;

namespace {

/// Whether the lesson's own screen shows this figure in another form.
bool replaced_on_screen(std::string_view view, std::string_view figure) {
  const ui::LessonScreen* s = ui::lesson_screen(view);
  return s && std::find(s->replaces.begin(), s->replaces.end(), figure) != s->replaces.end();
}

/// Figures a lesson draws as figures (not replaced by its own screen).
int drawn_figures(const app::ViewDef& v) {
  return static_cast<int>(std::count_if(v.figures.begin(), v.figures.end(),
                                        [&](const app::FigureDef& f) { return !replaced_on_screen(v.id, f.id); }));
}

/// Every figure of the current lesson was built without an error.
void check_figures_built(test::BlindApp& b) {
  const app::ViewDef& v = b.state().view();
  for (const app::FigureDef& f : v.figures) {
    if (replaced_on_screen(v.id, f.id)) continue;
    const auto* e = b.app->figures().find(v.id, f.id);
    REQUIRE_MESSAGE(e, "figure " << v.id << "/" << f.id << " was not drawn");
    CHECK_MESSAGE(e->error.empty(), v.id << "/" << f.id << ": " << e->error);
  }
}

std::string shown(const core::Params& p, const core::ParamSpec& s) {
  try {
    return core::format_param_value(s, p.value(s.key));
  } catch (const core::InvalidParameter&) {
    return "(unset)";
  }
}

}  // namespace

TEST_CASE("every lesson opens with its figures at the defaults") {
  test::BlindApp b;
  REQUIRE(!b.state().views().empty());
  for (const app::ViewDef& v : b.state().views()) {
    CAPTURE(v.id);
    const int builds = b.app->figures().builds();
    REQUIRE(b.state().select_view(v.id));
    b.frames(3);
    CHECK(b.state().view().id == v.id);
    // Opening a lesson builds each of its figures once (no second build when
    // titles or scrollbars appear).
    const bool was_open = builds > 0 && v.id == b.state().views().front().id;  // the lesson the app opened on
    // Built: the figures the lesson view draws, and those a lesson's own screen
    // draws in its place (the lab lays its six out itself) — each once.
    const int built = static_cast<int>(std::count_if(v.figures.begin(), v.figures.end(), [&](const app::FigureDef& f) {
      return b.app->figures().find(v.id, f.id) != nullptr;
    }));
    CHECK(built >= drawn_figures(v));
    CHECK(b.app->figures().builds() - builds == (was_open ? 0 : built));
    REQUIRE(b.state().resolved() != nullptr);
    check_figures_built(b);
  }
  CHECK_FALSE(b.state().select_view("no-such-lesson"));
}

TEST_CASE("every parameter of every view across its range, and refused typed values") {
  test::BlindApp b;
  auto& st = b.state();
  int refused = 0, applied = 0;
  for (const app::ViewDef& v : st.views()) {
    REQUIRE(st.select_view(v.id));
    for (std::string_view key : v.keys) {
      const core::ParamSpec* spec = core::find_param(key);
      REQUIRE_MESSAGE(spec, "view " << v.id << " reads unknown key " << key);
      CAPTURE(v.id);
      CAPTURE(key);
      const auto t0 = std::chrono::steady_clock::now();
      if (std::getenv("POSLAB_TEST_VERBOSE")) std::fprintf(stderr, "%s/%s\n", std::string(v.id).c_str(), std::string(key).c_str());
      auto try_value = [&](const core::ParamValue& value) {
        const core::Params before = st.params();
        const std::string why = st.set_param(key, value);
        b.frames(1);
        if (why.empty()) {
          ++applied;
          CHECK(st.params().value(key) == value);
          check_figures_built(b);
        } else {
          ++refused;  // a rule between parameters (e.g. beta_fast > beta_slow): nothing changed
          CHECK(st.params() == before);
        }
      };
      switch (spec->type) {
        case core::ParamType::integer:
        case core::ParamType::real: {
          const bool pow2 = spec->scale == core::SliderScale::pow2;
          for (double t : {0.0, 1.0, 0.5})
            try_value(ui::snap(*spec, ui::interpolate(*spec, spec->ui_min, spec->ui_max, t), pow2));
          break;
        }
        case core::ParamType::boolean:
          try_value(true);
          try_value(false);
          break;
        case core::ParamType::choice:
          for (std::string_view c : core::param_choices(*spec)) try_value(std::string(c));
          break;
        case core::ParamType::list:
        case core::ParamType::vector:
          // no default: a list of positions, or a vector of positive numbers (LongRoPE's divisors)
          try_value(core::parse_param_value(*spec, !spec->default_text.empty()        ? spec->default_text
                                                   : spec->type == core::ParamType::list ? "0:9"
                                                                                         : "1,2"));
          break;
      }
      // An invalid typed value: refused with core's message, the old value kept.
      const core::Params before = st.params();
      const std::string old = shown(st.resolved() ? *st.resolved() : st.params(), *spec);
      for (const char* bad : {"not-a-number", "1e999", ""}) {
        if (spec->type == core::ParamType::boolean && std::string(bad).empty()) continue;
        const std::string msg = b.app->type_param(key, bad);
        CHECK_MESSAGE(!msg.empty(), "typed '" << bad << "' was accepted");
        CHECK(msg.find(std::string(key)) != std::string::npos);  // names the parameter
        CHECK(msg.find("Kept " + old) != std::string::npos);      // and the value that stays
        CHECK(b.app->params_panel().message(key) == msg);        // shown under the control
        CHECK(st.params() == before);
      }
      if (std::isfinite(spec->max) && (spec->type == core::ParamType::integer || spec->type == core::ParamType::real)) {
        const std::string too_big = core::format_number(spec->max * 2 + 2);
        CHECK_FALSE(b.app->type_param(key, too_big).empty());
        CHECK(st.params() == before);
      }
      b.frames(1);  // the panel draws the message
      st.reset_view();
      b.app->params_panel().clear_messages();
      b.frames(1);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      CHECK_MESSAGE(seconds < 60, v.id << "/" << key << " took " << seconds << " s across its range");
    }
  }
  MESSAGE(applied << " values applied, " << refused << " refused by a rule between parameters");
  CHECK(applied > refused);
}

TEST_CASE("a typed value that is valid is applied and clears the message") {
  test::BlindApp b;
  const auto [view, key] = test::lesson_with_numeric("base");
  REQUIRE(b.state().select_view(view));
  CHECK_FALSE(b.app->type_param(key, "not-a-number").empty());
  const core::ParamSpec& spec = core::param_spec(key);
  const std::string good = core::format_number(ui::snap(spec, ui::interpolate(spec, spec.ui_min, spec.ui_max, 0.3), true));
  CHECK(b.app->type_param(key, good).empty());
  CHECK(b.app->params_panel().message(key).empty());
  CHECK(core::format_number(b.state().params().real(key)) == good);
}

TEST_CASE("rules between parameters are refused inline") {
  test::BlindApp b;
  auto& st = b.state();
  bool tested = false;
  for (const app::ViewDef& v : st.views()) {
    const auto reads = [&](std::string_view k) { return std::find(v.keys.begin(), v.keys.end(), k) != v.keys.end(); };
    if (reads("buckets") && reads("bidirectional")) {
      REQUIRE(st.select_view(v.id));
      REQUIRE(st.set_param("bidirectional", true).empty());
      const core::Params before = st.params();
      const std::string why = st.set_param("buckets", 5.0);  // odd: half the buckets per direction
      CHECK(why.find("buckets") != std::string::npos);
      CHECK(st.params() == before);
      const std::string msg = b.app->type_param("buckets", "5");
      CHECK(msg.find("Kept") != std::string::npos);
      b.frames(1);
      tested = true;
    }
    if (reads("beta_fast") && reads("beta_slow")) {
      REQUIRE(st.select_view(v.id));
      const std::string why = st.set_param("beta_fast", st.resolved()->real("beta_slow") / 2);
      CHECK(why.find("beta_fast") != std::string::npos);
      tested = true;
    }
  }
  if (!tested) MESSAGE("no lesson reads buckets+bidirectional or beta_fast+beta_slow yet");
}

TEST_CASE("a shared key changed in one lesson can conflict in another: shown, and fixable") {
  test::BlindApp b;
  auto& st = b.state();
  const app::ViewDef* with_dims = nullptr;
  const app::ViewDef* without_dims = nullptr;
  for (const app::ViewDef& v : st.views()) {
    const bool d = std::find(v.keys.begin(), v.keys.end(), "d") != v.keys.end();
    const bool dims = std::find(v.keys.begin(), v.keys.end(), "dims") != v.keys.end();
    if (d && dims && !with_dims) with_dims = &v;
    if (d && !dims && !without_dims) without_dims = &v;
  }
  if (!with_dims || !without_dims) {
    MESSAGE("no pair of lessons sharing d with and without dims");
    return;
  }
  REQUIRE(st.select_view(without_dims->id));
  REQUIRE(st.set_param("d", 4.0).empty());  // fine here
  REQUIRE(st.select_view(with_dims->id));
  b.frames(2);  // draws the conflict banner instead of figures
  if (st.resolved()) return;  // the lesson's own dims default fits d = 4
  CHECK(st.resolve_error().find("dims") != std::string::npos);
  // Any valid value may be set while the lesson is broken (it may be the fix).
  CHECK(st.set_param("d", 256.0).empty());
  b.frames(1);
  CHECK(st.resolved() != nullptr);
  check_figures_built(b);
}

TEST_CASE("reset per parameter and per lesson; shared keys stay in sync across lessons") {
  test::BlindApp b;
  auto& st = b.state();
  std::vector<std::string> with_d;
  for (const app::ViewDef& v : st.views())
    if (std::find(v.keys.begin(), v.keys.end(), "d") != v.keys.end()) with_d.emplace_back(v.id);
  REQUIRE(!with_d.empty());
  REQUIRE(st.select_view(with_d.front()));
  REQUIRE(st.set_param("d", 64.0).empty());
  for (const std::string& id : with_d) {
    REQUIRE(st.select_view(id));
    b.frames(1);
    if (st.resolved()) CHECK(st.resolved()->integer("d") == 64);
  }
  st.reset_param("d");
  CHECK_FALSE(st.params().is_set("d"));
  REQUIRE(st.set_param("d", 32.0).empty());
  st.reset_view();
  CHECK_FALSE(st.params().is_set("d"));
}

TEST_CASE("presets: applying one sets its parameters and may open its lesson") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(!st.presets().empty());
  for (const app::Preset& p : st.presets()) {
    CAPTURE(p.id);
    const std::string why = b.app->apply_preset(p.id);
    if (!why.empty()) {
      MESSAGE("preset " << p.id << " refused here: " << why);
      continue;
    }
    b.frames(1);
    CHECK(st.preset_id() == p.id);
    if (app::find_view(p.view)) CHECK(st.view().id == p.view);
    for (const auto& [key, text] : p.params)
      CHECK(core::format_param_value(core::param_spec(key), st.params().value(key)) ==
            core::format_param_value(core::param_spec(key), core::parse_param_value(core::param_spec(key), text)));
  }
  CHECK_FALSE(b.app->apply_preset("no-such-preset").empty());
}

TEST_CASE("parameter panel: no name line repeats its unit (“嵌入维度 d（维）”), in either language") {
  // The unit's words — Chinese characters, English words of three letters or
  // more without a plural s — must not be in the name they follow.
  auto repeats = [](const std::string& name, const std::string& unit) {
    std::string lower;
    for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string word;
    auto word_in_name = [&] {
      if (!word.empty() && word.back() == 's') word.pop_back();
      const bool in = word.size() >= 3 && lower.find(word) != std::string::npos;
      word.clear();
      return in;
    };
    for (std::size_t i = 0; i < unit.size();) {
      const auto c = static_cast<unsigned char>(unit[i]);
      if (c >= 0xe0) {  // a CJK character (3 bytes in UTF-8)
        if (word_in_name() || name.find(unit.substr(i, 3)) != std::string::npos) return true;
        i += 3;
      } else if (std::isalpha(c)) {
        word += static_cast<char>(std::tolower(c)), ++i;
      } else {
        if (word_in_name()) return true;
        ++i;
      }
    }
    return word_in_name();
  };
  CHECK(repeats("嵌入维度 d", "维"));
  CHECK(repeats("head dimension d", "dims"));
  CHECK(repeats("每秒时间编号数", "个编号/秒"));
  CHECK_FALSE(repeats("query position m", "tokens"));
  int checked = 0;
  for (const char* lang : {"en", "zh"}) {
    const app::Translator tr = app::Translator::load(app::assets_dir(), lang);
    for (const core::ParamSpec& spec : core::param_specs()) {
      if (spec.unit.empty()) continue;
      const std::string unit = ui::param_unit(tr, spec);
      for (std::string_view group : {"", "absolute", "relative", "rotary", "extension", "models"}) {
        const std::string name = ui::param_name(tr, spec.key, group);
        CAPTURE(lang);
        CAPTURE(name);
        CAPTURE(unit);
        CHECK_FALSE(repeats(name, unit));
        ++checked;
      }
    }
  }
  CHECK(checked > 100);
  // d is a number of dimensions, said by its name; a position's unit stays.
  const app::Translator zh = app::Translator::load(app::assets_dir(), "zh");
  CHECK(ui::param_unit(zh, core::param_spec("d")).empty());
  CHECK(ui::param_unit(zh, core::param_spec("m")) == "token");
}
