// Lessons whose figures are still being written: listed nowhere until they
// have at least one figure (views.cpp skips a view without figures).

#include "app/figures/views.hpp"

namespace poslab::app {

ViewDef learned_view() { return {.id = "learned", .group = "absolute"}; }
ViewDef relative_view() { return {.id = "relative", .group = "relative"}; }
ViewDef alibi_view() { return {.id = "alibi", .group = "relative"}; }
ViewDef rope_2d_view() { return {.id = "rope-2d", .group = "rotary"}; }
ViewDef gaussian_view() { return {.id = "gaussian", .group = "rotary"}; }
ViewDef scaling_view() { return {.id = "scaling", .group = "extension"}; }

}  // namespace poslab::app
