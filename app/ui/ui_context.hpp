#pragma once
// What the panels of one frame share: the state they edit, the texts, the
// caches, the look. Built by the App each frame from what it owns; panels
// take it by reference instead of reaching into a god object.

#include <vector>

#include "app/common/i18n.hpp"
#include "app/ui/app_state.hpp"
#include "app/ui/export_service.hpp"
#include "app/ui/figure_cache.hpp"
#include "app/ui/font_atlas.hpp"
#include "app/ui/plot_widget.hpp"
#include "app/ui/settings.hpp"
#include "app/ui/style.hpp"
#include "app/ui/toasts.hpp"

namespace poslab::app::ui {

/// One widget as the narrow layout laid it out (issue 33): what it is
/// ("text", "slider", "button", "figure"), whose it is (a key, a label) and
/// where, in screen coordinates (x0, y0, x1, y1). Tests and the browser's
/// poslab_layout() read them: no text clipped or overlapping, every slider's
/// hit box at least 44 CSS px tall.
struct LaidOutBox {
  std::string kind;
  std::string id;
  ImVec4 rect{0, 0, 0, 0};
};

struct UiContext {
  AppState& state;
  const Translator& tr;
  Settings& settings;
  FigureCache& figures;
  Toasts& toasts;
  ExportChoice& export_choice;
  const UiFonts& fonts;
  PlotEnv plot;
  Palette pal;
  float scale = 1;  ///< UI scale × content scale: multiply sizes in points by it
  bool lecture = false;
  bool embed = false;  ///< a course page's <iframe> (App::set_embed): no Export button above the figure
  /// The narrow layout (a phone, a tablet, a narrow window; shell.cpp): one
  /// column, figure first, controls a finger can hit.
  bool narrow = false;
  /// Where the narrow layout notes its widgets this frame (null: not noted).
  std::vector<LaidOutBox>* laid_out = nullptr;
  double now = 0;   ///< seconds since start
  bool redraw = false;  ///< set by anyone who needs another frame soon
};

/// Notes the last item (ImGui::GetItemRect…) in ctx.laid_out, in the narrow layout.
void note_item(UiContext& ctx, std::string_view kind, std::string_view id);

/// The translated lesson title ("<view>.title"), or the view id when the
/// lesson has no title yet.
std::string lesson_title(const Translator& tr, std::string_view view_id);

/// A "(?)" marker that shows `text` in a wrapped tooltip when hovered.
void help_marker(const char* text);

/// `text` wrapped at `wrap_pos_x` (as ImGui::PushTextWrapPos: a local x,
/// 0 = the window's edge), broken here rather than by ImGui (which breaks
/// after '.' and ',' inside a word and never in Chinese): at spaces and next
/// to any CJK character (never before closing punctuation ，。） or after
/// opening （“), so a run of digits, Latin letters and symbols never splits.
/// Formulas ("$θ_i = b^{-2i/d}$", plot/formula.hpp) are typeset, each one
/// unbreakable word; a line holding a tall one (a fraction) is taller. A line
/// without markup is ImGui::TextUnformatted, as it always was.
void wrapped_text(std::string_view text, float wrap_pos_x = 0);

/// While `sink` is set, wrapped_text notes there the top of every line it
/// draws (ImGui::GetCursorPosY, in the window's content coordinates); null
/// stops it. Lecture mode scrolls its words column to a line's top with it.
void collect_line_tops(std::vector<float>* sink);

/// The height of `text` as wrapped_text draws it at `width` in `font`
/// (nullptr: the current font), lines and the spacing between them.
float wrapped_height(ImFont* font, std::string_view text, float width);

/// Text in a colour, wrapped at the window's edge.
void wrapped_colored(const ImVec4& color, const std::string& text);

}  // namespace poslab::app::ui
