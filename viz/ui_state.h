// Everything the viewer's windows share, in one explicit struct: the
// document, the model objects (index, cursor, source, coverage) and the few
// UI choices (mode, tab, zoom of each grid). Each window is a function of
// this state (ui_windows.h), in the style of Dear ImGui's demo.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gl_texture.h"
#include "model_conflicts.h"
#include "model_coverage.h"
#include "model_cursor.h"
#include "model_document.h"
#include "model_dot.h"
#include "model_event_cells.h"
#include "model_framing.h"
#include "model_layout.h"
#include "model_modes.h"
#include "model_source.h"
#include "model_values.h"

namespace viz {

struct ScreenshotRecorder;

// Zoom and pan of one grid canvas.
struct CanvasView {
  float cell = 0;             // pixels per cell; 0 until first fitted
  ImVec2 pan{0, 0};           // where cell (0, 0) sits, relative to the canvas's top-left
  bool user_moved = false;    // the user zoomed or panned: stop fitting automatically
  bool fit_requested = false;
};

// A grid texture and the key of what it shows, rebuilt only when the key
// changes (mode, layout, value source), never per frame.
struct CachedImage {
  GlTexture texture;
  std::string key;
};

// One buffer's pane in the Tensors window.
struct TensorPane {
  int buffer = -1;
  GridLayout layout;
  int layout_version = 0;  // bumped by every layout change
  CanvasView view;
  CachedImage image;
  bool follow_event = true;  // rank >= 3: move the slice to the current event's lanes
  // The cells of the event shown on this buffer: the current event when it
  // is on this buffer, else the program's latest earlier event on it (drawn
  // dimmed, so a store's pane and its loads' panes read together).
  EventCells cells;
  int shown_event = -1;  // which event `cells` is (-1: none)
  int cells_program = -2, cells_event = -2, cells_layout = -1;
  // Where the selected program's lanes land on this buffer (fitting includes them).
  CellBounds program_bounds;
  int bounds_program = -2, bounds_layout = -1;
  // Write-conflict cells on this layout, as runs (empty when none).
  std::vector<CellBounds> conflict_runs;
  int conflicts_layout = -1;
};

enum class DetailsTab { Puzzle, Legend, Dot, Gpu };
const char* details_tab_name(DetailsTab t);  // "puzzle", "legend", "dot", "gpu"
std::optional<DetailsTab> parse_details_tab(std::string_view s);

struct ViewerState {
  explicit ViewerState(const ViewerDocument& doc);

  const ViewerDocument* doc;
  TraceIndex index;
  Cursor cursor;
  SourceText source;
  ColorMode mode = ColorMode::Access;
  ValueSource value_source = ValueSource::After;
  DetailsTab tab = DetailsTab::Legend;
  bool tab_requested = true;  // select `tab` in the tab bar on the next frame
  std::vector<TensorPane> panes;
  // Panes frame the cells the shown event touched, or show whole tensors (Z).
  FrameMode frame_mode = FrameMode::Selection;
  int legend_buffer = 0;      // whose histogram the legend shows (the output, if known)

  // Puzzle diff and GPU diff grids.
  GridLayout diff_layout;
  CanvasView diff_view;
  CachedImage diff_image;
  int gpu_buffer = 0;  // the GPU tab's buffer (the output, if known)
  CanvasView gpu_view;
  CachedImage gpu_image;
  std::optional<GpuDiff> gpu_diff;
  int gpu_diff_buffer = -1;
  // A trace with a reference check (no puzzle): the checked buffer whose
  // grid the puzzle tab shows, and each checked buffer's diff, made once.
  int reference_buffer = -1;
  void select_reference_buffer(int buffer);
  const OutputDiff& reference_diff_of(int buffer);

  // The dot view's hovered cell (from the previous frame, drawn in this one).
  std::optional<DotOperand> dot_hover;
  Cell dot_hover_cell;
  CanvasView dot_views[3];

  bool show_help = false;
  bool screenshot_mode = false;   // fixed layout, no ini file, no animation
  bool reset_layout = false;      // put every window back at its default place
  bool canvas_hovered = false;    // a grid canvas had the mouse last frame: the wheel zooms it
  bool canvas_hovered_now = false;
  bool scroll_timeline = true;    // the timeline and the source scroll to the
  bool scroll_source = true;      // current event once after each change
  bool scroll_map = true;         // the program map scrolls to the selected program
  char program_text[64] = {};     // the programs window's "go to program" field
  std::string program_error;      // why the last typed id was not taken
  ScreenshotRecorder* recorder = nullptr;

  const tl::Trace& trace() const { return index.trace(); }
  // Lazily computed per buffer (coverage walks the whole trace once).
  const BufferCoverage& coverage(int buffer);
  // The range of a buffer's values before and after together, so both
  // sources share one color scale.
  const ValueRange& value_range_of(int buffer);
  // Write-conflict cells of a buffer, or null when its findings name none.
  const BufferConflicts* conflicts(int buffer);
  bool is_output(int buffer) const;  // the puzzle's output, or stored to by the kernel
  // Selection changes that other panes follow (timeline scroll, slices).
  void on_cursor_moved();
  // Z: frame the selection / whole tensors; every pane refits.
  void toggle_frame_mode();
  // Selects the program typed in `program_text` ("12", "3,1"); on failure
  // keeps the selection and sets `program_error`.
  bool go_to_typed_program();

 private:
  std::vector<std::unique_ptr<BufferCoverage>> coverage_;
  std::vector<std::unique_ptr<OutputDiff>> reference_diffs_;
  std::vector<std::optional<ValueRange>> ranges_;
  std::vector<std::optional<BufferConflicts>> conflicts_;  // computed on first use
};

// The pane's event cells (see TensorPane::cells) and program bounds,
// refreshed if stale.
const EventCells& pane_event_cells(ViewerState& s, TensorPane& pane);
const CellBounds& pane_program_bounds(ViewerState& s, TensorPane& pane);
// The pane's write-conflict cells as runs, refreshed if stale.
const std::vector<CellBounds>& pane_conflict_runs(ViewerState& s, TensorPane& pane);
// Moves the pane's slice to the current event's first lane (rank >= 3).
void follow_event_slice(ViewerState& s, TensorPane& pane);
// The base texture of a pane for the current mode (rebuilt when stale).
CachedImage& pane_image(ViewerState& s, TensorPane& pane);
// The color of the current event's cell in the pane, per mode.
Rgba event_cell_color(ViewerState& s, const TensorPane& pane, const EventCell& c);

}  // namespace viz
