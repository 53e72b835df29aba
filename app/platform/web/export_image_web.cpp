// Recording a sweep as a GIF draws every frame with cairo: a desktop
// feature. In the browser the recorder refuses with this message (shown in
// the export dialog) and writes nothing.

#include "app/common/atomic_file.hpp"
#include "app/ui/export_service.hpp"
// GifWriter's fields belong to the desktop's giflib writer; unused here.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-private-field"
#include "app/ui/gif_writer.hpp"
#pragma clang diagnostic pop

namespace poslab::app::ui {

namespace {
constexpr const char* kDesktopOnly =
    "recording a sweep as a GIF is a desktop feature of poslab (in the browser, export the figure at each step)";
}

Image render_figure_image(const fig::Figure&, int, int, const std::string&, const std::string&) {
  throw IoError(kDesktopOnly);
}

GifWriter::GifWriter(std::filesystem::path destination) : destination_(std::move(destination)) {
  throw IoError(kDesktopOnly);
}

GifWriter::~GifWriter() = default;

void GifWriter::add_frame(const Image&, int) { throw IoError(kDesktopOnly); }

void GifWriter::commit() { throw IoError(kDesktopOnly); }

void GifWriter::fail(const std::string&, int) { throw IoError(kDesktopOnly); }

}  // namespace poslab::app::ui
