// poslab: the desktop app and its command line (docs/CONTRACT.md §1).
#include "app/cli/cli.hpp"

int main(int argc, char** argv) { return poslab::app::run_cli(argc, argv); }
