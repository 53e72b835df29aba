#pragma once
// The GUI's entry points for the command line (app/main.cpp): `poslab`,
// `poslab gui …`, `poslab screenshot …` and the frame timings of `poslab bench`.

#include "app/cli/cli.hpp"

namespace poslab::app {

GuiEntryPoints gui_entry_points();

namespace ui {
/// `poslab gui` / `poslab screenshot`: exit 0 ok, 2 bad input (one line on
/// stderr), 1 no display / no GL 3.3 / I/O failure.
int run_window(const WindowRequest& request);
}  // namespace ui

}  // namespace poslab::app
