// Where each lane of a load, store or atomic sits in its buffer's index
// space: the multi-index the viewer draws it at.
//
// A lane that touched memory (active) is drawn on the element it touched:
// its offset, unravelled. A lane that touched nothing (masked, or out of
// bounds) has no element; it is drawn where the kernel meant it to be. Most
// kernels compute offsets as an affine function of the lane's tile
// coordinates (base + sum of index * stride). When they do, each tile axis
// is matched to the buffer axis it steps along, and a masked lane of puzzle
// 4's tile at column 100 of a 100-column tensor is drawn at column 100, just
// past the right edge, rather than wrapped onto the next row where its
// offset happens to fall. Otherwise (gathers, non-affine offsets) the
// offset is unravelled with the first axis unbounded, which still puts
// offsets past the end below the tensor and negative ones above it.
#pragma once
#include <cstdint>
#include <vector>

#include "model_layout.h"
#include "trace.h"

namespace viz {

struct LanePlacement {
  int rank = 0;                // of the index space (GridLayout::shape)
  std::vector<int64_t> index;  // lane l's multi-index is index[l * rank, (l + 1) * rank)
  bool affine = false;         // offsets were an affine function of the tile coordinates

  std::vector<int64_t> lane_index(int64_t lane) const;  // empty for a 0-d buffer
};

// Loads, stores and atomics: the events with lanes on a buffer.
inline bool is_memory_access(tl::EventKind k) {
  return k == tl::EventKind::Load || k == tl::EventKind::Store || k == tl::EventKind::Atomic;
}

// The placement of every lane of a memory event in `layout`'s index space
// (the buffer's shape, or storage offsets). Non-memory events get none.
LanePlacement place_lanes(const tl::Event& e, const GridLayout& layout);

// Moves a rank >= 3 layout's slice to where the event's first lane that
// touched memory (else lane 0) lands, as panes that follow the current
// event do. Returns whether the slice changed.
bool follow_slice(GridLayout& layout, const tl::Event& e);

// The lane's coordinates in its tile ("[3, 7]").
std::vector<int64_t> tile_coordinates(int64_t lane, const std::vector<int64_t>& tile_shape);

}  // namespace viz
