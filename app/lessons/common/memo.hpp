#pragma once
// A memo of a pure function, for what a lesson's figures and readouts share
// (the relative lesson's toy, the sinusoidal dot samples, T5's bucket
// lookup): dragging one slider recomputes what moved and finds the rest here.

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <utility>

namespace poslab::app::lessons {

/// The last `Capacity` values by key, most recently used first. The same key
/// gives the same value, remembered or not. Thread-safe; a value is computed
/// outside the lock.
template <class Key, class Value, std::size_t Capacity>
class Memo {
 public:
  using Ptr = std::shared_ptr<const Value>;

  /// The value of `key`: `compute()` (a Ptr) when it is not remembered.
  template <class Compute>
  Ptr get(const Key& key, Compute compute) {
    {
      const std::lock_guard lock(mutex_);
      for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->first == key) {
          entries_.splice(entries_.begin(), entries_, it);  // most recently used first
          return entries_.front().second;
        }
    }
    Ptr value = compute();
    const std::lock_guard lock(mutex_);
    entries_.emplace_front(key, value);
    if (entries_.size() > Capacity) entries_.pop_back();
    return value;
  }

 private:
  std::mutex mutex_;
  std::list<std::pair<Key, Ptr>> entries_;
};

}  // namespace poslab::app::lessons
