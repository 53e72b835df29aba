#pragma once
// What every command shares (docs/CONTRACT.md §1): where its output goes (the
// file --out names, or standard output), how what it raises becomes an exit
// code with one line on stderr, and the check that standard output really
// received everything (a full disk or a closed file is an error, never a
// silent exit 0).

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/common/i18n.hpp"

namespace poslab::app::cli {

/// Prints "poslab: <message>" on stderr and returns `code`.
int fail(int code, const std::string& message);

/// Writes `text` to the file `out`, atomically, or to standard output when
/// `out` is empty (checked by finish_stdout). Raises IoError.
void write_output(const std::string& out, std::string_view text);

/// A translated message: its key and its {name} arguments.
struct Message {
  std::string key;
  std::vector<std::pair<std::string, std::string>> args;
};

/// Runs `command` and turns what it raises into exit codes, with one line on
/// stderr in tr's language: core::InvalidParameter → 2, IoError → 1, and
/// std::bad_alloc → 1 saying `out_of_memory` (when given; else it propagates).
int run_guarded(const Translator& tr, const std::function<int()>& command, const Message* out_of_memory = nullptr);

/// For a command with --lang: `lang` ("" = the system language) must be en or
/// zh (else exit 2); its texts are loaded and `command(tr)` runs under
/// run_guarded, so every message after the language check is in it.
int run_in_language(const std::string& lang, const Message& out_of_memory,
                    const std::function<int(const Translator& tr)>& command);

/// Flushes standard output at the end of a command. If anything written to it
/// was lost, prints "cannot write to standard output" (in `lang`, "" = the
/// system language) and returns 1 instead of a successful `code`.
int finish_stdout(int code, std::string_view lang);

}  // namespace poslab::app::cli
