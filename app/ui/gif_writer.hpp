#pragma once
// An animated GIF (looping forever) written frame by frame with giflib, each
// frame quantised to its own 256-colour palette. The file is built under a
// temporary name next to the destination and renamed into place by commit(),
// so a cancelled or failed recording never leaves a partial GIF.

#include <filesystem>

#include "app/ui/image.hpp"

struct GifFileType;

namespace poslab::app::ui {

class GifWriter {
 public:
  /// Opens the temporary file. Raises IoError.
  explicit GifWriter(std::filesystem::path destination);
  ~GifWriter();  ///< removes the temporary file unless committed
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;

  /// Appends a frame shown for `delay_cs` hundredths of a second. Every frame
  /// must have the first frame's size. Raises IoError.
  void add_frame(const Image& image, int delay_cs);
  /// Finishes the file and renames it to the destination. Raises IoError.
  void commit();
  int frames() const { return frames_; }

 private:
  void fail(const std::string& what, int error);
  std::filesystem::path destination_, temp_;
  GifFileType* gif_ = nullptr;
  int width_ = 0, height_ = 0, frames_ = 0;
  bool committed_ = false;
};

}  // namespace poslab::app::ui
