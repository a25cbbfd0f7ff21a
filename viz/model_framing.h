// How a tensor pane is framed. A [3200, 256] buffer fitted whole is a strip
// a few pixels wide, and the 256 elements one program touched vanish in it;
// framed on the selection, the pane zooms and pans to the cells the shown
// event touched (with a margin, and never thinner than 1 : max_aspect), so
// they are what fills the pane. A tensor that is readable whole is shown
// whole either way. The UI fits the returned rectangle into the canvas.
#pragma once
#include "model_layout.h"

namespace viz {

enum class FrameMode { Selection, Whole };
const char* frame_mode_name(FrameMode m);  // "selection", "whole"

struct FrameOptions {
  double margin = 0.15;      // of the touched extent, added on each side
  int64_t min_margin = 2;    // cells, on each side (also how far past `whole` a frame may reach)
  double max_aspect = 4;     // a frame is at most 4 times wider than tall, or taller than wide
  float readable_cell = 4;   // pixels: `whole` fitted at least this large is shown whole
};

// Pixels per cell when `content` is fitted into width x height (both less
// the canvas margin), clamped to [0.02, max_cell]: what the canvas does.
float fit_cell(const CellBounds& content, float width, float height, float max_cell);
inline constexpr float kCanvasMargin = 4;  // pixels left free around fitted content

// The cells a pane `width` pixels wide and at most `max_height` tall
// should fit:
// - `whole` (the tensor and where the program's lanes land) when the mode
//   is Whole, when nothing is touched, or when `whole` fits with cells of
//   at least readable_cell pixels;
// - else `touched` grown by the margin, then along its shorter side up to
//   1 : max_aspect, kept within `whole` grown by min_margin (shifted, not
//   cut, at the edges; never cutting `touched`).
CellBounds frame_bounds(FrameMode mode, const CellBounds& touched, const CellBounds& whole, float width,
                        float max_height, float max_cell, const FrameOptions& opt = {});

}  // namespace viz
