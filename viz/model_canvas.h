// What a grid canvas draws, as a list of drawing commands in canvas
// pixels: the tensor's base image or flat fill, the shown event's cells
// (runs of equal marks, or per lane), hatching of masked lanes, grid lines,
// write conflicts, the tensor's edge, the tile's bounding box and any
// highlighted rectangles. The ImGui canvas replays the commands into its
// draw list and a CPU rasterizer (render_raster.h) paints them into an
// image, so the viewer and the pictures in a notebook cannot disagree.
#pragma once
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "model_colors.h"
#include "model_event_cells.h"
#include "model_layout.h"

namespace viz {

// Where the grid sits on the canvas: cell (0, 0)'s top-left corner, the
// size of a cell, and the visible rectangle (everything is clipped to it).
struct CanvasGeometry {
  float min_x = 0, min_y = 0, max_x = 0, max_y = 0;
  float origin_x = 0, origin_y = 0;
  float cell = 1;  // pixels per cell

  float x_of(int64_t col) const { return origin_x + static_cast<float>(col) * cell; }
  float y_of(int64_t row) const { return origin_y + static_cast<float>(row) * cell; }
};

// The geometry that fits `content` into a canvas of width x height with
// the canvas margin, as the viewer does when a pane is not zoomed by hand.
CanvasGeometry fitted_geometry(const CellBounds& content, float width, float height, float max_cell);

struct DrawCommand {
  enum class Kind : uint8_t {
    Fill,     // filled rectangle [x0, x1) x [y0, y1)
    Outline,  // rectangle outline of `thickness` pixels
    Line,     // from (x0, y0) to (x1, y1), `thickness` pixels
    Image,    // the base image (GridImage) stretched over the rectangle
  };
  Kind kind = Kind::Fill;
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  Rgba color = 0;
  float thickness = 1;
};

// The canvas's contents, without any UI type.
struct CanvasContent {
  const GridLayout* layout = nullptr;
  // The base image's size in texels and cells per texel; no image: the
  // tensor is drawn flat in `flat_color`.
  bool has_image = false;
  int64_t image_width = 0, image_height = 0, image_step = 1;
  Rgba flat_color = palette::untouched;
  // The event's cells, colored by `cell_color` (default: the mark's
  // color). When colors vary by lane (stored values) cells are drawn one by
  // one, else as runs of equal marks.
  const EventCells* cells = nullptr;
  std::function<Rgba(const EventCell&)> cell_color;
  bool colors_vary_by_lane = false;
  bool outline_cells = false;  // coverage / values modes: keep the base colors visible
  std::vector<std::pair<CellBounds, Rgba>> highlights;  // outlined rectangles
  const std::vector<CellBounds>* conflicts = nullptr;   // write-conflict runs, outlined
};

// Cells at least this many pixels wide get grid lines, hatching and thick outlines.
inline constexpr float kGridLinesFrom = 7;
inline constexpr float kHatchFrom = 6;
inline constexpr Rgba kGridLine = rgba(0, 0, 0, 70);
inline constexpr Rgba kTensorEdge = rgba(200, 200, 210);
inline constexpr Rgba kTileEdge = rgba(255, 255, 255, 150);

// Every command the canvas draws, back to front, already culled to the
// visible rectangle where that saves work (callers still clip).
std::vector<DrawCommand> canvas_commands(const CanvasContent& in, const CanvasGeometry& g);

}  // namespace viz
