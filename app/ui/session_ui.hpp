#pragma once
// The file prompts — Open and Save a session, Open and Save a deck (a name
// field, no native file dialog is packaged) — and the "Paste state" box.
// They show short names, never a full path, in front of an audience: the
// file's name, and the folder's own name beside it; the recent files are one
// click away. A name without a folder is in the export folder. An error is
// shown inside the prompt, which grows to keep its buttons.

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "app/ui/ui_context.hpp"

namespace poslab::app::ui {

class SessionUi {
 public:
  enum class Prompt { none, open, save, paste, model, open_deck, save_deck };

  /// Opens `prompt` with `suggested` in its field (a full path: the field
  /// shows its name when it is in `folder`), `recent` files below it.
  void show(Prompt prompt, const std::filesystem::path& suggested, const std::filesystem::path& folder = {},
            std::vector<std::string> recent = {});
  Prompt showing() const { return prompt_; }
  /// Shows `error` in the prompt on screen (a file that failed before the
  /// prompt opened: `gui --deck bad.json`), as a failed OK does.
  void set_error(std::string error) { error_ = std::move(error); }
  const std::string& error() const { return error_; }
  void close() { prompt_ = Prompt::none; }
  /// The field's text (tests).
  const std::string& text() const { return text_; }
  void set_text(std::string text) { text_ = std::move(text); }
  /// The path the field names: `folder`/text for a bare name, ~ expanded.
  std::filesystem::path chosen_path() const;

  /// Draws the prompt; calls `confirm(prompt, path or text)` on OK; a
  /// non-empty result is shown as the error and the prompt stays open.
  void draw(UiContext& ctx, const std::function<std::string(Prompt, const std::string&)>& confirm);

 private:
  Prompt prompt_ = Prompt::none;
  bool just_opened_ = false;
  std::string text_;
  std::filesystem::path folder_;
  std::vector<std::string> recent_;
  std::string error_;
};

/// Where sessions are suggested by default: <export folder>/<lesson>.poslab.json.
std::filesystem::path suggested_session_path(const UiContext& ctx);

/// What the audience may see of a path: "name.json", or "name.json — folder"
/// with the folder's own name (never the folders above it).
std::string short_file_name(const std::filesystem::path& path, bool with_folder = false);

/// `message` with every occurrence of `path` (and its folder) replaced by
/// short_file_name(path): error texts quote the full path.
std::string without_full_path(std::string message, const std::filesystem::path& path);

}  // namespace poslab::app::ui
