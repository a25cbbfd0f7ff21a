#include "model_framing.h"

#include <algorithm>
#include <cmath>

namespace viz {

namespace {

// One axis of a frame: [lo, hi) of at least `length` cells around `touched`
// [t0, t1), shifted to stay inside [limit0, limit1) where it can.
void frame_axis(int64_t t0, int64_t t1, int64_t length, int64_t limit0, int64_t limit1, int64_t& lo, int64_t& hi) {
  limit0 = std::min(limit0, t0);
  limit1 = std::max(limit1, t1);
  if (length >= limit1 - limit0) {
    lo = limit0;
    hi = limit1;
    return;
  }
  const int64_t grow = length - (t1 - t0);
  lo = t0 - grow / 2;
  hi = lo + length;
  if (lo < limit0) {
    hi += limit0 - lo;
    lo = limit0;
  }
  if (hi > limit1) {
    lo -= hi - limit1;
    hi = limit1;
  }
}

}  // namespace

const char* frame_mode_name(FrameMode m) { return m == FrameMode::Selection ? "selection" : "whole"; }

float fit_cell(const CellBounds& content, float width, float height, float max_cell) {
  const float cols = static_cast<float>(std::max<int64_t>(content.cols(), 1));
  const float rows = static_cast<float>(std::max<int64_t>(content.rows(), 1));
  const float w = std::max(width - 2 * kCanvasMargin, 1.0f), h = std::max(height - 2 * kCanvasMargin, 1.0f);
  return std::clamp(std::min(w / cols, h / rows), 0.02f, max_cell);
}

CellBounds frame_bounds(FrameMode mode, const CellBounds& touched, const CellBounds& whole, float width,
                        float max_height, float max_cell, const FrameOptions& opt) {
  if (mode == FrameMode::Whole || touched.empty()) return whole;
  if (fit_cell(whole, width, max_height, max_cell) >= opt.readable_cell) return whole;
  auto grown = [&](int64_t n) {
    return n + 2 * std::max(opt.min_margin, static_cast<int64_t>(std::ceil(static_cast<double>(n) * opt.margin)));
  };
  // The limits the frame stays in (never cutting `touched`), so lengths
  // are compared with what can be shown.
  const int64_t row_room = std::max(whole.row1 + opt.min_margin, touched.row1) - std::min(whole.row0 - opt.min_margin, touched.row0);
  const int64_t col_room = std::max(whole.col1 + opt.min_margin, touched.col1) - std::min(whole.col0 - opt.min_margin, touched.col0);
  int64_t rows = std::min(grown(touched.rows()), row_room), cols = std::min(grown(touched.cols()), col_room);
  auto at_least = [&](int64_t n, int64_t other, int64_t room) {
    return std::min(std::max(n, static_cast<int64_t>(std::ceil(static_cast<double>(other) / opt.max_aspect))), room);
  };
  rows = at_least(rows, cols, row_room);
  cols = at_least(cols, rows, col_room);
  CellBounds f;
  frame_axis(touched.row0, touched.row1, rows, whole.row0 - opt.min_margin, whole.row1 + opt.min_margin, f.row0, f.row1);
  frame_axis(touched.col0, touched.col1, cols, whole.col0 - opt.min_margin, whole.col1 + opt.min_margin, f.col0, f.col1);
  return f;
}

}  // namespace viz
