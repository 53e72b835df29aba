// Lesson "gaussian". Its figures are written next; a view without figures is not
// listed (views.cpp).

#include "app/figures/views.hpp"

namespace poslab::app {

ViewDef gaussian_view() { return {.id = "gaussian", .group = "rotary"}; }

}  // namespace poslab::app
