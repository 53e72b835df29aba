#pragma once
// Presenter tools in lecture mode: a laser dot while L is held, a spotlight
// (H) that dims all but a circle around the pointer, and a pen (D) that
// draws over the screen until C clears it (Esc clears too). The strokes are
// kept in fractions of the screen, so they stay put when the screen changes.

#include <vector>

namespace poslab::app::ui {

struct PresenterTools {
  struct Point {
    float x = 0, y = 0;  ///< 0..1 of the display's width and height
  };
  bool laser = false;      ///< L held
  bool spotlight = false;  ///< H toggles
  bool pen = false;        ///< D toggles: the left mouse button draws
  std::vector<std::vector<Point>> strokes;
  bool drawing = false;    ///< a stroke is being drawn (mouse down)

  bool active() const { return laser || spotlight || pen || !strokes.empty(); }
  void clear() { *this = PresenterTools{}; }
};

}  // namespace poslab::app::ui
