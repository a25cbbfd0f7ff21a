#include "model_reference.h"

#include <algorithm>
#include <cmath>

namespace viz {

std::vector<int> buffers_with_reference(const tl::Trace& t) {
  std::vector<int> out;
  for (size_t b = 0; b < t.buffers.size(); ++b)
    if (!t.buffers[b].values_expected.empty()) out.push_back(static_cast<int>(b));
  return out;
}

OutputDiff reference_output_diff(const tl::TraceBuffer& b) {
  OutputDiff d;
  d.shape = b.shape;
  if (b.values_expected.empty()) {
    d.unavailable_reason = "the launch had no reference check (Options::reference) for " + b.name;
    return d;
  }
  if (b.values_after.size() != b.values_expected.size()) {
    d.unavailable_reason = "the trace keeps no values of " + b.name + " after the launch";
    return d;
  }
  d.available = true;
  d.found = b.values_after;
  d.expected = b.values_expected;
  d.mismatch.assign(d.found.size(), 0);
  for (size_t i = 0; i < d.found.size(); ++i) {
    const double f = d.found[i], e = d.expected[i];
    if (std::isnan(f) && std::isnan(e)) continue;
    if (f == e) continue;  // infinities included
    const bool close = std::fabs(f - e) <= b.expected_atol + b.expected_rtol * std::fabs(e);
    if (close) continue;
    const bool non_finite = !std::isfinite(f) && std::isfinite(e);
    d.mismatch[i] = static_cast<uint8_t>(
        1 + static_cast<int>(non_finite ? puzzles::MismatchKind::NonFinite : puzzles::MismatchKind::WrongValue));
    ++d.mismatch_count;
    if (std::isfinite(f) && std::isfinite(e)) d.max_abs_diff = std::max(d.max_abs_diff, std::fabs(f - e));
  }
  return d;
}

}  // namespace viz
