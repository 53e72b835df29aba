// `poslab deck export FILE|ID --format pdf|png|svg --out PATH [--page a4|letter|slide] [--theme T] [--lang L]`:
// a deck's handout (app/export/handout.hpp), headless.

#include <CLI/CLI.hpp>

#include "app/cli/cli.hpp"
#include "app/cli/commands.hpp"
#include "app/common/fonts.hpp"
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
  return deck;
}

int run_deck(const DeckRequest& r) {
  return run_in_language(r.lang, {"cli.out_of_memory_view", {{"view", r.deck}}}, [&](const Translator& tr) {
    const ExportFormat format = parse_export_format(r.format);
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
