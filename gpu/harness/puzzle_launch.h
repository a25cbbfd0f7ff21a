// One launch of a puzzle kernel on the GPU, for the viewer's
// interpreter-vs-GPU diff: the same inputs as the interpreter's run
// (puzzles::make_buffers), every buffer's values after the launch, by name.
// The launch runs in a child process, so a faulting kernel only costs an
// error message.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "codegen.h"
#include "gpu_compare.h"
#include "puzzle.h"

namespace tl::gpu {

struct BufferValues {
  std::string name;            // as the puzzle names the tensor
  std::vector<double> values;  // by storage offset, after the launch
};

struct GpuLaunchValues {
  bool ok = false;
  std::string error;   // why not: no driver, compile error, CUDA error
  std::string device;  // DeviceInfo::str()
  Tolerance tolerance;  // interpreter vs GPU for the output's dtype
  std::vector<BufferValues> buffers;  // inputs, then the output
};

GpuLaunchValues run_puzzle_launch_on_gpu(const puzzles::Puzzle& p, const tl::KernelDef& kernel,
                                         const puzzles::SizeSet& set, uint32_t seed,
                                         const CodegenOptions& codegen = {});

}  // namespace tl::gpu
