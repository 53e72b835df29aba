// Lesson "rope-2d". Its figures are written next; a view without figures is not
// listed (views.cpp).

#include "app/figures/views.hpp"

namespace poslab::app {

ViewDef rope_2d_view() { return {.id = "rope-2d", .group = "rotary"}; }

}  // namespace poslab::app
