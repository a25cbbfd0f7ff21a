// One event drawn on one buffer's grid: which cells its lanes land on and
// what each shows (loaded, stored, masked, out of bounds). The UI draws
// these over the buffer's base image; tests check them directly.
#pragma once
#include <cstdint>
#include <vector>

#include "model_colors.h"
#include "model_layout.h"
#include "trace.h"

namespace viz {

// What a lane did, as drawn. Ordered by how much it matters: when several
// lanes land on one cell, the highest is drawn.
enum class CellMark : uint8_t {
  Masked,             // mask false: nothing touched (grey, hatched)
  MaskedOutOfBounds,  // mask false and outside the buffer: what masks are for (grey, hatched)
  Loaded,             // blue
  Stored,             // orange
  Atomic,             // purple
  OutOfBounds,        // mask true and outside the buffer: a bug (red)
};
const char* cell_mark_name(CellMark m);
CellMark mark_of(tl::EventKind kind, tl::LaneState state);
Rgba mark_color(CellMark m);
// Masked lanes are drawn hatched over their fill.
inline bool is_hatched(CellMark m) { return m == CellMark::Masked || m == CellMark::MaskedOutOfBounds; }

struct EventCell {
  Cell cell;
  CellMark mark = CellMark::Masked;
  int64_t lane = 0;
  bool inside = false;  // on an element of the tensor (else past its edge)
};

struct EventCells {
  std::vector<EventCell> cells;  // sorted by cell, then by mark, highest first
  int64_t other_slices = 0;      // lanes that land on slices not shown
  CellBounds bounds;             // of all cells

  // The cell's lanes: [first, last) into `cells`, the drawn one first.
  std::pair<size_t, size_t> lanes_at(Cell c) const;
  // The lane drawn at a cell, or nullptr.
  const EventCell* top_at(Cell c) const;
  int64_t count(CellMark m) const;
};

// The cells of a memory event on its buffer's layout (empty for other
// events). `e.buffer` must be the buffer `layout` was made for.
EventCells map_event(const tl::Event& e, const GridLayout& layout);

// Horizontal runs of equal marks in one row: what gets drawn when cells are
// smaller than a pixel or two, so a large tile costs a few rectangles.
struct CellRun {
  int64_t row = 0, col0 = 0, col1 = 0;  // [col0, col1)
  CellMark mark = CellMark::Masked;
  int64_t first = 0;  // index of the run's first cell in EventCells::cells
};
std::vector<CellRun> cell_runs(const EventCells& ec);

}  // namespace viz
