#pragma once
// Where the test programs find the sources and the poslab binary.
//
// Force-included into every test program (tests/CMakeLists.txt), so a test
// writes POSLAB_SOURCE_DIR / POSLAB_BINARY where it needs them. The paths are
// compiled into tests/test_paths.cpp alone: a define holding an absolute path
// on every test's command line made each build folder and clone compile every
// test anew instead of taking it from ccache.
namespace poslab::test {
const char* source_dir();  // the source tree (PROJECT_SOURCE_DIR)
const char* binary();      // the poslab executable of this build
}  // namespace poslab::test

#define POSLAB_SOURCE_DIR (::poslab::test::source_dir())
#define POSLAB_BINARY (::poslab::test::binary())
