#pragma once
// The "Open session" and "Save session" prompts (a path field — no native
// file dialog is packaged), the "Paste state" box, and what they call.

#include <filesystem>
#include <functional>
#include <string>

#include "app/ui/ui_context.hpp"

namespace poslab::app::ui {

class SessionUi {
 public:
  enum class Prompt { none, open, save, paste, model };

  void show(Prompt prompt, const std::filesystem::path& suggested);
  Prompt showing() const { return prompt_; }

  /// Draws the open prompt; calls `confirm(path or text)` on OK; a non-empty
  /// result is shown as the error and the prompt stays open.
  void draw(UiContext& ctx, const std::function<std::string(Prompt, const std::string&)>& confirm);

 private:
  Prompt prompt_ = Prompt::none;
  bool just_opened_ = false;
  std::string text_;
  std::string error_;
};

/// Where sessions are suggested by default: <export folder>/<lesson>.poslab.json.
std::filesystem::path suggested_session_path(const UiContext& ctx);

}  // namespace poslab::app::ui
