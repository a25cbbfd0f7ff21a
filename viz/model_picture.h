// A still picture of what the viewer's Tensors window shows for one
// program and event: per buffer, the pane's layout, the shown event's cells,
// the framing and the canvas's drawing commands, chosen exactly as the
// viewer chooses them (access colors, selection framing). A CPU renderer
// (render_raster.h) paints it, so a notebook can show it without a window.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model_canvas.h"
#include "model_event_cells.h"
#include "model_layout.h"
#include "model_trace_index.h"
#include "trace.h"

namespace viz {

struct PictureOptions {
  int program = -1;          // index into Trace::programs; -1: the first finding's, else the last program
  int event = -1;            // index into that program's events; -1: the first finding's, else the last
  std::vector<int> buffers;  // indices into Trace::buffers; empty: every buffer
  float width = 480;         // pixels of each pane
  float max_height = 360;    // a pane is at most this tall
  float max_cell = 28;       // fitting never makes cells larger
  // The viewer dims a pane whose buffer the current event does not touch
  // (it shows the program's latest earlier event there). Off: every pane
  // shows its latest event at full color, a summary of the program.
  bool dim_earlier = true;
};

struct PicturePane {
  int buffer = -1;
  GridLayout layout;
  int shown_event = -1;   // the event drawn on this buffer (-1: none up to the chosen one)
  bool current = false;   // shown_event is the chosen event
  EventCells cells;
  CellBounds whole;       // the tensor and where the program's lanes land
  CellBounds content;     // what is fitted: `whole`, or the framed selection
  bool framed = false;    // content != whole
  int width = 0, height = 0;  // pixels: the viewer's pane, cropped to the content's width
  CanvasGeometry geometry;
  std::vector<DrawCommand> commands;
  std::string title;      // "x f32[200]"; rank >= 3: "x f32[4, 32, 64], slice [3, :, :]"
  std::string summary;    // "#2 load: 8 loaded, 24 masked" ("" when no event)
};

struct Picture {
  int program = -1, event = -1;  // as resolved
  Pid pid{0, 0, 0};
  std::string event_line;        // "program (6, 0, 0), event #1 store at kernel.py:12"
  std::vector<PicturePane> panes;
};

// Resolves the options against the trace (see PictureOptions) and builds
// every pane. A trace with no programs gives panes without events.
// Throws std::out_of_range for a program, event or buffer index outside it.
Picture build_picture(const tl::Trace& trace, const PictureOptions& options);

// "8 loaded, 24 masked": the counts of each mark, as the viewer's pane header.
std::string cells_summary(const EventCells& cells);

}  // namespace viz
