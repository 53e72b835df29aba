#include "app/ui/image.hpp"

#include "app/common/atomic_file.hpp"

namespace poslab::app::ui {

void write_png(const std::filesystem::path& path, const Image& image) { write_file_atomically(path, encode_png(image)); }

}  // namespace poslab::app::ui
