#pragma once
// What the app remembers between runs (window geometry, last lesson, theme,
// UI scale, language, panel widths, export folder, lecture sliders), as JSON
// in the config folder (app/common/config_folder.hpp: $XDG_CONFIG_HOME/poslab
// or ~/.config/poslab), written atomically. A missing or broken file gives
// the defaults: settings never stop the app from starting. Every number read
// is checked and clamped before it is converted (a hand-edited 1e300 is no
// undefined behaviour). No ImGui here.

#include <filesystem>
#include <map>
#include <span>
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
  /// Where poslab's web page is hosted ("https://…/poslab/"): "Copy link"
  /// writes <link_base>#view=… (docs/CONTRACT.md). "" = the fragment alone.
  std::string link_base;
  /// Sliders shown in lecture mode, per lesson (empty = all of the lesson's).
  std::map<std::string, std::vector<std::string>> lecture_keys;

  bool operator==(const Settings&) const = default;
};

inline constexpr float kMinUiScale = 0.75f;
inline constexpr float kMaxUiScale = 3.0f;
/// The settings file's format; a file with a larger "version" came from a
/// newer poslab and is kept aside, not overwritten.
inline constexpr int kSettingsVersion = 1;

/// The config folder (find_config_dir: $XDG_CONFIG_HOME/poslab or
/// ~/.config/poslab when private), or an empty path when there is none.
/// Not created here.
std::filesystem::path config_dir();

/// The folder exports go to by default: ~/poslab-exports; without a private
/// home, ./poslab-exports when the current folder is private, else empty
/// (the export dialog then asks for a folder).
std::filesystem::path default_export_dir();

/// Reads settings; on a missing file returns the defaults. A file that cannot
/// be read, is not a JSON object or was written by a newer poslab gives the
/// defaults and a one-line reason in `warning` (the caller keeps that file
/// aside). Fields of the wrong type keep their defaults; numbers are clamped.
Settings load_settings(const std::filesystem::path& file, std::string* warning = nullptr);

/// Writes settings atomically (creating the folder). Raises IoError.
void save_settings(const std::filesystem::path& file, const Settings& settings);

/// A rectangle in screen coordinates (a monitor's work area, a window).
struct ScreenRect {
  int x = 0, y = 0, w = 0, h = 0;
  bool operator==(const ScreenRect&) const = default;
};

/// Where the remembered window goes on the monitors there are now: its size
/// shrunk to fit the work area it overlaps most (the first one when it
/// overlaps none or has no position), its position moved inside that area.
/// `has_position` false: only the size is fitted, the system places it.
/// No work areas: the settings as they are.
ScreenRect place_window(const Settings& settings, std::span<const ScreenRect> workareas);

}  // namespace poslab::app::ui
