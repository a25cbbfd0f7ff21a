// "Also run on the GPU and compare" and "time it" for tilescope::launch,
// over the GPU backend when it was built (else a clean "not available").
// The GPU work runs in a forked child process (gpu/child_process.h): a
// faulting kernel costs an error message, and the user's process never
// initializes CUDA, so it may launch again.
#pragma once
#include <cstddef>
#include <vector>

#include "tilescope/tilescope.h"

namespace tilescope::detail {

// Every buffer argument's bytes before the launch: the GPU must start from
// the inputs the interpreter started from.
struct Snapshot {
  std::vector<std::vector<std::byte>> bytes;  // per argument; empty for scalars
};
Snapshot snapshot_buffers(const std::vector<Arg>& args);

// Runs the kernel on the GPU from `before` (after the interpreter ran, so
// the launch is known to be valid) and compares every buffer argument with
// the interpreter's result now in `args`; times it with options.gpu_time.
GpuReport run_and_compare_on_gpu(const Kernel& kernel, Grid grid, const std::vector<Arg>& args,
                                 const Snapshot& before, const Options& options);

}  // namespace tilescope::detail
