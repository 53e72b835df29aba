#pragma once
// Modal windows (the file prompts, the shortcut overlay) open one at a time,
// through this one queue. Dear ImGui 1.86 aborts (an assertion, SIGABRT, the
// session lost) when a window appears in the frame a modal opens, and a
// second modal opened over the first closes it: two shortcuts landing in one
// frame (Ctrl+O and Ctrl+D; Ctrl+S with F2; a clicker's burst, a cat on the
// keyboard) did both. So a modal asked for while another shows waits its
// turn, opens at the start of a frame (before anything is drawn), one per
// frame; the App draws the modals after every other window, so a window that
// appears in that frame was begun before the modal. A modal asked for twice
// is one request.

#include <deque>
#include <functional>

namespace poslab::app::ui {

enum class Modal { open_session, save_session, paste_state, open_model, open_deck, save_deck, shortcuts };

class ModalQueue {
 public:
  /// Asks for `modal`; `open` shows it (SessionUi::show, the overlay's flag)
  /// when none shows. Nothing happens when it shows already or waits.
  void request(Modal modal, std::function<void()> open);
  /// Once a frame, before anything is drawn: `showing` says whether a modal
  /// is on screen; when none is, the oldest request opens.
  void next_frame(bool showing);
  /// The requests waiting for the modal on screen to close.
  std::size_t waiting() const { return waiting_.size(); }
  void clear() { waiting_.clear(); }

 private:
  struct Request {
    Modal modal;
    std::function<void()> open;
  };
  std::deque<Request> waiting_;
  bool has_current_ = false;
  Modal current_ = Modal::shortcuts;  ///< the one opened last (while `showing`)
};

}  // namespace poslab::app::ui
