// Headless screenshots: the pixels of one rendered frame, and where each
// grid's cells were drawn in it, so tests (and the JSON sidecar of
// `--cells`) can sample a known cell without guessing at the layout.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model_colors.h"
#include "model_event_cells.h"
#include "model_layout.h"

namespace viz {

struct PixelRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float cx() const { return (x0 + x1) / 2; }
  float cy() const { return (y0 + y1) / 2; }
};

struct RecordedLane {
  int64_t lane = 0;
  Cell cell;
  CellMark mark = CellMark::Masked;
  bool inside = false;
  PixelRect rect;
  bool visible = false;  // the whole cell is inside its canvas
};

// One grid as drawn: cell (r, c) covers origin + (c, r) * cell.
struct RecordedGrid {
  std::string name;   // "tensor:z", "diff:z", "dot:A", ...
  PixelRect canvas;   // the clip rectangle
  float origin_x = 0, origin_y = 0, cell = 0;
  GridLayout layout;
  std::vector<RecordedLane> lanes;  // the current event's cells (drawn lanes only)

  PixelRect cell_rect(Cell c) const;
  bool cell_visible(Cell c) const;
};

// Filled while a frame is drawn (ViewerState::recorder), read after.
struct ScreenshotRecorder {
  std::vector<RecordedGrid> grids;
  void record(RecordedGrid g);
};

struct Screenshot {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // top row first
  std::vector<RecordedGrid> grids;
  std::vector<double> frame_ms;  // wall time of each rendered frame, drawing and swap included
  std::vector<double> ui_ms;     // of that, building the UI (the viewer's own CPU work)

  Rgba pixel(int x, int y) const;
  const RecordedGrid* grid(const std::string& name) const;
};

// Writes the PNG (stb_image_write); false when the file cannot be written.
bool write_png(const Screenshot& s, const std::string& path);
// Writes the grids as JSON: for each, its name, canvas, origin, cell size,
// rows, cols, layout and the current event's lanes with their pixel rects.
bool write_cells_json(const Screenshot& s, const std::string& path);
// Reads the back buffer of the current OpenGL context (call before the
// swap), flipped so the top row comes first.
void read_back_buffer(Screenshot& s, int width, int height);

}  // namespace viz
