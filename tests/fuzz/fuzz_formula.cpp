// Fuzz target: formulas in texts (app/plot/formula.hpp). A text of any bytes
// is cut into words and formulas, each formula parsed, laid out, drawn on a
// painter that checks every call, and written back as plain text.
// Invariants: nothing throws; an error names an offset inside its formula;
// a formula that parses lays out with finite, non-negative extents and every
// piece inside its box; drawing issues only finite coordinates and sizes;
// a text without markup comes back from plain_text unchanged.

#include <cmath>
#include <cstdlib>
#include <span>
#include <string>

#include "app/plot/formula.hpp"
#include "fuzz_input.hpp"

namespace {

using namespace poslab::app::fig;

void must_be_finite(double v) {
  if (!std::isfinite(v)) std::abort();
}

/// Text as wide as 0.6 em per byte; every call checked.
class CheckingPainter final : public Painter {
 public:
  void fill_rect(const Rect& r, Color) override { must_be_finite(r.x), must_be_finite(r.y), must_be_finite(r.w), must_be_finite(r.h); }
  void stroke_polyline(std::span<const Point> p, Color, double w, LineStyle) override {
    must_be_finite(w);
    for (const Point& q : p) must_be_finite(q.x), must_be_finite(q.y);
  }
  void fill_polygon(std::span<const Point> p, Color) override {
    for (const Point& q : p) must_be_finite(q.x), must_be_finite(q.y);
  }
  void fill_circle(Point, double, Color) override {}
  void text(Point at, std::string_view, const TextStyle& st, Anchor, VAnchor, bool) override {
    must_be_finite(at.x), must_be_finite(at.y);
    if (!(st.size > 0) || !std::isfinite(st.size)) std::abort();
  }
  Size measure(std::string_view s, const TextStyle& st) override { return {0.6 * st.size * static_cast<double>(s.size()), st.size}; }
  void heatmap(const Rect&, const ScalarRaster&) override {}
  void push_clip(const Rect&) override {}
  void pop_clip() override {}
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 2048) return 0;
  poslab::fuzz::Input in(data, size);
  const double font = 4 + in.byte() % 60;
  const std::string text(reinterpret_cast<const char*>(data), size);
  CheckingPainter painter;
  for (const RichPiece& piece : rich_pieces(text)) {
    if (!piece.math) continue;
    const ParsedFormula f = parse_formula(piece.text);
    if (f.error) {
      if (f.error->offset > piece.text.size() || f.error->message.empty()) std::abort();
      continue;
    }
    const FormulaBox box = layout_formula(f.root, painter, TextStyle{font, size % 2 == 1, {}});
    must_be_finite(box.advance), must_be_finite(box.ascent), must_be_finite(box.descent);
    if (box.ascent < 0 || box.descent < 0) std::abort();
    for (const FormulaItem& it : box.items) {
      must_be_finite(it.at.x), must_be_finite(it.at.y);
      if (it.kind == FormulaItem::Kind::text && (it.at.y < -box.ascent - 1e-6 || it.at.y > box.descent + 1e-6)) std::abort();
    }
    (void)formula_plain(f.root);
  }
  rich_text(painter, {10, 10}, text, TextStyle{font, false, {}}, Anchor::center, VAnchor::middle, size % 3 == 0);
  if (!has_markup(text) && plain_text(text) != text) std::abort();
  return 0;
}
