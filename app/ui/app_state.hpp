#pragma once
// [SECTION] The app's state, without a window: which lesson is open, the one
// core::Params of the session, the preset it came from, the theme, the
// animation. Every change goes through here and is checked the way
// `poslab --set` checks it (core::Params::set, then the lesson's relations),
// so an invalid value is refused with core's message and the old value stays.
// A revision number tells caches (figures, tables, readouts) when to rebuild.
// No ImGui here: tests drive it directly.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/i18n.hpp"
#include "app/common/presets.hpp"
#include "app/common/session.hpp"
#include "app/decks/deck.hpp"
#include "app/lessons/lesson.hpp"
#include "app/ui/animation.hpp"
#include "poslab/core/params.hpp"

namespace poslab::app::ui {

class AppState {
 public:
  explicit AppState(std::vector<Preset> presets = {});

  /// The language of the refusals below (error_text); English when none is
  /// set. `tr` must outlive the state (the App's own translator).
  void set_translator(const Translator* tr);
  /// That translator (English when none is set).
  const Translator& texts() const;
  /// `e` as one line in that language (error_text, app/common/messages.hpp).
  std::string refusal(const std::exception& e) const;

  // ---- lessons
  std::span<const ViewDef> views() const;
  const ViewDef& view() const;
  int view_index() const { return view_index_; }
  /// Opens lesson `id`; false (and nothing changes) if there is no such lesson.
  bool select_view(std::string_view id);
  void select_view_index(int index);  ///< clamped to the lessons that exist
  void step_view(int delta);          ///< previous/next lesson, stops at the ends

  // ---- parameters
  /// The session's parameters (explicitly set keys; the rest at their defaults).
  const core::Params& params() const { return params_; }
  /// The current lesson's parameters with its defaults applied, or nullptr
  /// when the combination breaks one of its rules (resolve_error() says which).
  const core::Params* resolved() const;
  const std::string& resolve_error() const;
  const std::string& resolve_error_key() const;
  /// Bumps on every change that can change what a lesson shows.
  std::uint64_t revision() const { return revision_; }
  void touch() { invalidate(); }  ///< e.g. the language changed
  /// The revision at which `key`'s value last changed — or at which
  /// everything may have changed (another lesson, preset, session, language),
  /// whichever is later. A cache built at revision r from keys K is still
  /// valid when changed_at(k) <= r for every k in K.
  std::uint64_t changed_at(std::string_view key) const;
  std::uint64_t everything_changed_at() const { return all_changed_at_; }

  /// Sets `key` after checking it alone and against the lesson's rules.
  /// Returns "" on success, else core's one-line reason (the old value stays).
  std::string set_param(std::string_view key, const core::ParamValue& value);
  std::string set_param_text(std::string_view key, std::string_view text);
  /// Sets several "KEY=VALUE" assignments all-or-nothing, checking the
  /// lesson's rules once at the end (so their order does not matter).
  std::string set_assignments(const std::vector<std::string>& assignments);
  void reset_param(std::string_view key);
  /// Every key of the current lesson back to its default.
  void reset_view();

  // ---- presets
  const std::vector<Preset>& presets() const { return presets_; }
  const std::string& preset_id() const { return preset_id_; }
  /// Starts from the defaults, applies preset `id` and opens its lesson when
  /// that lesson exists. Returns "" or the reason nothing changed.
  std::string apply_preset(std::string_view id);

  // ---- a model's config.json (File → Open model config…, a dropped file, --model)
  /// The model shown: its name, where it came from, the reader's warnings and
  /// the lesson its config opened.
  struct LoadedModel {
    std::string name;    ///< model_type (ModelReading::model)
    std::string source;  ///< the file, or the config a preset reproduces
    std::string view;
    std::vector<ModelWarning> warnings;
  };
  const std::optional<LoadedModel>& model() const { return model_; }
  /// Reads a config.json's text (app/model) and, all-or-nothing, starts from
  /// the defaults, applies the reading's params and opens its lesson. A model
  /// poslab has no lesson for (family unknown) changes no parameter but is
  /// shown with its warnings. Returns "" or the refusal (nothing changed).
  std::string open_model_config(std::string_view text, std::string source);
  void close_model();

  // ---- theme
  const std::string& theme() const { return theme_; }
  void set_theme(std::string_view theme);  ///< light | dark | projector (others ignored)

  // ---- animation
  Animation& animation() { return animation_; }
  const Animation& animation() const { return animation_; }
  /// Advances a playing animation and sets its value. Returns true when a
  /// value changed (the frame must be redrawn).
  bool tick_animation(double dt);

  // ---- sessions
  Session session() const;
  /// Applies a session all-or-nothing: returns "" or why it was refused
  /// (unknown lesson, invalid parameter, a rule of the lesson broken).
  std::string apply_session(const Session& session);

  // ---- guided steps (a lesson's assets/steps/<id>.json) and deck scenes
  /// The current lesson's guided steps, or nullptr when it has none.
  const Deck* steps() const;
  /// The step shown, 0-based; -1 = the whole lesson page (no step).
  int step() const { return step_; }
  /// The current step's answer is shown (its question was asked and revealed).
  bool step_revealed() const { return step_revealed_; }
  /// The current step, or nullptr on the whole lesson page.
  const Scene* current_step() const;
  /// Opens lesson `index` as a learner does from the lesson list: at its
  /// first step when it has steps, else on its whole page.
  void open_lesson(int index);
  /// Shows step `index` of the current lesson (clamped; -1 = the whole page,
  /// which changes no parameter). Returns "" or why the step was refused.
  std::string go_to_step(int index);
  /// → / PgDn: reveals the current step's answer when its question is still
  /// open, else the next step, else the next lesson's first step.
  std::string next_step();
  /// ← / PgUp: hides a revealed answer, else the previous step, else the
  /// previous lesson's last step.
  std::string prev_step();
  /// Applies a scene all-or-nothing: opens its lesson, puts every key of that
  /// lesson back to its default, then sets the scene's params (and the
  /// reveal's with `revealed`) and its animation. Returns "" or the refusal.
  std::string apply_scene(const Scene& scene, bool revealed = false);

 private:
  void invalidate();                        ///< everything may have changed
  void invalidate_key(std::string_view key);  ///< only `key` changed
  void refresh_resolved() const;

  std::vector<Preset> presets_;
  const Translator* tr_ = nullptr;
  int view_index_ = 0;
  core::Params params_;
  std::string preset_id_;
  std::optional<LoadedModel> model_;
  std::string theme_ = "dark";
  Animation animation_;
  std::uint64_t revision_ = 1;
  std::uint64_t all_changed_at_ = 1;
  std::map<std::string, std::uint64_t, std::less<>> key_changed_at_;

  // cache of resolved(), keyed by revision and lesson
  mutable std::uint64_t resolved_revision_ = 0;
  mutable int resolved_view_ = -1;
  mutable std::optional<core::Params> resolved_;

  int step_ = -1;
  bool step_revealed_ = false;
  mutable std::string resolve_error_, resolve_error_key_;
};

/// The model whose name the current lesson's figures carry: the loaded
/// model's name when its lesson is open, else "".
std::string shown_model(const AppState& state);

}  // namespace poslab::app::ui
