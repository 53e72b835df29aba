// Linked into every test program that draws text with cairo (app, GUI, soak,
// fuzz targets): at exit it releases cairo's and fontconfig's static caches,
// as `poslab` itself does before it returns (app/cli/cli.cpp), so that
// LeakSanitizer's exit check sees only poslab's own allocations.
//
// Why: cairo 1.16 with fontconfig 2.14 (Debian 12) keeps font faces and
// fontconfig patterns where LeakSanitizer cannot follow them, and reports
// them as leaked at exit — a ten-line C program that measures one string
// with cairo_text_extents shows ~650 bytes "leaked" in 7 allocations. The
// amount is bounded (1000 faces of 6 kinds: ~1.7 KB) and
// cairo_debug_reset_static_data() + FcFini() free all of it, so this is a
// cache, not a leak; poslab's allocations are still checked in full.
//
// A namespace-scope object is constructed before any function-local static,
// so its destructor runs after theirs (nothing uses cairo after it), and
// before the sanitizer's own exit-time check, which was registered first.

#include "app/common/fonts.hpp"

namespace {

struct ReleaseFontCachesAtExit {
  ReleaseFontCachesAtExit() = default;
  ReleaseFontCachesAtExit(const ReleaseFontCachesAtExit&) = delete;
  ReleaseFontCachesAtExit& operator=(const ReleaseFontCachesAtExit&) = delete;
  ~ReleaseFontCachesAtExit() { poslab::app::release_font_caches(); }
};

const ReleaseFontCachesAtExit release_at_exit;

}  // namespace
