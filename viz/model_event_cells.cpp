#include "model_event_cells.h"

#include <algorithm>

#include "model_placement.h"

namespace viz {

const char* cell_mark_name(CellMark m) {
  switch (m) {
    case CellMark::Masked: return "masked";
    case CellMark::MaskedOutOfBounds: return "masked out-of-bounds";
    case CellMark::Loaded: return "loaded";
    case CellMark::Stored: return "stored";
    case CellMark::Atomic: return "atomic";
    case CellMark::OutOfBounds: return "OUT OF BOUNDS";
  }
  return "?";
}

CellMark mark_of(tl::EventKind kind, tl::LaneState state) {
  switch (state) {
    case tl::LaneState::Masked: return CellMark::Masked;
    case tl::LaneState::MaskedOutOfBounds: return CellMark::MaskedOutOfBounds;
    case tl::LaneState::OutOfBounds: return CellMark::OutOfBounds;
    case tl::LaneState::Active: break;
  }
  if (kind == tl::EventKind::Store) return CellMark::Stored;
  if (kind == tl::EventKind::Atomic) return CellMark::Atomic;
  return CellMark::Loaded;
}

Rgba mark_color(CellMark m) {
  switch (m) {
    case CellMark::Masked:
    case CellMark::MaskedOutOfBounds: return palette::masked;
    case CellMark::Loaded: return palette::loaded;
    case CellMark::Stored: return palette::stored;
    case CellMark::Atomic: return palette::atomic;
    case CellMark::OutOfBounds: return palette::out_of_bounds;
  }
  return palette::untouched;
}

EventCells map_event(const tl::Event& e, const GridLayout& layout) {
  EventCells out;
  const LanePlacement placed = place_lanes(e, layout);
  if (e.lanes.size() != e.offsets.size()) return out;
  const int64_t n = static_cast<int64_t>(e.lanes.size());
  if (placed.rank > 0 && static_cast<int64_t>(placed.index.size()) != n * placed.rank) return out;
  out.cells.reserve(static_cast<size_t>(n));
  std::vector<int64_t> index(static_cast<size_t>(placed.rank));
  for (int64_t l = 0; l < n; ++l) {
    std::copy_n(placed.index.begin() + l * placed.rank, placed.rank, index.begin());
    const std::optional<Cell> c = layout.cell_of(index);
    if (!c) {
      ++out.other_slices;
      continue;
    }
    const CellMark mark = mark_of(e.kind, e.lanes[l]);
    // A lane outside the buffer is past the edge even when the strip has a
    // cell there: the strip's last row continues beyond the last element.
    const bool in_buffer = e.lanes[l] == tl::LaneState::Active || e.lanes[l] == tl::LaneState::Masked;
    out.cells.push_back(EventCell{*c, mark, l, in_buffer && layout.inside(*c)});
    out.bounds.include(*c);
  }
  std::stable_sort(out.cells.begin(), out.cells.end(), [](const EventCell& a, const EventCell& b) {
    if (a.cell != b.cell) return a.cell < b.cell;
    return a.mark > b.mark;
  });
  return out;
}

std::pair<size_t, size_t> EventCells::lanes_at(Cell c) const {
  auto lo = std::lower_bound(cells.begin(), cells.end(), c,
                             [](const EventCell& a, const Cell& key) { return a.cell < key; });
  auto hi = std::upper_bound(lo, cells.end(), c, [](const Cell& key, const EventCell& a) { return key < a.cell; });
  return {static_cast<size_t>(lo - cells.begin()), static_cast<size_t>(hi - cells.begin())};
}

const EventCell* EventCells::top_at(Cell c) const {
  auto [first, last] = lanes_at(c);
  return first < last ? &cells[first] : nullptr;
}

int64_t EventCells::count(CellMark m) const {
  return std::count_if(cells.begin(), cells.end(), [m](const EventCell& c) { return c.mark == m; });
}

std::vector<CellRun> cell_runs(const EventCells& ec) {
  std::vector<CellRun> runs;
  for (size_t i = 0; i < ec.cells.size(); ++i) {
    const EventCell& c = ec.cells[i];
    if (i > 0 && ec.cells[i - 1].cell == c.cell) continue;  // only the drawn lane of a cell
    if (!runs.empty()) {
      CellRun& r = runs.back();
      if (r.row == c.cell.row && r.col1 == c.cell.col && r.mark == c.mark) {
        ++r.col1;
        continue;
      }
    }
    runs.push_back(CellRun{c.cell.row, c.cell.col, c.cell.col + 1, c.mark, static_cast<int64_t>(i)});
  }
  return runs;
}

}  // namespace viz
