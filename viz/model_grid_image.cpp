#include "model_grid_image.h"

#include <algorithm>

namespace viz {

GridImage build_grid_image(const GridLayout& layout, const std::function<Rgba(int64_t offset)>& color_of,
                           int64_t max_texels) {
  GridImage img;
  const int64_t rows = layout.rows(), cols = layout.cols();
  if (rows <= 0 || cols <= 0) return img;
  const int64_t longest = std::max(rows, cols);
  img.step = (longest + max_texels - 1) / std::max<int64_t>(max_texels, 1);
  img.width = (cols + img.step - 1) / img.step;
  img.height = (rows + img.step - 1) / img.step;
  img.pixels.resize(static_cast<size_t>(img.width * img.height));
  for (int64_t y = 0; y < img.height; ++y) {
    Rgba* out = &img.pixels[static_cast<size_t>(y * img.width)];
    for (int64_t x = 0; x < img.width; ++x) {
      const Cell c{y * img.step, x * img.step};
      out[x] = layout.inside(c) ? color_of(layout.offset_at(c)) : palette::beyond_tensor;
    }
  }
  return img;
}

}  // namespace viz
