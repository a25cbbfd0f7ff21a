// The grid widget every pane uses: a buffer's base image (one texture),
// the current event's cells on top (runs of equal cells, so a big tile is a
// few rectangles), grid lines when cells are large enough, zoom on the
// mouse wheel, pan by dragging, fit on double-click.
#pragma once
#include <imgui.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gl_texture.h"
#include "model_event_cells.h"
#include "model_layout.h"
#include "ui_state.h"

namespace viz {

struct CanvasInput {
  const GridLayout* layout = nullptr;
  const GlTexture* texture = nullptr;  // null: the tensor is drawn flat in `flat_color`
  Rgba flat_color = palette::untouched;
  CellBounds content;  // what fitting shows: the tensor and where lanes land
  // The event's cells, colored by `cell_color` (default: the mark's color).
  // When colors vary by lane (stored values) cells are drawn one by one,
  // else as runs of equal marks.
  const EventCells* cells = nullptr;
  std::function<Rgba(const EventCell&)> cell_color;
  bool colors_vary_by_lane = false;
  bool outline_cells = false;  // coverage / values modes: keep the base colors visible
  std::vector<std::pair<CellBounds, Rgba>> highlights;  // outlined rectangles
  // Write-conflict cells (one-row runs), outlined in palette::conflict.
  const std::vector<CellBounds>* conflicts = nullptr;
  ImVec2 size{0, 0};
  float max_cell = 28;  // fitting never makes cells larger than this
};

struct CanvasResult {
  std::optional<Cell> hovered;
  bool clicked = false;  // released without dragging
  ImVec2 canvas_min, canvas_max;
  ImVec2 origin;  // screen position of cell (0, 0)'s top-left corner
  float cell = 0; // pixels per cell
};

CanvasResult grid_canvas(const char* id, CanvasView& view, const CanvasInput& in);

// Adds the drawn grid to the screenshot recorder, when one is listening.
void record_canvas(ViewerState& s, const std::string& name, const CanvasResult& r, const GridLayout& layout,
                   const EventCells* cells);

// The cell size that fits `content` in `avail` (what a pane sizes itself by).
float fit_cell_size(const CellBounds& content, ImVec2 avail, float max_cell);

}  // namespace viz
