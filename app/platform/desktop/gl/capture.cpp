#include "app/platform/desktop/gl/capture.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "app/export/png.hpp"

namespace poslab::app::gl {

ui::Image read_pixels(int width, int height) {
  ui::Image img;
  if (width <= 0 || height <= 0) return img;
  img.width = width, img.height = height;
  img.pixels.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glPixelStorei(GL_PACK_ROW_LENGTH, 0);
  glReadPixels(0, 0, width, height, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, img.pixels.data());
  // GL's row 0 is the bottom.
  const auto w = static_cast<std::size_t>(width);
  for (int y = 0; y < height / 2; ++y)
    std::swap_ranges(img.pixels.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * w),
                     img.pixels.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y + 1) * w),
                     img.pixels.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(height - 1 - y) * w));
  for (std::uint32_t& p : img.pixels) p |= 0xff000000u;
  return img;
}

std::string read_png(int width, int height) {
  constexpr int kStrip = 64;  // rows read back at once: 1 MB at 4096 wide
  std::vector<std::uint32_t> strip(static_cast<std::size_t>(width) * kStrip);
  int strip_top = -1, strip_rows = 0;  // the image rows in `strip`, top first
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glPixelStorei(GL_PACK_ROW_LENGTH, 0);
  return encode_png_rows(width, height, [&](int y) -> const std::uint32_t* {
    if (strip_top < 0 || y >= strip_top + strip_rows) {
      strip_top = y;
      strip_rows = std::min(kStrip, height - y);
      // GL's row 0 is the bottom: image rows y … y + rows − 1 are GL rows height − y − rows … height − y − 1.
      glReadPixels(0, height - y - strip_rows, width, strip_rows, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, strip.data());
      const auto w = static_cast<std::ptrdiff_t>(width);
      for (int r = 0; r < strip_rows / 2; ++r)
        std::swap_ranges(strip.begin() + r * w, strip.begin() + (r + 1) * w, strip.begin() + (strip_rows - 1 - r) * w);
      for (std::size_t i = 0; i < static_cast<std::size_t>(width) * static_cast<std::size_t>(strip_rows); ++i)
        strip[i] |= 0xff000000u;
    }
    return strip.data() + static_cast<std::ptrdiff_t>(y - strip_top) * width;
  });
}

OffscreenTarget::OffscreenTarget(int width, int height) : width_(width), height_(height) {
  glGenFramebuffers(1, &fbo_);
  glGenRenderbuffers(1, &color_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  complete_ = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

OffscreenTarget::~OffscreenTarget() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (color_) glDeleteRenderbuffers(1, &color_);
}

void OffscreenTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, fbo_); }

void OffscreenTarget::unbind() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

}  // namespace poslab::app::gl
