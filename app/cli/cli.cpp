#include "app/cli/cli.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>

namespace poslab::app {

int run_cli(int argc, char** argv) {
  CLI::App app{"poslab: an interactive lab for Transformer position encodings", "poslab"};
  app.set_version_flag("--version", std::string("poslab ") + POSLAB_VERSION);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }
  std::puts(app.help().c_str());
  return kExitOk;
}

}  // namespace poslab::app
