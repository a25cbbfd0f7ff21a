#include "model_values.h"

#include <algorithm>
#include <cmath>

namespace viz {

ValueRange value_range(std::span<const double> values) {
  ValueRange r;
  for (double v : values) {
    if (std::isnan(v)) {
      ++r.nan;
    } else if (std::isinf(v)) {
      ++(v > 0 ? r.pos_inf : r.neg_inf);
    } else {
      if (r.finite == 0) r.lo = r.hi = v;
      r.lo = std::min(r.lo, v);
      r.hi = std::max(r.hi, v);
      ++r.finite;
    }
  }
  return r;
}

double value_position(double v, const ValueRange& r) {
  if (std::isnan(v)) return 0;
  if (r.hi <= r.lo) return 0.5;
  return std::clamp((v - r.lo) / (r.hi - r.lo), 0.0, 1.0);
}

Rgba value_color(double v, const ValueRange& r) {
  if (std::isnan(v)) return palette::not_a_number;
  return heat_color(value_position(v, r));
}

Histogram histogram(std::span<const double> values, const ValueRange& r, int bins) {
  Histogram h;
  h.lo = r.lo;
  h.hi = r.hi;
  h.bins.assign(static_cast<size_t>(std::max(bins, 1)), 0);
  const double n = static_cast<double>(h.bins.size());
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    const double pos = r.hi > r.lo ? (v - r.lo) / (r.hi - r.lo) : 0.5;
    const size_t b = static_cast<size_t>(std::clamp(pos * n, 0.0, n - 1));
    ++h.bins[b];
  }
  return h;
}

int64_t Histogram::max_bin() const { return bins.empty() ? 0 : *std::max_element(bins.begin(), bins.end()); }

}  // namespace viz
