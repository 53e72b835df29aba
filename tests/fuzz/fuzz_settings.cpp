// Fuzz target: the settings file (app/ui/settings.hpp), what `poslab gui`
// reads from its config folder at every start — a file a user may edit by
// hand, or that a crash, a full disk or a newer poslab left behind.
// Invariants:
//   - load_settings never throws and never stops the app: any input gives
//     settings (the defaults, with a warning, when the file is no object or
//     comes from a newer version);
//   - every number is inside its range (window coordinates ±32767, sizes
//     640×400..16384, scale 0.75..3, panel widths 0..2000), the theme and
//     the language are ones the app has — converted without undefined
//     behaviour (the sanitizer build runs this);
//   - what was read can be written and reads back identical;
//   - place_window puts the window inside a monitor's work area.

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "app/ui/settings.hpp"

namespace {

namespace fs = std::filesystem;
using poslab::app::ui::ScreenRect;
using poslab::app::ui::Settings;

[[noreturn]] void fail(const char* what, std::string_view input) {
  std::fprintf(stderr, "poslab fuzz settings: %s for input \"%.*s\"\n", what,
               static_cast<int>(std::min<std::size_t>(input.size(), 200)), input.data());
  std::abort();
}

/// A scratch folder of this process, removed at exit.
const fs::path& scratch() {
  static const fs::path dir = [] {
    std::string pattern = (fs::temp_directory_path() / "poslab-fuzz-settings-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) std::abort();
    std::atexit([] { std::error_code ec; fs::remove_all(scratch(), ec); });
    return fs::path(pattern);
  }();
  return dir;
}

void check_ranges(const Settings& s, std::string_view input) {
  if (s.x < -32767 || s.x > 32767 || s.y < -32767 || s.y > 32767) fail("a window position out of range", input);
  if (s.width < 640 || s.width > 16384 || s.height < 400 || s.height > 16384) fail("a window size out of range", input);
  if (!(s.ui_scale >= poslab::app::ui::kMinUiScale && s.ui_scale <= poslab::app::ui::kMaxUiScale))
    fail("a UI scale out of range", input);
  if (!(s.left_width >= 0 && s.left_width <= 2000 && s.right_width >= 0 && s.right_width <= 2000))
    fail("a panel width out of range", input);
  if (s.theme != "light" && s.theme != "dark" && s.theme != "projector") fail("an unknown theme", input);
  if (!s.lang.empty() && s.lang != "en" && s.lang != "zh") fail("an unknown language", input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const fs::path file = scratch() / "settings.json";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  std::string warning;
  Settings s;
  try {
    s = poslab::app::ui::load_settings(file, &warning);
  } catch (...) {
    fail("load_settings threw", text);
  }
  check_ranges(s, text);
  if (!warning.empty() && !(s == Settings{})) fail("a refused file that did not give the defaults", text);
  // Written back, it reads back the same.
  const fs::path again = scratch() / "again.json";
  poslab::app::ui::save_settings(again, s);
  std::string warning_again;
  const Settings back = poslab::app::ui::load_settings(again, &warning_again);
  if (!warning_again.empty()) fail("settings written by poslab that it cannot read", text);
  if (!(back == s)) fail("a settings round trip differs", text);
  // Placed on some monitors (side by side, one left of the origin), the
  // window lies inside the work area chosen.
  const std::vector<ScreenRect> areas = {{0, 0, 1920, 1050}, {1920, 0, 1280, 1000}, {-1366, 200, 1366, 740}};
  const ScreenRect placed = poslab::app::ui::place_window(s, areas);
  bool inside = false;
  for (const ScreenRect& a : areas)
    inside = inside || (placed.w <= a.w && placed.h <= a.h &&
                        (!s.has_position || (placed.x >= a.x && placed.y >= a.y && placed.x + placed.w <= a.x + a.w &&
                                             placed.y + placed.h <= a.y + a.h)));
  if (!inside) fail("a window placed outside every work area", text);
  return 0;
}
