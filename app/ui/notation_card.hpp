#pragma once
// Help → Notation: the card of symbols every lesson uses (assets/notation.json).

#include <filesystem>
#include <string>
#include <vector>

#include "app/common/i18n.hpp"
#include "app/common/notation.hpp"

namespace poslab::app::ui {

class NotationCard {
 public:
  void open() { open_ = true; }
  bool is_open() const { return open_; }
  void close() { open_ = false; }
  /// The card as a window while open; the symbols are read once, from `assets`.
  void draw(const std::filesystem::path& assets, const Translator& tr, float scale);

 private:
  bool open_ = false, loaded_ = false;
  std::vector<NotationEntry> entries_;
  std::string error_;
};

}  // namespace poslab::app::ui
