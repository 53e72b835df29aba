#include "app/ui/settings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"

namespace poslab::app::ui {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path home_dir() {
  if (const char* h = std::getenv("HOME"); h && *h) return h;
  return fs::temp_directory_path();
}

template <class T>
void read_if(const json& j, const char* key, T& out) {
  if (!j.contains(key)) return;
  try {
    out = j.at(key).get<T>();
  } catch (const json::exception&) {
    // wrong type: keep the default for this one field
  }
}

}  // namespace

fs::path config_dir() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x && fs::path(x).is_absolute()) return fs::path(x) / "poslab";
  return home_dir() / ".config" / "poslab";
}

fs::path default_export_dir() { return home_dir() / "poslab-exports"; }

Settings load_settings(const fs::path& file, std::string* warning) {
  Settings s;
  std::error_code ec;
  if (!fs::exists(file, ec)) return s;
  try {
    if (fs::file_size(file, ec) > (1u << 20)) throw IoError("settings file too large");
    const json j = json::parse(read_text_file(file));
    if (!j.is_object()) throw IoError("not a JSON object");
    read_if(j, "x", s.x);
    read_if(j, "y", s.y);
    read_if(j, "width", s.width);
    read_if(j, "height", s.height);
    read_if(j, "has_position", s.has_position);
    read_if(j, "maximized", s.maximized);
    read_if(j, "lesson", s.lesson);
    read_if(j, "theme", s.theme);
    read_if(j, "ui_scale", s.ui_scale);
    read_if(j, "lang", s.lang);
    read_if(j, "left_width", s.left_width);
    read_if(j, "right_width", s.right_width);
    read_if(j, "export_dir", s.export_dir);
    read_if(j, "lecture_keys", s.lecture_keys);
  } catch (const std::exception& e) {
    if (warning) *warning = file.string() + ": " + e.what();
    return Settings{};
  }
  // Clamp what could make the window unusable.
  const Settings d;
  s.width = std::clamp(s.width, 640, 16384);
  s.height = std::clamp(s.height, 400, 16384);
  if (!std::isfinite(s.ui_scale)) s.ui_scale = d.ui_scale;
  s.ui_scale = std::clamp(s.ui_scale, kMinUiScale, kMaxUiScale);
  if (s.theme != "light" && s.theme != "dark" && s.theme != "projector") s.theme = d.theme;
  if (s.lang != "" && s.lang != "en" && s.lang != "zh") s.lang.clear();
  if (!std::isfinite(s.left_width) || s.left_width < 0 || s.left_width > 2000) s.left_width = 0;
  if (!std::isfinite(s.right_width) || s.right_width < 0 || s.right_width > 2000) s.right_width = 0;
  return s;
}

void save_settings(const fs::path& file, const Settings& s) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) throw IoError("cannot create " + file.parent_path().string() + ": " + ec.message());
  json j = {{"x", s.x},
            {"y", s.y},
            {"width", s.width},
            {"height", s.height},
            {"has_position", s.has_position},
            {"maximized", s.maximized},
            {"lesson", s.lesson},
            {"theme", s.theme},
            {"ui_scale", s.ui_scale},
            {"lang", s.lang},
            {"left_width", s.left_width},
            {"right_width", s.right_width},
            {"export_dir", s.export_dir},
            {"lecture_keys", s.lecture_keys}};
  write_file_atomically(file, j.dump(2) + "\n");
}

}  // namespace poslab::app::ui
