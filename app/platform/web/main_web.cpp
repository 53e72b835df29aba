// poslab in the browser: the page's program. The same App as the desktop
// (app/ui/), on WebPlatform; this file is what only a page has — the link in
// the address bar, downloads instead of an export folder, settings and the
// autosave in localStorage (web/poslab.js copies them to and from /config),
// the language from the browser, the page's Web Worker (page_worker.hpp)
// that builds slow figures, an embed in a course page, the bench.

#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "app/common/i18n.hpp"
#include "app/common/messages.hpp"
#include "app/export/figure_export.hpp"
#include "app/lessons/lesson.hpp"
#include "app/common/link.hpp"
#include "app/platform/web/page_worker.hpp"
#include "app/platform/web/web_platform.hpp"
#include "app/plot/render.hpp"
#include "app/ui/a11y_mirror.hpp"
#include "app/ui/app.hpp"
#include "app/ui/bench_frames.hpp"
#include "app/ui/remote_builds.hpp"
#include "app/ui/settings.hpp"

extern "C" {
void poslab_js_set_fragment(const char* text);
char* poslab_js_fragment();
void poslab_js_message(const char* text, int is_error);
void poslab_js_download(const char* path);
void poslab_js_persist();
void poslab_js_text_input(int on);
}

namespace poslab::app::web {

namespace fs = std::filesystem;

namespace {

const fs::path kAssets = "/assets";
const fs::path kConfig = "/config";        // filled from localStorage before main (web/poslab.js)
const fs::path kDownloads = "/downloads";  // every file written here is handed to the user

struct Page {
  std::unique_ptr<WebPlatform> platform;
  std::unique_ptr<ui::App> app;
  std::string fragment;    ///< the fragment last written to the address bar
  double last_persist = 0;  ///< emscripten_get_now() of the last save to localStorage
  bool persist_due = false;
  long persist_timer = 0;   ///< a pending persist_now (0 = none)
  std::unique_ptr<ui::BenchRun> bench;  ///< #bench, while it runs
  nlohmann::ordered_json bench_report;
  std::string bench_text;
};

Page* g_page = nullptr;

std::string current_fragment() {
  char* text = poslab_js_fragment();
  std::string out = text ? text : "";
  std::free(text);
  return out;
}

/// The language: the link's lang=, else the one chosen in the app (settings),
/// else the browser's (navigator.language, given to the program as LANG).
std::string choose_lang(const LinkRequest& link) {
  if (link.lang == "en" || link.lang == "zh") return link.lang;
  const ui::Settings s = ui::load_settings(kConfig / "settings.json");
  if (s.lang == "en" || s.lang == "zh") return s.lang;
  const std::string system = system_language();
  return system == "zh" ? "zh" : "en";
}

/// Opens what the link asks for. A link that cannot be applied as it is
/// opens its lesson with the defaults and says what is wrong — never a blank page.
void apply_link(ui::App& app, const std::string& fragment) {
  LinkRequest link = parse_link(fragment);
  ui::AppState& state = app.state();
  std::string why = link.error;
  if (why.empty() && !link.lang.empty() && link.lang != "en" && link.lang != "zh")
    why = "lang = " + link.lang.substr(0, 40) + ": must be en or zh";
  if (why.empty() && !link.theme.empty()) {
    try {
      (void)fig::Theme::by_name(link.theme);
    } catch (const std::exception& e) {
      why = state.refusal(e);
    }
  }
  if (why.empty() && (!link.view.empty() || !link.state.empty() || !link.params.empty())) {
    if (link.view.empty() && link.state.empty()) link.view = std::string(state.view().id);
    try {
      why = state.apply_session(link_session(link));
    } catch (const std::exception& e) {
      why = state.refusal(e);
    }
    if (why.empty()) why = state.go_to_step(link.step > 0 ? link.step - 1 : -1);
  }
  if (why.empty()) {
    if (!link.theme.empty()) state.set_theme(link.theme);
    if (link.lang == "en" || link.lang == "zh") app.set_lang(link.lang);
  } else if (find_view(link.view)) {
    state.select_view(link.view);
    state.reset_view();
    (void)state.go_to_step(-1);
  }
  if (link.embed) {
    // One figure and the named sliders (after the lesson and its state).
    EmbedOptions e;
    e.figure = link.figure;
    e.sliders = link.sliders;
    e.theme = link.theme;
    e.lang = link.lang == "en" || link.lang == "zh" ? link.lang : "";
    const std::string left_out = app.set_embed(std::move(e));
    if (why.empty()) why = left_out;
    else if (!left_out.empty()) why += "; " + left_out;
    if (why.empty()) return;
    // A course page's reader gets one line, not the app's whole story.
    const std::string message = app.tr().format("web.embed.bad", {{"message", why}});
    poslab_js_message(message.c_str(), 1);
    return;
  }
  if (why.empty()) return;
  const std::string message = app.tr().format("web.link.bad", {{"message", why}});
  app.toasts().push(message, ui::ToastKind::error);
  poslab_js_message(message.c_str(), 1);
}

/// Settings and the autosave into localStorage: at once, or — within a
/// second of the last save, as while a slider is dragged — a second after it
/// (a timer, so it happens even when no frame follows).
void persist_now() {
  Page& page = *g_page;
  page.app->save_on_exit();
  poslab_js_persist();
  page.persist_due = false;
  page.last_persist = emscripten_get_now();
}

void persist_soon() {
  Page& page = *g_page;
  const double wait = page.last_persist + 1000 - emscripten_get_now();
  if (wait <= 0) {
    persist_now();
  } else if (!page.persist_timer) {
    page.persist_timer = emscripten_set_timeout(
        [](void*) {
          g_page->persist_timer = 0;
          if (g_page->persist_due) persist_now();
        },
        wait, nullptr);
  }
}

/// The on-screen keyboard (issue 33): the page focuses a field of its own
/// while the program types into one (a phone shows its keyboard for a
/// focused field only) and hands its characters over (poslab_text_input).
void follow_text_input() {
  static bool typing = false;
  const bool now = ImGui::GetCurrentContext() && ImGui::GetIO().WantTextInput;
  if (now != typing) poslab_js_text_input(now ? 1 : 0);
  typing = now;
}

/// After every frame: the address bar follows what is shown, files written
/// for the user are handed over, and the settings reach localStorage.
void after_frame() {
  Page& page = *g_page;
  ui::App& app = *page.app;
  const ViewDef& view = app.state().view();
  const std::string fragment = app.embed() ? embed_fragment(app.state().session(), link_keys(view), *app.embed())
                                           : link_fragment(app.state().session(), link_keys(view));
  if (fragment != page.fragment) {
    page.fragment = fragment;
    poslab_js_set_fragment(fragment.c_str());
    page.persist_due = true;
  }
  std::error_code ec;
  for (const fs::path& dir : {kDownloads, app.export_choice().dir}) {
    if (dir.empty() || !fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.is_regular_file(ec) && entry.path().filename().string().find(".tmp") == std::string::npos)
        files.push_back(entry.path());
    for (const fs::path& f : files) poslab_js_download(f.c_str());
  }
  if (page.persist_due) persist_soon();
  follow_text_input();
}

}  // namespace

}  // namespace poslab::app::web

using namespace poslab::app;

extern "C" {

EMSCRIPTEN_KEEPALIVE void poslab_wake() {
  if (web::g_page) web::g_page->platform->wake();
}

EMSCRIPTEN_KEEPALIVE void poslab_resize() {
  if (web::g_page) web::g_page->platform->resized();
}

/// The user edited the address (or followed a link to this page): open it.
EMSCRIPTEN_KEEPALIVE void poslab_hash_changed() {
  if (!web::g_page) return;
  const std::string fragment = web::current_fragment();
  if (fragment == web::g_page->fragment) return;  // our own replaceState
  web::apply_link(*web::g_page->app, fragment);
  web::g_page->platform->wake();
}

/// The page is being hidden or left: settings and the autosave now.
EMSCRIPTEN_KEEPALIVE void poslab_save_now() {
  if (web::g_page) web::persist_now();
}

/// A file the user dropped on the page or picked (web/page.js wrote it
/// here): a session, a deck or a model's config.json, told apart by content.
EMSCRIPTEN_KEEPALIVE void poslab_open_file(const char* path) {
  if (!web::g_page || !path) return;
  web::g_page->app->open_file(path);
  web::g_page->platform->wake();
}

/// The earlier name of poslab_open_file (pages written for it keep working).
EMSCRIPTEN_KEEPALIVE void poslab_open_session(const char* path) { poslab_open_file(path); }

/// Exports figure `figure` of the lesson shown in `format` (png, svg, pdf,
/// csv) as the figure's Export menu does: the file becomes a download after
/// the next frame. Returns 1 when it was written (tests/web drives it).
EMSCRIPTEN_KEEPALIVE int poslab_export(const char* figure, const char* format) {
  if (!web::g_page || !figure || !format) return 0;
  ui::App& app = *web::g_page->app;
  std::string written;
  try {
    written = app.export_figure(figure, parse_export_format(format));
  } catch (const std::exception& e) {
    app.toasts().push(error_text(app.tr(), e), ui::ToastKind::error);
  }
  web::g_page->platform->wake();
  return written.empty() ? 0 : 1;
}

/// `poslab bench`'s frame measurements in the browser (index.html#bench
/// runs it once the page is up, web/page.js): the same blind App, every key
/// of every lesson — or, given `views` ("why-position,alibi", from
/// index.html#bench=…), those views alone, as `poslab bench --view`. The
/// App's slow figures are built in the page's worker, as for a student,
/// unless `in_place` (in the frame: the page before it had a worker); the
/// lessons are not warmed up unless `warm` (V8 optimizes a wasm function
/// once it has run hot: without it the first seconds of each drag count).
/// `keys` ("clip,positions", from &keys=…): those keys alone; `max_only`
/// (&max): at the maxima alone. Returns 1 when the bench started; then call poslab_bench_step until it
/// returns -1 and read poslab_bench_report.
EMSCRIPTEN_KEEPALIVE int poslab_bench_start(const char* views, int in_place, int warm, const char* keys, int max_only) {
  if (!web::g_page) return 0;
  web::Page& page = *web::g_page;
  page.bench.reset();
  page.bench_text.clear();
  nlohmann::ordered_json& report = page.bench_report;
  report = nlohmann::ordered_json::object();
  std::vector<std::string> only;
  for (std::string_view rest = views ? views : ""; !rest.empty();) {
    const size_t comma = rest.find(',');
    const std::string_view id = rest.substr(0, comma);
    if (!id.empty()) only.emplace_back(id);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  for (const std::string& id : only)
    if (!find_view(id)) {  // as `poslab bench --view`: a misspelt lesson is named, nothing is measured
      report["error"] = "#bench=" + id + ": no such view (the ids of poslab list views)";
      report["exit"] = 2;
      page.bench_text = report.dump(2);
      return 0;
    }
  if (!only.empty()) report["views_requested"] = only;
  std::vector<std::string> only_keys;
  for (std::string_view rest = keys ? keys : ""; !rest.empty();) {
    const size_t comma = rest.find(',');
    if (const std::string_view k = rest.substr(0, comma); !k.empty()) only_keys.emplace_back(k);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  if (!only_keys.empty()) report["keys_requested"] = only_keys;
  if (max_only) report["max_only_requested"] = true;
  if (in_place) report["in_place_requested"] = true;
  if (warm) report["warm_up_requested"] = true;
  ui::RemoteBuilds* worker = in_place ? nullptr : &web::page_worker();
  ImGuiContext* page_context = ImGui::GetCurrentContext();
  page.bench = std::make_unique<ui::BenchRun>(&report, worker);
  ImGui::SetCurrentContext(page_context);
  return 1;
}

/// Runs the bench up to its next frame. Returns the milliseconds to wait
/// before the next call (frames are paced at 60 Hz), -2 when it waits for
/// the worker's figures (call again once poslab_bench_figures_pending() is
/// 0), -1 when it is over (the report is ready).
EMSCRIPTEN_KEEPALIVE double poslab_bench_step() {
  if (!web::g_page || !web::g_page->bench) return -1;
  web::Page& page = *web::g_page;
  // The bench's App has an ImGui context of its own; the page's is current
  // again whenever the browser runs (its input callbacks write into it).
  struct PageContext {
    ImGuiContext* saved = ImGui::GetCurrentContext();
    ~PageContext() { ImGui::SetCurrentContext(saved); }
  } page_context;
  if (page.bench->next()) {
    const ui::BenchPause& p = page.bench->pause();
    if (p.figures) return -2;
    const double now = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
    return p.until_ms > now ? p.until_ms - now : 0;
  }
  page.bench_report["exit"] = page.bench->exit_code();
  page.bench.reset();
  page.bench_text = page.bench_report.dump(2);
  return -1;
}

/// Jobs of the bench's App still in the page's worker.
EMSCRIPTEN_KEEPALIVE int poslab_bench_figures_pending() {
  const web::Page* page = web::g_page;
  ui::App* app = page && page->bench ? page->bench->app() : nullptr;
  return app ? app->figures().remote_in_flight() : 0;
}

/// The bench's JSON report (after poslab_bench_step returned -1, or the
/// refusal when poslab_bench_start returned 0).
EMSCRIPTEN_KEEPALIVE const char* poslab_bench_report() { return web::g_page ? web::g_page->bench_text.c_str() : "{}"; }

// ---- the page's worker (web/page.js passes its messages on)

/// The worker is up (1) or gone (0): slow figures go to it from now on (or no more).
EMSCRIPTEN_KEEPALIVE void poslab_worker_ready(int ready) {
  web::page_worker().set_ready(ready != 0);
  if (web::g_page) web::g_page->platform->wake();
}

/// Job `id` finished: its reply's bytes.
EMSCRIPTEN_KEEPALIVE void poslab_worker_landed(double id, const char* bytes, int length) {
  web::page_worker().landed(static_cast<std::uint64_t>(id),
                            std::string_view(bytes, length > 0 ? static_cast<std::size_t>(length) : 0));
}

/// The page's own thread warming up (web/page.js, "warming up"): one reply
/// of the worker's warm-up ('f' a figure's, 'r' readouts', then the reply's
/// bytes, WarmJob's hand_back) decoded as a landing one is and, a figure,
/// laid out and drawn off screen once (App::warm_plot); nothing is kept or
/// shown. V8 runs this thread's wasm as baseline code until a function has
/// run enough: landing and drawing figures at the largest sizes cold trailed
/// the slider 3–4× longer than warm (docs/PERFORMANCE.md). Returns its ms,
/// or −1 for bytes it cannot read.
EMSCRIPTEN_KEEPALIVE double poslab_warm_land(const char* bytes, int length) {
  if (!web::g_page || !bytes || length < 1) return -1;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string_view reply(bytes + 1, static_cast<std::size_t>(length) - 1);
  try {
    if (bytes[0] == 'f') {
      const ui::FigureReply r = ui::decode_figure_reply(reply);
      if (!r.result.error.empty() || r.build_here) return -1;
      (void)web::g_page->app->warm_plot(r.result.figure);
    } else if (bytes[0] == 'r') {
      if (!ui::decode_readouts_reply(reply).result.error.empty()) return -1;
    } else {
      return -1;
    }
  } catch (const std::exception&) {
    return -1;
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// Job `id` failed (its message).
EMSCRIPTEN_KEEPALIVE void poslab_worker_failed(double id, const char* why) {
  web::page_worker().failed(static_cast<std::uint64_t>(id), why ? why : "");
}

/// How far job `id` is.
EMSCRIPTEN_KEEPALIVE void poslab_worker_progress(double id, double done, double total, const char* note) {
  web::page_worker().progressed(static_cast<std::uint64_t>(id), {done, total, note ? note : ""});
}

/// A newer version of the site is cached and waits for the next visit
/// (web/sw.js): said once, in the app's language; this page stays as it is.
EMSCRIPTEN_KEEPALIVE void poslab_site_update(const char* version) {
  if (!web::g_page || !version) return;
  ui::App& app = *web::g_page->app;
  if (app.embed()) return;  // a course page's reader has nothing to do about it
  app.toasts().push(app.tr().format("web.update.ready", {{"version", version}}), ui::ToastKind::info);
  web::g_page->platform->wake();
}

/// The worker stopped: what is in flight fails, figures are built in place from now on.
EMSCRIPTEN_KEEPALIVE void poslab_worker_died(const char* why) {
  web::page_worker().died(why ? why : "");
  if (web::g_page) web::g_page->platform->wake();
}

/// Characters the page's keyboard field received (page.js): typed into the
/// program's field being edited.
EMSCRIPTEN_KEEPALIVE void poslab_text_input(const char* text) {
  if (!web::g_page || !text || !ImGui::GetCurrentContext()) return;
  ImGui::GetIO().AddInputCharactersUTF8(text);
  web::g_page->platform->wake();
}

/// What the App drew in its last frame, as JSON (tests/web): embed mode or
/// not, the display in device pixels, the last plot's rectangle, the figure
/// in front, the sliders drawn, the root windows drawn.
EMSCRIPTEN_KEEPALIVE const char* poslab_screen() {
  static std::string text;
  if (!web::g_page) return "{}";
  ui::App& app = *web::g_page->app;
  if (!ImGui::GetCurrentContext()) return "{}";
  nlohmann::ordered_json j;
  j["embed"] = app.embed() != nullptr;
  const ImGuiIO& io = ImGui::GetIO();
  j["display"] = {std::lround(io.DisplaySize.x), std::lround(io.DisplaySize.y)};
  const ImVec4 r = app.lesson_view().last_plot_rect();
  j["plot"] = {r.x, r.y, r.z, r.w};
  j["figure"] = app.embed() ? app.embed()->figure : app.state().front_figure();
  j["sliders"] = app.params_panel().drawn();
  nlohmann::ordered_json windows = nlohmann::ordered_json::array();
  for (const ImGuiWindow* w : GImGui->Windows)
    if (w->WasActive && !(w->Flags & ImGuiWindowFlags_ChildWindow)) windows.push_back(w->Name);
  j["windows"] = windows;
  // The narrow layout's widgets (issue 33), in device pixels like "display".
  j["narrow"] = app.narrow();
  j["step"] = app.state().current_step() ? app.state().step() + 1 : 0;  ///< the guided step shown, 1-based (0: none)
  j["ratio"] = web::g_page->platform->content_scale();
  nlohmann::ordered_json boxes = nlohmann::ordered_json::array();
  for (const ui::LaidOutBox& b : app.laid_out())
    boxes.push_back({{"kind", b.kind}, {"id", b.id}, {"rect", {b.rect.x, b.rect.y, b.rect.z, b.rect.w}}});
  j["boxes"] = boxes;
  text = j.dump();
  return text.c_str();
}

/// Help → About's lines, joined by new lines (tests/web).
EMSCRIPTEN_KEEPALIVE const char* poslab_about() {
  static std::string text;
  if (!web::g_page) return "";
  text = web::g_page->app->tr().format("ui.about", {{"version", POSLAB_VERSION}});
  for (const std::string& line : web::g_page->platform->about_lines(web::g_page->app->tr())) text += "\n" + line;
  return text.c_str();
}

/// Frames drawn so far (the tests wait for the first ones).
EMSCRIPTEN_KEEPALIVE long poslab_frames() { return web::g_page ? web::g_page->platform->frames_drawn() : 0; }

// ---- the accessible mirror (web/page.js's a11y panel; app/ui/a11y_mirror.hpp):
// the step's text, its controls and the figure's description as HTML.

/// The mirror as JSON ("{}" before the first frame).
EMSCRIPTEN_KEEPALIVE const char* poslab_a11y_state() {
  static std::string text;
  if (!web::g_page || web::g_page->platform->frames_drawn() == 0) return "{}";
  text = ui::a11y_state(*web::g_page->app);
  return text.c_str();
}

/// "" or the refusal, kept for the caller to read; the App draws the change.
static const char* a11y_answer(std::string why) {
  static std::string text;
  text = std::move(why);
  if (web::g_page) web::g_page->platform->wake();
  return text.c_str();
}

/// A slider of the mirror moved to `position` (0..its "positions").
EMSCRIPTEN_KEEPALIVE const char* poslab_a11y_slide(const char* key, double position) {
  if (!web::g_page || !key) return "";
  return a11y_answer(ui::a11y_set_position(*web::g_page->app, key, position));
}

/// A choice or a checkbox of the mirror changed: `key` = `text` as typed.
EMSCRIPTEN_KEEPALIVE const char* poslab_a11y_set(const char* key, const char* text) {
  if (!web::g_page || !key || !text) return "";
  return a11y_answer(ui::a11y_set_text(*web::g_page->app, key, text));
}

/// A button of the mirror: prev, next, all, step:N, figure:ID.
EMSCRIPTEN_KEEPALIVE const char* poslab_a11y_action(const char* action) {
  if (!web::g_page || !action) return "";
  return a11y_answer(ui::a11y_action(*web::g_page->app, action));
}

}  // extern "C"

int main() {
  ::setenv("POSLAB_ASSETS", web::kAssets.c_str(), 1);
  std::error_code ec;
  std::filesystem::create_directories(web::kConfig, ec);
  std::filesystem::create_directories(web::kDownloads, ec);

  std::string error;
  auto* page = new web::Page();  // lives as long as the page
  page->platform = web::WebPlatform::create(error);
  if (!page->platform) {
    poslab_js_message(error.c_str(), 1);
    return 1;
  }
  const std::string fragment = web::current_fragment();
  const LinkRequest link = parse_link(fragment);
  try {
    ui::AppOptions options;
    options.assets = web::kAssets;
    options.config_dir = web::kConfig;
    // An embed in a course page neither reads nor writes the reader's own
    // poslab (settings, last lesson, autosave): it shows what its link says.
    options.persist = !link.embed;
    options.restore_autosave = !link.embed;
    options.lang = web::choose_lang(link);
    page->app = std::make_unique<ui::App>(*page->platform, options);
  } catch (const std::exception& e) {
    poslab_js_message(e.what(), 1);
    return 1;
  }
  ui::App& app = *page->app;
  app.export_choice().dir = web::kDownloads;  // exports become downloads
  // Slow figures go to the page's worker once it is up (web/page.js starts it).
  app.figures().set_remote(&web::page_worker());
  ui::set_job_runner(&web::page_worker());  // the lab's models train there
  web::page_worker().on_landed = [] {
    // (Not while the bench runs: its App's figures land, and a frame of the
    // page's own App between two of its frames would be measured as theirs.)
    if (web::g_page && !web::g_page->bench) web::g_page->platform->wake();
  };
  // The lab's models report their progress every 100 ms from each worker;
  // the page draws it 4 times a second, one frame each: the lesson asks for
  // no frames of its own meanwhile (app/lessons/lab/screen.cpp), so the
  // page's thread — software WebGL on a small computer takes a core for
  // 60 frames a second — leaves the cores to the workers.
  web::page_worker().on_progress = [] {
    static double last = 0;
    const double now = emscripten_get_now();
    if (!web::g_page || web::g_page->bench || now - last < 250) return;
    last = now;
    web::g_page->platform->draw_once();
  };
  web::g_page = page;
  const bool bench = fragment == "bench" || fragment.rfind("bench=", 0) == 0;  // page.js runs the bench
  if (!fragment.empty() && !bench) web::apply_link(app, fragment);
  page->platform->start(app, web::after_frame);
  return 0;  // the page keeps running (EXIT_RUNTIME=0); frames come from requestAnimationFrame
}
