// poslab: the desktop app and its command line (docs/CONTRACT.md §1).
#include <csignal>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "app/cli/cli.hpp"

#ifdef POSLAB_WITH_GUI
#include "app/platform/desktop/app_entry.hpp"
#endif

int main(int argc, char** argv) {
  // A file over `ulimit -f` is a write error to report (EFBIG, "File too
  // large"), its temporary file removed — not a signal that kills poslab.
  std::signal(SIGXFSZ, SIG_IGN);
#if defined(__GLIBC__)
  // At the largest sizes a build allocates and frees tables of several MB
  // (decay's step table at d = 8192: 4 MB a call). By default glibc maps
  // such a block afresh each time, or hands the freed top of its heap back
  // to the kernel, and the next build takes a page fault for every 4 KiB it
  // touches: on this project's machines 2–3.6x the time of some builds
  // (t5's relative=-524288:524287 export, relative at 1,048,576 positions;
  // docs/PERFORMANCE.md). Blocks under 32 MB now come from the heap, and up
  // to 128 MB freed at its top is kept for the next build. Peak memory is
  // unchanged; memory after a large build stays with poslab until it exits.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
  poslab::app::GuiEntryPoints gui;
#ifdef POSLAB_WITH_GUI
  gui = poslab::app::gui_entry_points();
#endif
  return poslab::app::run_cli(argc, argv, gui);
}
