// `tilescope check --gpu`: a puzzle kernel on the GPU against the
// interpreter and the reference, on the same inputs (puzzles::make_buffers),
// per size set and seed. The GPU output starts as the harness's NaN fill, so
// an element no program wrote shows. Bounds are not checked on the GPU: the
// interpreter's run is the access check.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "codegen.h"
#include "cubin_cache.h"
#include "driver_api.h"
#include "gpu_compare.h"
#include "nvrtc_compiler.h"
#include "puzzle.h"

namespace tl::gpu {

// The device, found by a short-lived child process so that this process
// never initializes CUDA and may still fork GPU work; or why there is none.
struct DeviceProbe {
  bool ok = false;
  DeviceInfo info;
  std::string reason;  // when !ok: "cannot load libcuda.so.1: ..."
};
DeviceProbe probe_device();

struct GpuCheckOptions {
  std::vector<uint32_t> seeds{0, 1, 2};
  std::vector<std::string> sets;  // size set names; empty: all (benchmark-size sets with the first seed only)
  CodegenOptions codegen;
  CompileOptions compile;         // its arch should be the device's
  CubinCache* cache = nullptr;    // null: compile every time
  // Null: the launches run in a forked child, so a faulting kernel cannot
  // take this process down (the CLI). Else they run here, on this driver
  // (tests that already hold one; such a process can no longer fork GPU work).
  CudaDriver* driver = nullptr;
};

// An example's other output (E2's S and Mn), compared as the first one is.
struct GpuExtraOutput {
  std::string name;
  double spec_err_interp = 0, spec_err_gpu = 0, threshold = 0;
  BufferDiff interp_vs_gpu;
};

struct GpuRun {
  std::string set;
  std::string sizes;  // "N0=200 | B0=32"
  uint32_t seed = 0;
  std::string error;  // why it did not run or compare ("" when it did)
  double spec_err_interp = 0;  // the puzzle's error measure, interpreter vs reference
  double spec_err_gpu = 0;     // the same for the GPU's output
  BufferDiff interp_vs_gpu;
  std::vector<std::string> gpu_modified_inputs;  // inputs the GPU launch changed
  std::vector<GpuExtraOutput> extra_outputs;  // an example's other outputs
  bool matches = false;   // interpreter and GPU agree within the tolerance (every output)
  bool spec_pass = false;  // the GPU output meets the puzzle's threshold
  // Why the two may rightly differ: the interpreter's findings that make
  // the result undefined or order-dependent ("" when there are none).
  std::string caveat;
};

struct GpuPuzzleReport {
  int number = 0;
  std::string id;
  std::string kernel;       // the KernelDef's name
  std::string cuda_kernel;  // the generated function (canonical set)
  double threshold = 0;     // the puzzle's, vs the reference
  Tolerance tolerance;      // interpreter vs GPU
  std::vector<GpuRun> runs;
  bool all_match = false;
  bool all_spec_pass = false;
};

GpuPuzzleReport check_on_gpu(const puzzles::Puzzle& p, const tl::KernelDef& kernel, const GpuCheckOptions& opt);

// One line per size set (worst seed), then the first failing run's details.
std::string format_gpu_report(const GpuPuzzleReport& r);
// The whole report, every run, as one JSON object (no trailing newline).
std::string gpu_report_json(const GpuPuzzleReport& r);

}  // namespace tl::gpu
