#include "app/cli/command_io.hpp"

#include <iconv.h>
#include <langinfo.h>

#include <cctype>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "app/cli/cli.hpp"
#include "app/common/assets.hpp"
#include "app/common/atomic_file.hpp"
#include "app/common/messages.hpp"
#include "app/common/safe_text.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::cli {

namespace {

/// The character set of the user's terminal when it is neither UTF-8 nor
/// plain ASCII ("GB18030", "GBK", "BIG5"), else empty: the codeset of the
/// locale (LC_ALL, LC_CTYPE, LANG) as the C library knows it, or, when that
/// locale is not installed, as its name spells it ("zh_CN.GB18030").
std::string terminal_codeset() {
  std::string codeset;
  const char* current = std::setlocale(LC_CTYPE, nullptr);
  const std::string saved = current ? current : "C";
  if (std::setlocale(LC_CTYPE, "")) codeset = ::nl_langinfo(CODESET);
  std::setlocale(LC_CTYPE, saved.c_str());
  auto plain = [](std::string s) {  // "UTF-8", "utf8" → "UTF8"; "ANSI_X3.4-1968" → "ANSIX3.41968"
    std::string out;
    for (char c : s)
      if (c != '-' && c != '_') out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
  };
  const auto ascii = [&](const std::string& s) {
    const std::string p = plain(s);
    return p.empty() || p == "ANSIX3.41968" || p == "ASCII" || p == "USASCII" || p == "646";
  };
  if (ascii(codeset)) {
    codeset.clear();
    for (const char* var : {"LC_ALL", "LC_CTYPE", "LANG"}) {
      const char* v = std::getenv(var);
      if (!v || !*v) continue;
      const std::string name = v;
      const std::size_t dot = name.find('.');
      if (dot != std::string::npos) codeset = name.substr(dot + 1, name.find('@', dot) - dot - 1);
      break;
    }
  }
  if (ascii(codeset) || plain(codeset) == "UTF8") return {};
  return codeset;
}

/// `utf8` in the terminal's character set (unchanged when that is UTF-8 or
/// ASCII, or when the C library cannot convert to it): Chinese messages
/// under a GB18030 locale are GB18030 bytes, not UTF-8 shown as mojibake.
std::string in_terminal_charset(const std::string& utf8) {
  static const std::string codeset = terminal_codeset();
  if (codeset.empty()) return utf8;
  iconv_t cd = ::iconv_open((codeset + "//TRANSLIT").c_str(), "UTF-8");
  if (cd == reinterpret_cast<iconv_t>(-1)) return utf8;
  std::string out(utf8.size() * 4 + 16, '\0');
  char* in = const_cast<char*>(utf8.data());
  std::size_t in_left = utf8.size();
  char* to = out.data();
  std::size_t out_left = out.size();
  const std::size_t done = ::iconv(cd, &in, &in_left, &to, &out_left);
  ::iconv_close(cd);
  if (done == static_cast<std::size_t>(-1) || in_left != 0) return utf8;
  out.resize(out.size() - out_left);
  return out;
}

}  // namespace

int fail(int code, const std::string& message) {
  // One line, whatever the message quotes from a file (a deck's caption, a
  // config's model_type): no newline forges another, no escape sequence
  // reaches the terminal, no NUL cuts it short.
  std::fprintf(stderr, "poslab: %s\n", in_terminal_charset(for_terminal(message)).c_str());
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
