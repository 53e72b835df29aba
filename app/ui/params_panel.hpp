#pragma once
// The parameters of the current lesson (ViewDef::keys), one control each:
// its name, unit, "(?)" help (param.<key>.help), its slider range; log
// sliders for SliderScale::log, powers of two for pow2; Ctrl+click types an
// exact value (checked by core, refused inline with core's message, the old
// value kept); lists and vectors as text; booleans as checkboxes; choices as
// combos. Reset per parameter and per lesson; ▶ plays a numeric parameter.

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/ui/ui_context.hpp"

namespace poslab::app::ui {

class ParamsPanel {
 public:
  /// The full panel for the current lesson.
  void draw(UiContext& ctx);
  /// Only `keys` (lecture mode: the chosen sliders), laid out in `columns` (at most 3 by default).
  void draw_compact(UiContext& ctx, std::span<const std::string> keys, int columns = 3);

  /// Typed entry, as Ctrl+click then Enter does it: returns "" when applied,
  /// else the message shown under the control (the old value stays).
  std::string type_value(UiContext& ctx, std::string_view key, std::string_view text);
  /// The message under `key`'s control ("" when none).
  const std::string& message(std::string_view key) const;
  void clear_messages() { messages_.clear(); }
  /// The keys whose controls the last draw or draw_compact showed, in order
  /// (tests: an embed shows exactly the sliders its link names).
  const std::vector<std::string>& drawn() const { return drawn_; }

 private:
  void draw_param(UiContext& ctx, const core::ParamSpec& spec, bool compact);
  void name_line(UiContext& ctx, const core::ParamSpec& spec, bool compact);
  void numeric(UiContext& ctx, const core::ParamSpec& spec, double value, bool compact);
  void text_entry(UiContext& ctx, const core::ParamSpec& spec, const std::string& shown);
  void context_menu(UiContext& ctx, const core::ParamSpec& spec);
  void set(UiContext& ctx, std::string_view key, const core::ParamValue& value);
  const std::string& shown_text(UiContext& ctx, const core::ParamSpec& spec);

  std::map<std::string, std::string, std::less<>> messages_;
  std::vector<std::string> drawn_;
  std::string typing_key_;   ///< the key in Ctrl+click typed entry ("" = none)
  std::string typing_buf_;
  bool typing_focus_ = false;
  std::map<std::string, std::string, std::less<>> list_bufs_;
  /// A widened slider's range held while its handle is dragged (a value
  /// past the usual range widens it; the range must not move under the mouse).
  std::map<std::string, std::pair<double, double>, std::less<>> drag_range_;
  // formatted values, rebuilt when the state changes (never per idle frame)
  std::map<std::string, std::string, std::less<>> shown_;
  std::uint64_t shown_revision_ = 0;
  int shown_view_ = -1;
};

/// "unit" translated (ui.unit.*), or as core spells it.
std::string unit_text(const Translator& tr, std::string_view unit);
/// The unit shown beside a parameter's name: its unit_text, or nothing when
/// it has none or its name already says it — "param.<key>.unit" set to ""
/// in that language ("head dimension d", not "head dimension d (dims)";
/// "嵌入维度 d", not "嵌入维度 d（维）").
std::string param_unit(const Translator& tr, const core::ParamSpec& spec);
/// "param.<key>.name_<group>" when the lesson group (ViewDef::group) names
/// the key its own way, else "param.<key>.name", or the key itself.
std::string param_name(const Translator& tr, std::string_view key, std::string_view group = {});
/// A choice as the menu shows it, "param.<key>.choice.<word>" (the word stays
/// in files and on the command line), or the word itself.
std::string choice_text(const Translator& tr, std::string_view key, std::string_view word);

}  // namespace poslab::app::ui
