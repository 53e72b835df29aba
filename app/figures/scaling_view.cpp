// Lesson "scaling". Its figures are written next; a view without figures is not
// listed (views.cpp).

#include "app/figures/views.hpp"

namespace poslab::app {

ViewDef scaling_view() { return {.id = "scaling", .group = "extension"}; }

}  // namespace poslab::app
