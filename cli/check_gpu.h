// `tilescope check ... --gpu`: the selected kernels on the GPU as well,
// compared with the interpreter and the reference (gpu/gpu_check.h).
#pragma once
#include <vector>

#include "args.h"
#include "harness.h"
#include "puzzle_args.h"

namespace cli {

// Runs every target on the GPU (options --warps N, --no-cache, --stub) with `opt`'s sets and seeds and prints one
// report per target. Without a driver: one "[SKIP] no CUDA driver: ..."
// line, then every kernel is still compiled with NVRTC. Returns the exit
// status.
int check_gpu(const std::vector<CheckTarget>& targets, const puzzles::CheckOptions& opt, const Args& args);

}  // namespace cli
