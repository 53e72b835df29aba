// [SECTION] Index
// - Creating the window and the GL context
// - Platform (fullscreen, title, fonts, screenshots)
// - The event loop: idle is idle
// - Memory after a shrink
// - Offscreen screenshots

#include "app/platform/desktop/window.hpp"

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <malloc.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "app/common/assets.hpp"
#include "app/common/messages.hpp"
#include "app/platform/desktop/gl/capture.hpp"
#include "app/platform/desktop/gl/heatmap_renderer.hpp"
#include "app/ui/app.hpp"

namespace poslab::app::ui {

namespace {

std::string g_glfw_error;  // the last GLFW error, for the one-line message

void on_glfw_error(int, const char* description) { g_glfw_error = description ? description : "unknown error"; }

/// Files dropped on the window go to the App (a config.json opens its model).
void on_drop(GLFWwindow* window, int count, const char** paths) {
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(window));
  if (!self || count <= 0 || !paths) return;
  std::vector<std::string> files;
  for (int i = 0; i < count; ++i)
    if (paths[i]) files.emplace_back(paths[i]);
  self->files_dropped(std::move(files));
}

/// Frames drawn after any input so ImGui settles (hover states, popups).
constexpr int kSettleFrames = 3;

}  // namespace

// [SECTION] Creating the window

std::unique_ptr<Window> Window::create(int width, int height, bool for_screenshot, std::string& error) {
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) {
    error = "cannot open a window (" + (g_glfw_error.empty() ? std::string("no display") : g_glfw_error) + ")";
    return nullptr;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  // ImGui draws 2D with scissors: no depth or stencil buffer. Each would be
  // another width × height × 4 bytes, kept at the largest size the window had.
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  std::unique_ptr<Window> w(new Window());
  w->for_screenshot_ = for_screenshot;
  w->window_ = glfwCreateWindow(width, height, "poslab", nullptr, nullptr);
  if (!w->window_) {
    error = "cannot create an OpenGL 3.3 core context (" + g_glfw_error + ")";
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(w->window_);
  if (epoxy_gl_version() < 33) {
    error = "the OpenGL driver offers version " + std::to_string(epoxy_gl_version() / 10) + "." +
            std::to_string(epoxy_gl_version() % 10) + ", poslab needs 3.3";
    return nullptr;
  }
  glfwSwapInterval(1);
  glfwSetWindowUserPointer(w->window_, w.get());
  w->heatmaps_ = std::make_unique<gl::HeatmapRenderer>();
  return w;
}

Window::~Window() {
  if (window_) glfwMakeContextCurrent(window_);
  heatmaps_.reset();
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

void Window::attach(App& app) {
  // Ours first: ImGui's backend installs its callbacks after and calls ours
  // from them (the App made its ImGui context current).
  app_ = &app;
  glfwSetKeyCallback(window_, &Window::on_key);
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  glfwSetDropCallback(window_, on_drop);
  attached_ = true;
}

void Window::on_key(GLFWwindow* window, int key, int, int action, int mods) {
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(window));
  if (self && self->app_) self->app_->key_event(key, action, mods);
}

void Window::files_dropped(std::vector<std::string> paths) {
  if (app_) app_->drop_files(std::move(paths));
}

void Window::detach() {
  if (!attached_) return;
  // The App's presenter view first: its miniatures hold textures of the
  // presenter's heatmap renderer, which close_presenter destroys (quitting
  // with the presenter view open crashed in ~App, releasing them there).
  if (app_ && presenter_) app_->set_presenter_view(false);
  close_presenter();
  glfwSetDropCallback(window_, nullptr);
  app_ = nullptr;
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  attached_ = false;
}

void Window::show(const Settings& s, const std::filesystem::path& icon_png) {
  try {
    const Image icon = decode_png(read_text_file(icon_png));
    std::vector<unsigned char> rgba(icon.pixels.size() * 4);
    for (std::size_t i = 0; i < icon.pixels.size(); ++i) {
      const std::uint32_t p = icon.pixels[i];  // premultiplied 0xAARRGGBB
      const unsigned a = p >> 24;
      auto un = [a](unsigned c) { return static_cast<unsigned char>(a ? std::min(255u, c * 255u / a) : 0u); };
      rgba[4 * i + 0] = un((p >> 16) & 0xff);
      rgba[4 * i + 1] = un((p >> 8) & 0xff);
      rgba[4 * i + 2] = un(p & 0xff);
      rgba[4 * i + 3] = static_cast<unsigned char>(a);
    }
    GLFWimage image{icon.width, icon.height, rgba.data()};
    glfwSetWindowIcon(window_, 1, &image);
  } catch (const std::exception&) {
    // no icon: the window works the same
  }

  // The remembered geometry, fitted to the monitors there are now (a
  // hand-edited or stale position never puts the window off screen).
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  std::vector<ScreenRect> areas;
  for (int i = 0; i < count; ++i) {
    ScreenRect a;
    glfwGetMonitorWorkarea(monitors[i], &a.x, &a.y, &a.w, &a.h);
    if (a.w > 0 && a.h > 0) areas.push_back(a);
  }
  const ScreenRect placed = place_window(s, areas);
  glfwSetWindowSize(window_, placed.w, placed.h);
  if (s.has_position && !areas.empty()) glfwSetWindowPos(window_, placed.x, placed.y);
  glfwShowWindow(window_);
  if (s.maximized) glfwMaximizeWindow(window_);
}

// [SECTION] Platform

HeatmapSink& Window::heatmaps() { return *heatmaps_; }

void Window::fonts_rebuilt() {
  if (!attached_) return;  // the backend uploads the atlas on its first frame
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  if (presenter_backends_ && app_) {
    // The presenter's backend keeps its own copy; the main one stays the one drawn with.
    ImGuiContext* main = ImGui::GetCurrentContext();
    ImFontAtlas* atlas = ImGui::GetIO().Fonts;
    const ImTextureID keep = atlas->TexID;
    if (presenter_) glfwMakeContextCurrent(presenter_);
    ImGui::SetCurrentContext(app_->presenter_context());
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    ImGui::SetCurrentContext(main);
    atlas->SetTexID(keep);
    glfwMakeContextCurrent(window_);
  }
}

bool Window::fullscreen() const { return glfwGetWindowMonitor(window_) != nullptr || filled_; }

void Window::set_fullscreen(bool on) {
  if (for_screenshot_ || on == fullscreen()) return;
  if (on) {
    // The screen the window is on (a laptop beside a projector), not the primary one.
    glfwGetWindowPos(window_, &windowed_x_, &windowed_y_);
    glfwGetWindowSize(window_, &windowed_w_, &windowed_h_);
    fill_screen(window_, screen_of(window_));
  } else {
    // Back to the window it was, fitted to the screen it is on now: a
    // 1200 × 660 window must not come back wider than a 1024 × 768 projector.
    const Screen here = screen_of(window_);
    if (glfwGetWindowMonitor(window_)) glfwSetWindowMonitor(window_, nullptr, windowed_x_, windowed_y_, windowed_w_, windowed_h_, 0);
    if (filled_) {
      glfwSetWindowAttrib(window_, GLFW_DECORATED, GLFW_TRUE);
      filled_ = false;
    }
    if (here.w > 0 && here.h > 0) {
      int ax = here.x, ay = here.y, aw = here.w, ah = here.h;
      if (here.monitor) glfwGetMonitorWorkarea(here.monitor, &ax, &ay, &aw, &ah);
      const int w = std::min(windowed_w_, aw), h = std::min(windowed_h_, ah);
      const int x = std::clamp(windowed_x_, ax, ax + aw - w), y = std::clamp(windowed_y_, ay, ay + ah - h);
      glfwSetWindowSize(window_, w, h);
      glfwSetWindowPos(window_, x, y);
    }
  }
}

std::vector<Window::Screen> Window::screens() const {
  std::vector<Screen> out;
  if (const char* env = std::getenv("POSLAB_SCREENS"); env && *env) {
    std::string spec = env;
    for (std::size_t at = 0; at <= spec.size();) {
      const std::size_t comma = std::min(spec.find(',', at), spec.size());
      Screen sc;
      char extra = 0;
      if (std::sscanf(spec.substr(at, comma - at).c_str(), "%dx%d+%d+%d%c", &sc.w, &sc.h, &sc.x, &sc.y, &extra) == 4 &&
          sc.w > 0 && sc.h > 0) {
        sc.primary = out.empty();
        out.push_back(sc);
      }
      at = comma + 1;
    }
    if (!out.empty()) return out;
  }
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  GLFWmonitor* primary = glfwGetPrimaryMonitor();
  for (int i = 0; i < count; ++i) {
    const GLFWvidmode* mode = glfwGetVideoMode(monitors[i]);
    if (!mode) continue;
    Screen sc;
    glfwGetMonitorPos(monitors[i], &sc.x, &sc.y);
    sc.w = mode->width, sc.h = mode->height;
    sc.monitor = monitors[i];
    sc.primary = monitors[i] == primary;
    out.push_back(sc);
  }
  return out;
}

Window::Screen Window::screen_of(GLFWwindow* w) const {
  const std::vector<Screen> all = screens();
  int wx = 0, wy = 0, ww = 0, wh = 0;
  glfwGetWindowPos(w, &wx, &wy);
  glfwGetWindowSize(w, &ww, &wh);
  Screen best = all.empty() ? Screen{} : all.front();
  long long best_area = 0;
  for (const Screen& sc : all) {
    const long long ox = std::max(0, std::min(wx + ww, sc.x + sc.w) - std::max(wx, sc.x));
    const long long oy = std::max(0, std::min(wy + wh, sc.y + sc.h) - std::max(wy, sc.y));
    if (ox * oy > best_area) best_area = ox * oy, best = sc;
  }
  return best;
}

void Window::fill_screen(GLFWwindow* w, const Screen& sc) {
  if (sc.monitor) {
    if (const GLFWvidmode* mode = glfwGetVideoMode(sc.monitor))
      glfwSetWindowMonitor(w, sc.monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    return;
  }
  if (sc.w <= 0 || sc.h <= 0) return;
  if (glfwGetWindowMonitor(w)) glfwSetWindowMonitor(w, nullptr, sc.x, sc.y, sc.w, sc.h, 0);
  glfwSetWindowAttrib(w, GLFW_DECORATED, GLFW_FALSE);
  glfwSetWindowPos(w, sc.x, sc.y);
  glfwSetWindowSize(w, sc.w, sc.h);
  if (w == window_) filled_ = true;
}

void Window::set_size(int width, int height) { glfwSetWindowSize(window_, width, height); }

void Window::set_title(const std::string& title) { glfwSetWindowTitle(window_, title.c_str()); }

float Window::content_scale() const {
  if (for_screenshot_) return 1.0f;  // screenshots are the same on every screen
  float x = 1, y = 1;
  glfwGetWindowContentScale(window_, &x, &y);
  return std::max(x, y);
}

bool Window::request_screenshot(const std::filesystem::path& path) {
  pending_screenshots_.push_back(path);
  return true;
}

void Window::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }

void Window::close_from_any_thread() {
  close_requested_ = true;
  glfwPostEmptyEvent();  // wakes glfwWaitEvents (GLFW: callable from any thread)
}

void Window::capture_if_requested(App& app) {
  if (pending_screenshots_.empty()) return;
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  glReadBuffer(GL_BACK);
  const Image pixels = gl::read_pixels(w, h);
  for (const std::filesystem::path& path : pending_screenshots_) {
    try {
      write_png(path, pixels);
      app.toasts().push(app.tr().format("ui.screenshot.saved", {{"path", path.string()}}), ToastKind::success);
    } catch (const std::exception& e) {
      app.toasts().push(app.tr().format("ui.export.failed", {{"message", error_text(app.tr(), e)}}), ToastKind::error);
    }
  }
  pending_screenshots_.clear();
}

// [SECTION] The event loop

void Window::frame(App& app, double dt) {
  {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    release_after_shrink(w, h);
  }
  app.before_frame();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  app.draw(dt);
  ImGui::Render();
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  glViewport(0, 0, w, h);
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  capture_if_requested(app);
  glfwSwapBuffers(window_);
  if (presenter_) presenter_frame(app, dt);
}

// [SECTION] The presenter view's window
//
// A second GLFW window whose GL context shares the main one's objects (the
// font texture, shaders), drawn by the App's presenter context with its own
// ImGui backends: the GLFW backend without callbacks (keys come through
// on_key into the App's one queue; the mouse is polled), the OpenGL3
// backend for its VAOs. Its heatmaps have their own renderer (a VAO is its
// context's own). The backends share the App's font atlas: its texture id
// stays the main window's (either context can draw with it).

Platform::PresenterPlace Window::show_presenter_window(bool on) {
  if (!on) {
    close_presenter();
    presenter_wanted_ = false;
    return PresenterPlace::none;
  }
  if (for_screenshot_) {  // rendered offscreen beside the main screenshot
    presenter_wanted_ = true;
    return PresenterPlace::other_screen;
  }
  if (!app_) return PresenterPlace::none;
  // The projector: the screen the main window is on, unless that is the
  // primary one (the laptop) and there is another. The presenter: the
  // primary screen, or any other than the projector's.
  const std::vector<Screen> all = screens();
  Screen projector = screen_of(window_);
  if (projector.primary)
    for (const Screen& sc : all)
      if (!sc.primary) {
        projector = sc;
        break;
      }
  const Screen* laptop = nullptr;
  for (const Screen& sc : all)
    if (sc.x != projector.x || sc.y != projector.y || sc.w != projector.w || sc.h != projector.h) {
      if (!laptop || sc.primary) laptop = &sc;
    }
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  glfwWindowHint(GLFW_FLOATING, laptop ? GLFW_FALSE : GLFW_TRUE);  // on one screen: above the projector's
  const int w = laptop ? laptop->w : std::max(640, projector.w * 2 / 3), h = laptop ? laptop->h : std::max(400, projector.h * 2 / 3);
  presenter_ = glfwCreateWindow(w, h, app_->tr()("ui.presenter.title").c_str(), nullptr, window_);
  glfwWindowHint(GLFW_FLOATING, GLFW_FALSE);
  if (!presenter_) return PresenterPlace::none;
  glfwSetWindowUserPointer(presenter_, this);
  glfwSetKeyCallback(presenter_, &Window::on_key);
  glfwMakeContextCurrent(presenter_);
  glfwSwapInterval(0);  // the main window waits for the vertical blank; this one must not wait too
  presenter_heatmaps_ = std::make_unique<gl::HeatmapRenderer>();
  ImGuiContext* main = ImGui::GetCurrentContext();
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  ImGui::SetCurrentContext(app_->presenter_context());
  ImGui_ImplGlfw_InitForOpenGL(presenter_, false);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  ImGui::SetCurrentContext(main);
  (void)atlas;
  presenter_backends_ = true;
  glfwMakeContextCurrent(window_);
  if (laptop) {
    fill_screen(window_, projector);
    fill_screen(presenter_, *laptop);
  } else {
    glfwSetWindowPos(presenter_, projector.x + (projector.w - w) / 2, projector.y + (projector.h - h) / 2);
  }
  glfwShowWindow(presenter_);
  return laptop ? PresenterPlace::other_screen : PresenterPlace::same_screen;
}

HeatmapSink& Window::presenter_heatmaps() { return presenter_heatmaps_ ? *presenter_heatmaps_ : *heatmaps_; }

void Window::close_presenter() {
  if (!presenter_backends_) return;
  ImGuiContext* main = ImGui::GetCurrentContext();
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  const ImTextureID keep = atlas->TexID;  // the main window's font texture: the presenter's backend forgets its own
  if (presenter_) glfwMakeContextCurrent(presenter_);
  if (app_) ImGui::SetCurrentContext(app_->presenter_context());
  ImGui_ImplOpenGL3_Shutdown();
  if (presenter_) ImGui_ImplGlfw_Shutdown();
  ImGui::SetCurrentContext(main);
  atlas->SetTexID(keep);
  presenter_heatmaps_.reset();
  if (presenter_) glfwDestroyWindow(presenter_);
  presenter_ = nullptr;
  presenter_backends_ = false;
  glfwMakeContextCurrent(window_);
}

void Window::presenter_frame(App& app, double dt) {
  if (glfwWindowShouldClose(presenter_)) {  // its close button: as V
    app.set_presenter_view(false);
    return;
  }
  glfwMakeContextCurrent(presenter_);
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  const ImTextureID keep = atlas->TexID;
  app.presenter_before_frame();
  ImGui_ImplOpenGL3_NewFrame();  // the first makes its own font texture: the main one's stays in use
  atlas->SetTexID(keep);
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  app.draw_presenter(dt);
  ImGui::Render();
  int w = 0, h = 0;
  glfwGetFramebufferSize(presenter_, &w, &h);
  glViewport(0, 0, w, h);
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  app.presenter_after_frame();
  glfwSwapBuffers(presenter_);
  glfwMakeContextCurrent(window_);
}

void Window::run(App& app, Settings& settings) {
  int settle = kSettleFrames;
  double last = glfwGetTime();
  while (!glfwWindowShouldClose(window_) && !close_requested_) {
    if (settle <= 0 && !app.wants_redraw()) {
      // Idle: sleep until an event (or a toast expires). No busy redraw.
      const double wake = app.seconds_until_wake();
      if (std::isinf(wake)) glfwWaitEvents();
      else glfwWaitEventsTimeout(std::max(0.01, wake));
      settle = kSettleFrames;
      last = glfwGetTime() - 1.0 / 60;  // time asleep does not move animations
    } else {
      glfwPollEvents();
    }
    const double now = glfwGetTime();
    frame(app, now - last);
    last = now;
    --settle;
    if (!fullscreen()) {
      settings.maximized = glfwGetWindowAttrib(window_, GLFW_MAXIMIZED) == GLFW_TRUE;
      if (!settings.maximized) {
        glfwGetWindowPos(window_, &settings.x, &settings.y);
        glfwGetWindowSize(window_, &settings.width, &settings.height);
        settings.has_position = true;
      }
    }
  }
}

bool Window::run_frame(App& app, double dt) {
  glfwPollEvents();
  frame(app, dt);
  return !glfwWindowShouldClose(window_) && !close_requested_;
}

// [SECTION] Memory after a shrink
//
// A window dragged to 10000×10000 and back must not keep what that size
// needed. Buffers sized by the window: the heatmap textures (re-uploaded at
// the new size by the plot widgets, which frees the old storage), the
// heatmap staging buffer, ImGui's vertex and index buffers (they only ever
// grow), and the C heap, which keeps freed pages for reuse until trimmed.
// The framebuffer itself belongs to the GL driver; it has no depth or
// stencil buffer to keep (Window::create).

void Window::release_after_shrink(int width, int height) {
  constexpr double kBigPixels = 8.0 * 1024 * 1024;  // 32 MB of RGBA: below, nothing is worth giving back
  const double pixels = static_cast<double>(std::max(width, 0)) * static_cast<double>(std::max(height, 0));
  if (pixels > peak_pixels_) {
    peak_pixels_ = pixels;
    return;
  }
  if (peak_pixels_ < kBigPixels || pixels * 4 > peak_pixels_) return;
  peak_pixels_ = pixels;
  if (ImGuiContext* g = ImGui::GetCurrentContext())  // between frames: no draw data in use
    for (ImGuiWindow* w : g->Windows) w->DrawList->_ClearFreeMemory();
  heatmaps_->release_staging();
  ::malloc_trim(0);
}

// [SECTION] Offscreen screenshots

std::string Window::screenshot(App& app, const std::filesystem::path& out, int width, int height,
                               std::span<const KeyEvent> keys, const std::filesystem::path& presenter_out) {
  gl::OffscreenTarget target(width, height);
  if (!target.complete()) return "cannot create a " + std::to_string(width) + "×" + std::to_string(height) + " framebuffer";
  constexpr int kFrames = 6;  // layout, figures, fonts and popups settle within a few frames
  // The keys first, one a frame (a tap: pressed and let go), each seen by a
  // laid-out screen as a clicker's would be; then the frames that settle.
  const int frames = kFrames + static_cast<int>(keys.size());
  for (int i = 0; i < frames; ++i) {
    if (i >= 1 && i - 1 < static_cast<int>(keys.size())) {
      const KeyEvent& k = keys[static_cast<std::size_t>(i - 1)];
      app.key_event(k.key, kKeyPress, k.mods);
      app.key_event(k.key, kKeyRelease, k.mods);
    }
    app.before_frame();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = {static_cast<float>(width), static_cast<float>(height)};
    io.DisplayFramebufferScale = {1, 1};
    io.MousePos = {-FLT_MAX, -FLT_MAX};  // no hover from wherever the pointer is
    ImGui::NewFrame();
    app.draw(1.0 / 60);
    ImGui::Render();
    target.bind();
    glViewport(0, 0, width, height);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  glFinish();
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  try {
    const std::string png = gl::read_png(width, height);
    gl::OffscreenTarget::unbind();
    write_file_atomically(out, png);
  } catch (const std::exception& e) {
    gl::OffscreenTarget::unbind();
    return e.what();
  }
  if (presenter_wanted_ && !presenter_out.empty()) return presenter_screenshot(app, presenter_out, width, height);
  return {};
}

std::string Window::presenter_screenshot(App& app, const std::filesystem::path& out, int width, int height) {
  gl::OffscreenTarget target(width, height);
  if (!target.complete()) return "cannot create a " + std::to_string(width) + "×" + std::to_string(height) + " framebuffer";
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  const ImTextureID keep = atlas->TexID;
  ImGuiContext* main = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(app.presenter_context());
  if (!presenter_backends_) {
    ImGui_ImplOpenGL3_Init("#version 330 core");  // in the main GL context: no window of its own
    presenter_backends_ = true;
  }
  ImGui::SetCurrentContext(main);
  for (int i = 0; i < 6; ++i) {  // its miniatures are built a few a frame
    app.presenter_before_frame();
    ImGui_ImplOpenGL3_NewFrame();
    atlas->SetTexID(keep);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = {static_cast<float>(width), static_cast<float>(height)};
    io.DisplayFramebufferScale = {1, 1};
    io.DeltaTime = 1.0f / 60;
    io.MousePos = {-FLT_MAX, -FLT_MAX};
    ImGui::NewFrame();
    app.draw_presenter(1.0 / 60);
    ImGui::Render();
    target.bind();
    glViewport(0, 0, width, height);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    app.presenter_after_frame();
  }
  glFinish();
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  ui::Image img = gl::read_pixels(width, height);
  gl::OffscreenTarget::unbind();
  try {
    write_png(out, img);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

}  // namespace poslab::app::ui
