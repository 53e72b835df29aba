// poslab: the desktop app and its command line (docs/CONTRACT.md §1).
#include <csignal>

#include "app/cli/cli.hpp"

#ifdef POSLAB_WITH_GUI
#include "app/platform/desktop/app_entry.hpp"
#endif

int main(int argc, char** argv) {
  // A file over `ulimit -f` is a write error to report (EFBIG, "File too
  // large"), its temporary file removed — not a signal that kills poslab.
  std::signal(SIGXFSZ, SIG_IGN);
  poslab::app::GuiEntryPoints gui;
#ifdef POSLAB_WITH_GUI
  gui = poslab::app::gui_entry_points();
#endif
  return poslab::app::run_cli(argc, argv, gui);
}
