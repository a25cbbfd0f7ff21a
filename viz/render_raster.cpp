#include "render_raster.h"

#include <algorithm>
#include <cmath>

namespace viz {

namespace {

constexpr Rgba kBackground = rgba(16, 17, 20);

struct Painter {
  RgbaImage& image;
  int x, y;                     // canvas origin in the image
  int clip_x0, clip_y0, clip_x1, clip_y1;  // image pixels, [x0, x1)

  void blend(int px, int py, Rgba c) {
    if (px < clip_x0 || px >= clip_x1 || py < clip_y0 || py >= clip_y1) return;
    Rgba& d = image.pixels[static_cast<size_t>(py) * image.width + px];
    const unsigned a = alpha_of(c);
    if (a == 255) {
      d = c | 0xff000000u;
      return;
    }
    auto ch = [a](unsigned s, unsigned t) { return static_cast<uint8_t>((s * a + t * (255 - a) + 127) / 255); };
    d = rgba(ch(red_of(c), red_of(d)), ch(green_of(c), green_of(d)), ch(blue_of(c), blue_of(d)));
  }
  // Pixels whose centers lie in [x0, x1) x [y0, y1) (canvas coordinates).
  void fill(float x0, float y0, float x1, float y1, Rgba c) {
    const int a0 = std::max(clip_x0, x + static_cast<int>(std::ceil(x0 - 0.5f)));
    const int a1 = std::min(clip_x1, x + static_cast<int>(std::ceil(x1 - 0.5f)));
    const int b0 = std::max(clip_y0, y + static_cast<int>(std::ceil(y0 - 0.5f)));
    const int b1 = std::min(clip_y1, y + static_cast<int>(std::ceil(y1 - 0.5f)));
    if (a0 >= a1) return;
    if (alpha_of(c) == 255) {
      for (int py = b0; py < b1; ++py)
        std::fill_n(&image.pixels[static_cast<size_t>(py) * image.width + a0], a1 - a0, c);
      return;
    }
    for (int py = b0; py < b1; ++py)
      for (int px = a0; px < a1; ++px) blend(px, py, c);
  }
  // ImGui strokes a rectangle's outline on the pixels just inside [a, b).
  void outline(float x0, float y0, float x1, float y1, Rgba c, float t) {
    const float w = std::max(1.0f, std::round(t));
    fill(x0, y0, x1, y0 + w, c);
    fill(x0, y1 - w, x1, y1, c);
    fill(x0, y0 + w, x0 + w, y1 - w, c);
    fill(x1 - w, y0 + w, x1, y1 - w, c);
  }
  // One pixel per step along the longer axis.
  void line(float x0, float y0, float x1, float y1, Rgba c) {
    if (x0 == x1) {  // vertical: the column the line's left half covers
      const int px = x + static_cast<int>(std::floor(x0 - 0.5f));
      const int b0 = std::max(clip_y0, y + static_cast<int>(std::ceil(std::min(y0, y1) - 0.5f)));
      const int b1 = std::min(clip_y1, y + static_cast<int>(std::ceil(std::max(y0, y1) - 0.5f)));
      for (int py = b0; py < b1; ++py) blend(px, py, c);
      return;
    }
    if (y0 == y1) {
      const int py = y + static_cast<int>(std::floor(y0 - 0.5f));
      const int a0 = std::max(clip_x0, x + static_cast<int>(std::ceil(std::min(x0, x1) - 0.5f)));
      const int a1 = std::min(clip_x1, x + static_cast<int>(std::ceil(std::max(x0, x1) - 0.5f)));
      for (int px = a0; px < a1; ++px) blend(px, py, c);
      return;
    }
    const float dx = x1 - x0, dy = y1 - y0;
    const int steps = std::max(1, static_cast<int>(std::ceil(std::max(std::abs(dx), std::abs(dy)))));
    for (int i = 0; i < steps; ++i) {
      const float t = (static_cast<float>(i) + 0.5f) / static_cast<float>(steps);
      blend(x + static_cast<int>(std::floor(x0 + dx * t)), y + static_cast<int>(std::floor(y0 + dy * t)), c);
    }
  }
  void image_quad(const DrawCommand& cmd, const GridImage& base) {
    if (base.width <= 0 || base.height <= 0 || cmd.x1 <= cmd.x0 || cmd.y1 <= cmd.y0) return;
    const int a0 = std::max(clip_x0, x + static_cast<int>(std::ceil(cmd.x0 - 0.5f)));
    const int a1 = std::min(clip_x1, x + static_cast<int>(std::ceil(cmd.x1 - 0.5f)));
    const int b0 = std::max(clip_y0, y + static_cast<int>(std::ceil(cmd.y0 - 0.5f)));
    const int b1 = std::min(clip_y1, y + static_cast<int>(std::ceil(cmd.y1 - 0.5f)));
    const float sx = static_cast<float>(base.width) / (cmd.x1 - cmd.x0);
    const float sy = static_cast<float>(base.height) / (cmd.y1 - cmd.y0);
    for (int py = b0; py < b1; ++py) {
      const auto ty = std::clamp<int64_t>(static_cast<int64_t>((static_cast<float>(py - y) + 0.5f - cmd.y0) * sy), 0,
                                          base.height - 1);
      for (int px = a0; px < a1; ++px) {
        const auto tx = std::clamp<int64_t>(static_cast<int64_t>((static_cast<float>(px - x) + 0.5f - cmd.x0) * sx),
                                            0, base.width - 1);
        blend(px, py, base.pixels[static_cast<size_t>(ty * base.width + tx)]);
      }
    }
  }
};

}  // namespace

void rasterize(const std::vector<DrawCommand>& commands, const CanvasGeometry& canvas, RgbaImage& image, int x, int y,
               const GridImage* base) {
  Painter p{image, x, y, 0, 0, 0, 0};
  p.clip_x0 = std::max(0, x + static_cast<int>(std::floor(canvas.min_x)));
  p.clip_y0 = std::max(0, y + static_cast<int>(std::floor(canvas.min_y)));
  p.clip_x1 = std::min(image.width, x + static_cast<int>(std::ceil(canvas.max_x)));
  p.clip_y1 = std::min(image.height, y + static_cast<int>(std::ceil(canvas.max_y)));
  for (const DrawCommand& c : commands) {
    switch (c.kind) {
      case DrawCommand::Kind::Fill: p.fill(c.x0, c.y0, c.x1, c.y1, c.color); break;
      case DrawCommand::Kind::Outline: p.outline(c.x0, c.y0, c.x1, c.y1, c.color, c.thickness); break;
      case DrawCommand::Kind::Line: p.line(c.x0, c.y0, c.x1, c.y1, c.color); break;
      case DrawCommand::Kind::Image:
        if (base) p.image_quad(c, *base);
        break;
    }
  }
}

RgbaImage render_pane(const PicturePane& pane) {
  RgbaImage img;
  img.width = pane.width;
  img.height = pane.height;
  img.pixels.assign(static_cast<size_t>(img.width) * img.height, kBackground);
  rasterize(pane.commands, pane.geometry, img, 0, 0);
  return img;
}

RgbaImage render_picture(const Picture& picture, int gap) {
  RgbaImage img;
  for (const PicturePane& p : picture.panes) {
    img.width = std::max(img.width, p.width);
    img.height += p.height + (img.height > 0 ? gap : 0);
  }
  img.pixels.assign(static_cast<size_t>(img.width) * img.height, kBackground);
  int y = 0;
  for (const PicturePane& p : picture.panes) {
    rasterize(p.commands, p.geometry, img, 0, y);
    y += p.height + gap;
  }
  return img;
}

}  // namespace viz
