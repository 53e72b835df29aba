#include "app/ui/modal_queue.hpp"

#include <algorithm>

namespace poslab::app::ui {

void ModalQueue::request(Modal modal, std::function<void()> open) {
  if (has_current_ && current_ == modal) return;
  if (std::any_of(waiting_.begin(), waiting_.end(), [&](const Request& r) { return r.modal == modal; })) return;
  waiting_.push_back({modal, std::move(open)});
}

void ModalQueue::next_frame(bool showing) {
  if (showing) return;
  has_current_ = false;
  if (waiting_.empty()) return;
  Request next = std::move(waiting_.front());
  waiting_.pop_front();
  current_ = next.modal;
  has_current_ = true;
  next.open();
}

}  // namespace poslab::app::ui
