#pragma once
// A Figure as bytes, and back: how a figure built in another process — the
// page's Web Worker, a second instance of the same wasm — reaches the page
// (app/ui/remote_builds.hpp). Compact and exact: every number as its IEEE
// bits (a double stays a double), every text as UTF-8, little-endian, with
// a magic and a format version in front so bytes from another build are
// refused, never misread.
//
// What cannot cross is code: a heatmap's `sampler`. A sampler heatmap
// crosses as the ScreenRaster prepare_for_screen sampled on the other side;
// the decoded heatmap gets a sampler that looks values up in that raster
// (raster_sampler below), so hover readouts and zooming keep working —
// zoomed in past the raster, they show its samples.
//
// For the screen (encode_figure's `for_screen`), a long line that
// prepare_for_screen reduced crosses as its reduced points alone — the
// first, lowest, highest and last point of each eighth of a pixel, with
// their extra columns: a million-point line is drawn, hovered and zoomed
// into from those (each a point of the data), not sent whole. Exports build
// their figures themselves.
//
// Writer and Reader are the byte helpers the build requests and replies use too.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/plot/figure.hpp"

namespace poslab::app::fig::wire {

/// Appends little-endian values to a byte string.
class Writer {
 public:
  void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u32(std::uint32_t v);
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void f32(float v);
  void f64(double v);
  void boolean(bool v) { u8(v ? 1 : 0); }
  void text(std::string_view s);
  void doubles(std::span<const double> v);
  void floats(std::span<const float> v);
  void bytes(std::span<const std::uint8_t> v);
  /// Room for `extra` more bytes at once (a million-cell heatmap grown by
  /// doublings was copied and paged in again several times).
  void reserve(std::size_t extra) { out_.reserve(out_.size() + extra); }
  std::string take() { return std::move(out_); }
  std::size_t size() const { return out_.size(); }

 private:
  void raw(const void* p, std::size_t n);
  std::string out_;
};

/// Reads what a Writer wrote. Every read past the end or over a count that
/// cannot fit raises std::runtime_error ("figure bytes end early"): bytes are
/// checked, never trusted.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : in_(bytes) {}
  std::uint8_t u8();
  std::uint32_t u32();
  std::int32_t i32() { return static_cast<std::int32_t>(u32()); }
  float f32();
  double f64();
  bool boolean();
  std::string text();
  std::vector<double> doubles();
  std::vector<float> floats();
  std::vector<std::uint8_t> bytes();
  /// An enum stored as u8, checked against its last value.
  template <class E>
  E enumeration(E last) {
    const std::uint8_t v = u8();
    if (v > static_cast<std::uint8_t>(last)) fail("an unknown enum value");
    return static_cast<E>(v);
  }
  bool at_end() const { return at_ == in_.size(); }
  [[noreturn]] static void fail(const char* what);

 private:
  void raw(void* p, std::size_t n);
  /// A count of items of `item` bytes each that the rest can hold.
  std::size_t count(std::size_t item);
  std::string_view in_;
  std::size_t at_ = 0;
};

/// The figure as bytes (magic "PLF4", then every field; see the .cpp).
/// `for_screen`: long lines as their screen points alone (above).
std::string encode_figure(const Figure& figure, bool for_screen = false);
void encode_figure(Writer& w, const Figure& figure, bool for_screen = false);

/// The figure back. Raises std::runtime_error on bytes that are not a figure
/// of this format (wrong magic, cut short, an out-of-range enum).
Figure decode_figure(std::string_view bytes);
Figure decode_figure(Reader& r);

/// A sampler for a heatmap that carries only its ScreenRaster: the value of
/// the raster's cell nearest to each (x, y) — cells in the heatmap's lattice
/// (x_lattice/y_lattice) or even in `x_scale`/`y_scale` as prepare_for_screen
/// laid them out.
HeatmapSampler raster_sampler(const Heatmap& heatmap, AxisScale x_scale, AxisScale y_scale);

}  // namespace poslab::app::fig::wire
