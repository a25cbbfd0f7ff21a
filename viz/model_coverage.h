// Coverage of one buffer over the whole launch: for every element, how many
// distinct programs loaded it and how many stored to it, and which programs
// those were. Only lanes that touched memory count (masked and
// out-of-bounds lanes touch nothing).
#pragma once
#include <cstdint>
#include <vector>

#include "model_colors.h"
#include "model_trace_index.h"

namespace viz {

struct BufferCoverage {
  int buffer = -1;
  int64_t extent = 0;
  std::vector<uint32_t> loads, stores, atomics;  // per storage offset: distinct programs
  bool written = false;  // an output: the kernel stores to it, or the caller said so

  // Which programs touched each element: programs[first[o], first[o+1]),
  // indices into trace().programs, in trace order.
  std::vector<uint64_t> first;
  std::vector<int32_t> programs;

  // Counted once: the legend shows them every frame.
  int64_t never_written_count = 0, overlapping_count = 0;

  int64_t never_written() const { return never_written_count; }  // of a written buffer: elements nothing stored
  int64_t overlapping() const { return overlapping_count; }       // elements stored by two or more programs
  // Up to `max` programs that touched element `offset`.
  std::vector<int> touched_by(int64_t offset, size_t max = 16) const;
  int64_t touched_count(int64_t offset) const;
};

// `known_output`: treat the buffer as an output even if nothing stores to it
// (a learner's empty stub), so its never-written elements show.
BufferCoverage compute_coverage(const tl::Trace& t, int buffer, bool known_output = false);

// The coverage color of an element: for a written buffer never written
// (magenta), once (green), several times (yellow: overlap), atomics
// (purple); for a read-only buffer by how many programs loaded it (blues).
Rgba coverage_color(const BufferCoverage& c, int64_t offset);

}  // namespace viz
