#pragma once
// Reading pixels back from OpenGL: the window after a frame (F12, `poslab
// screenshot`), and an offscreen framebuffer of an exact size (screenshots
// never depend on the screen being large enough).

#include "app/platform/desktop/gl/gl_api.hpp"

#include <string>

#include "app/ui/image.hpp"

namespace poslab::app::gl {

/// The currently bound read framebuffer's lower-left w × h pixels, flipped so
/// row 0 is the top, alpha forced opaque.
ui::Image read_pixels(int width, int height);

/// The same pixels as PNG bytes, read back a strip of rows at a time as the
/// encoder takes them: never a whole image in memory (a 4096 × 4096 shot
/// held 64 MB for the pixels and 64 MB more to encode them). Raises IoError.
std::string read_png(int width, int height);

/// An RGBA8 framebuffer object of a fixed size.
class OffscreenTarget {
 public:
  OffscreenTarget(int width, int height);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  bool complete() const { return complete_; }
  int width() const { return width_; }
  int height() const { return height_; }
  void bind() const;       ///< draw and read into this target
  static void unbind();    ///< back to the window

 private:
  GLuint fbo_ = 0, color_ = 0;
  int width_ = 0, height_ = 0;
  bool complete_ = false;
};

}  // namespace poslab::app::gl
