#pragma once
// What the App needs from the window system, so the same App runs in a GLFW
// window (ui/window.*) or blind, without any window (tests, STYLE.md "a blind
// mode for tests"): the heatmap sink, the font texture, fullscreen, the
// title, a screenshot after the frame is drawn, quitting.

#include <filesystem>
#include <string>
#include <vector>

#include "app/common/i18n.hpp"
#include "app/ui/heatmap_sink.hpp"

namespace poslab::app::ui {

class Platform {
 public:
  virtual ~Platform() = default;
  virtual HeatmapSink& heatmaps() = 0;
  /// The font atlas was rebuilt: upload its texture.
  virtual void fonts_rebuilt() = 0;
  virtual void set_fullscreen(bool on) = 0;
  virtual bool fullscreen() const = 0;
  virtual void set_title(const std::string& title) = 0;
  /// Monitor content scale (HiDPI), 1 on a classic screen.
  virtual float content_scale() const = 0;
  /// Saves the whole window as a PNG once this frame is drawn. Returns false
  /// when there is no window to capture (blind mode).
  virtual bool request_screenshot(const std::filesystem::path& path) = 0;
  virtual void request_close() = 0;
  /// True when the window system pushes every key press to App::key_event
  /// (GLFW's key callback): shortcuts then come from that queue and no tap
  /// between two frames is lost. False: the App polls ImGui's key state.
  virtual bool queues_keys() const { return false; }
  /// The address the app is served from (the browser's page, without its
  /// fragment), or "" when it is not a page: "Copy link" then uses the
  /// settings' link_base.
  virtual std::string page_address() const { return {}; }
  /// Asks the user for a file to open with the system's own picker (a
  /// browser's file input); the chosen file later reaches App::open_file.
  /// False when there is no such picker: the App shows its path prompt.
  virtual bool pick_file() { return false; }
  /// Lines Help → About adds under the version (the page: the version of
  /// the site it runs and whether it works offline), in tr's language.
  virtual std::vector<std::string> about_lines(const Translator& tr) const {
    (void)tr;
    return {};
  }
};

/// No window: nothing is drawn, everything else behaves.
class BlindPlatform final : public Platform {
 public:
  HeatmapSink& heatmaps() override { return sink; }
  void fonts_rebuilt() override { ++font_uploads; }
  void set_fullscreen(bool on) override { full = on; }
  bool fullscreen() const override { return full; }
  void set_title(const std::string& t) override { title = t; }
  float content_scale() const override { return scale; }
  bool request_screenshot(const std::filesystem::path&) override { return false; }
  void request_close() override { close_requested = true; }
  bool queues_keys() const override { return key_events; }

  NullHeatmapSink sink;
  bool full = false, close_requested = false;
  bool key_events = false;  ///< tests: key presses come through App::key_event
  std::string title;
  float scale = 1.0f;
  int font_uploads = 0;
};

}  // namespace poslab::app::ui
