// Writes from the GUI that fail (issue 7, point 4): a full disk, a folder that
// cannot be written, a missing one. Each gives a message naming the file,
// leaves the file that was there intact and no temporary file behind.
//
// The full disk is simulated with RLIMIT_FSIZE (writes past the limit fail
// with EFBIG, as they would with ENOSPC) and SIGXFSZ ignored, so it works
// without privileges and on any file system.

#include <doctest/doctest.h>
#include <sys/resource.h>

#include <csignal>
#include <fstream>

#include "app/common/atomic_file.hpp"
#include "app/ui/gif_writer.hpp"
#include "gui_test_support.hpp"

using namespace poslab;
namespace ui = poslab::app::ui;
namespace fs = std::filesystem;

namespace {

/// While alive, no file of this process can grow past `bytes`.
class FullDisk {
 public:
  explicit FullDisk(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &old_);
    previous_ = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit tiny = old_;
    tiny.rlim_cur = bytes;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &tiny) == 0);
  }
  ~FullDisk() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, previous_);
  }
  FullDisk(const FullDisk&) = delete;
  FullDisk& operator=(const FullDisk&) = delete;

 private:
  struct rlimit old_ {};
  void (*previous_)(int) = SIG_DFL;
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The files directly in `dir` whose name contains ".tmp-" (left-over temporaries).
int temporaries(const fs::path& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().filename().string().find(".tmp-") != std::string::npos;
  return n;
}

ui::Image noise(int w, int h, std::uint32_t seed) {
  ui::Image img{w, h, std::vector<std::uint32_t>(static_cast<std::size_t>(w) * static_cast<std::size_t>(h))};
  std::uint32_t x = seed;
  for (auto& p : img.pixels) p = 0xff000000u | ((x = x * 1664525u + 1013904223u) >> 8);
  return img;
}

}  // namespace

TEST_CASE("saving a session to a full disk or an unwritable folder: a message, the old session intact") {
  test::BlindApp b;
  auto& st = b.state();
  const auto [view, key] = test::lesson_with_numeric("base");
  REQUIRE(st.select_view(view));
  const fs::path file = b.dir / "lesson.poslab.json";
  REQUIRE(b.app->save_session(file).empty());
  const std::string saved = read(file);
  REQUIRE(saved.size() > 64);
  REQUIRE(st.set_param(key, core::param_spec(key).ui_max).empty());  // now there is something new to lose

  std::string msg;
  {
    FullDisk full(64);
    msg = b.app->save_session(file);
  }
  CAPTURE(msg);
  // The file by its name, never its full path (the audience sees the toasts).
  CHECK(msg.find(file.filename().string()) != std::string::npos);
  CHECK(msg.find(b.dir.string()) == std::string::npos);
  CHECK(b.app->toasts().last() == msg);
  CHECK(read(file) == saved);
  CHECK(temporaries(b.dir) == 0);

  // /proc/self takes no new files or folders, even for root.
  for (const fs::path& bad : {fs::path("/proc/self/lesson.poslab.json"), fs::path("/proc/self/sessions/lesson.poslab.json")}) {
    CAPTURE(bad);
    msg = b.app->save_session(bad);
    CHECK(msg.find(bad.filename().string()) != std::string::npos);
    CHECK(msg.find(bad.string()) == std::string::npos);
    CHECK_FALSE(fs::exists(bad));
  }
  // With room again, the same save works.
  CHECK(b.app->save_session(file).empty());
  CHECK(read(file) != saved);
}

TEST_CASE("the autosave and the settings on a full disk keep the previous ones") {
  const fs::path config = fs::temp_directory_path() / ("poslab-fullsave-" + std::to_string(::getpid()));
  fs::remove_all(config);
  const auto [view, key] = test::lesson_with_numeric("base");
  ui::BlindPlatform platform;
  ui::AppOptions o{.assets = app::assets_dir(), .lang = "en", .persist = true, .config_dir = config};
  ui::App app(platform, o);
  app.blind_frame();
  app.save_on_exit();
  const std::string autosave = read(config / "autosave.json"), settings = read(config / "settings.json");
  REQUIRE(autosave.size() > 64);
  REQUIRE(settings.size() > 64);
  REQUIRE(app.state().select_view(view));
  REQUIRE(app.state().set_param(key, core::param_spec(key).ui_max).empty());
  app.set_theme(app.theme() == "light" ? "dark" : "light");
  {
    FullDisk full(64);
    app.save_on_exit();  // reports on stderr; must not throw or crash
  }
  CHECK(read(config / "autosave.json") == autosave);
  CHECK(read(config / "settings.json") == settings);
  CHECK(temporaries(config) == 0);
  app.save_on_exit();
  CHECK(read(config / "autosave.json") != autosave);
  fs::remove_all(config);
}

TEST_CASE("an animated GIF on a full disk or in a folder that cannot be written: an IoError, no partial GIF") {
  const fs::path dir = fs::temp_directory_path() / ("poslab-gif-fail-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path gif = dir / "sweep.gif";
  {
    std::ofstream(gif, std::ios::binary) << "an older sweep";
  }
  {
    bool threw = false;
    try {
      FullDisk full(4096);
      ui::GifWriter w(gif);
      for (int i = 0; i < 3; ++i) w.add_frame(noise(200, 150, static_cast<std::uint32_t>(i)), 10);  // ~30 KB each
      w.commit();
    } catch (const app::IoError& e) {
      threw = true;
      CHECK(std::string(e.what()).find(gif.string()) != std::string::npos);
    }
    CHECK(threw);
  }
  CHECK(read(gif) == "an older sweep");
  CHECK(temporaries(dir) == 0);
  CHECK_THROWS_AS(ui::GifWriter(dir / "missing" / "sweep.gif"), app::IoError);
  CHECK_THROWS_AS(ui::GifWriter("/proc/self/sweep.gif"), app::IoError);
  {
    // With room, the same frames make a GIF.
    ui::GifWriter w(gif);
    for (int i = 0; i < 3; ++i) w.add_frame(noise(200, 150, static_cast<std::uint32_t>(i)), 10);
    w.commit();
  }
  CHECK(read(gif).substr(0, 6) == "GIF89a");
  CHECK(temporaries(dir) == 0);
  fs::remove_all(dir);
}
