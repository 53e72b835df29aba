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
#include <memory>
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
    std::string source_zh;  ///< a preset's source in Chinese ("" = `source`)
    std::string view;
    std::vector<ModelWarning> warnings;
    /// The whole reading (its layers for the "Layers of this model" figure).
    std::shared_ptr<const ModelReading> reading;
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
  /// The current lesson's guided steps (the deck while one is presented),
  /// or nullptr when it has none.
  const Deck* steps() const;
  /// The step (or the deck's scene) shown, 0-based; -1 = the whole lesson page.
  int step() const { return presenting() ? scene_ : step_; }
  /// The current step's answer is shown (its question was asked and revealed).
  bool step_revealed() const { return step_revealed_; }
  /// The current step, or nullptr on the whole lesson page.
  const Scene* current_step() const;
  /// Whether the control of `key` is on screen: on the whole page always; on
  /// a step (or scene) when it shows that key's slider, or every slider.
  bool step_shows(std::string_view key) const;
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

  // ---- a teacher's deck (docs/DECKS.md): scenes across lessons, each with
  // its own parameters. While a deck is presented, steps(), step(),
  // current_step(), go_to_step(), next_step() and prev_step() walk its
  // scenes instead of the lesson's guided steps (and stop at its ends).
  /// Opens `deck` (already checked by parse_deck) and presents its first
  /// scene. Returns "" or why the scene was refused (then nothing changes).
  std::string open_deck(Deck deck, std::string source = {});
  /// Forgets the deck (its scenes are lost unless saved).
  void close_deck();
  /// The open deck, or nullptr.
  const Deck* deck() const { return deck_ ? &*deck_ : nullptr; }
  /// Where the deck came from or was last saved ("" = not saved yet).
  const std::string& deck_source() const { return deck_source_; }
  void set_deck_source(std::string source) { deck_source_ = std::move(source); }
  /// True while the deck's scenes are being presented.
  bool presenting() const { return deck_.has_value() && scene_ >= 0; }
  /// The scene shown, 0-based (-1 = not presenting).
  int scene() const { return scene_; }
  /// Shows scene `index` of the deck (clamped; -1 stops presenting and keeps
  /// the state as it is). Returns "" or the refusal.
  std::string go_to_scene(int index);
  /// The current lesson as a scene: its lesson, every key of it that is set
  /// (as typed), `figure` in front, `sliders`, the animation, and the
  /// caption and question of the guided step shown (if any).
  Scene capture_scene(std::string figure = {}, std::vector<std::string> sliders = {}) const;
  // Editing the deck (a deck is created by the first add). Indices are 0-based.
  /// Inserts `scene` at `at` (clamped; -1 = the end); returns its index.
  int add_scene(Scene scene, int at = -1);
  /// Moves scene `from` to position `to`; false when either is out of range.
  bool move_scene(int from, int to);
  /// Deletes scene `index`; the deck closes with its last scene.
  bool delete_scene(int index);
  /// Sets the caption of scene `index`.
  bool set_caption(int index, LocalText caption);
  /// Replaces scene `index` whole (the Deck window's question, answer,
  /// reveal, notes and animation); false when out of range.
  bool set_scene(int index, Scene scene);
  /// The deck changed since it was opened or saved.
  bool deck_modified() const { return deck_modified_; }
  /// Bumps on every change of the open deck's content (opened, edited,
  /// closed): what shows its texts (the font atlas, miniatures) looks again.
  std::uint64_t deck_revision() const { return deck_revision_; }
  void mark_deck_saved() { deck_modified_ = false; }

  // ---- the figure in front ([ and ]): "" = the step's or the lesson's first
  const std::string& figure() const { return figure_; }
  /// Brings figure `id` of the current lesson to the front ("" = the default).
  void set_figure(std::string_view id);
  /// The figure in front now: figure(), else the step's (or its reveal's),
  /// else the lesson's first.
  std::string front_figure() const;
  /// [ / ]: the previous or next figure of the lesson, wrapping around.
  void cycle_figure(int delta);

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
  std::optional<Deck> deck_;
  std::string deck_source_;
  int scene_ = -1;
  bool deck_modified_ = false;
  std::uint64_t deck_revision_ = 0;
  std::string figure_;
  mutable std::string resolve_error_, resolve_error_key_;
};

/// The model whose name the current lesson's figures carry: the loaded
/// model's name when its lesson is open, else "".
std::string shown_model(const AppState& state);

}  // namespace poslab::app::ui
