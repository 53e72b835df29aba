#include "app/ui/gif_writer.hpp"

#include <gif_lib.h>
#include <unistd.h>

#include <cstdio>
#include <random>
#include <vector>

#include "app/common/atomic_file.hpp"

namespace poslab::app::ui {

namespace fs = std::filesystem;

GifWriter::GifWriter(fs::path destination) : destination_(std::move(destination)) {
  std::random_device rd;
  temp_ = destination_.parent_path() /
          ("." + destination_.filename().string() + ".tmp-" + std::to_string(rd()) + std::to_string(::getpid()));
  int error = 0;
  gif_ = EGifOpenFileName(temp_.c_str(), true, &error);
  if (!gif_) throw IoError("cannot write " + destination_.string() + ": " + GifErrorString(error));
}

GifWriter::~GifWriter() {
  if (gif_) {
    int error = 0;
    EGifCloseFile(gif_, &error);
  }
  if (!committed_) std::remove(temp_.c_str());
}

void GifWriter::fail(const std::string& what, int error) {
  throw IoError("cannot write " + destination_.string() + ": " + what + " (" +
                (GifErrorString(error) ? GifErrorString(error) : "giflib error") + ")");
}

void GifWriter::add_frame(const Image& image, int delay_cs) {
  if (!gif_ || image.empty()) throw IoError("cannot write " + destination_.string() + ": empty frame");
  if (frames_ == 0) {
    width_ = image.width, height_ = image.height;
    EGifSetGifVersion(gif_, true);
    if (EGifPutScreenDesc(gif_, width_, height_, 8, 0, nullptr) == GIF_ERROR) fail("screen", gif_->Error);
    // NETSCAPE2.0: loop forever.
    static const GifByteType app[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    static const GifByteType loop[] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif_, sizeof app, app) == GIF_ERROR ||
        EGifPutExtensionBlock(gif_, sizeof loop, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif_) == GIF_ERROR)
      fail("loop extension", gif_->Error);
  } else if (image.width != width_ || image.height != height_) {
    throw IoError("cannot write " + destination_.string() + ": frames differ in size");
  }
  const std::size_t n = static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_);
  std::vector<GifByteType> r(n), g(n), b(n), out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t p = image.pixels[i];
    r[i] = static_cast<GifByteType>((p >> 16) & 0xff);
    g[i] = static_cast<GifByteType>((p >> 8) & 0xff);
    b[i] = static_cast<GifByteType>(p & 0xff);
  }
  int colours = 256;
  GifColorType palette[256] = {};
  if (GifQuantizeBuffer(static_cast<unsigned>(width_), static_cast<unsigned>(height_), &colours, r.data(), g.data(),
                        b.data(), out.data(), palette) == GIF_ERROR)
    throw IoError("cannot write " + destination_.string() + ": colour quantisation failed");
  GraphicsControlBlock gcb{};
  gcb.DisposalMode = DISPOSE_DO_NOT;
  gcb.UserInputFlag = false;
  gcb.DelayTime = delay_cs;
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType ext[4];
  const std::size_t ext_len = EGifGCBToExtension(&gcb, ext);
  if (EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(ext_len), ext) == GIF_ERROR)
    fail("frame timing", gif_->Error);
  ColorMapObject* map = GifMakeMapObject(256, palette);
  if (!map) throw IoError("cannot write " + destination_.string() + ": out of memory");
  const bool ok = EGifPutImageDesc(gif_, 0, 0, width_, height_, false, map) != GIF_ERROR;
  GifFreeMapObject(map);
  if (!ok) fail("frame", gif_->Error);
  for (int y = 0; y < height_; ++y)
    if (EGifPutLine(gif_, out.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width_), width_) ==
        GIF_ERROR)
      fail("frame", gif_->Error);
  ++frames_;
}

void GifWriter::commit() {
  if (!gif_ || frames_ == 0) throw IoError("cannot write " + destination_.string() + ": no frames");
  int error = 0;
  const int st = EGifCloseFile(gif_, &error);
  gif_ = nullptr;
  if (st == GIF_ERROR) fail("closing", error);
  if (std::rename(temp_.c_str(), destination_.c_str()) != 0)
    throw IoError("cannot write " + destination_.string() + ": rename failed");
  committed_ = true;
}

}  // namespace poslab::app::ui
