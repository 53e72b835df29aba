// Lesson "alibi". Its figures are written next; a view without figures is not
// listed (views.cpp).

#include "app/figures/views.hpp"

namespace poslab::app {

ViewDef alibi_view() { return {.id = "alibi", .group = "relative"}; }

}  // namespace poslab::app
