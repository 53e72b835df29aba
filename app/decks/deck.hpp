#pragma once
// A deck: an ordered list of scenes, each a lesson in a state of its own — the
// format of a teacher's lecture decks and of every lesson's guided steps
// (assets/steps/<view>.json), documented in docs/DECKS.md.
//
//   {"format": "poslab-deck", "version": 1,
//    "title": {"en": "…", "zh": "…"},
//    "scenes": [{"lesson": "rope",
//                "params": {"d": 64, "base": 500000, "layout": "half"},
//                "figure": "frequencies",
//                "sliders": ["d", "base"],
//                "caption": {"en": "…", "zh": "…"},
//                "question": {"en": "…", "zh": "…"}, "answer": {"en": "…", "zh": "…"},
//                "reveal": {"params": {"m": 5}, "figure": "score"},
//                "notes": {"en": "…", "zh": "…"},
//                "animation": {"key": "m", "from": 0, "to": 64, "speed": 1, "mode": "loop", "playing": true}}]}
//
// A scene's params are applied on top of its lesson's defaults: every key of
// the lesson not named goes back to its default, so a scene always looks the
// same, whatever was shown before. Texts are {"en", "zh"} objects or one
// string (used for both languages). Everything but "lesson" is optional.
//
// Reading is all-or-nothing and names the scene, the field, its line and
// column and what is wrong ("deck = course.json, scene 3, figure (line 14,
// column 7): figure \"x\" is not a figure of rope"); a key the format does
// not have is refused with the nearest one it has ("captoin" → "caption").
// no ImGui, no files except load/save: the CLI, the GUI and the tests share it.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/common/session.hpp"

namespace poslab::app {

inline constexpr int kDeckVersion = 1;
/// Larger files are refused before parsing (a 200-scene deck is ~200 KB).
inline constexpr std::size_t kMaxDeckBytes = 4u << 20;
inline constexpr std::size_t kMaxScenes = 500;

/// A text in both languages; `zh` empty means "use the English".
struct LocalText {
  std::string en, zh;
  bool empty() const { return en.empty() && zh.empty(); }
  /// The text in `lang` ("zh" or anything else for English), falling back to the other.
  const std::string& in(std::string_view lang) const;
  bool operator==(const LocalText&) const = default;
};

struct Scene {
  std::string lesson;  ///< a view id
  /// Keys of the lesson set by the scene, as typed (sorted by key).
  std::vector<std::pair<std::string, std::string>> params;
  std::string figure;                ///< the figure in front ("" = the lesson's first)
  std::vector<std::string> sliders;  ///< the keys the panel shows (empty = all of the lesson's)
  LocalText caption;
  LocalText question;  ///< predict-then-reveal: asked first …
  LocalText answer;    ///< … answered on the next key press
  LocalText notes;     ///< the speaker's notes (never on the projector)
  /// Applied with the answer (empty = the answer changes nothing on screen).
  std::vector<std::pair<std::string, std::string>> reveal_params;
  std::string reveal_figure;
  /// Until the answer, the figure shows its title, subtitle and axes but not
  /// what it draws (the question asks about it): "hide_figure": true.
  bool hide_figure = false;
  std::optional<SessionAnimation> animation;
  bool operator==(const Scene&) const = default;

  bool has_question() const { return !question.empty(); }
  /// The state of the scene as a session (its lesson and its params, or the
  /// params with the reveal's applied over them).
  Session session(bool revealed = false) const;
};

struct Deck {
  LocalText title;
  std::vector<Scene> scenes;
  bool operator==(const Deck&) const = default;
};

/// Parses deck JSON and checks every scene against the lessons (the lesson
/// exists, its figure and sliders belong to it, its params and the reveal's
/// are valid for it). `source` names the deck in messages. Raises
/// core::InvalidParameter("deck", "<source>, scene N", why); N is 1-based.
Deck parse_deck(std::string_view text, std::string_view source);

/// Reads and parses a deck file. Raises IoError (cannot read) or
/// core::InvalidParameter (bad content).
Deck load_deck_file(const std::filesystem::path& path);

/// The deck as pretty JSON (version kDeckVersion); parse_deck reads it back equal.
std::string write_deck(const Deck& deck);

/// Writes the deck atomically. Raises IoError.
void save_deck_file(const std::filesystem::path& path, const Deck& deck);

/// The guided steps of lesson `view_id` (assets/steps/<view_id>.json), loaded
/// and checked once; nullptr when the lesson has none. Raises what
/// load_deck_file raises when the file exists but is bad (a bug in assets,
/// which tests/app/test_steps.cpp catches).
const Deck* lesson_steps(std::string_view view_id);

/// Raises core::InvalidParameter("step", …) unless `step` (1-based) is one
/// of lesson `view_id`'s guided steps.
void check_step_number(std::string_view view_id, int step);
/// The same for a scene (1-based) of `deck`, named `name` in the message.
void check_scene_number(const Deck& deck, std::string_view name, int step);

/// The built-in decks (assets/decks/*.json): id (file stem) and deck, by id.
std::vector<std::pair<std::string, Deck>> builtin_decks();

/// `name` as `poslab gui --deck` takes it: the deck file at that path when
/// one exists, else the built-in deck with that id. Raises IoError (no such
/// file or deck, unreadable) or core::InvalidParameter (bad content).
/// `source` receives the file's path ("" for a built-in deck).
Deck load_deck_named(const std::string& name, std::filesystem::path* source = nullptr);

}  // namespace poslab::app
