#include "app/ui/settings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <type_traits>
#include <nlohmann/json.hpp>

#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/config_folder.hpp"
#include "app/common/json_input.hpp"

namespace poslab::app::ui {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

template <class T>
void read_if(const json& j, const char* key, T& out) {
  if (!j.contains(key)) return;
  try {
    out = j.at(key).get<T>();
  } catch (const json::exception&) {
    // wrong type: keep the default for this one field
  }
}

/// A number field, clamped to [lo, hi] as a double before it is converted:
/// converting 1e300 to int or float is undefined behaviour. Not a finite
/// number: the default stays.
template <class T>
void read_number(const json& j, const char* key, T& out, double lo, double hi) {
  if (!j.contains(key) || !j.at(key).is_number()) return;
  const double x = j.at(key).get<double>();
  if (!std::isfinite(x)) return;
  const double clamped = std::clamp(x, lo, hi);
  if constexpr (std::is_integral_v<T>) out = static_cast<T>(std::lround(clamped));
  else out = static_cast<T>(clamped);
}

/// Window coordinates beyond any desktop (X11 keeps them in 16 bits).
constexpr double kMaxCoordinate = 32767;
constexpr int kMinWidth = 640, kMinHeight = 400, kMaxSide = 16384;
constexpr double kMaxPanelWidth = 2000;

}  // namespace

fs::path config_dir() { return find_config_dir().dir; }

fs::path default_export_dir() {
  if (const auto home = private_home_dir()) return *home / "poslab-exports";
  std::error_code ec;
  const fs::path here = fs::current_path(ec);
  if (!ec && is_private_path(here / "poslab-exports")) return here / "poslab-exports";
  return {};
}

Settings load_settings(const fs::path& file, std::string* warning) {
  Settings s;
  std::error_code ec;
  if (!fs::exists(file, ec)) return s;
  try {
    if (fs::file_size(file, ec) > (1u << 20)) throw IoError("settings file too large");
    const json j = parse_json_input(read_text_file(file), {.max_depth = 16});
    if (!j.is_object()) throw IoError("not a JSON object");
    if (j.contains("version") && j.at("version").is_number() &&
        !(j.at("version").get<double>() <= kSettingsVersion))
      throw IoError("written by a newer poslab (settings version " +
                    j.at("version").dump().substr(0, 24) + "); this one reads version " +
                    std::to_string(kSettingsVersion));
    read_number(j, "x", s.x, -kMaxCoordinate, kMaxCoordinate);
    read_number(j, "y", s.y, -kMaxCoordinate, kMaxCoordinate);
    read_number(j, "width", s.width, kMinWidth, kMaxSide);
    read_number(j, "height", s.height, kMinHeight, kMaxSide);
    read_if(j, "has_position", s.has_position);
    read_if(j, "maximized", s.maximized);
    read_if(j, "lesson", s.lesson);
    read_if(j, "theme", s.theme);
    read_number(j, "ui_scale", s.ui_scale, kMinUiScale, kMaxUiScale);
    read_if(j, "lang", s.lang);
    // A panel width out of range means "the default" (0), not the nearest edge.
    double left = 0, right = 0;
    read_number(j, "left_width", left, -1, kMaxPanelWidth + 1);
    read_number(j, "right_width", right, -1, kMaxPanelWidth + 1);
    s.left_width = left >= 0 && left <= kMaxPanelWidth ? static_cast<float>(left) : 0.0f;
    s.right_width = right >= 0 && right <= kMaxPanelWidth ? static_cast<float>(right) : 0.0f;
    read_if(j, "export_dir", s.export_dir);
    read_if(j, "link_base", s.link_base);
    read_if(j, "lecture_keys", s.lecture_keys);
    read_if(j, "recent_sessions", s.recent_sessions);
    read_if(j, "recent_decks", s.recent_decks);
  } catch (const std::exception& e) {
    if (warning) *warning = file.string() + ": " + e.what();
    return Settings{};
  }
  for (auto* recent : {&s.recent_sessions, &s.recent_decks}) {
    std::erase_if(*recent, [](const std::string& p) { return p.empty() || p.size() > 4096; });
    if (recent->size() > kMaxRecent) recent->resize(kMaxRecent);
  }
  const Settings d;
  if (s.theme != "light" && s.theme != "dark" && s.theme != "projector") s.theme = d.theme;
  if (s.lang != "" && s.lang != "en" && s.lang != "zh") s.lang.clear();
  return s;
}

void remember_recent(std::vector<std::string>& list, const std::string& path) {
  if (path.empty()) return;
  std::erase(list, path);
  list.insert(list.begin(), path);
  if (list.size() > kMaxRecent) list.resize(kMaxRecent);
}

ScreenRect place_window(const Settings& s, std::span<const ScreenRect> areas) {
  ScreenRect out{s.x, s.y, s.width, s.height};
  if (areas.empty()) return out;
  // The work area the window overlaps most (64-bit: sides up to 16384, positions up to ±32767).
  const ScreenRect* best = &areas.front();
  long long best_overlap = 0;
  for (const ScreenRect& a : areas) {
    if (a.w <= 0 || a.h <= 0) continue;
    if (best->w <= 0 || best->h <= 0) best = &a;
    if (!s.has_position) break;
    const long long x0 = s.x, y0 = s.y, x1 = x0 + s.width, y1 = y0 + s.height;
    const long long ox = std::max(0LL, std::min<long long>(x1, 0LL + a.x + a.w) - std::max<long long>(x0, a.x));
    const long long oy = std::max(0LL, std::min<long long>(y1, 0LL + a.y + a.h) - std::max<long long>(y0, a.y));
    if (ox * oy > best_overlap) best_overlap = ox * oy, best = &a;
  }
  const ScreenRect& a = *best;
  if (a.w <= 0 || a.h <= 0) return out;
  out.w = std::min(s.width, a.w);
  out.h = std::min(s.height, a.h);
  if (s.has_position) {
    out.x = std::clamp(s.x, a.x, a.x + a.w - out.w);
    out.y = std::clamp(s.y, a.y, a.y + a.h - out.h);
  }
  return out;
}

void save_settings(const fs::path& file, const Settings& s) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) throw IoError("cannot create " + file.parent_path().string() + ": " + ec.message());
  json j = {{"version", kSettingsVersion},
            {"x", s.x},
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
            {"link_base", s.link_base},
            {"lecture_keys", s.lecture_keys},
            {"recent_sessions", s.recent_sessions},
            {"recent_decks", s.recent_decks}};
  write_file_atomically(file, j.dump(2) + "\n");
}

}  // namespace poslab::app::ui
