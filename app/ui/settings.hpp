#pragma once
// What the app remembers between runs (window geometry, last lesson, theme,
// UI scale, language, panel widths, export folder, lecture sliders), as JSON
// in $XDG_CONFIG_HOME/poslab/settings.json (or ~/.config/poslab), written
// atomically. A missing or broken file gives the defaults: settings never
// stop the app from starting. No ImGui here.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace poslab::app::ui {

struct Settings {
  // Window (screen coordinates); has_position = false: let the system place it.
  int x = 0, y = 0, width = 1440, height = 900;
  bool has_position = false;
  bool maximized = false;
  std::string lesson;             ///< last lesson (empty: the first)
  std::string theme = "dark";     ///< light | dark | projector
  float ui_scale = 1.0f;          ///< 0.75 .. 3
  std::string lang;               ///< "" = the system language
  float left_width = 0, right_width = 0;  ///< panel widths in points at scale 1 (0 = default)
  std::string export_dir;         ///< "" = ~/poslab-exports
  /// Sliders shown in lecture mode, per lesson (empty = all of the lesson's).
  std::map<std::string, std::vector<std::string>> lecture_keys;

  bool operator==(const Settings&) const = default;
};

inline constexpr float kMinUiScale = 0.75f;
inline constexpr float kMaxUiScale = 3.0f;

/// $XDG_CONFIG_HOME/poslab, or ~/.config/poslab (not created here).
std::filesystem::path config_dir();

/// The folder exports go to by default: ~/poslab-exports.
std::filesystem::path default_export_dir();

/// Reads settings; on a missing or broken file returns the defaults and, when
/// broken, puts a one-line reason in `warning`.
Settings load_settings(const std::filesystem::path& file, std::string* warning = nullptr);

/// Writes settings atomically (creating the folder). Raises IoError.
void save_settings(const std::filesystem::path& file, const Settings& settings);

}  // namespace poslab::app::ui
