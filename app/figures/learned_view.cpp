// Lesson "learned". Its figures are written next; a view without figures is not
// listed (views.cpp).

#include "app/figures/views.hpp"

namespace poslab::app {

ViewDef learned_view() { return {.id = "learned", .group = "absolute"}; }

}  // namespace poslab::app
