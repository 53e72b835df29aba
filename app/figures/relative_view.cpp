// Lesson "relative". Its figures are written next; a view without figures is not
// listed (views.cpp).

#include "app/figures/views.hpp"

namespace poslab::app {

ViewDef relative_view() { return {.id = "relative", .group = "relative"}; }

}  // namespace poslab::app
