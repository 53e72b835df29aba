// Animated GIFs for slides (app/export/gif.hpp, sweep.hpp), read back with
// giflib — a decoder written by others, so the encoder is checked against
// the format, not against itself:
// - LZW: random index streams of many lengths and alphabets (through the
//   table-full resets) decode to exactly what was encoded;
// - one global palette, no local ones; frames of few colours come back
//   exactly (white stays white); a smooth gradient stays within a few levels;
// - a sweep: the export size, frames forward and back, the file mode of any
//   export; the GUI's recorder writes the same.

#include <doctest/doctest.h>
#include <gif_lib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <fstream>
#include <random>

#include "app/export/gif.hpp"
#include "app/export/sweep.hpp"
#include "gui_test_support.hpp"

using namespace poslab;
namespace fs = std::filesystem;
namespace ui = poslab::app::ui;

namespace {

struct Decoded {
  int width = 0, height = 0, frames = 0;
  bool global_palette = false, local_palettes = false;
  std::vector<std::vector<std::uint32_t>> rgb;  ///< per frame, 0xRRGGBB
  std::vector<int> delays;
  bool loops = false;
};

Decoded decode(const fs::path& file) {
  Decoded d;
  int error = 0;
  GifFileType* g = DGifOpenFileName(file.c_str(), &error);
  REQUIRE(g != nullptr);
  REQUIRE(DGifSlurp(g) == GIF_OK);
  d.width = g->SWidth, d.height = g->SHeight, d.frames = g->ImageCount;
  d.global_palette = g->SColorMap != nullptr;
  for (int i = 0; i < g->ImageCount; ++i) {
    const SavedImage& im = g->SavedImages[i];
    d.local_palettes = d.local_palettes || im.ImageDesc.ColorMap;
    const ColorMapObject* map = im.ImageDesc.ColorMap ? im.ImageDesc.ColorMap : g->SColorMap;
    std::vector<std::uint32_t> px(static_cast<std::size_t>(d.width) * static_cast<std::size_t>(d.height));
    for (std::size_t k = 0; k < px.size(); ++k) {
      const GifColorType c = map->Colors[im.RasterBits[k]];
      px[k] = static_cast<std::uint32_t>(c.Red) << 16 | static_cast<std::uint32_t>(c.Green) << 8 | c.Blue;
    }
    d.rgb.push_back(std::move(px));
    GraphicsControlBlock gcb{};
    if (DGifSavedExtensionToGCB(g, i, &gcb) == GIF_OK) d.delays.push_back(gcb.DelayTime);
    for (int e = 0; e < im.ExtensionBlockCount; ++e)
      if (im.ExtensionBlocks[e].Function == APPLICATION_EXT_FUNC_CODE && im.ExtensionBlocks[e].ByteCount == 11 &&
          std::string(reinterpret_cast<const char*>(im.ExtensionBlocks[e].Bytes), 11) == "NETSCAPE2.0")
        d.loops = true;
  }
  DGifCloseFile(g, &error);
  return d;
}

app::Image image_of(int w, int h, const std::function<std::uint32_t(int, int)>& rgb) {
  app::Image img{w, h, std::vector<std::uint32_t>(static_cast<std::size_t>(w) * static_cast<std::size_t>(h))};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img.pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)] = 0xff000000u | rgb(x, y);
  return img;
}

fs::path temp_dir(const char* name) {
  const fs::path dir = fs::temp_directory_path() / (std::string(name) + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("GIF LZW: random index streams decode to exactly what was encoded") {
  const fs::path dir = temp_dir("poslab-lzw");
  std::mt19937 rng(7);
  // Lengths through several table resets (4096 codes), alphabets from 2 to 256 symbols.
  // Not structured bindings: clang 14 cannot capture one (CAPTURE, the lambda below).
  for (const auto& size : {std::tuple{1, 1, 2}, std::tuple{17, 3, 2}, std::tuple{64, 64, 256},
                           std::tuple{300, 200, 7}, std::tuple{512, 300, 256}, std::tuple{257, 129, 64},
                           std::tuple{1000, 700, 3}}) {
    const int w = std::get<0>(size), h = std::get<1>(size), symbols = std::get<2>(size);
    CAPTURE(w);
    CAPTURE(symbols);
    std::uniform_int_distribution<int> pick(0, symbols - 1);
    // Runs and noise mixed: long repeats make long codes, noise fills the table.
    std::vector<std::uint8_t> src(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    for (std::size_t k = 0; k < src.size();) {
      const auto c = static_cast<std::uint8_t>(pick(rng));
      const std::size_t run = rng() % 3 == 0 ? 1 + rng() % 40 : 1;
      for (std::size_t r = 0; r < run && k < src.size(); ++r) src[k++] = c;
    }
    // A minimal GIF around the encoded data: a 256-entry grey table, one image.
    std::string g = "GIF89a";
    auto put16 = [&g](int v) { g.push_back(static_cast<char>(v & 0xff)), g.push_back(static_cast<char>(v >> 8)); };
    put16(w), put16(h);
    g += std::string("\xF7\x00\x00", 3);
    for (int i = 0; i < 256; ++i) g += std::string(3, static_cast<char>(i));
    g.push_back(0x2C);
    put16(0), put16(0), put16(w), put16(h);
    g.push_back('\0');
    g += app::gif_lzw(src);
    g.push_back(0x3B);
    const fs::path file = dir / "lzw.gif";
    std::ofstream(file, std::ios::binary) << g;
    int error = 0;
    GifFileType* gf = DGifOpenFileName(file.c_str(), &error);
    REQUIRE(gf != nullptr);
    REQUIRE(DGifSlurp(gf) == GIF_OK);
    REQUIRE(gf->ImageCount == 1);
    const std::vector<std::uint8_t> got(gf->SavedImages[0].RasterBits, gf->SavedImages[0].RasterBits + src.size());
    CHECK(got == src);
    DGifCloseFile(gf, &error);
  }
  fs::remove_all(dir);
}

TEST_CASE("GIF: one global palette, white stays white, a gradient stays close, frames repeat for a bounce") {
  const fs::path dir = temp_dir("poslab-gifpal");
  const fs::path file = dir / "a.gif";
  app::GifWriter gif(file);
  // Frames like a plot's: white background, black text, a few series colours,
  // plus a smooth gradient (antialiasing, heatmaps) that needs median cut.
  std::vector<app::Image> frames;
  for (int f = 0; f < 5; ++f)
    frames.push_back(image_of(320, 200, [f](int x, int y) -> std::uint32_t {
      if (y < 120) {
        if ((x + f * 7) % 50 < 2) return 0x0072B2;
        if (y % 40 == 0) return 0x000000;
        return 0xffffff;
      }
      const std::uint32_t v = static_cast<std::uint32_t>((x + f * 3) % 256);
      return v << 16 | (255 - v) << 8 | static_cast<std::uint32_t>(y);
    }));
  for (const auto& f : frames) gif.learn(f);
  std::vector<int> ids;
  for (const auto& f : frames) ids.push_back(gif.add_frame(f, 7));
  for (int i = 3; i >= 1; --i) gif.repeat_frame(ids[static_cast<std::size_t>(i)], 7);  // the way back
  gif.commit();
  const Decoded d = decode(file);
  CHECK(d.global_palette);
  CHECK_FALSE(d.local_palettes);
  CHECK(d.loops);
  REQUIRE(d.frames == 8);
  CHECK(d.delays == std::vector<int>(8, 7));
  int worst = 0;
  for (int f = 0; f < 8; ++f) {
    const int src = f < 5 ? f : 8 - f;
    const auto& want = frames[static_cast<std::size_t>(src)].pixels;
    for (std::size_t k = 0; k < want.size(); ++k) {
      const std::uint32_t w = want[k] & 0xffffff, got = d.rgb[static_cast<std::size_t>(f)][k];
      if (k < 320u * 120u) {
        CHECK_MESSAGE(got == w, "flat colours are kept exactly");  // white stays white
        if (got != w) break;
      }
      for (int sh : {16, 8, 0})
        worst = std::max(worst, std::abs(static_cast<int>((w >> sh) & 0xff) - static_cast<int>((got >> sh) & 0xff)));
    }
  }
  CHECK(worst <= 24);  // 256 colours for a 3-D gradient: within a tenth of the range
  fs::remove_all(dir);
}

TEST_CASE("poslab export --sweep: a GIF at the export size, forward and back, mode as any export; PNGs numbered") {
  const fs::path dir = temp_dir("poslab-sweep-cli");
  const fs::path gif = dir / "m.gif", png = dir / "ref.png";
  const ::mode_t old = ::umask(022);
  const std::string common = " export --view rope-2d --figure score-shift --width 640 --height 360 ";
  REQUIRE(test::run_poslab(common + "--sweep m=0:10 --frames 6 --bounce --format gif --out " + gif.string()).code == 0);
  REQUIRE(test::run_poslab(common + "--format png --out " + png.string()).code == 0);
  struct stat a{}, b{};
  REQUIRE(::stat(gif.c_str(), &a) == 0);
  REQUIRE(::stat(png.c_str(), &b) == 0);
  CHECK((a.st_mode & 0777) == (b.st_mode & 0777));
  CHECK((a.st_mode & 0777) == 0644);
  const Decoded d = decode(gif);
  CHECK(d.width == 640);
  CHECK(d.height == 360);
  CHECK(d.frames == 6 + 4);  // 0 … 5, then 4 … 1
  CHECK(d.rgb[1] == d.rgb[9]);
  CHECK(d.rgb[4] == d.rgb[6]);
  CHECK(d.rgb[0] != d.rgb[5]);
  CHECK(d.rgb[0][0] == 0xffffff);  // the light theme's white corner

  // Numbered PNGs into a folder; bad requests exit 2 and write nothing.
  const fs::path frames = dir / "frames";
  REQUIRE(test::run_poslab(common + "--sweep m=0:10 --frames 4 --format png --out " + frames.string()).code == 0);
  int n = 0;
  for (const auto& e : fs::directory_iterator(frames)) n += e.path().extension() == ".png";
  CHECK(n == 4);
  CHECK(fs::exists(frames / "rope-2d-score-shift-m-0004.png"));
  for (const std::string bad : {"--sweep m=0:10 --format svg", "--sweep nope=0:1 --format gif", "--sweep m=0 --format gif",
                                "--sweep layout=0:1 --format gif", "--sweep m=0:10 --frames 1 --format gif"}) {
    CAPTURE(bad);
    CHECK(test::run_poslab(common + bad + " --out " + (dir / "bad.gif").string()).code == 2);
    CHECK_FALSE(fs::exists(dir / "bad.gif"));
  }
  ::umask(old);
  fs::remove_all(dir);
}

TEST_CASE("the GUI's recorded sweep: the export size, one palette, forward and back") {
  test::BlindApp b;
  auto& st = b.state();
  REQUIRE(st.select_view("rope-2d"));
  st.animation().choose("m");
  b.app->export_choice().options.width = 400;
  b.app->export_choice().options.height = 300;
  ui::UiContext ctx = b.app->context();
  REQUIRE(b.app->export_ui().start_sweep(ctx, b.app->recorder(), 0, ui::SweepFormat::gif, 5).empty());
  for (int i = 0; i < 40 && b.app->recorder().active(); ++i) b.frames(1);
  REQUIRE_FALSE(b.app->recorder().active());
  CHECK(b.app->recorder().error().empty());
  const Decoded d = decode(b.app->recorder().output());
  CHECK(d.width == 400);
  CHECK(d.height == 300);
  CHECK(d.frames == 6);
  CHECK_FALSE(d.local_palettes);
}
