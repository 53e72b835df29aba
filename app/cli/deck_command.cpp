// `poslab deck export FILE|ID --format pdf|png|svg --out PATH [--page a4|letter|slide] [--theme T] [--lang L]`:
// a deck's handout (app/export/handout.hpp), headless.
// `poslab deck check FILE|ID [--lang L]`: reads a deck as the app would and
// says whether it is good (exit 0) or where it is not (exit 2: the scene, the
// field, the line and column), opening nothing.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cstdio>

#include "app/cli/cli.hpp"
#include "app/cli/commands.hpp"
#include "app/common/fonts.hpp"
#include "app/export/format_names.hpp"
#include "app/export/handout.hpp"

namespace poslab::app::cli {

CLI::App* add_deck_command(CLI::App& app, DeckRequest& r) {
  CLI::App* deck = app.add_subcommand("deck", "work with lecture decks (docs/DECKS.md)");
  deck->require_subcommand(1, 1);
  CLI::App* exp = deck->add_subcommand("export", "a handout: one page per scene (figure, caption, parameters)");
  exp->add_option("deck", r.deck, "a deck file, or a built-in deck's id (poslab list decks)")->required();
  exp->add_option("--format", r.format, "pdf (one file), png or svg (one file per scene)")->required();
  exp->add_option("--out", r.out, "the PDF file, or the folder for PNG/SVG")->required();
  exp->add_option("--page", r.page,
                  "slide (13.333 × 7.5 in, 16:9: the default for png and svg, 1920 × 1080 px), a4 (the default for pdf) "
                  "or letter");
  exp->add_option("--theme", r.theme, "light (default), dark or projector");
  exp->add_option("--lang", r.lang, "en or zh (default: the system language)");
  CLI::App* check = deck->add_subcommand("check", "read a deck and say whether it is good (exit 0) or where it is not (exit 2)");
  check->add_option("deck", r.deck, "a deck file, or a built-in deck's id (poslab list decks)")->required();
  check->add_option("--lang", r.lang, "en or zh (default: the system language)");
  check->parse_complete_callback([&r] { r.check = true; });
  return deck;
}

namespace {

/// A handout's formats: only these are listed when the word is none of them.
constexpr std::array<FormatName<ExportFormat>, 3> kHandoutFormats{
    {{"pdf", ExportFormat::pdf}, {"png", ExportFormat::png}, {"svg", ExportFormat::svg}}};

int check_deck(const DeckRequest& r, const Translator& tr) {
  std::filesystem::path source;
  const Deck deck = load_deck_named(r.deck, &source);
  const std::string name = source.empty() ? r.deck : source.filename().string();
  // Each lesson once, in order (by name: a search in the joined text took
  // "rope" for seen after "rope-2d" and left it out).
  std::vector<std::string> seen;
  std::string lessons;
  for (const Scene& s : deck.scenes)
    if (std::find(seen.begin(), seen.end(), s.lesson) == seen.end()) {
      seen.push_back(s.lesson);
      lessons += (lessons.empty() ? "" : ", ") + s.lesson;
    }
  const std::string line = tr.format(deck.scenes.size() == 1 ? "cli.deck_check_ok_one" : "cli.deck_check_ok",
                                     {{"deck", name}, {"count", std::to_string(deck.scenes.size())}, {"lessons", lessons}});
  write_output("", line + "\n");
  return kExitOk;
}

}  // namespace

int run_deck(const DeckRequest& r) {
  return run_in_language(r.lang, {"cli.out_of_memory_view", {{"view", r.deck}}}, [&](const Translator& tr) {
    if (r.check) return check_deck(r, tr);
    const ExportFormat format = parse_format(r.format, kHandoutFormats);
    std::filesystem::path source;
    const Deck deck = load_deck_named(r.deck, &source);
    HandoutOptions o;
    o.page = r.page;
    o.theme = r.theme;
    o.font_family = export_font_families(tr.lang());
    const std::string name = source.empty() ? r.deck : source.filename().string();
    export_handout(deck, name, format, r.out, tr, o);
    return kExitOk;
  });
}

}  // namespace poslab::app::cli
