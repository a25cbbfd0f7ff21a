#include "model_placement.h"

#include <algorithm>
#include <optional>

namespace viz {

namespace {

// offset(lane) = base + sum_k coord_k * step[k], or nothing.
struct AffineOffsets {
  int64_t base = 0;
  std::vector<int64_t> step;  // per tile axis, in elements
};

std::optional<AffineOffsets> fit_affine(const tl::Event& e) {
  const int64_t n = static_cast<int64_t>(e.offsets.size());
  if (n == 0) return std::nullopt;
  const int t = static_cast<int>(e.shape.size());
  AffineOffsets fit;
  fit.base = e.offsets[0];
  fit.step.assign(t, 0);
  int64_t lane_stride = 1;
  for (int k = t; k-- > 0;) {
    if (e.shape[k] > 1) {
      if (lane_stride >= n) return std::nullopt;  // shape and lanes disagree
      // Offsets come from any file: steps that overflow are not affine.
      if (__builtin_sub_overflow(e.offsets[lane_stride], fit.base, &fit.step[k])) return std::nullopt;
    }
    lane_stride *= e.shape[k];
  }
  if (lane_stride != n) return std::nullopt;
  // Check every lane, walking the tile coordinates like an odometer.
  std::vector<int64_t> coord(t, 0);
  int64_t expect = fit.base;
  for (int64_t l = 0; l < n; ++l) {
    if (e.offsets[l] != expect) return std::nullopt;
    for (int k = t; k-- > 0;) {
      if (++coord[k] < e.shape[k]) {
        if (__builtin_add_overflow(expect, fit.step[k], &expect)) return std::nullopt;
        break;
      }
      int64_t back = 0;
      if (__builtin_mul_overflow(fit.step[k], coord[k] - 1, &back) || __builtin_sub_overflow(expect, back, &expect))
        return std::nullopt;
      coord[k] = 0;
    }
  }
  return fit;
}

// Row-major element strides of `shape`.
std::vector<int64_t> dense_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

// The buffer axis a tile axis steps along: the outermost axis whose stride
// divides the step, with a step no longer than that axis (else the tile
// skews across rows and has no clean axis). -1 when none fits.
int axis_of_step(int64_t step, const std::vector<int64_t>& strides, const std::vector<int64_t>& shape,
                 int64_t& multiple) {
  for (size_t a = 0; a < strides.size(); ++a) {
    if (strides[a] == 0 || step % strides[a] != 0) continue;
    multiple = step / strides[a];  // strides are positive: no INT64_MIN / -1
    if (a == 0 || (multiple > -shape[a] && multiple < shape[a])) return static_cast<int>(a);
  }
  return -1;
}

}  // namespace

std::vector<int64_t> LanePlacement::lane_index(int64_t lane) const {
  return std::vector<int64_t>(index.begin() + lane * rank, index.begin() + (lane + 1) * rank);
}

std::vector<int64_t> tile_coordinates(int64_t lane, const std::vector<int64_t>& tile_shape) {
  std::vector<int64_t> c(tile_shape.size());
  for (size_t d = tile_shape.size(); d-- > 0;) {
    const int64_t n = tile_shape[d] > 0 ? tile_shape[d] : 1;
    c[d] = lane % n;
    lane /= n;
  }
  return c;
}

LanePlacement place_lanes(const tl::Event& e, const GridLayout& layout) {
  LanePlacement p;
  p.rank = layout.rank();
  if (!is_memory_access(e.kind) || e.lanes.size() != e.offsets.size()) return p;
  const int64_t n = static_cast<int64_t>(e.offsets.size());
  const int rank = p.rank;
  // A 0-d buffer has one element; every lane is at "[]", nothing to place.
  if (rank == 0) return p;
  p.index.resize(static_cast<size_t>(n * rank));

  // Logical positions for lanes that touched nothing, when offsets are affine.
  const std::optional<AffineOffsets> fit = fit_affine(e);
  std::vector<int> axis_of(e.shape.size(), -1);
  std::vector<int64_t> multiple_of(e.shape.size(), 0);
  std::vector<int64_t> base_index;
  p.affine = fit.has_value();
  if (fit) {
    const std::vector<int64_t> strides = dense_strides(layout.shape);
    for (size_t k = 0; k < e.shape.size() && p.affine; ++k) {
      if (fit->step[k] == 0) continue;
      axis_of[k] = axis_of_step(fit->step[k], strides, layout.shape, multiple_of[k]);
      p.affine = axis_of[k] >= 0;
    }
    base_index = unravel_unbounded(fit->base, layout.shape);
  }

  // Tile coordinates advance like an odometer, lane by lane (no per-lane
  // allocation: a trace can hold millions of lanes).
  std::vector<int64_t> coord(e.shape.size(), 0);
  for (int64_t l = 0; l < n; ++l) {
    int64_t* out = &p.index[static_cast<size_t>(l * rank)];
    const bool touched = e.lanes[l] == tl::LaneState::Active;
    if (touched || !p.affine) {
      unravel_unbounded_into(e.offsets[l], layout.shape, out);
    } else {
      std::copy(base_index.begin(), base_index.end(), out);
      bool overflow = false;
      for (size_t k = 0; k < coord.size(); ++k) {
        int64_t step = 0;
        if (axis_of[k] >= 0)
          overflow |= __builtin_mul_overflow(coord[k], multiple_of[k], &step) ||
                      __builtin_add_overflow(out[axis_of[k]], step, &out[axis_of[k]]);
      }
      // Only offsets near the int64 limits (a corrupted file) get here.
      if (overflow) unravel_unbounded_into(e.offsets[l], layout.shape, out);
    }
    // Offsets from a file can be anything: lanes farther than this from the
    // tensor (no real buffer is that large) are drawn at this distance, so
    // the cell arithmetic after (row + 1, bounds' rows()) cannot overflow.
    constexpr int64_t kFar = int64_t{1} << 61;
    for (int a = 0; a < rank; ++a) out[a] = std::clamp(out[a], -kFar, kFar);
    for (size_t k = coord.size(); k-- > 0;) {
      if (++coord[k] < e.shape[k]) break;
      coord[k] = 0;
    }
  }
  return p;
}

bool follow_slice(GridLayout& layout, const tl::Event& e) {
  if (layout.kind != LayoutKind::Matrix || layout.slice_axes().empty()) return false;
  const LanePlacement placed = place_lanes(e, layout);
  if (placed.index.empty()) return false;
  int64_t lane = 0;
  for (size_t l = 0; l < e.lanes.size(); ++l)
    if (e.lanes[l] == tl::LaneState::Active) {
      lane = static_cast<int64_t>(l);
      break;
    }
  const std::vector<int64_t> at = placed.lane_index(lane);
  bool changed = false;
  for (int a : layout.slice_axes()) {
    const int64_t v = std::clamp<int64_t>(at[a], 0, std::max<int64_t>(layout.shape[a] - 1, 0));
    changed |= layout.slice[a] != v;
    layout.slice[a] = v;
  }
  return changed;
}

}  // namespace viz
