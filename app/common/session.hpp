#pragma once
// A session: what a teacher or student was looking at — the lesson, every
// parameter they set (as typed text), the preset they started from, the theme
// and the animation — as a small JSON file (Ctrl+S, `poslab gui --session`,
// the autosave on exit) or as a one-line state string for the clipboard
// ("Copy state" / "Paste state"), so a teacher can hand students the exact
// setting.
//
// No ImGui, no GL: the CLI, the GUI and the tests share this file.
//
// File format (version 1):
//   {"format": "poslab-session", "version": 1, "lesson": "rope",
//    "preset": "llama3.1-8b", "theme": "dark",
//    "params": {"base": "500000", "pos": "0:9,100"},
//    "animation": {"key": "m", "from": 0, "to": 64, "speed": 1,
//                  "mode": "loop", "playing": false}}
// State string: "poslab:1 lesson=rope preset=llama3.1-8b base=500000 pos=0:9,100"
//
// Reading is defensive: a corrupt, truncated, newer, hostile (deep nesting,
// huge arrays, wrong types) or foreign file raises core::InvalidParameter
// ("session = <source>: <why>") and returns nothing half-read, so the caller's
// state stays untouched.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "poslab/core/params.hpp"

namespace poslab::app {

inline constexpr int kSessionVersion = 1;
/// Larger files are refused before parsing (a session is a few hundred bytes).
inline constexpr std::size_t kMaxSessionBytes = 4u << 20;

enum class PlayMode { loop, bounce, once };

/// "loop" | "bounce" | "once"; raises core::InvalidParameter("mode", …).
PlayMode parse_play_mode(std::string_view word);
const char* play_mode_name(PlayMode mode);

struct SessionAnimation {
  std::string key;  ///< a numeric parameter of the lesson
  double from = 0, to = 1;
  double speed = 1;  ///< sweeps per ~5 s (1 = one sweep in 5 s), 0.05..20
  PlayMode mode = PlayMode::loop;
  bool playing = false;
  bool operator==(const SessionAnimation&) const = default;
};

struct Session {
  std::string lesson;  ///< a view id (checked against view_defs() by whoever applies it)
  std::string preset;  ///< the preset the parameters started from (may be empty)
  std::string theme;   ///< light | dark | projector, or empty (keep the current one)
  /// Every explicitly set parameter, key → value as typed, sorted by key.
  std::vector<std::pair<std::string, std::string>> params;
  std::optional<SessionAnimation> animation;
  bool operator==(const Session&) const = default;

  /// The parameters as a Params (each value parsed and checked). Raises core::InvalidParameter.
  core::Params to_params() const;
  /// Fills `params` from every explicitly set key of `p`, typed as the user would type it.
  void set_params(const core::Params& p);
};

/// The session as pretty JSON (version kSessionVersion).
std::string write_session(const Session& session);

/// Parses session JSON. `source` names it in messages (a file name).
/// Raises core::InvalidParameter("session", source, why).
Session parse_session(std::string_view text, std::string_view source);

/// Reads and parses a session file (refuses files over kMaxSessionBytes).
/// Raises IoError (cannot read) or core::InvalidParameter (bad content).
Session load_session_file(const std::filesystem::path& path);

/// Writes the session file atomically. Raises IoError.
void save_session_file(const std::filesystem::path& path, const Session& session);

/// The compact one-line form: "poslab:1 lesson=ID [preset=ID] KEY=VALUE...".
std::string session_state_string(const Session& session);

/// Parses a state string (surrounding blanks and newlines allowed). Raises
/// core::InvalidParameter("state", …) naming the problem.
Session parse_state_string(std::string_view text);

}  // namespace poslab::app
