#include "app/platform/desktop/gl/gl_program.hpp"

#include <utility>
#include <vector>

#include "app/platform/desktop/gl/shader_sources.hpp"

namespace poslab::app::gl {

namespace {

std::string info_log(GLuint object, bool is_program) {
  GLint length = 0;
  if (is_program) glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length);
  else glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
  if (length <= 1) return {};
  std::vector<char> log(static_cast<std::size_t>(length));
  if (is_program) glGetProgramInfoLog(object, length, nullptr, log.data());
  else glGetShaderInfoLog(object, length, nullptr, log.data());
  return std::string(log.data());
}

GLuint compile(GLenum type, std::string_view name, std::string& error) {
  const std::string_view source = shader_source(name);
  if (source.empty()) {
    error = "shader " + std::string(name) + " is not embedded in this build";
    return 0;
  }
  const GLuint shader = glCreateShader(type);
  const GLchar* text = source.data();
  const GLint length = static_cast<GLint>(source.size());
  glShaderSource(shader, 1, &text, &length);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    error = "cannot compile shader " + std::string(name) + ": " + info_log(shader, false);
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

}  // namespace

Program::~Program() {
  if (id_) glDeleteProgram(id_);
}

Program::Program(Program&& other) noexcept : id_(std::exchange(other.id_, 0)) {}

Program& Program::operator=(Program&& other) noexcept {
  if (this != &other) {
    if (id_) glDeleteProgram(id_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

Program Program::from_embedded(std::string_view vertex, std::string_view fragment, std::string& error) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex, error);
  if (!vs) return {};
  const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment, error);
  if (!fs) {
    glDeleteShader(vs);
    return {};
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDetachShader(program, vs);
  glDetachShader(program, fs);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    error = "cannot link " + std::string(vertex) + " + " + std::string(fragment) + ": " + info_log(program, true);
    glDeleteProgram(program);
    return {};
  }
  return Program(program);
}

}  // namespace poslab::app::gl
