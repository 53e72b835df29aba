#pragma once
// A parameter swept over a range, each value's figure a frame: an animated
// GIF (one shared palette, gif.hpp) or numbered PNGs, at the export size and
// look (ExportOptions), forward only or forward and back. The GUI's recorder
// (one unit of work per app frame, with a progress bar) and
// `poslab export --sweep KEY=FROM:TO` run the same code; the live parameters
// are never touched.

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/atomic_file.hpp"
#include "app/common/i18n.hpp"
#include "app/export/figure_export.hpp"
#include "app/export/gif.hpp"
#include "app/lessons/lesson.hpp"

namespace poslab::app {

enum class SweepFormat { gif, png_sequence };

struct SweepSpec {
  std::string key;         ///< a numeric parameter of the lesson
  double from = 0, to = 1;
  int frames = 60;         ///< distinct values from `from` to `to`, 2..600
  bool bounce = false;     ///< then back again (to … from, without repeating the ends)
  double seconds = 5;      ///< one pass from `from` to `to`, 0.2..120
};

/// "KEY=FROM:TO" (numbers as for --set) into spec.key, from, to. Raises
/// core::InvalidParameter("sweep", …) for a bad shape, an unknown or
/// non-numeric key, or an end outside the key's range.
void parse_sweep(std::string_view text, SweepSpec& spec);

/// The value of frame `i` (0 … frames − 1): interpolated as the key's slider
/// moves (geometric on a log scale) and snapped to what the key allows.
double sweep_value(const SweepSpec& spec, int i);

/// The frames in the order shown: 0 … n−1, then n−2 … 1 with bounce.
std::vector<int> sweep_order(const SweepSpec& spec);

class SweepWriter {
 public:
  /// Checks everything before any work: the spec (the key is one the view
  /// reads), the options, the pixels of all frames (kSweepPixelBudget), the
  /// output (a GIF file, or a folder for PNGs: created if needed, one level;
  /// the frames appear in it only when all are written). Raises
  /// core::InvalidParameter or IoError.
  SweepWriter(const ViewDef& view, const FigureDef& figure, core::Params params, SweepSpec spec, SweepFormat format,
              ExportOptions options, const Translator& tr, std::filesystem::path out);
  ~SweepWriter();
  SweepWriter(const SweepWriter&) = delete;
  SweepWriter& operator=(const SweepWriter&) = delete;

  /// One unit of work: a frame rendered and learned (GIF, first pass),
  /// encoded (second pass) or written (PNG); the file at the end. Returns
  /// false once finished. Raises IoError (nothing is left half-written: no
  /// GIF at all, PNGs each whole) or core::InvalidParameter when every value
  /// was refused. A value the lesson refuses (a rule between parameters) is
  /// skipped.
  bool step();
  /// Every step.
  void run();
  double progress() const;
  bool done() const { return done_; }
  /// Distinct frames drawn (values not refused).
  int frames_drawn() const { return drawn_; }
  /// Frames in the output (with bounce, the way back too).
  int frames_written() const { return written_; }
  /// The GIF file, or the folder of the PNGs.
  const std::filesystem::path& output() const { return out_; }
  /// The PNGs' names: <view>-<figure>-<key>-0001.png …
  std::filesystem::path png_path(int number) const;

 private:
  /// The image of frame i, or nothing when its value is refused.
  bool render(int i, Image& image);
  int total_steps() const;

  const ViewDef& view_;
  const FigureDef& figure_;
  core::Params params_;
  SweepSpec spec_;
  SweepFormat format_;
  ExportOptions options_;
  const Translator& tr_;
  std::filesystem::path out_;
  std::unique_ptr<GifWriter> gif_;
  std::unique_ptr<FileSet> pngs_;  ///< PNG frames, moved into out_ when all are written
  std::vector<int> order_;
  std::vector<int> encoded_;  ///< GIF: frame i's number in the writer, −1 refused
  int learned_ = 0, next_ = 0, drawn_ = 0, written_ = 0;
  bool done_ = false;
};

}  // namespace poslab::app
