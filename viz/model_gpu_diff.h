// The interpreter-vs-GPU slot. The GPU backend runs the same
// launch on a device; what it brings back goes in GpuResults, and the
// viewer diffs each buffer against the interpreter's values after the
// launch. Until then a document has no GpuResults and the panel says so.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model_colors.h"
#include "trace.h"

namespace viz {

struct GpuBufferResult {
  std::string name;            // matches a TraceBuffer's name
  std::vector<double> values;  // by storage offset, [0, extent), after the GPU launch
};

struct GpuResults {
  std::string device;           // "NVIDIA H100 80GB HBM3, sm_90a"
  double relative_tolerance = 1e-6;  // per element: |interp - gpu| <= tol * max(1, |interp|)
  std::vector<GpuBufferResult> buffers;
};

struct GpuDiff {
  std::string buffer;
  bool available = false;
  std::string unavailable_reason;
  std::vector<double> abs_diff;  // per element
  std::vector<uint8_t> flagged;  // per element: beyond tolerance, or finite on one side only
  int64_t flagged_count = 0;
  double max_abs_diff = 0;
};

// Diffs one buffer: the interpreter's values after the launch against the GPU's.
GpuDiff diff_gpu_buffer(const tl::TraceBuffer& interp, const GpuBufferResult& gpu, double relative_tolerance);
// The GPU result for a trace buffer, by name, or nullptr.
const GpuBufferResult* find_gpu_buffer(const GpuResults& r, const std::string& name);

Rgba gpu_diff_color(const GpuDiff& d, int64_t offset);

}  // namespace viz
