#include "app/platform/web/web_platform.hpp"

#include <GLES3/gl3.h>
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "app/platform/desktop/gl/heatmap_renderer.hpp"
#include "app/ui/app.hpp"

extern "C" {
void poslab_js_set_title(const char* text);
void poslab_js_fit_canvas(int* width, int* height, double* ratio);
void poslab_js_screenshot(const char* name);
void poslab_js_clipboard_set(const char* text);
void poslab_js_pick_file();
char* poslab_js_clipboard_get();
char* poslab_js_page_address();
void poslab_js_set_fullscreen(int on);
int poslab_js_fullscreen();
void poslab_js_ready();
char* poslab_js_site(int what);
}

namespace poslab::app::web {

namespace {

/// Frames drawn after any input so ImGui settles (hover states, popups), as on the desktop.
constexpr int kSettleFrames = 3;

WebPlatform* g_platform = nullptr;  // GLFW's callbacks carry no user pointer here

// Each input callback wakes the loop, then ImGui's backend (which chains to
// these) records the input.
void on_cursor(GLFWwindow*, double, double) { g_platform->wake(); }
void on_button(GLFWwindow*, int, int, int) { g_platform->wake(); }
void on_scroll(GLFWwindow*, double, double) { g_platform->wake(); }
void on_key(GLFWwindow*, int key, int, int action, int mods) { g_platform->key_event(key, action, mods); }
void on_char(GLFWwindow*, unsigned int) { g_platform->wake(); }
void on_enter(GLFWwindow*, int) { g_platform->wake(); }
void on_focus(GLFWwindow*, int) { g_platform->wake(); }

std::string g_clipboard;  // what GetClipboardText returns (owned here)

void set_clipboard(void*, const char* text) { poslab_js_clipboard_set(text ? text : ""); }

const char* get_clipboard(void*) {
  char* text = poslab_js_clipboard_get();
  g_clipboard = text ? text : "";
  std::free(text);
  return g_clipboard.c_str();
}

}  // namespace

std::unique_ptr<WebPlatform> WebPlatform::create(std::string& error) {
  if (!glfwInit()) {
    error = "cannot start the page's GLFW";
    return nullptr;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  std::unique_ptr<WebPlatform> p(new WebPlatform());
  poslab_js_fit_canvas(&p->width_, &p->height_, &p->ratio_);
  p->window_ = glfwCreateWindow(p->width_, p->height_, "poslab", nullptr, nullptr);
  if (!p->window_) {
    error = "this browser offers no WebGL 2, which poslab needs";
    return nullptr;
  }
  glfwMakeContextCurrent(p->window_);
  poslab_js_fit_canvas(&p->width_, &p->height_, &p->ratio_);  // GLFW sized the canvas; fit it again
  p->heatmaps_ = std::make_unique<gl::HeatmapRenderer>();
  g_platform = p.get();
  return p;
}

WebPlatform::~WebPlatform() {
  if (app_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
  }
  heatmaps_.reset();
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
  g_platform = nullptr;
}

void WebPlatform::start(ui::App& app, std::function<void()> after_frame) {
  app_ = &app;
  after_frame_ = std::move(after_frame);
  glfwSetCursorPosCallback(window_, on_cursor);
  glfwSetMouseButtonCallback(window_, on_button);
  glfwSetScrollCallback(window_, on_scroll);
  glfwSetKeyCallback(window_, on_key);
  glfwSetCharCallback(window_, on_char);
  glfwSetCursorEnterCallback(window_, on_enter);
  glfwSetWindowFocusCallback(window_, on_focus);
  ImGui_ImplGlfw_InitForOpenGL(window_, true);  // chains to the callbacks above
  ImGui_ImplOpenGL3_Init("#version 300 es");
  ImGuiIO& io = ImGui::GetIO();
  io.SetClipboardTextFn = set_clipboard;
  io.GetClipboardTextFn = get_clipboard;
  io.ClipboardUserData = nullptr;
  wake();
}

void WebPlatform::key_event(int key, int action, int mods) {
  if (app_) app_->key_event(key, action, mods);
  wake();
}

void WebPlatform::wake() {
  settle_ = kSettleFrames;
  if (scheduled_ || !app_) return;
  scheduled_ = true;
  emscripten_request_animation_frame(&WebPlatform::on_animation_frame, this);
}

void WebPlatform::draw_once() {
  if (scheduled_ || !app_) return;
  scheduled_ = true;
  emscripten_request_animation_frame(&WebPlatform::on_animation_frame, this);
}

void WebPlatform::resized() {
  poslab_js_fit_canvas(&width_, &height_, &ratio_);
  wake();
}

int WebPlatform::on_animation_frame(double time_ms, void* self) {
  auto* p = static_cast<WebPlatform*>(self);
  p->scheduled_ = false;
  p->frame(time_ms);
  return EM_FALSE;  // one frame per request: the next is asked for only when needed
}

void WebPlatform::on_timeout(void* self) {
  auto* p = static_cast<WebPlatform*>(self);
  p->timeout_ = 0;
  p->wake();
}

void WebPlatform::frame(double time_ms) {
  ui::App& app = *app_;
  const double dt = last_ms_ < 0 ? 1.0 / 60 : std::clamp((time_ms - last_ms_) / 1000.0, 0.0, 0.25);
  last_ms_ = time_ms;
  app.before_frame();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // The drawing buffer is the page's size × devicePixelRatio; ImGui works in
  // those device pixels (GLFW reports the pointer in them too).
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = {static_cast<float>(width_), static_cast<float>(height_)};
  io.DisplayFramebufferScale = {1, 1};
  ImGui::NewFrame();
  app.draw(dt);
  ImGui::Render();
  glViewport(0, 0, width_, height_);
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  for (const std::string& name : pending_screenshots_) poslab_js_screenshot(name.c_str());
  pending_screenshots_.clear();
  if (++frames_drawn_ == 1) poslab_js_ready();
  if (after_frame_) after_frame_();

  --settle_;
  if (settle_ > 0 || app.wants_redraw()) {
    scheduled_ = true;
    emscripten_request_animation_frame(&WebPlatform::on_animation_frame, this);
    return;
  }
  // Idle: nothing is drawn until an event, or until a toast changes by itself.
  last_ms_ = -1;  // time asleep does not move animations
  const double wake_in = app.seconds_until_wake();
  if (std::isfinite(wake_in) && timeout_ == 0)
    timeout_ = emscripten_set_timeout(&WebPlatform::on_timeout, std::max(10.0, wake_in * 1000.0), this);
}

ui::HeatmapSink& WebPlatform::heatmaps() { return *heatmaps_; }

void WebPlatform::fonts_rebuilt() {
  if (!app_) return;  // the backend uploads the atlas on its first frame
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void WebPlatform::set_fullscreen(bool on) { poslab_js_set_fullscreen(on ? 1 : 0); }

bool WebPlatform::fullscreen() const { return poslab_js_fullscreen() != 0; }

bool WebPlatform::pick_file() {
  poslab_js_pick_file();
  return true;
}

void WebPlatform::set_title(const std::string& title) { poslab_js_set_title(title.c_str()); }

float WebPlatform::content_scale() const { return static_cast<float>(ratio_); }

bool WebPlatform::request_screenshot(const std::filesystem::path& path) {
  pending_screenshots_.push_back(path.filename().string());
  wake();
  return true;
}

void WebPlatform::request_close() {
  // A page cannot close its tab; Ctrl+Q on the desktop quits. Nothing to do.
}

std::vector<std::string> WebPlatform::about_lines(const Translator& tr) const {
  auto site = [](int what) {
    char* text = poslab_js_site(what);
    std::string out = text ? text : "";
    std::free(text);
    return out;
  };
  // web/page.js: the version build-web.sh wrote, what the service worker
  // keeps for offline use, a newer version waiting for the next visit.
  std::vector<std::string> lines;
  const std::string version = site(0), offline = site(1), update = site(2);
  if (!version.empty()) lines.push_back(tr.format("web.about.site", {{"version", version}}));
  if (offline == "ready") lines.push_back(tr("web.about.offline_ready"));
  else if (offline == "saving") lines.push_back(tr("web.about.offline_saving"));
  else lines.push_back(tr("web.about.offline_none"));
  if (!update.empty()) lines.push_back(tr.format("web.about.update", {{"version", update}}));
  return lines;
}

std::string WebPlatform::page_address() const {
  char* text = poslab_js_page_address();
  std::string out = text ? text : "";
  std::free(text);
  return out;
}

}  // namespace poslab::app::web
