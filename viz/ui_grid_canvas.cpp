#include "ui_grid_canvas.h"

#include <algorithm>
#include <cmath>

#include "model_framing.h"
#include "screenshot.h"

namespace viz {

namespace {

constexpr float kMargin = kCanvasMargin;
constexpr float kMinCell = 0.02f, kMaxCell = 96;
constexpr float kGridLinesFrom = 7;  // pixels per cell
constexpr float kHatchFrom = 6;
constexpr ImU32 kGridLine = IM_COL32(0, 0, 0, 70);
constexpr ImU32 kTensorEdge = IM_COL32(200, 200, 210, 255);
constexpr ImU32 kTileEdge = IM_COL32(255, 255, 255, 150);

void fit(CanvasView& v, const CellBounds& content, ImVec2 size, float max_cell) {
  v.cell = fit_cell_size(content, size, max_cell);
  v.pan = ImVec2(kMargin - static_cast<float>(content.col0) * v.cell, kMargin - static_cast<float>(content.row0) * v.cell);
}

ImVec2 cell_min(const CanvasResult& r, int64_t row, int64_t col) {
  return ImVec2(r.origin.x + static_cast<float>(col) * r.cell, r.origin.y + static_cast<float>(row) * r.cell);
}

// At least a pixel: sub-pixel cells of a zoomed-out grid must not vanish.
void at_least_a_pixel(ImVec2& a, ImVec2& b) {
  if (b.x - a.x < 1) b.x = a.x + 1;
  if (b.y - a.y < 1) b.y = a.y + 1;
}

void handle_input(CanvasView& v, const CanvasInput& in, ImVec2 p0) {
  ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsItemHovered()) {
    if (io.MouseWheel != 0) {
      const float f = std::pow(1.2f, io.MouseWheel);
      const float cell = std::clamp(v.cell * f, kMinCell, kMaxCell);
      const ImVec2 m(io.MousePos.x - p0.x, io.MousePos.y - p0.y);
      const float k = cell / v.cell;
      v.pan = ImVec2(m.x - (m.x - v.pan.x) * k, m.y - (m.y - v.pan.y) * k);
      v.cell = cell;
      v.user_moved = true;
    }
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
      v.user_moved = false;
      fit(v, in.content, in.size, in.max_cell);
    }
  }
  if (ImGui::IsItemActive()) {
    for (int b = 0; b < 3; ++b)
      if (ImGui::IsMouseDragging(b, 2.0f)) {
        v.pan = ImVec2(v.pan.x + io.MouseDelta.x, v.pan.y + io.MouseDelta.y);
        v.user_moved = true;
        break;
      }
  }
}

void draw_tensor(ImDrawList* dl, const CanvasInput& in, const CanvasResult& r) {
  const GridLayout& g = *in.layout;
  const float w = static_cast<float>(g.cols()) * r.cell, h = static_cast<float>(g.rows()) * r.cell;
  if (in.texture && in.texture->valid()) {
    const float step = static_cast<float>(in.texture->step());
    const ImVec2 end(r.origin.x + static_cast<float>(in.texture->width()) * step * r.cell,
                     r.origin.y + static_cast<float>(in.texture->height()) * step * r.cell);
    dl->AddImage(in.texture->imgui_id(), r.origin, end);
  } else if (g.kind == LayoutKind::Strip && g.elements() % g.wrap != 0 && g.rows() > 0) {
    // A strip whose last row is partly empty: full rows, then the rest.
    const float full = static_cast<float>(g.rows() - 1) * r.cell;
    dl->AddRectFilled(r.origin, ImVec2(r.origin.x + w, r.origin.y + full), in.flat_color);
    const float rest = static_cast<float>(g.elements() % g.wrap) * r.cell;
    dl->AddRectFilled(ImVec2(r.origin.x, r.origin.y + full), ImVec2(r.origin.x + rest, r.origin.y + h), in.flat_color);
  } else {
    dl->AddRectFilled(r.origin, ImVec2(r.origin.x + w, r.origin.y + h), in.flat_color);
  }
}

void draw_grid_lines(ImDrawList* dl, const CanvasInput& in, const CanvasResult& r) {
  if (r.cell < kGridLinesFrom) return;
  const GridLayout& g = *in.layout;
  auto visible = [&](float lo, float hi, float origin, int64_t n, int64_t& first, int64_t& last) {
    first = std::max<int64_t>(0, static_cast<int64_t>(std::floor((lo - origin) / r.cell)));
    last = std::min<int64_t>(n, static_cast<int64_t>(std::ceil((hi - origin) / r.cell)));
  };
  int64_t c0, c1, r0, r1;
  visible(r.canvas_min.x, r.canvas_max.x, r.origin.x, g.cols(), c0, c1);
  visible(r.canvas_min.y, r.canvas_max.y, r.origin.y, g.rows(), r0, r1);
  const float top = r.origin.y + static_cast<float>(r0) * r.cell, bottom = r.origin.y + static_cast<float>(r1) * r.cell;
  const float left = r.origin.x + static_cast<float>(c0) * r.cell, right = r.origin.x + static_cast<float>(c1) * r.cell;
  for (int64_t c = c0; c <= c1; ++c) {
    const float x = r.origin.x + static_cast<float>(c) * r.cell;
    dl->AddLine(ImVec2(x, top), ImVec2(x, bottom), kGridLine);
  }
  for (int64_t row = r0; row <= r1; ++row) {
    const float y = r.origin.y + static_cast<float>(row) * r.cell;
    dl->AddLine(ImVec2(left, y), ImVec2(right, y), kGridLine);
  }
}

// The tensor's outline, so "past the edge" is visible: a rectangle, or for
// a strip whose last row is partly empty, the staircase around its elements.
void draw_tensor_edge(ImDrawList* dl, const GridLayout& g, const CanvasResult& r) {
  const int64_t rows = g.rows(), cols = g.cols();
  const int64_t rest = g.kind == LayoutKind::Strip ? g.elements() % g.wrap : 0;
  if (rest == 0 || rows == 0) {
    dl->AddRect(ImVec2(r.origin.x - 1, r.origin.y - 1), cell_min(r, rows, cols), kTensorEdge);
    return;
  }
  const ImVec2 pts[6] = {cell_min(r, 0, 0),        cell_min(r, 0, cols),        cell_min(r, rows - 1, cols),
                         cell_min(r, rows - 1, rest), cell_min(r, rows, rest), cell_min(r, rows, 0)};
  dl->AddPolyline(pts, 6, kTensorEdge, ImDrawFlags_Closed, 1.0f);
}

// Two short diagonals per cell that stay clear of its center, so the fill
// color there is exactly the masked grey.
void hatch(ImDrawList* dl, ImVec2 a, ImVec2 b) {
  const ImVec2 mid((a.x + b.x) / 2, (a.y + b.y) / 2);
  dl->AddLine(ImVec2(a.x, mid.y), ImVec2(mid.x, a.y), palette::masked_hatch);
  dl->AddLine(ImVec2(mid.x, b.y), ImVec2(b.x, mid.y), palette::masked_hatch);
}

void draw_event_cells(ImDrawList* dl, const CanvasInput& in, const CanvasResult& r) {
  const EventCells& ec = *in.cells;
  if (ec.cells.empty()) return;
  auto color_of = [&](const EventCell& c) { return in.cell_color ? in.cell_color(c) : mark_color(c.mark); };
  auto draw_rect = [&](ImVec2 a, ImVec2 b, Rgba color) {
    if (b.x < r.canvas_min.x || a.x > r.canvas_max.x || b.y < r.canvas_min.y || a.y > r.canvas_max.y) return;
    at_least_a_pixel(a, b);
    if (in.outline_cells) {
      dl->AddRect(a, b, color, 0, 0, r.cell >= kHatchFrom ? 2.0f : 1.0f);
      return;
    }
    dl->AddRectFilled(a, b, color);
  };
  // Per cell when colors vary by lane and cells are big enough to tell;
  // otherwise runs of equal marks.
  if (in.colors_vary_by_lane && r.cell >= 1) {
    for (size_t i = 0; i < ec.cells.size(); ++i) {
      if (i > 0 && ec.cells[i - 1].cell == ec.cells[i].cell) continue;
      const EventCell& c = ec.cells[i];
      const ImVec2 a = cell_min(r, c.cell.row, c.cell.col);
      draw_rect(a, ImVec2(a.x + r.cell, a.y + r.cell), color_of(c));
    }
  } else {
    for (const CellRun& run : cell_runs(ec)) {
      const ImVec2 a = cell_min(r, run.row, run.col0), b = cell_min(r, run.row + 1, run.col1);
      draw_rect(a, b, color_of(ec.cells[run.first]));
    }
  }
  if (r.cell >= kHatchFrom && !in.outline_cells) {
    for (const EventCell& c : ec.cells) {
      if (!is_hatched(c.mark)) continue;
      const ImVec2 a = cell_min(r, c.cell.row, c.cell.col);
      const ImVec2 b(a.x + r.cell, a.y + r.cell);
      if (b.x < r.canvas_min.x || a.x > r.canvas_max.x || b.y < r.canvas_min.y || a.y > r.canvas_max.y) continue;
      hatch(dl, a, b);
    }
  }
  // The tile's bounding box: where the access is, even when cells are tiny.
  const ImVec2 a = cell_min(r, ec.bounds.row0, ec.bounds.col0), b = cell_min(r, ec.bounds.row1, ec.bounds.col1);
  dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), kTileEdge);
}

// Write-conflict cells: an outline inside each run of cells, drawn over
// the grid lines so it keeps its color.
void draw_conflicts(ImDrawList* dl, const std::vector<CellBounds>& runs, const CanvasResult& r) {
  const float t = r.cell >= kHatchFrom ? 2.0f : 1.0f;
  for (const CellBounds& run : runs) {
    ImVec2 a = cell_min(r, run.row0, run.col0), b = cell_min(r, run.row1, run.col1);
    if (b.x < r.canvas_min.x || a.x > r.canvas_max.x || b.y < r.canvas_min.y || a.y > r.canvas_max.y) continue;
    at_least_a_pixel(a, b);
    if (r.cell < 3) {
      dl->AddRectFilled(a, b, palette::conflict);
      continue;
    }
    // Each cell of the run outlined, so neighbours still read as cells.
    for (int64_t c = run.col0; c < run.col1; ++c) {
      const ImVec2 p = cell_min(r, run.row0, c);
      dl->AddRect(ImVec2(p.x + t / 2, p.y + t / 2), ImVec2(p.x + r.cell - t / 2, p.y + r.cell - t / 2), palette::conflict,
                  0, 0, t);
    }
  }
}

}  // namespace

float fit_cell_size(const CellBounds& content, ImVec2 avail, float max_cell) {
  return fit_cell(content, avail.x, avail.y, max_cell);
}

CanvasResult grid_canvas(const char* id, CanvasView& view, const CanvasInput& in) {
  CanvasResult r;
  const ImVec2 size(std::max(in.size.x, 8.0f), std::max(in.size.y, 8.0f));
  r.canvas_min = ImGui::GetCursorScreenPos();
  r.canvas_max = ImVec2(r.canvas_min.x + size.x, r.canvas_min.y + size.y);
  ImGui::InvisibleButton(id, size,
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                             ImGuiButtonFlags_MouseButtonMiddle);
  if (view.cell <= 0 || view.fit_requested || !view.user_moved) {
    fit(view, in.content, size, in.max_cell);
    view.fit_requested = false;
  }
  handle_input(view, in, r.canvas_min);
  r.cell = view.cell;
  r.origin = ImVec2(r.canvas_min.x + view.pan.x, r.canvas_min.y + view.pan.y);

  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(r.canvas_min, r.canvas_max, true);
  dl->AddRectFilled(r.canvas_min, r.canvas_max, palette::beyond_tensor);
  draw_tensor(dl, in, r);
  if (in.cells) draw_event_cells(dl, in, r);
  draw_grid_lines(dl, in, r);
  if (in.conflicts) draw_conflicts(dl, *in.conflicts, r);
  draw_tensor_edge(dl, *in.layout, r);
  for (const auto& [bounds, color] : in.highlights) {
    if (bounds.empty()) continue;
    dl->AddRect(cell_min(r, bounds.row0, bounds.col0), cell_min(r, bounds.row1, bounds.col1), color, 0, 0, 2.0f);
  }
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const Cell c{static_cast<int64_t>(std::floor((m.y - r.origin.y) / r.cell)),
                 static_cast<int64_t>(std::floor((m.x - r.origin.x) / r.cell))};
    r.hovered = c;
    if (r.cell >= 3) dl->AddRect(cell_min(r, c.row, c.col), cell_min(r, c.row + 1, c.col + 1), palette::highlight);
    const ImGuiIO& io = ImGui::GetIO();
    r.clicked = ImGui::IsItemDeactivated() && io.MouseDragMaxDistanceSqr[0] < 16.0f;
  }
  dl->PopClipRect();
  return r;
}

void record_canvas(ViewerState& s, const std::string& name, const CanvasResult& r, const GridLayout& layout,
                   const EventCells* cells) {
  if (!s.recorder) return;
  RecordedGrid g;
  g.name = name;
  g.canvas = {r.canvas_min.x, r.canvas_min.y, r.canvas_max.x, r.canvas_max.y};
  g.origin_x = r.origin.x;
  g.origin_y = r.origin.y;
  g.cell = r.cell;
  g.layout = layout;
  if (cells)
    for (size_t i = 0; i < cells->cells.size(); ++i) {
      const EventCell& c = cells->cells[i];
      if (i > 0 && cells->cells[i - 1].cell == c.cell) continue;  // the drawn lane of each cell
      RecordedLane lane{c.lane, c.cell, c.mark, c.inside, g.cell_rect(c.cell), false};
      lane.visible = g.cell_visible(c.cell);
      g.lanes.push_back(lane);
    }
  s.recorder->record(std::move(g));
}

}  // namespace viz
