// Options::reference: the expected buffers a user's function computes from
// the launch's inputs, compared element by element with what the launch
// left, each mismatch traced back to the store that wrote it.
#pragma once
#include <vector>

#include "tilescope/tilescope.h"

namespace tilescope::detail {

// Owned, dense copies of the buffer arguments as they are now (one per
// argument; an empty buffer for a scalar).
std::vector<Buffer> copy_buffers(const std::vector<Arg>& args);

// Runs options.reference on `before` and diffs every buffer argument in
// `args` against it. `trace` (the launch's, when it has one) names the
// program and lane that stored each mismatching element, and keeps the
// expected values beside the ones after the launch (where it keeps those),
// so the viewer can show the diff.
std::vector<BufferDiff> reference_diff(const Options& options, std::vector<Buffer> before, const std::vector<Arg>& args,
                                       const tl::RunResult& run, tl::Trace* trace);

// "reference: z: 3 of 200 elements differ ..." lines for Result::report().
std::string format_reference(const std::vector<BufferDiff>& diffs);

}  // namespace tilescope::detail
