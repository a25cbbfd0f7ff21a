#include "model_gpu_diff.h"

#include <algorithm>
#include <cmath>

namespace viz {

GpuDiff diff_gpu_buffer(const tl::TraceBuffer& interp, const GpuBufferResult& gpu, double relative_tolerance) {
  GpuDiff d;
  d.buffer = interp.name;
  if (interp.values_after.empty()) {
    d.unavailable_reason = "the trace keeps no values of " + interp.name;
    return d;
  }
  if (gpu.values.size() != interp.values_after.size()) {
    d.unavailable_reason = "the GPU result of " + interp.name + " has " + std::to_string(gpu.values.size()) +
                           " values, the interpreter's " + std::to_string(interp.values_after.size());
    return d;
  }
  d.available = true;
  const size_t n = gpu.values.size();
  d.abs_diff.resize(n);
  d.flagged.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const double a = interp.values_after[i], b = gpu.values[i];
    const bool same_nan = std::isnan(a) && std::isnan(b);
    const double diff = same_nan ? 0 : (a == b ? 0 : std::fabs(a - b));  // a == b covers equal infinities
    d.abs_diff[i] = diff;
    const bool bad = !same_nan && (std::isnan(diff) || diff > relative_tolerance * std::max(1.0, std::fabs(a)));
    d.flagged[i] = bad;
    d.flagged_count += bad;
    if (std::isfinite(diff)) d.max_abs_diff = std::max(d.max_abs_diff, diff);
  }
  return d;
}

const GpuBufferResult* find_gpu_buffer(const GpuResults& r, const std::string& name) {
  auto it = std::find_if(r.buffers.begin(), r.buffers.end(), [&](const GpuBufferResult& b) { return b.name == name; });
  return it == r.buffers.end() ? nullptr : &*it;
}

Rgba gpu_diff_color(const GpuDiff& d, int64_t offset) {
  if (!d.available || offset < 0 || offset >= static_cast<int64_t>(d.flagged.size())) return palette::untouched;
  return d.flagged[offset] ? palette::mismatch : palette::match;
}

}  // namespace viz
