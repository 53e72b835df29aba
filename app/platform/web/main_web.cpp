// poslab in the browser: the page's program. The same App as the desktop
// (app/ui/), on WebPlatform; this file is what only a page has — the link in
// the address bar, downloads instead of an export folder, settings and the
// autosave in localStorage (web/poslab.js copies them to and from /config),
// the language from the browser.

#include <emscripten/emscripten.h>
#include <emscripten/html5.h>

#include <cstdlib>
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
#include "app/platform/web/web_platform.hpp"
#include "app/plot/render.hpp"
#include "app/ui/app.hpp"
#include "app/ui/bench_frames.hpp"
#include "app/ui/settings.hpp"

extern "C" {
void poslab_js_set_fragment(const char* text);
char* poslab_js_fragment();
void poslab_js_message(const char* text, int is_error);
void poslab_js_download(const char* path);
void poslab_js_persist();
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
    return;
  }
  if (find_view(link.view)) {
    state.select_view(link.view);
    state.reset_view();
    (void)state.go_to_step(-1);
  }
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

/// After every frame: the address bar follows what is shown, files written
/// for the user are handed over, and the settings reach localStorage.
void after_frame() {
  Page& page = *g_page;
  ui::App& app = *page.app;
  const ViewDef& view = app.state().view();
  const std::string fragment = link_fragment(app.state().session(), view.keys);
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

/// `poslab bench`'s frame measurements in the browser (index.html#bench runs
/// it once the page is up): the same blind App, every key of every lesson —
/// or, given `views` ("why-position,alibi", from index.html#bench=…), those
/// views alone, as `poslab bench --view`. Returns the JSON report (valid
/// until the next call).
EMSCRIPTEN_KEEPALIVE const char* poslab_bench(const char* views) {
  static std::string text;
  nlohmann::ordered_json report = nlohmann::ordered_json::object();
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
      text = report.dump(2);
      return text.c_str();
    }
  if (!only.empty()) report["views_requested"] = only;
  report["warm_up_requested"] = true;  // V8 optimizes a wasm function once it runs hot (bench_frames.cpp)
  const int code = ui::bench_frames(&report);
  report["exit"] = code;
  text = report.dump(2);
  return text.c_str();
}

/// Frames drawn so far (the tests wait for the first ones).
EMSCRIPTEN_KEEPALIVE long poslab_frames() { return web::g_page ? web::g_page->platform->frames_drawn() : 0; }

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
  try {
    ui::AppOptions options;
    options.assets = web::kAssets;
    options.config_dir = web::kConfig;
    options.persist = true;
    options.lang = web::choose_lang(parse_link(fragment));
    page->app = std::make_unique<ui::App>(*page->platform, options);
  } catch (const std::exception& e) {
    poslab_js_message(e.what(), 1);
    return 1;
  }
  ui::App& app = *page->app;
  app.export_choice().dir = web::kDownloads;  // exports become downloads
  web::g_page = page;
  const bool bench = fragment == "bench" || fragment.rfind("bench=", 0) == 0;  // page.js runs the bench
  if (!fragment.empty() && !bench) web::apply_link(app, fragment);
  page->platform->start(app, web::after_frame);
  return 0;  // the page keeps running (EXIT_RUNTIME=0); frames come from requestAnimationFrame
}
