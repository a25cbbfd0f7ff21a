// Values as colors: the range of a set of values, a heatmap color for each,
// and a histogram for the legend.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "model_colors.h"

namespace viz {

struct ValueRange {
  double lo = 0, hi = 0;  // over finite values; lo == hi when all are equal
  int64_t finite = 0, nan = 0, pos_inf = 0, neg_inf = 0;
  bool any_finite() const { return finite > 0; }
};

ValueRange value_range(std::span<const double> values);

// Heatmap color: finite values by their place in [lo, hi] (viridis), NaN
// magenta (the never-written fill is a NaN), -inf / +inf the ends.
Rgba value_color(double v, const ValueRange& r);
// Where v sits in [lo, hi], in [0, 1] (0.5 when the range is one value).
double value_position(double v, const ValueRange& r);

struct Histogram {
  double lo = 0, hi = 0;
  std::vector<int64_t> bins;  // equal widths over [lo, hi]; non-finite values not counted
  int64_t max_bin() const;
};
Histogram histogram(std::span<const double> values, const ValueRange& r, int bins);

}  // namespace viz
