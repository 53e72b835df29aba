#pragma once
// The command line of docs/CONTRACT.md §1. Exit codes: 0 success; 2 bad usage
// or invalid input (one line on stderr naming what is wrong and what is
// allowed); 1 any other failure (I/O, GL).

namespace poslab::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

int run_cli(int argc, char** argv);

}  // namespace poslab::app
