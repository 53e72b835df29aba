#pragma once
// The animated GIF writer is the exporters' (app/export/gif.hpp), shared
// with `poslab export --sweep`.

#include "app/export/gif.hpp"

namespace poslab::app::ui {

using app::GifWriter;

}  // namespace poslab::app::ui
