// The two paths of test_paths.hpp, set by tests/CMakeLists.txt for this file only.
#include "test_paths.hpp"

namespace poslab::test {
const char* source_dir() { return POSLAB_TEST_SOURCE_DIR; }
const char* binary() { return POSLAB_TEST_BINARY; }
}  // namespace poslab::test
