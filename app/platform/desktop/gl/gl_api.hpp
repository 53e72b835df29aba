#pragma once
// The OpenGL functions: OpenGL 3.3 core through libepoxy on the desktop,
// OpenGL ES 3.0 (WebGL 2) from emscripten in the browser build, which
// compiles this folder too (app/platform/web/). The code here uses only what
// both have: no BGRA uploads, no packed 8_8_8_8 types.

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <epoxy/gl.h>
#endif
