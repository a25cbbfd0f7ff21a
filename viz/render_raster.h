// The CPU renderer of the canvas's drawing commands (model_canvas.h): no
// OpenGL, no window. Rectangles and lines are painted with the same
// geometry and colors as the ImGui canvas (without its anti-aliasing), so
// a picture in a notebook shows what the viewer shows.
#pragma once
#include <string>
#include <vector>

#include "model_canvas.h"
#include "model_grid_image.h"
#include "model_picture.h"

namespace viz {

struct RgbaImage {
  int width = 0, height = 0;
  std::vector<Rgba> pixels;  // row-major, opaque

  Rgba at(int x, int y) const { return pixels[static_cast<size_t>(y) * width + x]; }
};

// Paints `commands` (in canvas pixels) into `image` with the canvas's
// top-left at (x, y), clipped to the canvas [min, max) and to the image.
// Colors with alpha below 255 are blended over what is there. An Image
// command draws `base` when given, else nothing.
void rasterize(const std::vector<DrawCommand>& commands, const CanvasGeometry& canvas, RgbaImage& image, int x, int y,
               const GridImage* base = nullptr);

// One pane, or every pane of a picture stacked top to bottom with `gap`
// pixels between them (the background is palette::beyond_tensor's darker
// neighbour, so pane edges read).
RgbaImage render_pane(const PicturePane& pane);
RgbaImage render_picture(const Picture& picture, int gap = 8);

// PNG bytes of an image: indexed color compressed with libstb's deflate, or
// stb_image_write's RGBA past 256 colors (render_png.cpp, tilescope_viz_png).
std::string encode_png(const RgbaImage& image);

}  // namespace viz
