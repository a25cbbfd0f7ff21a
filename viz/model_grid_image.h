// The base image of a buffer's grid: one color per cell of the tensor
// (untouched, coverage, value, diff), before the current event is drawn on
// top. The UI uploads it as one texture, so a 4096 x 4096 buffer costs one
// quad per frame rather than 16M widgets.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "model_colors.h"
#include "model_layout.h"

namespace viz {

struct GridImage {
  int64_t width = 0, height = 0;  // texels
  int64_t step = 1;               // cells per texel along each axis (> 1 only past max_texels)
  std::vector<Rgba> pixels;       // row-major, width * height
};

// Colors every cell of `layout`'s tensor with color_of(storage offset);
// cells of a strip's last row past the end get palette::beyond_tensor. When
// rows or columns exceed `max_texels` (the GPU's texture limit), every
// step-th cell is sampled.
GridImage build_grid_image(const GridLayout& layout, const std::function<Rgba(int64_t offset)>& color_of,
                           int64_t max_texels = 16384);

}  // namespace viz
