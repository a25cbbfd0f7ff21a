// PNG encoding of a rendered picture, with stb_image_write (libstb exports
// the implementation; the header is only declared here).
#include <stb/stb_image_write.h>

#include "render_raster.h"

namespace viz {

std::string encode_png(const RgbaImage& image) {
  std::string out;
  if (image.width <= 0 || image.height <= 0) return out;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
  };
  // Pictures are flat colors: the "sub" filter on every row compresses them
  // as well as stb's per-row choice of five filters, in 60 % of the time.
  stbi_write_force_png_filter = 1;
  // Rgba is red in the low byte: in memory, R G B A per pixel, what stb reads.
  stbi_write_png_to_func(append, &out, image.width, image.height, 4, image.pixels.data(), image.width * 4);
  return out;
}

}  // namespace viz
