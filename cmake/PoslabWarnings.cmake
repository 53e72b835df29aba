# poslab_set_warnings(target): the warning set every poslab target compiles
# with (and, with POSLAB_WERROR, fails on), plus the sanitizer flags when
# POSLAB_SANITIZE is on. Per target, never global.
function(poslab_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
    -Wimplicit-fallthrough -Wformat=2
    # designated initializers leave defaulted members out on purpose
    -Wno-missing-field-initializers)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 false positives at -O2/-O3: "literal" + std::string&& reported as an
    # overlapping memcpy (PR 105651), and std::variant/std::string members
    # reported as maybe-uninitialized (PR 107138 and friends). The clang build
    # (sanitizers, fuzzers) keeps its own uninitialized-use warnings on.
    target_compile_options(${target} PRIVATE -Wno-restrict -Wno-maybe-uninitialized)
  endif()
  if(POSLAB_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(POSLAB_SANITIZER_FLAGS)
    target_compile_options(${target} PRIVATE ${POSLAB_SANITIZER_FLAGS})
    target_link_options(${target} PRIVATE ${POSLAB_SANITIZER_FLAGS})
  endif()
endfunction()
