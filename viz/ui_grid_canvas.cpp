#include "ui_grid_canvas.h"

#include <algorithm>
#include <cmath>

#include "model_canvas.h"
#include "model_framing.h"
#include "screenshot.h"

namespace viz {

namespace {

constexpr float kMargin = kCanvasMargin;
constexpr float kMinCell = 0.02f, kMaxCell = 96;

void fit(CanvasView& v, const CellBounds& content, ImVec2 size, float max_cell) {
  v.cell = fit_cell_size(content, size, max_cell);
  v.pan = ImVec2(kMargin - static_cast<float>(content.col0) * v.cell, kMargin - static_cast<float>(content.row0) * v.cell);
}

ImVec2 cell_min(const CanvasResult& r, int64_t row, int64_t col) {
  return ImVec2(r.origin.x + static_cast<float>(col) * r.cell, r.origin.y + static_cast<float>(row) * r.cell);
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

// Replays the canvas's drawing commands (model_canvas.h) into the draw list.
void draw_commands(ImDrawList* dl, const CanvasInput& in, const std::vector<DrawCommand>& commands) {
  for (const DrawCommand& c : commands) {
    const ImVec2 a(c.x0, c.y0), b(c.x1, c.y1);
    switch (c.kind) {
      case DrawCommand::Kind::Fill: dl->AddRectFilled(a, b, c.color); break;
      case DrawCommand::Kind::Outline: dl->AddRect(a, b, c.color, 0, 0, c.thickness); break;
      case DrawCommand::Kind::Line: dl->AddLine(a, b, c.color, c.thickness); break;
      case DrawCommand::Kind::Image:
        if (in.texture && in.texture->valid()) dl->AddImage(in.texture->imgui_id(), a, b);
        break;
    }
  }
}

CanvasContent content_of(const CanvasInput& in) {
  CanvasContent c;
  c.layout = in.layout;
  c.has_image = in.texture && in.texture->valid();
  if (c.has_image) {
    c.image_width = in.texture->width();
    c.image_height = in.texture->height();
    c.image_step = in.texture->step();
  }
  c.flat_color = in.flat_color;
  c.cells = in.cells;
  c.cell_color = in.cell_color;
  c.colors_vary_by_lane = in.colors_vary_by_lane;
  c.outline_cells = in.outline_cells;
  c.highlights = in.highlights;
  c.conflicts = in.conflicts;
  return c;
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
  CanvasGeometry g;
  g.min_x = r.canvas_min.x;
  g.min_y = r.canvas_min.y;
  g.max_x = r.canvas_max.x;
  g.max_y = r.canvas_max.y;
  g.origin_x = r.origin.x;
  g.origin_y = r.origin.y;
  g.cell = r.cell;
  draw_commands(dl, in, canvas_commands(content_of(in), g));
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
