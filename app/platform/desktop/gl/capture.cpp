#include "app/platform/desktop/gl/capture.hpp"

#include <algorithm>
#include <cstdint>

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
