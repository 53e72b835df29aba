// Sessions from the GUI (save, reload, refuse bad files without touching the
// state), the state string through the clipboard, exports (figures, the whole
// lesson, tables, a recorded sweep), and the `gui` request.

#include <doctest/doctest.h>

#include <fstream>

#include <imgui_internal.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "app/common/session.hpp"
#include "app/ui/image.hpp"
#include "app/ui/request.hpp"
#include "app/common/link.hpp"
#include "gui_test_support.hpp"

using namespace poslab;
namespace ui = poslab::app::ui;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("save a session, change everything, open it again") {
  test::BlindApp b;
  auto& st = b.state();
  const auto [view, key] = test::lesson_with_numeric("m");
  REQUIRE(st.select_view(view));
  const core::ParamSpec& spec = core::param_spec(key);
  REQUIRE(st.set_param(key, spec.ui_max).empty());
  st.animation().choose(key);
  b.app->set_theme("light");
  const fs::path file = b.dir / "sessions" / "lesson.poslab.json";
  CHECK(b.app->save_session(file).empty());
  REQUIRE(fs::exists(file));
  const app::Session saved = st.session();

  st.reset_view();
  st.animation().clear();
  b.app->set_theme("dark");
  st.select_view_index(static_cast<int>(st.views().size()) - 1);
  b.frames(1);
  CHECK(b.app->open_session(file).empty());
  b.frames(1);
  CHECK(st.view().id == view);
  CHECK(st.params().real(key) == spec.ui_max);
  CHECK(st.animation().config().key == key);
  CHECK(b.app->theme() == "light");
  CHECK(st.session() == saved);
}

TEST_CASE("during a lecture, a saved session opens as it was saved; the lecture ends in the session's theme") {
  // Found by the soak (frame 7163 of seed 1): in lecture mode the session
  // file records the theme the lecture returns to, but opening one put that
  // theme on the screen, so save-then-open changed what was shown.
  test::BlindApp b;
  b.app->set_theme("dark");
  b.app->set_lecture(true);
  b.app->set_theme("light");  // a theme picked during the lecture
  const fs::path file = b.dir / "lecture.poslab.json";
  REQUIRE(b.app->save_session(file).empty());
  CHECK(app::load_session_file(file).theme == "dark");  // what the lecture returns to
  const app::Session shown = b.state().session();
  b.app->set_theme("projector");
  CHECK(b.app->open_session(file).empty());
  CHECK(b.app->theme() == "projector");  // the screen keeps the lecture's theme
  b.app->set_theme("light");
  CHECK(b.state().session() == shown);
  b.app->set_lecture(false);
  CHECK(b.app->theme() == "dark");

  // A session with another theme opened during a lecture: that theme after it.
  app::Session other = app::load_session_file(file);
  other.theme = "projector";
  app::save_session_file(file, other);
  b.app->set_lecture(true);
  b.app->set_theme("light");
  CHECK(b.app->open_session(file).empty());
  CHECK(b.app->theme() == "light");
  b.app->set_lecture(false);
  CHECK(b.app->theme() == "projector");
}

TEST_CASE("corrupt, truncated, newer, hostile or unknown session files leave the state untouched") {
  test::BlindApp b;
  auto& st = b.state();
  const auto [view, key] = test::lesson_with_numeric();
  REQUIRE(st.select_view(view));
  REQUIRE(st.set_param(key, core::param_spec(key).ui_max).empty());
  const app::Session before = st.session();
  const std::string theme = b.app->theme();
  const std::pair<const char*, std::string> files[] = {
      {"corrupt", "{\"format\": \"poslab-session\", \"version\": 1, \"lesson\": \"ro"},
      {"newer", R"({"format": "poslab-session", "version": 99, "lesson": "rope"})"},
      {"foreign", R"({"hello": "world"})"},
      {"deep", std::string(50000, '[') + std::string(50000, ']')},
      {"wrong types", R"({"format": "poslab-session", "version": 1, "lesson": ["rope"]})"},
      {"unknown lesson", R"({"format": "poslab-session", "version": 1, "lesson": "no-such-lesson"})"},
      {"bad value", R"({"format": "poslab-session", "version": 1, "lesson": "rope", "params": {"d": "7"}})"},
      {"binary", std::string("\x89PNG\r\n\x1a\n\0\0\0", 12)},
  };
  for (const auto& file : files) {
    // Not a structured binding: clang < 16 cannot capture one in CAPTURE's lambda.
    const char* const name = file.first;
    const std::string& text = file.second;
    CAPTURE(name);
    const fs::path p = b.dir / (std::string(name) + ".json");
    write(p, text);
    const std::string msg = b.app->open_session(p);
    CHECK_FALSE(msg.empty());
    CHECK(b.app->toasts().last() == msg);
    CHECK(st.session() == before);
    CHECK(b.app->theme() == theme);
    b.frames(1);
  }
  CHECK_FALSE(b.app->open_session(b.dir / "missing.json").empty());
  CHECK(st.session() == before);
}

TEST_CASE("copy state, change it, paste it back; a bad state changes nothing") {
  test::BlindApp b;
  auto& st = b.state();
  const auto [view, key] = test::lesson_with_numeric("base");
  REQUIRE(st.select_view(view));
  const core::ParamSpec& spec = core::param_spec(key);
  REQUIRE(st.set_param(key, spec.ui_max).empty());
  const std::string state = b.app->copy_state();
  CHECK(state.rfind("poslab:1 lesson=" + view, 0) == 0);
  CHECK(std::string(ImGui::GetClipboardText()) == state);

  st.reset_view();
  st.select_view_index(0);
  b.frames(1);
  CHECK(b.app->paste_state().empty());  // from the clipboard
  CHECK(st.view().id == view);
  CHECK(st.params().real(key) == spec.ui_max);

  const app::Session before = st.session();
  for (const char* bad : {"hello", "poslab:1 lesson=nowhere", "poslab:1 lesson=rope d=7", "poslab:2 lesson=rope", ""}) {
    CAPTURE(bad);
    CHECK_FALSE(b.app->paste_state(bad).empty());
    CHECK(st.session() == before);
  }
  ImGui::SetClipboardText("not a state");
  b.app->run(ui::Action::paste_state);
  CHECK(st.session() == before);
}

TEST_CASE("copy link: the settings' base address, then the lesson and its set parameters; it opens the same state") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.select_view("scaling"));
  REQUIRE(st.set_assignments({"method=llama3", "factor=32"}).empty());
  // No base address configured: the fragment alone.
  std::string link = b.app->copy_link();
  CHECK(link == "#view=scaling&factor=32&method=llama3");
  CHECK(std::string(ImGui::GetClipboardText()) == link);
  b.app->settings().link_base = "https://example.org/course/poslab/index.html#old";
  b.app->run(ui::Action::copy_link);
  link = ImGui::GetClipboardText();
  CHECK(link == "https://example.org/course/poslab/index.html#view=scaling&factor=32&method=llama3");
  // The link reads back as the state it was copied from.
  const app::Session before = st.session();
  st.reset_view();
  st.select_view_index(0);
  const app::Session back = app::link_session(app::parse_link(link.substr(link.find('#'))));
  REQUIRE(st.apply_session(back).empty());
  CHECK(st.view().id == std::string_view("scaling"));
  CHECK(st.session().params == before.params);
}

TEST_CASE("the lab: a link carries lab_train (the trained lab, as the sender saw it); Reset lesson takes it back to untrained") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.select_view("lab"));
  // No frame is drawn: nothing trains here.
  REQUIRE(st.set_assignments({"lab_train=true", "lab_seeds=1", "lab_steps=20"}).empty());
  const std::string link = b.app->copy_link();
  CHECK(link.find("lab_train=true") != std::string::npos);
  CHECK(link.find("lab_steps=20") != std::string::npos);
  auto has = [&](std::string_view key) {
    for (const auto& [k, v] : st.session().params)
      if (k == key) return true;
    return false;
  };
  REQUIRE(has("lab_train"));
  st.reset_view();
  CHECK_FALSE(has("lab_train"));
  CHECK_FALSE(has("lab_steps"));
  // And the link reads back as the trained state.
  REQUIRE(st.apply_session(app::link_session(app::parse_link(link.substr(link.find('#'))))).empty());
  CHECK(has("lab_train"));
  st.reset_view();
}

namespace {

/// The text of an HTML attribute (&amp; &lt; &gt; &quot;) as the browser reads it.
std::string unescape_attribute(std::string s) {
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}})
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

/// Whether ImGui drew window `name` in the last frame.
bool window_drawn(const char* name) {
  const ImGuiWindow* w = ImGui::FindWindowByName(name);
  return w && w->WasActive;
}

}  // namespace

TEST_CASE("copy embed code: an <iframe> of the figure in front and the sliders that change it; its link opens that embed") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.select_view("rope"));
  (void)st.go_to_step(-1);
  REQUIRE(st.set_assignments({"d=128", "base=500000"}).empty());
  st.set_theme("light");
  b.frames(2);
  b.app->settings().link_base = "https://example.org/course/poslab/index.html#old";
  b.app->run(ui::Action::copy_embed);
  const std::string code = ImGui::GetClipboardText();
  CAPTURE(code);
  const std::string head = "<iframe src=\"https://example.org/course/poslab/index.html#embed&amp;view=rope&amp;figure=frequencies";
  CHECK(code.rfind(head, 0) == 0);
  CHECK(code.find("width=\"800\" height=\"500\"") != std::string::npos);
  CHECK(code.find("title=\"poslab: ") != std::string::npos);
  CHECK(code.find("\"></iframe>") != std::string::npos);
  CHECK(code.find('\n') == std::string::npos);
  // The link inside reads back as an embed of this figure, at this state, theme and language.
  const std::size_t from = code.find('"') + 1, to = code.find('"', from);
  const std::string src = unescape_attribute(code.substr(from, to - from));
  const app::LinkRequest link = app::parse_link(src.substr(src.find('#')));
  CHECK(link.error.empty());
  CHECK(link.embed);
  CHECK(link.view == "rope");
  CHECK(link.figure == "frequencies");
  CHECK(link.theme == "light");
  CHECK(link.lang == "en");
  // The sliders: the keys the figure reads, in the lesson's order (d and base among them; m is not one).
  const ui::FigureCache::Entry* built = b.app->figures().find("rope", "frequencies");
  REQUIRE(built != nullptr);
  CHECK(!link.sliders.empty());
  for (const std::string& k : link.sliders)
    CHECK(std::find(built->reads.begin(), built->reads.end(), k) != built->reads.end());
  CHECK(std::find(link.sliders.begin(), link.sliders.end(), "d") != link.sliders.end());
  CHECK(std::find(link.sliders.begin(), link.sliders.end(), "base") != link.sliders.end());
  CHECK(std::find(link.sliders.begin(), link.sliders.end(), "m") == link.sliders.end());
  CHECK(app::link_session(link).params == st.session().params);
  // A guided step that names its sliders: those.
  REQUIRE(st.steps() != nullptr);
  for (int i = 0; i < static_cast<int>(st.steps()->scenes.size()); ++i)
    if (!st.steps()->scenes[static_cast<std::size_t>(i)].sliders.empty()) {
      REQUIRE(st.go_to_step(i).empty());
      b.frames(1);
      const std::string step_code = b.app->copy_embed_code();
      const std::string step_src = unescape_attribute(step_code.substr(from, step_code.find('"', from) - from));
      CHECK(app::parse_link(step_src.substr(step_src.find('#'))).sliders == st.current_step()->sliders);
      break;
    }
}

TEST_CASE("embed mode: one figure and the named sliders fill the window; no menus, no lesson list, no shortcuts") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.select_view("rope"));
  (void)st.go_to_step(-1);
  app::EmbedOptions e;
  e.figure = "frequencies";
  e.sliders = {"d", "base"};
  CHECK(b.app->set_embed(e).empty());
  for (const ImVec2 size : {ImVec2{400, 300}, ImVec2{800, 500}, ImVec2{1600, 1000}}) {
    CAPTURE(size.x);
    b.display = size;
    b.frames(3);
    CHECK(window_drawn("##embed"));
    CHECK_FALSE(window_drawn("##shell"));
    CHECK(b.app->params_panel().drawn() == std::vector<std::string>{"d", "base"});
    // The plot takes most of the window; nothing is drawn outside it.
    const ImVec4 r = b.app->lesson_view().last_plot_rect();
    CHECK(r.x >= 0);
    CHECK(r.z <= size.x);
    CHECK(r.w <= size.y);
    CHECK((r.z - r.x) > 0.85f * size.x);
    CHECK((r.w - r.y) > (size.y < 400 ? 0.3f : 0.5f) * size.y);
    REQUIRE(b.app->figures().find("rope", "frequencies") != nullptr);
    CHECK(b.app->figures().find("rope", "dials") == nullptr);  // no other figure is built
  }
  // Shortcuts do nothing in a course page (2 would switch lessons, F5 lecture mode).
  b.platform.key_events = true;
  b.app->key_event(GLFW_KEY_2, ui::kKeyPress, 0);
  b.app->key_event(GLFW_KEY_F5, ui::kKeyPress, 0);
  b.frames(2);
  CHECK(st.view().id == std::string_view("rope"));
  CHECK_FALSE(b.app->lecture());
  b.platform.key_events = false;
  // What the lesson does not have is left out, and said.
  e.figure = "no-such-figure";
  e.sliders = {"d", "heads", "d"};
  const std::string why = b.app->set_embed(e);
  CHECK(why.find("no-such-figure") != std::string::npos);
  CHECK(why.find("heads") != std::string::npos);
  b.frames(2);
  REQUIRE(b.app->embed() != nullptr);
  CHECK(b.app->embed()->figure == st.front_figure());
  CHECK(b.app->params_panel().drawn() == std::vector<std::string>{"d"});
  // No sliders named: none drawn.
  e.sliders.clear();
  e.figure = "dials";
  CHECK(b.app->set_embed(e).empty());
  b.frames(2);
  CHECK(b.app->params_panel().drawn().empty());
  CHECK(b.app->figures().find("rope", "dials") != nullptr);
}

TEST_CASE("export from the GUI: one figure, every figure of the lesson, tables") {
  test::BlindApp b;
  auto& st = b.state();
  const app::ViewDef& v = st.view();
  REQUIRE(!v.figures.empty());
  ui::ExportChoice& c = b.app->export_choice();
  c.png = c.svg = c.pdf = c.csv = true;
  c.options.width = 800;
  c.options.height = 500;
  const auto files = b.app->export_lesson();
  CHECK(files.size() == v.figures.size() * 4);
  for (const fs::path& f : files) {
    CAPTURE(f);
    CHECK(fs::file_size(f) > 100);
    if (f.extension() == ".png") {
      const ui::Image img = ui::decode_png(read(f));
      CHECK(img.width == 800);
      CHECK(img.height == 500);
    }
  }
  CHECK(b.app->toasts().last().find(c.dir.string()) != std::string::npos);  // says where

  const std::string one = b.app->export_figure(v.figures.front().id, app::ExportFormat::svg);
  CHECK(one == (c.dir / (std::string(v.id) + "-" + std::string(v.figures.front().id) + ".svg")).string());
  CHECK(read(one).find("<svg") != std::string::npos);

  // An export folder that cannot be created: a message, no crash.
  write(b.dir / "a-file", "x");
  c.dir = b.dir / "a-file" / "sub";
  CHECK(b.app->export_lesson().empty());
  CHECK(b.app->toasts().last_kind() == ui::ToastKind::error);

  // Every table of every lesson can be copied as Markdown, LaTeX and CSV.
  ui::UiContext ctx = b.app->context();
  for (const app::ViewDef& view : st.views()) {
    REQUIRE(st.select_view(view.id));
    for (std::string_view t : view.tables) {
      CAPTURE(t);
      std::string error;
      for (auto f : {app::TableFormat::md, app::TableFormat::tex, app::TableFormat::csv})
        CHECK_MESSAGE(!b.app->lesson_view().tables().text(ctx, t, f, &error).empty(), error);
    }
  }
}

TEST_CASE("a played sweep saved as an animated GIF and as numbered PNGs") {
  test::BlindApp b;
  auto& st = b.state();
  const auto [view, key] = test::lesson_with_numeric("m");
  REQUIRE(st.select_view(view));
  REQUIRE(!st.view().figures.empty());
  st.animation().choose(key);
  ui::UiContext ctx = b.app->context();
  CHECK(b.app->export_ui().start_sweep(ctx, b.app->recorder(), 0, ui::SweepFormat::gif, 4).empty());
  for (int i = 0; i < 20 && b.app->recorder().active(); ++i) b.frames(1);
  CHECK_FALSE(b.app->recorder().active());
  CHECK(b.app->recorder().error().empty());
  CHECK(b.app->recorder().frames_written() >= 1);
  const fs::path gif = b.app->recorder().output();
  REQUIRE(fs::exists(gif));
  CHECK(read(gif).substr(0, 6) == "GIF89a");
  CHECK(b.app->toasts().last().find(gif.string()) != std::string::npos);

  ui::UiContext ctx2 = b.app->context();
  CHECK(b.app->export_ui().start_sweep(ctx2, b.app->recorder(), 0, ui::SweepFormat::png_sequence, 3).empty());
  for (int i = 0; i < 20 && b.app->recorder().active(); ++i) b.frames(1);
  int pngs = 0;
  for (const auto& e : fs::directory_iterator(b.app->export_choice().dir))
    pngs += e.path().extension() == ".png" && e.path().filename().string().find("-000") != std::string::npos;
  CHECK(pngs == b.app->recorder().frames_written());
  CHECK(pngs >= 1);

  st.animation().clear();
  ui::UiContext ctx3 = b.app->context();
  CHECK_FALSE(b.app->export_ui().start_sweep(ctx3, b.app->recorder(), 0, ui::SweepFormat::gif, 4).empty());
}

TEST_CASE("the gui/screenshot request: view, preset, sets, theme; bad input named in one line") {
  ui::AppState st(app::load_presets(app::assets_dir()));
  app::WindowRequest r;
  const auto [view, key] = test::lesson_with_numeric("base");
  r.view = view;
  r.sets = {key + "=" + core::format_number(core::param_spec(key).ui_max)};
  r.theme = "projector";
  CHECK(ui::apply_window_request(st, r).empty());
  CHECK(st.view().id == view);
  CHECK(st.theme() == "projector");

  auto refused = [](app::WindowRequest bad) {
    ui::AppState s(app::load_presets(app::assets_dir()));
    return ui::apply_window_request(s, bad);
  };
  CHECK(refused({.view = "nowhere"}).find("unknown view 'nowhere'") != std::string::npos);
  CHECK(refused({.preset = "nothing"}).find("preset = nothing") != std::string::npos);
  CHECK(refused({.sets = {"bogus=1"}}).find("unknown parameter") != std::string::npos);
  CHECK(refused({.sets = {"d=7"}}).find("d = 7") != std::string::npos);
  CHECK(refused({.theme = "neon"}).find("theme = neon") != std::string::npos);
  CHECK(refused({.session = "/nonexistent/s.json"}).find("/nonexistent/s.json") != std::string::npos);
}

TEST_CASE("settings and the autosave carry the lesson, theme, scale and parameters to the next start") {
  const fs::path config = fs::temp_directory_path() / ("poslab-persist-" + std::to_string(::getpid()));
  fs::remove_all(config);
  const auto [view, key] = test::lesson_with_numeric("base");
  const double value = core::param_spec(key).ui_max;
  {
    ui::BlindPlatform platform;
    ui::AppOptions o{.assets = app::assets_dir(), .lang = "en", .persist = true, .config_dir = config};
    ui::App first(platform, o);
    REQUIRE(first.state().select_view(view));
    REQUIRE(first.state().set_param(key, value).empty());
    first.set_theme("light");
    first.set_ui_scale(1.5f);
    first.blind_frame();
    first.save_on_exit();
  }
  CHECK(fs::exists(config / "settings.json"));
  CHECK(fs::exists(config / "autosave.json"));
  {
    ui::BlindPlatform platform;
    ui::AppOptions o{.assets = app::assets_dir(), .lang = "en", .persist = true, .config_dir = config};
    ui::App second(platform, o);
    second.blind_frame();
    CHECK(second.state().view().id == view);
    CHECK(second.state().params().real(key) == value);
    CHECK(second.theme() == "light");
    CHECK(second.ui_scale() == doctest::Approx(1.5));
  }
  // A broken settings file or autosave: defaults, a message, and the app still starts.
  {
    std::ofstream(config / "settings.json") << "{ nope";
    std::ofstream(config / "autosave.json") << "[[[[";
    ui::BlindPlatform platform;
    ui::AppOptions o{.assets = app::assets_dir(), .lang = "en", .persist = true, .config_dir = config};
    ui::App third(platform, o);
    third.blind_frame();
    CHECK(third.toasts().history().size() >= 2);
    CHECK(third.ui_scale() == doctest::Approx(1.0));
  }
  fs::remove_all(config);
}
