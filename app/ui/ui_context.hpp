#pragma once
// What the panels of one frame share: the state they edit, the texts, the
// caches, the look. Built by the App each frame from what it owns; panels
// take it by reference instead of reaching into a god object.

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
  double now = 0;   ///< seconds since start
  bool redraw = false;  ///< set by anyone who needs another frame soon
};

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
void wrapped_text(std::string_view text, float wrap_pos_x = 0);

/// The height of `text` as wrapped_text draws it at `width` in `font`
/// (nullptr: the current font), lines and the spacing between them.
float wrapped_height(ImFont* font, std::string_view text, float width);

/// Text in a colour, wrapped at the window's edge.
void wrapped_colored(const ImVec4& color, const std::string& text);

}  // namespace poslab::app::ui
