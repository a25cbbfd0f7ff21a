// Write conflicts on one buffer, cell by cell: the elements two programs
// stored to without atomics (on a GPU either store may win), each with the
// two programs, so the panes can outline those cells and name both. The
// sanitizer's write-conflict findings say which buffers have any (and keep a
// few examples); coverage gives every such element.
#pragma once
#include <cstdint>
#include <vector>

#include "model_coverage.h"
#include "model_layout.h"
#include "model_trace_index.h"

namespace viz {

struct ConflictCell {
  int64_t offset = 0;
  Pid first{-1, -1, -1}, second{-1, -1, -1};  // the first two programs that stored it (equal: two lanes of one store)
  int64_t storers = 0;                         // distinct programs that stored it
};

struct BufferConflicts {
  std::vector<ConflictCell> cells;  // sorted by offset
  bool empty() const { return cells.empty(); }
  const ConflictCell* at(int64_t offset) const;
};

// Whether the trace has a write-conflict finding on `buffer` (cheap: the
// viewer computes the cells only then).
bool has_write_conflicts(const tl::Trace& t, int buffer);

// Every element of `buffer` stored by two or more programs (from `cov`),
// plus the elements the write-conflict findings name (which include two
// lanes of one store hitting one element), with their programs.
BufferConflicts compute_conflicts(const tl::Trace& t, int buffer, const BufferCoverage& cov);

// The conflict cells on `layout` (the slice shown, for rank >= 3) as
// horizontal runs of adjacent cells, one row each: what the pane outlines.
std::vector<CellBounds> conflict_runs(const BufferConflicts& c, const GridLayout& layout);

}  // namespace viz
