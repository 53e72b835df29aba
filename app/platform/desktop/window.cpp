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
}

bool Window::fullscreen() const { return glfwGetWindowMonitor(window_) != nullptr; }

void Window::set_fullscreen(bool on) {
  if (for_screenshot_ || on == fullscreen()) return;
  if (on) {
    // The monitor the window is on (a laptop beside a projector), not the primary one.
    GLFWmonitor* monitor = current_monitor();
    glfwGetWindowPos(window_, &windowed_x_, &windowed_y_);
    glfwGetWindowSize(window_, &windowed_w_, &windowed_h_);
    if (!monitor) return;
    const GLFWvidmode* mode = glfwGetVideoMode(monitor);
    if (!mode) return;
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else {
    glfwSetWindowMonitor(window_, nullptr, windowed_x_, windowed_y_, windowed_w_, windowed_h_, 0);
  }
}

GLFWmonitor* Window::current_monitor() const {
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  int wx = 0, wy = 0, ww = 0, wh = 0;
  glfwGetWindowPos(window_, &wx, &wy);
  glfwGetWindowSize(window_, &ww, &wh);
  GLFWmonitor* best = glfwGetPrimaryMonitor();
  long long best_area = 0;
  for (int i = 0; i < count; ++i) {
    int mx = 0, my = 0;
    glfwGetMonitorPos(monitors[i], &mx, &my);
    const GLFWvidmode* mode = glfwGetVideoMode(monitors[i]);
    if (!mode) continue;
    const long long ox = std::max(0, std::min(wx + ww, mx + mode->width) - std::max(wx, mx));
    const long long oy = std::max(0, std::min(wy + wh, my + mode->height) - std::max(wy, my));
    if (ox * oy > best_area) best_area = ox * oy, best = monitors[i];
  }
  return best;
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

std::string Window::screenshot(App& app, const std::filesystem::path& out, int width, int height) {
  gl::OffscreenTarget target(width, height);
  if (!target.complete()) return "cannot create a " + std::to_string(width) + "×" + std::to_string(height) + " framebuffer";
  constexpr int kFrames = 6;  // layout, figures, fonts and popups settle within a few frames
  for (int i = 0; i < kFrames; ++i) {
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
  return {};
}

}  // namespace poslab::app::ui
