// The reference check of the public API (Options::reference) as the viewer
// shows it: a trace whose buffers carry the values they should hold after
// the launch gets the same diff grid as a puzzle's output, one buffer at a
// time, with the tolerance the launch was checked with.
#pragma once
#include <vector>

#include "model_puzzle.h"
#include "trace.h"

namespace viz {

// Trace buffers that carry expected values, in trace order.
std::vector<int> buffers_with_reference(const tl::Trace& t);

// The buffer's values after the launch against its expected values, by
// storage offset ([0, extent), as the buffer's grid layout addresses them).
// An element matches when |after - expected| <= atol + rtol * |expected|
// (NaN matches NaN): the rule the launch's Result::reference applied.
OutputDiff reference_output_diff(const tl::TraceBuffer& b);

}  // namespace viz
