#include "model_canvas.h"

#include <algorithm>
#include <cmath>

#include "model_framing.h"

namespace viz {

namespace {

using Kind = DrawCommand::Kind;

struct Emitter {
  const CanvasGeometry& g;
  std::vector<DrawCommand>& out;

  bool off_canvas(float x0, float y0, float x1, float y1) const {
    return x1 < g.min_x || x0 > g.max_x || y1 < g.min_y || y0 > g.max_y;
  }
  void fill(float x0, float y0, float x1, float y1, Rgba c) { out.push_back({Kind::Fill, x0, y0, x1, y1, c, 1}); }
  void outline(float x0, float y0, float x1, float y1, Rgba c, float t = 1) {
    out.push_back({Kind::Outline, x0, y0, x1, y1, c, t});
  }
  void line(float x0, float y0, float x1, float y1, Rgba c) { out.push_back({Kind::Line, x0, y0, x1, y1, c, 1}); }
};

// At least a pixel: sub-pixel cells of a zoomed-out grid must not vanish.
void at_least_a_pixel(float x0, float y0, float& x1, float& y1) {
  if (x1 - x0 < 1) x1 = x0 + 1;
  if (y1 - y0 < 1) y1 = y0 + 1;
}

void tensor(Emitter& e, const CanvasContent& in) {
  const GridLayout& l = *in.layout;
  const CanvasGeometry& g = e.g;
  if (in.has_image) {
    const auto step = static_cast<float>(in.image_step);
    e.out.push_back({Kind::Image, g.origin_x, g.origin_y,
                     g.origin_x + static_cast<float>(in.image_width) * step * g.cell,
                     g.origin_y + static_cast<float>(in.image_height) * step * g.cell, 0, 1});
  } else if (l.kind == LayoutKind::Strip && l.elements() % l.wrap != 0 && l.rows() > 0) {
    // A strip whose last row is partly empty: full rows, then the rest.
    e.fill(g.origin_x, g.origin_y, g.x_of(l.cols()), g.y_of(l.rows() - 1), in.flat_color);
    e.fill(g.origin_x, g.y_of(l.rows() - 1), g.x_of(l.elements() % l.wrap), g.y_of(l.rows()), in.flat_color);
  } else {
    e.fill(g.origin_x, g.origin_y, g.x_of(l.cols()), g.y_of(l.rows()), in.flat_color);
  }
}

// Two short diagonals per cell that stay clear of its center, so the fill
// color there is exactly the masked grey.
void hatch(Emitter& e, float x0, float y0, float x1, float y1) {
  const float mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
  e.line(x0, my, mx, y0, palette::masked_hatch);
  e.line(mx, y1, x1, my, palette::masked_hatch);
}

void event_cells(Emitter& e, const CanvasContent& in) {
  const EventCells& ec = *in.cells;
  if (ec.cells.empty()) return;
  const CanvasGeometry& g = e.g;
  auto color_of = [&](const EventCell& c) { return in.cell_color ? in.cell_color(c) : mark_color(c.mark); };
  auto rect = [&](float x0, float y0, float x1, float y1, Rgba color) {
    if (e.off_canvas(x0, y0, x1, y1)) return;
    at_least_a_pixel(x0, y0, x1, y1);
    if (in.outline_cells) e.outline(x0, y0, x1, y1, color, g.cell >= kHatchFrom ? 2.0f : 1.0f);
    else e.fill(x0, y0, x1, y1, color);
  };
  // Per cell when colors vary by lane and cells are big enough to tell;
  // otherwise runs of equal marks.
  if (in.colors_vary_by_lane && g.cell >= 1) {
    for (size_t i = 0; i < ec.cells.size(); ++i) {
      if (i > 0 && ec.cells[i - 1].cell == ec.cells[i].cell) continue;
      const EventCell& c = ec.cells[i];
      rect(g.x_of(c.cell.col), g.y_of(c.cell.row), g.x_of(c.cell.col + 1), g.y_of(c.cell.row + 1), color_of(c));
    }
  } else {
    for (const CellRun& run : cell_runs(ec))
      rect(g.x_of(run.col0), g.y_of(run.row), g.x_of(run.col1), g.y_of(run.row + 1), color_of(ec.cells[run.first]));
  }
  if (g.cell >= kHatchFrom && !in.outline_cells) {
    for (const EventCell& c : ec.cells) {
      if (!is_hatched(c.mark)) continue;
      const float x0 = g.x_of(c.cell.col), y0 = g.y_of(c.cell.row);
      if (e.off_canvas(x0, y0, x0 + g.cell, y0 + g.cell)) continue;
      hatch(e, x0, y0, x0 + g.cell, y0 + g.cell);
    }
  }
  // The tile's bounding box: where the access is, even when cells are tiny.
  e.outline(g.x_of(ec.bounds.col0) - 1, g.y_of(ec.bounds.row0) - 1, g.x_of(ec.bounds.col1) + 1,
            g.y_of(ec.bounds.row1) + 1, kTileEdge);
}

void grid_lines(Emitter& e, const GridLayout& l) {
  const CanvasGeometry& g = e.g;
  if (g.cell < kGridLinesFrom) return;
  auto visible = [&](float lo, float hi, float origin, int64_t n, int64_t& first, int64_t& last) {
    first = std::max<int64_t>(0, static_cast<int64_t>(std::floor((lo - origin) / g.cell)));
    last = std::min<int64_t>(n, static_cast<int64_t>(std::ceil((hi - origin) / g.cell)));
  };
  int64_t c0, c1, r0, r1;
  visible(g.min_x, g.max_x, g.origin_x, l.cols(), c0, c1);
  visible(g.min_y, g.max_y, g.origin_y, l.rows(), r0, r1);
  for (int64_t c = c0; c <= c1; ++c) e.line(g.x_of(c), g.y_of(r0), g.x_of(c), g.y_of(r1), kGridLine);
  for (int64_t r = r0; r <= r1; ++r) e.line(g.x_of(c0), g.y_of(r), g.x_of(c1), g.y_of(r), kGridLine);
}

// Write-conflict cells: an outline inside each cell of each run, drawn
// over the grid lines so it keeps its color.
void conflicts(Emitter& e, const std::vector<CellBounds>& runs) {
  const CanvasGeometry& g = e.g;
  const float t = g.cell >= kHatchFrom ? 2.0f : 1.0f;
  for (const CellBounds& run : runs) {
    float x0 = g.x_of(run.col0), y0 = g.y_of(run.row0), x1 = g.x_of(run.col1), y1 = g.y_of(run.row1);
    if (e.off_canvas(x0, y0, x1, y1)) continue;
    at_least_a_pixel(x0, y0, x1, y1);
    if (g.cell < 3) {
      e.fill(x0, y0, x1, y1, palette::conflict);
      continue;
    }
    for (int64_t c = run.col0; c < run.col1; ++c) {
      const float px = g.x_of(c), py = g.y_of(run.row0);
      e.outline(px + t / 2, py + t / 2, px + g.cell - t / 2, py + g.cell - t / 2, palette::conflict, t);
    }
  }
}

// The tensor's outline, so "past the edge" is visible: a rectangle, or for
// a strip whose last row is partly empty, the staircase around its elements.
void tensor_edge(Emitter& e, const GridLayout& l) {
  const CanvasGeometry& g = e.g;
  const int64_t rows = l.rows(), cols = l.cols();
  const int64_t rest = l.kind == LayoutKind::Strip ? l.elements() % l.wrap : 0;
  if (rest == 0 || rows == 0) {
    e.outline(g.origin_x - 1, g.origin_y - 1, g.x_of(cols), g.y_of(rows), kTensorEdge);
    return;
  }
  const float xs[6] = {g.x_of(0), g.x_of(cols), g.x_of(cols), g.x_of(rest), g.x_of(rest), g.x_of(0)};
  const float ys[6] = {g.y_of(0), g.y_of(0), g.y_of(rows - 1), g.y_of(rows - 1), g.y_of(rows), g.y_of(rows)};
  for (int i = 0; i < 6; ++i) e.line(xs[i], ys[i], xs[(i + 1) % 6], ys[(i + 1) % 6], kTensorEdge);
}

}  // namespace

CanvasGeometry fitted_geometry(const CellBounds& content, float width, float height, float max_cell) {
  CanvasGeometry g;
  g.max_x = width;
  g.max_y = height;
  g.cell = fit_cell(content, width, height, max_cell);
  g.origin_x = kCanvasMargin - static_cast<float>(content.col0) * g.cell;
  g.origin_y = kCanvasMargin - static_cast<float>(content.row0) * g.cell;
  return g;
}

std::vector<DrawCommand> canvas_commands(const CanvasContent& in, const CanvasGeometry& g) {
  std::vector<DrawCommand> out;
  Emitter e{g, out};
  e.fill(g.min_x, g.min_y, g.max_x, g.max_y, palette::beyond_tensor);
  tensor(e, in);
  if (in.cells) event_cells(e, in);
  grid_lines(e, *in.layout);
  if (in.conflicts) conflicts(e, *in.conflicts);
  tensor_edge(e, *in.layout);
  for (const auto& [b, color] : in.highlights)
    if (!b.empty()) e.outline(g.x_of(b.col0), g.y_of(b.row0), g.x_of(b.col1), g.y_of(b.row1), color, 2.0f);
  return out;
}

}  // namespace viz
