#include <cairo.h>

#include "app/export/cairo_painter.hpp"
#include "app/export/text_metrics.hpp"

namespace poslab::app {

class TextMetrics::Impl {
 public:
  Impl(std::string latin, std::string cjk) : latin_(std::move(latin)), cjk_(std::move(cjk)) {
    surface_ = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    cr_ = cairo_create(surface_);
  }
  ~Impl() {
    cairo_destroy(cr_);
    cairo_surface_destroy(surface_);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  std::string latin_, cjk_;
  cairo_surface_t* surface_ = nullptr;
  cairo_t* cr_ = nullptr;  ///< a 1×1 scratch surface: metrics only
};

TextMetrics::TextMetrics(std::string latin, std::string cjk)
    : impl_(std::make_unique<Impl>(std::move(latin), std::move(cjk))) {}

TextMetrics::~TextMetrics() = default;

double TextMetrics::advance(std::string_view utf8, const fig::TextStyle& style) {
  return text_advance(impl_->cr_, utf8, impl_->latin_, impl_->cjk_, style);
}

TextMetrics::Extents TextMetrics::extents(const fig::TextStyle& style) {
  cairo_select_font_face(impl_->cr_, impl_->latin_.c_str(), CAIRO_FONT_SLANT_NORMAL,
                         style.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(impl_->cr_, style.size);
  cairo_font_extents_t fe;
  cairo_font_extents(impl_->cr_, &fe);
  return {fe.ascent, fe.descent};
}

}  // namespace poslab::app
