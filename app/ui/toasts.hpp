#pragma once
// Short messages in the bottom-right corner ("Saved 3 figures to …",
// "Refused: …") that fade after a few seconds. The window wakes up when one
// expires, and not otherwise.

#include <cstdint>
#include <deque>
#include <string>

namespace poslab::app::ui {

enum class ToastKind { info, success, error };

class Toasts {
 public:
  void push(std::string text, ToastKind kind = ToastKind::info);
  /// Draws the live toasts (needs a frame) and drops expired ones. `now` is
  /// wall-clock seconds, so a toast expires on time however rarely the
  /// window wakes; `text_scale` < 1 draws them small (lecture mode).
  void draw(double now, float scale, float text_scale = 1.0f);
  /// Seconds until the next toast expires (infinity when none is shown).
  double seconds_to_next_change(double now) const;
  bool empty() const { return toasts_.empty(); }
  /// Every message pushed so far, newest last (tests and the log).
  const std::deque<std::string>& history() const { return history_; }
  const std::string& last() const;
  /// How many messages were pushed so far (history() keeps the last 64).
  std::uint64_t pushed() const { return pushed_; }
  ToastKind last_kind() const { return last_kind_; }

 private:
  struct Toast {
    std::string text;
    ToastKind kind;
    double shown_at = -1;  // set when first drawn
  };
  std::deque<Toast> toasts_;
  std::deque<std::string> history_;
  ToastKind last_kind_ = ToastKind::info;
  std::uint64_t pushed_ = 0;
};

inline constexpr double kToastSeconds = 5.0;

}  // namespace poslab::app::ui
