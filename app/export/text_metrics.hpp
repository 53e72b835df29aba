#pragma once
// How wide a text is and where its baseline sits, for painters that write
// text without drawing it (the SVG writer): the same numbers the PNG/PDF
// painter lays out with, so an SVG matches them. Measured with cairo +
// fontconfig on the desktop (text_metrics_cairo.cpp), with stb_truetype on
// the fonts the page carries in the browser (platform/web/text_metrics_stb.cpp).

#include <memory>
#include <string>
#include <string_view>

#include "app/plot/painter.hpp"

namespace poslab::app {

class TextMetrics {
 public:
  /// `latin`: the family of everything but CJK; `cjk`: the family of CJK
  /// characters ("" = one face for all, see fonts.hpp).
  TextMetrics(std::string latin, std::string cjk);
  ~TextMetrics();
  TextMetrics(const TextMetrics&) = delete;
  TextMetrics& operator=(const TextMetrics&) = delete;

  /// The advance of `utf8` in `style` (CJK runs in the CJK face).
  double advance(std::string_view utf8, const fig::TextStyle& style);
  /// Ascent and descent (both positive) of the Latin face at `style`.
  struct Extents {
    double ascent = 0, descent = 0;
  };
  Extents extents(const fig::TextStyle& style);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace poslab::app
