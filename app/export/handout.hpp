#pragma once
// Handouts of a deck (docs/DECKS.md): one page per scene — the deck's title
// and where the scene stands, the lesson, the scene's figure at its own
// parameters, its caption (and its question with the answer), and the
// parameters it sets — as one PDF, or one PNG or SVG per scene. Pages are
// made one scene at a time (memory holds one figure whatever the deck's
// length) into a temporary file or folder that becomes the handout only
// when every page is written: a deck that cannot be drawn, a full disk or a
// kill writes nothing. `poslab deck export` and the GUI's deck window share this.

#include <filesystem>
#include <string>
#include <vector>

#include "app/common/i18n.hpp"
#include "app/decks/deck.hpp"
#include "app/export/figure_export.hpp"

namespace poslab::app {

struct HandoutOptions {
  std::string page = "a4";  ///< a4 | letter | slide (landscape)
  std::string theme = "light";
  std::string font_family = "DejaVu Sans";
  double png_scale = 2.0;   ///< PNG pixels per point (a4 at 2: 1684 × 1191 px)
};

/// Writes the handout of `deck` in `format` (pdf: the file `out`; png, svg:
/// one file per scene into the folder `out`, <stem>-NN-<lesson>.<ext>).
/// `source` names the deck in messages. Returns the files written. Raises
/// core::InvalidParameter("deck", "<source>, scene N", why) when a scene's
/// figure cannot be built, IoError when a file cannot be written.
std::vector<std::filesystem::path> export_handout(const Deck& deck, std::string_view source, ExportFormat format,
                                                  const std::filesystem::path& out, const Translator& tr,
                                                  const HandoutOptions& options);

}  // namespace poslab::app
