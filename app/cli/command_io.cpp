#include "app/cli/command_io.hpp"

#include <cstdio>
#include <new>

#include "app/cli/cli.hpp"
#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/messages.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::cli {

int fail(int code, const std::string& message) {
  std::fprintf(stderr, "poslab: %s\n", message.c_str());
  return code;
}

void write_output(const std::string& out, std::string_view text) {
  if (out.empty()) std::fwrite(text.data(), 1, text.size(), stdout);
  else write_file_atomically(out, text);
}

int run_guarded(const Translator& tr, const std::function<int()>& command, const Message* out_of_memory) {
  try {
    return command();
  } catch (const core::InvalidParameter& e) {
    return fail(kExitUsage, error_text(tr, e));
  } catch (const IoError& e) {
    return fail(kExitFailure, error_text(tr, e));
  } catch (const std::bad_alloc&) {
    if (!out_of_memory) throw;
    return fail(kExitFailure, tr.format(out_of_memory->key, out_of_memory->args));
  }
}

int run_in_language(const std::string& lang, const Message& out_of_memory,
                    const std::function<int(const Translator& tr)>& command) {
  Translator tr;  // empty until loaded: error_text then says what()
  return run_guarded(
      tr,
      [&] {
        const std::string chosen = lang.empty() ? system_language() : lang;
        if (chosen != "en" && chosen != "zh") return fail(kExitUsage, "lang = " + chosen + ": must be en or zh");
        tr = Translator::load(assets_dir(), chosen);
        return command(tr);
      },
      &out_of_memory);
}

int finish_stdout(int code, std::string_view lang) {
  // A write that failed may have been dropped from the buffer already
  // (glibc discards what it could not write), so the error flag counts too.
  const bool lost = std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!lost || code != kExitOk) return code;
  return fail(kExitFailure, translator_for(lang)("cli.stdout_failed"));
}

}  // namespace poslab::app::cli
