#pragma once
// The real window: GLFW + OpenGL 3.3 core (functions through libepoxy), the
// ImGui GLFW/OpenGL3 backends, heatmaps on the GPU. It runs the App's frames
// — waiting for events while nothing moves — and captures screenshots.

#include <atomic>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "app/ui/key_events.hpp"
#include "app/ui/platform.hpp"
#include "app/ui/settings.hpp"

struct GLFWwindow;
struct GLFWmonitor;

namespace poslab::app::gl {
class HeatmapRenderer;
}

namespace poslab::app::ui {

class App;

class Window final : public Platform {
 public:
  /// Opens a (hidden) window with a GL 3.3 core context. Returns null and a
  /// one-line reason when there is no display or no such context.
  static std::unique_ptr<Window> create(int width, int height, bool for_screenshot, std::string& error);
  ~Window() override;

  /// Hooks ImGui's backends to the App's context (after the App exists).
  void attach(App& app);
  /// Unhooks the backends (before the App's ImGui context goes away).
  void detach();
  /// Files dropped on the window (GLFW's drop callback): handed to the App.
  void files_dropped(std::vector<std::string> paths);
  /// Restores the remembered geometry, sets the icon (a PNG; none if
  /// unreadable) and shows the window.
  void show(const Settings& settings, const std::filesystem::path& icon_png);
  /// Runs until the window closes; keeps `settings` up to date with the geometry.
  void run(App& app, Settings& settings);
  /// Ends run() as closing the window does. Safe from any thread: the
  /// SIGTERM/SIGINT watcher (ui/stop_signals.hpp) calls it.
  void close_from_any_thread();
  /// One frame as run() draws it (events, the App's frame, swap) without
  /// waiting: for scripted runs of the real window (the soak test). Returns
  /// false once the window was asked to close.
  bool run_frame(App& app, double dt);
  /// Resizes the window (screen coordinates) as dragging its corner does;
  /// for scripted runs of the real window (tests, the soak).
  void set_size(int width, int height);
  /// Renders a few frames into an offscreen target of exactly width × height
  /// and writes the PNG. `keys` are pressed first, one a frame, as a clicker
  /// would (screenshot --keys). With the presenter view open (--presenter),
  /// its view is written too, to `presenter_out`. Returns "" or the reason.
  std::string screenshot(App& app, const std::filesystem::path& out, int width, int height,
                         std::span<const KeyEvent> keys = {}, const std::filesystem::path& presenter_out = {});

  // Platform
  HeatmapSink& heatmaps() override;
  void fonts_rebuilt() override;
  void set_fullscreen(bool on) override;
  bool fullscreen() const override;
  void set_title(const std::string& title) override;
  float content_scale() const override;
  bool request_screenshot(const std::filesystem::path& path) override;
  void request_close() override;
  bool queues_keys() const override { return app_ != nullptr; }
  PresenterPlace show_presenter_window(bool on) override;
  HeatmapSink& presenter_heatmaps() override;
  /// The presenter view's window (null while it is closed): tests send it keys.
  GLFWwindow* presenter_window() const { return presenter_; }
  GLFWwindow* glfw_window() const { return window_; }

  /// A screen as the window system reports it (GLFW's monitors), or as
  /// POSLAB_SCREENS gives it: "WxH+X+Y,WxH+X+Y" splits one X screen into
  /// monitors (an Xvfb or Xinerama screen spanning two outputs, where GLFW
  /// sees one), each then filled by an undecorated window as "fullscreen".
  struct Screen {
    int x = 0, y = 0, w = 0, h = 0;
    GLFWmonitor* monitor = nullptr;  ///< null for a POSLAB_SCREENS screen
    bool primary = false;
  };
  std::vector<Screen> screens() const;

 private:
  Window() = default;
  void frame(App& app, double dt);
  void capture_if_requested(App& app);
  /// After the framebuffer shrank to a small part of its largest size: the
  /// memory sized by the window goes back (ImGui's draw buffers, the heatmap
  /// staging buffer, the C heap's free pages).
  void release_after_shrink(int width, int height);

  /// GLFW's key callback: every press goes to the App's queue (ImGui's
  /// backend chains to it and keeps its polled key state as well).
  static void on_key(GLFWwindow* window, int key, int scancode, int action, int mods);
  /// The screen that holds most of `w` (the first when none does).
  Screen screen_of(GLFWwindow* w) const;
  /// `w` fills `screen` (GLFW's fullscreen on a monitor, else an undecorated window over it).
  void fill_screen(GLFWwindow* w, const Screen& screen);
  /// The presenter's window: its frame, drawn after the main one.
  void presenter_frame(App& app, double dt);
  void close_presenter();
  /// Renders the presenter view into an offscreen target (screenshot --presenter).
  std::string presenter_screenshot(App& app, const std::filesystem::path& out, int width, int height);

  GLFWwindow* window_ = nullptr;
  App* app_ = nullptr;  ///< while attached: where key events and dropped files go
  std::unique_ptr<gl::HeatmapRenderer> heatmaps_;
  bool attached_ = false;
  bool for_screenshot_ = false;
  std::vector<std::filesystem::path> pending_screenshots_;  ///< written after this frame, in order
  std::atomic<bool> close_requested_{false};
  int windowed_x_ = 100, windowed_y_ = 100, windowed_w_ = 1440, windowed_h_ = 900;
  double peak_pixels_ = 0;  ///< the largest framebuffer since memory was last given back
  bool filled_ = false;      ///< the main window fills a POSLAB_SCREENS screen ("fullscreen")
  // The presenter view (issue 29): its window, its GL context's heatmaps, its backends.
  GLFWwindow* presenter_ = nullptr;
  std::unique_ptr<gl::HeatmapRenderer> presenter_heatmaps_;
  bool presenter_backends_ = false;  ///< the presenter context's ImGui backends are set up
  bool presenter_wanted_ = false;    ///< screenshot: render the presenter view too
};

}  // namespace poslab::app::ui
