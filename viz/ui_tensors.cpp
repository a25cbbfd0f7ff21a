// The tensor panes: every buffer of the launch as a grid, colored by the
// current mode, with the current event's lanes drawn on top (and past the
// tensor's edge where they land beyond it). Hover a cell for its index,
// values and the programs that touched it; click it to select one of them.
#include <algorithm>
#include <cstdio>
#include <string>

#include "model_picture.h"
#include "model_placement.h"
#include "ui_grid_canvas.h"
#include "ui_windows.h"

namespace viz {

namespace {

std::string value_string(const std::vector<double>& v, int64_t o) {
  if (o < 0 || o >= static_cast<int64_t>(v.size())) return "-";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g", v[o]);
  return buf;
}

void layout_controls(TensorPane& pane) {
  GridLayout& g = pane.layout;
  bool changed = false;
  ImGui::PushID(pane.buffer);
  if (g.kind == LayoutKind::Strip) {
    int64_t wrap = g.wrap;
    const int64_t one = 1, eight = 8;
    ImGui::SetNextItemWidth(110);
    if (ImGui::InputScalar("wrap", ImGuiDataType_S64, &wrap, &one, &eight)) {
      g.wrap = std::clamp<int64_t>(wrap, 1, std::max<int64_t>(g.elements(), 1));
      changed = true;
    }
  } else if (g.rank() >= 3) {
    // Which two axes are rows and columns; the others get slice sliders.
    std::vector<std::string> names;
    for (int a = 0; a < g.rank(); ++a) names.push_back("axis " + std::to_string(a));
    auto axis_combo = [&](const char* label, int& axis, int other) {
      ImGui::SetNextItemWidth(80);
      if (ImGui::BeginCombo(label, names[axis].c_str())) {
        for (int a = 0; a < g.rank(); ++a)
          if (a != other && ImGui::Selectable(names[a].c_str(), a == axis)) {
            axis = a;
            changed = true;
          }
        ImGui::EndCombo();
      }
    };
    axis_combo("rows", g.row_axis, g.col_axis);
    ImGui::SameLine();
    axis_combo("cols", g.col_axis, g.row_axis);
    ImGui::SameLine();
    ImGui::Checkbox("follow event", &pane.follow_event);
    for (int a : g.slice_axes()) {
      const int64_t lo = 0, hi = std::max<int64_t>(g.shape[a] - 1, 0);
      ImGui::SetNextItemWidth(160);
      const std::string label = "slice of axis " + std::to_string(a);
      if (ImGui::SliderScalar(label.c_str(), ImGuiDataType_S64, &g.slice[a], &lo, &hi)) {
        pane.follow_event = false;
        changed = true;
      }
    }
  }
  ImGui::PopID();
  if (changed) ++pane.layout_version;
}

// The event a pane shows (current, or the latest earlier one on its buffer).
const tl::Event* shown_event(const ViewerState& s, const TensorPane& pane) {
  if (pane.shown_event < 0 || s.cursor.program() < 0) return nullptr;
  return &s.trace().programs[s.cursor.program()].events[pane.shown_event];
}

void lane_lines(ViewerState& s, const TensorPane& pane, Cell c) {
  const tl::Event* e = shown_event(s, pane);
  if (!e) return;
  const tl::TraceBuffer& b = s.trace().buffers[pane.buffer];
  auto [first, last] = pane.cells.lanes_at(c);
  if (first == last) return;
  if (pane.shown_event != s.cursor.event()) ImGui::TextDisabled("event #%d, earlier:", pane.shown_event);
  const size_t shown = std::min(last, first + 4);
  for (size_t i = first; i < shown; ++i) {
    const EventCell& ec = pane.cells.cells[i];
    const int64_t offset = e->offsets[ec.lane];
    std::string line = "lane " + format_index(tile_coordinates(ec.lane, e->shape)) + ": " + cell_mark_name(ec.mark);
    line += ", offset " + std::to_string(offset);
    if (ec.mark == CellMark::OutOfBounds || ec.mark == CellMark::MaskedOutOfBounds)
      line += " (valid [0, " + std::to_string(b.extent) + "))";
    if (ec.lane < static_cast<int64_t>(e->values.size()) && !is_hatched(ec.mark) && ec.mark != CellMark::OutOfBounds)
      line += ", value " + value_string(e->values, ec.lane);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(mark_color(ec.mark)), "%s", line.c_str());
  }
  if (last - first > shown - first) ImGui::TextDisabled("... %zu lanes here in all", last - first);
}

void cell_tooltip(ViewerState& s, const TensorPane& pane, Cell c) {
  const tl::TraceBuffer& b = s.trace().buffers[pane.buffer];
  const GridLayout& g = pane.layout;
  const bool inside = g.inside(c);
  if (!inside && !pane.cells.top_at(c)) return;
  ImGui::BeginTooltip();
  if (inside) {
    const int64_t offset = g.offset_at(c);
    ImGui::Text("%s%s  offset %lld", b.name.c_str(), format_index(g.index_at(c)).c_str(), static_cast<long long>(offset));
    if (!b.values_before.empty() || !b.values_after.empty())
      ImGui::Text("before %s   after %s", value_string(b.values_before, offset).c_str(),
                  value_string(b.values_after, offset).c_str());
    const BufferCoverage& cov = s.coverage(pane.buffer);
    if (offset < cov.extent) {
      ImGui::Text("loaded by %u program%s, stored by %u%s", cov.loads[offset], cov.loads[offset] == 1 ? "" : "s",
                  cov.stores[offset], cov.atomics[offset] ? (", atomics by " + std::to_string(cov.atomics[offset])).c_str() : "");
      std::string who;
      for (int p : cov.touched_by(offset, 8)) who += pid_string(s.trace().programs[p].pid) + " ";
      if (cov.touched_count(offset) > 8) who += "...";
      if (!who.empty()) ImGui::TextDisabled("touched by %s(click to select)", who.c_str());
    }
    if (const BufferConflicts* conflicts = s.conflicts(pane.buffer))
      if (const ConflictCell* cc = conflicts->at(offset)) {
        const ImVec4 color = ImGui::ColorConvertU32ToFloat4(palette::conflict);
        if (cc->first == cc->second)
          ImGui::TextColored(color, "write conflict: two lanes of program %s store here", pid_string(cc->first).c_str());
        else
          ImGui::TextColored(color, "write conflict: programs %s and %s both store here%s", pid_string(cc->first).c_str(),
                             pid_string(cc->second).c_str(),
                             cc->storers > 2 ? (" (" + std::to_string(cc->storers) + " programs in all)").c_str() : "");
      }
  } else {
    ImGui::Text("past the edge of %s (no element)", b.name.c_str());
  }
  lane_lines(s, pane, c);
  ImGui::EndTooltip();
}

// Click: select a program that touched the element, the next one after the
// current program on every click.
void select_toucher(ViewerState& s, const TensorPane& pane, Cell c) {
  if (!pane.layout.inside(c)) return;
  const BufferCoverage& cov = s.coverage(pane.buffer);
  const std::vector<int> who = cov.touched_by(pane.layout.offset_at(c), 1 << 20);
  if (who.empty()) return;
  auto it = std::upper_bound(who.begin(), who.end(), s.cursor.program());
  const int next = it == who.end() ? who.front() : *it;
  if (s.cursor.select_program(next)) s.on_cursor_moved();
}

void draw_pane(ViewerState& s, TensorPane& pane, float max_height) {
  const tl::TraceBuffer& b = s.trace().buffers[pane.buffer];
  const EventCells& cells = pane_event_cells(s, pane);
  const tl::Event* e = shown_event(s, pane);
  const bool current = e && pane.shown_event == s.cursor.event();
  ImGui::Text("%s", b.name.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("%s %s%s%s", std::string(tl::name(b.dtype)).c_str(), format_index(b.shape).c_str(),
                      s.is_output(pane.buffer) ? "  output" : "", pane.layout.by_storage ? "  (by storage offset)" : "");
  if (e) {
    ImGui::SameLine();
    if (current) ImGui::Text(" #%d %s: %s", pane.shown_event, tl::event_kind_name(e->kind), cells_summary(cells).c_str());
    else ImGui::TextDisabled(" #%d %s (earlier): %s", pane.shown_event, tl::event_kind_name(e->kind), cells_summary(cells).c_str());
    if (cells.other_slices) {
      ImGui::SameLine();
      ImGui::TextDisabled("(+%lld lanes on other slices)", static_cast<long long>(cells.other_slices));
    }
  }
  layout_controls(pane);

  // Whole: the tensor and where the program's lanes land. Framed: the
  // cells of the shown event (else every cell the program touches on this
  // buffer, outlined), when the whole is too small to read.
  const CellBounds& program = pane_program_bounds(s, pane);
  CellBounds whole = pane.layout.tensor_bounds();
  whole.include(program);
  constexpr float kMaxCell = 28;
  const float width = ImGui::GetContentRegionAvail().x;
  const CellBounds framed =
      frame_bounds(FrameMode::Selection, e ? cells.bounds : program, whole, width, max_height, kMaxCell);
  const CellBounds content = s.frame_mode == FrameMode::Selection ? framed : whole;
  // Only where framing changes anything (too large to read whole): which
  // rows and columns are shown, since the tensor's edges may be out of view.
  if (framed != whole && s.frame_mode == FrameMode::Selection) {
    const CellBounds shown{std::max(content.row0, whole.row0), std::max(content.col0, whole.col0),
                           std::min(content.row1, whole.row1), std::min(content.col1, whole.col1)};
    ImGui::TextDisabled("framed: rows %lld-%lld, columns %lld-%lld of %lld x %lld  (Z: whole tensor)",
                        static_cast<long long>(shown.row0), static_cast<long long>(shown.row1 - 1),
                        static_cast<long long>(shown.col0), static_cast<long long>(shown.col1 - 1),
                        static_cast<long long>(pane.layout.rows()), static_cast<long long>(pane.layout.cols()));
  } else if (framed != whole) {
    ImGui::TextDisabled("whole tensor, %.2g pixels a cell  (Z: frame the selection)",
                        static_cast<double>(fit_cell_size(whole, ImVec2(width, max_height), kMaxCell)));
  }
  const CachedImage& image = pane_image(s, pane);
  const float cell = fit_cell_size(content, ImVec2(width, 1e9f), kMaxCell);
  CanvasInput in;
  in.layout = &pane.layout;
  in.texture = &image.texture;
  in.content = content;
  in.cells = e ? &cells : nullptr;
  const bool stored_values = s.mode == ColorMode::Values && s.value_source == ValueSource::Stored;
  in.outline_cells = s.mode != ColorMode::Access && !stored_values;
  in.cell_color = [&s, &pane](const EventCell& c) { return event_cell_color(s, pane, c); };
  in.colors_vary_by_lane = stored_values && current;
  in.conflicts = &pane_conflict_runs(s, pane);
  if (!e && content != whole) in.highlights.push_back({program, rgba(255, 255, 255, 120)});
  in.max_cell = kMaxCell;
  in.size = ImVec2(width, std::clamp(static_cast<float>(content.rows()) * cell + 8.0f, 40.0f, max_height));
  const std::string id = "canvas_" + std::to_string(pane.buffer);
  const CanvasResult r = grid_canvas(id.c_str(), pane.view, in);
  record_canvas(s, "tensor:" + b.name, r, pane.layout, in.cells);
  if (r.hovered) {
    s.canvas_hovered_now = true;
    cell_tooltip(s, pane, *r.hovered);
    if (r.clicked) select_toucher(s, pane, *r.hovered);
  }
}

}  // namespace

void draw_tensors_window(ViewerState& s) {
  const ImGuiWindowFlags flags = s.canvas_hovered ? ImGuiWindowFlags_NoScrollWithMouse : 0;
  if (!begin_window(s, "Tensors", WindowSlot::Tensors, flags)) {
    ImGui::End();
    return;
  }
  ImGui::TextDisabled("color by %s  (1 access, 2 coverage, 3 values; wheel zooms, drag pans, double-click fits)",
                      color_mode_name(s.mode));
  const float max_height = std::max(160.0f, ImGui::GetContentRegionAvail().y * 0.72f);
  for (TensorPane& pane : s.panes) {
    ImGui::Separator();
    draw_pane(s, pane, max_height);
  }
  if (s.panes.empty()) ImGui::TextDisabled("this launch has no buffers");
  ImGui::End();
}

}  // namespace viz
