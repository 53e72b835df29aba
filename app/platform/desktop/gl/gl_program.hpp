#pragma once
// A linked GLSL program from two embedded shader sources (shaders/*.glsl),
// with the compiler's log in the error when anything fails. Needs a current
// OpenGL 3.3 core context (functions through libepoxy).

#include "app/platform/desktop/gl/gl_api.hpp"

#include <string>
#include <string_view>

namespace poslab::app::gl {

class Program {
 public:
  Program() = default;
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  Program(Program&& other) noexcept;
  Program& operator=(Program&& other) noexcept;

  /// Compiles and links shaders/<vertex> and shaders/<fragment>. On failure
  /// returns an empty Program and puts the reason (with the GLSL log) in `error`.
  static Program from_embedded(std::string_view vertex, std::string_view fragment, std::string& error);

  bool valid() const { return id_ != 0; }
  GLuint id() const { return id_; }
  GLint uniform(const char* name) const { return glGetUniformLocation(id_, name); }

 private:
  explicit Program(GLuint id) : id_(id) {}
  GLuint id_ = 0;
};

}  // namespace poslab::app::gl
