#pragma once
// The browser's Platform: a WebGL 2 canvas through emscripten's GLFW, Dear
// ImGui's GLFW and OpenGL3 backends, heatmaps on the GPU (the desktop's
// gl::HeatmapRenderer with the GLSL ES shaders of shaders/web/).
//
// A browser app, not a ported window: the canvas fills the page and follows
// its size and devicePixelRatio (ImGui works in device pixels, the App
// scales fonts and style by the ratio, as on a HiDPI desktop); frames are
// drawn on requestAnimationFrame only while something moves or an event
// came in — idle, the page draws nothing and no timer runs but a toast's
// expiry. The title is document.title; fullscreen is the Fullscreen API;
// a screenshot is the canvas downloaded as PNG; the clipboard is the
// browser's.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/ui/platform.hpp"

struct GLFWwindow;

namespace poslab::app::gl {
class HeatmapRenderer;
}

namespace poslab::app::ui {
class App;
}

namespace poslab::app::web {

class WebPlatform final : public ui::Platform {
 public:
  /// Opens the WebGL 2 context on the page's canvas. Null and a reason when
  /// the browser has no WebGL 2.
  static std::unique_ptr<WebPlatform> create(std::string& error);
  ~WebPlatform() override;

  /// Hooks ImGui's backends to the App's context and starts drawing.
  /// `after_frame` runs after every frame drawn (the page's link, downloads).
  void start(ui::App& app, std::function<void()> after_frame);
  /// Something happened (an event, a change from the page): draw soon.
  void wake();
  /// One frame soon (unless one is coming), without the frames a wake()
  /// adds after it: what a progress note asks for.
  void draw_once();
  /// The page's size or pixel ratio changed.
  void resized();
  /// Frames drawn so far (tests read it through the page).
  long frames_drawn() const { return frames_drawn_; }
  /// A key went down, repeated or up: queued for the App (ImGui 1.86 polls
  /// key state once a frame, so a press and release between two frames, a
  /// clicker's tap on a busy frame, would be lost), and a frame is asked for.
  void key_event(int key, int action, int mods);

  // Platform
  ui::HeatmapSink& heatmaps() override;
  void fonts_rebuilt() override;
  void set_fullscreen(bool on) override;
  bool fullscreen() const override;
  void set_title(const std::string& title) override;
  float content_scale() const override;
  bool request_screenshot(const std::filesystem::path& path) override;
  void request_close() override;
  std::string page_address() const override;
  bool pick_file() override;
  std::vector<std::string> about_lines(const Translator& tr) const override;
  bool queues_keys() const override { return app_ != nullptr; }

 private:
  WebPlatform() = default;
  static int on_animation_frame(double time_ms, void* self);
  static void on_timeout(void* self);
  void frame(double time_ms);

  GLFWwindow* window_ = nullptr;
  std::unique_ptr<gl::HeatmapRenderer> heatmaps_;
  ui::App* app_ = nullptr;
  std::function<void()> after_frame_;
  int width_ = 1, height_ = 1;  ///< the drawing buffer, device pixels
  double ratio_ = 1;            ///< devicePixelRatio
  bool scheduled_ = false;      ///< a requestAnimationFrame is pending
  int settle_ = 0;              ///< frames still to draw after the last event
  double last_ms_ = -1;
  long timeout_ = 0;            ///< a pending wake-up timer (0 = none)
  long frames_drawn_ = 0;
  std::vector<std::string> pending_screenshots_;
};

}  // namespace poslab::app::web
